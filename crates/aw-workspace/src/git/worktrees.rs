//! A source's worktrees, as git lists them, and whether a worktree has uncommitted changes: what
//! `aw worktree list` reads. Read-only, like every git call of aw (no optional locks taken, so
//! `git status` does not rewrite a unit's index).

use super::{first_error_line, git};
use aw_core::isolation::units::{WorktreeEntry, parse_worktree_porcelain};
use std::path::Path;

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

/// Whether the repository whose work tree is `dir` has a linked worktree, from its files:
/// `Some(false)` when `dir/.git` is a folder with no `worktrees` folder (or an empty one), which
/// is where git keeps every linked worktree's record; `None` when the files do not say plainly
/// (`.git` a file, as in a linked worktree or a submodule, or `dir` below the work tree's top),
/// and git must be asked.
pub fn has_linked(dir: &Path) -> Option<bool> {
    let git_dir = dir.join(".git");
    if !std::fs::symlink_metadata(&git_dir).ok()?.is_dir() {
        return None;
    }
    match std::fs::read_dir(git_dir.join("worktrees")) {
        Ok(mut entries) => Some(entries.next().is_some()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(false),
        Err(_) => None,
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
        assert_eq!(has_linked(&base), None);
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
        assert_eq!(has_linked(&unit), None);
        assert!(entries[0].main);
        assert_eq!(entries[1].path, unit.to_str().unwrap());
        assert_eq!(entries[1].branch.as_deref(), Some("aw/001-x"));
        // Listed from inside the unit too: the same repository.
        assert!(matches!(list(&unit), Worktrees::Listed(e) if e.len() == 2));
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
