//! Wrapper links on disk: what is at `<bin>/<cmd>`, creating aw's link and removing it.
//!
//! A link is created with one `symlink` call, which either makes the link or fails because
//! something is already there, so a file that appears meanwhile is never replaced. Nothing is
//! written anywhere but directly in the bin folder (which may itself be a link the user made,
//! to a dotfiles checkout say, as the family's installer allows) and the execute bits of a
//! wrapper source whose real place is inside its skill folder.

use crate::family::skill::resolve_path;
use aw_core::family::links::{Found, SourceProblem};
use std::io::{Error, ErrorKind};
use std::path::{Path, PathBuf};

/// What is at `<bin>/<cmd>`: aw's link only when it is a symlink to exactly `target`. A relative
/// link is read from the bin folder's real place (where the system resolves it, even when the bin
/// folder is itself a link); both sides are then resolved lexically.
pub fn found(bin: &Path, cmd: &str, target: &Path) -> Found {
    let place = bin.join(cmd);
    match std::fs::symlink_metadata(&place) {
        Err(e) if e.kind() == ErrorKind::NotFound => Found::Absent,
        Ok(m) if m.file_type().is_symlink() => match std::fs::read_link(&place) {
            Ok(t) => {
                let base = std::fs::canonicalize(bin).unwrap_or_else(|_| bin.to_path_buf());
                let root = Path::new("/");
                if resolve_path(root, &base.join(&t)) == resolve_path(root, target) {
                    Found::Ours
                } else {
                    Found::Foreign
                }
            }
            Err(_) => Found::Foreign,
        },
        _ => Found::Foreign,
    }
}

/// Makes sure `bin` is a folder, or a link to one (creating it when missing).
pub fn prepare_bin(bin: &Path, create: bool) -> std::io::Result<()> {
    match std::fs::metadata(bin) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(Error::other("the bin path is not a folder")),
        Err(e) if e.kind() == ErrorKind::NotFound && create => std::fs::create_dir_all(bin),
        Err(e) => Err(e),
    }
}

/// Checks that a wrapper source can be linked: a regular file, not a symbolic link, with no other
/// name (a hard link could be a file anywhere, made executable with it), whose real place (every
/// folder on its way resolved) is inside the skill folder's real place. A folder link on the way
/// could otherwise lead the link, and the execute bits aw adds, anywhere.
pub fn source_ready(skill: &Path, source: &Path) -> Result<(), SourceProblem> {
    let meta = match std::fs::symlink_metadata(source) {
        Err(e) if e.kind() == ErrorKind::NotFound => return Err(SourceProblem::Missing),
        Err(e) => return Err(SourceProblem::Unreadable(e.to_string())),
        Ok(m) => m,
    };
    lone_file(&meta)?;
    let unreadable = |e: Error| SourceProblem::Unreadable(e.to_string());
    let real_skill = std::fs::canonicalize(skill).map_err(unreadable)?;
    let real_source = std::fs::canonicalize(source).map_err(unreadable)?;
    if !real_source.starts_with(&real_skill) {
        return Err(SourceProblem::Outside {
            real: real_source.display().to_string(),
        });
    }
    Ok(())
}

/// A regular file with one name, as [`source_ready`] wants it.
fn lone_file(meta: &std::fs::Metadata) -> Result<(), SourceProblem> {
    use std::os::unix::fs::MetadataExt;
    if meta.file_type().is_symlink() {
        return Err(SourceProblem::Symlink);
    }
    if !meta.is_file() {
        return Err(SourceProblem::NotAFile);
    }
    if meta.nlink() > 1 {
        return Err(SourceProblem::HardLinked {
            links: meta.nlink(),
        });
    }
    Ok(())
}

/// Gives a wrapper source the execute bits its read bits allow (`644` becomes `755`, `600`
/// becomes `700`), so the link runs. Returns the mode it had when it was changed, so a failed run
/// can put it back; `None` when it already had them. The mode is changed through the file opened
/// without following a link and checked again (a regular file with one name), so what was
/// checked is what changes, even if the path was swapped meanwhile.
pub fn make_executable(source: &Path) -> std::io::Result<Option<u32>> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::symlink_metadata(source)?.permissions().mode();
    let wanted = mode | ((mode & 0o444) >> 2);
    if wanted == mode {
        return Ok(None);
    }
    set_mode(source, wanted)?;
    Ok(Some(mode))
}

/// Puts back a mode [`make_executable`] changed (best effort: a failed run is being undone).
pub fn restore_mode(source: &Path, mode: u32) {
    let _ = set_mode(source, mode);
}

/// Sets the mode of `source` through a handle opened without following a link, after checking
/// that handle is a regular file with one name.
fn set_mode(source: &Path, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(source)?;
    lone_file(&file.metadata()?).map_err(|p| Error::other(p.message()))?;
    file.set_permissions(std::fs::Permissions::from_mode(mode))
}

/// Creates the link `<bin>/<cmd>` → `target`; fails if anything is already there.
pub fn create(bin: &Path, cmd: &str, target: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(target, bin.join(cmd))
}

/// Removes `<bin>/<cmd>` when it is still aw's link to `target`; says whether it did.
pub fn remove(bin: &Path, cmd: &str, target: &Path) -> std::io::Result<bool> {
    if found(bin, cmd, target) != Found::Ours {
        return Ok(false);
    }
    std::fs::remove_file(bin.join(cmd))?;
    Ok(true)
}

/// Why [`apply`] stopped; everything it had changed was put back first.
#[derive(Debug)]
pub enum ApplyError {
    /// A source could not be given its execute bits.
    Chmod {
        /// The source.
        target: PathBuf,
        /// Why.
        error: Error,
    },
    /// A link could not be made.
    Link {
        /// The link's name in the bin folder.
        cmd: String,
        /// Why.
        error: Error,
    },
}

/// Makes the links `<bin>/<cmd>` → `target`, each target first given its execute bits; all or
/// nothing: on a failure the links made and the modes changed are put back before the error.
pub fn apply(bin: &Path, links: &[(&str, &Path)]) -> Result<(), ApplyError> {
    let mut changed: Vec<(&Path, u32)> = Vec::new();
    let mut created: Vec<(&str, &Path)> = Vec::new();
    let undo = |changed: &[(&Path, u32)], created: &[(&str, &Path)]| {
        for (cmd, target) in created {
            let _ = remove(bin, cmd, target);
        }
        for (path, mode) in changed {
            restore_mode(path, *mode);
        }
    };
    for &(cmd, target) in links {
        match make_executable(target) {
            Ok(Some(mode)) => changed.push((target, mode)),
            Ok(None) => {}
            Err(error) => {
                undo(&changed, &created);
                return Err(ApplyError::Chmod {
                    target: target.to_path_buf(),
                    error,
                });
            }
        }
        if let Err(error) = create(bin, cmd, target) {
            undo(&changed, &created);
            return Err(ApplyError::Link {
                cmd: cmd.to_owned(),
                error,
            });
        }
        created.push((cmd, target));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_failed_apply_puts_back_every_link_and_mode_it_changed() {
        let dir = tempfile::tempdir().unwrap();
        let (bin, skill) = (dir.path().join("bin"), dir.path().join("skill"));
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::create_dir_all(&skill).unwrap();
        let (a, b) = (skill.join("a.sh"), skill.join("b.sh"));
        for f in [&a, &b] {
            std::fs::write(f, "#!/bin/sh\n").unwrap();
            std::fs::set_permissions(f, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
        // Something that is not aw's is already where the second link goes.
        std::fs::write(bin.join("b"), "mine").unwrap();
        let err = apply(&bin, &[("a", &a), ("b", &b)]).unwrap_err();
        assert!(matches!(err, ApplyError::Link { ref cmd, .. } if cmd == "b"));
        assert!(
            std::fs::symlink_metadata(bin.join("a")).is_err(),
            "the first link is undone"
        );
        for f in [&a, &b] {
            let mode = std::fs::metadata(f).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o644, "{} keeps its mode", f.display());
        }
        assert_eq!(std::fs::read_to_string(bin.join("b")).unwrap(), "mine");
        apply(&bin, &[("a", &a)]).unwrap();
        assert_eq!(found(&bin, "a", &a), Found::Ours);
        assert_eq!(
            std::fs::metadata(&a).unwrap().permissions().mode() & 0o777,
            0o755
        );
    }
}
