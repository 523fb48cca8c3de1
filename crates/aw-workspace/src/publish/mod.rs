//! Publishing a durable plan's artifacts: the writing half of a capability apply (spec §6.4,
//! steps 5 to 7). The checks that need no disk (the seal, the destinations, the grants) are
//! aw-core's (`capability::plan`); this module takes the workspace lock, re-checks the base under
//! it, and writes the artifacts as one transaction: either every file lands, or the workspace is
//! left as it was — across a kill too — or the failure names exactly what is left to reconcile
//! by hand.
//!
//! Choices, and why:
//! - Every path is checked twice before the first write: as text (`paths::unsafe_relative`, in
//!   case the caller skipped the destination check) and on disk (`containment::check_writes`: a
//!   symbolic link on the way that leads out of the workspace is `PATH_OUTSIDE_WORKSPACE`, the
//!   code every other writer of aw uses for it). A text refusal comes before the lock, so it
//!   writes nothing at all, not even the lock file.
//! - A target that exists must be a regular file reached without a link: a link in its place
//!   (even one that stays inside), a folder, a FIFO or a device is `PUBLISH_FAILED`, never read
//!   (a FIFO would block the read) and never written through. The preview a person approved
//!   named that path; writing through a link would change another file than the one shown.
//!   Every such refusal is found before the first write (`write::plan`).
//! - All or nothing, even when the process is killed: the files are grouped into parts that
//!   each appear with one rename (`write.rs`): the files under a folder that does not exist yet
//!   (a new design package) are assembled whole in a temporary folder beside it and renamed into
//!   place, so a reader or a kill sees no package or the whole package; a file whose folders
//!   exist is written in a temporary file and renamed (a new one only if the name is still free,
//!   `PUBLISH_TARGET_EXISTS` otherwise, and the other writer's file is never touched). A publish
//!   of several parts (a design update, a persist of a spec and a plan) first writes a journal
//!   (`journal.rs`) naming every file with its bytes before and after: a kill between two parts
//!   is finished by the next command that locates the workspace (or undone, when someone else
//!   changed one of the files since), before it reads anything. One rename cannot cover files
//!   in several existing folders; a journal can, and it costs nothing to a publish of one part.
//! - A plan whose every target already holds exactly its bytes (a regular file, no final link)
//!   was published before: applying it again succeeds and writes nothing
//!   ([`Published::already_published`]), after the checks of where it writes (containment,
//!   destinations) and before those of whether it may still be written (the claimed numbers,
//!   the base): the same plan applied again after a lost answer, or after a kill that the
//!   journal finished, is complete, never "number taken" or "stale".
//! - The base, when the plan has one, is checked again under the lock, so no other aw writer can
//!   change it between the check and the writes (the reference checked it before locking).
//! - The undo puts back, newest first, each file that holds this publish's bytes (previous bytes
//!   restored, new files removed) and leaves any other alone, then removes the folders the
//!   publish created, deepest first, when they are empty: a folder that something else filled
//!   meanwhile is not ours to empty. What could not be undone is listed, for the receipt's next
//!   action, and the journal stays for the next command to finish the undo.

mod claims;
mod journal;
mod write;

pub use journal::{
    EXPLICIT_JOURNAL_FILE, JOURNAL_FILE, Settled, Unsettled, recover, settle, workspace_journal,
};

use crate::error::{Result, WorkspaceError};
use crate::io::atomic;
use crate::io::containment::{check_writes, entry_target, write_target};
use crate::io::folder::{read_regular_path, read_regular_sized};
use crate::io::lock::WorkspaceLock;
use crate::locate::Workspace;
use aw_core::capability::error::CapabilityError;
use aw_core::capability::handler::NumberClaim;
use aw_core::capability::paths::{is_within, unsafe_relative};
use aw_core::capability::plan::{Artifact, Base, check_base};
use aw_core::error_code::ErrorCode;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The current text of a plan's base (`rel`, relative to the workspace `root`), `None` when no
/// file is there. Bytes that are not UTF-8 read as U+FFFD, as the reference reads text. The path
/// must be a safe relative path (`SEMANTIC_PATH_REJECTED`: the base is not covered by the
/// approval seal, so a carried plan may name anything) that no link leads out of the workspace
/// (`PATH_OUTSIDE_WORKSPACE`); a FIFO, socket or device is refused without waiting on it, and a
/// folder or an unreadable file is an I/O error.
pub fn read_base(root: &Path, rel: &str) -> Result<Option<String>> {
    if let Some(why) = unsafe_relative(rel) {
        return Err(WorkspaceError::Refused {
            code: ErrorCode::SemanticPathRejected,
            message: format!("the plan's base '{rel}' {why}"),
            action: "Prepare the plan again, against a file inside the workspace.".to_owned(),
        });
    }
    // Where a write to the base would land is where its text is: the same containment rule.
    let real = write_target(root, &root.join(rel))?;
    match read_regular_path(&real) {
        Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => Ok(None),
        Err(e) => Err(WorkspaceError::io(
            "could not read the plan's base",
            real,
            e,
        )),
    }
}

/// What a publish wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Published {
    /// The artifacts' paths, in plan order (the receipt's `output.value.written`).
    pub written: Vec<String>,
    /// The folders it created, relative to the root, in the order it created them.
    pub created_dirs: Vec<String>,
    /// Every target already held exactly its artifact's bytes, so nothing was written (`written`
    /// and `created_dirs` are empty): the plan had already been published. Also set when the
    /// plan's own package has moved on since ([`Published::changed_since`]).
    pub already_published: bool,
    /// The plan was published before, and these of its paths hold other bytes now (the package
    /// a create made, updated since): nothing was written.
    pub changed_since: Vec<String>,
}

impl Published {
    /// A publish that found the plan already in place and wrote nothing.
    pub fn nothing_written(changed_since: Vec<String>) -> Self {
        Published {
            written: Vec::new(),
            created_dirs: Vec::new(),
            already_published: true,
            changed_since,
        }
    }
}

/// How a failed publish left the workspace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rollback {
    /// It failed before its first write.
    NothingWritten,
    /// Everything it wrote was undone: the workspace is as it was.
    Complete,
    /// Some of what it wrote could not be undone: these need reconciling by hand.
    Incomplete(Vec<Leftover>),
}

/// One thing a rollback could not undo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leftover {
    /// The path, relative to the workspace root.
    pub path: String,
    /// What is left there.
    pub kind: LeftoverKind,
    /// Why undoing it failed.
    pub why: String,
}

/// What a rollback left behind at a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeftoverKind {
    /// A file this publish created, still there.
    NewFile,
    /// A file this publish replaced, whose previous content was not restored.
    PreviousContentLost,
    /// A folder this publish created, still there.
    NewFolder,
}

impl Leftover {
    /// One English line: the path and what is wrong with it.
    pub fn describe(&self) -> String {
        let what = match self.kind {
            LeftoverKind::NewFile => "still holds the file this apply created",
            LeftoverKind::PreviousContentLost => {
                "holds this apply's content; its previous content could not be restored"
            }
            LeftoverKind::NewFolder => "is a folder this apply created and could not remove",
        };
        format!("'{}' {what} ({})", self.path, self.why)
    }
}

/// A publish that failed: the reason (code, message, and what to do about the cause) and how
/// far its rollback got.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{error}")]
pub struct PublishError {
    /// The failure: `PUBLISH_TARGET_EXISTS`, `PUBLISH_FAILED`, `CAPABILITY_EFFECT_LOCKED`,
    /// `SEMANTIC_PATH_REJECTED`, `PATH_OUTSIDE_WORKSPACE`, `CAPABILITY_BASE_GONE`,
    /// `CAPABILITY_BASE_STALE`, or the lock's own failure (`IO_ERROR`, …).
    pub error: CapabilityError,
    /// What became of what it had written.
    pub rollback: Rollback,
}

impl PublishError {
    /// What must be reconciled by hand, when the rollback left something: one line naming each
    /// path. `None` when the workspace is as it was.
    pub fn reconciliation(&self) -> Option<String> {
        let Rollback::Incomplete(left) = &self.rollback else {
            return None;
        };
        let items: Vec<String> = left.iter().map(Leftover::describe).collect();
        Some(format!(
            "The apply failed and could not undo everything it wrote; reconcile by hand: {}.",
            items.join("; ")
        ))
    }

    /// The next action: the reconciliation when something is left, else the error's action.
    pub fn next_action(&self) -> String {
        self.reconciliation()
            .unwrap_or_else(|| self.error.action.clone())
    }

    /// A failure before anything was written (the refusals a caller checks under the lock).
    pub fn before_any_write(error: CapabilityError) -> Self {
        PublishError {
            error,
            rollback: Rollback::NothingWritten,
        }
    }
}

/// Publishes `artifacts` into the workspace, in order, as one transaction under the workspace
/// lock (waiting up to `wait` for another holder; released on every path when the guard drops).
///
/// Before the first write: every path is a safe relative path (`SEMANTIC_PATH_REJECTED`, checked
/// before the lock is even taken), the lock is taken (busy → `CAPABILITY_EFFECT_LOCKED`), an
/// interrupted earlier publish is settled (`PUBLISH_FAILED` when it cannot be), no path leads
/// out of the workspace through a link (`PATH_OUTSIDE_WORKSPACE`) nor out of the `destinations`
/// it is approved under (`SEMANTIC_PATH_REJECTED`). When every target already holds exactly its
/// artifact's bytes, nothing is written and the result says [`Published::already_published`].
/// Otherwise `base`, when given, must still hold the text the plan was prepared against
/// (`CAPABILITY_BASE_GONE`, `CAPABILITY_BASE_STALE`), and every artifact is checked on disk: its
/// missing folders have nothing in the way, a target that exists is a readable regular file
/// (else `PUBLISH_FAILED`) that may be replaced only when the artifact says `overwrite: true`
/// (else `PUBLISH_TARGET_EXISTS`). Then the parts are written (see the module notes); a new file
/// or folder is created only if the name is still free (else `PUBLISH_TARGET_EXISTS`). Any
/// failure undoes everything this call wrote and says how far the undo got.
pub fn publish(
    ws: &Workspace,
    artifacts: &[Artifact],
    base: Option<&Base>,
    destinations: &[String],
    wait: Duration,
) -> std::result::Result<Published, PublishError> {
    publish_in(
        PublishTarget::Workspace(ws),
        artifacts,
        base,
        destinations,
        &[],
        wait,
    )
}

/// Where a publish writes: what its paths are relative to and which lock it takes.
#[derive(Debug, Clone, Copy)]
pub enum PublishTarget<'a> {
    /// A workspace: its root, its lock (`.<ns>/.lock`).
    Workspace(&'a Workspace),
    /// An explicit root outside any workspace (an absolute path): created when missing, locked
    /// with [`EXPLICIT_LOCK_FILE`] inside it. Every write stays inside it, as a workspace's do.
    Explicit(&'a Path),
}

/// The lock file of an explicit root.
pub const EXPLICIT_LOCK_FILE: &str = ".aw.lock";

impl PublishTarget<'_> {
    /// The folder artifact paths are relative to.
    pub fn root(&self) -> &Path {
        match self {
            PublishTarget::Workspace(ws) => ws.root.as_path(),
            PublishTarget::Explicit(root) => root,
        }
    }

    /// Where its publish journal is kept.
    fn journal(&self) -> PathBuf {
        match self {
            PublishTarget::Workspace(ws) => workspace_journal(ws),
            PublishTarget::Explicit(root) => root.join(EXPLICIT_JOURNAL_FILE),
        }
    }

    fn lock(&self, wait: Duration) -> Result<WorkspaceLock> {
        match self {
            PublishTarget::Workspace(ws) => WorkspaceLock::of(ws, wait),
            PublishTarget::Explicit(root) => {
                // The root is the caller's; making it is part of publishing into it.
                std::fs::create_dir_all(root)
                    .map_err(|e| WorkspaceError::io("could not create the folder", root, e))?;
                WorkspaceLock::acquire(root, &root.join(EXPLICIT_LOCK_FILE), wait)
            }
        }
    }
}

/// [`publish`] into `target`, with the number `claims` of the plan checked under the lock:
/// an entry of a claim's folder (other than a temporary file) that already carries its number
/// is `DESIGN_NUMBER_TAKEN`, before the first write (another plan prepared at the same time
/// published it first) — unless the plan itself is already published there.
pub fn publish_in(
    target: PublishTarget<'_>,
    artifacts: &[Artifact],
    base: Option<&Base>,
    destinations: &[String],
    claims: &[NumberClaim],
    wait: Duration,
) -> std::result::Result<Published, PublishError> {
    check_paths(artifacts)?;
    let _lock = target
        .lock(wait)
        .map_err(|e| PublishError::before_any_write(lock_failure(e)))?;
    recover(target.root(), &target.journal())?;
    publish_locked(target, artifacts, base, destinations, claims)
}

/// Takes the workspace lock as [`publish`] does (busy → `CAPABILITY_EFFECT_LOCKED`), and settles
/// an interrupted publish its journal describes (an error when that fails), for a caller that
/// checks more under it before publishing with [`publish_held`].
pub fn lock_for_publish(
    ws: &Workspace,
    wait: Duration,
) -> std::result::Result<WorkspaceLock, PublishError> {
    let target = PublishTarget::Workspace(ws);
    let lock = target
        .lock(wait)
        .map_err(|e| PublishError::before_any_write(lock_failure(e)))?;
    recover(target.root(), &target.journal())?;
    Ok(lock)
}

/// [`publish`] with the workspace lock already held (`_held`, from [`lock_for_publish`]): for a
/// writer that must check something else under the same lock first (`aw persist` re-checks that
/// its numbers are still free). Every check and write of [`publish`] after the lock is made here.
pub fn publish_held(
    ws: &Workspace,
    _held: &WorkspaceLock,
    artifacts: &[Artifact],
    base: Option<&Base>,
    destinations: &[String],
) -> std::result::Result<Published, PublishError> {
    check_paths(artifacts)?;
    publish_locked(
        PublishTarget::Workspace(ws),
        artifacts,
        base,
        destinations,
        &[],
    )
}

/// Whether `artifacts` are already published in the workspace (every target a regular file
/// holding exactly its bytes), with the lock held (`_held`, from [`lock_for_publish`]), after
/// the checks of where they would be written (paths, containment, destinations): for a writer
/// that checks more under the lock before publishing, and must not refuse its own plan applied
/// again (`aw persist` would otherwise find its numbers taken, by itself).
pub fn published_already(
    ws: &Workspace,
    _held: &WorkspaceLock,
    artifacts: &[Artifact],
    destinations: &[String],
) -> std::result::Result<bool, PublishError> {
    check_paths(artifacts)?;
    let root = ws.root.as_path();
    let targets = check_places(root, artifacts, destinations)?;
    Ok(already_published(root, artifacts, &targets))
}

/// Which of `artifacts` are already in the workspace, each a regular file holding exactly its
/// bytes (in plan order), with the lock held, after the checks of where they would be written:
/// for a writer that completes a plan a kill left partly published (`aw persist`).
pub fn placed_already(
    ws: &Workspace,
    _held: &WorkspaceLock,
    artifacts: &[Artifact],
    destinations: &[String],
) -> std::result::Result<Vec<bool>, PublishError> {
    check_paths(artifacts)?;
    let root = ws.root.as_path();
    let targets = check_places(root, artifacts, destinations)?;
    Ok(artifacts
        .iter()
        .zip(&targets)
        .map(|(a, t)| holds_exactly(root, a, t))
        .collect())
}

/// Every artifact path is a safe relative path, checked before the lock is even taken.
fn check_paths(artifacts: &[Artifact]) -> std::result::Result<(), PublishError> {
    for a in artifacts {
        if let Some(why) = unsafe_relative(&a.path) {
            return Err(PublishError::before_any_write(CapabilityError::new(
                ErrorCode::SemanticPathRejected,
                format!("the artifact path '{}' {why}", a.path),
                "Prepare the plan again with paths relative to the workspace, inside it.",
            )));
        }
    }
    Ok(())
}

/// Where each artifact lands: no link out of the root, none out of its destination. The targets.
fn check_places(
    root: &Path,
    artifacts: &[Artifact],
    destinations: &[String],
) -> std::result::Result<Vec<PathBuf>, PublishError> {
    let targets: Vec<PathBuf> = artifacts.iter().map(|a| root.join(&a.path)).collect();
    check_writes(root, targets.iter().map(PathBuf::as_path))
        .map_err(|e| PublishError::before_any_write(from_workspace(None, e)))?;
    for (artifact, target) in artifacts.iter().zip(&targets) {
        stays_in_destination(root, &artifact.path, target, destinations)
            .map_err(PublishError::before_any_write)?;
    }
    Ok(targets)
}

/// The checks and writes of a publish, under the held lock (an interrupted earlier publish
/// already settled).
fn publish_locked(
    target: PublishTarget<'_>,
    artifacts: &[Artifact],
    base: Option<&Base>,
    destinations: &[String],
    claims: &[NumberClaim],
) -> std::result::Result<Published, PublishError> {
    let root = target.root();
    let targets = check_places(root, artifacts, destinations)?;
    if already_published(root, artifacts, &targets) {
        return Ok(Published::nothing_written(Vec::new()));
    }
    let half =
        match claims::check(root, claims, artifacts).map_err(PublishError::before_any_write)? {
            claims::Claimed::MovedOn(changed) => return Ok(Published::nothing_written(changed)),
            claims::Claimed::Half(entries) => entries,
            claims::Claimed::Free => Vec::new(),
        };
    if let Some(base) = base {
        let current = read_base(root, &base.path)
            .map_err(|e| PublishError::before_any_write(from_workspace(None, e)))?;
        check_base(Some(base), current.as_deref()).map_err(PublishError::before_any_write)?;
    }
    // What a kill left of this very plan (part of its files, aw's temporary leftovers) is set
    // aside, so the plan appears whole with one rename; it goes back if the publish fails.
    let mut aside: Vec<(PathBuf, PathBuf)> = Vec::new();
    let put_back = |aside: &[(PathBuf, PathBuf)]| {
        for (from, to) in aside.iter().rev() {
            atomic::put_back(to, from);
        }
    };
    for entry in half {
        match atomic::move_aside(root, &entry) {
            Ok(to) => aside.push((entry, to)),
            Err(e) => {
                put_back(&aside);
                return Err(PublishError::before_any_write(from_workspace(None, e)));
            }
        }
    }
    let written = write::plan(root, artifacts)
        .map_err(PublishError::before_any_write)
        .and_then(|plan| write_all(root, &target.journal(), &plan).map(|()| plan));
    let plan = match written {
        Ok(plan) => plan,
        Err(e) => {
            put_back(&aside);
            return Err(e);
        }
    };
    for (_, to) in &aside {
        // Only the plan's own bytes and temporary leftovers are there; a folder that cannot
        // be removed now is removed later as a stale temporary one.
        let _ = std::fs::remove_dir_all(to);
    }
    Ok(Published {
        written: artifacts.iter().map(|a| a.path.clone()).collect(),
        created_dirs: plan.folders,
        already_published: false,
        changed_since: Vec::new(),
    })
}

/// Writes the plan's parts in order: one part as it is (its rename is the whole change);
/// several behind a journal at `journal_path`, removed once they are all in place. Any failure
/// undoes what was written (the journal marked `back` first, so a kill during the undo is
/// finished as an undo).
fn write_all(
    root: &Path,
    journal_path: &Path,
    plan: &write::WritePlan,
) -> std::result::Result<(), PublishError> {
    if plan.parts.len() <= 1 {
        for part in &plan.parts {
            if let Err(error) = write::write_part(root, plan, part) {
                let undone = write::undo(root, &plan.journal_files(), &plan.folders, None);
                let rollback = journal::rollback_of(undone);
                return Err(PublishError { error, rollback });
            }
        }
        return Ok(());
    }
    let journal =
        journal::begin(root, journal_path, plan).map_err(PublishError::before_any_write)?;
    for (i, part) in plan.parts.iter().enumerate() {
        if i > 0 {
            crate::io::test_hook::stall_at("publish-unit");
        }
        if let Err(error) = write::write_part(root, plan, part) {
            let rollback = journal::roll_back(root, journal_path, &journal);
            return Err(PublishError { error, rollback });
        }
    }
    // Every part is in place: a journal that could not be removed is found complete by the
    // next recovery, which removes it.
    let _ = journal::end(root, journal_path);
    Ok(())
}

/// Whether every target is already a regular file, reached as a write would reach it (no final
/// link), holding exactly its artifact's bytes: then applying the plan again changes nothing,
/// and it succeeds without writing. One target missing or different and the plan is published
/// by the usual rules (a file in the way is still `PUBLISH_TARGET_EXISTS` unless the artifact may
/// overwrite it). An empty plan is never "already published".
fn already_published(root: &Path, artifacts: &[Artifact], targets: &[PathBuf]) -> bool {
    !artifacts.is_empty()
        && artifacts
            .iter()
            .zip(targets)
            .all(|(artifact, target)| holds_exactly(root, artifact, target))
}

/// Whether `target` (where `artifact` is written) is a regular file, reached as a write would
/// reach it (no final link), holding exactly the artifact's bytes; its size is compared first.
fn holds_exactly(root: &Path, artifact: &Artifact, target: &Path) -> bool {
    let Ok(entry) = entry_target(root, target) else {
        return false;
    };
    let bytes = artifact.content.as_bytes();
    let same_size = std::fs::symlink_metadata(&entry)
        .is_ok_and(|m| m.file_type().is_file() && m.len() == bytes.len() as u64);
    same_size
        && read_regular_sized(&entry, bytes.len() as u64)
            .is_ok_and(|now| now.as_deref() == Some(bytes))
}

/// Checks that the place a write to `rel` lands, links followed, is inside the place one of the
/// `destinations` holding `rel` lands: a link under `docs/designs` that leads elsewhere in the
/// workspace (to `.workflow`, say) would put an approved path's bytes in a file nobody approved
/// (`SEMANTIC_PATH_REJECTED`). A destination that is itself a link inside the workspace is
/// followed, as any writer of aw follows it.
fn stays_in_destination(
    root: &Path,
    rel: &str,
    target: &Path,
    destinations: &[String],
) -> std::result::Result<(), CapabilityError> {
    let real = write_target(root, target).map_err(|e| from_workspace(None, e))?;
    for dest in destinations.iter().filter(|d| is_within(rel, d)) {
        let trimmed = dest.trim_end_matches('/');
        let logical = if trimmed.is_empty() || trimmed == "." {
            root.to_path_buf()
        } else {
            root.join(trimmed)
        };
        let real_dest = write_target(root, &logical).map_err(|e| from_workspace(None, e))?;
        if real.starts_with(&real_dest) {
            return Ok(());
        }
    }
    Err(CapabilityError::new(
        ErrorCode::SemanticPathRejected,
        format!(
            "'{rel}' was left unchanged: a symbolic link on the way leads out of its allowed destination ({})",
            destinations.join(", ")
        ),
        "Replace the symbolic link with a real folder inside the destination (or remove it), then apply again.",
    ))
}

fn leftover(rel: &str, kind: LeftoverKind, e: WorkspaceError) -> Leftover {
    Leftover {
        path: rel.to_owned(),
        kind,
        why: e.to_string(),
    }
}

fn failed(rel: &str, why: String) -> CapabilityError {
    CapabilityError::new(
        ErrorCode::PublishFailed,
        format!("'{rel}' could not be published: {why}"),
        "Fix the cause (a file or folder in the way, permissions, free space), then apply again.",
    )
}

/// A shell failure as the publish reports it: a refusal keeps its code (a link out of the
/// workspace is `PATH_OUTSIDE_WORKSPACE`), and an I/O failure while writing `rel` is
/// `PUBLISH_FAILED`.
fn from_workspace(rel: Option<&str>, e: WorkspaceError) -> CapabilityError {
    match (rel, &e) {
        (Some(rel), WorkspaceError::Io { .. }) => failed(rel, e.to_string()),
        _ => CapabilityError::new(e.code(), e.to_string(), e.action()),
    }
}

/// The lock could not be taken: busy is `CAPABILITY_EFFECT_LOCKED`; anything else (a `.lock`
/// that is a link, a folder that cannot be created) keeps its own code.
fn lock_failure(e: WorkspaceError) -> CapabilityError {
    match e {
        WorkspaceError::LockBusy { pid, waited_ms } => CapabilityError::new(
            ErrorCode::CapabilityEffectLocked,
            format!(
                "the workspace lock is held by another process (pid {pid}) and stayed held for {waited_ms} ms; nothing was written"
            ),
            "Wait for the other aw command to finish, then apply again (AW_LOCK_WAIT_MS sets how long aw waits).",
        ),
        other => from_workspace(None, other),
    }
}

#[cfg(test)]
mod recovery_tests;
#[cfg(test)]
mod tests;
