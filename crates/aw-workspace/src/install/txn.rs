//! The steps of `aw self install | uninstall` carried out as one transaction over every host.
//!
//! Every path is checked first (nothing outside the host's folder, never through a link that
//! leads out of it; each folder is resolved once). Then every new file is staged beside its
//! place as a temporary file, the filesystem is synced once (`syncfs` on Linux; each file and
//! folder elsewhere), and the steps are carried out in order, each file put in place by one
//! rename, so a kill at any instant leaves every file whole, old or new. The renames are synced
//! once at the end. When a step fails, every step already done, on every host, is undone in
//! reverse (the folders it created included), so `--target all` never leaves some hosts
//! installed and others not.

use super::InstallError;
use crate::error::WorkspaceError;
use crate::io::atomic::{self, TEMP_PREFIX};
use crate::io::containment::write_target;
use aw_core::install::host::Host;
use aw_core::install::plan::Managed;
use aw_core::install::record::{self, RECORD_NAME, Record};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// One step of a transaction, paths relative to HOME.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op {
    /// Write the file (replacing ours).
    Write {
        /// The file.
        rel: String,
        /// Its bytes.
        text: String,
        /// What the file held before (put back if the transaction fails); `None`: nothing,
        /// the file is removed again.
        before: Option<String>,
    },
    /// Remove a file of ours.
    Remove {
        /// The file.
        rel: String,
        /// What it held (put back if the transaction fails).
        before: String,
    },
    /// Move an entry that is not aw's out of the way, to `to` (a free name is taken when `to`
    /// exists; missing folders on the way are made).
    MoveAside {
        /// The entry.
        rel: String,
        /// Where it goes.
        to: String,
    },
    /// Write a backup copy of a file (`bytes`, with `rel`'s permission bits) under a free name.
    Backup {
        /// The file backed up.
        rel: String,
        /// The backup.
        to: String,
        /// Its bytes.
        bytes: String,
    },
}

impl Op {
    /// The paths the step touches.
    pub fn paths(&self) -> Vec<&str> {
        match self {
            Op::Write { rel, .. } | Op::Remove { rel, .. } => vec![rel],
            Op::MoveAside { rel, to } | Op::Backup { rel, to, .. } => vec![rel, to],
        }
    }
}

/// What a host's record names once this command is done (uninstall removes the folders left
/// empty, and rewrites or removes the record).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedFolders {
    /// The host folder holding the record.
    pub root: String,
    /// What it names.
    pub record: Record,
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
    /// Records whose folders are removed once empty (uninstall); none for an install.
    pub records: &'a [RecordedFolders],
}

/// What a transaction did besides its steps.
#[derive(Debug, Clone, Default)]
pub struct Applied {
    /// Folders removed because aw had created them and they were left empty, per host (in the
    /// order of the hosts given), relative to HOME.
    pub removed_folders: Vec<Vec<String>>,
    /// aw's older backups of a settings file deleted once this transaction wrote a new one
    /// (only the newest [`aw_core::install::backups::KEEP`] of those the host's record names
    /// stay), per host: absolute paths.
    pub removed_backups: Vec<Vec<PathBuf>>,
    /// The settings backups this transaction wrote, per host: `(file, backup)`, relative to
    /// HOME, the backup under the name it was actually written (a suffix when two runs shared a
    /// second), which is what a report names.
    pub written_backups: Vec<Vec<(String, String)>>,
}

/// Resolves each folder once: where a write in it lands, checked against the host's folder.
/// A folder is resolved from its parent's answer and one look at its own entry, so a host's
/// folders cost one `lstat` each, and the host's folder is made canonical once.
struct Resolver {
    dirs: HashMap<PathBuf, PathBuf>,
    roots: HashMap<PathBuf, PathBuf>,
}

impl Resolver {
    fn new() -> Self {
        Resolver {
            dirs: HashMap::new(),
            roots: HashMap::new(),
        }
    }

    fn canonical_root(&mut self, root: &Path) -> Result<PathBuf, WorkspaceError> {
        if let Some(r) = self.roots.get(root) {
            return Ok(r.clone());
        }
        let canon = root
            .canonicalize()
            .map_err(|e| WorkspaceError::io("could not resolve", root, e))?;
        self.roots.insert(root.to_path_buf(), canon.clone());
        Ok(canon)
    }

    /// Where the folder `dir` (inside `root`) really is: refused when a link on the way leads
    /// out of `root` or nowhere.
    fn dir(&mut self, root: &Path, dir: &Path) -> Result<PathBuf, WorkspaceError> {
        if let Some(d) = self.dirs.get(dir) {
            return Ok(d.clone());
        }
        let canon_root = self.canonical_root(root)?;
        let resolved = if dir == root {
            canon_root
        } else {
            let (Some(parent), Some(name), true) =
                (dir.parent(), dir.file_name(), dir.starts_with(root))
            else {
                return write_target(root, dir);
            };
            let at = self.dir(root, parent)?.join(name);
            match at.symlink_metadata() {
                Ok(m) if m.file_type().is_symlink() => {
                    let real = at.canonicalize().map_err(|_| outside(dir))?;
                    if !real.starts_with(&canon_root) {
                        return Err(outside(dir));
                    }
                    real
                }
                _ => at,
            }
        };
        self.dirs.insert(dir.to_path_buf(), resolved.clone());
        Ok(resolved)
    }

    /// Where the entry `path` (inside `root`) is: its folder resolved, a final link not
    /// followed.
    fn entry(&mut self, root: &Path, path: &Path) -> Result<PathBuf, WorkspaceError> {
        let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
            return write_target(root, path);
        };
        Ok(self.dir(root, parent)?.join(name))
    }

    /// Where a write to `path` lands: the entry, or the target of a final link that stays
    /// inside `root` (a settings file linked inside the host's folder).
    fn target(&mut self, root: &Path, path: &Path) -> Result<PathBuf, WorkspaceError> {
        let entry = self.entry(root, path)?;
        if entry
            .symlink_metadata()
            .is_ok_and(|m| m.file_type().is_symlink())
        {
            return write_target(root, path);
        }
        Ok(entry)
    }
}

/// A path refused because a link on the way leads out of the host's folder.
fn outside(path: &Path) -> WorkspaceError {
    WorkspaceError::Refused {
        code: aw_core::error_code::ErrorCode::PathOutsideWorkspace,
        message: format!(
            "{} was left unchanged: a symbolic link on the way leads out of the host's folder.",
            path.display()
        ),
        action: super::REPLACE_LINK.to_owned(),
    }
}

fn unsafe_path(path: PathBuf, root: &Path, e: WorkspaceError) -> InstallError {
    InstallError::Unsafe {
        path,
        why: match e {
            WorkspaceError::Refused { .. } => {
                format!("a symbolic link on the way leads out of {}", root.display())
            }
            other => other.to_string(),
        },
        action: super::REPLACE_LINK.to_owned(),
    }
}

/// Checks every path of `ops` against the host's folder before anything is written: a link on
/// the way that leads out of it refuses the whole host.
pub fn check_ops(home: &Path, host: &Host, ops: &[Op]) -> Result<(), InstallError> {
    let mut r = Resolver::new();
    let mut present: HashMap<&str, bool> = HashMap::new();
    for op in ops {
        for rel in op.paths() {
            let root_rel = host.root_of(rel);
            let root = home.join(root_rel);
            if !*present.entry(root_rel).or_insert_with(|| root.exists()) {
                // Nothing exists under it yet, so no link can lead anywhere.
                continue;
            }
            let path = home.join(rel);
            r.target(&root, &path)
                .map_err(|e| unsafe_path(path.clone(), &root, e))?;
        }
    }
    Ok(())
}

/// How to undo one step that was carried out (paths resolved).
enum Undo {
    Restore(PathBuf, Vec<u8>),
    Delete(PathBuf),
    MoveBack(PathBuf, PathBuf),
    /// Folders the step created, deepest first.
    RemoveDirs(Vec<PathBuf>),
}

fn undo_all(journal: Vec<Undo>) {
    for undo in journal.into_iter().rev() {
        let _ = match undo {
            Undo::Restore(p, bytes) => {
                let dir = p.parent().unwrap_or(Path::new("/")).to_path_buf();
                atomic::write(&dir, &p, &bytes).map_err(|_| ())
            }
            Undo::Delete(p) => std::fs::remove_file(&p).map_err(|_| ()),
            Undo::MoveBack(from, to) => std::fs::rename(&from, &to).map_err(|_| ()),
            Undo::RemoveDirs(dirs) => {
                for d in dirs {
                    let _ = std::fs::remove_dir(&d);
                }
                Ok(())
            }
        };
    }
}

/// Creates the missing folders down to `dir` (resolved), without syncing each; the ones made
/// are journaled (deepest first) and remembered as fresh (nothing of ours to clean in them).
fn make_dirs(
    dir: &Path,
    journal: &mut Vec<Undo>,
    fresh: &mut HashSet<PathBuf>,
) -> Result<(), WorkspaceError> {
    // A folder made earlier in this transaction is there: no need to look again.
    if fresh.contains(dir) {
        return Ok(());
    }
    let missing: Vec<PathBuf> = dir
        .ancestors()
        .take_while(|a| !fresh.contains(*a) && std::fs::symlink_metadata(a).is_err())
        .map(Path::to_path_buf)
        .collect();
    let mut made = Vec::new();
    for d in missing.iter().rev() {
        match std::fs::create_dir(d) {
            Ok(()) => made.push(d.clone()),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && d.is_dir() => {}
            Err(e) => {
                made.reverse();
                journal.push(Undo::RemoveDirs(made));
                return Err(WorkspaceError::io("could not create the folder", d, e));
            }
        }
    }
    fresh.extend(made.iter().cloned());
    made.reverse();
    if !made.is_empty() {
        journal.push(Undo::RemoveDirs(made));
    }
    Ok(())
}

/// A temporary file staged beside its place, not synced yet.
fn stage(
    dir: &Path,
    bytes: &[u8],
    mode: Option<std::fs::Permissions>,
) -> Result<tempfile::NamedTempFile, WorkspaceError> {
    use std::io::Write;
    let mut builder = tempfile::Builder::new();
    builder.prefix(TEMP_PREFIX);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // A new file gets the permissions a plain create would give (0666 less the umask).
        builder.permissions(mode.unwrap_or_else(|| std::fs::Permissions::from_mode(0o666)));
    }
    #[cfg(not(unix))]
    let _ = mode;
    let mut tmp = builder
        .tempfile_in(dir)
        .map_err(|e| WorkspaceError::io("could not create a temporary file in", dir, e))?;
    tmp.write_all(bytes)
        .map_err(|e| WorkspaceError::io("could not write", tmp.path(), e))?;
    Ok(tmp)
}

/// Makes every staged file and every change to the folders `dirs` durable: one `syncfs` per
/// filesystem on Linux; elsewhere each file and folder is synced.
fn sync(files: &[&tempfile::NamedTempFile], dirs: &[PathBuf]) -> Result<(), WorkspaceError> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::MetadataExt;
        let _ = files;
        let mut devices = HashSet::new();
        for d in dirs {
            let Ok(meta) = std::fs::metadata(d) else {
                continue;
            };
            if devices.insert(meta.dev()) {
                let f = std::fs::File::open(d)
                    .map_err(|e| WorkspaceError::io("could not sync", d, e))?;
                rustix::fs::syncfs(&f)
                    .map_err(|e| WorkspaceError::io("could not sync", d, e.into()))?;
            }
        }
        Ok(())
    }
    #[cfg(not(target_os = "linux"))]
    {
        for f in files {
            f.as_file()
                .sync_all()
                .map_err(|e| WorkspaceError::io("could not sync", f.path(), e))?;
        }
        for d in dirs {
            if d.is_dir() {
                atomic::sync_dir(d)?;
            }
        }
        Ok(())
    }
}

/// Carries out the steps of every host as one transaction (see the module's documentation).
/// Folders emptied by a removal are removed as long as they lie in a managed folder; the
/// folders a host's record names are removed once empty.
pub fn apply(home: &Path, version: &str, hosts: &[HostOps<'_>]) -> Result<Applied, InstallError> {
    for h in hosts {
        check_ops(home, h.host, h.ops)?;
    }
    let mut journal: Vec<Undo> = Vec::new();
    match run_all(home, version, hosts, &mut journal) {
        Ok(applied) => Ok(applied),
        Err(e) => {
            undo_all(journal);
            Err(e)
        }
    }
}

/// A step ready to be carried out, its file staged.
enum Ready {
    Write {
        tmp: tempfile::NamedTempFile,
        to: PathBuf,
        before: Option<Vec<u8>>,
    },
    Remove {
        path: PathBuf,
        before: Vec<u8>,
    },
    Backup {
        tmp: tempfile::NamedTempFile,
        to: PathBuf,
        /// The file backed up, relative to HOME (its backups are named after it).
        file: String,
        /// The backup's planned name, relative to HOME (a suffix is added when it is taken).
        to_rel: String,
    },
}

fn run_all(
    home: &Path,
    version: &str,
    hosts: &[HostOps<'_>],
    journal: &mut Vec<Undo>,
) -> Result<Applied, InstallError> {
    let mut r = Resolver::new();
    let mut fresh: HashSet<PathBuf> = HashSet::new();
    let mut touched: Vec<PathBuf> = Vec::new();
    let mut cleaned: HashSet<PathBuf> = HashSet::new();
    let mut ready: Vec<Vec<Ready>> = Vec::new();
    let mut staged_dirs: Vec<PathBuf> = Vec::new();
    let mut roots: HashMap<&str, PathBuf> = HashMap::new();
    let now = std::time::SystemTime::now();
    // Stage: entries in aw's way moved aside at once (the files that take their place are
    // staged after, in the folders that will hold them), folders made, every new file written
    // beside its place.
    for h in hosts {
        let mut steps = Vec::new();
        for op in h.ops {
            let root_rel = h.host.root_of(op.paths()[0]);
            let root = match roots.get(root_rel) {
                Some(r) => r.clone(),
                None => {
                    let r = ensure_root(home, root_rel, journal, &mut fresh)?;
                    roots.insert(root_rel, r.clone());
                    r
                }
            };
            if !touched.contains(&root) {
                touched.push(root.clone());
            }
            let abs = |rel: &str| home.join(rel);
            let resolve = |r: &mut Resolver, rel: &str, target: bool| {
                let p = abs(rel);
                let got = if target {
                    r.target(&root, &p)
                } else {
                    r.entry(&root, &p)
                };
                got.map_err(|e| unsafe_path(p, &root, e))
            };
            match op {
                Op::MoveAside { rel, to } => {
                    let from = resolve(&mut r, rel, false)?;
                    let to = resolve(&mut r, to, false)?;
                    if let Some(parent) = to.parent() {
                        make_dirs(parent, journal, &mut fresh)?;
                        touched.push(parent.to_path_buf());
                    }
                    let free = free_name(&to);
                    std::fs::rename(&from, &free)
                        .map_err(|e| WorkspaceError::io("could not move aside", &from, e))?;
                    if let Some(parent) = from.parent() {
                        touched.push(parent.to_path_buf());
                    }
                    journal.push(Undo::MoveBack(free, from));
                }
                Op::Write { rel, text, before } => {
                    let to = resolve(&mut r, rel, true)?;
                    let dir = to.parent().unwrap_or(home).to_path_buf();
                    // Each folder is made (or found) and cleaned of a killed run's temporary
                    // files once.
                    if !cleaned.contains(&dir) {
                        make_dirs(&dir, journal, &mut fresh)?;
                        if !fresh.contains(&dir) {
                            atomic::remove_stale_temps(&dir, now);
                        }
                        cleaned.insert(dir.clone());
                    }
                    // An existing file keeps its permissions.
                    let mode = before
                        .as_ref()
                        .and_then(|_| std::fs::metadata(&to).ok())
                        .filter(std::fs::Metadata::is_file)
                        .map(|m| m.permissions());
                    let tmp = stage(&dir, text.as_bytes(), mode)?;
                    staged_dirs.push(dir);
                    steps.push(Ready::Write {
                        tmp,
                        to,
                        before: before.as_ref().map(|b| b.as_bytes().to_vec()),
                    });
                }
                Op::Remove { rel, before } => steps.push(Ready::Remove {
                    path: resolve(&mut r, rel, false)?,
                    before: before.as_bytes().to_vec(),
                }),
                Op::Backup { rel, to, bytes } => {
                    let from = resolve(&mut r, rel, true)?;
                    let to_path = resolve(&mut r, to, false)?;
                    // The backup holds what the source holds (a settings file may hold tokens):
                    // it gets the source's permission bits from its creation on.
                    let mode = std::fs::metadata(&from)
                        .map_err(|e| WorkspaceError::io("could not read", &from, e))?
                        .permissions();
                    let dir = to_path.parent().unwrap_or(home).to_path_buf();
                    let tmp = stage(&dir, bytes.as_bytes(), Some(mode))?;
                    staged_dirs.push(dir);
                    steps.push(Ready::Backup {
                        tmp,
                        to: to_path,
                        file: rel.clone(),
                        to_rel: to.clone(),
                    });
                }
            }
        }
        ready.push(steps);
    }
    {
        let staged: Vec<&tempfile::NamedTempFile> = ready
            .iter()
            .flatten()
            .filter_map(|s| match s {
                Ready::Write { tmp, .. } | Ready::Backup { tmp, .. } => Some(tmp),
                Ready::Remove { .. } => None,
            })
            .collect();
        staged_dirs.sort();
        staged_dirs.dedup();
        staged_dirs.extend(touched.iter().cloned());
        sync(&staged, &staged_dirs)?;
    }
    // Carry out, in order: each file put in place by one rename.
    let mut emptied_by_host: Vec<Vec<PathBuf>> = Vec::new();
    let mut backups_by_host: Vec<Vec<(String, String)>> = Vec::new();
    for steps in ready {
        let mut emptied = Vec::new();
        let mut backups = Vec::new();
        for s in steps {
            match s {
                Ready::Write { tmp, to, before } => {
                    if let Some(d) = to.parent() {
                        touched.push(d.to_path_buf());
                    }
                    tmp.persist(&to)
                        .map_err(|e| WorkspaceError::io("could not replace", &to, e.error))?;
                    journal.push(match before {
                        Some(bytes) => Undo::Restore(to, bytes),
                        None => Undo::Delete(to),
                    });
                }
                Ready::Remove { path, before } => {
                    std::fs::remove_file(&path)
                        .map_err(|e| WorkspaceError::io("could not remove", &path, e))?;
                    journal.push(Undo::Restore(path.clone(), before));
                    if let Some(parent) = path.parent() {
                        touched.push(parent.to_path_buf());
                        emptied.push(parent.to_path_buf());
                    }
                }
                Ready::Backup {
                    tmp,
                    to,
                    file,
                    to_rel,
                } => {
                    let mut tmp = tmp;
                    // Two runs within one second name the same backup: the later one takes a
                    // suffix, and no backup is ever overwritten.
                    for n in 0.. {
                        let (name, rel) = if n == 0 {
                            (to.clone(), to_rel.clone())
                        } else {
                            (
                                PathBuf::from(format!("{}.{n}", to.display())),
                                format!("{to_rel}.{n}"),
                            )
                        };
                        match tmp.persist_noclobber(&name) {
                            Ok(_) => {
                                backups.push((file.clone(), rel));
                                journal.push(Undo::Delete(name));
                                break;
                            }
                            Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => {
                                tmp = e.file;
                            }
                            Err(e) => {
                                return Err(
                                    WorkspaceError::io("could not create", &name, e.error).into()
                                );
                            }
                        }
                    }
                    if let Some(d) = to.parent() {
                        touched.push(d.to_path_buf());
                    }
                }
            }
        }
        emptied_by_host.push(emptied);
        backups_by_host.push(backups);
    }
    // Every step is done: only now are emptied folders removed (an undo needs them).
    let mut applied = Applied::default();
    for ((h, emptied), backups) in hosts.iter().zip(emptied_by_host).zip(backups_by_host) {
        prune(home, h.managed, emptied);
        applied
            .removed_folders
            .push(remove_recorded(home, version, h.records));
        applied
            .removed_backups
            .push(record_backups(home, version, h.host, &backups));
        applied.written_backups.push(backups);
    }
    touched.sort();
    touched.dedup();
    sync(&[], &touched)?;
    Ok(applied)
}

/// Whether `rel` (relative to HOME) is a regular file (a final link not followed).
fn regular_file(home: &Path, rel: &str) -> bool {
    home.join(rel).symlink_metadata().is_ok_and(|m| m.is_file())
}

/// The record of the host folder `root`: what it names (`Some(default)` when there is none;
/// `None` when a file there is not aw's record, which is then never rewritten).
fn read_record(home: &Path, root: &str) -> Option<Record> {
    match std::fs::read_to_string(home.join(record::record_path(root))) {
        Ok(text) => record::parse(&text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(Record::default()),
        Err(_) => None,
    }
}

/// aw's backups of the settings file `file` that would go once `written` is there (which ones:
/// aw-core's [`backups_to_remove`](aw_core::install::backups::backups_to_remove)), relative to
/// HOME: only backups the host's record names, still there as regular files. A backup the
/// record does not name (the person's own, an older aw's) is never among them.
pub fn backups_beyond(home: &Path, host: &Host, file: &str, written: &str) -> Vec<String> {
    let Some(rec) = read_record(home, host.root_of(file)) else {
        return Vec::new();
    };
    let recorded: Vec<String> = rec
        .backups
        .into_iter()
        .filter(|b| regular_file(home, b))
        .collect();
    aw_core::install::backups::backups_to_remove(file, &recorded, written)
}

/// The backups `ops` would write, `(file, backup)` relative to HOME, each under the name a run
/// would choose now (the first free one), as a dry run reports them.
pub fn planned_backups(home: &Path, ops: &[Op]) -> Vec<(String, String)> {
    ops.iter()
        .filter_map(|op| match op {
            Op::Backup { rel, to, .. } => Some((rel.clone(), planned_name(home, to))),
            _ => None,
        })
        .collect()
}

/// The first free name for the backup planned as `to` (relative to HOME), relative to HOME.
fn planned_name(home: &Path, to: &str) -> String {
    free_name(&home.join(to))
        .strip_prefix(home)
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|_| to.to_owned())
}

/// What a dry run of `ops` would delete among aw's settings backups: for each backup it would
/// write (under the first free name, as a run does), the recorded ones beyond the newest few.
pub fn planned_backup_removals(home: &Path, host: &Host, ops: &[Op]) -> Vec<PathBuf> {
    ops.iter()
        .filter_map(|op| match op {
            Op::Backup { rel, to, .. } => Some((rel, to)),
            _ => None,
        })
        .flat_map(|(rel, to)| backups_beyond(home, host, rel, &planned_name(home, to)))
        .map(|b| home.join(b))
        .collect()
}

/// Once every step is done: names each backup this run wrote (`(file, backup)`, relative to
/// HOME) in the host's record, deletes the recorded backups of that file beyond the newest few
/// (only regular files; one that cannot be deleted is left), and writes the record back naming
/// what is left. A folder whose record is not aw's is left alone: its backups stay unrecorded,
/// and nothing there is deleted. Returns the paths deleted.
fn record_backups(
    home: &Path,
    version: &str,
    host: &Host,
    written: &[(String, String)],
) -> Vec<PathBuf> {
    use aw_core::install::backups::recorded_after;
    let mut deleted = Vec::new();
    for (file, backup) in written {
        let root = host.root_of(file);
        let Some(rec) = read_record(home, root) else {
            continue;
        };
        let removed: Vec<String> = backups_beyond(home, host, file, backup)
            .into_iter()
            .filter(|b| regular_file(home, b) && std::fs::remove_file(home.join(b)).is_ok())
            .collect();
        let gone: Vec<String> = rec
            .backups
            .iter()
            .filter(|b| !regular_file(home, b))
            .cloned()
            .collect();
        let backups = recorded_after(&rec.backups, std::slice::from_ref(backup), &removed, &gone);
        let new = Record {
            backups,
            ..rec.clone()
        };
        if new != rec {
            let text = aw_core::install::marker::seal(&record::render(version, &new));
            let _ = atomic::write(
                &home.join(root),
                &home.join(record::record_path(root)),
                text.as_bytes(),
            );
        }
        deleted.extend(removed.into_iter().map(|b| home.join(b)));
    }
    deleted
}

/// `path`, or `path.N` for the first N free.
fn free_name(path: &Path) -> PathBuf {
    let mut to = path.to_path_buf();
    let mut n = 0;
    while std::fs::symlink_metadata(&to).is_ok() {
        n += 1;
        to = PathBuf::from(format!("{}.{n}", path.display()));
    }
    to
}

/// The host folder `rel` (relative to HOME), the root a step's writes must stay under: created
/// when missing (never through a link that leads out of HOME), and the folders created then
/// are journaled. A link to a folder elsewhere is the person's choice and followed.
fn ensure_root(
    home: &Path,
    rel: &str,
    journal: &mut Vec<Undo>,
    fresh: &mut HashSet<PathBuf>,
) -> Result<PathBuf, InstallError> {
    let root = home.join(rel);
    if root.is_dir() {
        return Ok(root);
    }
    super::check_root(home, rel)?;
    make_dirs(&root, journal, fresh)?;
    Ok(root)
}

/// Removes the folders left empty by removals, walking up while they are empty and inside a
/// managed folder.
fn prune(home: &Path, managed: &[Managed], mut dirs: Vec<PathBuf>) {
    let canon_home = home.canonicalize().unwrap_or_else(|_| home.to_path_buf());
    let removable = |dir: &Path| {
        let rel = dir
            .strip_prefix(home)
            .or_else(|_| dir.strip_prefix(&canon_home))
            .map(|r| r.to_string_lossy().into_owned())
            .unwrap_or_default();
        managed.iter().any(|m| match m {
            Managed::Tree(d) => rel == *d || rel.starts_with(&format!("{d}/")),
            Managed::File(_) => false,
            Managed::Prefixed {
                dir: parent,
                prefix,
            } => rel
                .strip_prefix(&format!("{parent}/"))
                .and_then(|rest| rest.split('/').next())
                .is_some_and(|first| first.starts_with(prefix)),
        })
    };
    dirs.sort();
    dirs.dedup();
    for mut dir in dirs.into_iter().rev() {
        while removable(&dir) {
            if std::fs::remove_dir(&dir).is_err() {
                break;
            }
            let Some(parent) = dir.parent() else { break };
            dir = parent.to_path_buf();
        }
    }
}

/// Removes the folders the records name once they are empty (deepest first; a host folder
/// holding nothing but its record goes with it), then rewrites each record with the folders
/// still there, or removes it when none is. Returns the folders removed, relative to HOME.
fn remove_recorded(home: &Path, version: &str, records: &[RecordedFolders]) -> Vec<String> {
    let mut removed = Vec::new();
    for rec in records {
        let mut dirs = rec.record.folders.clone();
        // Deepest first: a folder's own folders before it.
        dirs.sort_by(|a, b| b.len().cmp(&a.len()).then(b.cmp(a)));
        let record = home.join(record::record_path(&rec.root));
        for d in &dirs {
            let path = home.join(d);
            if path
                .symlink_metadata()
                .is_ok_and(|m| m.file_type().is_symlink() || !m.is_dir())
            {
                continue;
            }
            if *d == rec.root {
                let only_record = std::fs::read_dir(&path).is_ok_and(|entries| {
                    entries
                        .filter_map(Result::ok)
                        .all(|e| e.file_name() == RECORD_NAME)
                });
                if !only_record {
                    continue;
                }
                let _ = std::fs::remove_file(&record);
            }
            if std::fs::remove_dir(&path).is_ok() {
                removed.push(d.clone());
            }
        }
        if record.is_file() {
            let left = Record {
                folders: rec
                    .record
                    .folders
                    .iter()
                    .filter(|d| home.join(d).is_dir())
                    .cloned()
                    .collect(),
                files: rec
                    .record
                    .files
                    .iter()
                    .filter(|f| home.join(f).is_file())
                    .cloned()
                    .collect(),
                backups: rec
                    .record
                    .backups
                    .iter()
                    .filter(|b| regular_file(home, b))
                    .cloned()
                    .collect(),
            };
            let root = home.join(&rec.root);
            if left.is_empty() {
                let _ = std::fs::remove_file(&record);
            } else if left != rec.record {
                let text = aw_core::install::marker::seal(&record::render(version, &left));
                let _ = atomic::write(&root, &record, text.as_bytes());
            }
        }
    }
    removed.sort();
    removed
}

#[cfg(test)]
mod tests {
    use super::*;
    use aw_core::install::host::host;

    #[test]
    fn a_failure_on_a_later_host_undoes_the_earlier_ones_and_the_folders_they_created() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path();
        std::fs::create_dir_all(home.join(".codex/skills/w")).unwrap();
        std::fs::write(home.join(".codex/skills/w/old.md"), "old").unwrap();
        let claude = [Op::Write {
            rel: ".claude/skills/w/SKILL.md".to_owned(),
            text: "x".to_owned(),
            before: None,
        }];
        // Removing a file that is not there fails once the first host is written.
        let codex = [
            Op::Remove {
                rel: ".codex/skills/w/old.md".to_owned(),
                before: "old".to_owned(),
            },
            Op::Remove {
                rel: ".codex/skills/w/gone.md".to_owned(),
                before: String::new(),
            },
        ];
        let hosts = [
            HostOps {
                host: host("claude").unwrap(),
                ops: &claude,
                managed: &[],
                records: &[],
            },
            HostOps {
                host: host("codex").unwrap(),
                ops: &codex,
                managed: &[],
                records: &[],
            },
        ];
        assert!(apply(home, "0.1.0", &hosts).is_err());
        assert!(
            !home.join(".claude").exists(),
            "the created host folder went"
        );
        assert_eq!(
            std::fs::read_to_string(home.join(".codex/skills/w/old.md")).unwrap(),
            "old",
            "the removed file came back"
        );
        let names: Vec<_> = std::fs::read_dir(home.join(".codex/skills/w"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "no temporary file left: {names:?}");
    }

    #[test]
    fn an_entry_moved_aside_makes_room_for_the_files_written_into_its_place() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path();
        std::fs::create_dir_all(home.join(".claude/skills/w/harness")).unwrap();
        std::fs::write(home.join(".claude/skills/w/SKILL.md"), "theirs").unwrap();
        let ops = [
            Op::MoveAside {
                rel: ".claude/skills/w".to_owned(),
                to: ".claude/.aw-backup-1/skills/w".to_owned(),
            },
            Op::Write {
                rel: ".claude/skills/w/SKILL.md".to_owned(),
                text: "ours".to_owned(),
                before: None,
            },
        ];
        let hosts = [HostOps {
            host: host("claude").unwrap(),
            ops: &ops,
            managed: &[],
            records: &[],
        }];
        apply(home, "0.1.0", &hosts).unwrap();
        assert_eq!(
            std::fs::read_to_string(home.join(".claude/skills/w/SKILL.md")).unwrap(),
            "ours"
        );
        assert_eq!(
            std::fs::read_to_string(home.join(".claude/.aw-backup-1/skills/w/SKILL.md")).unwrap(),
            "theirs"
        );
        assert!(!home.join(".claude/skills/w/harness").exists());
    }
}
