//! A session folder's files on disk: listing them, finding an artifact by kind, reading text,
//! walking its SQL scripts, and reading the summary `session-artifacts` reports.
//!
//! Which names count (artifact kinds, SQL scripts, rollbacks) is decided in
//! `aw_core::artifacts`; this module only reads.

use crate::error::{Result, WorkspaceError};
use crate::locate::slashed;
use crate::sessions::{Descriptor, DescriptorKind};
use aw_core::artifacts::{
    ArtifactKind, SCRIPTS_DIR, TasksSummary, is_rollback, is_sql_script, parse_decisions,
    parse_tasks,
};
use aw_core::markdown::{self, aliases};
use aw_core::session::document::{self, Outline};
use std::path::{Path, PathBuf};

/// A session folder's file names, sorted (UTF-8 names only; the catalogue has no other kind).
/// A missing folder has none.
pub fn entries(dir: &Path) -> Result<Vec<String>> {
    let mut names: Vec<String> = listed(dir)?.into_iter().map(|(name, _)| name).collect();
    names.sort();
    Ok(names)
}

/// The folder's entries with UTF-8 names; a missing folder has none.
fn listed(dir: &Path) -> Result<Vec<(String, std::fs::DirEntry)>> {
    let list = match std::fs::read_dir(dir) {
        Ok(l) => l,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(WorkspaceError::io("could not list", dir, e)),
    };
    Ok(list
        .filter_map(|e| e.ok())
        .filter_map(|e| Some((e.file_name().into_string().ok()?, e)))
        .collect())
}

/// Reads the open `file`, whose `stat` just announced `size` bytes, into `buf` (replacing its
/// contents). A file that grew since is read as it was; one that shrank, whole. `std::fs::read`
/// asks the size again and reads once more to confirm the end; across hundreds of session files
/// and thousands of documents those calls cost more than the reading.
pub fn read_announced(file: std::fs::File, size: u64, buf: &mut Vec<u8>) -> std::io::Result<()> {
    use std::io::Read;
    buf.clear();
    buf.reserve(usize::try_from(size).unwrap_or(0));
    // `take` stops at `size` without the extra read that confirms the end of the file.
    file.take(size).read_to_end(buf).map(|_| ())
}

/// Where an artifact of `kind` lives in the folder, if it exists.
pub fn artifact(dir: &Path, entries: &[String], kind: ArtifactKind) -> Option<PathBuf> {
    kind.find(entries).map(|name| dir.join(name))
}

/// A text file, or `None` when it does not exist. Bytes that are not UTF-8 are replaced, which
/// also guarantees such a file never passes as our sealed checkpoint template. Something that is
/// not a regular file (a folder or a FIFO named like an artifact) reads as no file, as the board
/// reads it, and is never waited on.
pub fn read_text(path: &Path) -> Result<Option<String>> {
    match crate::io::folder::read_regular_path(path) {
        Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::InvalidInput
            ) =>
        {
            Ok(None)
        }
        Err(e) => Err(WorkspaceError::io("could not read", path, e)),
    }
}

/// The text of an artifact of `kind`, or `None` when the folder has none.
pub fn read_artifact(dir: &Path, entries: &[String], kind: ArtifactKind) -> Result<Option<String>> {
    match artifact(dir, entries, kind) {
        Some(p) => read_text(&p),
        None => Ok(None),
    }
}

/// One SQL script of a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Script {
    /// Its path under `scripts/`, with `/` separators.
    pub name: String,
    /// Its absolute path.
    pub path: PathBuf,
    /// Its size in bytes.
    pub size: u64,
    /// Whether it is a rollback.
    pub rollback: bool,
}

/// The SQL scripts under a session's `scripts/`, at any depth, sorted by name. Symbolic links
/// are not followed; unreadable folders are skipped. The walk keeps its own stack, so no folder
/// depth can exhaust the program's.
pub fn sql_scripts(session_dir: &Path) -> Vec<Script> {
    let root = session_dir.join(SCRIPTS_DIR);
    let mut files = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(d) = stack.pop() {
        let Ok(list) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in list.filter_map(|e| e.ok()) {
            let Ok(ft) = e.file_type() else { continue };
            let path = e.path();
            if ft.is_dir() {
                stack.push(path);
            } else if ft.is_file() && is_sql_script(&e.file_name().to_string_lossy()) {
                let name = slashed(path.strip_prefix(&root).unwrap_or(&path));
                let size = e.metadata().map(|m| m.len()).unwrap_or(0);
                files.push(Script {
                    rollback: is_rollback(&name),
                    name,
                    path,
                    size,
                });
            }
        }
    }
    files.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
    files
}

/// Which artifacts a session folder holds, beside its descriptor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Presence {
    /// CHECKPOINT.
    pub checkpoint: bool,
    /// CONCLUSIONS.
    pub conclusions: bool,
    /// ANALYSIS-FILE.
    pub analysis_file: bool,
    /// BACKLOG.
    pub backlog: bool,
    /// The `SCRIPTS.sql` bundle.
    pub scripts_sql: bool,
}

impl Presence {
    /// Reads presence from the folder's file names.
    pub fn of(entries: &[String]) -> Self {
        let has = |k: ArtifactKind| k.find(entries).is_some();
        Presence {
            checkpoint: has(ArtifactKind::Checkpoint),
            conclusions: has(ArtifactKind::Conclusions),
            analysis_file: has(ArtifactKind::AnalysisFile),
            backlog: has(ArtifactKind::Backlog),
            scripts_sql: has(ArtifactKind::ScriptsSql),
        }
    }
}

/// What `session-artifacts` reports of a session, read once.
#[derive(Debug, Clone)]
pub struct Summary {
    /// The session document's outline (not for a legacy REQUIREMENTS descriptor).
    pub outline: Option<Outline>,
    /// The TASKS counts, when the session has a TASKS file.
    pub tasks: Option<TasksSummary>,
    /// How many decisions the DECISIONS file records.
    pub decisions: usize,
    /// The other artifacts present.
    pub presence: Presence,
    /// The SQL scripts.
    pub scripts: Vec<Script>,
    /// The descriptor's `Branch:` line.
    pub branch: Option<String>,
}

/// Reads the summary of the session in `dir`.
pub fn summary(dir: &Path, entries: &[String], descriptor: Option<&Descriptor>) -> Result<Summary> {
    let outline = descriptor
        .filter(|d| d.kind != DescriptorKind::Requirements)
        .map(|d| document::outline(&d.text));
    let tasks =
        read_artifact(dir, entries, ArtifactKind::Tasks)?.map(|t| parse_tasks(&t).summary());
    let decisions = read_artifact(dir, entries, ArtifactKind::Decisions)?
        .map(|t| parse_decisions(&t).len())
        .unwrap_or(0);
    Ok(Summary {
        outline,
        tasks,
        decisions,
        presence: Presence::of(entries),
        scripts: sql_scripts(dir),
        branch: descriptor.and_then(|d| markdown::value(&d.text, aliases::BRANCH)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_at_any_depth_in_any_case_sorted() {
        let dir = tempfile::tempdir().unwrap();
        let s = dir.path();
        std::fs::create_dir_all(s.join("scripts/a/b/c")).unwrap();
        for f in [
            "scripts/002-x.sql",
            "scripts/001-x.SQL",
            "scripts/a/b/c/003.rollback.sql",
            "scripts/notes.md",
        ] {
            std::fs::write(s.join(f), "select 1;").unwrap();
        }
        let got: Vec<(String, bool)> = sql_scripts(s)
            .into_iter()
            .map(|f| (f.name, f.rollback))
            .collect();
        assert_eq!(
            got,
            [
                ("001-x.SQL".to_owned(), false),
                ("002-x.sql".to_owned(), false),
                ("a/b/c/003.rollback.sql".to_owned(), true),
            ]
        );
        assert!(sql_scripts(&s.join("missing")).is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn linked_folders_are_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let other = tempfile::tempdir().unwrap();
        std::fs::write(other.path().join("x.sql"), "").unwrap();
        std::fs::create_dir(dir.path().join("scripts")).unwrap();
        std::os::unix::fs::symlink(other.path(), dir.path().join("scripts/link")).unwrap();
        assert!(sql_scripts(dir.path()).is_empty());
    }
}
