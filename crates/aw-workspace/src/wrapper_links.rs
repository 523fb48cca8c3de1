//! Wrapper links on disk: what is at `<bin>/<cmd>`, creating aw's link and removing it.
//!
//! A link is created with one `symlink` call, which either makes the link or fails because
//! something is already there, so a file that appears meanwhile is never replaced. Nothing is
//! written anywhere but directly in the bin folder, and never when that folder is itself a
//! symbolic link (it could lead anywhere).

use aw_core::family::links::Found;
use std::io::{Error, ErrorKind};
use std::path::Path;

/// What is at `<bin>/<cmd>`: aw's link only when it is a symlink to exactly `target`.
pub fn found(bin: &Path, cmd: &str, target: &Path) -> Found {
    let place = bin.join(cmd);
    match std::fs::symlink_metadata(&place) {
        Err(e) if e.kind() == ErrorKind::NotFound => Found::Absent,
        Ok(m) if m.file_type().is_symlink() => match std::fs::read_link(&place) {
            Ok(t) if t == target => Found::Ours,
            _ => Found::Foreign,
        },
        _ => Found::Foreign,
    }
}

/// Makes sure `bin` is a real folder (creating it when missing); refuses a symlinked one.
pub fn prepare_bin(bin: &Path, create: bool) -> std::io::Result<()> {
    match std::fs::symlink_metadata(bin) {
        Ok(m) if m.file_type().is_symlink() => Err(Error::other(
            "the bin folder is a symbolic link; aw writes only into a real folder",
        )),
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(Error::other("the bin path is not a folder")),
        Err(e) if e.kind() == ErrorKind::NotFound && create => std::fs::create_dir_all(bin),
        Err(e) => Err(e),
    }
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
