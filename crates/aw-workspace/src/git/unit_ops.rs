//! The git calls that make, merge and remove isolation units: the only ones of aw that change a
//! repository. Each runs once with the fixed environment of every aw git call, except that it
//! may take git's optional locks (it writes anyway). A failure comes back as git's first error
//! line, for the caller's refusal; nothing here decides what a failure means.

use super::{first_error_line, quoting_command};
use aw_core::project::sources::porcelain_paths;
use std::path::Path;
use std::process::{Command, Output};

/// `git -C <dir> -c core.quotepath=off <args>`, allowed to write.
fn writing(dir: &Path, args: &[&str]) -> Command {
    let mut c = quoting_command(dir, &["-c", "core.quotepath=off"]);
    c.env_remove("GIT_OPTIONAL_LOCKS").args(args);
    c
}

fn run(dir: &Path, args: &[&str]) -> Result<Output, String> {
    writing(dir, args)
        .output()
        .map_err(|e| format!("git could not be started: {e}"))
}

fn ok(dir: &Path, args: &[&str]) -> Result<Output, String> {
    let out = run(dir, args)?;
    if out.status.success() {
        Ok(out)
    } else {
        Err(first_error_line(&out))
    }
}

fn stdout_line(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// Whether `dir` is inside a git repository (`git rev-parse --git-dir`).
pub fn is_repository(dir: &Path) -> bool {
    dir.is_dir() && ok(dir, &["rev-parse", "--git-dir"]).is_ok()
}

/// `git worktree prune`: a unit whose folder was deleted by hand stops holding its branch.
/// Best effort: a failure leaves git's list as it was, which the next step reads anyway.
pub fn prune(source: &Path) {
    let _ = run(source, &["worktree", "prune"]);
}

/// Whether the local branch `branch` exists.
pub fn branch_exists(source: &Path, branch: &str) -> bool {
    let full = format!("refs/heads/{branch}");
    ok(source, &["show-ref", "--verify", "--quiet", &full]).is_ok()
}

/// Adds the worktree `path` on `branch`: the branch checked out again when it exists (a unit
/// released earlier comes back on its own commits), else created from `base`.
pub fn add(source: &Path, path: &Path, branch: &str, base: &str) -> Result<(), String> {
    let target = path.to_string_lossy();
    if branch_exists(source, branch) {
        ok(source, &["worktree", "add", &target, branch]).map(drop)
    } else {
        ok(source, &["worktree", "add", "-b", branch, &target, base]).map(drop)
    }
}

/// `git worktree remove <path>`, never forced: git refuses when the unit holds changes.
pub fn remove(source: &Path, path: &str) -> Result<(), String> {
    ok(source, &["worktree", "remove", path]).map(drop)
}

/// The commit HEAD points at in `dir`; `None` when there is none or git failed.
pub fn head(dir: &Path) -> Option<String> {
    ok(dir, &["rev-parse", "HEAD"])
        .ok()
        .map(|o| stdout_line(&o))
}

/// The branch checked out in `dir`; `None` when HEAD is detached or git failed.
pub fn current_branch(dir: &Path) -> Option<String> {
    let name = stdout_line(&ok(dir, &["branch", "--show-current"]).ok()?);
    (!name.is_empty()).then_some(name)
}

/// The paths `git status --porcelain` lists in `dir` (changed, staged or untracked), in git's
/// order; `None` when git failed.
pub fn changed_paths(dir: &Path) -> Option<Vec<String>> {
    ok(dir, &["status", "--porcelain"])
        .ok()
        .map(|o| porcelain_paths(&String::from_utf8_lossy(&o.stdout)))
}

/// Whether a merge is in progress in the checkout `dir` (`MERGE_HEAD` resolves).
pub fn merge_in_progress(dir: &Path) -> bool {
    ok(dir, &["rev-parse", "-q", "--verify", "MERGE_HEAD"]).is_ok()
}

/// `git merge --abort`: undoes a merge left in progress. Whether it succeeded.
pub fn abort_merge(dir: &Path) -> bool {
    ok(dir, &["merge", "--abort"]).is_ok()
}

/// How a merge ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Merge {
    /// Merged (or already up to date).
    Done,
    /// Stopped with these files in conflict; the merge is left in progress.
    Conflicted(Vec<String>),
    /// git failed for another reason: its first error line.
    Failed(String),
}

/// `git merge --no-edit <branch>` in the checkout `dir` (fast-forward allowed), and the files
/// left in conflict when it stops (`git diff --name-only --diff-filter=U`).
pub fn merge(dir: &Path, branch: &str) -> Merge {
    let out = match run(dir, &["merge", "--no-edit", branch]) {
        Ok(o) => o,
        Err(e) => return Merge::Failed(e),
    };
    if out.status.success() {
        return Merge::Done;
    }
    let conflicted = ok(dir, &["diff", "--name-only", "--diff-filter=U"])
        .map(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .filter(|l| !l.is_empty())
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    if conflicted.is_empty() {
        let why = first_error_line(&out);
        let why = if why.is_empty() {
            stdout_line(&out)
        } else {
            why
        };
        Merge::Failed(why)
    } else {
        Merge::Conflicted(conflicted)
    }
}
