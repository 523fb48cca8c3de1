//! A workspace's isolation units as they stand: for each source of the project block, its
//! worktrees as git lists them, read against the units root and the sessions folder by the core
//! (`aw_core::isolation::units`). The listing is read-only: nothing is created, not even the
//! units root. `verbs` makes, removes and merges units.

pub mod verbs;

use crate::error::{Result, WorkspaceError};
use crate::git::TimedOut;
use crate::git::branch_check::resolved_file;
use crate::git::worktrees::{self, Worktrees};
use crate::locate::{Workspace, slashed};
use crate::project::{ProjectFiles, resolve_source};
use crate::sessions::resolver::{self, Request};
use aw_core::isolation::unit_check::{
    BranchCheck, Identity, UnitQuestion, UnitRef, source_units, unit_verdict,
};
use aw_core::isolation::units::{
    Inventory, Scope, Unreadable, classify, parse_unit_path, units_dir, workspace_key,
};
use aw_core::project::branch_check::{SourceFolder, owner};
use aw_core::project::sources::expected_work_branch;
use aw_core::session::folder::{SessionFolder, SessionState};
use aw_core::session::resolve::Intent;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The units root, `<home>/.<ns>/worktrees`, in its real spelling (git reports worktree paths
/// with every symbolic link resolved). It is not created when missing (the reference creates it
/// on every listing; a listing here writes nothing): the real spelling of its deepest existing
/// folder, with the missing rest appended, which is where git would have put a unit anyway.
pub fn units_root(home: &Path, ns: &str) -> PathBuf {
    real_or_lexical(&home.join(units_dir(ns)))
}

/// `path` with its deepest existing ancestor resolved (all of it when it exists).
fn real_or_lexical(path: &Path) -> PathBuf {
    let mut missing = Vec::new();
    let mut at = path;
    loop {
        if let Ok(real) = at.canonicalize() {
            let mut out = real;
            out.extend(missing.iter().rev());
            return out;
        }
        match (at.parent(), at.file_name()) {
            (Some(parent), Some(name)) => {
                missing.push(name.to_owned());
                at = parent;
            }
            _ => return path.to_path_buf(),
        }
    }
}

/// The workspace's key among the units: of its root's real spelling (the reference keys the
/// folder it was started in, which the system reports resolved).
pub fn key_of(ws: &Workspace) -> String {
    let root = ws.root.canonicalize().unwrap_or_else(|_| ws.root.clone());
    workspace_key(&slashed(&root))
}

/// Every unit of the workspace (or only `only`'s, a resolved session folder), sources in the
/// project block's order: a source that is missing or not a repository has none; one whose
/// worktrees git cannot list is `unreadable`. `sessions` is the sessions folder's listing, with
/// states. With `dirty`, `git status` is asked of each live unit (only `aw worktree list`
/// shows it; without, `dirty` is `None`).
pub fn inventory(
    ws: &Workspace,
    home: &Path,
    sessions: &[SessionFolder],
    only: Option<&str>,
    dirty: bool,
) -> Result<Inventory> {
    let state = |folder: &str| {
        sessions
            .iter()
            .find(|s| s.folder == folder)
            .map(|s| s.state)
    };
    inventory_with(ws, home, only, &state, dirty)
}

/// [`inventory`] with the sessions' states answered by `state` (`None`: no such folder).
pub fn inventory_with(
    ws: &Workspace,
    home: &Path,
    only: Option<&str>,
    state: &dyn Fn(&str) -> Option<SessionState>,
    dirty: bool,
) -> Result<Inventory> {
    let block = ProjectFiles::read(&ws.root)?.block(&ws.ns);
    let key = key_of(ws);
    let mut inv = Inventory {
        workspace_key: key.clone(),
        ..Inventory::default()
    };
    let sources: Vec<_> = block.iter().flat_map(|b| &b.sources).collect();
    if sources.is_empty() {
        return Ok(inv);
    }
    let root = slashed(&units_root(home, &ws.ns));
    let scope = Scope {
        root: &root,
        key: &key,
        only,
    };
    for source in sources {
        let dir = resolve_source(&ws.root, &source.path);
        // A repository with no linked worktree has no unit: said by its files, without git.
        if worktrees::has_linked(&dir) == Some(false) {
            continue;
        }
        let entries = match worktrees::list(&dir) {
            Worktrees::NotARepository => continue,
            Worktrees::Unreadable(error) => {
                inv.unreadable.push(Unreadable {
                    alias: source.alias.clone(),
                    error,
                });
                continue;
            }
            Worktrees::Listed(entries) => entries,
        };
        for found in classify(&scope, &entries, state) {
            match found.orphan {
                None => {
                    let changed = dirty
                        .then(|| worktrees::dirty(Path::new(&found.entry.path)))
                        .flatten();
                    inv.units.push(found.live(&source.path, changed));
                }
                Some(reason) => inv.orphans.push(found.orphaned(reason)),
            }
        }
    }
    Ok(inv)
}

/// Where the unit rule looks for a workspace's units: the units root (real spelling) and the
/// workspace's key.
#[derive(Debug, Clone)]
pub struct UnitScope {
    /// `<home>/.<ns>/worktrees`, real as far as it exists.
    pub root: String,
    /// This workspace's key.
    pub key: String,
}

impl UnitScope {
    /// The scope of `ws` for the user whose home is `home`.
    pub fn of(ws: &Workspace, home: &Path) -> Self {
        UnitScope {
            root: slashed(&units_root(home, &ws.ns)),
            key: key_of(ws),
        }
    }

    /// The alias of the unit of this workspace that `path` (resolved) is in, if any.
    pub fn alias_of(&self, path: &Path) -> Option<String> {
        parse_unit_path(&self.root, &slashed(path))
            .filter(|id| id.workspace_key == self.key)
            .map(|id| id.alias)
    }

    /// The units of the source `alias` at `folder` (resolved), by `deadline`: read from the
    /// repository's files when they say it plainly (no git started, so an edit costs the same
    /// with or without units), else from `git worktree list`; a source git cannot list has none (the plain branch check then runs: a failed read never
    /// invents a refusal).
    pub fn units_of(
        &self,
        alias: &str,
        folder: &Path,
        deadline: Instant,
    ) -> std::result::Result<Vec<UnitRef>, TimedOut> {
        // The repository's files first (no git started); git when they do not say it plainly.
        if let Some(entries) = crate::git::head::linked_worktrees(folder) {
            return Ok(source_units(&self.root, &self.key, alias, &entries));
        }
        Ok(match worktrees::list_until(folder, deadline)? {
            Worktrees::Listed(entries) => source_units(&self.root, &self.key, alias, &entries),
            Worktrees::NotARepository | Worktrees::Unreadable(_) => Vec::new(),
        })
    }
}

/// Who is editing, for the unit rule: `code`, else the conversation `context_id` is bound to,
/// else the only active session; resolved for reading (a closed session is refused, as it
/// works in no unit) and never bound. A refusal of the resolver is the unknown identity; a
/// sessions folder that cannot be read is an error.
pub fn identity(ws: &Workspace, code: Option<&str>, context_id: Option<&str>) -> Result<Identity> {
    let req = Request {
        code,
        allow_closed: false,
        bind: false,
        context_id,
        intent: Intent::Read,
    };
    match resolver::resolve(ws, &req) {
        Ok(r) => Ok(Identity::Resolved(r.folder)),
        Err(e @ (WorkspaceError::Session(_) | WorkspaceError::Refused { .. })) => {
            Ok(Identity::Unresolved {
                message: e.to_string(),
                action: e.action(),
            })
        }
        Err(e) => Err(e),
    }
}

/// What `aw check-branch` is asked.
#[derive(Debug, Clone, Copy)]
pub struct CheckRequest<'a> {
    /// `--source`.
    pub alias: Option<&'a str>,
    /// `--path`.
    pub path: Option<&'a str>,
    /// `--file`.
    pub file: Option<&'a str>,
    /// `--code` (or `--session`).
    pub code: Option<&'a str>,
    /// The conversation's context id.
    pub context_id: Option<&'a str>,
    /// Where a relative `--file` or `--path` is taken from.
    pub cwd: &'a Path,
}

/// `aw check-branch`: the owning source (`--source` by alias; `--path` equal to a source's
/// path as written, else as `--file`; `--file` in a unit of this workspace → that unit's
/// source, else the deepest source whose folder holds it), then the unit rule when that source
/// has units of this workspace, else the plain branch check. `home` is `None` when unknown (no
/// units root: the plain check).
pub fn check_branch(
    ws: &Workspace,
    home: Option<&Path>,
    req: &CheckRequest<'_>,
) -> Result<BranchCheck> {
    let Some(block) = ProjectFiles::read(&ws.root)?.block(&ws.ns) else {
        return Ok(BranchCheck::NoSources);
    };
    if block.sources.is_empty() {
        return Ok(BranchCheck::NoSources);
    }
    let scope = home.map(|h| UnitScope::of(ws, h));
    let by_alias = |alias: &str| block.sources.iter().find(|s| s.alias == alias);
    let asked = req.file.or(req.path);
    let file = asked.map(|p| resolved_file(req.cwd, p));
    let source = if let Some(alias) = req.alias {
        by_alias(alias)
    } else if let Some(p) = req
        .path
        .filter(|p| block.sources.iter().any(|s| s.path == *p))
    {
        block.sources.iter().find(|s| s.path == p)
    } else if let Some(file) = &file {
        let in_unit = scope.as_ref().and_then(|s| s.alias_of(file));
        match in_unit.as_deref().and_then(by_alias) {
            Some(s) => Some(s),
            None => {
                let folders: Vec<SourceFolder> = block
                    .sources
                    .iter()
                    .map(|s| SourceFolder {
                        alias: s.alias.clone(),
                        folder: resolve_source(&ws.root, &s.path),
                    })
                    .collect();
                owner(file, &folders).and_then(|f| by_alias(&f.alias))
            }
        }
    } else {
        None
    };
    let Some(source) = source else {
        return Ok(BranchCheck::NotManaged);
    };
    let folder = resolve_source(&ws.root, &source.path);
    // A listing without a deadline: the command has no host waiting on it.
    let far = Instant::now() + Duration::from_secs(24 * 60 * 60);
    let units = match &scope {
        Some(s) => s.units_of(&source.alias, &folder, far).unwrap_or_default(),
        None => Vec::new(),
    };
    if let Some(scope) = scope.filter(|_| !units.is_empty()) {
        let who = identity(ws, req.code, req.context_id)?;
        let file = file.as_deref().map(slashed);
        return Ok(BranchCheck::Unit(Box::new(unit_verdict(&UnitQuestion {
            alias: &source.alias,
            source_path: &source.path,
            units: &units,
            file: file.as_deref(),
            identity: &who,
            raw_code: req.code,
            units_root: &scope.root,
            workspace_key: &scope.key,
        }))));
    }
    let (expected, _) = expected_work_branch(&block, &source.alias, None);
    let Some(expected) = expected else {
        return Ok(BranchCheck::NoExpectedBranch {
            alias: source.alias.clone(),
            path: source.path.clone(),
        });
    };
    Ok(BranchCheck::Branch {
        alias: source.alias.clone(),
        path: source.path.clone(),
        main_branch: source.main_branch.clone(),
        expected: expected.to_owned(),
        git: crate::git::probe(&folder),
        session_code: req.code.map(str::to_owned),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_units_root_is_real_as_far_as_it_exists_and_never_created() {
        let tmp = tempfile::tempdir().unwrap();
        let real = tmp.path().canonicalize().unwrap();
        std::fs::create_dir_all(real.join("actual")).unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(real.join("actual"), real.join("home")).unwrap();
            assert_eq!(
                units_root(&real.join("home"), "workflow"),
                real.join("actual/.workflow/worktrees")
            );
        }
        assert!(!real.join("actual/.workflow").exists());
        std::fs::create_dir_all(real.join("actual/.workflow/worktrees")).unwrap();
        assert_eq!(
            units_root(&real.join("actual"), "workflow"),
            real.join("actual/.workflow/worktrees")
        );
    }
}
