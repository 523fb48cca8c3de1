//! Atomic file writes: a reader (or a crash) sees the old bytes or the new bytes, never a mix.

use crate::error::{Result, WorkspaceError};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;

/// Flushes a folder's entry table, so a create or rename inside it survives a power loss.
pub fn sync_dir(dir: &Path) -> Result<()> {
    // Opening a folder read-only and fsyncing it is how POSIX persists its entries.
    File::open(dir)
        .and_then(|f| f.sync_all())
        .map_err(|e| WorkspaceError::io("could not sync the folder", dir, e))
}

/// `bytes` in a synced temporary file beside `path`, ready to be moved into place. It is created
/// with the permissions a plain create would give (0666 less the umask), not the temporary
/// file's private 0600.
fn staged<'p>(path: &'p Path, bytes: &[u8]) -> Result<(tempfile::NamedTempFile, &'p Path)> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut builder = tempfile::Builder::new();
    builder.prefix(".aw-tmp-");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder
        .tempfile_in(dir)
        .map_err(|e| WorkspaceError::io("could not create a temporary file in", dir, e))?;
    tmp.write_all(bytes)
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(|e| WorkspaceError::io("could not write", path, e))?;
    Ok((tmp, dir))
}

/// Replaces `path` with `bytes`: a temporary file in the same folder, fsync, rename, fsync of
/// the folder. The parent folder must exist. A file that already exists keeps its permissions
/// (a user's `chmod 600 CLAUDE.md` survives); a new one gets the umask's.
pub fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    let (tmp, dir) = staged(path, bytes)?;
    if let Ok(meta) = std::fs::symlink_metadata(path)
        && meta.is_file()
    {
        tmp.as_file()
            .set_permissions(meta.permissions())
            .map_err(|e| WorkspaceError::io("could not set the permissions of", path, e))?;
    }
    tmp.persist(path)
        .map_err(|e| WorkspaceError::io("could not replace", path, e.error))?;
    sync_dir(dir)
}

/// Creates `path` with `bytes` only if nothing exists there (O_EXCL). Returns `false` when it
/// already existed. The content is written before the name becomes visible, through a
/// temporary file linked into place, so no reader sees an empty claim.
pub fn create_new(path: &Path, bytes: &[u8]) -> Result<bool> {
    let (tmp, dir) = staged(path, bytes)?;
    match tmp.persist_noclobber(path) {
        Ok(_) => {}
        Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => return Ok(false),
        Err(e) => return Err(WorkspaceError::io("could not create", path, e.error)),
    }
    sync_dir(dir)?;
    Ok(true)
}

/// Creates a folder (and its missing parents), syncing the parent of each folder created.
pub fn create_dir_all(path: &Path) -> Result<()> {
    if path.is_dir() {
        return Ok(());
    }
    if let Some(parent) = path.parent() {
        create_dir_all(parent)?;
    }
    match std::fs::create_dir(path) {
        Ok(()) => sync_dir(path.parent().unwrap_or(Path::new("."))),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && path.is_dir() => Ok(()),
        Err(e) => Err(WorkspaceError::io("could not create the folder", path, e)),
    }
}

/// Opens a file for reading, appending nothing: a helper so callers never open for write by
/// accident.
pub fn open_read(path: &Path) -> Result<File> {
    OpenOptions::new()
        .read(true)
        .open(path)
        .map_err(|e| WorkspaceError::io("could not open", path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_replaces_and_leaves_no_temp() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.md");
        write(&p, b"one").unwrap();
        write(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn create_new_refuses_existing() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("001-x.md");
        assert!(create_new(&p, b"mine").unwrap());
        assert!(!create_new(&p, b"theirs").unwrap());
        assert_eq!(std::fs::read(&p).unwrap(), b"mine");
    }

    #[test]
    fn create_dir_all_is_idempotent() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a/b/c");
        create_dir_all(&p).unwrap();
        create_dir_all(&p).unwrap();
        assert!(p.is_dir());
    }

    #[cfg(unix)]
    #[test]
    fn written_files_follow_the_umask_like_a_plain_create() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain");
        std::fs::write(&plain, b"x").unwrap();
        let want = std::fs::metadata(&plain).unwrap().permissions().mode() & 0o777;
        let replaced = dir.path().join("replaced");
        write(&replaced, b"x").unwrap();
        let created = dir.path().join("created");
        assert!(create_new(&created, b"x").unwrap());
        for p in [&replaced, &created] {
            let mode = std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, want, "{}", p.display());
        }
        // A file the user made private stays private when it is replaced.
        std::fs::set_permissions(&replaced, std::fs::Permissions::from_mode(0o600)).unwrap();
        write(&replaced, b"y").unwrap();
        let mode = std::fs::metadata(&replaced).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert_eq!(std::fs::read(&replaced).unwrap(), b"y");
    }
}
