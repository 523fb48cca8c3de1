//! The publish journal on disk: written before a publish of several parts makes its first
//! change, removed once every part is in place; a journal found later (its writer was killed)
//! is finished or undone under the lock ([`recover`]) by the next publish, by
//! `next-number --claim`, and by [`settle`], which the commands that read the documents a
//! publish writes run first. The format and the decisions (which way, which files, which paths
//! a journal may name) are aw-core's (`capability::journal`); this module adds what needs the
//! disk:
//!
//! - **The binding**: the journal records the canonical root and the device and inode of the
//!   folder holding it ([`binding_of`]); one whose binding is not this root's is foreign (a
//!   clone, a copy, a file someone wrote) and is never replayed. The binding is on the first
//!   line, so a foreign journal is recognised without reading the rest.
//! - **No link anywhere**: the journal names the real paths its publish wrote (links inside the
//!   workspace already followed), and at replay every segment of every path is looked at with
//!   `lstat`: a symbolic link anywhere makes the journal unusable, never followed.
//! - **Bounded work**: the journal's size is checked before it is read (and when it is
//!   written); a file's size is compared before its bytes are read, and only as many bytes as
//!   the journal's own copy holds are read; each file is read once per recovery.

use super::write::{self, WritePlan};
use super::{Leftover, LeftoverKind, PublishError, Rollback, failed};
use crate::error::WorkspaceError;
use crate::io::atomic;
use crate::io::containment::write_target;
use crate::io::lock::{WorkspaceLock, default_wait};
use crate::locate::{Workspace, slashed};
use aw_core::capability::error::CapabilityError;
use aw_core::checkpoint::hold::shell_word;
use aw_core::error_code::ErrorCode;
use aw_core::journal::{
    Binding, FileState, Journal, JournalFile, MAX_HEADER_BYTES, MAX_JOURNAL_BYTES, Recovery,
    recoverable_path,
};
use std::io::{BufRead, BufReader, ErrorKind, Read};
use std::path::{Component, Path, PathBuf};

/// The journal of a workspace, in its state folder.
pub const JOURNAL_FILE: &str = "publish-journal.json";

/// The journal of an explicit root, beside its lock file.
pub const EXPLICIT_JOURNAL_FILE: &str = ".aw-publish-journal.json";

/// The journal of the workspace `ws`.
pub fn workspace_journal(ws: &Workspace) -> PathBuf {
    ws.state_dir().join(JOURNAL_FILE)
}

/// What this root's journal at `path` must be bound to: the canonical root, and the device and
/// inode of the folder that holds the journal, as `lstat` sees it.
pub(super) fn binding_of(root: &Path, path: &Path) -> std::io::Result<Binding> {
    let canon = root.canonicalize()?;
    let holder = path.parent().unwrap_or(root);
    let meta = std::fs::symlink_metadata(holder)?;
    let (device, inode) = identity(&meta);
    Ok(Binding {
        root: slashed(&canon),
        device,
        inode,
    })
}

#[cfg(unix)]
fn identity(meta: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

/// Without inodes, the root's path alone binds the journal.
#[cfg(not(unix))]
fn identity(_: &std::fs::Metadata) -> (u64, u64) {
    (0, 0)
}

/// The path a write to `rel` reaches, relative to the canonical root, links inside the root
/// followed: what the journal records, so that its replay can refuse any link.
fn real_rel(root: &Path, canon: &Path, rel: &str) -> Result<String, CapabilityError> {
    let real = write_target(root, &root.join(rel)).map_err(|e| failed(rel, e.to_string()))?;
    let inside = real
        .strip_prefix(canon)
        .map_err(|_| failed(rel, "it does not resolve inside the root".to_owned()))?;
    Ok(slashed(inside))
}

/// Writes `plan`'s journal at `path` (inside `root`), atomically: from this moment the publish
/// is decided, and a kill is finished by the next recovery. The journal names the real paths
/// (links inside the root followed) and is bound to this root; one that could not be replayed
/// (a path a journal may not name, more than it may hold) is refused here, before the first
/// write, rather than leave a kill unrecoverable.
pub(super) fn begin(
    root: &Path,
    path: &Path,
    plan: &WritePlan,
) -> Result<Journal, CapabilityError> {
    let shown = "the publish journal";
    let binding = binding_of(root, path).map_err(|e| failed(shown, e.to_string()))?;
    let canon = root
        .canonicalize()
        .map_err(|e| failed(shown, e.to_string()))?;
    let mut files = Vec::with_capacity(plan.files.len());
    for f in plan.journal_files() {
        let real = real_rel(root, &canon, &f.path)?;
        if let Some(why) = recoverable_path(&real) {
            let via = if real == f.path {
                String::new()
            } else {
                format!(" (a symbolic link leads it to '{real}')")
            };
            return Err(unjournalled(
                &f.path,
                format!("the path{via} {why}"),
                "Publish it where a journal may name it: a document directly in docs/research, docs/specs or docs/plans, or a design package under docs/designs, reached without a symbolic link that leads elsewhere; then apply again.",
            ));
        }
        files.push(JournalFile { path: real, ..f });
    }
    let folders = plan
        .folders
        .iter()
        .map(|f| real_rel(root, &canon, f))
        .collect::<Result<Vec<_>, _>>()?;
    let journal = Journal::forward(binding, files, folders);
    let first = plan
        .files
        .first()
        .map(|f| f.rel.as_str())
        .unwrap_or_default();
    let too_much = "Publish fewer or smaller files at a time, then apply again.";
    journal
        .check()
        .map_err(|why| unjournalled(first, why, too_much))?;
    let text = journal.render();
    if text.len() as u64 > MAX_JOURNAL_BYTES {
        return Err(unjournalled(
            first,
            format!(
                "it would hold {} bytes, more than the {MAX_JOURNAL_BYTES} a journal may",
                text.len()
            ),
            too_much,
        ));
    }
    atomic::write_entry(root, path, text.as_bytes()).map_err(|e| failed(shown, e.to_string()))?;
    Ok(journal)
}

/// A publish of several files refused before its first write because its journal could not
/// be replayed: a kill would then leave half of it for good.
fn unjournalled(rel: &str, why: String, action: &str) -> CapabilityError {
    CapabilityError::new(
        ErrorCode::PublishFailed,
        format!(
            "'{rel}' could not be published: a publish of several files is journalled so that a kill cannot leave half of it, and this one's journal could not be replayed: {why}; nothing was written"
        ),
        action,
    )
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

/// Undoes a failed live publish behind its journal at `path`: the journal marked `back` first,
/// then every file of ours put back. The journal is removed unless a file could not be put back
/// (a folder left behind is named, but keeps no journal: its undo is only tidying).
pub(super) fn roll_back(root: &Path, path: &Path, journal: &Journal) -> Rollback {
    let back = mark_back(root, path, journal);
    let undone = write::undo(root, &back.files, &back.folders, None);
    if !undone
        .left
        .iter()
        .any(|l| l.kind != LeftoverKind::NewFolder)
    {
        let _ = end(root, path);
    }
    rollback_of(undone)
}

/// How far an undo got, as a failed publish reports it.
pub(super) fn rollback_of(undone: write::Undone) -> Rollback {
    if !undone.left.is_empty() {
        Rollback::Incomplete(undone.left)
    } else if undone.changed() {
        Rollback::Complete
    } else {
        Rollback::NothingWritten
    }
}

/// What was found where a journal may be.
enum Found {
    None,
    /// Something aw cannot use: why.
    Unusable(String),
    /// A journal of another root, or of another copy of this one: why.
    Foreign(String),
    /// This root's journal (`None`: only its first line was read).
    Bound(Option<Journal>),
}

/// Opens the regular file at `path` for reading, not following a final link and not waiting on
/// a FIFO; its size.
fn open_journal(path: &Path) -> std::io::Result<(std::fs::File, u64)> {
    #[cfg(unix)]
    let file = {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(path)?
    };
    #[cfg(not(unix))]
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::new(
            ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    Ok((file, meta.len()))
}

/// Reads the journal at `path` of `root`: its size first (a journal over the bound is not
/// read), then its first line (the binding), and the rest only when it is this root's and
/// `whole` asks for it.
fn read(root: &Path, path: &Path, whole: bool) -> Found {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {
            return Found::None;
        }
        Err(e) => return Found::Unusable(format!("it could not be inspected: {e}")),
    };
    if !meta.file_type().is_file() {
        return Found::Unusable("it is not a regular file".to_owned());
    }
    if meta.len() > MAX_JOURNAL_BYTES {
        return Found::Unusable(format!(
            "it holds {} bytes, more than the {MAX_JOURNAL_BYTES} a journal may",
            meta.len()
        ));
    }
    let (file, size) = match open_journal(path) {
        Ok(opened) => opened,
        Err(e) => return Found::Unusable(format!("it could not be read: {e}")),
    };
    if size > MAX_JOURNAL_BYTES {
        return Found::Unusable(format!(
            "it holds more than the {MAX_JOURNAL_BYTES} bytes a journal may"
        ));
    }
    let mut reader = BufReader::new(file.take(MAX_JOURNAL_BYTES));
    let mut first = Vec::new();
    if let Err(e) = (&mut reader)
        .take(MAX_HEADER_BYTES as u64)
        .read_until(b'\n', &mut first)
    {
        return Found::Unusable(format!("it could not be read: {e}"));
    }
    if first.last() != Some(&b'\n') {
        return Found::Unusable(
            "its first line is not the header of a publish journal this aw writes".to_owned(),
        );
    }
    let binding = match std::str::from_utf8(&first)
        .map_err(|_| "it is not UTF-8".to_owned())
        .and_then(|line| Journal::header(line.trim_end()))
    {
        Ok(binding) => binding,
        Err(why) => return Found::Unusable(why),
    };
    let here = match binding_of(root, path) {
        Ok(here) => here,
        Err(e) => return Found::Unusable(format!("its folder could not be inspected: {e}")),
    };
    // The folder's identity decides, not its path: a workspace moved or renamed since, or
    // reached through another mount, is still the folder whose publish was killed. The root is
    // recorded only to name it.
    if (binding.device, binding.inode) != (here.device, here.inode) {
        return Found::Foreign(
            "it was written in another copy of this workspace (a clone, a copy, or a folder made again since), not by a publish in this one".to_owned(),
        );
    }
    if !whole {
        return Found::Bound(None);
    }
    let mut rest = first;
    if let Err(e) = reader.read_to_end(&mut rest) {
        return Found::Unusable(format!("it could not be read: {e}"));
    }
    match std::str::from_utf8(&rest)
        .map_err(|_| "it is not UTF-8".to_owned())
        .and_then(Journal::parse)
    {
        Ok(journal) => Found::Bound(Some(journal)),
        Err(why) => Found::Unusable(why),
    }
}

/// Why `rel` (relative to the canonical root `canon`) is not reached without a link, if it is
/// not: every segment that exists is looked at with `lstat`; a symbolic link anywhere, or a
/// folder on the way that is not one, refuses it.
fn link_free(canon: &Path, rel: &str) -> Option<String> {
    let mut cur = canon.to_path_buf();
    let parts: Vec<Component<'_>> = Path::new(rel).components().collect();
    for (i, part) in parts.iter().enumerate() {
        let Component::Normal(name) = part else {
            return Some("it is not a plain relative path".to_owned());
        };
        cur.push(name);
        match std::fs::symlink_metadata(&cur) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Some(format!(
                    "'{}' on its way is a symbolic link, which a journal never follows",
                    slashed(cur.strip_prefix(canon).unwrap_or(&cur))
                ));
            }
            Ok(meta) if i + 1 < parts.len() && !meta.is_dir() => {
                return Some(format!(
                    "'{}' on its way is not a folder",
                    slashed(cur.strip_prefix(canon).unwrap_or(&cur))
                ));
            }
            Ok(_) => {}
            Err(_) => return None,
        }
    }
    None
}

/// What settling an interrupted publish did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Settled {
    /// The files it wrote to finish the publish (relative to the root).
    pub written: Vec<String>,
    /// The new files it removed to undo the publish.
    pub removed: Vec<String>,
    /// The replaced files it gave their previous bytes back.
    pub restored: Vec<String>,
    /// The empty folders the publish had created that the undo removed.
    pub removed_folders: Vec<String>,
    /// What the undo could not put back but that keeps no journal (a folder left behind).
    pub left: Vec<Leftover>,
    /// Whether a journal was there at all (removed now, the publish settled).
    pub found: bool,
}

impl Settled {
    /// One English sentence for a notice: what was finished or undone, file by file; `None`
    /// when there was no journal.
    pub fn describe(&self) -> Option<String> {
        if !self.found {
            return None;
        }
        let mut done: Vec<String> = Vec::new();
        let list = |v: &[String]| v.join(", ");
        if !self.written.is_empty() {
            done.push(format!("wrote {}", list(&self.written)));
        }
        if !self.removed.is_empty() {
            done.push(format!("removed {}", list(&self.removed)));
        }
        if !self.restored.is_empty() {
            done.push(format!(
                "put back the previous text of {}",
                list(&self.restored)
            ));
        }
        if !self.removed_folders.is_empty() {
            done.push(format!(
                "removed the empty folders {}",
                list(&self.removed_folders)
            ));
        }
        for l in &self.left {
            done.push(format!("could not remove the folder {}", l.describe()));
        }
        let how = if !self.written.is_empty() {
            "was finished"
        } else if done.is_empty() {
            "had already reached every file; its journal was removed"
        } else {
            "was undone"
        };
        Some(if done.is_empty() {
            format!("an interrupted publish {how}.")
        } else {
            format!("an interrupted publish {how}: {}.", done.join("; "))
        })
    }
}

/// The refusal of a foreign or unusable journal (`found`), kept as it is.
fn refusal(found: Found, shown: &str, path: &Path) -> PublishError {
    match found {
        Found::Foreign(why) => kept(
            shown,
            path,
            format!(
                "was not written by a publish in this workspace on this machine ({why}), so aw never replays it"
            ),
            "If this workspace is a copy made while an apply was unfinished, remove the journal and apply the same plan again here (it completes what is missing); otherwise it is not yours to replay:",
        ),
        Found::Unusable(why) => unusable(shown, path, why),
        Found::None | Found::Bound(_) => unusable(shown, path, "it could not be read".to_owned()),
    }
}

fn unusable(shown: &str, path: &Path, why: String) -> PublishError {
    kept(
        shown,
        path,
        format!("is left by an interrupted publish, and aw cannot use it: {why}"),
        "Check the files it names (they may hold part of an earlier apply);",
    )
}

/// The refusal of a journal that is kept: its path, why, and how to remove it.
fn kept(shown: &str, abs: &Path, headline: String, remedy: &str) -> PublishError {
    let rm = shell_word(&abs.to_string_lossy())
        .map(|w| format!("rm -- {w}"))
        .unwrap_or_else(|| format!("remove '{shown}'"));
    PublishError::before_any_write(CapabilityError::new(
        ErrorCode::PublishFailed,
        format!("the publish journal '{shown}' {headline}; nothing was written"),
        format!("{remedy} then remove the journal ({rm}) and run the command again."),
    ))
}

/// Finishes or undoes the publish the journal at `path` (inside `root`) describes, if there is
/// one, under the lock the caller holds: a journal going forward whose files are each either
/// published or as they were is finished (a failure while finishing undoes it); one marked
/// `back`, or with a file someone else changed since, is undone. The journal is removed once
/// the files are settled; what was done is returned. An error (`PUBLISH_FAILED`, naming the
/// journal and the command that removes it) when the journal is foreign (not bound to this
/// root), cannot be used (unreadable, too large, not one aw writes, naming a path a journal
/// may not name or one reached through a link), or its undo could not put a file back: the
/// journal stays, and nothing is written.
pub fn recover(root: &Path, path: &Path) -> Result<Settled, PublishError> {
    let shown = slashed(path.strip_prefix(root).unwrap_or(path));
    let journal = match read(root, path, true) {
        Found::None => return Ok(Settled::default()),
        Found::Bound(Some(journal)) => journal,
        Found::Bound(None) => {
            return Err(unusable(
                &shown,
                path,
                "it could not be read whole".to_owned(),
            ));
        }
        other => return Err(refusal(other, &shown, path)),
    };
    let canon = match root.canonicalize() {
        Ok(canon) => canon,
        Err(e) => {
            return Err(kept(
                &shown,
                path,
                format!("could not be settled: the root could not be resolved: {e}"),
                "Check the workspace folder;",
            ));
        }
    };
    for rel in journal
        .files
        .iter()
        .map(|f| f.path.as_str())
        .chain(journal.folders.iter().map(String::as_str))
    {
        if let Some(why) = link_free(&canon, rel) {
            return Err(kept(
                &shown,
                path,
                format!("names '{rel}', and {why}"),
                "Check that path and the files the journal names;",
            ));
        }
    }
    let states: Vec<FileState> = journal
        .files
        .iter()
        .map(|f| write::state_of(&canon, f))
        .collect();
    let mut settled = Settled {
        found: true,
        ..Settled::default()
    };
    match journal.recovery(&states) {
        Recovery::Done => {}
        Recovery::Forward(pending) => match forward(&canon, &journal, &pending) {
            Ok(()) => {
                settled.written = pending
                    .iter()
                    .map(|&i| journal.files[i].path.clone())
                    .collect();
            }
            Err(_) => return settled_back(&canon, path, &journal, None, &shown, settled),
        },
        Recovery::Back => {
            return settled_back(&canon, path, &journal, Some(states), &shown, settled);
        }
    }
    let _ = end(root, path);
    Ok(settled)
}

/// Writes the journal's `pending` files, as a publish writes them.
fn forward(root: &Path, journal: &Journal, pending: &[usize]) -> Result<(), CapabilityError> {
    let artifacts: Vec<aw_core::capability::plan::Artifact> = pending
        .iter()
        .map(|&i| {
            let file = &journal.files[i];
            aw_core::capability::plan::Artifact {
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

/// Undoes the journal's publish (marking it `back` first), given what its files hold when
/// that is known; removes the journal unless a file could not be put back.
fn settled_back(
    root: &Path,
    path: &Path,
    journal: &Journal,
    states: Option<Vec<FileState>>,
    shown: &str,
    mut settled: Settled,
) -> Result<Settled, PublishError> {
    let back = if journal.direction == aw_core::journal::Direction::Back {
        journal.clone()
    } else {
        mark_back(root, path, journal)
    };
    let undone = write::undo(root, &back.files, &back.folders, states);
    let (folders, files): (Vec<Leftover>, Vec<Leftover>) = undone
        .left
        .into_iter()
        .partition(|l| l.kind == LeftoverKind::NewFolder);
    if !files.is_empty() {
        return Err(PublishError {
            error: CapabilityError::new(
                ErrorCode::PublishFailed,
                format!(
                    "an interrupted publish could not be undone; its journal '{shown}' is kept, and the next command that reads the documents tries again"
                ),
                "Fix what stops the undo (the paths named), then run the command again.",
            ),
            rollback: Rollback::Incomplete(files),
        });
    }
    let _ = end(root, path);
    settled.removed = undone.removed;
    settled.restored = undone.restored;
    settled.removed_folders = undone.removed_folders;
    settled.left = folders;
    Ok(settled)
}

/// Why an interrupted publish was left as it is by [`settle`].
#[derive(Debug)]
pub enum Unsettled {
    /// A live publish held the lock past the wait, with its journal on disk: its files are not
    /// all in place, so the command must not read them (`LOCK_BUSY`).
    Busy(WorkspaceError),
    /// The journal is kept: the refusal (code, message, next action).
    Kept(CapabilityError),
}

/// Settles an interrupted publish of the workspace before a command reads its documents: when
/// a journal is there, the lock is taken (a live publish holding it is waited for, up to the
/// lock's wait) and the journal recovered. Costs one `lstat` when there is none. Returns what
/// was finished or undone; [`Unsettled::Busy`] when a live publish still held the lock (the
/// caller must not read a publish half done), [`Unsettled::Kept`] when the journal stays (a
/// read-only checkout, a foreign or unusable journal, an undo that could not finish).
pub fn settle(ws: &Workspace) -> Result<Settled, Unsettled> {
    let path = workspace_journal(ws);
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(Settled::default());
    }
    // A journal that is not this workspace's is only reported: no lock is taken for it and
    // nothing is written, so a clone's committed journal leaves the clone as it is.
    match read(&ws.root, &path, false) {
        Found::None => return Ok(Settled::default()),
        Found::Bound(_) => {}
        other => {
            let e = refusal(other, &ws.shown(&path), &path);
            return Err(Unsettled::Kept(e.error));
        }
    }
    let lock = match WorkspaceLock::of(ws, default_wait()) {
        Ok(lock) => lock,
        Err(WorkspaceError::LockBusy { pid, waited_ms }) => {
            return Err(Unsettled::Busy(WorkspaceError::Refused {
                code: ErrorCode::LockBusy,
                message: format!(
                    "a publish is being written in this workspace (pid {pid}) and still held the lock after {waited_ms} ms; its files are not all in place yet, so nothing was read"
                ),
                action: "Run the command again once the other aw command has finished (AW_LOCK_WAIT_MS sets how long aw waits).".to_owned(),
            }));
        }
        Err(e) => {
            return Err(Unsettled::Kept(CapabilityError::new(
                e.code(),
                format!(
                    "an interrupted publish left its journal '{}', and the lock to settle it could not be taken: {e}",
                    ws.shown(&path)
                ),
                e.action(),
            )));
        }
    };
    if lock.is_read_only() {
        return Err(Unsettled::Kept(CapabilityError::new(
            ErrorCode::PublishFailed,
            format!(
                "an interrupted publish left its journal '{}', and this workspace cannot be written, so it cannot be finished or undone here; its documents may show part of it",
                ws.shown(&path)
            ),
            "Run an aw command that reads the documents (aw status) where the workspace can be written.",
        )));
    }
    recover(&ws.root, &path).map_err(|e| {
        let mut error = e.error.clone();
        error.action = e.next_action();
        Unsettled::Kept(error)
    })
}
