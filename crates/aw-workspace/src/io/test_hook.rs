//! A testing aid, documented in docs/PROTOCOL.md: `AW_TEST_STALL_MS=<n>` makes a mutating
//! command sleep `n` ms while it holds the workspace lock, between two of its writes, so a crash
//! test can kill it exactly there. Without `AW_TEST_STALL_AT` it sleeps at each command's one
//! default point ([`stall`]); with `AW_TEST_STALL_AT=<point>[,<point>…]` only at the named points
//! ([`stall_at`]), so a test can park a publish half-way through its files, or half-way through
//! undoing them. `AW_TEST_STALL_RELEASE=<path>` ends a stall early once that file exists, and
//! removes it (each release lets one stall go), so a test can act while the command waits and
//! then let it go on without guessing how long to wait. The release file must be named
//! `aw-stall-release…` and be an empty regular file (not a link): a test aid set in the
//! environment must not be able to delete anyone's file. Unset (always, outside tests), it
//! does nothing.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How often a stall looks for its release file.
const POLL: Duration = Duration::from_millis(5);

/// The stall's length, when `AW_TEST_STALL_MS` is set to a number of milliseconds.
fn stall_ms() -> Option<u64> {
    std::env::var("AW_TEST_STALL_MS")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
}

/// Sleeps `ms`, or until the release file appears (then removes it).
fn sleep(ms: u64) {
    let Some(release) = std::env::var_os("AW_TEST_STALL_RELEASE").map(PathBuf::from) else {
        std::thread::sleep(Duration::from_millis(ms));
        return;
    };
    let end = Instant::now() + Duration::from_millis(ms);
    while Instant::now() < end {
        if is_release_file(&release) && std::fs::remove_file(&release).is_ok() {
            return;
        }
        std::thread::sleep(POLL);
    }
}

/// The prefix a release file's name must have.
const RELEASE_PREFIX: &str = "aw-stall-release";

/// Whether `path` is a file a stall may remove: named [`RELEASE_PREFIX`]…, an empty regular
/// file, not a link. Anything else is never touched, and the stall runs its length.
fn is_release_file(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with(RELEASE_PREFIX))
        && std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_file() && m.len() == 0)
}

/// Sleeps at a command's default point: when `AW_TEST_STALL_MS` is set and no
/// `AW_TEST_STALL_AT` names other points.
pub fn stall() {
    if std::env::var_os("AW_TEST_STALL_AT").is_none()
        && let Some(ms) = stall_ms()
    {
        sleep(ms);
    }
}

/// Sleeps at the named point `point` when `AW_TEST_STALL_AT` lists it (comma-separated) and
/// `AW_TEST_STALL_MS` is set. The points: `publish-unit` (a publish of several parts, after its
/// journal is written, before each part after the first) and `publish-undo` (undoing one, after
/// each file put back).
pub fn stall_at(point: &str) {
    let named = std::env::var("AW_TEST_STALL_AT")
        .is_ok_and(|points| points.split(',').any(|p| p.trim() == point));
    if named && let Some(ms) = stall_ms() {
        sleep(ms);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_empty_release_file_so_named_may_be_removed() {
        let dir = tempfile::tempdir().unwrap();
        let named = dir.path().join("aw-stall-release");
        std::fs::write(&named, "").unwrap();
        assert!(is_release_file(&named));
        let full = dir.path().join("aw-stall-release-full");
        std::fs::write(&full, "a person's text").unwrap();
        assert!(!is_release_file(&full));
        let other = dir.path().join("README.md");
        std::fs::write(&other, "").unwrap();
        assert!(!is_release_file(&other));
        #[cfg(unix)]
        {
            let link = dir.path().join("aw-stall-release-link");
            std::os::unix::fs::symlink(&other, &link).unwrap();
            assert!(!is_release_file(&link));
        }
        assert!(!is_release_file(dir.path()));
    }
}
