//! The bridge settings file on disk and the manifests that declare its keys: where the file
//! lives, reading it, editing it under a lock with an atomic replace, the environment overrides,
//! and the family members found under the skill roots. The rules are
//! `aw_core::family::bridge_settings`'s; the typed `settings` block is `aw_manifest`'s.

use crate::error::WorkspaceError;
use crate::io::lock::{WorkspaceLock, default_wait};
use aw_core::error_code::ErrorCode;
use aw_core::family::bridge_settings::SettingsFile;
use aw_manifest::{Report, SettingEntry};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// The folder under the config home that holds the family's settings.
pub const CONFIG_DIR: &str = "agent-workflow";
/// The settings file's name.
pub const FILE_NAME: &str = "bridge-settings.conf";
/// The lock that serializes writers, beside the file.
const LOCK_NAME: &str = ".bridge-settings.lock";

/// The config home: `XDG_CONFIG_HOME` when it is set to an absolute path, else `<home>/.config`.
/// A relative or empty value is ignored, as the XDG base-directory spec asks.
pub fn config_home(home: Option<&Path>) -> Option<PathBuf> {
    std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| home.map(|h| h.join(".config")))
}

/// The settings file's path under a config home.
pub fn file_path(config_home: &Path) -> PathBuf {
    config_home.join(CONFIG_DIR).join(FILE_NAME)
}

/// What is at the settings file's place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileState {
    /// Nothing (a link to nothing included, as the wrappers' `-e` test sees it).
    Absent,
    /// A regular file (or a link to one) and its parsed text. Bytes that are not UTF-8 read as
    /// U+FFFD, so the lines around them still count; `utf8` says whether that happened.
    Present {
        /// The parsed file.
        file: SettingsFile,
        /// Whether the bytes were UTF-8 throughout.
        utf8: bool,
    },
    /// Something the wrappers cannot read (a folder, a FIFO, no permission): they ignore it and
    /// their built-in values apply.
    Unusable(String),
}

impl FileState {
    /// The parsed file, when there is one.
    pub fn file(&self) -> Option<&SettingsFile> {
        match self {
            FileState::Present { file, .. } => Some(file),
            _ => None,
        }
    }

    /// The wire name: `absent`, `present` or `unusable`.
    pub fn name(&self) -> &'static str {
        match self {
            FileState::Absent => "absent",
            FileState::Present { .. } => "present",
            FileState::Unusable(_) => "unusable",
        }
    }
}

/// Reads the settings file as the wrappers find it (following links).
pub fn read(path: &Path) -> FileState {
    match crate::io::folder::read_regular_path(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => FileState::Present {
                file: SettingsFile::parse(&text),
                utf8: true,
            },
            Err(e) => FileState::Present {
                file: SettingsFile::parse(&String::from_utf8_lossy(e.as_bytes())),
                utf8: false,
            },
        },
        Err(e) if e.kind() == ErrorKind::NotFound => FileState::Absent,
        Err(e) => FileState::Unusable(e.to_string()),
    }
}

fn unreadable(path: &Path, why: &str) -> WorkspaceError {
    WorkspaceError::Refused {
        code: ErrorCode::FamilySettingsFileUnreadable,
        message: format!("cannot edit the settings file {}: {why}", path.display()),
        action: "fix the file by hand or move it aside, then run the command again".to_owned(),
    }
}

/// Edits the settings file under `config_home`: takes the writers' lock, reads the file (absent
/// is empty), applies `edit`, and when the text changed replaces the file atomically (a new
/// file gets the umask's permissions, an existing one keeps its own). Returns `edit`'s answer.
///
/// The folder and the file are the user's own configuration, often linked from a dotfiles
/// checkout: a link the user made is followed, and the file is replaced where it really lives
/// (the link itself stays). A file without write permission is refused rather than replaced:
/// `chmod a-w` is how a user pins a configuration.
pub fn edit<R>(config_home: &Path, edit: impl FnOnce(&mut SettingsFile) -> R) -> crate::Result<R> {
    let root = config_home.join(CONFIG_DIR);
    std::fs::create_dir_all(&root)
        .map_err(|e| WorkspaceError::io("could not create the folder", &root, e))?;
    let root = std::fs::canonicalize(&root)
        .map_err(|e| WorkspaceError::io("could not resolve the folder", &root, e))?;
    let _lock = WorkspaceLock::acquire(&root, &root.join(LOCK_NAME), default_wait())?;
    let path = target(&root.join(FILE_NAME))?;
    let state = read(&path);
    apply(&root, &path, state, edit)
}

/// Edits the settings file only where there is something to remove: when the file is absent
/// nothing is made (no folder, lock or file) and the answer is `None`; otherwise, under the lock,
/// the file is read once, `holds` decides from it whether the edit applies (`None` when it does
/// not), and the edit goes on as [`edit`]'s.
pub fn edit_existing<R>(
    config_home: &Path,
    holds: impl FnOnce(&FileState) -> bool,
    edit: impl FnOnce(&mut SettingsFile) -> R,
) -> crate::Result<Option<R>> {
    let root = config_home.join(CONFIG_DIR);
    // Following links, as `read` does: a link to nothing is a file that is not there. A path
    // that cannot be looked at (a folder without search permission) is not "absent": the edit
    // goes on, and fails where the folder refuses it, as `edit` would.
    if let Ok(false) = root.join(FILE_NAME).try_exists() {
        return Ok(None);
    }
    let root = std::fs::canonicalize(&root)
        .map_err(|e| WorkspaceError::io("could not resolve the folder", &root, e))?;
    let _lock = WorkspaceLock::acquire(&root, &root.join(LOCK_NAME), default_wait())?;
    let path = target(&root.join(FILE_NAME))?;
    let state = read(&path);
    if !holds(&state) {
        return Ok(None);
    }
    apply(&root, &path, state, edit).map(Some)
}

/// Applies `edit` to the file as read under the lock and writes it back when its text changed.
fn apply<R>(
    root: &Path,
    path: &Path,
    state: FileState,
    edit: impl FnOnce(&mut SettingsFile) -> R,
) -> crate::Result<R> {
    let mut file = match state {
        FileState::Absent => SettingsFile::default(),
        FileState::Present { file, utf8: true } => file,
        FileState::Present { utf8: false, .. } => {
            return Err(unreadable(
                path,
                "it is not UTF-8 text, so a rewrite would alter it",
            ));
        }
        FileState::Unusable(why) => return Err(unreadable(path, &why)),
    };
    let before = file.render();
    let answer = edit(&mut file);
    let after = file.render();
    if after != before {
        if std::fs::metadata(path).is_ok_and(|m| m.permissions().readonly()) {
            return Err(WorkspaceError::Refused {
                code: ErrorCode::FamilySettingsReadOnly,
                message: format!(
                    "the settings file {} is read-only, so it was left as it is",
                    path.display()
                ),
                action: format!(
                    "make it writable (chmod u+w {}) and run the command again, or set the \
                     variable in the environment, which wins over the file",
                    path.display()
                ),
            });
        }
        let dir = path.parent().unwrap_or(root);
        crate::io::atomic::write(dir, path, after.as_bytes())?;
    }
    Ok(answer)
}

/// Where the settings file at `path` really lives: `path` itself unless it is a symbolic link,
/// else the link's resolved target. A link to nothing is refused, since replacing it would
/// lose the place the user meant.
fn target(path: &Path) -> crate::Result<PathBuf> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            std::fs::canonicalize(path).map_err(|e| WorkspaceError::Refused {
                code: ErrorCode::FamilySettingsFileUnreadable,
                message: format!(
                    "the settings file {} is a link that cannot be followed: {e}",
                    path.display()
                ),
                action: "point the link at an existing file, or remove it, then run the command \
                         again"
                    .to_owned(),
            })
        }
        _ => Ok(path.to_path_buf()),
    }
}

/// A member whose manifest was read.
#[derive(Debug, Clone)]
pub struct Member {
    /// Its folder.
    pub dir: PathBuf,
    /// The validator's report on it.
    pub report: Report,
    /// Its `settings` entries (empty unless the report is VALID).
    pub settings: Vec<SettingEntry>,
}

impl Member {
    /// The manifest's `name`, when it is a string.
    pub fn name(&self) -> Option<&str> {
        self.report.name.as_ref().and_then(|n| n.as_str())
    }
}

/// Reads and validates the member at `dir` (its manifest read once); its settings are kept only
/// when it is VALID.
pub fn member_at(dir: &Path) -> Member {
    Member::of(dir, &super::read_copy(dir))
}

impl Member {
    /// The member a copy already read makes, with no second read.
    pub fn of(dir: &Path, copy: &super::InstalledCopy) -> Member {
        Member {
            dir: dir.to_path_buf(),
            report: copy.report.clone(),
            settings: copy.settings(),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn unset(home: &Path, key: &str, holds_anything: bool) -> Option<usize> {
        edit_existing(
            home,
            |state| holds_anything || state.file().is_some_and(|f| f.value(key).is_some()),
            |f| f.unset(key),
        )
        .unwrap()
    }

    #[test]
    fn an_absent_file_makes_nothing() {
        let home = tempfile::tempdir().unwrap();
        assert_eq!(unset(home.path(), "A", true), None);
        assert!(!home.path().join(CONFIG_DIR).exists());
        // The folder alone is not the file: still nothing to remove, and no lock is made.
        std::fs::create_dir(home.path().join(CONFIG_DIR)).unwrap();
        assert_eq!(unset(home.path(), "A", true), None);
        assert!(!home.path().join(CONFIG_DIR).join(LOCK_NAME).exists());
    }

    #[test]
    fn a_path_that_cannot_be_looked_at_is_not_taken_for_an_absent_file() {
        // The config folder is a file: the settings path cannot even be looked up (ENOTDIR; a
        // folder without search permission answers alike for a user who is not root).
        let home = tempfile::tempdir().unwrap();
        std::fs::write(home.path().join(CONFIG_DIR), "not a folder").unwrap();
        let got = edit_existing(home.path(), |_| true, |f| f.unset("A"));
        assert!(got.is_err(), "{got:?}");
        assert_eq!(
            std::fs::read(home.path().join(CONFIG_DIR)).unwrap(),
            b"not a folder"
        );
    }

    #[test]
    fn the_file_read_under_the_lock_decides_and_is_edited() {
        let home = tempfile::tempdir().unwrap();
        let dir = home.path().join(CONFIG_DIR);
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join(FILE_NAME), "# mine\nA=1\nB=2\n").unwrap();
        assert_eq!(unset(home.path(), "C", false), None, "C is not in the file");
        assert_eq!(
            std::fs::read_to_string(dir.join(FILE_NAME)).unwrap(),
            "# mine\nA=1\nB=2\n"
        );
        assert_eq!(unset(home.path(), "A", false), Some(1));
        assert_eq!(
            std::fs::read_to_string(dir.join(FILE_NAME)).unwrap(),
            "# mine\nB=2\n"
        );
    }

    #[test]
    fn an_unreadable_file_is_refused_once_the_edit_applies() {
        let home = tempfile::tempdir().unwrap();
        let dir = home.path().join(CONFIG_DIR);
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join(FILE_NAME), b"A=\xff\n").unwrap();
        let refused = edit_existing(home.path(), |_| true, |f| f.unset("A"));
        assert!(matches!(
            refused,
            Err(WorkspaceError::Refused {
                code: ErrorCode::FamilySettingsFileUnreadable,
                ..
            })
        ));
        assert_eq!(std::fs::read(dir.join(FILE_NAME)).unwrap(), b"A=\xff\n");
    }
}
