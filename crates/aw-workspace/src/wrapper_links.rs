//! Wrapper links on disk: what is at `<bin>/<cmd>`, creating aw's link and removing it.
//!
//! A link is created with one `symlink` call, which either makes the link or fails because
//! something is already there, so a file that appears meanwhile is never replaced. Nothing is
//! written anywhere but directly in the bin folder (which may itself be a link the user made,
//! to a dotfiles checkout say, as the family's installer allows) and the execute bits of a
//! wrapper source whose real place is inside its skill folder.

use crate::skill::resolve_path;
use aw_core::family::links::Found;
use std::io::{Error, ErrorKind};
use std::path::Path;

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

/// Checks that a wrapper source can be linked: a regular file, not a symbolic link, whose real
/// place (every folder on its way resolved) is inside the skill folder's real place. A folder
/// link on the way could otherwise lead the link, and the execute bits aw adds, anywhere.
pub fn source_ready(skill: &Path, source: &Path) -> Result<(), String> {
    match std::fs::symlink_metadata(source) {
        Err(e) if e.kind() == ErrorKind::NotFound => return Err("it does not exist".to_owned()),
        Err(e) => return Err(e.to_string()),
        Ok(m) if m.file_type().is_symlink() => return Err("it is a symbolic link".to_owned()),
        Ok(m) if !m.is_file() => return Err("it is not a regular file".to_owned()),
        Ok(_) => {}
    }
    let real_skill = std::fs::canonicalize(skill).map_err(|e| e.to_string())?;
    let real_source = std::fs::canonicalize(source).map_err(|e| e.to_string())?;
    if !real_source.starts_with(&real_skill) {
        return Err(format!(
            "a linked folder on its way leads outside the skill folder, to {}",
            real_source.display()
        ));
    }
    Ok(())
}

/// Gives a wrapper source the execute bits its read bits allow (`644` becomes `755`, `600`
/// becomes `700`), so the link runs. Returns the mode it had when it was changed, so a failed run
/// can put it back; `None` when it already had them.
pub fn make_executable(source: &Path) -> std::io::Result<Option<u32>> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(source)?.permissions().mode();
    let wanted = mode | ((mode & 0o444) >> 2);
    if wanted == mode {
        return Ok(None);
    }
    std::fs::set_permissions(source, std::fs::Permissions::from_mode(wanted))?;
    Ok(Some(mode))
}

/// Puts back a mode [`make_executable`] changed (best effort: a failed run is being undone).
pub fn restore_mode(source: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    let _ = std::fs::set_permissions(source, std::fs::Permissions::from_mode(mode));
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
