//! A work tree's HEAD read from the repository's own files, without starting git: what the
//! branch-check hook needs on every edit, at a cost that does not grow with the repository.
//!
//! The repository is found as git finds it: the nearest `.git` from the folder up, a folder (the
//! main work tree) or a `gitdir:` file (a linked work tree, a submodule), never across a file
//! system boundary. Its `HEAD` names the branch (`ref: refs/heads/<name>`) or an object id (a
//! detached HEAD, and then `rebase-merge/head-name` or `rebase-apply/head-name` names the branch a
//! stopped rebase or `git am` is rewriting). Whenever the files say anything else — a variable
//! that redirects git (`GIT_DIR`, …), a boundary crossed, a reftable repository (its `HEAD` points
//! at `refs/heads/.invalid`), a `HEAD` to something other than a branch or kept as a symbolic
//! link, no `.git` at all — the answer is `None`, and the caller asks git.

use aw_core::isolation::units::WorktreeEntry;
use aw_core::project::branch_check::Head;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The variables that change where or how git finds a repository: with any of them set, only git
/// itself can say.
const DISCOVERY_VARIABLES: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_COMMON_DIR",
    "GIT_CEILING_DIRECTORIES",
    "GIT_DISCOVERY_ACROSS_FILESYSTEM",
];

/// Whether a variable redirects how git finds a repository (then only git can say).
fn discovery_redirected() -> bool {
    DISCOVERY_VARIABLES
        .iter()
        .any(|v| std::env::var_os(v).is_some())
}

/// The most read of a `HEAD` or `.git` file (each is one short line).
const SMALL_FILE: u64 = 4096;

/// `dir`'s HEAD when the repository's files say it plainly; `None` when git must be asked.
pub fn read(dir: &Path) -> Option<Head> {
    if discovery_redirected() {
        return None;
    }
    head_in(&git_dir_of(dir)?)
}

/// The linked work trees of the repository holding `dir`, read from its files as git reads them
/// (each entry of the common git folder's `worktrees/`: its `gitdir` names the work tree's `.git`,
/// its `HEAD` the branch): `None` whenever only git can say (a variable that redirects git, no
/// `.git` found, a relative `gitdir`, a `HEAD` that is not a plain branch or object id). The main work tree is
/// not among them.
pub fn linked_worktrees(dir: &Path) -> Option<Vec<WorktreeEntry>> {
    if discovery_redirected() {
        return None;
    }
    // No repository holds the folder: it has no worktree of any kind.
    if matches!(locate(dir), Located::Nowhere) {
        return Some(Vec::new());
    }
    let common = common_dir(dir)?;
    let entries = match std::fs::read_dir(common.join("worktrees")) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Some(Vec::new()),
        Err(_) => return None,
    };
    let mut out = Vec::new();
    for entry in entries {
        let admin = entry.ok()?.path();
        let gitdir = read_small(&admin.join("gitdir"))?;
        let dot_git = PathBuf::from(gitdir.trim_end_matches(['\n', '\r']));
        if !dot_git.is_absolute() {
            return None;
        }
        let head = read_small(&admin.join("HEAD"))?;
        let head = head.trim_end_matches(['\n', '\r']);
        let branch = match head.strip_prefix("ref:") {
            Some(target) => Some(target.trim().strip_prefix("refs/heads/")?.to_owned()),
            None if matches!(head.len(), 40 | 64)
                && head.bytes().all(|b| b.is_ascii_hexdigit()) =>
            {
                None
            }
            None => return None,
        };
        let path = dot_git.parent()?;
        out.push(WorktreeEntry {
            path: path.to_string_lossy().into_owned(),
            head: None,
            branch,
            main: false,
            prunable: !path.exists(),
        });
    }
    // git lists them by their folder's name.
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Some(out)
}

/// The common git folder of the repository holding `dir` (where `worktrees/` is), when its
/// files say it plainly.
fn common_dir(dir: &Path) -> Option<PathBuf> {
    if discovery_redirected() {
        return None;
    }
    let git_dir = git_dir_of(dir)?;
    Some(match read_small(&git_dir.join("commondir")) {
        Some(named) => git_dir.join(named.trim()),
        None => git_dir,
    })
}

/// Where the repository holding a folder is, as its files say it.
enum Located {
    /// Its git folder.
    GitDir(PathBuf),
    /// No `.git` from the folder up to the file system's root: no repository holds it.
    Nowhere,
    /// Only git can say.
    Unsure,
}

/// The repository folder of the work tree holding `dir`: the nearest `.git` folder, or the one
/// a `.git` file names.
fn git_dir_of(dir: &Path) -> Option<PathBuf> {
    match locate(dir) {
        Located::GitDir(d) => Some(d),
        Located::Nowhere | Located::Unsure => None,
    }
}

fn locate(dir: &Path) -> Located {
    let Some(device) = device_of(dir) else {
        return Located::Unsure;
    };
    for folder in dir.ancestors() {
        // git stops at a file system boundary; so does this (git is then asked).
        if device_of(folder) != Some(device) {
            return Located::Unsure;
        }
        let dot_git = folder.join(".git");
        let found = match std::fs::metadata(&dot_git) {
            Ok(m) if m.is_dir() => Some(dot_git),
            Ok(m) if m.is_file() => read_small(&dot_git).and_then(|text| {
                let named = text.strip_prefix("gitdir:")?.trim().to_owned();
                Some(folder.join(named))
            }),
            Ok(_) => None,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(_) => None,
        };
        return match found {
            Some(git_dir) if is_repository(&git_dir) => Located::GitDir(git_dir),
            _ => Located::Unsure,
        };
    }
    Located::Nowhere
}

/// Whether `git_dir` looks like a repository folder: a `HEAD` file, and its objects (a linked
/// work tree's folder names the main one in `commondir` instead).
fn is_repository(git_dir: &Path) -> bool {
    git_dir.join("HEAD").is_file()
        && (git_dir.join("objects").is_dir() || git_dir.join("commondir").is_file())
}

/// The HEAD `git_dir/HEAD` states, when it is a branch or an object id.
fn head_in(git_dir: &Path) -> Option<Head> {
    let head = git_dir.join("HEAD");
    // A HEAD kept as a symbolic link to its branch (core.preferSymlinkRefs) is git's to read.
    if std::fs::symlink_metadata(&head)
        .ok()?
        .file_type()
        .is_symlink()
    {
        return None;
    }
    let text = read_small(&head)?;
    let line = text.trim_end_matches(['\n', '\r']);
    if let Some(target) = line.strip_prefix("ref:") {
        let name = target.trim().strip_prefix("refs/heads/")?;
        // A reftable repository keeps its real HEAD elsewhere and points this one nowhere.
        if name.is_empty() || name == ".invalid" {
            return None;
        }
        return Some(Head::Branch(name.to_owned()));
    }
    let object_id = matches!(line.len(), 40 | 64) && line.bytes().all(|b| b.is_ascii_hexdigit());
    object_id.then(|| Head::Detached {
        rebasing: rebasing(git_dir),
    })
}

/// The branch a rebase or `git am` stopped in the work tree of `git_dir` is rewriting, if one is.
pub fn rebasing(git_dir: &Path) -> Option<String> {
    ["rebase-merge/head-name", "rebase-apply/head-name"]
        .iter()
        .find_map(|f| read_small(&git_dir.join(f)))
        .and_then(|name| name.trim().strip_prefix("refs/heads/").map(str::to_owned))
}

/// The first [`SMALL_FILE`] bytes of a file, as text.
fn read_small(path: &Path) -> Option<String> {
    let mut text = String::new();
    std::fs::File::open(path)
        .ok()?
        .take(SMALL_FILE)
        .read_to_string(&mut text)
        .ok()?;
    Some(text)
}

/// The file system a folder is on.
#[cfg(unix)]
fn device_of(path: &Path) -> Option<u64> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| m.dev())
}

/// The file system a folder is on (not compared on this system).
#[cfg(not(unix))]
fn device_of(path: &Path) -> Option<u64> {
    std::fs::metadata(path).ok().map(|_| 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// A fake repository's files: `.git/HEAD` saying `head`, and an objects folder.
    fn repo(head: &str) -> tempfile::TempDir {
        let tmp = tempfile::tempdir().unwrap();
        fs::create_dir_all(tmp.path().join(".git/objects")).unwrap();
        fs::write(tmp.path().join(".git/HEAD"), head).unwrap();
        tmp
    }

    const ID: &str = "0123456789abcdef0123456789abcdef01234567";

    #[test]
    fn a_branch_or_a_detached_head_is_read_from_head() {
        let r = repo("ref: refs/heads/feat/x\n");
        fs::create_dir_all(r.path().join("src/deep")).unwrap();
        assert_eq!(
            read(&r.path().join("src/deep")),
            Some(Head::Branch("feat/x".into()))
        );
        let r = repo(&format!("{ID}\n"));
        assert_eq!(read(r.path()), Some(Head::Detached { rebasing: None }));
        fs::create_dir_all(r.path().join(".git/rebase-merge")).unwrap();
        fs::write(
            r.path().join(".git/rebase-merge/head-name"),
            "refs/heads/feat/x\n",
        )
        .unwrap();
        assert_eq!(
            read(r.path()),
            Some(Head::Detached {
                rebasing: Some("feat/x".into())
            })
        );
    }

    #[test]
    fn a_linked_work_tree_is_followed_through_its_gitdir_file() {
        let main = repo("ref: refs/heads/main\n");
        let wt_git = main.path().join(".git/worktrees/wt");
        fs::create_dir_all(&wt_git).unwrap();
        fs::write(wt_git.join("HEAD"), "ref: refs/heads/feat/y\n").unwrap();
        fs::write(wt_git.join("commondir"), "../..\n").unwrap();
        let wt = tempfile::tempdir().unwrap();
        fs::write(
            wt.path().join(".git"),
            format!("gitdir: {}\n", wt_git.display()),
        )
        .unwrap();
        assert_eq!(read(wt.path()), Some(Head::Branch("feat/y".into())));
        // A relative gitdir is taken from the folder holding the `.git` file.
        let sub = main.path().join("sub");
        fs::create_dir_all(&sub).unwrap();
        fs::write(sub.join(".git"), "gitdir: ../.git/worktrees/wt\n").unwrap();
        assert_eq!(read(&sub), Some(Head::Branch("feat/y".into())));
    }

    #[test]
    fn what_the_files_do_not_say_plainly_is_left_to_git() {
        for head in [
            "ref: refs/heads/.invalid\n",
            "ref: refs/remotes/origin/main\n",
            "ref: refs/heads/\n",
            "garbage\n",
            "",
        ] {
            assert_eq!(read(repo(head).path()), None, "{head:?}");
        }
        // A HEAD that is a symbolic link to its branch's file.
        #[cfg(unix)]
        {
            let r = repo("");
            std::fs::remove_file(r.path().join(".git/HEAD")).unwrap();
            fs::create_dir_all(r.path().join(".git/refs/heads")).unwrap();
            fs::write(r.path().join(".git/refs/heads/main"), format!("{ID}\n")).unwrap();
            std::os::unix::fs::symlink("refs/heads/main", r.path().join(".git/HEAD")).unwrap();
            assert_eq!(read(r.path()), None);
        }
        // A `.git` file naming no repository, and no repository at all.
        let tmp = tempfile::tempdir().unwrap();
        fs::write(tmp.path().join(".git"), "gitdir: /nowhere\n").unwrap();
        assert_eq!(read(tmp.path()), None);
        let bare = tempfile::tempdir().unwrap();
        assert_eq!(read(&bare.path().join("missing")), None);
    }
}
