//! `remove-source` on disk: the source's row and branch lines leave the project block (both
//! files), its folder leaves the hosts' multi-root settings (unless another source still has it),
//! and its launch folder `.<ns>/launch/<alias>/` is deleted. The source's own folder is never
//! touched. Everything is planned first from one read of each file (a dry run reports exactly
//! what a run does), then written under the workspace lock.

use crate::error::WorkspaceError;
use crate::locate::Workspace;
use crate::project::launch::{LaunchDir, apply_remove, plan_remove};
use crate::project::visibility::{HostsPlan, VisibilityError, canonical_root, plan_hosts};
use crate::project::{
    PlannedFile, ProjectFiles, is_external, plan_locked, planned_targets, resolve_source,
    write_planned,
};
use aw_core::project::InputError;
use aw_core::project::reconcile::{Removal, remove_source};
use aw_core::project::visibility::Skip;
use std::path::PathBuf;

/// What happens to the source's folder in the hosts' settings.
#[derive(Debug, Clone)]
pub enum Detach {
    /// The folder is inside the workspace: no host lists it.
    NotExternal,
    /// Another source has the same folder: it stays listed.
    StillUsed,
    /// Withdrawn from the hosts' files.
    Withdrawn {
        /// The resolved folder.
        path: String,
        /// Each host's file.
        hosts: Box<HostsPlan>,
    },
}

/// Everything a run of `remove-source` changes.
#[derive(Debug, Clone)]
pub struct RemovalPlan {
    /// The workspace root.
    pub root: PathBuf,
    /// The block without the source, the source, its branch lines.
    pub removal: Removal,
    /// The lines the write leaves out, as the block carried them: the source's branch lines,
    /// then the records either file carried for an alias or role the block no longer declares.
    pub dropped_lines: Vec<String>,
    /// `CLAUDE.md` and `AGENTS.md`.
    pub files: Vec<PlannedFile>,
    /// The hosts' settings.
    pub detach: Detach,
    /// `.<ns>/launch/<alias>/`.
    pub launch: LaunchDir,
}

/// Why `remove-source` refused (nothing has been written).
#[derive(Debug, thiserror::Error)]
pub enum RemoveError {
    /// Neither CLAUDE.md nor AGENTS.md has a project block.
    #[error("this workspace has no project block")]
    NoBlock,
    /// The alias is not a source of the block.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A host's settings file cannot be merged, or a read failed.
    #[error(transparent)]
    Visibility(#[from] VisibilityError),
}

impl From<WorkspaceError> for RemoveError {
    fn from(e: WorkspaceError) -> Self {
        RemoveError::Visibility(VisibilityError::Workspace(e))
    }
}

fn plan(ws: &Workspace, alias: &str, now: &str) -> Result<RemovalPlan, RemoveError> {
    let root = canonical_root(&ws.root);
    let files = ProjectFiles::read(&root)?;
    let block = files.block(&ws.ns).ok_or(RemoveError::NoBlock)?;
    let removal = remove_source(&block, alias)?;
    let folder = resolve_source(&root, &removal.source.path);
    let shared = removal
        .block
        .sources
        .iter()
        .any(|s| resolve_source(&root, &s.path) == folder);
    let detach = if !is_external(&root, &folder) {
        Detach::NotExternal
    } else if shared {
        Detach::StillUsed
    } else {
        let path = folder.to_string_lossy().into_owned();
        let hosts = plan_hosts(
            &root,
            &[],
            std::slice::from_ref(&path),
            false,
            Skip::default(),
        )?;
        Detach::Withdrawn {
            path,
            hosts: Box::new(hosts),
        }
    };
    // A block exists (its language is known), so no trace of the reference is looked for.
    let language = files.fallback_language(ws, None)?.language;
    let planned = files.plan(&ws.ns, &removal.block, now, language);
    let mut dropped_lines: Vec<String> = removal.dropped_lines.iter().map(|d| d.text()).collect();
    dropped_lines.extend(files.dropped(&ws.ns));
    Ok(RemovalPlan {
        dropped_lines,
        launch: plan_remove(ws, alias)?,
        root,
        removal,
        files: planned,
        detach,
    })
}

/// Runs `remove-source <alias>` in `ws`: plans, and unless `dry_run` writes the plan (block,
/// hosts' settings, launch folder, in that order), under the workspace lock; `now`
/// (`YYYY-MM-DD HH:MM`) stamps the block.
pub fn run(
    ws: &Workspace,
    alias: &str,
    now: &str,
    dry_run: bool,
) -> Result<RemovalPlan, RemoveError> {
    if dry_run {
        return plan(ws, alias, now);
    }
    let (lock, planned) = plan_locked(ws, || plan(ws, alias, now))?;
    let root = lock.root().to_path_buf();
    // Every file is checked before the first write: a refusal leaves the block, the hosts'
    // settings and the launch folder as they were.
    let hosts = match &planned.detach {
        Detach::Withdrawn { hosts, .. } => Some(hosts),
        _ => None,
    };
    crate::io::containment::check_writes(
        &root,
        planned_targets(&planned.files).chain(hosts.iter().flat_map(|h| h.targets())),
    )?;
    write_planned(&root, &planned.files)?;
    if let Some(hosts) = hosts {
        hosts.write(&root)?;
    }
    apply_remove(&root, &planned.launch)?;
    drop(lock);
    Ok(planned)
}
