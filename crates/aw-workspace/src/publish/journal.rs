//! The publish journal on disk: written before a publish of several parts makes its first
//! change, removed once every part is in place; a journal found later (its writer was killed)
//! is finished or undone under the lock before anything else is read or written
//! ([`recover`]), by the next publish and by [`settle`], which every command that locates the
//! workspace runs. The decisions (which way, which files) are aw-core's
//! (`capability::journal`).

use super::write::{self, WritePlan};
use super::{PublishError, Rollback, from_workspace};
use crate::atomic;
use crate::containment::check_writes;
use crate::error::WorkspaceError;
use crate::folder::read_regular_path;
use crate::locate::Workspace;
use crate::lock::{WorkspaceLock, default_wait};
use aw_core::capability::error::CapabilityError;
use aw_core::capability::journal::{Journal, MAX_JOURNAL_BYTES, Recovery};
use aw_core::capability::plan::Artifact;
use aw_core::error_code::ErrorCode;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// The journal of a workspace, in its state folder.
pub const JOURNAL_FILE: &str = "publish-journal.json";

/// The journal of an explicit root, beside its lock file.
pub const EXPLICIT_JOURNAL_FILE: &str = ".aw-publish-journal.json";

/// The journal of the workspace `ws`.
pub fn workspace_journal(ws: &Workspace) -> PathBuf {
    ws.state_dir().join(JOURNAL_FILE)
}

/// Writes `plan`'s journal at `path` (inside `root`), atomically: from this moment the publish
/// is decided, and a kill is finished by the next recovery.
pub(super) fn begin(root: &Path, path: &Path, plan: &WritePlan) -> Result<Journal, WorkspaceError> {
    let journal = plan.journal();
    atomic::write_entry(root, path, journal.render().as_bytes())?;
    Ok(journal)
}

/// Removes the journal: the publish is finished (or wholly undone).
pub(super) fn end(root: &Path, path: &Path) -> Result<(), WorkspaceError> {
    atomic::remove_file(root, path).map(|_| ())
}

/// Marks the journal `back` before an undo, so a kill during the undo is finished as an undo.
pub(super) fn mark_back(root: &Path, path: &Path, journal: &Journal) -> Journal {
    let back = journal.backward();
    // Best effort: a journal that cannot be rewritten still says forward, and its files are
    // then judged one by one by the next recovery (the undone ones are written again).
    let _ = atomic::write_entry(root, path, back.render().as_bytes());
    back
}

/// Undoes a journalled (or single-part) publish and removes its journal when the undo is
/// complete; a journal whose undo left something stays, marked `back`, for the next recovery.
pub(super) fn roll_back(root: &Path, path: Option<&Path>, journal: &Journal) -> Rollback {
    let journal = match path {
        Some(path) => mark_back(root, path, journal),
        None => journal.clone(),
    };
    let undone = write::undo(root, &journal);
    if !undone.left.is_empty() {
        return Rollback::Incomplete(undone.left);
    }
    if let Some(path) = path {
        let _ = end(root, path);
    }
    if undone.changed {
        Rollback::Complete
    } else {
        Rollback::NothingWritten
    }
}

/// Reads the journal at `path`: `None` when there is none; an error when something unreadable
/// or not a journal is there.
fn read(path: &Path) -> Result<Option<Journal>, String> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {
            return Ok(None);
        }
        Err(e) => return Err(format!("it could not be inspected: {e}")),
    };
    if !meta.file_type().is_file() {
        return Err("it is not a regular file".to_owned());
    }
    if meta.len() > MAX_JOURNAL_BYTES {
        return Err(format!("it is larger than {MAX_JOURNAL_BYTES} bytes"));
    }
    let bytes = read_regular_path(path).map_err(|e| format!("it could not be read: {e}"))?;
    let text = std::str::from_utf8(&bytes).map_err(|_| "it is not UTF-8".to_owned())?;
    Journal::parse(text).map(Some)
}

/// Finishes or undoes the publish the journal at `path` (inside `root`) describes, if there is
/// one, under the lock the caller holds: a journal going forward whose files are each either
/// published or as they were is finished (a failure while finishing undoes it); one marked
/// `back`, or with a file someone else changed since, is undone. The journal is removed once
/// the files are settled. An error (`PUBLISH_FAILED`) when the journal cannot be read or is not
/// one aw writes, names a path that leads out of the root, or its undo left something: the
/// journal stays, and the error says what to do.
pub fn recover(root: &Path, path: &Path) -> Result<(), PublishError> {
    let shown = path
        .strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string();
    let journal = match read(path) {
        Ok(Some(journal)) => journal,
        Ok(None) => return Ok(()),
        Err(why) => {
            return Err(PublishError::before_any_write(CapabilityError::new(
                ErrorCode::PublishFailed,
                format!(
                    "an interrupted publish left its journal '{shown}', which aw cannot use: {why}"
                ),
                format!(
                    "Check the files '{shown}' names (they may hold part of an earlier apply), then move it aside and run the command again."
                ),
            )));
        }
    };
    let targets: Vec<PathBuf> = journal.files.iter().map(|f| root.join(&f.path)).collect();
    if let Err(e) = check_writes(root, targets.iter().map(PathBuf::as_path)) {
        return Err(PublishError::before_any_write(from_workspace(None, e)));
    }
    let states: Vec<_> = journal
        .files
        .iter()
        .map(|f| write::state_of(root, f))
        .collect();
    match journal.recovery(&states) {
        Recovery::Done => {
            let _ = end(root, path);
            Ok(())
        }
        Recovery::Forward(pending) => {
            if forward(root, &journal, &pending).is_ok() {
                let _ = end(root, path);
                return Ok(());
            }
            settled_back(root, path, &journal, &shown)
        }
        Recovery::Back => settled_back(root, path, &journal, &shown),
    }
}

/// Writes the journal's `pending` files, as a publish writes them.
fn forward(root: &Path, journal: &Journal, pending: &[usize]) -> Result<(), CapabilityError> {
    let artifacts: Vec<Artifact> = pending
        .iter()
        .map(|&i| {
            let file = &journal.files[i];
            Artifact {
                path: file.path.clone(),
                content: file.content.clone(),
                overwrite: file.previous.is_some().then_some(true),
            }
        })
        .collect();
    let plan = write::plan(root, &artifacts)?;
    for part in &plan.parts {
        write::write_part(root, &plan, part)?;
    }
    Ok(())
}

fn settled_back(
    root: &Path,
    path: &Path,
    journal: &Journal,
    shown: &str,
) -> Result<(), PublishError> {
    match roll_back(root, Some(path), journal) {
        Rollback::Incomplete(left) => Err(PublishError {
            error: CapabilityError::new(
                ErrorCode::PublishFailed,
                format!(
                    "an interrupted publish could not be undone; its journal '{shown}' is kept, and the next aw command tries again"
                ),
                "Fix what stops the undo (the paths named), then run the command again.",
            ),
            rollback: Rollback::Incomplete(left),
        }),
        _ => Ok(()),
    }
}

/// Settles an interrupted publish of the workspace before a command reads it: when a journal
/// is there, the lock is taken (a live publish holding it is waited for) and the journal
/// recovered. Costs one `lstat` when there is none. Never fails the command: a lock that
/// cannot be taken, a read-only checkout, or a recovery that fails leave the files as they are
/// (the next publish refuses to write over an unsettled journal and says why).
pub fn settle(ws: &Workspace) {
    let path = workspace_journal(ws);
    if std::fs::symlink_metadata(&path).is_err() {
        return;
    }
    let Ok(lock) = WorkspaceLock::of(ws, default_wait()) else {
        return;
    };
    if lock.is_read_only() {
        return;
    }
    let _ = recover(&ws.root, &path);
}
