//! The one piece of evidence aw checks against the disk itself: `plan.propuesta-publicada`, the
//! plan plan-new published (§ issue 20 point 10).
//!
//! Every other evidence id is taken on the agent's word (a passed validation with a non-blank
//! detail). This one is the step's whole product: without it the session closes with no plan,
//! and a copied answer template ("<what the output shows>") was enough to get there. So its
//! detail must name the plan's file, and that file must be what the board reads as a freshly
//! published plan. The rule, in order, for each plan path the detail names:
//!
//! - the detail names at least one `docs/plans/<name>`, relative to the workspace root (or the
//!   absolute `claimed_path` `aw next-number` printed, under the root);
//! - `<name>` is a plan's file name (`NNN-plan-<slug>.md`, the board's grammar), one component;
//! - the file exists, is not a symbolic link nor reached through a folder that leads out of the
//!   workspace, and is a regular file that could be read;
//! - it is not a bare reservation marker (a number claimed and nothing written);
//! - it has a `# ` title (the first level-1 heading outside a fence, non-blank);
//! - the board counts at least one phase in it;
//! - it is not declared done (a plan just published is open).
//!
//! The shell gathers what is on disk at the paths [`requested`] names ([`EvidenceFacts`]);
//! [`check`] decides. Nothing here reads a file.

use super::answer::Rejection;
use super::registry::Action;
use super::verdict::ExecResult;
use crate::canonical::parse_json;
use crate::documents::names::{DocKind, parse_name};
use crate::documents::plan::{Declaration, parse_plan};
use crate::error_code::ErrorCode;
use crate::persist::inventory::title_of;
use crate::session::reservation;
use serde_json::Value;

/// The evidence id whose detail aw checks against the disk.
pub const PLAN_PUBLISHED: &str = "plan.propuesta-publicada";

/// What the answer template puts in this evidence's `detail`: where the plan's path goes.
pub const DETAIL_TEMPLATE: &str =
    "<the plan's path, docs/plans/NNN-plan-<slug>.md, as aw status lists it>";

/// What the shell found at one path a detail names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlanFile {
    /// Nothing is there.
    Absent,
    /// The entry is a symbolic link, or a folder on the way leads out of the workspace.
    Linked,
    /// Something other than a regular file (a folder, a FIFO, a socket).
    NotRegular,
    /// A regular file that could not be read (or is larger than any document aw reads).
    Unreadable,
    /// A regular file's bytes (invalid UTF-8 replaced).
    Text(String),
}

/// The disk facts a submit carries: the workspace root (as the commands print it, `/`
/// separated) and what is at each plan path the answer names.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EvidenceFacts {
    /// The workspace root, as `aw next-number` prints it at the start of `claimed_path`.
    pub root: String,
    /// Each workspace-relative path `docs/plans/<name>` looked at, with what is there.
    pub plans: Vec<(String, PlanFile)>,
}

impl EvidenceFacts {
    fn at(&self, path: &str) -> &PlanFile {
        self.plans
            .iter()
            .find(|(p, _)| p == path)
            .map_or(&PlanFile::Absent, |(_, f)| f)
    }
}

const PLANS: &str = "docs/plans/";

/// Where a named path stops: blanks, quotes, brackets and list punctuation around it.
fn ends_path(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '`' | '\''
                | '"'
                | ','
                | ';'
                | '('
                | ')'
                | '['
                | ']'
                | '<'
                | '>'
                | '{'
                | '}'
                | '|'
                | '\u{2018}'
                | '\u{2019}'
                | '\u{201c}'
                | '\u{201d}'
                | '\u{ab}'
                | '\u{bb}'
        )
}

/// Whether `before` (the text up to a `docs/plans/`) ends where a path may start: at the start,
/// after a delimiter, `:` or `=`, after `./` so placed, or after the workspace root and `/`.
fn starts_path(before: &str, root: &str) -> bool {
    let at_edge = |s: &str| {
        s.chars()
            .next_back()
            .is_none_or(|c| ends_path(c) || c == ':' || c == '=')
    };
    if at_edge(before) {
        return true;
    }
    if let Some(rest) = before.strip_suffix("./")
        && at_edge(rest)
    {
        return true;
    }
    let root = root.trim_end_matches('/');
    !root.is_empty()
        && before
            .strip_suffix('/')
            .and_then(|b| b.strip_suffix(root))
            .is_some_and(at_edge)
}

/// The `docs/plans/<name>` paths a detail names, in order, each once, as written (the name may
/// not be a plan's). A path is `docs/plans/` (relative to the workspace root, or after the root
/// itself as `claimed_path` prints it) followed by everything up to a blank, a quote or a
/// bracket, less a trailing `.`, `:`, `!` or `?`.
pub fn named_paths(detail: &str, root: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut from = 0;
    while let Some(i) = detail[from..].find(PLANS).map(|i| from + i) {
        from = i + PLANS.len();
        if !starts_path(&detail[..i], root) {
            continue;
        }
        let tail = &detail[from..];
        let name = tail[..tail.find(ends_path).unwrap_or(tail.len())]
            .trim_end_matches(['.', ':', '!', '?']);
        if name.is_empty() {
            continue;
        }
        let path = format!("{PLANS}{name}");
        if !out.contains(&path) {
            out.push(path);
        }
    }
    out
}

/// Whether a named path's file name is a plan's: one component, the board's plan grammar.
fn plan_name(path: &str) -> bool {
    path.strip_prefix(PLANS).is_some_and(|name| {
        !name.contains(['/', '\\'])
            && !name.chars().any(char::is_control)
            && parse_name(DocKind::Plan, name).is_some()
    })
}

/// The detail of the first validation of `id` in a parsed answer (the one the verdict judges).
fn detail_in(raw: &str) -> Option<String> {
    let value = parse_json(raw).ok()?;
    value
        .get("validations")?
        .as_array()?
        .iter()
        .find(|v| v.get("id").and_then(Value::as_str) == Some(PLAN_PUBLISHED))?
        .get("detail")?
        .as_str()
        .map(str::to_owned)
}

/// The workspace-relative plan paths the shell must look at for an answer (`raw`, the stdin
/// text): those the detail of its `plan.propuesta-publicada` validation names that are plan file
/// names. None for any other answer. Each is `docs/plans/<one component>`, so looking at it can
/// never leave `docs/plans`.
pub fn requested(raw: &str, root: &str) -> Vec<String> {
    detail_in(raw)
        .map(|d| {
            named_paths(&d, root)
                .into_iter()
                .filter(|p| plan_name(p))
                .collect()
        })
        .unwrap_or_default()
}

/// Why one named path is not the published plan, in words for the message. `detail` tells a
/// placeholder (`docs/plans/NNN-plan-<slug>.md` copied as it is) from a wrong name.
fn flaw(path: &str, file: &PlanFile, folder: &str, detail: &str) -> Option<String> {
    if !plan_name(path) && detail.contains(&format!("{path}<")) {
        return Some(format!(
            "`{path}<…>` is the template's placeholder, not the path of a plan written"
        ));
    }
    if !plan_name(path) {
        return Some(format!(
            "`{path}` is not a plan's file name (`docs/plans/NNN-plan-<slug>.md`)"
        ));
    }
    let text = match file {
        PlanFile::Absent => return Some(format!("`{path}` does not exist")),
        PlanFile::Linked => {
            return Some(format!(
                "`{path}` is a symbolic link or lies behind one that leads out of the workspace"
            ));
        }
        PlanFile::NotRegular => return Some(format!("`{path}` is not a regular file")),
        PlanFile::Unreadable => return Some(format!("`{path}` could not be read")),
        PlanFile::Text(t) => t,
    };
    if let Some(owner) = reservation::owner(text.as_bytes()) {
        return Some(if owner == folder {
            format!(
                "`{path}` is still the bare reservation this session claimed: nothing was written at it"
            )
        } else {
            format!("`{path}` is a number reserved by session {owner}, not a plan")
        });
    }
    if title_of(text).is_none() {
        return Some(format!("`{path}` has no `# ` title line"));
    }
    let facts = parse_plan(text);
    if facts.phases().is_empty() {
        return Some(format!(
            "the board reads no phase in `{path}` (`### F1 — <state>` with its `> Status:` line, under `## Tasks`)"
        ));
    }
    if facts.header.declaration == Declaration::Done {
        return Some(format!(
            "`{path}` is declared done: a plan just published is open"
        ));
    }
    None
}

/// The refusal of a `plan.propuesta-publicada` the disk does not back: `Ok` when the action
/// does not demand it, or when every plan path its detail names holds a published plan (and it
/// names one). Call it once the verdict passed: the validation is then there, passed, with a
/// non-blank detail.
pub fn check(
    result: &ExecResult,
    action: &Action,
    facts: &EvidenceFacts,
    folder: &str,
) -> Result<(), Rejection> {
    if !action.evidence.iter().any(|id| id == PLAN_PUBLISHED) {
        return Ok(());
    }
    let detail = result
        .validations
        .iter()
        .find(|v| v.id == PLAN_PUBLISHED)
        .and_then(|v| v.detail.as_deref())
        .unwrap_or_default();
    let named = named_paths(detail, &facts.root);
    let flaws: Vec<String> = if named.is_empty() {
        vec!["its detail names no plan file under docs/plans".to_owned()]
    } else {
        named
            .iter()
            .filter_map(|p| flaw(p, facts.at(p), folder, detail))
            .collect()
    };
    if flaws.is_empty() {
        return Ok(());
    }
    let written: Vec<&String> = named.iter().filter(|p| plan_name(p)).collect();
    let place = match written.as_slice() {
        [one] => format!("`{one}`"),
        _ => "the `claimed_path` it prints".to_owned(),
    };
    let example = match written.as_slice() {
        [one] => (*one).clone(),
        _ => "docs/plans/NNN-plan-<slug>.md".to_owned(),
    };
    Err(Rejection::spent(
        ErrorCode::FlowEvidenceMissing,
        format!(
            "The plan `{PLAN_PUBLISHED}` reports is not in the workspace: {}.",
            flaws.join("; ")
        ),
        format!(
            "Claim the plan's number with `aw next-number docs/plans --claim plan-<slug>.md --code \
             {folder}` (claiming again returns the same file), write the whole plan at {place} \
             (a `# Plan NNN — <title>` line, `> Status: open`, its phases under `## Tasks`), run \
             `aw status --json`, then submit again with the plan's path in the detail of \
             `{PLAN_PUBLISHED}`, for example \"{example} listed by aw status with its phases\"."
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_read_where_a_path_may_start() {
        let root = "/w/x y";
        assert_eq!(
            named_paths(
                "wrote `docs/plans/001-plan-a.md`, and ./docs/plans/002-plan-b.md: ok; \
                 /w/x y/docs/plans/003-plan-c.md. again docs/plans/001-plan-a.md",
                root
            ),
            [
                "docs/plans/001-plan-a.md",
                "docs/plans/002-plan-b.md",
                "docs/plans/003-plan-c.md"
            ]
        );
        // Another workspace's folder, a folder named like it, a bare folder: not this one's plan.
        assert!(named_paths("/elsewhere/docs/plans/001-plan-a.md", root).is_empty());
        assert!(named_paths("specs/docs/plans/001-plan-a.md", root).is_empty());
        assert!(named_paths("under docs/plans/ as asked", root).is_empty());
        // The template copied as it is names a path that is not a plan's file name.
        assert_eq!(named_paths(DETAIL_TEMPLATE, root), ["docs/plans/NNN-plan-"]);
        assert!(!plan_name("docs/plans/NNN-plan-"));
        assert!(!plan_name("docs/plans/001-plan-a.md/x"));
        assert!(plan_name("docs/plans/001-plan-a.md"));
    }

    #[test]
    fn only_a_named_plan_file_is_requested() {
        let raw = |detail: &str| {
            serde_json::json!({"validations": [{"id": PLAN_PUBLISHED, "passed": true, "detail": detail}]})
                .to_string()
        };
        assert_eq!(
            requested(&raw("docs/plans/001-plan-a.md and docs/plans/x"), "/w"),
            ["docs/plans/001-plan-a.md"]
        );
        assert!(requested(&raw("<what the output shows>"), "/w").is_empty());
        assert!(requested("{\"validations\": 3}", "/w").is_empty());
        assert!(requested("not json docs/plans/001-plan-a.md", "/w").is_empty());
    }
}
