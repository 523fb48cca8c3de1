//! A workspace's isolation units as they stand: for each source of the project block, its
//! worktrees as git lists them, read against the units root and the sessions folder by the core
//! (`aw_core::isolation::units`). The listing is read-only: nothing is created, not even the
//! units root. `verbs` makes, removes and merges units.

pub mod verbs;

use crate::error::Result;
use crate::git::worktrees::{self, Worktrees};
use crate::locate::{Workspace, slashed};
use crate::project::{ProjectFiles, resolve_source};
use aw_core::isolation::units::{Inventory, Scope, Unreadable, classify, units_dir, workspace_key};
use aw_core::session::folder::{SessionFolder, SessionState};
use std::path::{Path, PathBuf};

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
