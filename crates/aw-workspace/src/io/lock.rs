//! The workspace lock: an OS advisory lock on `.<ns>/.lock`.
//!
//! The reference CLI locked by creating the file with O_EXCL and deleted "stale" locks by path,
//! which let two processes both believe they held the lock. Here the OS arbitrates (`flock`), so
//! a lock is released the moment its holder exits, however it exits, and nothing ever deletes
//! the file. While held, the file carries `{"pid":…,"ts":…}` as the reference's did, so a
//! reference CLI (or a person) can see who holds it, plus `"flock":true` to say the stamp is
//! ours. Liveness is decided by the OS lock, never by the pid alone: a stamp of ours whose
//! `flock` we could take belongs to a dead holder, whatever process has that pid now. A fresh
//! stamp without the mark is a live reference CLI's (it does not use `flock`) and is honoured.
//!
//! The lock file is opened without following symbolic links and must be a regular file: a
//! repository that commits `.lock` as a link cannot make aw truncate the link's target.

use crate::error::{Result, WorkspaceError};
use crate::locate::Workspace;
use aw_core::error_code::ErrorCode;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{ErrorKind, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long a lock written by the reference CLI stays valid (its TTL).
const FOREIGN_TTL: Duration = Duration::from_secs(300);
/// How often a waiting process retries.
const POLL: Duration = Duration::from_millis(10);

/// The default wait for a busy lock, overridable with `AW_LOCK_WAIT_MS`.
pub fn default_wait() -> Duration {
    std::env::var("AW_LOCK_WAIT_MS")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(Duration::from_millis)
        .unwrap_or(Duration::from_secs(5))
}

/// A held workspace lock; released on drop. Whoever holds one may write inside its root.
#[derive(Debug)]
pub struct WorkspaceLock {
    /// The lock file, locked; `None` on a read-only workspace where it does not exist.
    file: Option<File>,
    path: PathBuf,
    root: PathBuf,
    /// The workspace cannot be written: the lock is shared (or absent) and never stamped.
    read_only: bool,
}

impl WorkspaceLock {
    /// Takes the workspace's lock, waiting up to `wait` for another holder to let go.
    pub fn of(ws: &Workspace, wait: Duration) -> Result<Self> {
        Self::acquire(&ws.root, &ws.lock_path(), wait)
    }

    /// Takes the lock at `path` inside `root` (creating the file and its folder if needed),
    /// waiting up to `wait` for another holder to let go.
    ///
    /// On a workspace that cannot be written (a read-only checkout), the lock is taken shared
    /// when the file can be read, and not at all when it does not exist: reads go on, and any
    /// write fails where it is attempted.
    pub fn acquire(root: &Path, path: &Path, wait: Duration) -> Result<Self> {
        if let Some(dir) = path.parent()
            && let Err(e) = crate::io::atomic::create_dir_all(root, dir)
        {
            return match e {
                WorkspaceError::Io { ref source, .. } if read_only_error(source) => {
                    Self::read_only(root, path, wait)
                }
                other => Err(other),
            };
        }
        let start = Instant::now();
        let open = || match open_lock_file(path, true) {
            Ok(f) => check_regular(&f, path).map(|()| Some(f)),
            Err(e) if cannot_write(&e, path) => Ok(None),
            Err(e) => Err(open_failed(path, e)),
        };
        let Some(mut file) = open()? else {
            return Self::read_only(root, path, wait);
        };
        loop {
            match file.try_lock() {
                // The reference CLI releases by renaming a new file over `.lock` and steals a
                // stale one by deleting it: the lock we got may be on a file the path no longer
                // names. Then it protects nothing; open the path again and retry.
                Ok(()) if !names_this_file(path, &file) => {
                    let _ = file.unlock();
                    file = open()?.ok_or_else(|| busy(None, start))?;
                    if start.elapsed() >= wait {
                        return Err(busy(None, start));
                    }
                    continue;
                }
                Ok(()) => match foreign_holder(&mut file) {
                    None => break,
                    Some(pid) => {
                        // A live reference CLI holds it by content; let go and wait our turn,
                        // reading the path afresh each time (its release replaces the file).
                        let _ = file.unlock();
                        if start.elapsed() >= wait {
                            return Err(busy(Some(pid), start));
                        }
                        std::thread::sleep(POLL);
                        file = open()?.ok_or_else(|| busy(Some(pid), start))?;
                        continue;
                    }
                },
                Err(TryLockError::WouldBlock) => {
                    if start.elapsed() >= wait {
                        return Err(busy(holder_pid(&mut file), start));
                    }
                }
                Err(TryLockError::Error(e)) => {
                    return Err(WorkspaceError::io("could not lock", path, e));
                }
            }
            std::thread::sleep(POLL);
        }
        let mut lock = WorkspaceLock {
            file: Some(file),
            path: path.to_path_buf(),
            root: root.to_path_buf(),
            read_only: false,
        };
        lock.stamp()?;
        Ok(lock)
    }

    /// The lock of a workspace that cannot be written: shared, and only when the file exists.
    fn read_only(root: &Path, path: &Path, wait: Duration) -> Result<Self> {
        let start = Instant::now();
        let file = match open_lock_file(path, false) {
            Ok(f) => Some(f),
            Err(e) if e.kind() == ErrorKind::NotFound => None,
            Err(e) => return Err(open_failed(path, e)),
        };
        if let Some(f) = &file {
            check_regular(f, path)?;
            loop {
                match f.try_lock_shared() {
                    Ok(()) => break,
                    Err(TryLockError::WouldBlock) if start.elapsed() < wait => {
                        std::thread::sleep(POLL);
                    }
                    Err(TryLockError::WouldBlock) => return Err(busy(None, start)),
                    Err(TryLockError::Error(e)) => {
                        return Err(WorkspaceError::io("could not lock", path, e));
                    }
                }
            }
        }
        Ok(WorkspaceLock {
            file,
            path: path.to_path_buf(),
            root: root.to_path_buf(),
            read_only: true,
        })
    }

    /// The lock file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The workspace root the holder may write inside.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Whether the workspace cannot be written (the lock is shared, or there is no lock file).
    pub fn is_read_only(&self) -> bool {
        self.read_only
    }

    /// Writes our pid, time and mark into the (locked) file, in place: replacing the file would
    /// orphan the inode the OS lock is attached to.
    fn stamp(&mut self) -> Result<()> {
        let Some(file) = self.file.as_mut() else {
            return Ok(());
        };
        let body = format!(
            "{{\"pid\":{},\"ts\":\"{}\",\"flock\":true}}",
            std::process::id(),
            crate::io::clock::utc_iso_now()
        );
        file.set_len(0)
            .and_then(|()| file.seek(SeekFrom::Start(0)).map(|_| ()))
            .and_then(|()| file.write_all(body.as_bytes()))
            .map_err(|e| WorkspaceError::io("could not write the lock file", &self.path, e))
    }
}

impl Drop for WorkspaceLock {
    fn drop(&mut self) {
        let Some(file) = &self.file else { return };
        if !self.read_only {
            // Leave the reference's "released" marker (an empty file) on the file we stamped.
            let _ = file.set_len(0);
        }
        let _ = file.unlock();
    }
}

/// Opens the lock file without following a symbolic link (for writing: creating it if needed).
pub(crate) fn open_lock_file(path: &Path, write: bool) -> std::io::Result<File> {
    let mut o = OpenOptions::new();
    o.read(true);
    if write {
        o.write(true).create(true).truncate(false);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // O_NONBLOCK: a FIFO planted as `.lock` must not hang the open (it is then refused as
        // not a regular file); on a regular file it changes nothing.
        o.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
        // A lock file under a lease (Samba, NFS) is waited for, as a plain open waits.
        crate::io::folder::unless_leased(o.open(path), || {
            o.custom_flags(libc::O_NOFOLLOW).open(path)
        })
    }
    #[cfg(not(unix))]
    o.open(path)
}

/// The lock file must be a regular file (not a folder, a FIFO or a device).
pub(crate) fn check_regular(file: &File, path: &Path) -> Result<()> {
    let meta = file
        .metadata()
        .map_err(|e| WorkspaceError::io("could not inspect the lock file", path, e))?;
    if meta.is_file() {
        Ok(())
    } else {
        Err(not_a_lock_file(path))
    }
}

fn not_a_lock_file(path: &Path) -> WorkspaceError {
    WorkspaceError::Refused {
        code: ErrorCode::PathOutsideWorkspace,
        message: format!(
            "{} is not a regular file (a symbolic link, a folder or a device), so aw will not use it as its lock.",
            path.display()
        ),
        action: "Remove it (aw recreates the lock file), then run the command again.".to_owned(),
    }
}

pub(crate) fn open_failed(path: &Path, e: std::io::Error) -> WorkspaceError {
    // O_NOFOLLOW refuses a symbolic link with ELOOP; opening a folder for writing fails EISDIR.
    if e.kind() == ErrorKind::IsADirectory {
        return not_a_lock_file(path);
    }
    #[cfg(unix)]
    if e.raw_os_error() == Some(libc::ELOOP) {
        return not_a_lock_file(path);
    }
    WorkspaceError::io("could not open the lock file", path, e)
}

/// Errors that mean the workspace cannot be written at all.
fn read_only_error(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        ErrorKind::ReadOnlyFilesystem | ErrorKind::PermissionDenied
    )
}

/// Whether failing to open the lock file for writing means the workspace cannot be written (a
/// read-only checkout), rather than that this one file is not ours (a `.lock` another user
/// created, or one made read-only): a denied permission counts only when the lock's folder
/// refuses a new file too. Otherwise a writer would fall back to a shared lock and write
/// beside another writer.
fn cannot_write(e: &std::io::Error, path: &Path) -> bool {
    match e.kind() {
        ErrorKind::ReadOnlyFilesystem => true,
        ErrorKind::PermissionDenied => path
            .parent()
            .is_some_and(|dir| tempfile::tempfile_in(dir).is_err()),
        _ => false,
    }
}

/// Whether `path` still names the file `file` has open (same device and inode).
pub(crate) fn names_this_file(path: &Path, file: &File) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::symlink_metadata(path), file.metadata()) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (path, file);
        true
    }
}

fn busy(pid: Option<String>, start: Instant) -> WorkspaceError {
    WorkspaceError::LockBusy {
        pid: pid.unwrap_or_else(|| "unknown".to_owned()),
        waited_ms: start.elapsed().as_millis() as u64,
    }
}

/// A lock file's stamp: the holder's pid, when it stamped, and whether the stamp is ours.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stamp {
    pid: u64,
    ts: String,
    flock: bool,
}

fn read_stamp(file: &mut File) -> Option<Stamp> {
    let mut text = String::new();
    file.seek(SeekFrom::Start(0)).ok()?;
    file.read_to_string(&mut text).ok()?;
    parse_stamp(&text)
}

fn parse_stamp(text: &str) -> Option<Stamp> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    Some(Stamp {
        pid: v.get("pid")?.as_u64()?,
        ts: v.get("ts")?.as_str()?.to_owned(),
        flock: v.get("flock").and_then(serde_json::Value::as_bool) == Some(true),
    })
}

/// The pid recorded in the lock file, if any (read through the open descriptor).
fn holder_pid(file: &mut File) -> Option<String> {
    read_stamp(file).map(|s| s.pid.to_string())
}

/// When we hold the OS lock but the file records a fresh stamp without our mark, of another
/// live process, that process is a reference CLI holding the lock its own way. A stamp with our
/// mark is stale: its holder would still hold the OS lock if it were alive.
fn foreign_holder(file: &mut File) -> Option<String> {
    let s = read_stamp(file)?;
    if s.flock || s.pid == u64::from(std::process::id()) || !process_alive(s.pid) {
        return None;
    }
    let age = crate::io::clock::age_of_iso(&s.ts)?;
    (age < FOREIGN_TTL).then(|| s.pid.to_string())
}

/// Whether a process with this pid exists (Linux: `/proc/<pid>`; elsewhere assume it does).
fn process_alive(pid: u64) -> bool {
    let proc_root = Path::new("/proc");
    if !proc_root.join("self").exists() {
        return true;
    }
    proc_root.join(pid.to_string()).exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_holder_gets_busy_with_pid() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join(".workflow/.lock");
        let held = WorkspaceLock::acquire(dir.path(), &p, Duration::from_millis(10)).unwrap();
        // A second open file description in the same process contends like another process.
        let err = WorkspaceLock::acquire(dir.path(), &p, Duration::from_millis(30)).unwrap_err();
        match err {
            WorkspaceError::LockBusy { pid, .. } => assert_eq!(pid, std::process::id().to_string()),
            other => panic!("unexpected {other:?}"),
        }
        drop(held);
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "");
        WorkspaceLock::acquire(dir.path(), &p, Duration::from_millis(10)).unwrap();
    }

    #[test]
    fn stale_or_dead_reference_stamps_are_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join(".lock");
        std::fs::write(
            &p,
            "{\"pid\":999999999,\"ts\":\"2020-01-01T00:00:00.000Z\"}",
        )
        .unwrap();
        WorkspaceLock::acquire(dir.path(), &p, Duration::from_millis(10)).unwrap();
        std::fs::write(&p, "garbage").unwrap();
        WorkspaceLock::acquire(dir.path(), &p, Duration::from_millis(10)).unwrap();
    }

    /// Liveness is read from `/proc`, so this runs where `/proc` is (Linux), and requires it.
    #[cfg(target_os = "linux")]
    #[test]
    fn fresh_reference_stamp_of_a_live_process_is_honoured() {
        assert!(Path::new("/proc/1").exists(), "this test needs /proc");
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join(".lock");
        // pid 1 is alive on any Linux system and is never us.
        let stamp = format!(
            "{{\"pid\":1,\"ts\":\"{}\"}}",
            crate::io::clock::utc_iso_now()
        );
        std::fs::write(&p, stamp).unwrap();
        let err = WorkspaceLock::acquire(dir.path(), &p, Duration::from_millis(30)).unwrap_err();
        assert_eq!(err.code(), "LOCK_BUSY");
    }

    /// A stamp of ours names a holder that held the OS lock; if we could take that lock, the
    /// holder is gone, whatever process has its pid now.
    #[cfg(target_os = "linux")]
    #[test]
    fn our_stamp_naming_a_live_unrelated_pid_does_not_block() {
        assert!(Path::new("/proc/1").exists(), "this test needs /proc");
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join(".lock");
        let stamp = format!(
            "{{\"pid\":1,\"ts\":\"{}\",\"flock\":true}}",
            crate::io::clock::utc_iso_now()
        );
        std::fs::write(&p, stamp).unwrap();
        let held = WorkspaceLock::acquire(dir.path(), &p, Duration::ZERO).unwrap();
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(
            text.contains(&format!("\"pid\":{}", std::process::id())),
            "{text}"
        );
        assert!(text.contains("\"flock\":true"), "{text}");
        drop(held);
    }

    #[cfg(unix)]
    #[test]
    fn a_lock_file_replaced_under_us_is_not_the_lock_any_more() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join(".lock");
        std::fs::write(&p, "").unwrap();
        let file = open_lock_file(&p, true).unwrap();
        assert!(names_this_file(&p, &file));
        // The reference releases by renaming a new file over the lock.
        let fresh = dir.path().join("fresh");
        std::fs::write(&fresh, "").unwrap();
        std::fs::rename(&fresh, &p).unwrap();
        assert!(!names_this_file(&p, &file));
        std::fs::remove_file(&p).unwrap();
        assert!(!names_this_file(&p, &file));
    }

    /// A waiter that saw a reference CLI's stamp must not end up holding the file that CLI's
    /// release renamed away, while the next process locks the new one.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_waiter_follows_the_file_a_reference_release_puts_in_place() {
        assert!(Path::new("/proc/1").exists(), "this test needs /proc");
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        let p = root.join(".lock");
        let stamp = format!(
            "{{\"pid\":1,\"ts\":\"{}\"}}",
            crate::io::clock::utc_iso_now()
        );
        std::fs::write(&p, stamp).unwrap();
        let (r, q) = (root.clone(), p.clone());
        let waiter =
            std::thread::spawn(move || WorkspaceLock::acquire(&r, &q, Duration::from_secs(10)));
        // Let the waiter open the stamped file first, then release as the reference does.
        std::thread::sleep(Duration::from_millis(200));
        let fresh = root.join("fresh");
        std::fs::write(&fresh, "").unwrap();
        std::fs::rename(&fresh, &p).unwrap();
        let held = waiter.join().unwrap().unwrap();
        let err = WorkspaceLock::acquire(&root, &p, Duration::ZERO).unwrap_err();
        assert_eq!(err.code(), "LOCK_BUSY", "two holders at once");
        drop(held);
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_in_place_of_the_lock_is_refused_without_waiting() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join(".lock");
        let made = std::process::Command::new("mkfifo")
            .arg(&p)
            .status()
            .unwrap();
        assert!(made.success());
        for read_only in [false, true] {
            let err = if read_only {
                WorkspaceLock::read_only(dir.path(), &p, Duration::ZERO).unwrap_err()
            } else {
                WorkspaceLock::acquire(dir.path(), &p, Duration::ZERO).unwrap_err()
            };
            assert_eq!(err.code(), "PATH_OUTSIDE_WORKSPACE", "{err}");
        }
    }

    #[test]
    fn only_a_folder_that_refuses_new_files_makes_a_workspace_read_only() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join(".lock");
        let denied = std::io::Error::from(ErrorKind::PermissionDenied);
        // The folder takes new files: a denied lock file is someone else's, not a read-only
        // checkout, and must not let a writer in under a shared lock.
        assert!(!cannot_write(&denied, &p));
        let rofs = std::io::Error::from(ErrorKind::ReadOnlyFilesystem);
        assert!(cannot_write(&rofs, &p));
        assert!(!cannot_write(
            &std::io::Error::from(ErrorKind::NotFound),
            &p
        ));
    }

    #[cfg(unix)]
    #[test]
    fn a_lock_that_is_a_link_is_refused_and_its_target_untouched() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("precious.txt");
        std::fs::write(&victim, "keep me").unwrap();
        let ns = dir.path().join(".workflow");
        std::fs::create_dir(&ns).unwrap();
        symlink(&victim, ns.join(".lock")).unwrap();
        let e = WorkspaceLock::acquire(dir.path(), &ns.join(".lock"), Duration::ZERO).unwrap_err();
        assert_eq!(e.code(), ErrorCode::PathOutsideWorkspace);
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
        // A dangling link does not make aw create its target either.
        std::fs::remove_file(ns.join(".lock")).unwrap();
        symlink(dir.path().join("created-by-aw"), ns.join(".lock")).unwrap();
        let e = WorkspaceLock::acquire(dir.path(), &ns.join(".lock"), Duration::ZERO).unwrap_err();
        assert_eq!(e.code(), ErrorCode::PathOutsideWorkspace);
        assert!(!dir.path().join("created-by-aw").exists());
        // Neither is a folder taken for the lock.
        std::fs::remove_file(ns.join(".lock")).unwrap();
        std::fs::create_dir(ns.join(".lock")).unwrap();
        let e = WorkspaceLock::acquire(dir.path(), &ns.join(".lock"), Duration::ZERO).unwrap_err();
        assert_eq!(e.code(), ErrorCode::PathOutsideWorkspace, "{e}");
    }

    #[test]
    fn a_read_only_lock_is_shared_and_never_stamped() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join(".lock");
        // No lock file on a read-only workspace: reads go on without one.
        let none = WorkspaceLock::read_only(dir.path(), &p, Duration::ZERO).unwrap();
        assert!(none.file.is_none() && !p.exists());
        drop(none);
        std::fs::write(&p, "").unwrap();
        let a = WorkspaceLock::read_only(dir.path(), &p, Duration::ZERO).unwrap();
        let b = WorkspaceLock::read_only(dir.path(), &p, Duration::ZERO).unwrap();
        // Readers share it; a writer waits for them.
        let e = WorkspaceLock::acquire(dir.path(), &p, Duration::from_millis(20)).unwrap_err();
        assert_eq!(e.code(), ErrorCode::LockBusy);
        drop((a, b));
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "");
        assert!(read_only_error(&std::io::Error::from(
            ErrorKind::ReadOnlyFilesystem
        )));
        assert!(!read_only_error(&std::io::Error::from(ErrorKind::NotFound)));
    }
}
