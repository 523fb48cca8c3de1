//! Multi-root visibility on disk: which source folders lie outside the workspace, what attaching
//! or withdrawing folders changes in each host's file (the merges themselves are aw-core's), the
//! `attach-multiroot` / `detach-multiroot` transaction, and what `visibility doctor` reads.
//!
//! Every change is planned from one read of each file, so a dry run reports exactly what a real
//! run writes; a real run plans and writes under the workspace lock.

use crate::error::{Result, WorkspaceError};
use crate::io::lock::{WorkspaceLock, default_wait};
use crate::locate::Workspace;
use crate::project::{FileChange, ProjectFiles, is_external, read_optional, resolve_source};
use aw_core::error_code::ErrorCode;
use aw_core::project::codex::{
    ReferenceEdit, merge_writable_roots, reference_roots, trust_level, writable_roots,
};
use aw_core::project::gitignore::{VISIBILITY_HEADER, merge, missing_entries, visibility_entries};
use aw_core::project::model::Source;
use aw_core::project::settings::{
    Entry, SettingsError, SettingsMerge, Target, additional_directories, merge_directories,
    plan_key,
};
use aw_core::project::visibility::{CLAUDE_FILE, CODEX_FILE, Listing, Skip};
use std::path::{Path, PathBuf};

/// The workspace root as the hosts see it: canonical, so that resolved source folders compare
/// with it and Codex's trust entry names the real folder.
pub fn canonical_root(root: &Path) -> PathBuf {
    root.canonicalize().unwrap_or_else(|_| root.to_path_buf())
}

/// The resolved folders of the sources that lie outside the workspace, in order, once each.
pub fn external_folders(root: &Path, sources: &[Source]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in sources {
        let p = resolve_source(root, &s.path);
        let text = p.to_string_lossy().into_owned();
        if is_external(root, &p) && !out.contains(&text) {
            out.push(text);
        }
    }
    out
}

/// The sources outside the workspace as the hosts' files get them: the path the block gives
/// (what the reference writes) and the folder it resolves to, once per folder, in order.
pub fn external_targets(root: &Path, sources: &[Source]) -> Vec<Target> {
    let mut out: Vec<Target> = Vec::new();
    for s in sources {
        let p = resolve_source(root, &s.path);
        let folder = p.to_string_lossy().into_owned();
        if is_external(root, &p) && !out.iter().any(|t| t.folder == folder) {
            out.push(Target::new(&s.path, folder));
        }
    }
    out
}

/// A host file's entries, each with the folder it names: an absolute entry as it resolves, a
/// relative one (the reference writes the paths as typed) taken from the workspace root.
fn entries(root: &Path, texts: Vec<String>) -> Vec<Entry> {
    texts
        .into_iter()
        .map(|text| Entry {
            folder: resolve_source(root, &text).to_string_lossy().into_owned(),
            text,
        })
        .collect()
}

/// Folders in order, once each.
fn union(lists: [&[String]; 2]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for f in lists.into_iter().flatten() {
        if !out.contains(f) {
            out.push(f.clone());
        }
    }
    out
}

/// The planned change of one host's file.
#[derive(Debug, Clone)]
pub struct HostChange {
    /// The file, relative to the workspace root.
    pub file: &'static str,
    /// What happens to it.
    pub change: FileChange,
    /// Folders it gains.
    pub added: Vec<String>,
    /// Folders it loses.
    pub removed: Vec<String>,
}

impl HostChange {
    fn new(
        root: &Path,
        file: &'static str,
        existed: bool,
        m: SettingsMerge,
        (added, removed): (Vec<String>, Vec<String>),
    ) -> Self {
        // Nothing written, nothing gained or lost.
        let (added, removed) = match m.text {
            Some(_) => (added, removed),
            None => (Vec::new(), Vec::new()),
        };
        HostChange {
            file,
            change: FileChange::new(root.join(file), existed, m.text),
            added,
            removed,
        }
    }
}

/// What a change of visibility does to each host's file (`None`: the host was skipped).
#[derive(Debug, Clone, Default)]
pub struct HostsPlan {
    /// `.claude/settings.local.json`.
    pub claude: Option<HostChange>,
    /// `.codex/config.toml`.
    pub codex: Option<HostChange>,
}

impl HostChange {
    /// One host's file as the wire reports it, or skipped (`skipped_by_flag`) when the command
    /// was told to leave it alone.
    pub fn wire(h: &Option<HostChange>) -> aw_core::wire::multiroot::Host<'_> {
        use aw_core::wire::multiroot::{Host, HostFile, Skipped};
        match h {
            Some(h) => Host::File(HostFile {
                file: h.file,
                action: h.change.action,
                added: &h.added,
                removed: &h.removed,
            }),
            None => Host::Skipped(Skipped::because(
                aw_core::project::visibility::SKIPPED_BY_FLAG,
            )),
        }
    }
}

impl HostsPlan {
    fn each(&self) -> impl Iterator<Item = &HostChange> {
        self.claude.iter().chain(self.codex.iter())
    }

    /// Every folder some file loses, once each, in file order.
    pub fn removed(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for r in self.each().flat_map(|h| &h.removed) {
            if !out.contains(r) {
                out.push(r.clone());
            }
        }
        out
    }

    /// The paths a run writes (the files that change).
    pub fn targets(&self) -> impl Iterator<Item = &Path> {
        self.each().filter_map(|h| h.change.target())
    }

    /// Writes the files that change, inside `root`. Every path is checked first, so a link out
    /// of the workspace leaves both files as they were.
    pub fn write(&self, root: &Path) -> Result<()> {
        crate::io::containment::check_writes(root, self.targets())?;
        for h in self.each() {
            h.change.write(root)?;
        }
        Ok(())
    }
}

/// Why visibility cannot be changed (nothing has been written).
#[derive(Debug, thiserror::Error)]
pub enum VisibilityError {
    /// A host's file cannot be merged.
    #[error("{} cannot be updated: {error}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        error: SettingsError,
    },
    /// A read failed, or the lock could not be taken.
    #[error(transparent)]
    Workspace(#[from] WorkspaceError),
}

fn file_error(root: &Path, file: &str) -> impl FnOnce(SettingsError) -> VisibilityError {
    let path = root.join(file);
    move |error| VisibilityError::File { path, error }
}

/// Plans making the folders of `add` visible and withdrawing the folders `remove` from every
/// host file not skipped; with `trust`, Codex's file also marks the workspace trusted. Each file
/// gets the reference's spelling (the path as typed) in the list the reference reads, and Codex
/// also the absolute folder in the list Codex itself reads; a folder a file already names, in
/// any spelling, is not added again, and every spelling of a withdrawn folder goes. Reads, never
/// writes. `root` should be [`canonical_root`].
pub fn plan_hosts(
    root: &Path,
    add: &[Target],
    remove: &[String],
    trust: bool,
    skip: Skip,
) -> std::result::Result<HostsPlan, VisibilityError> {
    let mut plan = HostsPlan::default();
    if let Some(folder) = users_own_settings(root, skip) {
        return Err(VisibilityError::Workspace(WorkspaceError::Refused {
            code: ErrorCode::InvalidInput,
            message: format!(
                "{} holds your own settings for every project, not this project's: aw will not \
                 widen them.",
                folder.display()
            ),
            action: "Run this in the project's folder (or with `--workspace <project>`), not in \
                     your home folder."
                .to_owned(),
        }));
    }
    if !skip.claude {
        let text = read_optional(&root.join(CLAUDE_FILE))?;
        let listed = match text.as_deref() {
            Some(t) => additional_directories(t).map_err(file_error(root, CLAUDE_FILE))?,
            None => Vec::new(),
        };
        let edit = plan_key(&entries(root, listed), add, remove, |t| t.typed.clone());
        let m = merge_directories(text.as_deref(), &edit.add, &edit.remove)
            .map_err(file_error(root, CLAUDE_FILE))?;
        let change = (edit.added, edit.removed);
        plan.claude = Some(HostChange::new(
            root,
            CLAUDE_FILE,
            text.is_some(),
            m,
            change,
        ));
    }
    if !skip.codex {
        let text = read_optional(&root.join(CODEX_FILE))?;
        let (own, theirs) = match text.as_deref() {
            Some(t) => (
                writable_roots(t).map_err(file_error(root, CODEX_FILE))?,
                reference_roots(t).map_err(file_error(root, CODEX_FILE))?,
            ),
            None => (Vec::new(), Vec::new()),
        };
        let own = plan_key(&entries(root, own), add, remove, |t| t.folder.clone());
        let theirs = plan_key(&entries(root, theirs), add, remove, |t| t.typed.clone());
        let project = root.to_string_lossy();
        let m = merge_writable_roots(
            text.as_deref(),
            &own.add,
            &own.remove,
            trust.then_some(project.as_ref()),
            ReferenceEdit {
                add: &theirs.add,
                remove: &theirs.remove,
            },
        )
        .map_err(file_error(root, CODEX_FILE))?;
        let change = (
            union([&own.added, &theirs.added]),
            union([&own.removed, &theirs.removed]),
        );
        plan.codex = Some(HostChange::new(root, CODEX_FILE, text.is_some(), m, change));
    }
    Ok(plan)
}

/// The host settings folder under `root` that is really the user's own (home-wide) one: `root`
/// is the home folder, or `CODEX_HOME` / `CLAUDE_CONFIG_DIR` name `root/.codex` / `root/.claude`.
/// Writing a project's entries there would widen every project's sandbox and trust the home.
fn users_own_settings(root: &Path, skip: Skip) -> Option<PathBuf> {
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    let home = crate::locate::home_dir();
    let is_home = home.as_deref().is_some_and(|h| same(root, h));
    let hosts = [
        (skip.claude, ".claude", "CLAUDE_CONFIG_DIR"),
        (skip.codex, ".codex", "CODEX_HOME"),
    ];
    hosts.into_iter().find_map(|(skipped, dir, var)| {
        let folder = root.join(dir);
        let named = std::env::var_os(var).is_some_and(|v| same(&folder, Path::new(&v)));
        (!skipped && (is_home || named)).then_some(folder)
    })
}

/// The `.gitignore` change that keeps the host files out of version control (`unchanged` when
/// the visibility section is complete).
pub fn plan_gitignore(root: &Path) -> Result<FileChange> {
    let path = root.join(".gitignore");
    let current = read_optional(&path)?;
    let text = merge(
        current.as_deref().unwrap_or(""),
        VISIBILITY_HEADER,
        &visibility_entries(),
    );
    Ok(FileChange::new(path, current.is_some(), text))
}

/// `attach-multiroot` or `detach-multiroot`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Make folders visible.
    Attach,
    /// Withdraw them.
    Detach,
}

/// What `attach-multiroot` / `detach-multiroot` were asked.
#[derive(Debug, Clone)]
pub struct MultirootRequest {
    /// Attach or detach.
    pub direction: Direction,
    /// `--path` and `--paths` values as typed (relative ones are taken from the workspace root).
    pub paths: Vec<String>,
    /// `--from-sources`: the block's external sources too.
    pub from_sources: bool,
    /// `--skip-*`.
    pub skip: Skip,
    /// `--dry-run`.
    pub dry_run: bool,
}

/// What a run changes.
#[derive(Debug, Clone)]
pub struct MultirootPlan {
    /// The workspace root (canonical).
    pub root: PathBuf,
    /// The folders attached or withdrawn, resolved, once each.
    pub paths: Vec<String>,
    /// Each host's file.
    pub hosts: HostsPlan,
    /// `.gitignore` (attach only; `None` when nothing is attached).
    pub gitignore: Option<FileChange>,
}

fn plan_multiroot(
    ws: &Workspace,
    req: &MultirootRequest,
) -> std::result::Result<MultirootPlan, VisibilityError> {
    let root = canonical_root(&ws.root);
    let named = req
        .paths
        .iter()
        .map(|p| Target::new(p, resolve_source(&root, p).to_string_lossy().into_owned()));
    let from_block = if req.from_sources {
        let block = ProjectFiles::read(&root)?.block(&ws.ns).unwrap_or_default();
        external_targets(&root, &block.sources)
    } else {
        Vec::new()
    };
    let mut targets: Vec<Target> = Vec::new();
    for t in named.chain(from_block) {
        if !targets.iter().any(|k| k.folder == t.folder) {
            targets.push(t);
        }
    }
    let paths: Vec<String> = targets.iter().map(|t| t.folder.clone()).collect();
    let (hosts, gitignore) = match req.direction {
        Direction::Attach => (
            plan_hosts(&root, &targets, &[], !paths.is_empty(), req.skip)?,
            if paths.is_empty() {
                None
            } else {
                Some(plan_gitignore(&root)?)
            },
        ),
        Direction::Detach => (plan_hosts(&root, &[], &paths, false, req.skip)?, None),
    };
    Ok(MultirootPlan {
        root,
        paths,
        hosts,
        gitignore,
    })
}

/// Runs `attach-multiroot` / `detach-multiroot` in `ws`: plans, and unless `dry_run` writes the
/// plan, under the workspace lock. Taking the lock in a folder that was not a workspace leaves
/// no state folder behind.
pub fn multiroot(
    ws: &Workspace,
    req: &MultirootRequest,
) -> std::result::Result<MultirootPlan, VisibilityError> {
    if req.dry_run {
        return plan_multiroot(ws, req);
    }
    let fresh = !ws.state_dir().exists();
    let lock = WorkspaceLock::of(ws, default_wait())?;
    let outcome = plan_multiroot(ws, req).and_then(|plan| {
        let root = lock.root().to_path_buf();
        let gitignore = plan.gitignore.iter().filter_map(FileChange::target);
        crate::io::containment::check_writes(&root, gitignore.chain(plan.hosts.targets()))?;
        if let Some(g) = &plan.gitignore {
            g.write(&root)?;
        }
        plan.hosts.write(&root)?;
        Ok(plan)
    });
    if fresh {
        crate::project::init::discard_fresh_state(ws, lock);
    }
    outcome
}

/// Where one source stands for visibility.
#[derive(Debug, Clone)]
pub struct SourceSight {
    /// The block's row.
    pub source: Source,
    /// Its resolved folder.
    pub resolved: String,
    /// Whether that folder exists.
    pub exists: bool,
    /// Whether it lies outside the workspace.
    pub external: bool,
}

/// What `visibility doctor` reads: the sources, and what each host's file lists.
#[derive(Debug, Clone)]
pub struct Inspection {
    /// The workspace root (canonical).
    pub root: PathBuf,
    /// Whether CLAUDE.md or AGENTS.md has a project block.
    pub block_found: bool,
    /// The block's sources.
    pub sources: Vec<SourceSight>,
    /// `.claude/settings.local.json`.
    pub claude: Listing,
    /// `.codex/config.toml`.
    pub codex: Listing,
    /// The `trust_level` Codex's file gives the workspace (`None`: no entry, or no readable file).
    pub codex_trust: Option<String>,
    /// Entries of the `.gitignore` visibility section the file lacks.
    pub gitignore_missing: Vec<String>,
}

fn listing(
    root: &Path,
    text: Option<String>,
    list: impl Fn(&str) -> std::result::Result<Vec<String>, SettingsError>,
) -> Listing {
    match text {
        None => Listing::Absent,
        Some(t) => match list(&t) {
            Ok(l) => Listing::Listed(entries(root, l)),
            Err(e) => Listing::Invalid(e.to_string()),
        },
    }
}

/// Both of Codex's lists: its own `writable_roots`, then the reference's
/// `additional_writable_roots`.
fn codex_entries(text: &str) -> std::result::Result<Vec<String>, SettingsError> {
    let mut all = writable_roots(text)?;
    all.extend(reference_roots(text)?);
    Ok(all)
}

/// Reads what `visibility doctor` needs, without writing anything (not even the lock).
pub fn inspect(ws: &Workspace) -> Result<Inspection> {
    let root = canonical_root(&ws.root);
    let block = ProjectFiles::read(&root)?.block(&ws.ns);
    let sources = block
        .as_ref()
        .map(|b| b.sources.clone())
        .unwrap_or_default()
        .into_iter()
        .map(|source| {
            let p = resolve_source(&root, &source.path);
            SourceSight {
                resolved: p.to_string_lossy().into_owned(),
                exists: p.is_dir(),
                external: is_external(&root, &p),
                source,
            }
        })
        .collect();
    let codex_text = read_optional(&root.join(CODEX_FILE))?;
    let project = root.to_string_lossy().into_owned();
    let codex_trust = codex_text
        .as_deref()
        .and_then(|t| trust_level(t, &project).ok().flatten());
    let gitignore = read_optional(&root.join(".gitignore"))?.unwrap_or_default();
    Ok(Inspection {
        claude: listing(
            &root,
            read_optional(&root.join(CLAUDE_FILE))?,
            additional_directories,
        ),
        codex: listing(&root, codex_text, codex_entries),
        codex_trust,
        gitignore_missing: missing_entries(&gitignore, &visibility_entries())
            .into_iter()
            .cloned()
            .collect(),
        block_found: block.is_some(),
        sources,
        root,
    })
}
