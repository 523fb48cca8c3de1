//! `HISTORY.md` on disk: reading it and upserting one row under the workspace lock.

use crate::atomic;
use crate::error::{Result, WorkspaceError};
use crate::locate::Workspace;
use crate::lock::WorkspaceLock;
use aw_core::session::history::{self, Row, Upserted};
use std::path::PathBuf;

/// `.<ns>/HISTORY.md`.
pub fn path(ws: &Workspace) -> PathBuf {
    ws.state_dir().join("HISTORY.md")
}

/// The history's text, or `None` when there is no history yet. Bytes that are not UTF-8 are
/// replaced rather than refused: the table is read tolerantly.
pub fn read(ws: &Workspace) -> Result<Option<String>> {
    let p = path(ws);
    match std::fs::read(&p) {
        Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(WorkspaceError::io("could not read", p, e)),
    }
}

/// Computes the upsert of a row against the text already read (no write).
pub fn plan(current: Option<&str>, code: &str, row: &Row) -> Upserted {
    history::upsert(current, code, row)
}

/// Persists a planned upsert (only when the text changed). The guard proves the lock is held.
pub fn commit(
    ws: &Workspace,
    current: Option<&str>,
    planned: &Upserted,
    _held: &WorkspaceLock,
) -> Result<()> {
    if current == Some(planned.text.as_str()) {
        return Ok(());
    }
    atomic::create_dir_all(&ws.state_dir())?;
    atomic::write(&path(ws), planned.text.as_bytes())
}
