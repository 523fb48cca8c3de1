//! A skill folder on disk, seen through the validator's [`SkillFiles`] view.

use aw_manifest::{FileRead, Report, SkillFiles};
use std::io::ErrorKind;
use std::path::{Component, Path, PathBuf};

/// A skill folder on disk.
#[derive(Debug, Clone)]
pub struct SkillDir {
    root: PathBuf,
}

impl SkillDir {
    /// A view of the folder at `root` (which need not exist).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        SkillDir { root: root.into() }
    }

    /// The folder's path.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Joins a manifest-relative path the way Node's `path.join` does: `.` and empty segments
    /// vanish and `..` pops a segment. Backslashes are ordinary characters on POSIX. A trailing
    /// `/` is kept, as Node keeps it, so the system applies POSIX semantics to it: `run.sh/`
    /// names a folder, and a file by that name is not one.
    fn join(&self, rel: &str) -> PathBuf {
        let mut out = self.root.clone();
        for seg in rel.split('/') {
            match seg {
                "" | "." => {}
                ".." => {
                    if !matches!(
                        out.components().next_back(),
                        Some(Component::RootDir) | None
                    ) {
                        out.pop();
                    }
                }
                s => out.push(s),
            }
        }
        if rel.ends_with('/') {
            // Pushing an empty component appends the separator and nothing else.
            out.push("");
        }
        out
    }

    /// The bytes of the folder's `capability.json` (a regular file; anything else is an error).
    pub fn manifest_bytes(&self) -> std::io::Result<Vec<u8>> {
        crate::io::folder::read_regular_path(&self.root.join("capability.json"))
    }

    /// Reads `capability.json` and validates the folder.
    pub fn validate(&self) -> Report {
        // Any read failure (missing, a folder, a FIFO, no permission) is the validator's "not
        // found".
        let manifest =
            crate::io::folder::read_regular_path(&self.root.join("capability.json")).ok();
        aw_manifest::validate(manifest.as_deref(), &self.root.to_string_lossy(), self)
    }
}

impl SkillFiles for SkillDir {
    fn exists(&self, rel: &str) -> bool {
        // `metadata` follows symlinks: a broken link is absent, a link out of the folder exists,
        // as in the reference.
        std::fs::metadata(self.join(rel)).is_ok()
    }

    fn read(&self, rel: &str) -> FileRead {
        let path = self.join(rel);
        // A FIFO, a device or a huge file in a skill folder (a cloned project's own skills
        // included) must not block or exhaust the read: only a regular file of a document's
        // size is read. A folder keeps the plain read's error, which the validator reports.
        let read = if std::fs::metadata(&path).is_ok_and(|m| m.is_dir()) {
            std::fs::read(&path)
        } else {
            crate::io::folder::read_regular_path(&path)
        };
        match read {
            Ok(bytes) => FileRead::Bytes(bytes),
            Err(e) if e.kind() == ErrorKind::NotFound => FileRead::Absent,
            Err(e) => FileRead::Unreadable(e.to_string()),
        }
    }
}

/// Resolves a directory argument against `cwd` without touching the disk, like Node's
/// `path.resolve`: `""` is `cwd` itself and a trailing `/` is dropped.
pub fn resolve_arg(cwd: &Path, arg: &str) -> PathBuf {
    resolve_path(cwd, Path::new(arg))
}

/// [`resolve_arg`] for a path: `p` read against `cwd` (unless absolute), its `.` and `..` parts
/// resolved lexically (a `..` at the root stays there).
pub fn resolve_path(cwd: &Path, p: &Path) -> PathBuf {
    let mut out = if p.is_absolute() {
        PathBuf::from("/")
    } else {
        cwd.to_path_buf()
    };
    for comp in p.components() {
        match comp {
            Component::RootDir | Component::Prefix(_) | Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(s) => out.push(s),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolve_matches_node() {
        let cwd = Path::new("/w/x");
        assert_eq!(resolve_arg(cwd, ""), PathBuf::from("/w/x"));
        assert_eq!(resolve_arg(cwd, "a/"), PathBuf::from("/w/x/a"));
        assert_eq!(resolve_arg(cwd, "../b/./c"), PathBuf::from("/w/b/c"));
        assert_eq!(resolve_arg(cwd, "/abs/../r"), PathBuf::from("/r"));
    }

    #[test]
    fn files_on_disk() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("bin")).unwrap();
        std::fs::write(dir.path().join("bin/run.sh"), "x").unwrap();
        let s = SkillDir::new(dir.path());
        assert!(s.exists("bin/run.sh"));
        assert!(s.exists("bin"));
        assert!(s.exists("./bin/../bin/run.sh"));
        assert!(!s.exists("bin\\run.sh"));
        // A trailing slash names a folder: a file by that name does not count (POSIX), a folder
        // does, and `..` after it still climbs out of it.
        assert!(!s.exists("bin/run.sh/"));
        assert!(!s.exists("bin/run.sh//"));
        assert!(matches!(
            s.read("bin/run.sh/"),
            FileRead::Unreadable(_) | FileRead::Absent
        ));
        assert!(s.exists("bin/"));
        assert!(s.exists("bin/run.sh/../"));
        assert!(matches!(s.read("bin"), FileRead::Unreadable(_)));
        assert_eq!(s.read("nope"), FileRead::Absent);
        assert_eq!(s.read("bin/run.sh"), FileRead::Bytes(b"x".to_vec()));
    }
}
