//! Keeping paths a user names inside the workspace root, lexically and through symbolic links.

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
}
