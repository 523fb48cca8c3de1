//! The sandbox-lane advice: the egress hosts and writable state dirs the family members need,
//! and the recipe fingerprint an acknowledgement is keyed by.
//!
//! The fingerprint must equal the family kit's byte for byte, or an acknowledgement made with
//! one tool would not be recognised by the other: SHA-256 of the compact JSON
//! `{"hosts":[sorted],"dirs":[sorted, unique, home-symbolic]}`, first 16 hex digits. Sorting is by
//! UTF-16 code unit, as JavaScript's default sort compares.

use super::roster::{BRIDGE_KIND, Member};
use super::wiring::Wiring;
use crate::canonical::sha256_hex;
use serde::Serialize;

/// The sandbox-lane recipe: what to allow, and its fingerprint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Recipe {
    /// The egress hosts, deduplicated in first-seen order.
    pub hosts: Vec<String>,
    /// The writable state dirs as resolved, in member order.
    pub dirs: Vec<String>,
    /// The 16-hex recipe fingerprint.
    pub fingerprint: String,
}

/// Merges host lists into one, keeping the first occurrence of each (exact, case-sensitive).
pub fn merge_hosts<'a>(hosts: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for h in hosts {
        if !out.iter().any(|o| o == h) {
            out.push(h.to_owned());
        }
    }
    out
}

/// Resolves one writable dir as the wrappers' shell does: a non-empty `env_value` wins, used as
/// given when it is `~`, `~/…` or absolute and otherwise taken relative to `project_root` (so
/// `~user/…` is relative: the wrappers never expand it); without one, the default as written.
pub fn resolve_writable_dir(env_value: Option<&str>, default: &str, project_root: &str) -> String {
    match env_value.filter(|v| !v.is_empty()) {
        Some(v) if v == "~" || v.starts_with("~/") || v.starts_with('/') => v.to_owned(),
        Some(v) => resolve_against(project_root, v),
        None => default.to_owned(),
    }
}

/// `path.resolve(root, rel)` for a relative `rel`: joined, then `.` and empty segments dropped
/// and `..` popped (never above `/`).
fn resolve_against(root: &str, rel: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for seg in root.split('/').chain(rel.split('/')) {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    format!("/{}", parts.join("/"))
}

/// An absolute path with its `.`, `..`, repeated and trailing slashes resolved; any other path as
/// it is.
pub fn normalise_absolute(dir: &str) -> String {
    if dir.starts_with('/') {
        resolve_against("/", dir)
    } else {
        dir.to_owned()
    }
}

/// Writes an absolute path under `home` back as `~/…` (and `home` itself as `~`).
pub fn home_symbolic(dir: &str, home: Option<&str>) -> String {
    // HOME is resolved like any absolute path (`/h//u/.` is `/h/u`), as the kit resolves it.
    let home = home.map(normalise_absolute);
    let Some(home) = home
        .as_deref()
        .map(|h| h.trim_end_matches('/'))
        .filter(|h| !h.is_empty())
    else {
        return dir.to_owned();
    };
    if dir == home {
        return "~".to_owned();
    }
    match dir.strip_prefix(home).and_then(|r| r.strip_prefix('/')) {
        Some(rest) => format!("~/{rest}"),
        None => dir.to_owned(),
    }
}

/// The kit's recipe fingerprint of a host list and resolved dirs.
pub fn recipe_fingerprint(hosts: &[String], dirs: &[String], home: Option<&str>) -> String {
    let mut hosts: Vec<&str> = hosts.iter().map(String::as_str).collect();
    hosts.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
    // An absolute dir is keyed in its resolved form (`/a/b/`, `/a/x/../b` are `/a/b`), as the
    // kit's `path.resolve` keys it; a `~` form is keyed as written.
    let mut dirs: Vec<String> = dirs
        .iter()
        .map(|d| home_symbolic(&normalise_absolute(d), home))
        .collect();
    dirs.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
    dirs.dedup();
    // Key order matters: the kit stringifies `{hosts, dirs}` in that order.
    let text = format!(
        "{{\"hosts\":{},\"dirs\":{}}}",
        serde_json::Value::from(hosts),
        serde_json::Value::from(dirs)
    );
    sha256_hex(text.as_bytes())[..16].to_owned()
}

/// Builds the recipe from the members' hosts and resolved dirs.
pub fn recipe(hosts: Vec<String>, dirs: Vec<String>, home: Option<&str>) -> Recipe {
    let fingerprint = recipe_fingerprint(&hosts, &dirs, home);
    Recipe {
        hosts,
        dirs,
        fingerprint,
    }
}

/// The bridges among the surveyed members, as the kit walks its bundle folder: only the
/// execution backends, in name order (`member` gives each item's roster entry).
pub fn bridges_in_kit_order<T>(
    members: impl IntoIterator<Item = T>,
    member: impl Fn(&T) -> &Member,
) -> Vec<T> {
    let mut out: Vec<T> = members
        .into_iter()
        .filter(|m| member(m).kind == BRIDGE_KIND)
        .collect();
    out.sort_by_key(|m| member(m).name);
    out
}

/// Whether a bridge counts towards the recipe: with `--all` (`all`) every bridge does, else only
/// one whose review wrapper is wired (a bridge without a review wrapper never is).
pub fn counts(all: bool, wiring: Option<Wiring>) -> bool {
    all || wiring.is_some_and(Wiring::wired)
}

/// The recipe of the counted bridges, each given as its hosts and its writable dirs (resolved):
/// hosts and dirs merged in member order, first occurrence kept; `None` when no bridge counts,
/// since then there is no advice to give.
pub fn lane_recipe<'a, H, D>(
    counted: impl IntoIterator<Item = (H, D)>,
    home: Option<&str>,
) -> Option<Recipe>
where
    H: IntoIterator<Item = &'a str>,
    D: IntoIterator<Item = &'a str>,
{
    let mut hosts: Vec<&str> = Vec::new();
    let mut dirs: Vec<&str> = Vec::new();
    let mut any = false;
    for (h, d) in counted {
        any = true;
        hosts.extend(h);
        dirs.extend(d);
    }
    any.then(|| recipe(merge_hosts(hosts), merge_hosts(dirs), home))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn only_the_bridges_count_in_name_order() {
        let mut roster: Vec<&Member> = crate::family::MEMBERS.iter().collect();
        roster.reverse();
        let order: Vec<&str> = bridges_in_kit_order(roster, |m| m)
            .iter()
            .map(|m| m.name)
            .collect();
        let mut want: Vec<&str> = crate::family::MEMBERS
            .iter()
            .filter(|m| m.kind == BRIDGE_KIND)
            .map(|m| m.name)
            .collect();
        want.sort_unstable();
        assert!(!want.is_empty());
        assert_eq!(order, want);
    }

    #[test]
    fn a_bridge_counts_when_wired_or_with_all() {
        let wired = Wiring {
            excluded: true,
            on_path: true,
            allowed: true,
        };
        let half = Wiring {
            allowed: false,
            ..wired
        };
        assert!(counts(false, Some(wired)));
        assert!(!counts(false, Some(half)));
        assert!(!counts(false, None));
        assert!(counts(true, Some(half)));
        assert!(counts(true, None));
    }

    #[test]
    fn the_lane_recipe_merges_the_counted_bridges_and_needs_one() {
        let none: [(Vec<&str>, Vec<&str>); 0] = [];
        assert_eq!(lane_recipe(none, None), None);
        let r = lane_recipe(
            [
                (vec!["x.io", "y.io"], vec!["/s"]),
                (vec!["y.io", "z.io"], vec!["/s", "/t"]),
            ],
            None,
        )
        .unwrap();
        assert_eq!(r.hosts, ["x.io", "y.io", "z.io"]);
        assert_eq!(r.dirs, ["/s", "/t"]);
        assert_eq!(r.fingerprint, recipe_fingerprint(&r.hosts, &r.dirs, None));
    }

    fn v(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    /// The two real bridges' hosts, codex first.
    const BOTH_BRIDGES_HOSTS: [&str; 6] = [
        "chatgpt.com",
        "*.chatgpt.com",
        "*.googleapis.com",
        "accounts.google.com",
        "antigravity-unleash.goog",
        "lh3.googleusercontent.com",
    ];

    // Expected values computed with Node's crypto over JSON.stringify, per the kit's recipe.
    #[test]
    fn fingerprint_matches_the_kit() {
        let hosts = merge_hosts(BOTH_BRIDGES_HOSTS);
        let dirs = v(&["~/.codex", "~/.gemini/antigravity-cli"]);
        assert_eq!(recipe_fingerprint(&hosts, &dirs, None), "72a12b72349012b9");
        let hosts = v(&["chatgpt.com", "*.chatgpt.com"]);
        assert_eq!(
            recipe_fingerprint(&hosts, &v(&["~/.codex"]), None),
            "83eebbfc74e6ca63"
        );
        // An absolute dir under HOME is keyed as its `~/` form; a repeated dir once.
        assert_eq!(
            recipe_fingerprint(&hosts, &v(&["/h/u/.codex", "~/.codex"]), Some("/h/u")),
            "83eebbfc74e6ca63"
        );
        assert_eq!(
            recipe_fingerprint(&hosts, &v(&["~/.codex-alt"]), None),
            "ef8c5391ac68fb31"
        );
        // An absolute dir is keyed resolved: a trailing slash or a `..` changes nothing (the
        // kit's value for CODEX_HOME=$HOME/.codex/ is the plain one).
        let both = merge_hosts(BOTH_BRIDGES_HOSTS);
        assert_eq!(
            recipe_fingerprint(
                &both,
                &v(&["/h/u/x/../.codex/", "~/.gemini/antigravity-cli"]),
                Some("/h/u")
            ),
            "72a12b72349012b9"
        );
        assert_eq!(normalise_absolute("/tmp/x/../y"), "/tmp/y");
        assert_eq!(normalise_absolute("~/a/../b"), "~/a/../b");
        assert_eq!(normalise_absolute("/"), "/");
    }

    #[test]
    fn hosts_merge_first_seen_and_case_sensitive() {
        assert_eq!(
            merge_hosts(["a.com", "b.com", "a.com", "A.com"]),
            v(&["a.com", "b.com", "A.com"])
        );
    }

    #[test]
    fn writable_dirs_resolve_as_the_wrappers_do() {
        let r = |e: Option<&str>| resolve_writable_dir(e, "~/.d", "/proj/x");
        assert_eq!(r(None), "~/.d");
        assert_eq!(r(Some("")), "~/.d");
        assert_eq!(r(Some("~")), "~");
        assert_eq!(r(Some("~/alt")), "~/alt");
        assert_eq!(r(Some("/abs/d")), "/abs/d");
        assert_eq!(r(Some("~user/d")), "/proj/x/~user/d");
        assert_eq!(r(Some("../up/./d")), "/proj/up/d");
        assert_eq!(home_symbolic("/h/u", Some("/h/u/")), "~");
        assert_eq!(home_symbolic("/h/user2/x", Some("/h/u")), "/h/user2/x");
        assert_eq!(home_symbolic("/h/u/.codex", Some("/h//u/.")), "~/.codex");
    }
}
