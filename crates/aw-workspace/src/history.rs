//! `HISTORY.md` on disk: reading it, and upserting one row under the workspace lock.

use crate::atomic;
use crate::error::{Result, WorkspaceError};
use crate::locate::Workspace;
use crate::lock::{WorkspaceLock, default_wait};
use crate::resolver;
use crate::sessions;
use aw_core::session::folder::{SessionFolder, SessionState};
use aw_core::session::history::{self, Row, RowFor, Upsert, Upserted};
use aw_core::session::resolve::RefusalKind;
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
    atomic::create_dir_all(&ws.root, &ws.state_dir())?;
    atomic::write(&ws.root, &path(ws), planned.text.as_bytes())
}

/// A row to upsert, as `history-update` asks for it (values already checked).
#[derive(Debug, Clone, Copy)]
pub struct RowUpdate<'a> {
    /// The session: a number, a folder name or a unique folder prefix. A code that matches no
    /// folder still gets its row (the history may name sessions whose folder is gone).
    pub code: &'a str,
    /// The row's state.
    pub state: SessionState,
    /// The row's date; else the session's start date, else `today`.
    pub date: Option<&'a str>,
    /// The name to put in the row key instead of the session's.
    pub name: Option<&'a str>,
    /// The Refs cell's new references.
    pub refs: Option<&'a str>,
    /// Today's local date, `YYYY-MM-DD`.
    pub today: &'a str,
}

/// What an upsert did to the row.
#[derive(Debug, Clone)]
pub struct Updated {
    /// The row written.
    pub row: Row,
    /// Added, updated or unchanged.
    pub action: Upsert,
}

/// Upserts one session's row under the workspace lock (a legacy 6/7-column table is migrated on
/// the way).
pub fn update(ws: &Workspace, req: &RowUpdate<'_>) -> Result<Updated> {
    let lock = WorkspaceLock::of(ws, default_wait())?;
    let found = match resolver::resolve_code_locked(ws, req.code, &lock) {
        Ok(r) => Some(r),
        Err(WorkspaceError::Session(r)) if r.kind == RefusalKind::NotFound => None,
        Err(e) => return Err(e),
    };
    let current = read(ws)?;
    let session = match &found {
        Some(r) => {
            let folder = SessionFolder {
                folder: r.folder.clone(),
                state: r.state,
            };
            Some((
                r,
                sessions::info(ws, &folder, current.as_deref(), req.today)?.date,
            ))
        }
        None => None,
    };
    let target = match &session {
        Some((r, date)) => RowFor::Session {
            folder: &r.folder,
            date,
        },
        None => RowFor::Code(req.code),
    };
    let (row_code, row) = history::updated_row(
        current.as_deref(),
        target,
        req.name,
        req.state,
        req.date,
        req.refs,
        req.today,
    );
    let planned = plan(current.as_deref(), &row_code, &row);
    commit(ws, current.as_deref(), &planned, &lock)?;
    Ok(Updated {
        row,
        action: planned.action,
    })
}
