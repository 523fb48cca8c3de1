//! A source's worktrees, as git lists them, and whether a worktree has uncommitted changes: what
//! `aw worktree list` reads. Read-only, like every git call of aw (no optional locks taken, so
//! `git status` does not rewrite a unit's index).

use super::{Late, TimedOut, first_error_line, git, git_until};
use aw_core::isolation::units::{WorktreeEntry, parse_worktree_porcelain};
use std::path::Path;
use std::time::Instant;

/// What a source's folder says about its worktrees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Worktrees {
    /// The folder is missing or is not inside a git repository: it has no worktrees to report.
    NotARepository,
    /// `git worktree list --porcelain`, parsed (the first entry is the main one).
    Listed(Vec<WorktreeEntry>),
    /// git could not be started, or failed to list them: why, in git's words when it gave some.
    Unreadable(String),
}

/// The worktrees of the repository `dir` is in (`git rev-parse --git-dir`, then `git worktree
/// list --porcelain`).
pub fn list(dir: &Path) -> Worktrees {
    if !dir.is_dir() {
        return Worktrees::NotARepository;
    }
    match git(dir, &["rev-parse", "--git-dir"]) {
        Ok(o) if o.status.success() => {}
        Ok(_) => return Worktrees::NotARepository,
        Err(e) => return Worktrees::Unreadable(format!("git could not be started: {e}")),
    }
    match git(dir, &["worktree", "list", "--porcelain"]) {
        Ok(o) if o.status.success() => Worktrees::Listed(parse_worktree_porcelain(
            &String::from_utf8_lossy(&o.stdout),
        )),
        Ok(o) => Worktrees::Unreadable(format!(
            "git worktree list failed in {}: {}",
            dir.display(),
            first_error_line(&o)
        )),
        Err(e) => Worktrees::Unreadable(format!("git could not be started: {e}")),
    }
}

/// Whether the repository holding `dir` has a linked worktree, from its files
/// ([`crate::git::head::linked_worktrees`]): `Some(false)` when it has none, or when no
/// repository holds `dir` at all; `None` when the files do not say plainly and git must be
/// asked.
pub fn has_linked(dir: &Path) -> Option<bool> {
    crate::git::head::linked_worktrees(dir).map(|entries| !entries.is_empty())
}

/// [`list`] within `deadline` (git is stopped past it), for the branch-check hook; the
/// repository is taken as git finds it from `dir`.
pub fn list_until(dir: &Path, deadline: Instant) -> Result<Worktrees, TimedOut> {
    if !dir.is_dir() {
        return Ok(Worktrees::NotARepository);
    }
    match git_until(dir, &["worktree", "list", "--porcelain"], deadline) {
        Ok(o) if o.status.success() => Ok(Worktrees::Listed(parse_worktree_porcelain(
            &String::from_utf8_lossy(&o.stdout),
        ))),
        Ok(o) if first_error_line(&o).contains("not a git repository") => {
            Ok(Worktrees::NotARepository)
        }
        Ok(o) => Ok(Worktrees::Unreadable(format!(
            "git worktree list failed in {}: {}",
            dir.display(),
            first_error_line(&o)
        ))),
        Err(Late::TimedOut) => Err(TimedOut),
        Err(Late::Io) => Ok(Worktrees::Unreadable("git could not be started".to_owned())),
    }
}

/// Whether `git status --porcelain` in `dir` lists anything (modified, staged or untracked);
/// `None` when git could not say (a missing folder, a failing or missing git).
pub fn dirty(dir: &Path) -> Option<bool> {
    match git(dir, &["status", "--porcelain"]) {
        Ok(o) if o.status.success() => Some(!String::from_utf8_lossy(&o.stdout).trim().is_empty()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    fn run(dir: &Path, args: &[&str]) {
        let out = Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@example.com",
                "-c",
                "commit.gpgsign=false",
                "-c",
                "init.defaultBranch=main",
            ])
            .args(args)
            .current_dir(dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {out:?}");
    }

    #[test]
    fn a_repository_lists_its_worktrees_and_a_plain_folder_none() {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().canonicalize().unwrap();
        let repo = base.join("repo");
        std::fs::create_dir_all(&repo).unwrap();
        run(&repo, &["init", "-q"]);
        run(&repo, &["commit", "-q", "--allow-empty", "-m", "init"]);
        assert_eq!(has_linked(&repo), Some(false));
        // No repository holds a plain folder (the test folder is outside any): no worktree.
        assert_eq!(has_linked(&base), Some(false));
        let unit = base.join("units/k/app/001-x");
        run(
            &repo,
            &[
                "worktree",
                "add",
                "-q",
                "-b",
                "aw/001-x",
                unit.to_str().unwrap(),
            ],
        );
        let Worktrees::Listed(entries) = list(&repo) else {
            panic!("{:?}", list(&repo));
        };
        assert_eq!(entries.len(), 2);
        assert_eq!(has_linked(&repo), Some(true));
        assert_eq!(has_linked(&unit), Some(true), "read from the unit too");
        assert!(entries[0].main);
        assert_eq!(entries[1].path, unit.to_str().unwrap());
        assert_eq!(entries[1].branch.as_deref(), Some("aw/001-x"));
        // Listed from inside the unit too: the same repository.
        assert!(matches!(list(&unit), Worktrees::Listed(e) if e.len() == 2));
        // The repository's files say what git says, from the main checkout or the unit.
        let from_files = |dir: &Path| {
            crate::git::head::linked_worktrees(dir)
                .unwrap()
                .into_iter()
                .map(|e| (e.path, e.branch, e.prunable))
                .collect::<Vec<_>>()
        };
        let from_git: Vec<_> = entries[1..]
            .iter()
            .map(|e| (e.path.clone(), e.branch.clone(), e.prunable))
            .collect();
        assert_eq!(from_files(&repo), from_git);
        assert_eq!(from_files(&unit), from_git);
        run(&unit, &["checkout", "-q", "--detach"]);
        assert_eq!(
            from_files(&repo)[0].1,
            None,
            "a detached unit has no branch"
        );
        run(&unit, &["checkout", "-q", "aw/001-x"]);
        assert_eq!(dirty(&unit), Some(false));
        std::fs::write(unit.join("new.txt"), "x").unwrap();
        assert_eq!(dirty(&unit), Some(true));

        let plain = base.join("plain");
        std::fs::create_dir_all(&plain).unwrap();
        assert_eq!(list(&plain), Worktrees::NotARepository);
        assert_eq!(list(&base.join("missing")), Worktrees::NotARepository);
        assert_eq!(dirty(&base.join("missing")), None);
    }
}
