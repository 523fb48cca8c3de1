//! Where `detect.installed` points, and how an installed copy compares with a bundled one.

use serde::Serialize;
use std::path::{Path, PathBuf};

/// Which part of `detect.installed` chose the folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Via {
    /// The environment variable, set and non-empty.
    Env,
    /// The manifest default.
    Default,
}

/// The install folder `detect.installed` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The folder; `None` when the default needs a home folder and none is known.
    pub path: Option<PathBuf>,
    /// Env or default.
    pub via: Via,
    /// A remark on how the value was read (a `~user` prefix, an unknown home).
    pub note: Option<String>,
}

/// Resolves `detect.installed`: a non-empty `env_value` is taken as written; otherwise the
/// default, where only `~` and a leading `~/` mean the home folder. Nothing goes through a
/// shell, so `~user/…` is not anyone's home: it is a relative path whose first folder is named
/// `~user`, read against `cwd` like any other relative path (as the family's tools read it).
pub fn resolve_installed(
    env_value: Option<&str>,
    default: &str,
    home: Option<&Path>,
    cwd: &Path,
) -> Resolved {
    if let Some(v) = env_value.filter(|v| !v.is_empty()) {
        return Resolved {
            path: Some(cwd.join(v)),
            via: Via::Env,
            note: None,
        };
    }
    let home_rel = if default == "~" {
        Some("")
    } else {
        default.strip_prefix("~/")
    };
    let (path, note) = match home_rel {
        Some(rest) => match home {
            Some(h) => (Some(h.join(rest)), None),
            None => (None, Some("no home folder is known".to_owned())),
        },
        None if default.starts_with('~') => (
            Some(cwd.join(default)),
            Some(format!(
                "{default} is not expanded (only ~ and ~/ are): read relative to the current folder"
            )),
        ),
        None => (Some(cwd.join(default)), None),
    };
    Resolved {
        path,
        via: Via::Default,
        note,
    }
}

/// Why a folder is a candidate for a member.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Found {
    /// It is where `detect.installed` points.
    DetectInstalled,
    /// It is `<root>/<name>` under a skill root.
    Root,
}

/// The folders to look at for one member, in order and each once: the `detect.installed`
/// folder first (the one the family's own tools use), then `<root>/<name>` for every root.
pub fn candidates(
    name: &str,
    installed: Option<&Path>,
    roots: &[PathBuf],
) -> Vec<(PathBuf, Found)> {
    let mut out: Vec<(PathBuf, Found)> = Vec::new();
    let all = installed
        .map(|p| (p.to_path_buf(), Found::DetectInstalled))
        .into_iter()
        .chain(roots.iter().map(|r| (r.join(name), Found::Root)));
    for (path, found) in all {
        if !out.iter().any(|(p, _)| *p == path) {
            out.push((path, found));
        }
    }
    out
}

/// An installed copy's version against the bundled one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Freshness {
    /// The bundled copy is newer: a refresh would bring it.
    Behind,
    /// The installed copy is the bundled version or newer.
    Current,
    /// One side has no version, or one that does not start with `x.y.z`.
    Unknown,
    /// Not compared: only a bridge whose copy is `ok` has a bundled copy to compare with.
    NotChecked,
}

impl Freshness {
    /// The label used in output.
    pub fn label(self) -> &'static str {
        match self {
            Freshness::Behind => "behind",
            Freshness::Current => "current",
            Freshness::Unknown => "unknown",
            Freshness::NotChecked => "not-checked",
        }
    }
}

/// Compares an installed version with a bundled one as the kit does: each is read as the
/// `x.y.z` it starts with (blanks around it, and anything after it, ignored: `3.5.0-rc.1` is
/// 3.5.0); an installed version at or above the bundled one is current.
pub fn freshness(installed: Option<&str>, bundled: Option<&str>) -> Freshness {
    match (
        installed.and_then(leading_triple),
        bundled.and_then(leading_triple),
    ) {
        (Some(i), Some(b)) if i < b => Freshness::Behind,
        (Some(_), Some(_)) => Freshness::Current,
        _ => Freshness::Unknown,
    }
}

/// Whether the kit bundles a copy of a member of this kind: only the bridges.
pub fn kit_bundles(kind: &str) -> bool {
    kind == super::roster::BRIDGE_KIND
}

/// Whether a member's copy is compared with a bundled one at all: a bundled kind whose copy is
/// `ok`.
pub fn compares_with_bundle(kind: &str, state: super::State) -> bool {
    kit_bundles(kind) && state == super::State::Ok
}

/// A copy's version as status reports it: only a copy that is what it claims to be (`ok`) has
/// an authoritative version.
pub fn authoritative_version<T>(state: super::State, version: Option<T>) -> Option<T> {
    version.filter(|_| state == super::State::Ok)
}

/// Why a member has no copy where it is looked for: its marker `file` is missing at the folder
/// its variable `env` names (`env_value`, taken as written when set and non-empty), else at the
/// resolved folder `path`, else where `detect.installed` points.
pub fn missing_reason(
    file: &str,
    env: &str,
    env_value: Option<&str>,
    path: Option<&str>,
) -> String {
    match (env_value.filter(|v| !v.is_empty()), path) {
        (Some(v), _) => format!("no {file} at {env}={v} (taken as written)"),
        (None, Some(path)) => format!("no {file} in {path}"),
        (None, None) => format!("no {file} where detect.installed points"),
    }
}

/// The `x.y.z` a version starts with, each part a JavaScript number (so a part too long for an
/// integer still compares, as the kit compares it).
fn leading_triple(v: &str) -> Option<[f64; 3]> {
    let v = v.trim();
    let mut parts = [0f64; 3];
    let mut rest = v;
    for (i, part) in parts.iter_mut().enumerate() {
        if i > 0 {
            rest = rest.strip_prefix('.')?;
        }
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        *part = rest[..digits].parse().ok()?;
        rest = &rest[digits..];
    }
    Some(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_member_says_where_it_was_looked_for() {
        let r = |v, p| missing_reason("SKILL.md", "AW_X", v, p);
        assert_eq!(
            r(Some("/a"), Some("/b")),
            "no SKILL.md at AW_X=/a (taken as written)"
        );
        // An empty variable is unset: the resolved folder is named instead.
        assert_eq!(r(Some(""), Some("/b")), "no SKILL.md in /b");
        assert_eq!(r(None, None), "no SKILL.md where detect.installed points");
    }

    #[test]
    fn only_an_ok_copy_has_an_authoritative_version_and_only_bridges_are_bundled() {
        assert_eq!(
            authoritative_version(super::super::State::Ok, Some(1)),
            Some(1)
        );
        assert_eq!(
            authoritative_version(super::super::State::Foreign, Some(1)),
            None
        );
        assert!(kit_bundles(super::super::roster::BRIDGE_KIND));
        assert!(!kit_bundles("memory"));
    }

    #[test]
    fn env_then_default_with_tilde() {
        let home = Path::new("/h");
        let cwd = Path::new("/w");
        let r = resolve_installed(Some("/x/y"), "~/d", Some(home), cwd);
        assert_eq!((r.path.unwrap(), r.via), (PathBuf::from("/x/y"), Via::Env));
        // An empty variable counts as unset.
        let r = resolve_installed(Some(""), "~/d/e", Some(home), cwd);
        assert_eq!(
            (r.path.unwrap(), r.via),
            (PathBuf::from("/h/d/e"), Via::Default)
        );
        assert_eq!(
            resolve_installed(None, "~", Some(home), cwd).path.unwrap(),
            PathBuf::from("/h")
        );
        let user = resolve_installed(None, "~bob/d", Some(home), cwd);
        assert_eq!(user.path.unwrap(), PathBuf::from("/w/~bob/d"));
        assert!(user.note.unwrap().contains("not expanded"));
        assert_eq!(
            resolve_installed(None, "rel", Some(home), cwd)
                .path
                .unwrap(),
            PathBuf::from("/w/rel")
        );
        assert_eq!(resolve_installed(None, "~/d", None, cwd).path, None);
    }

    #[test]
    fn candidates_start_with_detect_installed_and_are_unique() {
        let roots = [PathBuf::from("/h/.claude/skills"), PathBuf::from("/r")];
        let c = candidates("m", Some(Path::new("/h/.claude/skills/m")), &roots);
        assert_eq!(
            c,
            [
                (PathBuf::from("/h/.claude/skills/m"), Found::DetectInstalled),
                (PathBuf::from("/r/m"), Found::Root)
            ]
        );
    }

    #[test]
    fn freshness_reads_the_leading_triple_as_the_kit_does() {
        let f = |i: &str, b: &str| freshness(Some(i), Some(b));
        assert_eq!(f("3.5.0", "3.10.0"), Freshness::Behind);
        assert_eq!(f("3.5.0", "3.5.0"), Freshness::Current);
        assert_eq!(f("4.0.0", "3.9.9"), Freshness::Current, "newer is current");
        assert_eq!(f("3.5.0", "3.5.0.1"), Freshness::Current);
        assert_eq!(f("3.5.0", "3.5.0foo"), Freshness::Current);
        assert_eq!(f("3.5.0", " 3.5.0 "), Freshness::Current);
        assert_eq!(f("7.1.0", "7.1.0-rc.1"), Freshness::Current);
        assert_eq!(f("3.5.0", "3.5"), Freshness::Unknown);
        assert_eq!(f("3.5.0", "3.5.99999999999999999999"), Freshness::Behind);
        assert_eq!(f("x", "1.0.0"), Freshness::Unknown);
        assert_eq!(freshness(None, Some("1.0.0")), Freshness::Unknown);
        assert!(compares_with_bundle(
            "execution-backend",
            super::super::State::Ok
        ));
        assert!(!compares_with_bundle(
            "composition-root",
            super::super::State::Ok
        ));
        assert!(!compares_with_bundle(
            "execution-backend",
            super::super::State::Invalid
        ));
    }
}
