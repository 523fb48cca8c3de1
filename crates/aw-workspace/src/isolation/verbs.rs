//! `aw worktree ensure | release | integrate` on disk: one source's unit of one session made,
//! removed or merged back, with git (`crate::git::unit_ops`) and the hosts' settings
//! (`attach-multiroot` / `detach-multiroot` of the unit's folder). The rules are
//! `aw_core::isolation`; a refusal comes back as `Ok(Err(refusal))`, printed by the command as
//! its result, and only a failure of aw's own (a folder it cannot make, the lock file) is an
//! error.

use super::{key_of, units_root};
use crate::error::{Result, WorkspaceError};
use crate::git::unit_ops::{self, Merge};
use crate::git::worktrees::{self, Worktrees};
use crate::io::lock::{WorkspaceLock, default_wait};
use crate::locate::{Workspace, slashed};
use crate::project::resolve_source;
use crate::project::visibility::{Direction, MultirootRequest, multiroot};
use crate::sessions::{
    self,
    custody::{self, CustodyError},
};
use aw_core::custody::UnitSource;
use aw_core::error_code::ErrorCode;
use aw_core::isolation::integration::{self, Ensure, Readiness, conflict_next, working_branch};
use aw_core::isolation::refusal::{self, Refusal, RefusalKind};
use aw_core::isolation::units::{WorktreeEntry, is_safe_segment, release_command, unit_branch};
use aw_core::project::model::{Block, Source};
use aw_core::project::visibility::Skip;
use aw_core::wire::worktree::{EnsuredUnit, ReleasedUnit, UnitIntegration, UnitVisibility};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long `integrate` waits for the workspace lock before giving up (the reference's 10 s).
const INTEGRATE_WAIT: Duration = Duration::from_secs(10);

/// One session's unit of one source: what every verb needs.
#[derive(Debug, Clone, Copy)]
pub struct UnitRequest<'a> {
    /// The workspace.
    pub ws: &'a Workspace,
    /// The user's home, where the units root is.
    pub home: &'a Path,
    /// The project block (the source's working branch).
    pub block: &'a Block,
    /// The source.
    pub source: &'a Source,
    /// The session folder (resolved, active).
    pub folder: &'a str,
    /// Today's local date, for the custody record.
    pub today: &'a str,
}

/// Where a unit is, once its source is known to be a repository.
struct Located {
    /// The source's folder.
    dir: PathBuf,
    /// The unit's folder, in the units root's real spelling.
    path: PathBuf,
    /// `path` as git spells it.
    spelled: String,
    /// `aw/<folder>`.
    branch: String,
}

fn locate(
    req: &UnitRequest<'_>,
    create_root: bool,
) -> Result<std::result::Result<Located, Refusal>> {
    let dir = resolve_source(&req.ws.root, &req.source.path);
    if !unit_ops::is_repository(&dir) {
        return Ok(Err(refusal::not_a_repo(
            &req.source.alias,
            &req.source.path,
        )));
    }
    if !is_safe_segment(&req.source.alias) || !is_safe_segment(req.folder) {
        return Err(WorkspaceError::Refused {
            code: ErrorCode::InvalidInput,
            message: format!(
                "The source alias '{}' cannot name a folder of the units root (it must be one \
                 plain path segment).",
                req.source.alias
            ),
            action: "Rename the source in the project block's sources table to a plain name \
                     (letters, digits, '-', '_', '.'), then run the command again."
                .to_owned(),
        });
    }
    let mut root = units_root(req.home, &req.ws.ns);
    if create_root {
        std::fs::create_dir_all(&root).map_err(|e| WorkspaceError::io("create", &root, e))?;
        root = root.canonicalize().unwrap_or(root);
    }
    let path = root
        .join(key_of(req.ws))
        .join(&req.source.alias)
        .join(req.folder);
    Ok(Ok(Located {
        dir,
        spelled: slashed(&path),
        path,
        branch: unit_branch(req.folder),
    }))
}

fn listed(dir: &Path) -> Result<Vec<WorktreeEntry>> {
    match worktrees::list(dir) {
        Worktrees::Listed(entries) => Ok(entries),
        Worktrees::NotARepository => Ok(Vec::new()),
        Worktrees::Unreadable(why) => Err(WorkspaceError::Refused {
            code: ErrorCode::IoError,
            message: format!("The source's worktrees cannot be listed: {why}."),
            action: "Check the repository with `git worktree list`, then run the command again."
                .to_owned(),
        }),
    }
}

/// Lists or withdraws the unit's folder in the hosts' settings, as `attach-multiroot --path`
/// and `detach-multiroot --path` do.
fn visibility(ws: &Workspace, path: &str, direction: Direction) -> UnitVisibility {
    let req = MultirootRequest {
        direction,
        paths: vec![path.to_owned()],
        from_sources: false,
        skip: Skip::default(),
        dry_run: false,
    };
    match (multiroot(ws, &req), direction) {
        (Ok(_), Direction::Attach) => UnitVisibility::Attached,
        (Ok(_), Direction::Detach) => UnitVisibility::Detached,
        (Err(_), _) => UnitVisibility::Unavailable,
    }
}

/// `aw worktree ensure`: prunes the source's stale worktrees, then finds the unit made, its
/// branch taken elsewhere, or adds it (on its branch when the branch exists, else a new branch
/// from the source's working branch); records what the source stood on in the session's custody
/// (a session without one is a legacy session: nothing to record); then lists its folder in the
/// hosts' settings. Every call records a `unit_taken`, as the reference does.
pub fn ensure(req: &UnitRequest<'_>) -> Result<std::result::Result<EnsuredUnit, Refusal>> {
    let at = match locate(req, true)? {
        Ok(at) => at,
        Err(r) => return Ok(Err(r)),
    };
    // A custody that cannot be read is refused before anything is made.
    let session_dir = sessions::folder_path(req.ws, req.folder);
    if let Err(CustodyError::Unreadable { reason, .. }) = custody::read(&session_dir) {
        return Ok(Err(refusal::custody_unreadable(req.folder, &reason)));
    }
    unit_ops::prune(&at.dir);
    let entries = listed(&at.dir)?;
    let base = working_branch(req.block, &req.source.alias);
    let created = match integration::ensure(&entries, &at.spelled, &at.branch) {
        Ensure::Present => false,
        Ensure::Occupied(occupant) => return Ok(Err(refusal::unit_occupied(&at.branch, occupant))),
        Ensure::Free => {
            if let Some(parent) = at.path.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| WorkspaceError::io("create", parent, e))?;
            }
            if let Err(why) = unit_ops::add(&at.dir, &at.path, &at.branch, &base) {
                return Ok(Err(refusal::worktree_add_failed(
                    &req.source.alias,
                    &req.source.path,
                    &at.branch,
                    &base,
                    &why,
                )));
            }
            true
        }
    };
    let taken = UnitSource {
        alias: req.source.alias.clone(),
        path: req.source.path.clone(),
        branch: Some(unit_ops::current_branch(&at.dir).unwrap_or_else(|| base.clone())),
        baseline_head: unit_ops::head(&at.path).or_else(|| unit_ops::head(&at.dir)),
        unit_branch: at.branch.clone(),
        unit_path: at.spelled.clone(),
        dirty_paths: unit_ops::changed_paths(&at.dir).unwrap_or_default(),
    };
    // The custody is read, changed and written back under the workspace lock, so two verbs of
    // one session never drop each other's effect.
    let lock = WorkspaceLock::of(req.ws, default_wait())?;
    let recorded = custody::record_unit_taken(&session_dir, taken, req.today);
    drop(lock);
    match recorded {
        Ok(_) => {}
        Err(CustodyError::Unreadable { reason, .. }) => {
            return Ok(Err(refusal::custody_unreadable(req.folder, &reason)));
        }
        Err(CustodyError::Write(e)) => return Err(e),
    }
    Ok(Ok(EnsuredUnit {
        alias: req.source.alias.clone(),
        source_path: req.source.path.clone(),
        session: req.folder.to_owned(),
        path: at.spelled.clone(),
        branch: at.branch.clone(),
        created,
        visibility: visibility(req.ws, &at.spelled, Direction::Attach),
    }))
}

/// `aw worktree release`: removes the unit's worktree (never forced; its branch is kept) or,
/// when git lists none, prunes; then withdraws its folder from the hosts' settings.
pub fn release(req: &UnitRequest<'_>) -> Result<std::result::Result<ReleasedUnit, Refusal>> {
    let at = match locate(req, true)? {
        Ok(at) => at,
        Err(r) => return Ok(Err(r)),
    };
    let entries = listed(&at.dir)?;
    let unit = entries.iter().find(|e| !e.main && e.path == at.spelled);
    if unit.is_some_and(|e| !e.prunable && e.branch.as_deref() != Some(&at.branch)) {
        return Ok(Err(refusal::unit_off_branch(
            RefusalKind::UnitNotClean,
            &at.spelled,
            &at.branch,
        )));
    }
    let released = if unit.is_some() {
        if let Err(why) = unit_ops::remove(&at.dir, &at.spelled) {
            return Ok(Err(refusal::unit_not_clean(&at.spelled, &why)));
        }
        true
    } else {
        unit_ops::prune(&at.dir);
        false
    };
    Ok(Ok(ReleasedUnit {
        alias: req.source.alias.clone(),
        session: req.folder.to_owned(),
        path: at.spelled.clone(),
        branch: at.branch,
        released,
        visibility: visibility(req.ws, &at.spelled, Direction::Detach),
    }))
}

/// What `integrate` merged, for the custody record.
#[derive(Debug, Clone)]
pub struct Merged {
    /// The result.
    pub unit: UnitIntegration,
    /// The checkout's HEAD before the merge.
    pub before: Option<String>,
    /// Its HEAD after (`None` when the merge did not complete).
    pub after: Option<String>,
}

/// `aw worktree integrate --source`: checks the preconditions in the reference's order, merges
/// the unit's branch into the source's working branch in the source's own checkout under the
/// workspace lock (never a rebase, never a branch switch), and releases the unit when the
/// merge completed. A conflict leaves the merge in progress and the unit in place.
pub fn integrate(req: &UnitRequest<'_>) -> Result<std::result::Result<Merged, Refusal>> {
    let at = match locate(req, true)? {
        Ok(at) => at,
        Err(r) => return Ok(Err(r)),
    };
    let entries = listed(&at.dir)?;
    let unit_present = entries
        .iter()
        .any(|e| !e.main && !e.prunable && e.path == at.spelled);
    let into = working_branch(req.block, &req.source.alias);
    let clean = |dir: &Path| unit_ops::changed_paths(dir).map(|p| p.is_empty());
    let (unit_clean, checkout_clean, checkout_branch) = if unit_present {
        (
            clean(&at.path),
            clean(&at.dir),
            unit_ops::current_branch(&at.dir),
        )
    } else {
        (None, None, None)
    };
    let readiness = Readiness {
        alias: &req.source.alias,
        folder: req.folder,
        unit_present,
        unit_clean,
        checkout_clean,
        checkout_branch: checkout_branch.as_deref(),
        into: &into,
    };
    if let Some(r) = integration::integrate_refusal(&readiness) {
        return Ok(Err(r));
    }
    let on_branch = entries
        .iter()
        .any(|e| e.path == at.spelled && e.branch.as_deref() == Some(&at.branch));
    if !on_branch {
        return Ok(Err(refusal::unit_off_branch(
            RefusalKind::UnitNotCommitted,
            &at.spelled,
            &at.branch,
        )));
    }
    let lock = match WorkspaceLock::of(req.ws, INTEGRATE_WAIT) {
        Ok(lock) => lock,
        Err(WorkspaceError::LockBusy { .. }) => return Ok(Err(refusal::integration_locked())),
        Err(e) => return Err(e),
    };
    // Checked again under the lock: another integration may have merged (or left a merge in
    // progress) in this checkout since the first look.
    if unit_ops::merge_in_progress(&at.dir) || clean(&at.dir) != Some(true) {
        return Ok(Err(refusal::checkout_dirty(&req.source.alias)));
    }
    if unit_ops::current_branch(&at.dir).as_deref() != Some(into.as_str()) {
        let current = unit_ops::current_branch(&at.dir);
        return Ok(Err(refusal::checkout_off_branch(
            &req.source.alias,
            current.as_deref().unwrap_or("a detached HEAD"),
            &into,
        )));
    }
    let before = unit_ops::head(&at.dir);
    let merge = unit_ops::merge(&at.dir, &at.branch);
    let mut unit = UnitIntegration {
        alias: req.source.alias.clone(),
        source_path: req.source.path.clone(),
        session: req.folder.to_owned(),
        into,
        branch: at.branch.clone(),
        integrated: false,
        conflicted: Vec::new(),
        released: false,
        next: None,
        custody_error: None,
    };
    match merge {
        Merge::Conflicted(files) => {
            unit.conflicted = files;
            unit.next = Some(conflict_next(&req.source.path));
            return Ok(Ok(Merged {
                unit,
                before,
                after: None,
            }));
        }
        Merge::Failed(why) => {
            // A merge git stopped for another reason (a hook, no identity) may be half-done:
            // undo it, so the checkout is as it was.
            let undone = unit_ops::merge_in_progress(&at.dir) && unit_ops::abort_merge(&at.dir);
            return Ok(Err(refusal::merge_failed(
                &req.source.alias,
                &at.branch,
                &unit.into,
                &why,
                undone,
            )));
        }
        Merge::Done => {}
    }
    unit.integrated = true;
    let after = unit_ops::head(&at.dir);
    let session_dir = sessions::folder_path(req.ws, req.folder);
    // The merge stands whatever the record says; a record that fails is said in the result.
    if let Err(e) = custody::record_unit_integrated(
        &session_dir,
        &req.source.alias,
        before.as_deref(),
        after.as_deref(),
        &unit.into,
        req.today,
    ) {
        unit.custody_error = Some(e.to_string());
    }
    drop(lock);
    match release(req)? {
        Ok(r) => unit.released = r.released,
        Err(_) => unit.next = Some(release_command(&req.source.alias, req.folder)),
    }
    Ok(Ok(Merged {
        unit,
        before,
        after,
    }))
}
