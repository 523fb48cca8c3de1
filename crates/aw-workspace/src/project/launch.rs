//! Launch folders on disk: moving the generated ones older releases left in `docs/tools/<x>/`
//! to `.<ns>/launch/<x>/` (`workspace-init`), and deleting `.<ns>/launch/<alias>/`
//! (`remove-source`). Both are planned first (a dry run reports exactly what a run does) and
//! only ever touch folders made of plain files and folders: one that holds a symbolic link or
//! anything else is left alone.
//!
//! A move copies every file (keeping its permissions, so scripts stay executable) with
//! `launch.json` last, then deletes the old folder with `launch.json` last: a move interrupted at
//! any point is finished by the next run, because the target only counts as there once its
//! `launch.json` is, and the old folder only stops counting as generated once its `launch.json`
//! is gone.

use crate::error::{Result, WorkspaceError};
use crate::io::atomic;
use crate::io::containment::{link_free, write_target};
use crate::locate::Workspace;
use crate::project::read_optional;
use aw_core::project::launch::is_generated;
use std::path::{Path, PathBuf};

/// The file that describes a launch folder.
const LAUNCH_JSON: &str = "launch.json";

/// A folder's content, when it holds only plain files and folders.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlainTree {
    /// Files, relative to the folder, sorted.
    files: Vec<PathBuf>,
    /// Sub-folders, relative to the folder, deepest first.
    dirs: Vec<PathBuf>,
}

fn list(dir: &Path) -> Result<Vec<std::fs::DirEntry>> {
    let rd = std::fs::read_dir(dir).map_err(|e| WorkspaceError::io("could not list", dir, e))?;
    let mut out = Vec::new();
    for e in rd {
        out.push(e.map_err(|e| WorkspaceError::io("could not list", dir, e))?);
    }
    out.sort_by_key(|e| e.file_name());
    Ok(out)
}

/// The content of `dir`, or `None` when it holds anything but plain files and folders.
pub fn plain_tree(dir: &Path) -> Result<Option<PlainTree>> {
    fn walk(base: &Path, dir: &Path, tree: &mut PlainTree) -> Result<bool> {
        for e in list(dir)? {
            let path = e.path();
            let kind = e
                .file_type()
                .map_err(|err| WorkspaceError::io("could not read", &path, err))?;
            let rel = path.strip_prefix(base).unwrap_or(&path).to_path_buf();
            if kind.is_dir() {
                if !walk(base, &path, tree)? {
                    return Ok(false);
                }
                tree.dirs.push(rel);
            } else if kind.is_file() {
                tree.files.push(rel);
            } else {
                return Ok(false);
            }
        }
        Ok(true)
    }
    let mut tree = PlainTree::default();
    if !walk(dir, dir, &mut tree)? {
        return Ok(None);
    }
    tree.files.sort();
    // `walk` pushes a folder after its content: deepest first already.
    Ok(Some(tree))
}

/// The files of `tree` with the top-level `launch.json` last.
fn launch_json_last(tree: &PlainTree) -> Vec<&PathBuf> {
    let (last, mut rest): (Vec<&PathBuf>, Vec<&PathBuf>) = tree
        .files
        .iter()
        .partition(|f| f.as_os_str() == LAUNCH_JSON);
    rest.extend(last);
    rest
}

/// Deletes `dir` and its `tree` (files first, the top-level `launch.json` after the other files
/// and folders, the folder last), inside `root`.
fn remove_tree(root: &Path, dir: &Path, tree: &PlainTree) -> Result<()> {
    let files = launch_json_last(tree);
    let (last, rest) = files
        .split_last()
        .map_or((None, &[][..]), |(l, r)| (Some(l), r));
    for f in rest {
        atomic::remove_file(root, &dir.join(f))?;
    }
    for d in &tree.dirs {
        atomic::remove_empty_dir(root, &dir.join(d))?;
    }
    if let Some(f) = last {
        atomic::remove_file(root, &dir.join(f))?;
    }
    atomic::remove_empty_dir(root, dir)
}

/// What happens to one legacy launch folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LegacyAction {
    /// Copied to `.<ns>/launch/<x>/`, then deleted.
    Moved,
    /// `.<ns>/launch/<x>/` already has its `launch.json`: the old folder is only deleted.
    Removed,
    /// It holds a symbolic link or something else than files and folders, or its new place is
    /// reached through a link out of the workspace: left alone.
    Kept,
}

impl LegacyAction {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            LegacyAction::Moved => "moved",
            LegacyAction::Removed => "removed",
            LegacyAction::Kept => "kept",
        }
    }
}

/// One generated launch folder of `docs/tools/`.
#[derive(Debug, Clone)]
pub struct LegacyLaunch {
    /// The folder's name (`<x>`).
    pub tool: String,
    /// `docs/tools/<x>`.
    pub from: PathBuf,
    /// `.<ns>/launch/<x>`.
    pub to: PathBuf,
    /// What a run does with it.
    pub action: LegacyAction,
    tree: PlainTree,
}

/// The generated launch folders of `docs/tools/` and what a run does with each, in name order.
/// Only folders reached without a symbolic link are moved (a move deletes the old folder): a
/// `docs/tools` reached through a link is not looked at, and a tool whose new place is reached
/// through one is kept.
pub fn plan_legacy(ws: &Workspace) -> Result<Vec<LegacyLaunch>> {
    let tools = ws.docs_dir().join("tools");
    if !link_free(&ws.root, &tools) || !tools.is_dir() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for e in list(&tools)? {
        let from = e.path();
        let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
        let Some(text) = is_dir
            .then(|| read_optional(&from.join(LAUNCH_JSON)))
            .transpose()?
            .flatten()
        else {
            continue;
        };
        if !is_generated(&text) {
            continue;
        }
        let tool = e.file_name().to_string_lossy().into_owned();
        let to = ws.state_dir().join("launch").join(&tool);
        // A new place reached through a link is neither written nor trusted: it may be the old
        // folder itself (`.<ns>/launch` linked to `docs/tools`), or lie outside, and what it
        // holds must not decide that the old folder can go.
        let tree = if link_free(&ws.root, &to) && link_free(&ws.root, &from) {
            plain_tree(&from)?
        } else {
            None
        };
        let (action, tree) = match tree {
            None => (LegacyAction::Kept, PlainTree::default()),
            Some(tree) if to.join(LAUNCH_JSON).is_file() => (LegacyAction::Removed, tree),
            Some(tree) => (LegacyAction::Moved, tree),
        };
        out.push(LegacyLaunch {
            tool,
            from,
            to,
            action,
            tree,
        });
    }
    Ok(out)
}

/// Performs one planned move inside `root`.
pub fn apply_legacy(root: &Path, l: &LegacyLaunch) -> Result<()> {
    if l.action == LegacyAction::Kept {
        return Ok(());
    }
    if l.action == LegacyAction::Moved {
        atomic::create_dir_all(root, &l.to)?;
        for d in l.tree.dirs.iter().rev() {
            atomic::create_dir_all(root, &l.to.join(d))?;
        }
        for f in launch_json_last(&l.tree) {
            atomic::copy_file(root, &l.from.join(f), &l.to.join(f))?;
        }
    }
    remove_tree(root, &l.from, &l.tree)
}

/// What `remove-source` does with `.<ns>/launch/<alias>/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LaunchDirAction {
    /// Deleted.
    Removed,
    /// There is no such folder.
    Absent,
    /// It is (or holds) a symbolic link or something else than files and folders, or it is
    /// reached through a link out of the workspace: left alone.
    Kept,
}

impl LaunchDirAction {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            LaunchDirAction::Removed => "removed",
            LaunchDirAction::Absent => "absent",
            LaunchDirAction::Kept => "kept",
        }
    }
}

/// A source's launch folder and what `remove-source` does with it.
#[derive(Debug, Clone)]
pub struct LaunchDir {
    /// `.<ns>/launch/<alias>`.
    pub path: PathBuf,
    /// What a run does with it.
    pub action: LaunchDirAction,
    tree: PlainTree,
}

/// Plans deleting `.<ns>/launch/<alias>/` (an alias never holds a path separator). A folder
/// reached through any symbolic link (`.<ns>` or `.<ns>/launch` a link, even one that stays
/// inside) is kept: the deletion would land wherever the link points, a source's own folder
/// included.
pub fn plan_remove(ws: &Workspace, alias: &str) -> Result<LaunchDir> {
    let path = ws.state_dir().join("launch").join(alias);
    let is_dir = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir());
    let (action, tree) = if !link_free(&ws.root, &path) || write_target(&ws.root, &path).is_err() {
        (LaunchDirAction::Kept, PlainTree::default())
    } else if !is_dir {
        if path.symlink_metadata().is_ok() {
            (LaunchDirAction::Kept, PlainTree::default())
        } else {
            (LaunchDirAction::Absent, PlainTree::default())
        }
    } else {
        match plain_tree(&path)? {
            Some(tree) => (LaunchDirAction::Removed, tree),
            None => (LaunchDirAction::Kept, PlainTree::default()),
        }
    };
    Ok(LaunchDir { path, action, tree })
}

/// Performs a planned deletion inside `root`.
pub fn apply_remove(root: &Path, d: &LaunchDir) -> Result<()> {
    if d.action != LaunchDirAction::Removed {
        return Ok(());
    }
    remove_tree(root, &d.path, &d.tree)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::locate::NamespaceSource;

    fn ws(root: &Path) -> Workspace {
        Workspace {
            root: root.to_path_buf(),
            ns: "workflow".into(),
            ns_source: NamespaceSource::Default,
            initialized: true,
        }
    }

    const GENERATED: &str = r#"{"_generated":{"sha256":"ab"}}"#;

    #[cfg(unix)]
    #[test]
    fn a_move_keeps_permissions_and_can_be_finished_after_a_crash() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let from = root.join("docs/tools/api");
        std::fs::create_dir_all(from.join("lib")).unwrap();
        std::fs::write(from.join("launch.json"), GENERATED).unwrap();
        std::fs::write(from.join("run.sh"), "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(from.join("run.sh"), std::fs::Permissions::from_mode(0o755))
            .unwrap();
        std::fs::write(from.join("lib/x.txt"), "x").unwrap();
        // A user's folder without the generated stamp is not touched.
        std::fs::create_dir_all(root.join("docs/tools/mine")).unwrap();
        std::fs::write(root.join("docs/tools/mine/launch.json"), "{}").unwrap();
        let w = ws(&root);
        let plan = plan_legacy(&w).unwrap();
        assert_eq!(plan.len(), 1);
        assert_eq!(plan[0].action, LegacyAction::Moved);
        // An interrupted copy: the target has files but no launch.json yet, so it is redone.
        let to = root.join(".workflow/launch/api");
        std::fs::create_dir_all(&to).unwrap();
        std::fs::write(to.join("run.sh"), "partial").unwrap();
        let plan = plan_legacy(&w).unwrap();
        assert_eq!(plan[0].action, LegacyAction::Moved);
        apply_legacy(&root, &plan[0]).unwrap();
        assert!(!from.exists());
        assert_eq!(
            std::fs::read_to_string(to.join("launch.json")).unwrap(),
            GENERATED
        );
        assert_eq!(
            std::fs::read_to_string(to.join("run.sh")).unwrap(),
            "#!/bin/sh\n"
        );
        assert_eq!(std::fs::read_to_string(to.join("lib/x.txt")).unwrap(), "x");
        let mode = std::fs::metadata(to.join("run.sh"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o111, 0o111, "the script stays executable");
        assert!(root.join("docs/tools/mine/launch.json").is_file());
        assert!(plan_legacy(&w).unwrap().is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn folders_with_links_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let from = root.join("docs/tools/api");
        std::fs::create_dir_all(&from).unwrap();
        std::fs::write(from.join("launch.json"), GENERATED).unwrap();
        std::os::unix::fs::symlink("/etc", from.join("out")).unwrap();
        let plan = plan_legacy(&ws(&root)).unwrap();
        assert_eq!(plan[0].action, LegacyAction::Kept);
        apply_legacy(&root, &plan[0]).unwrap();
        assert!(from.join("launch.json").is_file());

        let launch = root.join(".workflow/launch/web");
        std::fs::create_dir_all(&launch).unwrap();
        std::os::unix::fs::symlink("/etc", launch.join("out")).unwrap();
        let d = plan_remove(&ws(&root), "web").unwrap();
        assert_eq!(d.action, LaunchDirAction::Kept);
        assert_eq!(
            plan_remove(&ws(&root), "none").unwrap().action,
            LaunchDirAction::Absent
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_launch_folder_reached_through_a_link_out_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let from = root.join("docs/tools/api");
        std::fs::create_dir_all(&from).unwrap();
        std::fs::write(from.join("launch.json"), GENERATED).unwrap();
        // `.workflow/launch` leads out, and out there `api/` already has its launch.json.
        std::fs::create_dir_all(outside.path().join("api")).unwrap();
        std::fs::write(outside.path().join("api/launch.json"), GENERATED).unwrap();
        std::fs::create_dir_all(root.join(".workflow")).unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join(".workflow/launch")).unwrap();
        let plan = plan_legacy(&ws(&root)).unwrap();
        assert_eq!(
            plan[0].action,
            LegacyAction::Kept,
            "neither moved out nor removed"
        );
        assert_eq!(
            plan_remove(&ws(&root), "api").unwrap().action,
            LaunchDirAction::Kept
        );
    }
}
