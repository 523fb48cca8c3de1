//! The workspace lock: an OS advisory lock on `.<ns>/.lock`.
//!
//! The reference CLI locked by creating the file with O_EXCL and deleted "stale" locks by path,
//! which let two processes both believe they held the lock. Here the OS arbitrates (`flock`), so
//! a lock is released the moment its holder exits, however it exits, and nothing ever deletes
//! the file. While held, the file carries `{"pid":…,"ts":…}` as the reference's did, so a
//! reference CLI (or a person) can see who holds it; we also honour a fresh lock written that
//! way by a live reference process.

use crate::error::{Result, WorkspaceError};
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
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

/// A held workspace lock; released on drop.
#[derive(Debug)]
pub struct WorkspaceLock {
    file: File,
    path: PathBuf,
}

impl WorkspaceLock {
    /// Takes the lock at `path` (creating the file and its folder if needed), waiting up to
    /// `wait` for another holder to let go.
    pub fn acquire(path: &Path, wait: Duration) -> Result<Self> {
        if let Some(dir) = path.parent() {
            crate::atomic::create_dir_all(dir)?;
        }
        let start = Instant::now();
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| WorkspaceError::io("could not open the lock file", path, e))?;
        loop {
            match file.try_lock() {
                Ok(()) => match foreign_holder(&mut file) {
                    None => break,
                    Some(pid) => {
                        // A live reference CLI holds it by content; let go and wait our turn.
                        let _ = file.unlock();
                        if start.elapsed() >= wait {
                            return Err(busy(Some(pid), start));
                        }
                    }
                },
                Err(TryLockError::WouldBlock) => {
                    if start.elapsed() >= wait {
                        return Err(busy(holder_pid(path), start));
                    }
                }
                Err(TryLockError::Error(e)) => {
                    return Err(WorkspaceError::io("could not lock", path, e));
                }
            }
            std::thread::sleep(POLL);
        }
        let mut lock = WorkspaceLock {
            file,
            path: path.to_path_buf(),
        };
        lock.stamp()?;
        Ok(lock)
    }

    /// The lock file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes our pid and time into the (locked) file, in place: replacing the file would
    /// orphan the inode the OS lock is attached to.
    fn stamp(&mut self) -> Result<()> {
        let body = format!(
            "{{\"pid\":{},\"ts\":\"{}\"}}",
            std::process::id(),
            crate::clock::utc_iso_now()
        );
        self.file
            .set_len(0)
            .and_then(|()| self.file.seek(SeekFrom::Start(0)).map(|_| ()))
            .and_then(|()| self.file.write_all(body.as_bytes()))
            .map_err(|e| WorkspaceError::io("could not write the lock file", &self.path, e))
    }
}

impl Drop for WorkspaceLock {
    fn drop(&mut self) {
        // Leave the reference's "released" marker (an empty file); the OS lock goes with the fd.
        let _ = self.file.set_len(0);
        let _ = self.file.unlock();
    }
}

fn busy(pid: Option<String>, start: Instant) -> WorkspaceError {
    WorkspaceError::LockBusy {
        pid: pid.unwrap_or_else(|| "unknown".to_owned()),
        waited_ms: start.elapsed().as_millis() as u64,
    }
}

/// The pid recorded in a lock file, if any.
fn holder_pid(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    parse_stamp(&text).map(|(pid, _)| pid.to_string())
}

fn parse_stamp(text: &str) -> Option<(u64, String)> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    let pid = v.get("pid")?.as_u64()?;
    let ts = v.get("ts")?.as_str()?.to_owned();
    Some((pid, ts))
}

/// When we hold the OS lock but the file records a fresh stamp of another live process, that
/// process is a reference CLI holding the lock its own way.
fn foreign_holder(file: &mut File) -> Option<String> {
    let mut text = String::new();
    file.seek(SeekFrom::Start(0)).ok()?;
    file.read_to_string(&mut text).ok()?;
    let (pid, ts) = parse_stamp(&text)?;
    if pid == u64::from(std::process::id()) || !process_alive(pid) {
        return None;
    }
    let age = crate::clock::age_of_iso(&ts)?;
    (age < FOREIGN_TTL).then(|| pid.to_string())
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
        let held = WorkspaceLock::acquire(&p, Duration::from_millis(10)).unwrap();
        // A second open file description in the same process contends like another process.
        let err = WorkspaceLock::acquire(&p, Duration::from_millis(30)).unwrap_err();
        match err {
            WorkspaceError::LockBusy { pid, .. } => assert_eq!(pid, std::process::id().to_string()),
            other => panic!("unexpected {other:?}"),
        }
        drop(held);
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "");
        WorkspaceLock::acquire(&p, Duration::from_millis(10)).unwrap();
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
        WorkspaceLock::acquire(&p, Duration::from_millis(10)).unwrap();
        std::fs::write(&p, "garbage").unwrap();
        WorkspaceLock::acquire(&p, Duration::from_millis(10)).unwrap();
    }

    /// Liveness is read from `/proc`, so this runs where `/proc` is (Linux), and requires it.
    #[cfg(target_os = "linux")]
    #[test]
    fn fresh_reference_stamp_of_a_live_process_is_honoured() {
        assert!(Path::new("/proc/1").exists(), "this test needs /proc");
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join(".lock");
        // pid 1 is alive on any Linux system and is never us.
        let stamp = format!("{{\"pid\":1,\"ts\":\"{}\"}}", crate::clock::utc_iso_now());
        std::fs::write(&p, stamp).unwrap();
        let err = WorkspaceLock::acquire(&p, Duration::from_millis(30)).unwrap_err();
        assert_eq!(err.code(), "LOCK_BUSY");
    }
}
