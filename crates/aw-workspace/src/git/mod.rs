//! Running git: the one place aw starts it, always with the same environment.
//!
//! Three questions are asked of it: where a source folder stands (its current branch and the files
//! it has changed), which files a workspace has changed since its last commit, and which
//! worktrees a source has (`worktrees`, for the isolation units). One kind of call writes: making,
//! merging and removing isolation units (`unit_ops`), and only `aw worktree` asks it. A missing git,
//! a folder that is not a repository or a failing git is a state to report, never an error of the
//! caller. The branch-check hook asks with a deadline: a git that does not answer in time is
//! stopped, and the caller told so.

pub mod branch_check;
pub mod checkout_digest;
pub mod head;
pub mod unit_ops;
pub mod worktrees;

use aw_core::checkpoint::{FileTouched, parse_numstat};
use aw_core::project::branch_check::Head;
pub use aw_core::project::sources::GitState;
use aw_core::project::sources::porcelain_paths;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// `git -C <dir> <args>`. Every call of this kind reads only, so it asks git not to take optional locks (no
/// index refresh written behind the user's back), speaks the C locale (messages aw recognises),
/// never reads stdin, and prints paths unquoted.
fn command(dir: &Path, args: &[&str]) -> Command {
    let mut c = quoting_command(dir, &["-c", "core.quotepath=off"]);
    c.args(args);
    c
}

/// [`command`] without the unquoted paths: git quotes paths as its configuration says (by
/// default a name with bytes past ASCII comes out quoted, in octal escapes). The checkout digest
/// hashes git's output exactly as the reference receives it, so it must not change its bytes.
fn quoting_command(dir: &Path, args: &[&str]) -> Command {
    let mut c = Command::new("git");
    c.arg("-C")
        .arg(dir)
        .args(args)
        .env("LC_ALL", "C")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .stdin(Stdio::null());
    c
}

/// Runs `git -C <dir> <args>` and collects its output.
fn git(dir: &Path, args: &[&str]) -> std::io::Result<Output> {
    command(dir, args).output()
}

/// A git call that did not end by its deadline (it was stopped).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimedOut;

/// Why a git call with a deadline gave no output.
#[derive(Debug)]
enum Late {
    /// The deadline passed: git was killed.
    TimedOut,
    /// git could not be started or waited for.
    Io,
}

/// [`git`] with a deadline: past it, git is killed. Its output is read on two threads while it
/// runs, so a full pipe never stalls it.
fn git_until(dir: &Path, args: &[&str], deadline: Instant) -> Result<Output, Late> {
    let mut child = command(dir, args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|_| Late::Io)?;
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let out = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let status = wait_until(&mut child, deadline)?;
    Ok(Output {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    })
}

/// Waits for `child` until `deadline`, polling at a pace that starts fine (git usually answers
/// in a millisecond or two) and slows down; kills it when the deadline passes.
fn wait_until(child: &mut Child, deadline: Instant) -> Result<std::process::ExitStatus, Late> {
    let mut pause = Duration::from_micros(50);
    loop {
        if let Some(status) = child.try_wait().map_err(|_| Late::Io)? {
            return Ok(status);
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Late::TimedOut);
        }
        std::thread::sleep(pause.min(left));
        pause = (pause * 2).min(Duration::from_millis(10));
    }
}

/// Where `dir`'s HEAD is, for the branch-check hook: read from the repository's files when they
/// say it plainly ([`crate::git::head`]), else asked of git (`branch --show-current`, and the
/// rebase in progress when HEAD is detached) within `deadline`. A folder that is missing or not a
/// repository, or a git that is missing or fails, is [`Head::Unknown`]; a git that does not
/// answer in time is [`TimedOut`].
pub fn head(dir: &Path, deadline: Instant) -> Result<Head, TimedOut> {
    if let Some(head) = crate::git::head::read(dir) {
        return Ok(head);
    }
    if !dir.is_dir() {
        return Ok(Head::Unknown);
    }
    let late = |l: Late| match l {
        Late::TimedOut => Err(TimedOut),
        Late::Io => Ok(Head::Unknown),
    };
    let current = match git_until(dir, &["branch", "--show-current"], deadline) {
        Ok(o) if o.status.success() => o,
        Ok(_) => return Ok(Head::Unknown),
        Err(l) => return late(l),
    };
    let name = String::from_utf8_lossy(&current.stdout).trim().to_owned();
    if !name.is_empty() {
        return Ok(Head::Branch(name));
    }
    let git_dir = match git_until(dir, &["rev-parse", "--absolute-git-dir"], deadline) {
        Ok(o) if o.status.success() => PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()),
        Ok(_) => return Ok(Head::Detached { rebasing: None }),
        Err(l) => return late(l),
    };
    Ok(Head::Detached {
        rebasing: crate::git::head::rebasing(&git_dir),
    })
}

/// How many files `git status --porcelain` lists in `dir` (modified, staged or untracked), or
/// `None` when git cannot say by `deadline`. Only a refused edit's advice needs it.
pub fn changed_count(dir: &Path, deadline: Instant) -> Option<usize> {
    match git_until(dir, &["status", "--porcelain"], deadline) {
        Ok(o) if o.status.success() => {
            Some(porcelain_paths(&String::from_utf8_lossy(&o.stdout)).len())
        }
        _ => None,
    }
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
