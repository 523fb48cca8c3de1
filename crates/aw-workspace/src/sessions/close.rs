//! Closing a session: one transaction under the workspace lock.
//!
//! The session is resolved and every input read before anything is written; then the
//! conversation bindings that point at it are removed, `CHECKPOINT.md` is created as a stub if it
//! is missing, `.closed` is written, the HISTORY row is upserted, the session's untouched
//! numbering reservations are released and the narrative block of `SESSION.md` is refreshed. A
//! busy lock writes nothing.

use super::{CLOSED_SENTINEL, info};
use crate::error::Result;
use crate::io::containment::check_writes;
use crate::io::lock::{WorkspaceLock, default_wait};
use crate::locate::Workspace;
use crate::sessions::artifacts::artifact;
use crate::sessions::checkpoint::checkpoint_path;
use crate::sessions::resolver;
use crate::{
    documents::numbering, io::atomic, io::test_hook, sessions::bindings, sessions::history,
    sessions::narrative,
};
use aw_core::artifacts::ArtifactKind;
use aw_core::session::folder::{SessionFolder, SessionState, identity};
use aw_core::session::history::{Row, Upsert, refs_cell, row_key};
use std::path::PathBuf;

/// The stub written when a session has no checkpoint.
pub const CHECKPOINT_STUB: &str = "# CHECKPOINT\n";

/// What closing did.
#[derive(Debug, Clone)]
pub struct Closed {
    /// The session's code.
    pub code: String,
    /// Its folder name.
    pub folder: String,
    /// Its checkpoint (created as a stub when it was missing).
    pub checkpoint_path: PathBuf,
    /// Where its backlog is (or would be).
    pub backlog_path: PathBuf,
    /// How many conversation bindings pointed at it and were removed.
    pub bindings_invalidated: usize,
    /// The HISTORY row's fate, or why HISTORY.md could not be updated (the close stands).
    pub history: std::result::Result<Upsert, String>,
    /// The reservations released, workspace-relative.
    pub reservations_released: Vec<String>,
    /// Whether the narrative block of `SESSION.md` was rewritten, or why it could not be (the
    /// close stands).
    pub narrative: std::result::Result<bool, String>,
}

/// Closes the session `code` (a closed session may be closed again: its row is rewritten).
/// `refs` fills the row's Refs cell; `today` dates a session that declares no start date.
pub fn close(ws: &Workspace, code: &str, refs: Option<&str>, today: &str) -> Result<Closed> {
    let lock = WorkspaceLock::of(ws, default_wait())?;
    let resolved = resolver::resolve_code_locked(ws, code, &lock)?;
    let id = identity(&resolved.folder);
    let mut registry = bindings::load(ws)?;
    let invalidated = registry.unbind_folder(&resolved.folder);
    // The row is planned only from text that round-trips; otherwise the close stands and the
    // history is left untouched, its error reported.
    let history_read = history::read_exact(ws);
    let current = history_read.as_ref().ok().and_then(|t| t.as_deref());
    let folder = SessionFolder {
        folder: resolved.folder.clone(),
        state: resolved.state,
    };
    let dates = current.map(aw_core::session::history::Dates::of);
    let info = info(ws, &folder, dates.as_ref(), today)?;
    let checkpoint = checkpoint_path(&resolved.path, &info.entries);
    let backlog = artifact(&resolved.path, &info.entries, ArtifactKind::Backlog)
        .unwrap_or_else(|| resolved.path.join(ArtifactKind::Backlog.canonical()));
    let planned = history_read
        .as_ref()
        .map_err(history_failure)
        .map(|current| {
            let key = row_key(&id.code, Some(&id.name));
            let row = Row {
                refs: refs_cell(current.as_deref(), &id.code, &key, refs),
                key,
                date: info.date.clone(),
                state: SessionState::Closed.as_str().to_owned(),
            };
            (
                current.as_deref(),
                history::plan(current.as_deref(), &id.code, &row),
            )
        });

    // Every path is checked before the first write, so a link out of the workspace refuses the
    // close whole: no binding removed from a session that stays open. (HISTORY.md is not among
    // them: its failure is reported and the close stands.)
    let bindings_path = bindings::path(ws);
    let closed_path = resolved.path.join(CLOSED_SENTINEL);
    let mut targets = vec![closed_path.as_path()];
    if invalidated > 0 {
        targets.push(&bindings_path);
    }
    if !checkpoint.exists() {
        targets.push(&checkpoint);
    }
    check_writes(&ws.root, targets)?;
    if invalidated > 0 {
        bindings::store(ws, &registry, &lock)?;
    }
    if !checkpoint.exists() {
        atomic::create_new(&ws.root, &checkpoint, CHECKPOINT_STUB.as_bytes())?;
    }
    atomic::write_entry(&ws.root, &closed_path, b"")?;
    test_hook::stall();
    let history = match &planned {
        Ok((current, p)) => history::commit(ws, *current, p, &lock)
            .map(|()| p.action)
            .map_err(|e| history_failure(&e)),
        Err(e) => Err(e.clone()),
    };
    let released = numbering::release_reservations(ws, &resolved.folder, &lock)?;
    // Last: the narrative now says the session is closed.
    let narrative = narrative::refresh_reported(&resolved.path, &resolved.folder, &lock);
    Ok(Closed {
        code: id.code,
        folder: resolved.folder,
        checkpoint_path: checkpoint,
        backlog_path: backlog,
        bindings_invalidated: invalidated,
        history,
        reservations_released: released,
        narrative,
    })
}

/// Why the HISTORY row was not written, and what to do about it, in one line: the close itself
/// stands, so this travels as `history_error` rather than as a failure with its own action.
fn history_failure(e: &crate::error::WorkspaceError) -> String {
    let message = e.to_string();
    let message = message.trim_end_matches('.');
    format!("{message}. {}", e.action())
}
