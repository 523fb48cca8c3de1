//! The lock of a host folder for `aw self`: one OS file lock per host folder (`~/.claude`,
//! `~/.config/opencode`, …), so an install and an uninstall of the same host never interleave
//! (one reading a file the other just removed), while two hosts can be worked on at once.
//!
//! The lock file sits in HOME beside the host folders (`~/.aw-self-lock.claude`), not inside
//! them: an install that creates `~/.claude` and an uninstall that removes it are both covered,
//! and the folder aw removes holds no lock file of its own. The file lives only while a `self`
//! command holds it: the last holder removes it as it lets go (taking it exclusively first, so
//! no other holder is left on it), and a holder that finds its file no longer at the path (a
//! waiter woken on a file just removed) opens the path again. It is opened without following a
//! symbolic link and must be a regular file. Installs and uninstalls hold it exclusively; the
//! doctor, `detect-hosts` and dry runs hold it shared when it is there (they never create it);
//! several folders are always taken in one order (sorted), so two commands never wait on each
//! other.

use crate::error::WorkspaceError;
use crate::io::lock::{check_regular, names_this_file, open_failed, open_lock_file};
use aw_core::error_code::ErrorCode;
use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How often a waiting command tries again.
const POLL: Duration = Duration::from_millis(5);

/// The lock file of the host folder `root` (relative to HOME).
pub fn lock_path(home: &Path, root: &str) -> PathBuf {
    home.join(format!(
        ".aw-self-lock.{}",
        root.trim_start_matches('.').replace('/', "-")
    ))
}

/// One held lock.
#[derive(Debug)]
struct Held {
    file: File,
    path: PathBuf,
}

/// The locks of the host folders a command works on; released (and their files removed when no
/// one else holds them) on drop.
#[derive(Debug, Default)]
pub struct HostLocks {
    held: Vec<Held>,
}

/// Takes the lock of every host folder of `roots` (relative to HOME), exclusively or shared,
/// waiting up to `wait` for each. A shared lock is taken only where a lock file is there (a
/// writer's, held or left by a killed one): with none, no writer is at work; for a writer, a
/// lock that cannot be taken is the error.
pub fn lock_roots(
    home: &Path,
    roots: &[&str],
    shared: bool,
    wait: Duration,
) -> Result<HostLocks, WorkspaceError> {
    let mut roots: Vec<&str> = roots.to_vec();
    roots.sort_unstable();
    roots.dedup();
    let mut locks = HostLocks::default();
    for root in roots {
        let path = lock_path(home, root);
        match take(&path, shared, wait) {
            Ok(held) => locks.held.push(held),
            Err(Some(e)) => return Err(e),
            Err(None) => {}
        }
    }
    Ok(locks)
}

/// Takes one lock; `Err(None)` when a shared lock is not needed (no writer's file there) or
/// cannot be had (a read-only HOME).
fn take(path: &Path, shared: bool, wait: Duration) -> Result<Held, Option<WorkspaceError>> {
    let start = Instant::now();
    loop {
        // A reader never creates the file: with no file there, no writer is at work (a writer
        // holds its file for its whole run), and a command that only reads costs no file made
        // and removed.
        let file = match open_lock_file(path, !shared) {
            Ok(f) => f,
            Err(e)
                if shared
                    && matches!(
                        e.kind(),
                        std::io::ErrorKind::NotFound
                            | std::io::ErrorKind::PermissionDenied
                            | std::io::ErrorKind::ReadOnlyFilesystem
                    ) =>
            {
                return Err(None);
            }
            Err(e) => return Err(Some(open_failed(path, e))),
        };
        check_regular(&file, path).map_err(Some)?;
        let got = if shared {
            file.try_lock_shared()
        } else {
            file.try_lock()
        };
        match got {
            // Woken on a file the last holder removed: it protects nothing; open the path again.
            Ok(()) if !names_this_file(path, &file) => {}
            Ok(()) => {
                return Ok(Held {
                    file,
                    path: path.to_path_buf(),
                });
            }
            Err(TryLockError::WouldBlock) => {}
            Err(TryLockError::Error(e)) => {
                return Err(Some(WorkspaceError::io("could not lock", path, e)));
            }
        }
        if start.elapsed() >= wait {
            return Err(Some(busy(path, start)));
        }
        std::thread::sleep(POLL);
    }
}

fn busy(path: &Path, start: Instant) -> WorkspaceError {
    WorkspaceError::Refused {
        code: ErrorCode::LockBusy,
        message: format!(
            "Another `aw self` command is working on the same host folder (its lock, {}, stayed taken for {} ms).",
            path.display(),
            start.elapsed().as_millis()
        ),
        action: "Wait for the other command to finish, then run this one again (set AW_LOCK_WAIT_MS to wait longer).".to_owned(),
    }
}

impl Drop for HostLocks {
    fn drop(&mut self) {
        for h in self.held.drain(..).rev() {
            // The file goes with its last holder: only one that holds it alone may remove it.
            if h.file.try_lock().is_ok() && names_this_file(&h.path, &h.file) {
                let _ = std::fs::remove_file(&h.path);
            }
            let _ = h.file.unlock();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_writer_waits_for_a_reader_and_the_file_goes_with_its_last_holder() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path();
        let wait = Duration::from_millis(20);
        // No writer's file: a reader takes nothing and makes nothing.
        drop(lock_roots(home, &[".claude"], true, wait).unwrap());
        assert!(!lock_path(home, ".claude").exists());
        std::fs::write(lock_path(home, ".claude"), "").unwrap();
        let r1 = lock_roots(home, &[".claude"], true, wait).unwrap();
        let r2 = lock_roots(home, &[".claude"], true, wait).unwrap();
        assert!(lock_roots(home, &[".claude"], false, wait).is_err());
        // Another folder is free.
        drop(lock_roots(home, &[".codex"], false, wait).unwrap());
        drop(r1);
        assert!(
            lock_path(home, ".claude").exists(),
            "a reader still holds it"
        );
        drop(r2);
        assert!(!lock_path(home, ".claude").exists());
        let w = lock_roots(home, &[".config/opencode", ".claude"], false, wait).unwrap();
        assert!(lock_roots(home, &[".config/opencode"], true, wait).is_err());
        drop(w);
        assert_eq!(std::fs::read_dir(home).unwrap().count(), 0);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_in_the_lock_files_place_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path();
        std::os::unix::fs::symlink(home.join("elsewhere"), lock_path(home, ".claude")).unwrap();
        assert!(lock_roots(home, &[".claude"], false, Duration::from_millis(5)).is_err());
        assert!(!home.join("elsewhere").exists());
    }
}
