//! `HISTORY.md` on disk: reading it, and upserting one row under the workspace lock.

use crate::error::{Result, WorkspaceError};
use crate::io::atomic;
use crate::io::lock::{WorkspaceLock, default_wait};
use crate::locate::Workspace;
use crate::sessions;
use crate::sessions::resolver;
use aw_core::error_code::ErrorCode;
use aw_core::session::folder::SessionFolder;
use aw_core::session::history::{self, Row, RowRequest, Upsert, Upserted};
use std::path::PathBuf;

/// `.<ns>/HISTORY.md`.
pub fn path(ws: &Workspace) -> PathBuf {
    ws.state_dir().join("HISTORY.md")
}

/// The history's text, or `None` when there is no history yet. Bytes that are not UTF-8 are
/// replaced rather than refused: the table is read tolerantly.
pub fn read(ws: &Workspace) -> Result<Option<String>> {
    let p = path(ws);
    match crate::io::folder::read_regular_path(&p) {
        Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(WorkspaceError::io("could not read", p, e)),
    }
}

/// The history's text for a rewrite, or `None` when there is no history yet. Unlike [`read`],
/// bytes that are not UTF-8 are refused (`HISTORY_ENCODING_INVALID`): the rewrite would replace them and
/// lose what they held.
pub fn read_exact(ws: &Workspace) -> Result<Option<String>> {
    let p = path(ws);
    let bytes = match crate::io::folder::read_regular_path(&p) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(WorkspaceError::io("could not read", p, e)),
    };
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Some(text)),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let line = 1 + e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
            Err(WorkspaceError::Refused {
                code: ErrorCode::HistoryEncodingInvalid,
                message: format!(
                    "{} is not valid UTF-8 (line {line}, byte {at}); it was left as it is, since \
                     rewriting it would replace those bytes.",
                    p.display()
                ),
                action: format!(
                    "Fix the encoding of {} (for example `iconv -f latin1 -t utf-8`), then run \
                     the command again.",
                    p.display()
                ),
            })
        }
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

/// What an upsert did to the row.
#[derive(Debug, Clone)]
pub struct Updated {
    /// The row written.
    pub row: Row,
    /// Added, updated or unchanged.
    pub action: Upsert,
}

/// Upserts the row of the session `code` (a number, a folder name or a unique folder prefix; it
/// must name a folder) under the workspace lock. A legacy 6/7-column table is migrated on the
/// way.
pub fn update(ws: &Workspace, code: &str, req: &RowRequest<'_>) -> Result<Updated> {
    let lock = WorkspaceLock::of(ws, default_wait())?;
    // A code that names no session folder is refused (as v22 does): its row would also move the
    // next session number past a session that never existed.
    let found = resolver::resolve_code_locked(ws, code, &lock)?;
    let current = read_exact(ws)?;
    let folder = SessionFolder {
        folder: found.folder.clone(),
        state: found.state,
    };
    let dates = current.as_deref().map(history::Dates::of);
    let date = sessions::info(ws, &folder, dates.as_ref(), req.today)?.date;
    let (row_code, row) = history::updated_row(current.as_deref(), &found.folder, &date, req);
    let planned = plan(current.as_deref(), &row_code, &row);
    commit(ws, current.as_deref(), &planned, &lock)?;
    Ok(Updated {
        row,
        action: planned.action,
    })
}
