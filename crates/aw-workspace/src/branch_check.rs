//! What `aw hook branch-check` reads: the project block's sources, where the edited file and
//! each source folder are on this machine, and, for the one source that owns the file, its
//! branch. The verdict is aw-core's (`project::branch_check`); anything this side cannot read
//! allows the edit.

use crate::locate::Workspace;
use crate::project::{ProjectFiles, lexical, resolve_source};
use aw_core::project::branch_check::{Allowed, EditedFile, SourceFolder, Verdict, decide, owner};
use aw_core::project::sources::expected_work_branch;
use std::path::{Path, PathBuf};

/// The verdict on `edited` in the workspace `ws`.
pub fn check(ws: &Workspace, edited: &EditedFile) -> Verdict {
    let Some(block) = ProjectFiles::read(&ws.root)
        .ok()
        .and_then(|f| f.block(&ws.ns))
    else {
        return Verdict::Allow(Allowed::Unjudged);
    };
    let base = edited
        .cwd
        .as_deref()
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| ws.root.clone());
    let file = resolved_file(&base, &edited.path);
    // The workspace's own state (sessions, checkpoints) is written on any branch.
    let state = resolved_file(&ws.root, &format!(".{}", ws.ns));
    if file.starts_with(&state) {
        return Verdict::Allow(Allowed::WorkspaceState);
    }
    let folders: Vec<SourceFolder> = block
        .sources
        .iter()
        .map(|s| SourceFolder {
            alias: s.alias.clone(),
            folder: resolve_source(&ws.root, &s.path),
        })
        .collect();
    let Some(source) = owner(&file, &folders) else {
        return Verdict::Allow(Allowed::OutsideSources);
    };
    let (expected, _) = expected_work_branch(&block, &source.alias, None);
    let Some(expected) = expected else {
        // Nothing to compare with: git need not run.
        return Verdict::Allow(Allowed::NoWorkingBranch);
    };
    let git = crate::git::probe(&source.folder);
    // A rebase (or `git am`) of the working branch detaches HEAD while it runs: resolving its
    // conflicts is work on that branch.
    if matches!(&git, aw_core::project::sources::GitState::Repo { branch, .. } if branch == "HEAD")
        && crate::git::rebasing_branch(&source.folder).as_deref() == Some(expected)
    {
        return Verdict::Allow(Allowed::OnBranch);
    }
    decide(&source.alias, &source.folder, Some(expected), &git)
}

/// `path` taken from `base` when relative, `.`/`..` resolved, and its longest existing prefix
/// resolved through links (the file itself may not exist yet: a `Write` creates it), so that it
/// compares with source folders resolved the same way.
pub fn resolved_file(base: &Path, path: &str) -> PathBuf {
    let full = lexical(&base.join(path));
    let mut existing = full.as_path();
    let mut rest: Vec<&std::ffi::OsStr> = Vec::new();
    loop {
        if let Ok(real) = existing.canonicalize() {
            let mut out = real;
            out.extend(rest.iter().rev());
            return out;
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name);
                existing = parent;
            }
            _ => return full,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_does_not_exist_yet_resolves_through_its_existing_folders() {
        let tmp = tempfile::tempdir().unwrap();
        let real = tmp.path().canonicalize().unwrap();
        std::fs::create_dir(real.join("src")).unwrap();
        let got = resolved_file(&real, "src/../src/new/file.rs");
        assert_eq!(got, real.join("src/new/file.rs"));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(real.join("src"), real.join("link")).unwrap();
            assert_eq!(resolved_file(&real, "link/x.rs"), real.join("src/x.rs"));
        }
        assert_eq!(
            resolved_file(Path::new("/"), "/abs/never/there"),
            PathBuf::from("/abs/never/there")
        );
    }
}
