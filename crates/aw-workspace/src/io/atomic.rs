//! Writes inside the workspace: atomic (a reader, or a crash, sees the old bytes or the new
//! bytes, never a mix), never through a symbolic link that leads out of the workspace (every
//! function takes the workspace root and checks the path with
//! [`crate::io::containment::write_target`]), and without leaving temporary files behind.

use crate::error::{Result, WorkspaceError};
use crate::io::containment::{entry_target, write_target};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The prefix of every temporary file or folder aw creates (the workspace `.gitignore` section
/// aw maintains ignores it).
pub const TEMP_PREFIX: &str = ".aw-tmp-";

/// A temporary file of ours this old belongs to no live write (a write takes milliseconds): it
/// was left by a killed process, and the next write into its folder removes it.
const STALE_TEMP_AGE: Duration = Duration::from_secs(10);

/// Flushes a folder's entry table, so a create or rename inside it survives a power loss.
pub fn sync_dir(dir: &Path) -> Result<()> {
    // Opening a folder read-only and fsyncing it is how POSIX persists its entries.
    File::open(dir)
        .and_then(|f| f.sync_all())
        .map_err(|e| WorkspaceError::io("could not sync the folder", dir, e))
}

/// Removes the temporary files and folders of ours in `dir` that a killed write left behind.
/// Best effort: a folder that cannot be listed, or an entry that cannot be removed, is left.
pub fn remove_stale_temps(dir: &Path, now: SystemTime) {
    let Ok(list) = std::fs::read_dir(dir) else {
        return;
    };
    for e in list.filter_map(|e| e.ok()) {
        if !is_our_temp_name(&e.file_name().to_string_lossy()) {
            continue;
        }
        let Ok(meta) = e.path().symlink_metadata() else {
            continue;
        };
        let age = meta
            .modified()
            .ok()
            .and_then(|t| now.duration_since(t).ok());
        if age.is_none_or(|a| a < STALE_TEMP_AGE) {
            continue;
        }
        let _ = if meta.is_dir() {
            std::fs::remove_dir_all(e.path())
        } else {
            std::fs::remove_file(e.path())
        };
    }
}

/// Whether `name` is one aw's temporary files and folders are given: the prefix, an optional
/// `session-` (a session being assembled), then the six random letters and digits `tempfile`
/// adds. A user's own `.aw-tmp-notes` is not ours to remove.
fn is_our_temp_name(name: &str) -> bool {
    let Some(rest) = name.strip_prefix(TEMP_PREFIX) else {
        return false;
    };
    let random = rest.strip_prefix("session-").unwrap_or(rest);
    random.len() == 6 && random.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// `bytes` in a synced temporary file beside `path`, ready to be moved into place. It is created
/// with the permissions a plain create would give (0666 less the umask), not the temporary
/// file's private 0600. Stale temporary files of ours in the folder are removed first.
fn staged(path: &Path, bytes: &[u8]) -> Result<(tempfile::NamedTempFile, PathBuf)> {
    #[cfg(unix)]
    let mode = {
        use std::os::unix::fs::PermissionsExt;
        Some(std::fs::Permissions::from_mode(0o666))
    };
    #[cfg(not(unix))]
    let mode = None;
    staged_as(path, bytes, mode)
}

/// [`staged`] with the file created under `mode` (less the umask) before any byte is written,
/// so a copy of a private file is never readable by others, not even for a moment.
fn staged_as(
    path: &Path,
    bytes: &[u8],
    mode: Option<std::fs::Permissions>,
) -> Result<(tempfile::NamedTempFile, PathBuf)> {
    let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    remove_stale_temps(&dir, SystemTime::now());
    let mut builder = tempfile::Builder::new();
    builder.prefix(TEMP_PREFIX);
    if let Some(mode) = mode {
        builder.permissions(mode);
    }
    let mut tmp = builder
        .tempfile_in(&dir)
        .map_err(|e| WorkspaceError::io("could not create a temporary file in", &dir, e))?;
    tmp.write_all(bytes)
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(|e| WorkspaceError::io("could not write", path, e))?;
    Ok((tmp, dir))
}

/// Replaces `path` (inside `root`) with `bytes`: a temporary file in the same folder, fsync,
/// rename, fsync of the folder. The parent folder must exist. A file that already exists keeps
/// its permissions (a user's `chmod 600 CLAUDE.md` survives); a new one gets the umask's. A
/// symbolic link that stays inside the workspace is written through (its target is replaced).
pub fn write(root: &Path, path: &Path, bytes: &[u8]) -> Result<()> {
    let path = write_target(root, path)?;
    let (tmp, dir) = staged(&path, bytes)?;
    if let Ok(meta) = std::fs::symlink_metadata(&path)
        && meta.is_file()
    {
        tmp.as_file()
            .set_permissions(meta.permissions())
            .map_err(|e| WorkspaceError::io("could not set the permissions of", &path, e))?;
    }
    tmp.persist(&path)
        .map_err(|e| WorkspaceError::io("could not replace", &path, e.error))?;
    sync_dir(&dir)
}

/// Replaces the entry `path` (inside `root`) with a regular file holding `bytes`, as [`write`]
/// does, except that a final symbolic link is replaced rather than written through. For the
/// files that are aw's own state (`.closed`, `.flow-run.json`, the bindings registry): a link in
/// their place, even one that stays inside, must not turn their writes onto another file.
pub fn write_entry(root: &Path, path: &Path, bytes: &[u8]) -> Result<()> {
    // A link out of the workspace (or to nothing) in its place is refused like any other write
    // through one; a link that stays inside is replaced, not followed.
    write_target(root, path)?;
    let path = entry_target(root, path)?;
    let (tmp, dir) = staged(&path, bytes)?;
    tmp.persist(&path)
        .map_err(|e| WorkspaceError::io("could not replace", &path, e.error))?;
    sync_dir(&dir)
}

/// Copies the file `from` to `to` (inside `root`) as [`write`] does, but with `from`'s
/// permissions, so a copied script stays executable.
pub fn copy_file(root: &Path, from: &Path, to: &Path) -> Result<()> {
    let bytes = std::fs::read(from).map_err(|e| WorkspaceError::io("could not read", from, e))?;
    let perms = std::fs::metadata(from)
        .map_err(|e| WorkspaceError::io("could not read", from, e))?
        .permissions();
    let path = write_target(root, to)?;
    let (tmp, dir) = staged(&path, &bytes)?;
    tmp.as_file()
        .set_permissions(perms)
        .map_err(|e| WorkspaceError::io("could not set the permissions of", &path, e))?;
    tmp.persist(&path)
        .map_err(|e| WorkspaceError::io("could not replace", &path, e.error))?;
    sync_dir(&dir)
}

/// [`create_new`] for a copy of a file: created with `mode` (the source's permission bits, less
/// the umask) before its bytes are written, so a backup is never more open than its source.
pub fn create_new_as(
    root: &Path,
    path: &Path,
    bytes: &[u8],
    mode: std::fs::Permissions,
) -> Result<bool> {
    let path = write_target(root, path)?;
    let (tmp, dir) = staged_as(&path, bytes, Some(mode))?;
    match tmp.persist_noclobber(&path) {
        Ok(_) => {
            sync_dir(&dir)?;
            Ok(true)
        }
        Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(WorkspaceError::io("could not create", &path, e.error)),
    }
}

/// Creates `path` (inside `root`) with `bytes` only if nothing exists there (O_EXCL). Returns
/// `false` when it already existed. The content is written before the name becomes visible,
/// through a temporary file linked into place, so no reader sees an empty claim.
pub fn create_new(root: &Path, path: &Path, bytes: &[u8]) -> Result<bool> {
    let Some(dir) = link_new(root, path, bytes)? else {
        return Ok(false);
    };
    sync_dir(&dir)?;
    Ok(true)
}

/// [`create_new`] without the final sync of the folder: `Some(folder)` once the file is in
/// place, `None` when something already existed there. For a transaction that must know exactly
/// which files it created, to undo them and never another's: once this answers `Some`, the file
/// is the caller's, even if the sync that follows fails.
pub fn link_new(root: &Path, path: &Path, bytes: &[u8]) -> Result<Option<PathBuf>> {
    let path = write_target(root, path)?;
    let (tmp, dir) = staged(&path, bytes)?;
    match tmp.persist_noclobber(&path) {
        Ok(_) => Ok(Some(dir)),
        Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => Ok(None),
        Err(e) => Err(WorkspaceError::io("could not create", &path, e.error)),
    }
}

/// A folder being assembled whole under a temporary name beside its destination, then made to
/// appear with one rename ([`StagedDir::persist_noclobber`]): a reader, or a kill at any instant,
/// sees no folder or the whole folder, never some of its files. Dropped without being persisted,
/// it is removed; a kill leaves it under [`TEMP_PREFIX`], where the next write into its parent
/// folder removes it once stale, and where every reader of aw already looks past it.
#[derive(Debug)]
pub struct StagedDir {
    /// The temporary folder (removed on drop until persisted).
    tmp: Option<tempfile::TempDir>,
    /// Where it is to appear (links inside the root already resolved).
    dest: PathBuf,
    /// The folders made inside it, parents first (each is synced before the rename).
    made: Vec<PathBuf>,
}

/// Starts assembling the folder `dest` (inside `root`; its parent must exist) in a temporary
/// folder beside it, made with the permissions a plain `mkdir` gives (the umask's). Stale
/// temporary files of ours in the parent are removed first.
pub fn stage_dir(root: &Path, dest: &Path) -> Result<StagedDir> {
    let dest = write_target(root, dest)?;
    let parent = dest.parent().unwrap_or(Path::new(".")).to_path_buf();
    remove_stale_temps(&parent, SystemTime::now());
    let mut builder = tempfile::Builder::new();
    builder.prefix(TEMP_PREFIX);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o777));
    }
    let tmp = builder
        .tempdir_in(&parent)
        .map_err(|e| WorkspaceError::io("could not create a temporary folder in", &parent, e))?;
    Ok(StagedDir {
        tmp: Some(tmp),
        dest,
        made: Vec::new(),
    })
}

impl StagedDir {
    fn tmp_path(&self) -> Result<&Path> {
        self.tmp
            .as_ref()
            .map(tempfile::TempDir::path)
            .ok_or_else(|| WorkspaceError::io("could not write", &self.dest, gone()))
    }

    /// Writes the new file `rel` (a safe relative path, `/`-separated) inside the staged folder,
    /// making its folders, and syncs it. A name already written is an error: the caller plans
    /// each file once.
    pub fn write_file(&mut self, rel: &str, bytes: &[u8]) -> Result<()> {
        let mut path = self.tmp_path()?.to_path_buf();
        let segments: Vec<&str> = rel.split('/').collect();
        for segment in &segments[..segments.len().saturating_sub(1)] {
            path.push(segment);
            match std::fs::create_dir(&path) {
                Ok(()) => self.made.push(path.clone()),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && path.is_dir() => {}
                Err(e) => return Err(WorkspaceError::io("could not create the folder", &path, e)),
            }
        }
        path.push(segments[segments.len() - 1]);
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| WorkspaceError::io("could not create", &path, e))?;
        file.write_all(bytes)
            .and_then(|()| file.sync_all())
            .map_err(|e| WorkspaceError::io("could not write", &path, e))
    }

    /// Makes the folder appear at its destination with one rename, only if nothing is there
    /// (`false`: something is, and the staged folder is removed), and syncs the parent.
    pub fn persist_noclobber(mut self) -> Result<bool> {
        for dir in self.made.iter().rev() {
            sync_dir(dir)?;
        }
        sync_dir(self.tmp_path()?)?;
        let Some(tmp) = self.tmp.take() else {
            return Err(WorkspaceError::io("could not write", &self.dest, gone()));
        };
        let from = tmp.keep();
        let parent = self.dest.parent().unwrap_or(Path::new("."));
        match rename_noreplace(&from, &self.dest) {
            Ok(true) => sync_dir(parent).map(|()| true),
            Ok(false) => {
                let _ = std::fs::remove_dir_all(&from);
                Ok(false)
            }
            Err(e) => {
                let _ = std::fs::remove_dir_all(&from);
                Err(WorkspaceError::io("could not create", &self.dest, e))
            }
        }
    }
}

fn gone() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::NotFound, "the staged folder is gone")
}

/// Renames `from` to `to` only if nothing is at `to`: `false` when something is. Where the
/// kernel can refuse atomically (renameat2's RENAME_NOREPLACE) it does; elsewhere the check
/// and the rename are two steps, which the workspace lock makes safe against every other aw
/// writer.
fn rename_noreplace(from: &Path, to: &Path) -> std::io::Result<bool> {
    #[cfg(any(target_os = "linux", target_os = "android", target_vendor = "apple"))]
    {
        use rustix::fs::{CWD, RenameFlags, renameat_with};
        use rustix::io::Errno;
        match renameat_with(CWD, from, CWD, to, RenameFlags::NOREPLACE) {
            Ok(()) => return Ok(true),
            Err(Errno::EXIST) => return Ok(false),
            // A file system without the flag: the two-step way below.
            Err(Errno::INVAL | Errno::NOSYS | Errno::NOTSUP) => {}
            Err(e) => return Err(e.into()),
        }
    }
    if std::fs::symlink_metadata(to).is_ok() {
        return Ok(false);
    }
    std::fs::rename(from, to).map(|()| true)
}

/// Moves the real folder `path` (inside `root`; not a link) aside, under a temporary name
/// beside it, in one rename: the name is then free, and a kill leaves the folder where every
/// reader of aw looks past it and the next write into its parent removes it once stale.
/// Returns where it went.
pub fn move_aside(root: &Path, path: &Path) -> Result<PathBuf> {
    let real = entry_target(root, path)?;
    let parent = real.parent().unwrap_or(Path::new(".")).to_path_buf();
    // An empty folder of our own under a fresh temporary name, which the rename replaces.
    let aside = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .tempdir_in(&parent)
        .map_err(|e| WorkspaceError::io("could not create a temporary folder in", &parent, e))?
        .keep();
    if let Err(e) = std::fs::rename(&real, &aside) {
        let _ = std::fs::remove_dir(&aside);
        return Err(WorkspaceError::io("could not move aside", &real, e));
    }
    sync_dir(&parent)?;
    Ok(aside)
}

/// Puts a folder [`move_aside`] moved back at `path`, only if the name is still free; best
/// effort (a folder left aside is removed later as a stale temporary one).
pub fn put_back(aside: &Path, path: &Path) -> bool {
    let done = rename_noreplace(aside, path).unwrap_or(false);
    if done && let Some(parent) = path.parent() {
        let _ = sync_dir(parent);
    }
    done
}

/// Moves the file `from` (inside `root`) to the name `to` beside it only if nothing is there:
/// `false` when something is (nothing moved). A hard link to the new name, then the old name
/// removed, then the folder synced, so a copy kept aside never replaces an earlier one and a
/// kill leaves the file under one name or both, never under none. A final symbolic link at
/// `from` is moved itself, not followed; one that leads out of the workspace is refused.
pub fn move_noclobber(root: &Path, from: &Path, to: &Path) -> Result<bool> {
    write_target(root, from)?;
    match std::fs::hard_link(from, to) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return Ok(false),
        Err(e) => return Err(WorkspaceError::io("could not keep a copy of", from, e)),
    }
    std::fs::remove_file(from).map_err(|e| WorkspaceError::io("could not move aside", from, e))?;
    sync_dir(to.parent().unwrap_or(Path::new(".")))?;
    Ok(true)
}

/// Creates a folder (inside `root`) and its missing parents, syncing the parent of each folder
/// created.
pub fn create_dir_all(root: &Path, path: &Path) -> Result<()> {
    create_real_dir_all(&write_target(root, path)?)
}

fn create_real_dir_all(path: &Path) -> Result<()> {
    if path.is_dir() {
        return Ok(());
    }
    if let Some(parent) = path.parent() {
        create_real_dir_all(parent)?;
    }
    match std::fs::create_dir(path) {
        Ok(()) => sync_dir(path.parent().unwrap_or(Path::new("."))),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && path.is_dir() => Ok(()),
        Err(e) => Err(WorkspaceError::io("could not create the folder", path, e)),
    }
}

/// Removes the file `path` (inside `root`); `false` when there was none. A symbolic link is
/// removed itself, never its target. The folder is synced.
pub fn remove_file(root: &Path, path: &Path) -> Result<bool> {
    let path = entry_target(root, path)?;
    match std::fs::remove_file(&path) {
        Ok(()) => {
            sync_dir(path.parent().unwrap_or(Path::new(".")))?;
            Ok(true)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(WorkspaceError::io("could not remove", &path, e)),
    }
}

/// Removes the empty folder `path` (inside `root`): anything that appeared in it meanwhile keeps
/// it, and a symbolic link in its place is not a folder of ours to remove (it is left, and so is
/// its target). The parent is synced.
pub fn remove_empty_dir(root: &Path, path: &Path) -> Result<()> {
    let path = entry_target(root, path)?;
    if path
        .symlink_metadata()
        .is_ok_and(|m| m.file_type().is_symlink())
    {
        return Ok(());
    }
    std::fs::remove_dir(&path).map_err(|e| WorkspaceError::io("could not remove", &path, e))?;
    sync_dir(path.parent().unwrap_or(Path::new(".")))
}

/// Writes each `(name, bytes)` into the folder `dir` (created, with its parents, when missing),
/// each file replaced as [`write`] replaces it; returns the paths written, in order. For files a
/// person asked for by naming the folder (`aw schema --all <dir>`).
pub fn write_into(dir: &Path, files: &[(String, Vec<u8>)]) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).map_err(|e| WorkspaceError::io("could not create", dir, e))?;
    let root = dir
        .canonicalize()
        .map_err(|e| WorkspaceError::io("could not resolve", dir, e))?;
    let mut written = Vec::with_capacity(files.len());
    for (name, bytes) in files {
        let path = root.join(name);
        write(&root, &path, bytes)?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_replaces_and_leaves_no_temp() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.md");
        write(dir.path(), &p, b"one").unwrap();
        write(dir.path(), &p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn create_new_refuses_existing() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("001-x.md");
        assert!(create_new(dir.path(), &p, b"mine").unwrap());
        assert!(!create_new(dir.path(), &p, b"theirs").unwrap());
        assert_eq!(std::fs::read(&p).unwrap(), b"mine");
    }

    #[test]
    fn move_noclobber_moves_and_never_replaces() {
        let dir = tempfile::tempdir().unwrap();
        let (from, to) = (
            dir.path().join("state.json"),
            dir.path().join("state.v1.json"),
        );
        std::fs::write(&from, "old").unwrap();
        std::fs::write(&to, "kept earlier").unwrap();
        assert!(!move_noclobber(dir.path(), &from, &to).unwrap());
        assert_eq!(std::fs::read(&from).unwrap(), b"old");
        assert_eq!(std::fs::read(&to).unwrap(), b"kept earlier");
        let free = dir.path().join("state.v2.json");
        assert!(move_noclobber(dir.path(), &from, &free).unwrap());
        assert!(std::fs::symlink_metadata(&from).is_err());
        assert_eq!(std::fs::read(&free).unwrap(), b"old");
    }

    #[cfg(unix)]
    #[test]
    fn move_noclobber_refuses_a_link_out_of_the_root() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("theirs"), "theirs").unwrap();
        let from = dir.path().join("state.json");
        std::os::unix::fs::symlink(outside.path().join("theirs"), &from).unwrap();
        let err = move_noclobber(dir.path(), &from, &dir.path().join("aside")).unwrap_err();
        assert_eq!(
            err.code(),
            aw_core::error_code::ErrorCode::PathOutsideWorkspace
        );
        assert!(std::fs::symlink_metadata(dir.path().join("aside")).is_err());
        assert_eq!(
            std::fs::read(outside.path().join("theirs")).unwrap(),
            b"theirs"
        );
    }

    #[test]
    fn create_dir_all_is_idempotent() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a/b/c");
        create_dir_all(dir.path(), &p).unwrap();
        create_dir_all(dir.path(), &p).unwrap();
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
        write(dir.path(), &replaced, b"x").unwrap();
        let created = dir.path().join("created");
        assert!(create_new(dir.path(), &created, b"x").unwrap());
        for p in [&replaced, &created] {
            let mode = std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, want, "{}", p.display());
        }
        // A file the user made private stays private when it is replaced.
        std::fs::set_permissions(&replaced, std::fs::Permissions::from_mode(0o600)).unwrap();
        write(dir.path(), &replaced, b"y").unwrap();
        let mode = std::fs::metadata(&replaced).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert_eq!(std::fs::read(&replaced).unwrap(), b"y");
    }

    #[cfg(unix)]
    #[test]
    fn a_copy_created_as_a_private_file_is_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("secret.bak");
        let mode = std::fs::Permissions::from_mode(0o600);
        assert!(create_new_as(dir.path(), &p, b"token", mode.clone()).unwrap());
        assert!(!create_new_as(dir.path(), &p, b"other", mode).unwrap());
        let got = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
        assert_eq!(got, 0o600);
        assert_eq!(std::fs::read(&p).unwrap(), b"token");
    }

    #[test]
    fn stale_temporary_files_of_ours_are_removed_by_the_next_write() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join(".aw-tmp-killed"), "half").unwrap();
        std::fs::create_dir(d.join(".aw-tmp-session-killed")).unwrap();
        std::fs::write(d.join(".aw-tmp-live01"), "in progress").unwrap();
        std::fs::write(d.join(".aw-tmp-my-notes"), "a user's, by its name").unwrap();
        std::fs::write(d.join("keep.md"), "mine").unwrap();
        let old = SystemTime::now() - Duration::from_secs(60);
        for stale in [
            ".aw-tmp-killed",
            ".aw-tmp-session-killed",
            ".aw-tmp-my-notes",
        ] {
            std::fs::File::open(d.join(stale))
                .unwrap()
                .set_modified(old)
                .unwrap();
        }
        write(d, &d.join("a.md"), b"x").unwrap();
        let mut names: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(
            names,
            [".aw-tmp-live01", ".aw-tmp-my-notes", "a.md", "keep.md"]
        );
    }

    #[cfg(unix)]
    #[test]
    fn nothing_is_written_through_a_link_out_of_the_root() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::os::unix::fs::symlink(outside.path(), root.join("out")).unwrap();
        for r in [
            write(root, &root.join("out/a.md"), b"x").map(|_| ()),
            create_new(root, &root.join("out/b.md"), b"x").map(|_| ()),
            create_dir_all(root, &root.join("out/c")),
            remove_file(root, &root.join("out/d.md")).map(|_| ()),
        ] {
            assert_eq!(
                r.unwrap_err().code(),
                aw_core::error_code::ErrorCode::PathOutsideWorkspace
            );
        }
        assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
    }
}
