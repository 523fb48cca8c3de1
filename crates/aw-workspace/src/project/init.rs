//! `workspace-init` on disk: everything a run would change is planned first (reading each file
//! once), so a dry run reports exactly what a real run does, and a refused run writes nothing.
//! Applying the plan then performs the writes in a fixed order.

use crate::error::{Result, WorkspaceError};
use crate::io::atomic;
use crate::io::containment::{check_writes, link_free};
use crate::locate::Workspace;
pub use crate::project::FileChange;
use crate::project::launch::{LegacyLaunch, apply_legacy, plan_legacy};
use crate::project::visibility::{
    HostsPlan, VisibilityError, canonical_root, external_folders, external_targets, plan_hosts,
};
use crate::project::{
    PlannedFile, ProjectFiles, detect_stack, planned_targets, read_optional, write_planned,
};
use aw_core::project::gitignore::{
    RUNTIME_HEADER, VISIBILITY_HEADER, merge, runtime_entries, visibility_entries,
};
use aw_core::project::language::Choice;
use aw_core::project::model::{Block, Source};
use aw_core::project::reconcile::{Changes, SourceMode, reconcile};
use aw_core::project::settings::SettingsError;
use aw_core::project::visibility::Skip;
use aw_core::project::{InputError, skills_toml};
use std::path::{Path, PathBuf};

/// The `docs/` folders older releases scaffolded with a `.gitkeep`.
const LEGACY_DOC_FOLDERS: &[&str] = &[
    "specs", "plans", "designs", "manuals", "scripts", "diagrams", "reports",
];

/// What `workspace-init` was asked (values already checked by the source grammars).
#[derive(Debug, Clone, Default)]
pub struct InitRequest {
    /// `--source`, in order.
    pub sources: Vec<Source>,
    /// `--working-branch`, in order.
    pub working: Vec<(String, String)>,
    /// `--qa-branch`, in order.
    pub qa: Vec<(String, String)>,
    /// `--main-branch`.
    pub main_branch: Option<String>,
    /// `--project`.
    pub project: Option<String>,
    /// Local `YYYY-MM-DD HH:MM`, stamped into the block if it changes.
    pub now: String,
    /// The home folder, where the reference's traces on this machine are looked for.
    pub home: Option<PathBuf>,
}

/// Why init cannot proceed (nothing has been written).
#[derive(Debug, thiserror::Error)]
pub enum InitError {
    /// An input the block rules refuse.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A host's settings file (`.claude/settings.local.json`, `.codex/config.toml`) cannot be
    /// merged.
    #[error("{} cannot be updated: {error}", path.display())]
    Settings {
        /// The settings file.
        path: PathBuf,
        /// What is wrong with it.
        error: SettingsError,
    },
    /// A read failed.
    #[error(transparent)]
    Workspace(#[from] WorkspaceError),
}

/// One pruning step.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Prune {
    /// Delete a file.
    File(PathBuf),
    /// Delete a folder's `.gitkeep` (if any), then the folder, which must then be empty.
    Folder(PathBuf),
}

/// The folders init creates, finds and prunes.
#[derive(Debug, Clone, Default)]
pub struct Scaffold {
    /// Folders created.
    pub created: Vec<PathBuf>,
    /// Folders already there.
    pub existing: Vec<PathBuf>,
    /// Legacy scaffold files and folders removed.
    pub pruned: Vec<PathBuf>,
}

impl From<VisibilityError> for InitError {
    fn from(e: VisibilityError) -> Self {
        match e {
            VisibilityError::File { path, error } => InitError::Settings { path, error },
            VisibilityError::Workspace(e) => InitError::Workspace(e),
        }
    }
}

/// Multi-root visibility: external source folders made visible to the agent hosts.
#[derive(Debug, Clone)]
pub struct Visibility {
    /// Resolved folders of the sources outside the workspace.
    pub external: Vec<String>,
    /// Folders of removed external sources, to withdraw.
    pub detached: Vec<String>,
    /// What each host's file gains and loses.
    pub hosts: HostsPlan,
}

/// Everything a run of `workspace-init` changes.
#[derive(Debug, Clone)]
pub struct InitPlan {
    /// The workspace root.
    pub root: PathBuf,
    /// The block that results.
    pub block: Block,
    /// The folders.
    pub scaffold: Scaffold,
    prune: Vec<Prune>,
    sessions_dir: PathBuf,
    /// `.<ns>/skills.toml` (`created` or `unchanged`).
    pub skills_toml: FileChange,
    /// `.gitignore`.
    pub gitignore: FileChange,
    /// `CLAUDE.md` and `AGENTS.md`.
    pub files: Vec<PlannedFile>,
    /// The language a file without a block gets, and why.
    pub language: Choice,
    /// The lines the write leaves out, as the block carried them: the status records either
    /// file carried for an alias or role the block does not declare, then the branch lines of
    /// the sources the run removed.
    pub dropped_lines: Vec<String>,
    /// Multi-root visibility.
    pub visibility: Visibility,
    /// Generated launch folders moved from `docs/tools/` to `.<ns>/launch/`.
    pub legacy_launch: Vec<LegacyLaunch>,
}

/// The step of [`apply`] that failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Folders, pruning, `skills.toml`, `.gitignore`, legacy launch folders.
    Scaffold,
    /// `CLAUDE.md` / `AGENTS.md`.
    ProjectMd,
    /// `.claude/settings.local.json`, `.codex/config.toml`.
    Visibility,
}

fn folder_entries(dir: &Path) -> Result<Vec<String>> {
    let rd = std::fs::read_dir(dir).map_err(|e| WorkspaceError::io("could not list", dir, e))?;
    let mut names = Vec::new();
    for e in rd {
        let e = e.map_err(|e| WorkspaceError::io("could not list", dir, e))?;
        names.push(e.file_name().to_string_lossy().into_owned());
    }
    names.sort();
    Ok(names)
}

/// Legacy scaffold to remove: `.gitkeep` placeholders, folders that hold nothing else, an empty
/// `docs/logs`. An empty `docs/<category>` is kept: `next-number` may have just made it.
///
/// Only what is reached without a symbolic link is pruned: a removal through a link lands on
/// whatever it points to.
fn plan_prune(ws: &Workspace) -> Result<(Vec<Prune>, Vec<PathBuf>)> {
    let mut ops = Vec::new();
    let mut reported = Vec::new();
    let docs = ws.docs_dir();
    let real_dir = |dir: &Path| link_free(&ws.root, dir) && dir.is_dir();
    for cat in LEGACY_DOC_FOLDERS {
        let dir = docs.join(cat);
        if !real_dir(&dir) {
            continue;
        }
        let names = folder_entries(&dir)?;
        if names == [".gitkeep"] {
            ops.push(Prune::Folder(dir.clone()));
            reported.push(dir);
        } else if names.iter().any(|n| n == ".gitkeep") {
            let keep = dir.join(".gitkeep");
            ops.push(Prune::File(keep.clone()));
            reported.push(keep);
        }
    }
    let logs = docs.join("logs");
    if real_dir(&logs) && folder_entries(&logs)?.is_empty() {
        ops.push(Prune::Folder(logs.clone()));
        reported.push(logs);
    }
    let keep = ws.sessions_dir().join(".gitkeep");
    if link_free(&ws.root, &keep) && keep.is_file() {
        ops.push(Prune::File(keep.clone()));
        reported.push(keep);
    }
    Ok((ops, reported))
}

fn folder_name(root: &Path) -> String {
    root.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Plans a run in the workspace `ws` (its root must exist). Reads, never writes.
pub fn plan(ws: &Workspace, req: InitRequest) -> std::result::Result<InitPlan, InitError> {
    let root = &ws.root;
    let files = ProjectFiles::read(root)?;
    let existing = files.block(&ws.ns);
    let rec = reconcile(
        existing.as_ref(),
        Changes {
            project: req.project,
            sources: req.sources,
            mode: SourceMode::Replace,
            working: req.working,
            qa: req.qa,
            main_branch: req.main_branch,
            fallback_project: folder_name(root),
        },
    )?;
    let mut block = rec.block;
    if block.stack.is_empty() {
        block.stack = detect_stack(root, &block.sources);
    }

    let sessions_dir = ws.sessions_dir();
    let mut scaffold = Scaffold::default();
    if sessions_dir.is_dir() {
        scaffold.existing.push(sessions_dir.clone());
    } else {
        scaffold.created.push(sessions_dir.clone());
    }
    let (prune, pruned) = plan_prune(ws)?;
    scaffold.pruned = pruned;

    let skills_path = ws.state_dir().join("skills.toml");
    let skills_toml = if skills_path.exists() {
        FileChange::new(skills_path, true, None)
    } else {
        FileChange::new(skills_path, false, Some(skills_toml::template(&ws.ns)))
    };

    let host_root = canonical_root(root);
    let external = external_folders(&host_root, &block.sources);
    let gitignore_path = root.join(".gitignore");
    let current = read_optional(&gitignore_path)?;
    let base = current.clone().unwrap_or_default();
    let mut text = merge(&base, RUNTIME_HEADER, &runtime_entries(&ws.ns));
    if !external.is_empty() {
        let after = text.clone().unwrap_or_else(|| base.clone());
        if let Some(t) = merge(&after, VISIBILITY_HEADER, &visibility_entries()) {
            text = Some(t);
        }
    }
    let gitignore = FileChange::new(gitignore_path, current.is_some(), text);
    let legacy_launch = plan_legacy(ws)?;

    let detached: Vec<String> = external_folders(&host_root, &rec.removed_sources)
        .into_iter()
        .filter(|d| !external.contains(d))
        .collect();
    let hosts = plan_hosts(
        &host_root,
        &external_targets(&host_root, &block.sources),
        &detached,
        !external.is_empty(),
        Skip::default(),
    )?;
    let visibility = Visibility {
        hosts,
        external,
        detached,
    };

    let language = files.fallback_language(ws, req.home.as_deref())?;
    let planned = files.plan(&ws.ns, &block, &req.now, language.language);
    let mut dropped_lines = files.dropped(&ws.ns);
    dropped_lines.extend(rec.dropped_lines.iter().map(|d| d.text()));
    Ok(InitPlan {
        root: root.clone(),
        block,
        scaffold,
        prune,
        sessions_dir,
        skills_toml,
        gitignore,
        files: planned,
        dropped_lines,
        language,
        visibility,
        legacy_launch,
    })
}

fn apply_prune(root: &Path, op: &Prune) -> Result<()> {
    match op {
        Prune::File(p) => {
            atomic::remove_file(root, p)?;
        }
        Prune::Folder(dir) => {
            atomic::remove_file(root, &dir.join(".gitkeep"))?;
            // `remove_dir`, not a recursive delete: anything that appeared meanwhile stays.
            atomic::remove_empty_dir(root, dir)?;
        }
    }
    Ok(())
}

/// Checks every path the plan writes or removes, step by step, before anything is written: a
/// link out of the workspace (a `.gitignore`, `CLAUDE.md` or `.claude/` pointing elsewhere)
/// refuses the run at the step it belongs to, with nothing written.
pub fn check(plan: &InitPlan) -> std::result::Result<(), (Step, WorkspaceError)> {
    let root = &plan.root;
    let mut scaffold: Vec<&Path> = vec![plan.sessions_dir.as_path()];
    for op in &plan.prune {
        match op {
            Prune::File(p) | Prune::Folder(p) => scaffold.push(p),
        }
    }
    scaffold.extend(plan.skills_toml.target());
    scaffold.extend(plan.gitignore.target());
    check_writes(root, scaffold).map_err(|e| (Step::Scaffold, e))?;
    check_writes(root, planned_targets(&plan.files)).map_err(|e| (Step::ProjectMd, e))?;
    check_writes(root, plan.visibility.hosts.targets()).map_err(|e| (Step::Visibility, e))
}

/// Performs the plan. On failure, says which step failed; earlier steps stay done.
pub fn apply(plan: &InitPlan) -> std::result::Result<(), (Step, WorkspaceError)> {
    let root = &plan.root;
    let scaffold = || -> Result<()> {
        atomic::create_dir_all(root, &plan.sessions_dir)?;
        for op in &plan.prune {
            apply_prune(root, op)?;
        }
        if let Some(text) = &plan.skills_toml.text {
            // Never overwrite a skills.toml that appeared since the plan was made.
            atomic::create_new(root, &plan.skills_toml.path, text.as_bytes())?;
        }
        plan.gitignore.write(root)?;
        for l in &plan.legacy_launch {
            apply_legacy(root, l)?;
        }
        Ok(())
    };
    scaffold().map_err(|e| (Step::Scaffold, e))?;
    write_planned(root, &plan.files).map_err(|e| (Step::ProjectMd, e))?;
    plan.visibility
        .hosts
        .write(root)
        .map_err(|e| (Step::Visibility, e))
}

/// Why a run of `workspace-init` stopped.
#[derive(Debug)]
pub enum RunError {
    /// The workspace lock could not be taken: nothing was written.
    Lock(WorkspaceError),
    /// Planning refused: nothing was written.
    Plan(InitError),
    /// A step of the plan failed; earlier steps stay done. A path refused by [`check`] fails
    /// its step before anything is written.
    Apply(Step, WorkspaceError),
}

/// Runs `workspace-init` in `ws`: plans, and unless `dry_run` checks and applies the plan, under
/// the workspace lock. A refused plan or check in a workspace that had no state folder leaves no
/// trace.
pub fn run(
    ws: &Workspace,
    req: InitRequest,
    dry_run: bool,
) -> std::result::Result<InitPlan, RunError> {
    if dry_run {
        return plan(ws, req).map_err(RunError::Plan);
    }
    let fresh = !ws.state_dir().exists();
    let lock = crate::io::lock::WorkspaceLock::of(ws, crate::io::lock::default_wait())
        .map_err(RunError::Lock)?;
    let planned = match plan(ws, req) {
        Ok(p) => p,
        Err(e) => {
            if fresh {
                discard_fresh_state(ws, lock);
            }
            return Err(RunError::Plan(e));
        }
    };
    if let Err((step, e)) = check(&planned) {
        if fresh {
            discard_fresh_state(ws, lock);
        }
        return Err(RunError::Apply(step, e));
    }
    apply(&planned).map_err(|(step, e)| RunError::Apply(step, e))?;
    drop(lock);
    Ok(planned)
}

/// After a refused run in a workspace that had no state folder, removes the lock file and the
/// state folder that taking the lock created, so a refused run leaves no trace. Anything else
/// in the folder keeps it. The lock file is unlinked while `lock` still holds it: a process
/// waiting on it then finds, once it gets the lock, that the path no longer names its file, and
/// starts over (it never ends up holding a file nobody else can see).
pub fn discard_fresh_state(ws: &Workspace, lock: crate::io::lock::WorkspaceLock) {
    let _ = atomic::remove_file(&ws.root, &ws.lock_path());
    drop(lock);
    let _ = atomic::remove_empty_dir(&ws.root, &ws.state_dir());
}
