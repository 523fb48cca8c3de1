//! Keeping paths inside the workspace root, lexically and through symbolic links: the paths a
//! user names (`next-number docs/specs`), and every path aw writes ([`write_target`]).
//!
//! A repository can commit symbolic links. A link that stays inside the workspace (`docs` →
//! `shared/docs`, `CLAUDE.md` → `AGENTS.md`) is followed; one that leads out of it is never
//! written through.

use crate::error::WorkspaceError;
use aw_core::error_code::ErrorCode;
use std::path::{Component, Path, PathBuf};

/// Why a path does not stay inside the workspace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Escape {
    /// The argument is empty or holds control characters.
    Unnamed,
    /// An absolute path outside the root.
    OutsideRoot,
    /// A `..` segment or a drive prefix.
    ParentSegment,
    /// The part that exists resolves, through a symbolic link, outside the root.
    ThroughLink,
}

impl Escape {
    /// The reason, in a few words, for a message.
    pub fn reason(self) -> &'static str {
        match self {
            Escape::Unnamed => "it is empty or holds control characters",
            Escape::OutsideRoot => "it is outside the workspace root",
            Escape::ParentSegment => "`..` and drive prefixes are not allowed",
            Escape::ThroughLink => "a symbolic link leads outside the workspace",
        }
    }
}

/// The path `arg` names under `root` (relative paths are taken from the root; an absolute one
/// must lie under it), refused when it could lead outside the root: `..`, or a symbolic link in
/// the part of it that exists.
pub fn resolve_inside(root: &Path, arg: &str) -> Result<PathBuf, Escape> {
    if arg.trim().is_empty() || arg.chars().any(char::is_control) {
        return Err(Escape::Unnamed);
    }
    let p = Path::new(arg);
    let rel = if p.is_absolute() {
        p.strip_prefix(root).map_err(|_| Escape::OutsideRoot)?
    } else {
        p
    };
    let mut target = root.to_path_buf();
    for c in rel.components() {
        match c {
            Component::Normal(s) => target.push(s),
            Component::CurDir => {}
            _ => return Err(Escape::ParentSegment),
        }
    }
    let canon_root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let existing = target.ancestors().find(|a| a.exists()).unwrap_or(root);
    let canon = existing
        .canonicalize()
        .unwrap_or_else(|_| existing.to_path_buf());
    if !canon.starts_with(&canon_root) {
        return Err(Escape::ThroughLink);
    }
    Ok(target)
}

/// Where a write to `path` lands: `path` itself, or the target of a symbolic link on the way
/// that stays inside `root`. Refused with `PATH_OUTSIDE_WORKSPACE` when `path` is not under
/// `root`, or when a folder on the way or the file itself is a link that leads out of `root`
/// (or nowhere). The answer is under the canonical root.
pub fn write_target(root: &Path, path: &Path) -> crate::Result<PathBuf> {
    let canon_root = root
        .canonicalize()
        .map_err(|e| WorkspaceError::io("could not resolve the workspace", root, e))?;
    let rel = path
        .strip_prefix(root)
        .or_else(|_| path.strip_prefix(&canon_root))
        .map_err(|_| outside(path, "it is not inside the workspace"))?;
    let parts: Vec<_> = rel.components().collect();
    let mut cur = canon_root.clone();
    for (i, part) in parts.iter().enumerate() {
        match part {
            Component::Normal(name) => {
                let next = cur.join(name);
                match std::fs::symlink_metadata(&next) {
                    Ok(meta) if meta.file_type().is_symlink() => {
                        let real = next.canonicalize().map_err(|_| {
                            outside(path, "a symbolic link on the way leads nowhere")
                        })?;
                        if !real.starts_with(&canon_root) {
                            return Err(outside(
                                path,
                                "a symbolic link on the way leads out of the workspace",
                            ));
                        }
                        cur = real;
                    }
                    Ok(_) => cur = next,
                    // Nothing exists from here on, so no link can lead elsewhere; a path into
                    // a `.git` that does not exist yet is still refused, or a first write would
                    // create the folder before the next one is refused.
                    Err(_) => {
                        cur = next;
                        for rest in &parts[i + 1..] {
                            cur.push(rest);
                        }
                        return not_in_git(path, &canon_root, cur);
                    }
                }
            }
            Component::CurDir => {}
            _ => return Err(outside(path, "`..` and drive prefixes are not allowed")),
        }
    }
    not_in_git(path, &canon_root, cur)
}

/// Where a write that replaces or removes the entry `path` itself lands: its folder is resolved
/// as [`write_target`] does, but a final symbolic link is not followed (the link, not its
/// target, is what gets replaced or removed).
pub fn entry_target(root: &Path, path: &Path) -> crate::Result<PathBuf> {
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(outside(path, "it names no file"));
    };
    let canon_root = root
        .canonicalize()
        .map_err(|e| WorkspaceError::io("could not resolve the workspace", root, e))?;
    let entry = write_target(root, parent)?.join(name);
    not_in_git(path, &canon_root, entry)
}

/// Whether `path` (under `root`) is reached without any symbolic link: no part of it that
/// exists, from `root` down to `path` itself, is a link. Deletions ask this: a folder is removed
/// only where it really is, never through a link, even one that stays inside the workspace (a
/// `.<ns>/launch` linked to `..` must not turn a launch folder into a source repository).
pub fn link_free(root: &Path, path: &Path) -> bool {
    let Ok(rel) = path.strip_prefix(root) else {
        return false;
    };
    let mut cur = root.to_path_buf();
    for part in rel.components() {
        let Component::Normal(name) = part else {
            return false;
        };
        cur.push(name);
        match std::fs::symlink_metadata(&cur) {
            Ok(m) if m.file_type().is_symlink() => return false,
            Ok(_) => {}
            Err(_) => return true,
        }
    }
    true
}

/// A repository's own `.git` folder is never aw's to write, even through a link that stays
/// inside the workspace (a `CLAUDE.md` linked to `.git/config` would corrupt the repository).
fn not_in_git(path: &Path, canon_root: &Path, resolved: PathBuf) -> crate::Result<PathBuf> {
    if resolved.starts_with(canon_root.join(".git")) {
        return Err(outside(path, "it leads into the repository's .git folder"));
    }
    Ok(resolved)
}

/// Checks, with [`write_target`], every path a transaction writes (or removes) before its first
/// write: a link out of the workspace on any of them refuses the whole transaction, so nothing is
/// left half-done (`CLAUDE.md` updated but not `AGENTS.md`, a session closed without its
/// checkpoint). Each write checks its own path again; this only makes the refusal come first.
pub fn check_writes<'a>(
    root: &Path,
    paths: impl IntoIterator<Item = &'a Path>,
) -> crate::Result<()> {
    for p in paths {
        write_target(root, p)?;
    }
    Ok(())
}

fn outside(path: &Path, why: &str) -> WorkspaceError {
    WorkspaceError::Refused {
        code: ErrorCode::PathOutsideWorkspace,
        message: format!("{} was left unchanged: {why}.", path.display()),
        action: "Replace the symbolic link with a real folder or file inside the workspace (or remove it), then run the command again.".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("docs")).unwrap();
        assert_eq!(
            resolve_inside(&root, "docs/specs"),
            Ok(root.join("docs/specs"))
        );
        assert_eq!(
            resolve_inside(&root, "./docs"),
            Ok(root.join("docs")),
            "`.` is dropped"
        );
        let abs = root.join("docs/plans");
        assert_eq!(resolve_inside(&root, abs.to_str().unwrap()), Ok(abs));
        assert_eq!(resolve_inside(&root, ""), Err(Escape::Unnamed));
        assert_eq!(resolve_inside(&root, "a\nb"), Err(Escape::Unnamed));
        assert_eq!(resolve_inside(&root, "../x"), Err(Escape::ParentSegment));
        assert_eq!(
            resolve_inside(&root, "/elsewhere"),
            Err(Escape::OutsideRoot)
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_link_out_of_the_root_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("out")).unwrap();
        assert_eq!(resolve_inside(&root, "out/specs"), Err(Escape::ThroughLink));
    }

    #[cfg(unix)]
    #[test]
    fn writes_follow_links_that_stay_inside_and_refuse_the_others() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let outside_dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("shared/docs")).unwrap();
        std::fs::write(root.join("AGENTS.md"), "x").unwrap();
        symlink(root.join("shared/docs"), root.join("docs")).unwrap();
        symlink(root.join("AGENTS.md"), root.join("CLAUDE.md")).unwrap();
        symlink(outside_dir.path(), root.join("out")).unwrap();
        symlink(outside_dir.path().join("f"), root.join("escape.md")).unwrap();
        symlink(root.join("missing"), root.join("dangling.md")).unwrap();
        // Plain paths, and paths not created yet.
        assert_eq!(
            write_target(&root, &root.join("a/b.md")).unwrap(),
            root.join("a/b.md")
        );
        // Links inside the workspace are followed.
        assert_eq!(
            write_target(&root, &root.join("docs/specs/001.md")).unwrap(),
            root.join("shared/docs/specs/001.md")
        );
        assert_eq!(
            write_target(&root, &root.join("CLAUDE.md")).unwrap(),
            root.join("AGENTS.md")
        );
        // Links out of it, or to nothing, are refused.
        for p in ["out/x.md", "out", "escape.md", "dangling.md"] {
            let e = write_target(&root, &root.join(p)).unwrap_err();
            assert_eq!(e.code(), ErrorCode::PathOutsideWorkspace, "{p}");
        }
        let e = write_target(&root, outside_dir.path()).unwrap_err();
        assert_eq!(e.code(), ErrorCode::PathOutsideWorkspace);
    }

    #[test]
    fn the_git_folder_is_refused_whether_or_not_it_exists_yet() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        for p in [".git", ".git/hooks/pre-commit"] {
            let e = write_target(&root, &root.join(p)).unwrap_err();
            assert_eq!(e.code(), ErrorCode::PathOutsideWorkspace, "{p} (absent)");
        }
        std::fs::create_dir(root.join(".git")).unwrap();
        for p in [".git/config", ".git/hooks/pre-commit"] {
            let e = write_target(&root, &root.join(p)).unwrap_err();
            assert_eq!(e.code(), ErrorCode::PathOutsideWorkspace, "{p} (present)");
        }
        assert!(write_target(&root, &root.join(".github/x.yml")).is_ok());
        assert!(
            write_target(&root, &root.join("a/.git/x")).is_ok(),
            "only the root's .git"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_transaction_is_refused_whole_by_any_of_its_paths() {
        let dir = tempfile::tempdir().unwrap();
        let outside_dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::os::unix::fs::symlink(outside_dir.path(), root.join("out")).unwrap();
        let (inside, out) = (root.join("CLAUDE.md"), root.join("out/AGENTS.md"));
        assert!(check_writes(&root, [inside.as_path()]).is_ok());
        for order in [[&inside, &out], [&out, &inside]] {
            let e = check_writes(&root, order.map(PathBuf::as_path)).unwrap_err();
            assert_eq!(e.code(), ErrorCode::PathOutsideWorkspace);
        }
        assert!(!inside.exists(), "checking writes nothing");
    }
}
