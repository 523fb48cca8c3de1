//! A session's narrative on disk: its sources read from the session folder (the descriptor, the
//! checkpoint, the decisions file, the run state), and its block refreshed in `SESSION.md` by the
//! writes that change what it says (closing, reopening, a written checkpoint). Reading a
//! narrative never writes.

use crate::error::Result;
use crate::flow::store;
use crate::io::lock::WorkspaceLock;
use crate::sessions::CLOSED_SENTINEL;
use crate::sessions::artifacts::{entries, read_text};
use crate::sessions::checkpoint::checkpoint_path;
use aw_core::artifacts::ArtifactKind;
use aw_core::session::narrative::{self, Narrative, RunStop, Sources};
use std::path::Path;

/// The artifacts the block links to, in its order.
const LINKED: [ArtifactKind; 7] = [
    ArtifactKind::Checkpoint,
    ArtifactKind::Decisions,
    ArtifactKind::Conclusions,
    ArtifactKind::AnalysisFile,
    ArtifactKind::Backlog,
    ArtifactKind::ScriptsSql,
    ArtifactKind::Tasks,
];

/// The narrative of the session `folder`, whose folder is `dir`. The descriptor's text is the
/// document as it is on disk; its block is stripped before anything is read from it.
pub fn read(dir: &Path, folder: &str) -> Result<Narrative> {
    let names = entries(dir)?;
    let descriptor = match ArtifactKind::Session
        .find(&names)
        .or_else(|| ArtifactKind::Objective.find(&names))
    {
        Some(name) => read_text(&dir.join(name))?.map(|t| (name, t)),
        None => None,
    };
    build(
        dir,
        folder,
        &names,
        descriptor.as_ref().map(|(n, t)| (*n, t.as_str())),
    )
}

/// Reads the rest of the sources (the descriptor is already read) and builds the narrative.
fn build(
    dir: &Path,
    folder: &str,
    names: &[String],
    descriptor: Option<(&str, &str)>,
) -> Result<Narrative> {
    let checkpoint = read_text(&checkpoint_path(dir, names))?;
    with_read(dir, folder, names, descriptor, checkpoint.as_deref())
}

/// The narrative of a session whose folder listing (`names`), descriptor (its file name and
/// text) and checkpoint a command has already read: only the decisions file and the run state
/// are read here.
pub fn with_read(
    dir: &Path,
    folder: &str,
    names: &[String],
    descriptor: Option<(&str, &str)>,
    checkpoint: Option<&str>,
) -> Result<Narrative> {
    let decisions = match ArtifactKind::Decisions.find(names) {
        Some(name) => read_text(&dir.join(name))?.map(|t| (name, t)),
        None => None,
    };
    let (run_text, projection) = store::read_and_project(dir, folder);
    Ok(narrative::build(&Sources {
        folder,
        descriptor,
        checkpoint,
        decisions: decisions.as_ref().map(|(n, t)| (*n, t.as_str())),
        closed: names.iter().any(|n| n == CLOSED_SENTINEL),
        events: run_text
            .as_deref()
            .map(narrative::run_events)
            .unwrap_or_default(),
        run_stop: projection.filter(|p| p.stopped()).map(|p| RunStop {
            transition: p.transition,
            summary: p.summary,
        }),
        links: LINKED.iter().filter_map(|k| k.find(names)).collect(),
    }))
}

/// Refreshes the narrative block of the session in `dir` (the caller holds the lock): only a
/// `SESSION.md` of that exact name carries one (a legacy descriptor is left as it is); a block
/// is created once the narrative says more than the document, and rewritten only when its bytes
/// change. Returns whether `SESSION.md` was written.
pub fn refresh(dir: &Path, folder: &str, held: &WorkspaceLock) -> Result<bool> {
    let canonical = ArtifactKind::Session.canonical();
    let names = entries(dir)?;
    if !names.iter().any(|n| n == canonical) {
        return Ok(false);
    }
    let path = dir.join(canonical);
    let Some(document) = read_text(&path)? else {
        return Ok(false);
    };
    let n = build(dir, folder, &names, Some((canonical, &document)))?;
    match narrative::refreshed(&document, &n) {
        Some(text) => {
            crate::io::atomic::write(held.root(), &path, text.as_bytes())?;
            Ok(true)
        }
        None => Ok(false),
    }
}

/// [`refresh`] for a transaction whose main writes are done: a failure does not undo them, it is
/// reported instead (the message and the next action, in one line).
pub fn refresh_reported(
    dir: &Path,
    folder: &str,
    held: &WorkspaceLock,
) -> std::result::Result<bool, String> {
    refresh(dir, folder, held).map_err(|e| {
        let message = e.to_string();
        format!("{}. {}", message.trim_end_matches('.'), e.action())
    })
}
