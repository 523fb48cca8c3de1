//! Wrapper links on disk: what is at `<bin>/<cmd>`, creating aw's link and removing it.
//!
//! A link is created with one `symlink` call, which either makes the link or fails because
//! something is already there, so a file that appears meanwhile is never replaced. Nothing is
//! written anywhere but directly in the bin folder (which may itself be a link the user made,
//! to a dotfiles checkout say, as the family's installer allows) and the execute bits of a
//! wrapper source.

use aw_core::family::links::Found;
use std::io::{Error, ErrorKind};
use std::path::{Component, Path, PathBuf};

/// What is at `<bin>/<cmd>`: aw's link only when it is a symlink to exactly `target` (a relative
/// link read against the bin folder, both sides resolved lexically, as the family's installer
/// compares them).
pub fn found(bin: &Path, cmd: &str, target: &Path) -> Found {
    let place = bin.join(cmd);
    match std::fs::symlink_metadata(&place) {
        Err(e) if e.kind() == ErrorKind::NotFound => Found::Absent,
        Ok(m) if m.file_type().is_symlink() => match std::fs::read_link(&place) {
            Ok(t) if lexical(&bin.join(&t)) == lexical(target) => Found::Ours,
            _ => Found::Foreign,
        },
        _ => Found::Foreign,
    }
}

/// `p` with its `.` and `..` parts resolved without the disk (a `..` at the root stays there).
fn lexical(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
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

/// Checks that a wrapper source can be linked: a regular file, not a symbolic link (a link
/// could send the wrapper anywhere), as the family's installer requires.
pub fn source_ready(source: &Path) -> Result<(), String> {
    match std::fs::symlink_metadata(source) {
        Err(e) if e.kind() == ErrorKind::NotFound => Err("it does not exist".to_owned()),
        Err(e) => Err(e.to_string()),
        Ok(m) if m.file_type().is_symlink() => Err("it is a symbolic link".to_owned()),
        Ok(m) if !m.is_file() => Err("it is not a regular file".to_owned()),
        Ok(_) => Ok(()),
    }
}

/// Gives a wrapper source the execute bits its read bits allow (`644` becomes `755`, `600`
/// becomes `700`), so the link runs; a source that already has them is left as it is.
pub fn make_executable(source: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(source)?.permissions().mode();
    let wanted = mode | ((mode & 0o444) >> 2);
    if wanted != mode {
        std::fs::set_permissions(source, std::fs::Permissions::from_mode(wanted))?;
    }
    Ok(())
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
