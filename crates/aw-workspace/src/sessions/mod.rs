//! The sessions folder on disk: listing session folders and their state, reading what a listing
//! shows of each, and the transactions that create, close and reopen one.

pub mod artifacts;
pub mod bindings;
pub mod checkpoint;
mod close;
pub mod context_id;
mod create;
pub mod custody;
pub mod history;
pub mod hooks;
pub mod narrative;
mod reopen;
pub mod resolver;

pub use close::{CHECKPOINT_STUB, Closed, close};
pub use create::{CreateRequest, Created, create};
pub use reopen::reopen;

use crate::error::{Result, WorkspaceError};
use crate::locate::Workspace;
use aw_core::artifacts::ArtifactKind;
use aw_core::custody::FILE as CUSTODY;
use aw_core::session::document::{self, Facts};
use aw_core::session::folder::{
    SessionFolder, SessionState, identity, is_session_entry, next_session,
};
use aw_core::vocab::correlative::Correlative;

use std::path::{Path, PathBuf};

/// The `.closed` sentinel that marks a session closed.
pub const CLOSED_SENTINEL: &str = ".closed";

/// The folder of a session.
pub fn folder_path(ws: &Workspace, folder: &str) -> PathBuf {
    ws.sessions_dir().join(folder)
}

/// Whether a session folder holds the `.closed` sentinel.
pub fn state_of(dir: &Path) -> SessionState {
    if dir.join(CLOSED_SENTINEL).exists() {
        SessionState::Closed
    } else {
        SessionState::Active
    }
}

/// Every session folder (visible sub-folders of `sessions/`), sorted by byte order. A missing
/// sessions folder lists nothing. A symbolic link is a session only when it leads to a folder
/// inside the workspace: one that leads out of it is not a session at all, so nothing is ever
/// read from or written into the place it points to.
pub fn list(ws: &Workspace) -> Result<Vec<SessionFolder>> {
    list_in(&ws.root, &ws.sessions_dir())
}

/// [`list`] for a caller that reads every folder's [`info`] next, which lists the folder and so
/// learns its state without asking for it here: each state is `Active` until [`info`] reads it
/// (one system call per session saved on a listing of all of them).
pub fn list_unstated(ws: &Workspace) -> Result<Vec<SessionFolder>> {
    scan_in(&ws.root, &ws.sessions_dir(), false)
}

/// [`list`] for an explicit sessions folder inside `root`.
pub fn list_in(root: &Path, dir: &Path) -> Result<Vec<SessionFolder>> {
    scan_in(root, dir, true)
}

/// The session folders of `dir`, with their state when `stated`.
fn scan_in(root: &Path, dir: &Path, stated: bool) -> Result<Vec<SessionFolder>> {
    let canon_root = root.canonicalize().ok();
    // A sessions folder reached through a link out of the workspace holds no sessions of this
    // workspace, whatever it holds (the same rule as for one session folder below).
    if let (Some(r), Ok(real)) = (&canon_root, dir.canonicalize())
        && !real.starts_with(r)
    {
        return Ok(Vec::new());
    }
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(WorkspaceError::io("could not list", dir, e)),
    };
    let mut out = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| WorkspaceError::io("could not list", dir, e))?;
        // Names that are not UTF-8 cannot be typed back as a code; they are not sessions.
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        if !is_session_entry(&name) {
            continue;
        }
        let path = entry.path();
        // The directory entry's own type saves a stat per folder; only a symlink needs one.
        let is_dir = match entry.file_type() {
            Ok(t) if t.is_symlink() => {
                let inside = path
                    .canonicalize()
                    .ok()
                    .is_some_and(|real| canon_root.as_ref().is_some_and(|r| real.starts_with(r)));
                inside && path.is_dir()
            }
            Ok(t) => t.is_dir(),
            Err(_) => path.is_dir(),
        };
        if !is_dir {
            continue;
        }
        out.push(SessionFolder {
            state: if stated {
                state_of(&path)
            } else {
                SessionState::Active
            },
            folder: name,
        });
    }
    out.sort_by(|a, b| a.folder.as_bytes().cmp(b.folder.as_bytes()));
    Ok(out)
}

/// The number the next session takes: one more than the highest of the numbered folders (both
/// layouts) and the HISTORY rows (`history` is HISTORY.md's text).
pub fn next_number(listing: &[SessionFolder], history: Option<&str>) -> Correlative {
    let keys: Vec<String> = history
        .map(|h| {
            aw_core::session::history::rows(h)
                .into_iter()
                .map(|r| r.key)
                .collect()
        })
        .unwrap_or_default();
    next_number_of(listing, keys.iter().map(String::as_str))
}

/// [`next_number`] from HISTORY's row keys (`history`'s lookup, when the caller has one).
pub fn next_number_of<'a>(
    listing: &'a [SessionFolder],
    keys: impl IntoIterator<Item = &'a str>,
) -> Correlative {
    let (_, next) = next_session(listing.iter().map(|f| f.folder.as_str()), keys);
    next
}

/// The legacy pre-0.9 descriptor, read when nothing newer exists.
pub const REQUIREMENTS: &str = "REQUIREMENTS.md";

/// Which file describes a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DescriptorKind {
    /// `SESSION.md`.
    Session,
    /// `OBJECTIVE.md` / `OBJETIVO.md`.
    Objective,
    /// `REQUIREMENTS.md` (pre-0.9).
    Requirements,
}

/// A session's descriptor file and its text.
#[derive(Debug, Clone)]
pub struct Descriptor {
    /// Which kind of file it is.
    pub kind: DescriptorKind,
    /// Its path.
    pub path: PathBuf,
    /// Its text (bytes that are not UTF-8 replaced).
    pub text: String,
}

/// Which of a folder's `entries` is its descriptor: `SESSION.md`, else `OBJECTIVE.md` /
/// `OBJETIVO.md`, else `REQUIREMENTS.md`, each case-insensitively.
pub fn descriptor_name(entries: &[String]) -> Option<(DescriptorKind, &str)> {
    ArtifactKind::Session
        .find(entries)
        .map(|n| (DescriptorKind::Session, n))
        .or_else(|| {
            ArtifactKind::Objective
                .find(entries)
                .map(|n| (DescriptorKind::Objective, n))
        })
        .or_else(|| {
            entries
                .iter()
                .filter(|e| e.eq_ignore_ascii_case(REQUIREMENTS))
                .min()
                .map(|n| (DescriptorKind::Requirements, n.as_str()))
        })
}

/// Finds and reads the descriptor among a folder's `entries`: `SESSION.md`, else
/// `OBJECTIVE.md` / `OBJETIVO.md`, else `REQUIREMENTS.md`, each case-insensitively.
pub fn descriptor(dir: &Path, entries: &[String]) -> Result<Option<Descriptor>> {
    let Some((kind, name)) = descriptor_name(entries) else {
        return Ok(None);
    };
    let path = dir.join(name);
    // Opened once (a FIFO refused, never waited on), its size asked through the handle, read
    // without a probe for the end.
    match crate::io::folder::read_regular_path(&path) {
        Ok(bytes) => Ok(Some(Descriptor {
            kind,
            path,
            text: String::from_utf8_lossy(&bytes).into_owned(),
        })),
        // Listed a moment ago and gone now, or not a file (a folder or a FIFO named like one):
        // no descriptor, as the board reads it.
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound
                    | std::io::ErrorKind::IsADirectory
                    | std::io::ErrorKind::InvalidInput
            ) =>
        {
            Ok(None)
        }
        Err(e) => Err(WorkspaceError::io("could not read", path, e)),
    }
}

/// Everything a listing shows of one session, read once.
#[derive(Debug, Clone)]
pub struct Info {
    /// The folder and its state (read from the folder's listing).
    pub folder: SessionFolder,
    /// The folder's path.
    pub dir: PathBuf,
    /// The folder's file names, sorted.
    pub entries: Vec<String>,
    /// The descriptor, if any.
    pub descriptor: Option<Descriptor>,
    /// Type, summary, branch and recorded date.
    pub facts: Facts,
    /// The session's date: the descriptor's `Start date:`, else the `created` of its custody
    /// (aw's or the reference's), else its HISTORY row's date, else `today` (never the folder's mtime,
    /// which moves whenever the folder changes).
    pub date: String,
}

/// Reads one session. `history` is HISTORY.md's rows (read once by the caller).
pub fn info(
    ws: &Workspace,
    folder: &SessionFolder,
    history: Option<&aw_core::session::history::Dates>,
    today: &str,
) -> Result<Info> {
    let dir = folder_path(ws, &folder.folder);
    let entries = crate::sessions::artifacts::entries(&dir)?;
    // The folder's own listing says whether it is closed (as of now).
    let state = if entries.iter().any(|e| e == CLOSED_SENTINEL) {
        SessionState::Closed
    } else {
        SessionState::Active
    };
    let descriptor = descriptor(&dir, &entries)?;
    let id = identity(&folder.folder);
    let facts = document::facts(&id.name, descriptor.as_ref().map(|d| d.text.as_str()));
    // A date the document declares, else the day the custody says the session was
    // born (read only when the folder lists one), then HISTORY, then today.
    let born = if facts.date.is_none() && entries.iter().any(|e| e == CUSTODY) {
        crate::io::folder::read_regular_path(&dir.join(CUSTODY))
            .ok()
            .and_then(|bytes| aw_core::custody::created(&String::from_utf8_lossy(&bytes)))
    } else {
        None
    };
    let date = aw_core::session::history::session_date(
        &folder.folder,
        facts.date.as_deref().or(born.as_deref()),
        history,
        today,
    );
    Ok(Info {
        folder: SessionFolder {
            folder: folder.folder.clone(),
            state,
        },
        dir,
        entries,
        descriptor,
        facts,
        date,
    })
}

/// [`info`] for many sessions, in their order, read on all cores: a listing of hundreds of
/// sessions is dominated by per-folder system calls, which parallelise well.
pub fn infos(
    ws: &Workspace,
    folders: &[&SessionFolder],
    history: Option<&aw_core::session::history::Dates>,
    today: &str,
) -> Result<Vec<Info>> {
    // Asking for the cores reads the control groups' files: not worth it for a few folders.
    let threads = if folders.len() < 32 {
        1
    } else {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
            .min(8)
    };
    if threads < 2 {
        return folders
            .iter()
            .map(|f| info(ws, f, history, today))
            .collect();
    }
    let chunk = folders.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = folders
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|f| info(ws, f, history, today))
                        .collect::<Result<Vec<_>>>()
                })
            })
            .collect();
        let mut out = Vec::with_capacity(folders.len());
        for h in handles {
            // A panicking reader is a bug; surface it as an I/O-level failure, not a crash.
            let part = h.join().map_err(|_| {
                WorkspaceError::io(
                    "a session reader failed in",
                    ws.sessions_dir(),
                    std::io::Error::other("reader thread panicked"),
                )
            })??;
            out.extend(part);
        }
        Ok(out)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_visible_folders_with_state_in_byte_order() {
        let dir = tempfile::tempdir().unwrap();
        let s = dir.path();
        for d in ["b-x", "A-y", "001-a", ".hidden"] {
            std::fs::create_dir(s.join(d)).unwrap();
        }
        std::fs::write(s.join(".bindings.json"), "").unwrap();
        std::fs::write(s.join("file.md"), "").unwrap();
        std::fs::write(s.join("b-x/.closed"), "").unwrap();
        let got: Vec<_> = list_in(s, s)
            .unwrap()
            .into_iter()
            .map(|f| (f.folder, f.state))
            .collect();
        assert_eq!(
            got,
            vec![
                ("001-a".to_owned(), SessionState::Active),
                ("A-y".to_owned(), SessionState::Active),
                ("b-x".to_owned(), SessionState::Closed),
            ]
        );
        assert!(list_in(s, &s.join("missing")).unwrap().is_empty());
    }

    #[test]
    fn a_descriptor_is_read_whole_and_a_folder_named_like_one_is_none() {
        let dir = tempfile::tempdir().unwrap();
        let s = dir.path();
        let text = "## Objective\nx\n".repeat(1000);
        std::fs::write(s.join("SESSION.md"), &text).unwrap();
        let got = descriptor(s, &["SESSION.md".to_owned()]).unwrap().unwrap();
        assert_eq!((got.kind, got.text), (DescriptorKind::Session, text));
        std::fs::create_dir(s.join("OBJECTIVE.md")).unwrap();
        assert!(
            descriptor(s, &["OBJECTIVE.md".to_owned()])
                .unwrap()
                .is_none()
        );
        assert!(
            descriptor(s, &["REQUIREMENTS.md".to_owned()])
                .unwrap()
                .is_none()
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_link_out_of_the_workspace_is_not_a_session() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let root = dir.path();
        let s = root.join(".workflow/sessions");
        std::fs::create_dir_all(s.join("001-real")).unwrap();
        std::fs::create_dir_all(root.join("archive/002-kept")).unwrap();
        symlink(root.join("archive/002-kept"), s.join("002-kept")).unwrap();
        symlink(outside.path(), s.join("003-escape")).unwrap();
        let folders: Vec<String> = list_in(root, &s)
            .unwrap()
            .into_iter()
            .map(|f| f.folder)
            .collect();
        assert_eq!(folders, ["001-real", "002-kept"]);
        // A whole sessions folder reached through a link out holds no sessions of this root.
        std::fs::create_dir_all(outside.path().join("004-there")).unwrap();
        let linked = root.join(".other/sessions");
        std::fs::create_dir_all(linked.parent().unwrap()).unwrap();
        symlink(outside.path(), &linked).unwrap();
        assert!(list_in(root, &linked).unwrap().is_empty());
    }
}
