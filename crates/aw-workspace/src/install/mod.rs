//! `aw self install | uninstall | doctor`'s disk: what is at each path a host plan names, read
//! once per command through a [`Snapshot`] (never following a final link, never waiting on a
//! FIFO); the files of aw's, of the person's and of the reference under the folders aw manages;
//! a settings file's hooks merged by aw-core; the record of the folders an install created; the
//! lock of each host folder ([`lock`]); and the steps carried out as one transaction over every
//! host ([`txn`]): every path checked first (nothing outside the host's own folder under HOME,
//! never through a link that leads out of it), each file replaced atomically, one sync per
//! transaction, and everything done so far (folders created included) undone when a step fails.

pub mod lock;
pub mod snapshot;
pub mod txn;

pub use lock::{HostLocks, lock_path, lock_roots};
pub use snapshot::{Kind, Snapshot};
pub use txn::{
    Applied, HostOps, Op, RecordedFolders, apply, backups_beyond, check_ops,
    planned_backup_removals, planned_backups,
};

use crate::error::WorkspaceError;
use aw_core::install::hooks::{HookMerge, merge, only_aws, remove};
use aw_core::install::host::{HookArtifact, Host};
use aw_core::install::marker::{same_but_digest, seal};
use aw_core::install::plan::{
    Action, Found, HookPlan, HostPlan, Managed, Owner, PlannedFile, Stray, decide, folder_claimed,
    stray,
};
use aw_core::install::record::{self, Record};
use aw_core::install::reference;
use aw_core::project::settings::SettingsError;
use std::path::{Path, PathBuf};

/// Why an install or uninstall cannot go on.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    /// A settings file aw merges into is not JSON of the expected shape.
    #[error("{} cannot be merged: {error}", path.display())]
    Settings {
        /// The file.
        path: PathBuf,
        /// Why.
        error: SettingsError,
    },
    /// A path would be written through a symbolic link that leads out of the host's folder (or
    /// the host's folder is not a folder).
    #[error("{} was left unchanged: {why}", path.display())]
    Unsafe {
        /// The path.
        path: PathBuf,
        /// Why.
        why: String,
        /// What the person can do.
        action: String,
    },
    /// The filesystem failed.
    #[error(transparent)]
    Workspace(#[from] WorkspaceError),
}

const REPLACE_LINK: &str = "Replace the symbolic link with a real folder inside the host's folder (or remove it), then run the command again.";

fn not_a_folder(path: PathBuf) -> InstallError {
    InstallError::Unsafe {
        path,
        why: "it is not a folder, and aw installs into it".to_owned(),
        action: "Move it away (or make it a folder; a link to a folder is fine), then run the command again.".to_owned(),
    }
}

/// What happens to one planned file.
#[derive(Debug, Clone)]
pub struct FileStep {
    /// Its path, relative to HOME.
    pub rel: String,
    /// Created, updated, unchanged, in conflict, edited by the person, or the reference's.
    pub action: Action,
    /// The text to write (the marker's digest not filled in yet).
    pub text: String,
    /// How it shows it is aw's.
    pub owner: Owner,
    /// What is at the path now, when it is a regular file.
    pub before: Option<String>,
    /// Whether something is at the path now.
    pub present: bool,
}

impl FileStep {
    /// The bytes written.
    pub fn bytes(&self) -> String {
        match self.owner {
            Owner::Marked => seal(&self.text),
            Owner::Folder(_) => self.text.clone(),
        }
    }
}

/// A settings file's hooks, merged or removed.
#[derive(Debug, Clone)]
pub struct SettingsStep {
    /// The file, relative to HOME.
    pub rel: String,
    /// What it held (`None`: it did not exist); a backup is written before it changes.
    pub before: Option<String>,
    /// What the merge does.
    pub merge: HookMerge,
    /// Whether the file held nothing but exact copies of aw's own groups naming the aw at work
    /// (aw-core's `only_aws`: nothing of the person's to back up before it changes). A tuned or
    /// edited hook, another matcher, an older path: a backup is written.
    pub only_ours: bool,
}

impl SettingsStep {
    /// Whether the file existed.
    pub fn existed(&self) -> bool {
        self.before.is_some()
    }
}

/// A file aw found, with its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundFile {
    /// Its path, relative to HOME.
    pub rel: String,
    /// Its text.
    pub text: String,
}

/// Something of the reference's install in aw's place: moved aside by install.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReferenceItem {
    /// The file or folder, relative to HOME.
    pub rel: String,
    /// Whether it is a whole folder (a skill).
    pub folder: bool,
}

/// A record of what aw created, to write.
#[derive(Debug, Clone)]
pub struct RecordStep {
    /// The host folder it is in.
    pub root: String,
    /// Its text (digest not filled in).
    pub text: String,
    /// What the record held before, when there was one.
    pub before: Option<String>,
}

/// What installing one host's plan does, from what is on disk.
#[derive(Debug, Clone)]
pub struct HostInstall {
    /// The plan.
    pub plan: HostPlan,
    /// Each planned file.
    pub steps: Vec<FileStep>,
    /// Entries that are not folders (a file, a FIFO, a link to nothing) where aw needs a folder
    /// on the way to a planned file: in aw's way like a conflict.
    pub blocked: Vec<String>,
    /// Files of ours under the managed folders that the plan no longer has (an older install's).
    pub stale: Vec<FoundFile>,
    /// Files of ours under the managed folders, not in the plan, edited by the person: kept.
    pub edited: Vec<String>,
    /// Files under the managed folders that are not ours: never touched.
    pub foreign: Vec<String>,
    /// The reference's files and folders in aw's places: moved aside.
    pub reference: Vec<ReferenceItem>,
    /// The reference's leftovers outside the host's folders (aw does not touch them):
    /// `(path relative to HOME, what it is and what to do)`.
    pub reference_outside: Vec<(String, &'static str)>,
    /// The settings file's hooks, when the host's hooks are merged into one.
    pub settings: Option<SettingsStep>,
    /// OpenCode's configuration with the reference's module declaration taken out.
    pub reference_config: Option<SettingsStep>,
    /// The folders this install creates, relative to HOME.
    pub created: Vec<String>,
    /// The records to write (what aw created, kept for uninstall).
    pub records: Vec<RecordStep>,
}

impl HostInstall {
    /// The paths where something that is not ours stands in the way.
    pub fn conflicts(&self) -> Vec<&str> {
        self.blocked
            .iter()
            .map(String::as_str)
            .chain(
                self.steps
                    .iter()
                    .filter(|s| s.action == Action::Conflict)
                    .map(|s| s.rel.as_str()),
            )
            .collect()
    }

    /// The planned files the person has edited since aw wrote them (kept unless `--force`).
    pub fn edited_files(&self) -> Vec<&str> {
        self.steps
            .iter()
            .filter(|s| s.action == Action::Edited)
            .map(|s| s.rel.as_str())
            .collect()
    }

    /// The skill folders (`<skills>/<name>`) that are someone else's skill: their `SKILL.md` is
    /// there and not aw's. `--force` moves each whole, so the person's skill stays whole
    /// (its references and scripts with it) instead of losing only its `SKILL.md`.
    pub fn foreign_skill_folders(&self) -> Vec<&str> {
        self.steps
            .iter()
            .filter(|s| s.action == Action::Conflict && s.present)
            .filter_map(|s| s.rel.strip_suffix("/SKILL.md"))
            .filter(|dir| dir.rsplit_once('/').map(|(p, _)| p) == Some(self.plan.host.skills_dir))
            .collect()
    }

    /// Whether the install would change nothing (a file the person edited is left as it is).
    pub fn is_noop(&self) -> bool {
        self.steps
            .iter()
            .all(|s| matches!(s.action, Action::Noop | Action::Edited))
            && self.blocked.is_empty()
            && self.stale.is_empty()
            && self.reference.is_empty()
            && self.records.is_empty()
            && self
                .settings
                .as_ref()
                .is_none_or(|s| s.merge.text.is_none())
            && self
                .reference_config
                .as_ref()
                .is_none_or(|s| s.merge.text.is_none())
    }
}

/// What uninstalling one host does.
#[derive(Debug, Clone)]
pub struct HostRemoval {
    /// The host's row.
    pub host: &'static Host,
    /// Files of ours to remove.
    pub remove: Vec<FoundFile>,
    /// Files of ours the person has edited since: kept.
    pub edited: Vec<String>,
    /// Files under the managed folders that are not ours: kept.
    pub foreign: Vec<String>,
    /// The settings file's hooks, when ours are to be taken out.
    pub settings: Option<SettingsStep>,
    /// Events of the settings file holding an edited hook of aw's: the person's, kept.
    pub hooks_edited_kept: Vec<String>,
    /// Whether the settings file goes whole: aw created it and nothing but an empty object is
    /// left once its hooks are out.
    pub settings_goes: bool,
    /// The managed folders (emptied ones are removed).
    pub managed: Vec<Managed>,
    /// The records of what aw created (their folders go once empty).
    pub records: Vec<RecordedFolders>,
}

/// The folder of `rel` (relative to HOME).
fn parent(rel: &str) -> &str {
    rel.rsplit_once('/').map_or("", |(d, _)| d)
}

/// Whether `rel` lies inside (or is) the folder `dir`.
fn within(rel: &str, dir: &str) -> bool {
    rel == dir || rel.strip_prefix(dir).is_some_and(|r| r.starts_with('/'))
}

/// The first entry on the way from the host's folder down to `rel`'s folder that is not a
/// folder (a file, a FIFO, a link to nothing): aw would need a folder there.
fn blocking_entry(snap: &mut Snapshot, host: &Host, rel: &str) -> Option<String> {
    let root = host.root_of(rel);
    let rest = rel.strip_prefix(root)?.trim_start_matches('/');
    let (dirs, _) = rest.rsplit_once('/')?;
    let mut cur = root.to_owned();
    for part in dirs.split('/') {
        cur = format!("{cur}/{part}");
        match snap.kind(&cur) {
            Kind::Absent => return None,
            _ if snap.is_dir(&cur) => {}
            _ => return Some(cur),
        }
    }
    None
}

/// The reference's items in the places this plan installs into.
fn find_reference(snap: &mut Snapshot, plan: &HostPlan) -> Vec<ReferenceItem> {
    let host = plan.host;
    let mut items = Vec::new();
    let installs = |prefix: &str| plan.files.iter().any(|f| f.rel.starts_with(prefix));
    for (name, kind) in snap.list(host.skills_dir) {
        let dir = format!("{}/{name}", host.skills_dir);
        let ours_here = name == "w" || name == "design" || name.starts_with("w-");
        if kind != Kind::Dir || !ours_here || !installs(&format!("{}/", host.skills_dir)) {
            continue;
        }
        // `w-<command>` skills are the reference's commands: replaced when aw's are written.
        if name.starts_with("w-") && !installs(&format!("{}/w-", host.skills_dir)) {
            continue;
        }
        let Found::File(skill) = snap.read(&format!("{dir}/SKILL.md")) else {
            continue;
        };
        let harness = snap.kind(&format!("{dir}/harness/HARNESS.md")) == Kind::File;
        if reference::is_reference_skill(&name, &skill, harness) {
            items.push(ReferenceItem {
                rel: dir,
                folder: true,
            });
        }
    }
    if let Some(c) = host.commands
        && installs(&format!("{}/", c.dir))
    {
        for (name, kind) in snap.list(c.dir) {
            let rel = format!("{}/{name}", c.dir);
            if kind != Kind::File {
                continue;
            }
            if let Found::File(text) = snap.read(&rel)
                && reference::is_reference_command(&name, &text)
            {
                items.push(ReferenceItem { rel, folder: false });
            }
        }
    }
    if matches!(plan.hooks, HookPlan::Module { .. })
        && let Found::File(text) = snap.read(reference::OPENCODE_MODULE)
        && reference::is_reference_module(&text)
    {
        items.push(ReferenceItem {
            rel: reference::OPENCODE_MODULE.to_owned(),
            folder: false,
        });
    }
    items
}

/// Where a reference item is kept aside: `<host folder>/.aw-backup-<epoch>/<its path there>`,
/// out of every folder the host reads skills, commands or plugins from.
pub fn reference_aside(host: &Host, rel: &str, epoch: u64) -> String {
    let root = host.root_of(rel);
    let inner = rel
        .strip_prefix(root)
        .unwrap_or(rel)
        .trim_start_matches('/');
    format!("{root}/.aw-backup-{epoch}/{inner}")
}

/// The reference's leftovers outside the host's folders that still hold its part.
fn find_outside(snap: &mut Snapshot, host: &Host) -> Vec<(String, &'static str)> {
    reference::outside(host)
        .iter()
        .filter(|(rel, _)| {
            let probe = reference::outside_probe(rel);
            matches!(snap.read(&probe), Found::File(t) if reference::outside_holds_reference(&probe, &t))
        })
        .map(|(rel, what)| ((*rel).to_owned(), *what))
        .collect()
}

/// Whether a folder is inside one of the managed folders (pruned when emptied, so it needs no
/// record).
fn in_managed(managed: &[Managed], dir: &str) -> bool {
    managed.iter().any(|m| match m {
        Managed::Tree(d) => within(dir, d),
        Managed::File(_) => false,
        Managed::Prefixed { dir: p, prefix } => dir
            .strip_prefix(&format!("{p}/"))
            .and_then(|r| r.split('/').next())
            .is_some_and(|first| first.starts_with(prefix)),
    })
}

/// The host folder whose record names `dir`: the root it lies in, or the root below it (a
/// folder above a root, like `.config` above `.config/opencode`).
fn record_root(host: &Host, dir: &str) -> &'static str {
    host.roots()
        .into_iter()
        .find(|r| within(dir, r) || within(r, dir))
        .unwrap_or(host.root)
}

/// The files and folders under the managed folders, sorted out: aw's as written (stale when
/// not planned), aw's edited by the person, and the rest.
struct Survey {
    ours: Vec<FoundFile>,
    edited: Vec<String>,
    foreign: Vec<String>,
}

fn survey(
    snap: &mut Snapshot,
    managed: &[Managed],
    skip: &[ReferenceItem],
    planned: &[PlannedFile],
) -> Survey {
    let mut files = Vec::new();
    for m in managed {
        match m {
            Managed::Tree(d) => {
                if snap.kind(d) == Kind::Dir {
                    files.extend(snap.walk(d));
                }
            }
            Managed::File(f) => {
                if snap.exists(f) {
                    files.push(f.clone());
                }
            }
            Managed::Prefixed { dir, prefix } => {
                for (name, kind) in snap.list(dir) {
                    if kind == Kind::Dir && name.starts_with(prefix) {
                        files.extend(snap.walk(&format!("{dir}/{name}")));
                    }
                }
            }
        }
    }
    let mut out = Survey {
        ours: Vec::new(),
        edited: Vec::new(),
        foreign: Vec::new(),
    };
    for rel in files {
        // A planned file is judged by the plan; the reference's by its own marks.
        if skip.iter().any(|r| within(&rel, &r.rel)) || planned.iter().any(|f| f.rel == rel) {
            continue;
        }
        let Found::File(text) = snap.read(&rel) else {
            out.foreign.push(rel);
            continue;
        };
        let sibling = snap.read(&format!("{}/SKILL.md", parent(&rel)));
        match stray(&rel, &text, Some(&sibling)) {
            Stray::Ours => out.ours.push(FoundFile { rel, text }),
            Stray::Edited => out.edited.push(rel),
            Stray::Foreign => out.foreign.push(rel),
        }
    }
    out
}

fn settings_step(
    snap: &mut Snapshot,
    host: &Host,
    program: &str,
    rel: &str,
    f: impl Fn(Option<&str>) -> Result<HookMerge, SettingsError>,
) -> Result<SettingsStep, InstallError> {
    let path = snap.home().join(rel);
    let text = settings_text(snap, host, rel)?;
    let merge = f(text.as_deref()).map_err(|error| InstallError::Settings {
        path: path.clone(),
        error,
    })?;
    let only_ours = text.as_deref().is_some_and(|t| only_aws(t, host, program));
    Ok(SettingsStep {
        rel: rel.to_owned(),
        before: text,
        merge,
        only_ours,
    })
}

/// OpenCode's configuration with the reference's module declaration taken out, when it holds
/// one.
fn undeclare_reference_module(snap: &mut Snapshot) -> Option<SettingsStep> {
    let Found::File(text) = snap.read(reference::OPENCODE_CONFIG) else {
        return None;
    };
    let module = snap.home().join(reference::OPENCODE_MODULE);
    let new_text = reference::undeclare_module(&text, &module.to_string_lossy())?;
    Some(SettingsStep {
        rel: reference::OPENCODE_CONFIG.to_owned(),
        before: Some(text),
        merge: HookMerge {
            text: Some(new_text),
            ..HookMerge::default()
        },
        only_ours: false,
    })
}

/// Reads what installing `plan` would find and change; `version` writes the records.
pub fn inspect_install(
    snap: &mut Snapshot,
    plan: HostPlan,
    version: &str,
) -> Result<HostInstall, InstallError> {
    let home = snap.home().to_path_buf();
    let host = plan.host;
    let mut roots: Vec<&str> = plan.files.iter().map(|f| host.root_of(&f.rel)).collect();
    if let HookPlan::Settings { rel, .. } = &plan.hooks {
        roots.push(host.root_of(rel));
    }
    roots.sort_unstable();
    roots.dedup();
    for root in &roots {
        check_root(&home, root)?;
    }
    let mut blocked: Vec<String> = Vec::new();
    for f in &plan.files {
        if let Some(b) = blocking_entry(snap, host, &f.rel)
            && !blocked.contains(&b)
        {
            blocked.push(b);
        }
    }
    let reference = find_reference(snap, &plan);
    let in_reference = |rel: &str| reference.iter().any(|r| within(rel, &r.rel));
    let mut steps = Vec::new();
    for f in &plan.files {
        let at = snap.read(&f.rel);
        let folder = match &f.owner {
            // The SKILL.md may be planned too: what counts is what is on disk now.
            Owner::Folder(skill) => Some(snap.read(skill)),
            Owner::Marked => None,
        };
        let action = if in_reference(&f.rel) {
            Action::Reference
        } else {
            decide(f, &at, folder.as_ref())
        };
        steps.push(FileStep {
            rel: f.rel.clone(),
            action,
            text: f.text.clone(),
            owner: f.owner.clone(),
            before: match &at {
                Found::File(t) => Some(t.clone()),
                _ => None,
            },
            present: at != Found::Absent,
        });
    }
    // A skill folder holding someone's files but no SKILL.md is theirs (capability spec §11):
    // aw's SKILL.md is not written into it.
    for step in &mut steps {
        let Some(dir) = step.rel.strip_suffix("/SKILL.md").map(str::to_owned) else {
            continue;
        };
        if parent(&dir) != host.skills_dir || step.action != Action::Create {
            continue;
        }
        let others = snap
            .walk(&dir)
            .into_iter()
            .filter(|rel| {
                let same = plan.files.iter().any(|f| {
                    f.rel == *rel
                        && matches!(snap.read(rel), Found::File(ref t) if same_but_digest(t, &f.text))
                });
                !same
            })
            .count();
        if folder_claimed(&Found::Absent, others) {
            step.action = Action::Conflict;
        }
    }
    let found = survey(snap, &plan.managed, &reference, &plan.files);
    let (stale, edited, foreign) = (found.ours, found.edited, found.foreign);
    let settings = match &plan.hooks {
        HookPlan::Settings { rel, groups } => {
            // The reference's hooks aw has no equivalent for stay while it still runs them.
            let reference_runs = on_path(aw_core::install::hooks::REFERENCE_PROGRAM).is_some();
            Some(settings_step(snap, host, &plan.program, rel, |t| {
                merge(t, host, &plan.program, groups, reference_runs)
            })?)
        }
        _ => None,
    };
    let reference_config = if reference
        .iter()
        .any(|r| r.rel == reference::OPENCODE_MODULE)
    {
        undeclare_reference_module(snap)
    } else {
        None
    };
    // The folders this install makes: every missing one on the way to a file it writes.
    let mut created: Vec<String> = Vec::new();
    let mut writes: Vec<&str> = steps
        .iter()
        .filter(|s| !matches!(s.action, Action::Noop | Action::Edited))
        .map(|s| s.rel.as_str())
        .collect();
    if let Some(st) = settings.as_ref().filter(|s| s.merge.text.is_some()) {
        writes.push(&st.rel);
    }
    for w in writes {
        let mut dir = parent(w);
        while !dir.is_empty() && !snap.exists(dir) {
            if !created.iter().any(|c| c == dir) {
                created.push(dir.to_owned());
            }
            dir = parent(dir);
        }
    }
    created.sort();
    let mut records = Vec::new();
    for root in host.roots() {
        let new = Record {
            folders: created
                .iter()
                .filter(|d| !in_managed(&plan.managed, d) && record_root(host, d) == root)
                .cloned()
                .collect(),
            files: settings
                .iter()
                .filter(|s| !s.existed() && s.merge.text.is_some() && host.root_of(&s.rel) == root)
                .map(|s| s.rel.clone())
                .collect(),
            backups: Vec::new(),
        };
        let rel = record::record_path(root);
        let before = match snap.read(&rel) {
            Found::File(t) => Some(t),
            _ => None,
        };
        let previous = before
            .as_deref()
            .and_then(record::parse)
            .unwrap_or_default();
        let all = previous.union(&new);
        if all.is_empty() || all == previous.union(&Record::default()) && before.is_some() {
            continue;
        }
        records.push(RecordStep {
            root: root.to_owned(),
            text: record::render(version, &all),
            before,
        });
    }
    let reference_outside = find_outside(snap, host);
    Ok(HostInstall {
        plan,
        steps,
        blocked,
        stale,
        edited,
        foreign,
        reference,
        reference_outside,
        settings,
        reference_config,
        created,
        records,
    })
}

/// Reads what uninstalling `plan`'s host would remove: every file of ours under the folders the
/// plan manages (not those the person edited), our hooks in its settings file (when the plan
/// has them), and the records of the folders aw created.
pub fn inspect_uninstall(
    snap: &mut Snapshot,
    plan: &HostPlan,
    with_hooks: bool,
) -> Result<HostRemoval, InstallError> {
    let host = plan.host;
    let found = survey(snap, &plan.managed, &[], &[]);
    let mut records = Vec::new();
    for root in host.roots() {
        if let Found::File(t) = snap.read(&record::record_path(root))
            && let Some(rec) = record::parse(&t)
        {
            records.push(RecordedFolders {
                root: root.to_owned(),
                record: rec,
            });
        }
    }
    let mut hooks_edited_kept = Vec::new();
    let (settings, settings_goes) = match (&host.hooks, with_hooks) {
        (HookArtifact::Settings(rel), true) => {
            let st = settings_step(snap, host, &plan.program, rel, |t| {
                remove(t, host, &plan.program)
            })?;
            let made_by_aw = records
                .iter()
                .any(|r| r.record.files.iter().any(|f| f == rel));
            // A link the person made to keep the file elsewhere stays: the emptied text is
            // written through it, and the file it leads to is never removed.
            let link = matches!(snap.kind(rel), Kind::Link);
            let goes = st.merge.emptied && made_by_aw && !link;
            hooks_edited_kept.clone_from(&st.merge.edited_kept);
            (Some(st).filter(|s| s.merge.text.is_some()), goes)
        }
        _ => (None, false),
    };
    Ok(HostRemoval {
        host,
        remove: found.ours,
        edited: found.edited,
        foreign: found.foreign,
        settings,
        hooks_edited_kept,
        settings_goes,
        managed: plan.managed.clone(),
        records,
    })
}

/// The steps of an install: the reference's items moved aside, conflicts and edited files moved
/// aside (only with `force`), files written, stale files removed, the settings file backed up
/// and then written, the records written last. `epoch` names the backups.
pub fn install_ops(hi: &HostInstall, force: bool, epoch: u64) -> Vec<Op> {
    let host = hi.plan.host;
    let mut ops = Vec::new();
    ops.extend(hi.reference.iter().map(|r| Op::MoveAside {
        rel: r.rel.clone(),
        to: reference_aside(host, &r.rel, epoch),
    }));
    if force {
        // A file where aw needs a folder goes first: the files under it are written after.
        ops.extend(hi.blocked.iter().map(|rel| Op::MoveAside {
            rel: rel.clone(),
            to: format!("{rel}.aw-backup-{epoch}"),
        }));
    }
    let folders: Vec<&str> = if force {
        hi.foreign_skill_folders()
    } else {
        Vec::new()
    };
    let in_moved = |rel: &str| folders.iter().any(|f| within(rel, f) && rel != *f);
    ops.extend(folders.iter().map(|f| Op::MoveAside {
        rel: (*f).to_owned(),
        to: format!("{f}.aw-backup-{epoch}"),
    }));
    for s in &hi.steps {
        let write = Op::Write {
            rel: s.rel.clone(),
            text: s.bytes(),
            before: None,
        };
        if in_moved(&s.rel) {
            // The folder went aside whole: every file of aw's is written into a new one.
            ops.push(write);
            continue;
        }
        match s.action {
            Action::Noop => {}
            Action::Conflict | Action::Edited if !force => {}
            Action::Conflict | Action::Edited => {
                // A claimed folder has nothing at the path itself: aw's file joins the
                // person's files there, which stay.
                if s.present {
                    ops.push(Op::MoveAside {
                        rel: s.rel.clone(),
                        to: format!("{}.aw-backup-{epoch}", s.rel),
                    });
                }
                ops.push(write);
            }
            // Moved aside with its folder, or on its own just before.
            Action::Reference => {
                ops.push(write);
            }
            Action::Create => ops.push(write),
            Action::Update => ops.push(Op::Write {
                rel: s.rel.clone(),
                text: s.bytes(),
                before: s.before.clone(),
            }),
        }
    }
    ops.extend(
        hi.stale
            .iter()
            .filter(|f| !in_moved(&f.rel))
            .map(|f| Op::Remove {
                rel: f.rel.clone(),
                before: f.text.clone(),
            }),
    );
    for st in [&hi.settings, &hi.reference_config].into_iter().flatten() {
        ops.extend(settings_ops(st, epoch));
    }
    ops.extend(hi.records.iter().map(|r| Op::Write {
        rel: record::record_path(&r.root),
        text: seal(&r.text),
        before: r.before.clone(),
    }));
    ops
}

fn settings_ops(st: &SettingsStep, epoch: u64) -> Vec<Op> {
    let Some(text) = &st.merge.text else {
        return Vec::new();
    };
    let mut ops = Vec::new();
    // A backup keeps what was the person's; a file holding only aw's entries has none.
    if let Some(before) = st.before.as_ref().filter(|_| !st.only_ours) {
        ops.push(Op::Backup {
            rel: st.rel.clone(),
            to: format!("{}.bak.{epoch}", st.rel),
            bytes: before.clone(),
        });
    }
    ops.push(Op::Write {
        rel: st.rel.clone(),
        text: text.clone(),
        before: st.before.clone(),
    });
    ops
}

/// The steps of an uninstall: files of ours removed, then the settings file backed up and
/// rewritten without our hooks (or removed, when aw created it and nothing else is left).
pub fn uninstall_ops(r: &HostRemoval, epoch: u64) -> Vec<Op> {
    let mut ops: Vec<Op> = r
        .remove
        .iter()
        .map(|f| Op::Remove {
            rel: f.rel.clone(),
            before: f.text.clone(),
        })
        .collect();
    if let Some(st) = &r.settings {
        match (&st.before, r.settings_goes) {
            (Some(before), true) => ops.push(Op::Remove {
                rel: st.rel.clone(),
                before: before.clone(),
            }),
            _ => ops.extend(settings_ops(st, epoch)),
        }
    }
    ops
}

/// The marker version of the `w` skill installed on `host`, when one of ours is there.
pub fn installed_version(snap: &mut Snapshot, host: &Host) -> Option<String> {
    match snap.read(&format!("{}/w/SKILL.md", host.skills_dir)) {
        Found::File(t) => aw_core::install::marker::marker_version(&t),
        _ => None,
    }
}

/// Whether one of the host's own folders is under HOME (the host is installed there).
pub fn host_present(snap: &mut Snapshot, host: &Host) -> bool {
    host.roots().iter().any(|r| snap.is_dir(r))
}

/// What kind of entry `meta` is, for a message.
fn kind(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    if meta.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

/// The text of the settings file `rel`, read without ever opening anything but a regular file
/// (a FIFO would block): absent → `None`; a regular file is the snapshot's (read once); a
/// symbolic link whose target is a regular file inside the host's folder (a dotfiles layout)
/// is followed, and the target is what gets rewritten; a link that leads out of the host's
/// folder, or anything that is not a file, is refused. Bytes that are not UTF-8 could not be
/// written back as they were: refused too.
fn settings_text(
    snap: &mut Snapshot,
    host: &Host,
    rel: &str,
) -> Result<Option<String>, InstallError> {
    let home = snap.home().to_path_buf();
    let path = home.join(rel);
    let not_utf8 = |path: PathBuf| InstallError::Settings {
        path,
        error: SettingsError::NotJson("it is not UTF-8 text".to_owned()),
    };
    match snap.kind(rel) {
        Kind::Absent => return Ok(None),
        Kind::File => {
            return match snap.read(rel) {
                Found::File(_) if snap.was_lossy(rel) => Err(not_utf8(path)),
                Found::File(t) => Ok(Some(t)),
                Found::Absent => Ok(None),
                Found::Other => Err(InstallError::Unsafe {
                    path,
                    why: "it is not a regular file".to_owned(),
                    action: "Move it away (aw then creates the file), or install with --no-hooks."
                        .to_owned(),
                }),
            };
        }
        _ => {}
    }
    let Ok(meta) = std::fs::symlink_metadata(&path) else {
        return Ok(None);
    };
    let root = home.join(host.root_of(rel));
    let not_a_file = |why: String| InstallError::Unsafe {
        path: path.clone(),
        why,
        action: "Move it away (aw then creates the file), or install with --no-hooks.".to_owned(),
    };
    if meta.file_type().is_symlink() {
        let canon_root = root.canonicalize().unwrap_or_else(|_| root.clone());
        let Ok(real) = path.canonicalize() else {
            return Err(not_a_file(
                "it is a symbolic link that leads nowhere".to_owned(),
            ));
        };
        if !real.starts_with(&canon_root) {
            return Err(InstallError::Unsafe {
                why: format!(
                    "it is a symbolic link to {}, outside {}, and aw writes no file through a link that leads out of the host's folder",
                    real.display(),
                    root.display()
                ),
                action: "Replace the link with the file itself (or link the whole host folder instead), or install with --no-hooks.".to_owned(),
                path,
            });
        }
        let target =
            std::fs::metadata(&real).map_err(|e| WorkspaceError::io("could not read", &real, e))?;
        if !target.is_file() {
            return Err(not_a_file(format!(
                "it is a symbolic link to {}, which is {}",
                real.display(),
                kind(&target)
            )));
        }
    } else if !meta.is_file() {
        return Err(not_a_file(format!(
            "it is {}, not a settings file",
            kind(&meta)
        )));
    }
    let bytes = std::fs::read(&path).map_err(|e| WorkspaceError::io("could not read", &path, e))?;
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| not_utf8(path.clone()))
}

/// Checks, before anything is written, that a host folder (relative to HOME) the plan writes
/// under is a folder, or can be created: missing, with only real folders (or links that stay
/// under HOME) on the way. The same answer for a dry run and a real one.
fn check_root(home: &Path, rel: &str) -> Result<(), InstallError> {
    let path = home.join(rel);
    if path.is_dir() {
        return Ok(());
    }
    if std::fs::symlink_metadata(&path).is_ok() {
        return Err(not_a_folder(path));
    }
    let canon_home = home.canonicalize().unwrap_or_else(|_| home.to_path_buf());
    let mut cur = home.to_path_buf();
    for part in rel.split('/').filter(|p| !p.is_empty()) {
        cur.push(part);
        let Ok(meta) = std::fs::symlink_metadata(&cur) else {
            break;
        };
        if meta.file_type().is_symlink()
            && !cur
                .canonicalize()
                .is_ok_and(|real| real.starts_with(&canon_home))
        {
            return Err(InstallError::Unsafe {
                why: format!(
                    "it is a symbolic link that leads out of HOME, and aw creates no folder through one ({} is missing)",
                    path.display()
                ),
                action: format!(
                    "Create {} yourself (aw writes into an existing host folder, wherever it is), or install this host with --no-hooks.",
                    path.display()
                ),
                path: cur,
            });
        }
        if !cur.is_dir() {
            return Err(not_a_folder(cur));
        }
    }
    Ok(())
}

/// The first executable file named `name` in the folders of `PATH`.
pub fn on_path(name: &str) -> Option<PathBuf> {
    every_on_path(name).into_iter().next()
}

/// Every executable file named `name` in the folders of `PATH`, in `PATH`'s order (a relative
/// folder left out: where it leads depends on the current folder).
pub fn every_on_path(name: &str) -> Vec<PathBuf> {
    let Some(path) = std::env::var_os("PATH") else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = Vec::new();
    for d in std::env::split_paths(&path).filter(|d| d.is_absolute()) {
        let p = d.join(name);
        if is_executable(&p) && !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

fn is_executable(p: &Path) -> bool {
    let Ok(m) = std::fs::metadata(p) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        m.is_file() && m.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        m.is_file()
    }
}

/// Whether the program a hook names can run: an executable file (`aw` alone: one on `PATH`).
pub fn program_runs(program: &str) -> bool {
    if program.starts_with('/') {
        is_executable(Path::new(program))
    } else {
        on_path(program).is_some()
    }
}

/// The path the hooks of an install name for the running aw: the entry of `PATH` that leads to
/// this very binary when there is one (`~/.cargo/bin/aw`, a package manager's link: the name
/// stays right across upgrades that replace what it leads to), else the binary's own path.
pub fn program_path() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let real = exe.canonicalize().unwrap_or_else(|_| exe.clone());
    let name = exe.file_name()?.to_string_lossy().into_owned();
    every_on_path(&name)
        .into_iter()
        .find(|p| p.canonicalize().is_ok_and(|c| c == real))
        .or(Some(exe))
}

/// Which program an `aw` on `PATH` is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Program {
    /// The aw running now.
    This,
    /// The reference (Workline), which installs a Node.js program also named `aw`.
    Reference,
    /// Another native program: another aw build, or something else of that name.
    OtherNative,
    /// A script or anything else.
    Other,
}

impl Program {
    /// The wire word.
    pub fn as_str(self) -> &'static str {
        match self {
            Program::This => "this-aw",
            Program::Reference => "reference",
            Program::OtherNative => "other-native",
            Program::Other => "other",
        }
    }
}

/// Which program the executable at `path` is: this aw (the same file), the reference (its
/// package's script, or any Node.js script), another native program, or something else. Only
/// the file's first bytes are read; nothing is run.
pub fn which_program(path: &Path) -> Program {
    let real = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let this = std::env::current_exe()
        .ok()
        .and_then(|e| e.canonicalize().ok());
    if this.as_deref() == Some(real.as_path()) {
        return Program::This;
    }
    if real.to_string_lossy().contains("agent-workflow-cli") {
        return Program::Reference;
    }
    let mut head = [0u8; 256];
    let n = std::fs::File::open(&real)
        .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
        .unwrap_or(0);
    let head = &head[..n];
    if head.starts_with(b"#!") {
        let first = head.split(|b| *b == b'\n').next().unwrap_or_default();
        if String::from_utf8_lossy(first).contains("node") {
            return Program::Reference;
        }
        return Program::Other;
    }
    let native: [&[u8]; 6] = [
        b"\x7fELF",
        b"\xcf\xfa\xed\xfe",
        b"\xce\xfa\xed\xfe",
        b"\xca\xfe\xba\xbe",
        b"\xfe\xed\xfa\xcf",
        b"MZ",
    ];
    if native.iter().any(|m| head.starts_with(m)) {
        Program::OtherNative
    } else {
        Program::Other
    }
}

/// What aw's hooks on `host` hold, as installed: aw's handlers with the program each runs, and
/// the reference's entries beside them (Claude Code's settings; Codex's generated plugin;
/// OpenCode's module, whose one hook is the branch check). `None` when the host has none.
pub fn hook_survey(
    snap: &mut Snapshot,
    host: &Host,
    program: &str,
) -> Option<aw_core::install::hooks::HookSurvey> {
    use aw_core::install::hooks::{HookSurvey, survey};
    match host.hooks {
        HookArtifact::Settings(rel) => match snap.read(rel) {
            Found::File(t) => survey(&t, host, program).ok(),
            _ => None,
        },
        HookArtifact::Plugin(dir) => match snap.read(&format!("{dir}/hooks/hooks.json")) {
            Found::File(t) if aw_core::install::marker::is_marked(&t) => {
                survey(&t, host, program).ok()
            }
            _ => None,
        },
        HookArtifact::Module { path, .. } => {
            let Found::File(t) = snap.read(path) else {
                return None;
            };
            let program = aw_core::install::render::opencode_plugin_program(&t)?;
            let mut s = HookSurvey::default();
            s.ours.push(("PreToolUse".to_owned(), program));
            if matches!(snap.read(reference::OPENCODE_MODULE), Found::File(r) if reference::is_reference_module(&r))
            {
                // Its module runs the branch check too.
                s.reference.push("PreToolUse".to_owned());
                s.reference_doubled.push("PreToolUse".to_owned());
            }
            Some(s)
        }
        HookArtifact::Unsupported(_) => None,
    }
}
