//! The demo's example on disk: a temporary folder, and files written into it.

use crate::error::{Result, WorkspaceError};
use std::path::{Path, PathBuf};

/// A temporary folder, removed when dropped unless kept.
#[derive(Debug)]
pub struct ExampleDir(tempfile::TempDir);

impl ExampleDir {
    /// Creates `aw-demo-*` in the system's temporary folder (`TMPDIR`).
    pub fn create() -> Result<Self> {
        tempfile::Builder::new()
            .prefix("aw-demo-")
            .tempdir()
            .map(ExampleDir)
            .map_err(|e| WorkspaceError::io("could not create", std::env::temp_dir(), e))
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        self.0.path()
    }

    /// The sub-folder `name` of the example, created when missing (the demo's home folder).
    pub fn subfolder(&self, name: &str) -> Result<PathBuf> {
        let path = self.0.path().join(name);
        std::fs::create_dir_all(&path)
            .map_err(|e| WorkspaceError::io("could not create", &path, e))?;
        Ok(path)
    }

    /// Keeps the folder on disk and returns its path.
    pub fn keep(self) -> PathBuf {
        self.0.keep()
    }
}

/// Writes `files` (`(path relative to root, contents)`) under `root`, creating folders as
/// needed. Existing files are replaced.
pub fn write_files(root: &Path, files: &[(&str, &str)]) -> Result<()> {
    for (rel, contents) in files {
        let path = root.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| WorkspaceError::io("could not create", parent, e))?;
        }
        std::fs::write(&path, contents)
            .map_err(|e| WorkspaceError::io("could not write", &path, e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_land_under_the_root_and_the_folder_goes_away() {
        let dir = ExampleDir::create().unwrap();
        write_files(dir.path(), &[("a/b/c.md", "x"), ("top.md", "y")]).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a/b/c.md")).unwrap(),
            "x"
        );
        let path = dir.path().to_path_buf();
        drop(dir);
        assert!(!path.exists());
    }
}
