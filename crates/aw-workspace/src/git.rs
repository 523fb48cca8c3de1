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

/// Asks git about `dir`.
pub fn probe(dir: &Path) -> GitState {
    if !dir.is_dir() {
        return GitState::MissingFolder;
    }
    let head = match git(dir, &["rev-parse", "--abbrev-ref", "HEAD"]) {
        Ok(o) => o,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return GitState::GitNotFound,
        Err(e) => return GitState::Failed(e.to_string()),
    };
    if !head.status.success() {
        let msg = first_error_line(&head);
        if msg.contains("not a git repository") {
            return GitState::NotARepository;
        }
        // A repository without commits has no HEAD to abbreviate; its branch is still named.
        if let Ok(o) = git(dir, &["symbolic-ref", "--short", "HEAD"])
            && o.status.success()
        {
            let branch = String::from_utf8_lossy(&o.stdout).trim().to_owned();
            return with_changes(dir, branch);
        }
        return GitState::Failed(msg);
    }
    let branch = String::from_utf8_lossy(&head.stdout).trim().to_owned();
    with_changes(dir, branch)
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
