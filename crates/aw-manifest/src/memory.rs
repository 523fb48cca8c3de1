//! An in-memory skill folder, for tests, the demo and fuzzing.

use super::{FileRead, SkillFiles};
use std::collections::BTreeMap;

/// A skill folder held in memory: file paths (normalised, `/`-separated) to contents. A path
/// that is a proper prefix of a file's path is a folder.
#[derive(Debug, Clone, Default)]
pub struct MemoryFiles {
    files: BTreeMap<String, Vec<u8>>,
}

impl MemoryFiles {
    /// An empty folder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a file (builder style).
    pub fn with(mut self, path: &str, contents: impl Into<Vec<u8>>) -> Self {
        self.files.insert(normalise(path), contents.into());
        self
    }
}

/// Normalises like Node's `path.join(dir, p)` relative part: drops `.` and empty segments and
/// resolves `..` against earlier segments.
fn normalise(p: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                out.pop();
            }
            s => out.push(s),
        }
    }
    out.join("/")
}

impl MemoryFiles {
    /// Whether the normalised path `p` is a folder: a proper prefix of some file's path.
    fn is_folder(&self, p: &str) -> bool {
        p.is_empty()
            || self
                .files
                .range(format!("{p}/")..)
                .next()
                .is_some_and(|(k, _)| k.starts_with(&format!("{p}/")))
    }
}

impl SkillFiles for MemoryFiles {
    fn exists(&self, rel: &str) -> bool {
        let p = normalise(rel);
        // A trailing `/` names a folder (POSIX): a file by that name does not count.
        if rel.ends_with('/') {
            return self.is_folder(&p);
        }
        self.files.contains_key(&p) || self.is_folder(&p)
    }

    fn read(&self, rel: &str) -> FileRead {
        let p = normalise(rel);
        match self.files.get(&p) {
            Some(_) if rel.ends_with('/') => FileRead::Unreadable("not a folder".to_owned()),
            Some(bytes) => FileRead::Bytes(bytes.clone()),
            None if self.exists(rel) => FileRead::Unreadable("is a folder".to_owned()),
            None => FileRead::Absent,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_exist_and_are_unreadable() {
        let f = MemoryFiles::new().with("bin/run.sh", "x");
        assert!(f.exists("bin"));
        assert!(f.exists("./bin/../bin/run.sh"));
        assert!(!f.exists("bi"));
        assert!(!f.exists("bin/run.sh/"));
        assert!(f.exists("bin/"));
        assert!(matches!(f.read("bin/run.sh/"), FileRead::Unreadable(_)));
        assert_eq!(
            f.read("bin"),
            FileRead::Unreadable("is a folder".to_owned())
        );
        assert_eq!(f.read("nope"), FileRead::Absent);
    }
}

/// Shared fixtures for the validator's unit tests: one valid manifest and its skill folder.
#[cfg(test)]
pub(crate) mod testing {
    use super::MemoryFiles;
    use crate::{Finding, validate};
    use serde_json::{Value, json};

    /// A valid manifest with one `review` role whose source exists in [`folder`].
    pub fn base() -> Value {
        json!({
            "family": "agent-workflow", "schema": 1, "name": "t", "kind": "execution-backend",
            "version": "1.0.0", "provides": ["review"],
            "roles": {"review": {"cmd": "t-review", "source": "bin/run.sh"}}
        })
    }

    /// The skill folder that makes [`base`] valid.
    pub fn folder() -> MemoryFiles {
        MemoryFiles::new()
            .with("SKILL.md", "---\nmetadata:\n  version: '1.0.0'\n---\n")
            .with("bin/run.sh", "x")
    }

    /// [`base`] with `key` set to `value`, validated in [`folder`].
    pub fn findings_with(key: &str, value: Value) -> Vec<Finding> {
        let mut m = base();
        m[key] = value;
        findings(&m)
    }

    /// A manifest validated in [`folder`].
    pub fn findings(m: &Value) -> Vec<Finding> {
        let bytes = serde_json::to_vec(m).unwrap_or_default();
        validate(Some(&bytes), "/skill", &folder()).errors
    }
}
