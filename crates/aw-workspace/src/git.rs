//! Running git: the one place aw starts it, always with the same environment.
//!
//! Two questions are asked of it: where a source folder stands (its current branch and the files
//! it has changed) and which files a workspace has changed since its last commit. A missing git,
//! a folder that is not a repository or a failing git is a state to report, never an error of the
//! caller.

use aw_core::checkpoint::{FileTouched, parse_numstat};
pub use aw_core::project::sources::GitState;
use aw_core::project::sources::porcelain_paths;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `git -C <dir> <args>` and collects its output. Every call reads only, so it asks git not
/// to take optional locks (no index refresh written behind the user's back), speaks the C locale
/// (messages aw recognises), never reads stdin, and prints paths unquoted.
fn git(dir: &Path, args: &[&str]) -> std::io::Result<Output> {
    Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "core.quotepath=off"])
        .args(args)
        .env("LC_ALL", "C")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .stdin(Stdio::null())
        .output()
}

fn first_error_line(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .next()
        .unwrap_or("")
        .trim()
        .to_owned()
}

/// Asks git about `dir`. The branch is the checked-out branch's own name (`branch
/// --show-current`: a tag of the same name does not turn it into `heads/<name>`), or `HEAD` when
/// the HEAD is detached.
pub fn probe(dir: &Path) -> GitState {
    if !dir.is_dir() {
        return GitState::MissingFolder;
    }
    let current = match git(dir, &["branch", "--show-current"]) {
        Ok(o) => o,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return GitState::GitNotFound,
        Err(e) => return GitState::Failed(e.to_string()),
    };
    if !current.status.success() {
        let msg = first_error_line(&current);
        if msg.contains("not a git repository") {
            return GitState::NotARepository;
        }
        return GitState::Failed(msg);
    }
    let name = String::from_utf8_lossy(&current.stdout).trim().to_owned();
    let branch = if name.is_empty() {
        "HEAD".to_owned()
    } else {
        name
    };
    with_changes(dir, branch)
}

/// The branch a rebase or `git am` in progress in `dir` is rewriting (its HEAD is detached
/// meanwhile), if one is.
pub fn rebasing_branch(dir: &Path) -> Option<String> {
    let out = git(dir, &["rev-parse", "--absolute-git-dir"]).ok()?;
    if !out.status.success() {
        return None;
    }
    let git_dir = std::path::PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    ["rebase-merge/head-name", "rebase-apply/head-name"]
        .iter()
        .find_map(|f| std::fs::read_to_string(git_dir.join(f)).ok())
        .and_then(|name| name.trim().strip_prefix("refs/heads/").map(str::to_owned))
}

fn with_changes(dir: &Path, branch: String) -> GitState {
    match git(dir, &["status", "--porcelain"]) {
        Ok(o) if o.status.success() => GitState::Repo {
            branch,
            changed_files: porcelain_paths(&String::from_utf8_lossy(&o.stdout)),
        },
        Ok(o) => GitState::Failed(first_error_line(&o)),
        Err(e) => GitState::Failed(e.to_string()),
    }
}

/// Uncommitted changes in the work tree at `root` (`git diff --numstat HEAD`). No git, no
/// repository or no commit yet means no changes to report, never a failure.
pub fn files_touched(root: &Path) -> Vec<FileTouched> {
    match git(root, &["diff", "--numstat", "HEAD"]) {
        Ok(o) if o.status.success() => parse_numstat(&String::from_utf8_lossy(&o.stdout)),
        _ => Vec::new(),
    }
}
