//! What a `submit` looks at in the workspace (`aw_core::flow::facts`): the plan files an
//! evidence detail names, and the destinations an answer's artifacts would write (whether each
//! exists and the digest of its text) with the spec each plan artifact derives from. The core
//! says what to look at and decides; this only looks, never through a link that leaves the
//! workspace.

use crate::locate::Workspace;
use aw_core::canonical::parse_json;
use aw_core::capability::paths::unsafe_relative;
use aw_core::documents::baseline::spec_digest;
use aw_core::flow::facts::{Facts, PLAN_CANON, ScopeFacts};
use aw_core::flow::proposal::{Observed, Seen, SpecBaseline, base_digest, spec_to_seal};
use serde_json::Value;
use std::path::Path;

/// The facts for `raw` (a submit's stdin text). What the answer holds is judged on its parsed
/// value, never on its text: an escaped key names the same field.
pub fn gather(ws: &Workspace, raw: &str) -> Facts {
    let parsed = parse_json(raw).ok();
    let field = |key: &str| parsed.as_ref().and_then(|v| v.get(key));
    let has_proof = field("validations")
        .and_then(Value::as_array)
        .is_some_and(|list| list.iter().any(|v| v.get("proof").is_some()));
    let decisions = field("decisions").cloned().unwrap_or(Value::Null);
    Facts {
        evidence: super::plan_evidence::gather(ws, raw),
        proposal: proposal(ws, raw),
        // Always observed here (the CLI checks a proof against the live checkout, never its
        // shape alone); digested only when the answer carries a proof.
        checkouts: Some(if has_proof { checkouts(ws) } else { Vec::new() }),
        scope: if decisions.get("sources").is_some() || decisions.get("plan").is_some() {
            scope(ws, &decisions)
        } else {
            ScopeFacts::default()
        },
    }
}

/// What a scope answer is checked against: the WORKSPACE block's aliases and the plan it names.
fn scope(ws: &Workspace, decisions: &Value) -> ScopeFacts {
    let declared = crate::project::ProjectFiles::read(&ws.root)
        .ok()
        .and_then(|files| files.block(&ws.ns))
        .map(|b| b.sources.into_iter().map(|s| s.alias).collect());
    let plan_text = aw_core::flow::scope::plan_to_read(decisions, PLAN_CANON).and_then(|rel| {
        match text_at(&ws.root, &rel) {
            FileAt::Text(text) => Some(text),
            _ => None,
        }
    });
    ScopeFacts {
        plan_canon: Ok(PLAN_CANON.to_owned()),
        declared,
        plan_text,
    }
}

/// The checkouts a proof may name: the workspace itself, when it is a git repository with a
/// commit. (A session's isolation units join them with the isolation work.)
fn checkouts(ws: &Workspace) -> Vec<aw_core::flow::proof::ObservedCheckout> {
    checkout(ws, aw_core::flow::proof::WORKSPACE_SOURCE)
        .into_iter()
        .collect()
}

/// The live state of the checkout a proof names as `source`, when it can be digested.
pub fn checkout(ws: &Workspace, source: &str) -> Option<aw_core::flow::proof::ObservedCheckout> {
    (source == aw_core::flow::proof::WORKSPACE_SOURCE)
        .then(|| crate::git::checkout_digest::observe(&ws.root, source))
        .flatten()
}

/// What is at a workspace-relative path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileAt {
    /// Nothing.
    Absent,
    /// A regular file inside the workspace, and its text.
    Text(String),
    /// Something that cannot be read as a text file inside the workspace (a link leading out, a
    /// folder, a FIFO, bytes that are not UTF-8, an I/O error).
    Unreadable,
}

/// What is at workspace-relative `rel`, never through a link that leaves the workspace.
pub fn text_at(root: &Path, rel: &str) -> FileAt {
    let path = root.join(rel);
    let Ok(entry) = crate::io::containment::entry_target(root, &path) else {
        return FileAt::Unreadable;
    };
    match std::fs::symlink_metadata(&entry) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => FileAt::Absent,
        Err(_) => FileAt::Unreadable,
        Ok(m) if !m.is_file() => FileAt::Unreadable,
        Ok(_) => match crate::io::folder::read_regular_path(&entry).map(String::from_utf8) {
            Ok(Ok(text)) => FileAt::Text(text),
            _ => FileAt::Unreadable,
        },
    }
}

/// The text of the regular file at workspace-relative `rel`, its bytes that are not UTF-8
/// replaced (as a custody records a baseline); `None` when there is no such file to read
/// inside the workspace.
pub fn lossy_text_at(root: &Path, rel: &str) -> Option<String> {
    let entry = crate::io::containment::entry_target(root, &root.join(rel)).ok()?;
    let meta = std::fs::symlink_metadata(&entry).ok()?;
    if !meta.is_file() {
        return None;
    }
    let bytes = crate::io::folder::read_regular_path(&entry).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

fn proposal(ws: &Workspace, raw: &str) -> Observed {
    let mut out = Observed::default();
    let Ok(Value::Object(obj)) = parse_json(raw) else {
        return out;
    };
    let Some(items) = obj.get("artifacts").and_then(Value::as_array) else {
        return out;
    };
    for item in items {
        let (Some(path), content) = (
            item.get("path").and_then(Value::as_str),
            item.get("content").and_then(Value::as_str),
        ) else {
            continue;
        };
        let rel = path.trim();
        if rel.is_empty() || out.destinations.contains_key(rel) || unsafe_relative(rel).is_some() {
            continue;
        }
        let seen = match text_at(&ws.root, rel) {
            FileAt::Absent => Seen::Absent,
            FileAt::Text(text) => Seen::Present(
                base_digest(&text),
                aw_core::session::reservation::owner(text.as_bytes()).map(str::to_owned),
            ),
            FileAt::Unreadable => Seen::Unreadable,
        };
        out.destinations.insert(rel.to_owned(), seen);
        if let Some(spec) = content.and_then(|c| spec_to_seal(rel, c))
            && let FileAt::Text(text) = text_at(&ws.root, &spec)
        {
            out.baselines.insert(
                rel.to_owned(),
                SpecBaseline {
                    path: spec,
                    digest: spec_digest(&text),
                },
            );
        }
    }
    out
}
