//! `aw self install | uninstall | doctor`'s disk: what is at each path a host plan names (read
//! without following a final link, never waiting on a FIFO), the files of ours and of others
//! under the folders aw manages, a settings file's hooks merged by aw-core, and the steps carried
//! out as one transaction over every host: every path checked first (nothing outside the host's
//! own folder under HOME, never through a link that leads out of it), each file replaced
//! atomically, and everything done so far (folders created included) undone when a step fails.

use crate::atomic;
use crate::containment::{entry_target, write_target};
use crate::error::WorkspaceError;
use aw_core::install::hooks::{HookMerge, groups_for, merge, remove};
use aw_core::install::host::Host;
use aw_core::install::plan::{
    Action, Found, HookPlan, HostPlan, Managed, Owner, decide, folder_claimed, stray_is_ours,
};
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
    /// Created, updated, unchanged or in conflict.
    pub action: Action,
    /// The text to write.
    pub text: String,
    /// Whether something is at the path now.
    pub present: bool,
}

/// A settings file's hooks, merged or removed.
#[derive(Debug, Clone)]
pub struct SettingsStep {
    /// The file, relative to HOME.
    pub rel: String,
    /// Whether it existed (a backup is written before it changes).
    pub existed: bool,
    /// What the merge does.
    pub merge: HookMerge,
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
    pub stale: Vec<String>,
    /// Files under the managed folders that are not ours: never touched.
    pub foreign: Vec<String>,
    /// The settings file's hooks, when the host's hooks are merged into one.
    pub settings: Option<SettingsStep>,
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

    /// Whether the install would change nothing.
    pub fn is_noop(&self) -> bool {
        self.steps.iter().all(|s| s.action == Action::Noop)
            && self.blocked.is_empty()
            && self.stale.is_empty()
            && self
                .settings
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
    pub remove: Vec<String>,
    /// Files under the managed folders that are not ours: kept.
    pub foreign: Vec<String>,
    /// The settings file's hooks, when ours are to be taken out.
    pub settings: Option<SettingsStep>,
    /// The managed folders (emptied ones are removed).
    pub managed: Vec<Managed>,
}

fn found(path: &Path) -> Found {
    match std::fs::symlink_metadata(path) {
        Err(_) => Found::Absent,
        Ok(m) if m.is_file() => match std::fs::read(path) {
            Ok(bytes) => Found::File(String::from_utf8_lossy(&bytes).into_owned()),
            Err(_) => Found::Other,
        },
        Ok(_) => Found::Other,
    }
}

/// Every regular file under `dir` (relative to HOME), folders walked without following a link;
/// a link or other entry is listed too (it is never ours).
fn walk(home: &Path, rel: &str, out: &mut Vec<String>) {
    let Ok(list) = std::fs::read_dir(home.join(rel)) else {
        return;
    };
    let mut names: Vec<String> = list
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| !n.starts_with(atomic::TEMP_PREFIX))
        .collect();
    names.sort();
    for name in names {
        let child = format!("{rel}/{name}");
        match std::fs::symlink_metadata(home.join(&child)) {
            Ok(m) if m.is_dir() => walk(home, &child, out),
            Ok(_) => out.push(child),
            Err(_) => {}
        }
    }
}

/// The real folders a managed entry names (a linked folder is not walked).
fn managed_dirs(home: &Path, managed: &[Managed]) -> Vec<String> {
    let mut dirs = Vec::new();
    for m in managed {
        match m {
            Managed::Tree(d) => dirs.push(d.clone()),
            Managed::File(_) => {}
            Managed::Prefixed { dir, prefix } => {
                let Ok(list) = std::fs::read_dir(home.join(dir)) else {
                    continue;
                };
                let mut names: Vec<String> = list
                    .filter_map(|e| e.ok())
                    .filter_map(|e| e.file_name().into_string().ok())
                    .filter(|n| n.starts_with(prefix))
                    .collect();
                names.sort();
                dirs.extend(names.into_iter().map(|n| format!("{dir}/{n}")));
            }
        }
    }
    dirs.retain(|d| std::fs::symlink_metadata(home.join(d)).is_ok_and(|m| m.is_dir()));
    dirs
}

fn sibling_skill(home: &Path, rel: &str) -> Found {
    let dir = rel.rsplit_once('/').map_or("", |(d, _)| d);
    found(&home.join(format!("{dir}/SKILL.md")))
}

/// The files under the managed folders, split into ours and others'.
fn survey(home: &Path, managed: &[Managed]) -> (Vec<String>, Vec<String>) {
    let mut files = Vec::new();
    for d in managed_dirs(home, managed) {
        walk(home, &d, &mut files);
    }
    for m in managed {
        if let Managed::File(f) = m
            && std::fs::symlink_metadata(home.join(f)).is_ok()
        {
            files.push(f.clone());
        }
    }
    let (mut ours, mut foreign) = (Vec::new(), Vec::new());
    for rel in files {
        let is_ours = match found(&home.join(&rel)) {
            Found::File(text) => stray_is_ours(&rel, &text, Some(&sibling_skill(home, &rel))),
            _ => false,
        };
        if is_ours {
            ours.push(rel)
        } else {
            foreign.push(rel)
        }
    }
    (ours, foreign)
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
/// (a FIFO would block): absent → `None`; a symbolic link whose target is a regular file inside
/// the host's folder (a dotfiles layout) is followed, and the target is what gets rewritten;
/// a link that leads out of the host's folder, or anything that is not a file, is refused.
fn settings_text(home: &Path, host: &Host, rel: &str) -> Result<Option<String>, InstallError> {
    let path = home.join(rel);
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
    Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
}

fn settings_step(
    home: &Path,
    host: &Host,
    rel: &str,
    f: impl Fn(Option<&str>) -> Result<HookMerge, SettingsError>,
) -> Result<SettingsStep, InstallError> {
    let path = home.join(rel);
    let text = settings_text(home, host, rel)?;
    let merge = f(text.as_deref()).map_err(|error| InstallError::Settings {
        path: path.clone(),
        error,
    })?;
    Ok(SettingsStep {
        rel: rel.to_owned(),
        existed: text.is_some(),
        merge,
    })
}

/// The first entry on the way from the host's folder down to `rel`'s folder that is not a
/// folder (a file, a FIFO, a link to nothing): aw would need a folder there.
fn blocking_entry(home: &Path, host: &Host, rel: &str) -> Option<String> {
    let root = host.root_of(rel);
    let rest = rel.strip_prefix(root)?.trim_start_matches('/');
    let (dirs, _) = rest.rsplit_once('/')?;
    let mut cur = root.to_owned();
    for part in dirs.split('/') {
        cur = format!("{cur}/{part}");
        let path = home.join(&cur);
        match std::fs::symlink_metadata(&path) {
            Err(_) => return None,
            Ok(_) if path.is_dir() => {}
            Ok(_) => return Some(cur),
        }
    }
    None
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

/// Reads what installing `plan` under `home` would find and change.
pub fn inspect_install(home: &Path, plan: HostPlan) -> Result<HostInstall, InstallError> {
    let mut roots: Vec<&str> = plan
        .files
        .iter()
        .map(|f| plan.host.root_of(&f.rel))
        .collect();
    if let HookPlan::Settings { rel, .. } = &plan.hooks {
        roots.push(plan.host.root_of(rel));
    }
    roots.dedup();
    for root in roots {
        check_root(home, root)?;
    }
    let mut blocked: Vec<String> = Vec::new();
    for f in &plan.files {
        if let Some(b) = blocking_entry(home, plan.host, &f.rel)
            && !blocked.contains(&b)
        {
            blocked.push(b);
        }
    }
    let mut steps = Vec::new();
    for f in &plan.files {
        let at = found(&home.join(&f.rel));
        let folder = match &f.owner {
            Owner::Folder(skill) => {
                // The SKILL.md may be planned too: what counts is what is on disk now.
                Some(found(&home.join(skill)))
            }
            Owner::Marked => None,
        };
        steps.push(FileStep {
            rel: f.rel.clone(),
            action: decide(f, &at, folder.as_ref()),
            text: f.text.clone(),
            present: at != Found::Absent,
        });
    }
    // A skill folder holding someone's files but no SKILL.md is theirs (capability spec §11):
    // aw's SKILL.md is not written into it.
    for s in steps.iter_mut() {
        let Some(dir) = s.rel.strip_suffix("/SKILL.md") else {
            continue;
        };
        if dir.rsplit_once('/').map(|(p, _)| p) != Some(plan.host.skills_dir) {
            continue;
        }
        let mut inside = Vec::new();
        walk(home, dir, &mut inside);
        let others = inside
            .iter()
            .filter(|rel| {
                let same = plan.files.iter().any(|f| {
                    &f.rel == *rel
                        && matches!(found(&home.join(rel)), Found::File(ref t) if *t == f.text)
                });
                !same
            })
            .count();
        if s.action == Action::Create && folder_claimed(&Found::Absent, others) {
            s.action = Action::Conflict;
        }
    }
    let (ours, foreign) = survey(home, &plan.managed);
    let planned: Vec<&str> = plan.files.iter().map(|f| f.rel.as_str()).collect();
    let stale = ours
        .into_iter()
        .filter(|r| !planned.contains(&r.as_str()))
        .collect();
    let foreign = foreign
        .into_iter()
        .filter(|r| !planned.contains(&r.as_str()))
        .collect();
    let settings = match &plan.hooks {
        HookPlan::Settings { rel, groups } => {
            Some(settings_step(home, plan.host, rel, |t| merge(t, groups))?)
        }
        _ => None,
    };
    Ok(HostInstall {
        plan,
        steps,
        blocked,
        stale,
        foreign,
        settings,
    })
}

/// Reads what uninstalling `plan`'s host would remove: every file of ours under the folders the
/// plan manages, and (when the plan has them) our hooks in its settings file.
pub fn inspect_uninstall(
    home: &Path,
    plan: &HostPlan,
    with_hooks: bool,
) -> Result<HostRemoval, InstallError> {
    let (remove_files, foreign) = survey(home, &plan.managed);
    let settings = match (&plan.host.hooks, with_hooks) {
        (aw_core::install::host::HookArtifact::Settings(rel), true) => {
            let groups = groups_for(plan.host);
            Some(settings_step(home, plan.host, rel, |t| remove(t, &groups))?)
                .filter(|s| s.merge.text.is_some())
        }
        _ => None,
    };
    Ok(HostRemoval {
        host: plan.host,
        remove: remove_files,
        foreign,
        settings,
        managed: plan.managed.clone(),
    })
}

/// One step of a transaction, paths relative to HOME.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op {
    /// Write the file (replacing ours).
    Write {
        /// The file.
        rel: String,
        /// Its text.
        text: String,
    },
    /// Remove a file of ours.
    Remove {
        /// The file.
        rel: String,
    },
    /// Move an entry that is not ours out of the way, to `to` beside it (`--force`).
    MoveAside {
        /// The entry.
        rel: String,
        /// Where it goes.
        to: String,
    },
    /// Copy a file to a new backup file.
    Backup {
        /// The file.
        rel: String,
        /// The backup.
        to: String,
    },
}

impl Op {
    /// The paths the step touches.
    fn paths(&self) -> Vec<&str> {
        match self {
            Op::Write { rel, .. } | Op::Remove { rel } => vec![rel],
            Op::MoveAside { rel, to } | Op::Backup { rel, to } => vec![rel, to],
        }
    }
}

/// The steps of an install: conflicts moved aside (only with `force`), files written, stale
/// files removed, the settings file backed up and then written. `epoch` names the backups.
pub fn install_ops(hi: &HostInstall, force: bool, epoch: u64) -> Vec<Op> {
    let mut ops = Vec::new();
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
    let in_moved = |rel: &str| {
        folders
            .iter()
            .any(|f| rel.strip_prefix(f).is_some_and(|r| r.starts_with('/')))
    };
    ops.extend(folders.iter().map(|f| Op::MoveAside {
        rel: (*f).to_owned(),
        to: format!("{f}.aw-backup-{epoch}"),
    }));
    for s in &hi.steps {
        if in_moved(&s.rel) {
            // The folder went aside whole: every file of aw's is written into a new one.
            ops.push(Op::Write {
                rel: s.rel.clone(),
                text: s.text.clone(),
            });
            continue;
        }
        match s.action {
            Action::Noop => {}
            Action::Conflict if !force => {}
            Action::Conflict => {
                // A claimed folder has nothing at the path itself: aw's file joins the
                // person's files there, which stay.
                if s.present {
                    ops.push(Op::MoveAside {
                        rel: s.rel.clone(),
                        to: format!("{}.aw-backup-{epoch}", s.rel),
                    });
                }
                ops.push(Op::Write {
                    rel: s.rel.clone(),
                    text: s.text.clone(),
                });
            }
            Action::Create | Action::Update => ops.push(Op::Write {
                rel: s.rel.clone(),
                text: s.text.clone(),
            }),
        }
    }
    ops.extend(
        hi.stale
            .iter()
            .filter(|rel| !in_moved(rel))
            .map(|rel| Op::Remove { rel: rel.clone() }),
    );
    if let Some(st) = &hi.settings {
        ops.extend(settings_ops(st, epoch));
    }
    ops
}

fn settings_ops(st: &SettingsStep, epoch: u64) -> Vec<Op> {
    let Some(text) = &st.merge.text else {
        return Vec::new();
    };
    let mut ops = Vec::new();
    if st.existed {
        ops.push(Op::Backup {
            rel: st.rel.clone(),
            to: format!("{}.bak.{epoch}", st.rel),
        });
    }
    ops.push(Op::Write {
        rel: st.rel.clone(),
        text: text.clone(),
    });
    ops
}

/// The steps of an uninstall: files of ours removed, then the settings file backed up and
/// rewritten without our hooks.
pub fn uninstall_ops(r: &HostRemoval, epoch: u64) -> Vec<Op> {
    let mut ops: Vec<Op> = r
        .remove
        .iter()
        .map(|rel| Op::Remove { rel: rel.clone() })
        .collect();
    if let Some(st) = &r.settings {
        ops.extend(settings_ops(st, epoch));
    }
    ops
}

/// The host folder `rel` (relative to HOME), the root a step's writes must stay under: created
/// when missing, and the folders created then are journaled, so a failure removes them again
/// (an uninstall, which only removes, never gets here for a missing folder). A link to a folder
/// elsewhere is the person's choice and followed.
fn ensure_root(
    home: &Path,
    rel: &str,
    journal: &mut Vec<(PathBuf, Undo)>,
) -> Result<PathBuf, InstallError> {
    let root = home.join(rel);
    if root.is_dir() {
        return Ok(root);
    }
    check_root(home, rel)?;
    let missing: Vec<PathBuf> = root
        .ancestors()
        .take_while(|a| a.starts_with(home) && *a != home && std::fs::symlink_metadata(a).is_err())
        .map(Path::to_path_buf)
        .collect();
    atomic::create_dir_all(home, &root)?;
    journal.push((home.to_path_buf(), Undo::RemoveDirs(missing)));
    Ok(root)
}

/// Checks every path of `ops` against the host's folder before anything is written: a link on
/// the way that leads out of it refuses the whole host.
pub fn check_ops(home: &Path, host: &Host, ops: &[Op]) -> Result<(), InstallError> {
    for op in ops {
        for rel in op.paths() {
            let root = home.join(host.root_of(rel));
            if !root.exists() {
                // Nothing exists under it yet, so no link can lead anywhere.
                continue;
            }
            let path = home.join(rel);
            if let Err(e) = write_target(&root, &path) {
                return Err(InstallError::Unsafe {
                    path,
                    why: match e {
                        WorkspaceError::Refused { .. } => {
                            format!("a symbolic link on the way leads out of {}", root.display())
                        }
                        other => other.to_string(),
                    },
                    action: REPLACE_LINK.to_owned(),
                });
            }
        }
    }
    Ok(())
}

/// How to undo one step that was carried out.
enum Undo {
    Restore(PathBuf, Vec<u8>),
    Delete(PathBuf),
    MoveBack(PathBuf, PathBuf),
    /// Folders the step created, deepest first.
    RemoveDirs(Vec<PathBuf>),
}

/// One host's part of a transaction.
#[derive(Debug, Clone, Copy)]
pub struct HostOps<'a> {
    /// The host's row.
    pub host: &'static Host,
    /// Its steps, in order.
    pub ops: &'a [Op],
    /// Its managed folders (emptied ones are removed).
    pub managed: &'a [Managed],
}

/// Carries out the steps of every host, in order, as one transaction: every path is checked
/// first; when a step fails, every step already done, on every host, is undone (in reverse,
/// the folders it created included) and the failure returned, so `--target all` never leaves
/// some hosts installed and others not. Folders emptied by a removal are removed, as long as
/// they lie in a managed folder (the managed folder included, never its parent).
pub fn apply(home: &Path, hosts: &[HostOps<'_>]) -> Result<(), InstallError> {
    for h in hosts {
        check_ops(home, h.host, h.ops)?;
    }
    let mut journal: Vec<(PathBuf, Undo)> = Vec::new();
    let mut emptied: Vec<Vec<PathBuf>> = Vec::new();
    if let Err(e) = run_all(home, hosts, &mut journal, &mut emptied) {
        for (root, undo) in journal.into_iter().rev() {
            let _ = match undo {
                Undo::Restore(p, bytes) => atomic::write(&root, &p, &bytes),
                Undo::Delete(p) => atomic::remove_file(&root, &p).map(|_| ()),
                Undo::MoveBack(from, to) => std::fs::rename(&from, &to)
                    .map_err(|e| WorkspaceError::io("could not move back", &from, e)),
                Undo::RemoveDirs(dirs) => {
                    for d in dirs {
                        let _ = atomic::remove_empty_dir(&root, &d);
                    }
                    Ok(())
                }
            };
        }
        return Err(e);
    }
    for (h, dirs) in hosts.iter().zip(emptied) {
        prune(home, h.host, h.managed, dirs);
    }
    Ok(())
}

fn run_all(
    home: &Path,
    hosts: &[HostOps<'_>],
    journal: &mut Vec<(PathBuf, Undo)>,
    emptied: &mut Vec<Vec<PathBuf>>,
) -> Result<(), InstallError> {
    for h in hosts {
        let mut dirs = Vec::new();
        for op in h.ops {
            let root = ensure_root(home, h.host.root_of(op.paths()[0]), journal)?;
            let mut undo = Vec::new();
            let r = step(&root, home, op, &mut undo, &mut dirs);
            journal.extend(undo.into_iter().map(|u| (root.clone(), u)));
            r?;
        }
        emptied.push(dirs);
    }
    Ok(())
}

fn step(
    root: &Path,
    home: &Path,
    op: &Op,
    journal: &mut Vec<Undo>,
    emptied: &mut Vec<PathBuf>,
) -> Result<(), InstallError> {
    match op {
        Op::Write { rel, text } => {
            let path = home.join(rel);
            // A settings file linked inside the host's folder is written through, so what is
            // restored on failure is its target's bytes, never the link removed.
            let before = match std::fs::metadata(&path) {
                Ok(m) if m.is_file() => std::fs::read(&path).ok(),
                _ => None,
            };
            if let Some(parent) = path.parent() {
                let missing: Vec<PathBuf> = parent
                    .ancestors()
                    .take_while(|a| a.starts_with(home) && std::fs::symlink_metadata(a).is_err())
                    .map(Path::to_path_buf)
                    .collect();
                atomic::create_dir_all(root, parent)?;
                if !missing.is_empty() {
                    journal.push(Undo::RemoveDirs(missing));
                }
            }
            atomic::write(root, &path, text.as_bytes())?;
            journal.push(match before {
                Some(bytes) => Undo::Restore(path, bytes),
                None => Undo::Delete(path),
            });
        }
        Op::Remove { rel } => {
            let path = home.join(rel);
            let before =
                std::fs::read(&path).map_err(|e| WorkspaceError::io("could not read", &path, e))?;
            atomic::remove_file(root, &path)?;
            journal.push(Undo::Restore(path.clone(), before));
            if let Some(parent) = path.parent() {
                emptied.push(parent.to_path_buf());
            }
        }
        Op::MoveAside { rel, to } => {
            let (from, to) = (
                entry_target(root, &home.join(rel))?,
                entry_target(root, &home.join(to))?,
            );
            let mut to = to;
            let base = to.clone();
            let mut n = 0;
            while std::fs::symlink_metadata(&to).is_ok() {
                n += 1;
                to = PathBuf::from(format!("{}.{n}", base.display()));
            }
            std::fs::rename(&from, &to)
                .map_err(|e| WorkspaceError::io("could not move aside", &from, e))?;
            journal.push(Undo::MoveBack(to, from));
        }
        Op::Backup { rel, to } => {
            let from = home.join(rel);
            let bytes =
                std::fs::read(&from).map_err(|e| WorkspaceError::io("could not read", &from, e))?;
            // The backup holds what the source holds (a settings file may hold tokens): it gets
            // the source's permission bits from its creation on, never the umask's wider ones.
            let mode = std::fs::metadata(&from)
                .map_err(|e| WorkspaceError::io("could not read", &from, e))?
                .permissions();
            // Two runs within one second name the same backup: the later one takes a suffix,
            // and no backup is ever overwritten.
            for n in 0.. {
                let name = if n == 0 {
                    to.clone()
                } else {
                    format!("{to}.{n}")
                };
                let path = home.join(name);
                if atomic::create_new_as(root, &path, &bytes, mode.clone())? {
                    journal.push(Undo::Delete(path));
                    break;
                }
            }
        }
    }
    Ok(())
}

/// Removes the folders left empty by removals, walking up while they are empty and inside a
/// managed folder: the host's own `skills/` or `commands/` folder always stays.
fn prune(home: &Path, host: &Host, managed: &[Managed], mut dirs: Vec<PathBuf>) {
    let removable = |dir: &Path| {
        managed.iter().any(|m| match m {
            Managed::Tree(d) => dir.starts_with(home.join(d)),
            Managed::File(_) => false,
            Managed::Prefixed {
                dir: parent,
                prefix,
            } => dir
                .strip_prefix(home.join(parent))
                .ok()
                .and_then(|rest| rest.components().next())
                .is_some_and(|first| first.as_os_str().to_string_lossy().starts_with(prefix)),
        })
    };
    dirs.sort();
    dirs.dedup();
    for mut dir in dirs.into_iter().rev() {
        let rel = dir
            .strip_prefix(home)
            .map(|r| r.to_string_lossy().into_owned())
            .unwrap_or_default();
        let root = home.join(host.root_of(&rel));
        while removable(&dir) {
            let empty = std::fs::read_dir(&dir).is_ok_and(|mut e| e.next().is_none());
            if !empty || atomic::remove_empty_dir(&root, &dir).is_err() {
                break;
            }
            let Some(parent) = dir.parent() else { break };
            dir = parent.to_path_buf();
        }
    }
}

/// The marker version of the `w` skill installed on `host`, when one of ours is there.
pub fn installed_version(home: &Path, host: &Host) -> Option<String> {
    match found(&home.join(format!("{}/w/SKILL.md", host.skills_dir))) {
        Found::File(t) => aw_core::install::marker::marker_version(&t),
        _ => None,
    }
}

/// Whether one of the host's own folders is under HOME (the host is installed there).
pub fn host_present(home: &Path, host: &Host) -> bool {
    host.roots().iter().any(|r| home.join(r).is_dir())
}

/// The first executable file named `name` in the folders of `PATH`.
pub fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| is_executable(p))
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

#[cfg(test)]
mod tests {
    use super::*;
    use aw_core::install::host::host;

    #[test]
    fn a_failure_on_a_later_host_undoes_the_earlier_ones_and_the_folders_they_created() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path();
        std::fs::create_dir_all(home.join(".codex")).unwrap();
        let claude = [Op::Write {
            rel: ".claude/skills/w/SKILL.md".to_owned(),
            text: "x".to_owned(),
        }];
        // Removing a file that is not there fails once the first host is written.
        let codex = [Op::Remove {
            rel: ".codex/skills/w/gone.md".to_owned(),
        }];
        let hosts = [
            HostOps {
                host: host("claude").unwrap(),
                ops: &claude,
                managed: &[],
            },
            HostOps {
                host: host("codex").unwrap(),
                ops: &codex,
                managed: &[],
            },
        ];
        assert!(apply(home, &hosts).is_err());
        assert!(
            !home.join(".claude").exists(),
            "the created host folder went"
        );
        assert!(home.join(".codex").is_dir(), "the person's folder stays");
    }
}
