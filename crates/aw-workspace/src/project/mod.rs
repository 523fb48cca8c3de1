//! The project block on disk: reading `CLAUDE.md` and `AGENTS.md` once, probing source folders
//! for their stack, and writing the planned block into both files.

pub mod doc_language;
pub mod init;
pub mod launch;
pub mod pretool;
pub mod reference_trace;
pub mod source_removal;
pub mod visibility;

use crate::error::{Result, WorkspaceError};
use crate::io::lock::{WorkspaceLock, default_wait};
use crate::locate::Workspace;
use aw_core::project::kept;
use aw_core::project::language::{Choice, Language, Reason};
use aw_core::project::markers::{Action, find};
use aw_core::project::model::{Block, Source, Stack};
use aw_core::project::parse::{Parsed, language, read};
use aw_core::project::stack::{Detected, StackProbe, detect_full};
use aw_core::project::upsert::plan_file;
use std::path::{Component, Path, PathBuf};

/// The files that carry the block, in the order they are read.
pub const BLOCK_FILES: [&str; 2] = ["CLAUDE.md", "AGENTS.md"];

/// Reads a text file; `None` when it does not exist.
pub fn read_optional(path: &Path) -> Result<Option<String>> {
    match crate::io::folder::read_regular_path(path) {
        Ok(bytes) => String::from_utf8(bytes).map(Some).map_err(|_| {
            WorkspaceError::io(
                "could not read (it is not UTF-8 text)",
                path,
                std::io::Error::from(std::io::ErrorKind::InvalidData),
            )
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(WorkspaceError::io("could not read", path, e)),
    }
}

/// `CLAUDE.md` and `AGENTS.md` of a workspace, read once.
#[derive(Debug, Clone)]
pub struct ProjectFiles {
    root: PathBuf,
    texts: [Option<String>; 2],
}

/// The planned write of one block file.
#[derive(Debug, Clone)]
pub struct PlannedFile {
    /// `CLAUDE.md` or `AGENTS.md`.
    pub file: &'static str,
    /// What the write does.
    pub action: Action,
    /// The file had legacy `QTC-PROJECT` markers, which this write replaces.
    pub migrated: bool,
    /// The absolute path.
    pub path: PathBuf,
    /// The new text (`None`: unchanged).
    pub text: Option<String>,
}

impl ProjectFiles {
    /// Reads both files under `root`.
    pub fn read(root: &Path) -> Result<Self> {
        let [a, b] = BLOCK_FILES;
        Ok(ProjectFiles {
            root: root.to_path_buf(),
            texts: [read_optional(&root.join(a))?, read_optional(&root.join(b))?],
        })
    }

    /// Each file's block, as read (`CLAUDE.md` first; files without one left out).
    fn parsed(&self, ns: &str) -> impl Iterator<Item = Parsed> {
        self.texts.iter().flatten().filter_map(move |text| {
            let f = find(text, ns)?;
            Some(read(f.inner(text)))
        })
    }

    /// The block of the first file that has one (`CLAUDE.md` first), with the lines aw does not
    /// own from both files: a note a person left in only one of them is written into both.
    pub fn block(&self, ns: &str) -> Option<Block> {
        let mut all = self.parsed(ns);
        let mut block = all.next()?.block;
        for other in all {
            block.kept = kept::merge(&block.kept, &other.block.kept);
        }
        Some(block)
    }

    /// The status records either file carries for an alias or role the block no longer
    /// declares (each once, `CLAUDE.md`'s first): the next write leaves them out, and says so.
    pub fn dropped(&self, ns: &str) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for line in self.parsed(ns).flat_map(|p| p.dropped) {
            if !out.contains(&line) {
                out.push(line);
            }
        }
        out
    }

    /// The language of the block [`Self::block`] reads, when it says.
    pub fn language(&self, ns: &str) -> Option<Language> {
        self.texts.iter().flatten().find_map(|text| {
            let f = find(text, ns)?;
            Some(language(f.inner(text)))
        })?
    }

    /// The language a file without a block of its own gets, and why: the read block's, else
    /// the one the workspace configures or the reference's traces call for (looked at only when
    /// needed, so a broken setting troubles no one whose block already has a language). `home`
    /// is where the reference's traces on this machine are looked for.
    pub fn fallback_language(&self, ws: &Workspace, home: Option<&Path>) -> Result<Choice> {
        match self.language(&ws.ns) {
            Some(language) => Ok(Choice {
                language,
                reason: Reason::Block,
            }),
            None => crate::project::doc_language::choose(ws, home),
        }
    }

    /// Plans writing `block` into both files, stamping `now` where the block changes. Each
    /// file's block keeps its language; a file without one gets `fallback`.
    pub fn plan(&self, ns: &str, block: &Block, now: &str, fallback: Language) -> Vec<PlannedFile> {
        BLOCK_FILES
            .iter()
            .zip(&self.texts)
            .map(|(file, text)| {
                let p = plan_file(text.as_deref(), ns, block, now, fallback);
                PlannedFile {
                    file,
                    action: p.action,
                    migrated: p.migrated,
                    path: self.root.join(file),
                    text: p.text,
                }
            })
            .collect()
    }
}

/// A whole-file change: what it does and the new text.
#[derive(Debug, Clone)]
pub struct FileChange {
    /// `created`, `updated` or `unchanged`.
    pub action: &'static str,
    /// The file.
    pub path: PathBuf,
    /// The new text (`None`: unchanged).
    pub text: Option<String>,
}

impl FileChange {
    /// The change of `path`, which `existed` or not, to `text` (`None`: left as it is).
    pub fn new(path: PathBuf, existed: bool, text: Option<String>) -> Self {
        let action = match (&text, existed) {
            (None, _) => "unchanged",
            (Some(_), false) => "created",
            (Some(_), true) => "updated",
        };
        FileChange { action, path, text }
    }

    /// The path a run writes: the file's, unless it stays unchanged.
    pub fn target(&self) -> Option<&Path> {
        self.text.as_ref().map(|_| self.path.as_path())
    }

    /// Writes the new text (atomically, creating the folder) inside `root`; nothing when
    /// unchanged.
    pub fn write(&self, root: &Path) -> Result<()> {
        let Some(text) = &self.text else {
            return Ok(());
        };
        if let Some(dir) = self.path.parent() {
            crate::io::atomic::create_dir_all(root, dir)?;
        }
        crate::io::atomic::write(root, &self.path, text.as_bytes())
    }
}

/// The paths the planned files write (the ones that change).
pub fn planned_targets(files: &[PlannedFile]) -> impl Iterator<Item = &Path> {
    files
        .iter()
        .filter(|f| f.text.is_some())
        .map(|f| f.path.as_path())
}

/// Writes the planned files (atomically, one by one) inside `root`. Both paths are checked
/// first, so a link out of the workspace leaves both files as they were.
pub fn write_planned(root: &Path, files: &[PlannedFile]) -> Result<()> {
    crate::io::containment::check_writes(root, planned_targets(files))?;
    for f in files {
        if let Some(text) = &f.text {
            crate::io::atomic::write(root, &f.path, text.as_bytes())?;
        }
    }
    Ok(())
}

/// Takes the workspace lock and runs `plan` under it. A refused plan releases the lock and, in a
/// workspace that had no state folder, removes the one taking the lock created: a refusal leaves
/// no trace.
pub fn plan_locked<T, E: From<WorkspaceError>>(
    ws: &Workspace,
    plan: impl FnOnce() -> std::result::Result<T, E>,
) -> std::result::Result<(WorkspaceLock, T), E> {
    let fresh = !ws.state_dir().exists();
    let lock = WorkspaceLock::of(ws, default_wait())?;
    match plan() {
        Ok(p) => Ok((lock, p)),
        Err(e) => {
            if fresh {
                crate::project::init::discard_fresh_state(ws, lock);
            }
            Err(e)
        }
    }
}

/// What a write of the block did.
#[derive(Debug, Clone)]
pub struct Written {
    /// The block written.
    pub block: Block,
    /// What happened to each file.
    pub files: Vec<PlannedFile>,
    /// The status records the write left out (see [`ProjectFiles::dropped`]).
    pub dropped_lines: Vec<String>,
    /// The language a file without a block got, and why.
    pub language: Choice,
}

/// The language a write gave a new block (a file that had none), when the reference's traces
/// chose it: what a command says, so nobody is surprised by a Spanish block.
pub fn chosen_for_the_reference<'c>(
    language: &'c Choice,
    files: &[PlannedFile],
) -> Option<&'c [String]> {
    let new_block = files
        .iter()
        .any(|f| matches!(f.action, Action::Created | Action::Appended));
    match &language.reason {
        Reason::Reference(traces) if new_block => Some(traces),
        _ => None,
    }
}

/// Reads the block, lets `change` produce the new one, and writes it into both files, all under
/// the workspace lock; `now` (`YYYY-MM-DD HH:MM`) stamps a block that changes; `home` is where
/// the reference's traces are looked for when a new block needs a language. `change` sees the
/// current block (`None`: there is none), with the lines aw does not own from both files, which
/// the write puts back in place. A refused change leaves no trace, not even the state folder
/// taking the lock created.
pub fn update<E: From<WorkspaceError>>(
    ws: &Workspace,
    home: Option<&Path>,
    now: &str,
    change: impl FnOnce(Option<&Block>) -> std::result::Result<Block, E>,
) -> std::result::Result<Written, E> {
    let (lock, written) = plan_locked(ws, || {
        let files = ProjectFiles::read(&ws.root)?;
        let mut block = change(files.block(&ws.ns).as_ref())?;
        if block.stack.is_empty() {
            block.stack = detect_stack(&ws.root, &block.sources);
        }
        let language = files.fallback_language(ws, home)?;
        let planned = files.plan(&ws.ns, &block, now, language.language);
        Ok::<_, E>(Written {
            block,
            files: planned,
            dropped_lines: files.dropped(&ws.ns),
            language,
        })
    })?;
    write_planned(&ws.root, &written.files)?;
    drop(lock);
    Ok(written)
}

/// Whether a path is absolute in Windows terms (`C:\`, `C:/`, `\\server`, `\\?\`).
fn windows_absolute(path: &str) -> bool {
    let b = path.as_bytes();
    path.starts_with("\\\\")
        || (b.len() >= 3
            && b[0].is_ascii_alphabetic()
            && b[1] == b':'
            && matches!(b[2], b'\\' | b'/'))
}

/// Removes `.` and resolves `..` without touching the disk.
pub(crate) fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// Where a source's folder is on this machine: relative paths are taken from the workspace
/// root, `.`/`..` are resolved, and symbolic links too when the folder exists. A Windows path
/// on another system is kept as written.
pub fn resolve_source(root: &Path, path: &str) -> PathBuf {
    if windows_absolute(path) && !cfg!(windows) {
        return PathBuf::from(path);
    }
    let p = lexical(&root.join(path));
    p.canonicalize().unwrap_or(p)
}

/// Whether a resolved source folder lies outside the workspace root.
pub fn is_external(root: &Path, resolved: &Path) -> bool {
    !resolved.starts_with(root)
}

/// Where a source stands on this machine.
#[derive(Debug, Clone)]
pub struct SourceState {
    /// The folder it resolves to (see [`resolve_source`]).
    pub resolved: PathBuf,
    /// Whether that folder exists.
    pub exists: bool,
    /// What git says about it (`None` when git was not asked).
    pub git: Option<crate::git::GitState>,
}

/// Reads where a source stands: its folder, and unless `no_git` what git says about it.
pub fn source_state(root: &Path, source: &Source, no_git: bool) -> SourceState {
    let resolved = resolve_source(root, &source.path);
    SourceState {
        exists: resolved.is_dir(),
        git: (!no_git).then(|| crate::git::probe(&resolved)),
        resolved,
    }
}

fn probe(dir: &Path) -> StackProbe {
    // An unreadable package.json only means less is known about the stack.
    StackProbe {
        pom: dir.join("pom.xml").is_file(),
        gradle: dir.join("build.gradle").is_file() || dir.join("build.gradle.kts").is_file(),
        angular: dir.join("angular.json").is_file(),
        package_json: read_optional(&dir.join("package.json")).unwrap_or(None),
        mvnw: dir.join("mvnw").is_file(),
        mvnw_cmd: dir.join("mvnw.cmd").is_file(),
        gradlew: dir.join("gradlew").is_file(),
        gradlew_bat: dir.join("gradlew.bat").is_file(),
    }
}

/// The stack a folder's build files imply (empty when none is recognised, or the folder is
/// missing).
pub fn stack_of(dir: &Path) -> Stack {
    folder_detected(dir).stack
}

fn folder_detected(dir: &Path) -> Detected {
    if dir.is_dir() {
        detect_full(&probe(dir))
    } else {
        Detected::default()
    }
}

/// The stack and build command of the folder `dir`, which must exist (`stack --project-dir`).
pub fn folder_stack(dir: &Path) -> Result<Detected> {
    if !dir.is_dir() {
        return Err(WorkspaceError::Refused {
            code: aw_core::error_code::ErrorCode::InvalidInput,
            message: format!("The folder `{}` does not exist.", dir.display()),
            action: "Pass an existing folder with `--project-dir <dir>`.".to_owned(),
        });
    }
    Ok(folder_detected(dir))
}

/// The stack of the first source folder whose build files say something, else the workspace's.
pub fn detect_stack(root: &Path, sources: &[Source]) -> Stack {
    let dirs = sources
        .iter()
        .map(|s| resolve_source(root, &s.path))
        .chain(std::iter::once(root.to_path_buf()));
    dirs.map(|dir| stack_of(&dir))
        .find(|st| !st.is_empty())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_paths_resolve_against_the_root() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("inner")).unwrap();
        assert_eq!(resolve_source(&root, "."), root);
        assert_eq!(
            resolve_source(&root, "./inner/../inner"),
            root.join("inner")
        );
        assert!(!is_external(&root, &resolve_source(&root, "inner")));
        assert!(is_external(&root, &resolve_source(&root, "../elsewhere")));
        assert!(is_external(&root, &resolve_source(&root, "/opt/x")));
        assert!(is_external(&root, &resolve_source(&root, "C:\\repos\\x")));
    }

    #[test]
    fn stack_comes_from_the_first_source_that_says_something() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("empty")).unwrap();
        std::fs::create_dir_all(root.join("api")).unwrap();
        std::fs::write(root.join("api/pom.xml"), "<project/>").unwrap();
        std::fs::write(root.join("package.json"), "{}").unwrap();
        let src = |p: &str| Source {
            alias: "a".into(),
            path: p.into(),
            main_branch: None,
        };
        let st = detect_stack(root, &[src("missing"), src("empty"), src("api")]);
        assert_eq!(st.build.as_deref(), Some("Maven"));
        let st = detect_stack(root, &[src("empty")]);
        assert_eq!(st.framework.as_deref(), Some("Node"));
    }

    #[test]
    fn block_is_read_from_claude_first() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("AGENTS.md"), "<!-- WORKFLOW-PROJECT-START -->\n## Project\n\nfrom agents\n<!-- WORKFLOW-PROJECT-END -->\n").unwrap();
        let files = ProjectFiles::read(root).unwrap();
        assert_eq!(
            files.block("workflow").unwrap().project.as_deref(),
            Some("from agents")
        );
        std::fs::write(
            root.join("CLAUDE.md"),
            "<!-- QTC-PROJECT-START -->\n## Proyecto\n\nfrom claude\n<!-- QTC-PROJECT-END -->\n",
        )
        .unwrap();
        let files = ProjectFiles::read(root).unwrap();
        assert_eq!(
            files.block("workflow").unwrap().project.as_deref(),
            Some("from claude")
        );
        assert!(
            ProjectFiles::read(&root.join("nowhere"))
                .unwrap()
                .block("workflow")
                .is_none()
        );
    }
}
