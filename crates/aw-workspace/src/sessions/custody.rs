//! A session's custody on disk (the record and its rules are [`aw_core::custody`]): sealing the
//! inputs of a session being born, and appending what happens to it later.
//!
//! Each append reads `.custody.json`, applies one pure change, re-seals and replaces the file
//! atomically. A session without the file is a legacy one: every append is then a no-op that
//! says so ([`Appended::existed`] is `false`), never an error, because every normal flow must
//! keep working on sessions born before custody existed.
//!
//! The appends are I/O after the caller's own transaction: a custody that cannot be read is
//! reported ([`CustodyError::Unreadable`]) for the caller to map, and nothing is written then.

use crate::error::WorkspaceError;
use crate::io::atomic;
use crate::io::containment::resolve_inside;
use crate::io::folder::read_regular_path;
use crate::locate::Workspace;
pub use aw_core::custody::UnitSource;
use aw_core::custody::{Custody, Derived, Expected, FILE};
use aw_core::error_code::ErrorCode;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// Why an append did not happen.
#[derive(Debug, thiserror::Error)]
pub enum CustodyError {
    /// The file is there but is not a custody record aw can read (the worktree verbs report
    /// this as `custody_unreadable`).
    #[error("{} cannot be read as a session custody: {reason}", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why, in English.
        reason: String,
    },
    /// The new record could not be written (the old one is intact).
    #[error(transparent)]
    Write(#[from] WorkspaceError),
}

/// The result of an append.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Appended {
    /// Whether the session has a custody (`false`: a legacy session, nothing was written).
    pub existed: bool,
}

/// The custody file of a session folder.
pub fn path(session_dir: &Path) -> PathBuf {
    session_dir.join(FILE)
}

/// Reads a session's custody: `None` when the folder has none.
pub fn read(session_dir: &Path) -> Result<Option<Custody>, CustodyError> {
    let file = path(session_dir);
    let unreadable = |reason: String| CustodyError::Unreadable {
        path: file.clone(),
        reason,
    };
    let bytes = match read_regular_path(&file) {
        Ok(b) => b,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(unreadable(e.to_string())),
    };
    let text = String::from_utf8(bytes).map_err(|_| unreadable("not UTF-8 text".to_owned()))?;
    Custody::parse(&text).map(Some).map_err(unreadable)
}

/// Writes a record in place, atomically (a link in its place is replaced, not followed).
fn write(session_dir: &Path, custody: &Custody) -> Result<(), CustodyError> {
    atomic::write_entry(session_dir, &path(session_dir), custody.render().as_bytes())?;
    Ok(())
}

/// Reads, changes and writes back; a no-op for a legacy session.
fn append(session_dir: &Path, change: impl FnOnce(&mut Custody)) -> Result<Appended, CustodyError> {
    let Some(mut custody) = read(session_dir)? else {
        return Ok(Appended { existed: false });
    };
    change(&mut custody);
    write(session_dir, &custody)?;
    Ok(Appended { existed: true })
}

/// `worktree ensure`: records the unit taken of a source (see [`Custody::unit_taken`]).
/// `now_date` is the local date, `YYYY-MM-DD`.
pub fn record_unit_taken(
    session_dir: &Path,
    source: UnitSource,
    now_date: &str,
) -> Result<Appended, CustodyError> {
    append(session_dir, |c| c.unit_taken(&source, now_date))
}

/// `worktree integrate`: records a unit merged into `working_branch` of source `alias`, whose
/// HEAD was `before` and is now `after` (the effect's ref is `refs/heads/<working_branch>`).
pub fn record_unit_integrated(
    session_dir: &Path,
    alias: &str,
    before: Option<&str>,
    after: Option<&str>,
    working_branch: &str,
    now_date: &str,
) -> Result<Appended, CustodyError> {
    append(session_dir, |c| {
        c.unit_integrated(alias, before, after, working_branch, now_date);
    })
}

/// A flow's publication: each destination (workspace-relative) with its text before the
/// publication, `None` when it did not exist (see [`Custody::artifact_published`]).
pub fn record_artifact_published(
    session_dir: &Path,
    destinations: &[(String, Option<String>)],
    now_date: &str,
) -> Result<Appended, CustodyError> {
    append(session_dir, |c| {
        c.artifact_published(destinations, now_date)
    })
}

/// `flow advance --adopt`: records the flow that adopted the session.
pub fn record_flow_adopted(
    session_dir: &Path,
    flow_id: &str,
    now_date: &str,
) -> Result<Appended, CustodyError> {
    append(session_dir, |c| c.flow_adopted(flow_id, now_date))
}

/// Looks for the document a session's name expects, in its folder (absent: nothing found).
pub fn derive(ws: &Workspace, expected: &Expected) -> Derived {
    let names: Vec<String> = std::fs::read_dir(ws.root.join(expected.dir))
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    aw_core::custody::derive(expected, &names)
}

/// Reads each input of a session being born (workspace-relative, already checked safe), before
/// the workspace lock is taken: its text, or `None` when nothing is there. Anything else that
/// stops the read (a folder, no permission) is `CUSTODY_BASELINE_UNREADABLE`, and the
/// session is not created.
pub fn read_inputs(
    ws: &Workspace,
    inputs: &[String],
) -> Result<Vec<(String, Option<String>)>, WorkspaceError> {
    inputs
        .iter()
        .map(|rel| {
            let refused = |why: String| WorkspaceError::Refused {
                code: ErrorCode::CustodyBaselineUnreadable,
                message: format!("Could not seal what '{rel}' holds before the session: {why}."),
                action: "Pass a file (or a path with nothing there) as --input, or fix its \
                         permissions, then create the session again; nothing was created."
                    .to_owned(),
            };
            // The custody copies what it seals into the workspace: a link leading out of it
            // would copy a file from elsewhere on the machine, so it is refused (the path is
            // already safe, so only a link can lead out).
            let target =
                resolve_inside(&ws.root, rel).map_err(|e| refused(e.reason().to_owned()))?;
            match read_regular_path(&target) {
                // Decoded as the reference reads text (invalid bytes replaced), so the sealed
                // digest and length are the ones it would record.
                Ok(bytes) => Ok((
                    rel.clone(),
                    Some(String::from_utf8_lossy(&bytes).into_owned()),
                )),
                Err(e) if e.kind() == ErrorKind::NotFound => Ok((rel.clone(), None)),
                Err(e) => Err(refused(e.to_string())),
            }
        })
        .collect()
}
