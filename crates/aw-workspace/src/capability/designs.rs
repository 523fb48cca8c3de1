//! Reading the design index of a workspace (capability spec §10.5): the real folders under
//! `<workspace>/docs/designs/`, each package's `design-manifest.json`, `DESIGN.md`,
//! `revisions/*` and `reviews/*.json`, and which of its file sources exist, handed to
//! `aw_core::design::index` as a [`DesignDir`] tree; and the entries of an output root, for
//! numbering a new package. Which folder is a package, what a broken one is, which sources are
//! files and how the index sorts are aw-core's rules; this module only reads.
//!
//! Nothing here follows a symbolic link: a linked folder under `docs/designs/` is skipped (it
//! could pull a package, and an identity, in from outside the workspace), a linked
//! `docs/designs` (or `docs`) reads as no packages, and a manifest or `DESIGN.md` that is a link
//! is reported unreadable. Files are opened without waiting (a FIFO named like a manifest is
//! reported, never waited on) and read only up to a bound.

use crate::error::{Result, WorkspaceError};
use crate::io::atomic::TEMP_PREFIX;
use crate::io::folder::{EntryKind, Folder};
use aw_core::capability::paths::unsafe_relative;
use aw_core::design::floor::RootListing;
use aw_core::design::index::{
    DesignDir, DesignIndex, DirContents, MAX_FOLDER_DEPTH, PackageRead, ReviewFile,
};
use aw_core::design::manifest::{
    DESIGN_DOC_FILE, FileRead, MANIFEST_FILE, MAX_DESIGN_DOC_BYTES, MAX_MANIFEST_BYTES,
    REVISIONS_DIR, file_source_locators,
};
use aw_core::design::output_root::{DESIGNS_DIR, OutputRoot};
use std::path::Path;

/// The folder of a package's review files.
const REVIEWS_DIR: &str = "reviews";
/// The largest review file read (a review is a few lines).
const MAX_REVIEW_BYTES: u64 = 1024 * 1024;

/// The design index of the workspace at `ws_root`. A workspace without a real
/// `docs/designs/` folder has an empty index; a folder that cannot be listed is an I/O error.
pub fn read_index(ws_root: &Path) -> Result<DesignIndex> {
    let mut root = ws_root.to_path_buf();
    for segment in DESIGNS_DIR.split('/') {
        root.push(segment);
        match std::fs::symlink_metadata(&root) {
            Ok(meta) if meta.is_dir() => {}
            // A link, a file, or nothing: no packages.
            Ok(_) => return Ok(DesignIndex::empty()),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                ) =>
            {
                return Ok(DesignIndex::empty());
            }
            Err(e) => return Err(WorkspaceError::io("could not read", &root, e)),
        }
    }
    let mut folder = open(&root)?;
    let dirs = sub_folders(ws_root, &root, &mut folder, 1)?;
    Ok(DesignIndex::from_tree(&dirs))
}

/// The entries of the output root `root` (workspace-relative under `ws_root`, or an explicit
/// absolute path), by name, sorted: what numbering a new package counts. A root that does not
/// exist (or is not a folder) has none; temporary files of aw's writers are left out.
pub fn list_root(ws_root: Option<&Path>, root: &OutputRoot) -> Result<RootListing> {
    let path = match (root, ws_root) {
        (OutputRoot::Workspace { root, .. }, Some(ws)) => ws.join(root),
        (OutputRoot::Workspace { .. }, None) => {
            return Ok(RootListing {
                root: root.root().to_owned(),
                names: Vec::new(),
            });
        }
        (OutputRoot::Explicit { root }, _) => Path::new(root).to_path_buf(),
    };
    let names = match std::fs::read_dir(&path) {
        Ok(entries) => {
            let mut names = Vec::new();
            for entry in entries {
                let entry = entry.map_err(|e| WorkspaceError::io("could not list", &path, e))?;
                let name = entry.file_name().to_string_lossy().into_owned();
                if !name.starts_with(TEMP_PREFIX) {
                    names.push(name);
                }
            }
            names.sort();
            names
        }
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            Vec::new()
        }
        Err(e) => return Err(WorkspaceError::io("could not list", &path, e)),
    };
    Ok(RootListing {
        root: root.root().to_owned(),
        names,
    })
}

fn open(path: &Path) -> Result<Folder> {
    Folder::open(path).map_err(|e| WorkspaceError::io("could not list", path, e))
}

/// Whether the entry `name` of the folder at `dir` is a real folder (a link to one is not).
fn is_real_dir(dir: &Path, name: &str, kind: EntryKind) -> bool {
    match kind {
        EntryKind::Dir => true,
        EntryKind::Unknown => std::fs::symlink_metadata(dir.join(name)).is_ok_and(|m| m.is_dir()),
        _ => false,
    }
}

/// The real sub-folders of the folder at `dir` (inside the workspace at `ws_root`), sorted by
/// name, each read; `depth` is how many folders under `docs/designs/` they sit.
fn sub_folders(
    ws_root: &Path,
    dir: &Path,
    folder: &mut Folder,
    depth: usize,
) -> Result<Vec<DesignDir>> {
    let mut names: Vec<String> = folder
        .entries()
        .into_iter()
        // A package being published is assembled under a temporary name, then renamed into
        // place whole: until then it is nobody's package.
        .filter(|(name, kind)| !name.starts_with(TEMP_PREFIX) && is_real_dir(dir, name, *kind))
        .map(|(name, _)| name)
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| design_dir(ws_root, &dir.join(&name), name, depth))
        .collect()
}

/// One folder: a package when it has an entry named `design-manifest.json` (of any kind: a
/// FIFO or a link so named still marks a package, reported unreadable), otherwise a grouping
/// folder, descended into unless it sits [`MAX_FOLDER_DEPTH`] deep.
fn design_dir(ws_root: &Path, path: &Path, name: String, depth: usize) -> Result<DesignDir> {
    let mut folder = open(path)?;
    let entries = folder.entries();
    let kind_of = |file: &str| {
        entries
            .iter()
            .find(|(n, _)| n == file)
            .map(|(_, kind)| *kind)
    };
    let contents = match kind_of(MANIFEST_FILE) {
        Some(kind) => {
            let manifest = read_file(&folder, path, MANIFEST_FILE, kind, MAX_MANIFEST_BYTES);
            let existing_sources = match &manifest {
                FileRead::Bytes(bytes) => existing(ws_root, file_source_locators(bytes)),
                _ => Vec::new(),
            };
            let reviews: Vec<(String, FileRead)> =
                files_of(path, REVIEWS_DIR, MAX_REVIEW_BYTES, kind_of(REVIEWS_DIR))
                    .into_iter()
                    .filter(|(n, _)| n.ends_with(".json"))
                    .collect();
            DirContents::Package(PackageRead {
                design_doc: match kind_of(DESIGN_DOC_FILE) {
                    Some(kind) => {
                        read_file(&folder, path, DESIGN_DOC_FILE, kind, MAX_DESIGN_DOC_BYTES)
                    }
                    None => FileRead::Absent,
                },
                manifest,
                revisions: files_of(
                    path,
                    REVISIONS_DIR,
                    MAX_DESIGN_DOC_BYTES,
                    kind_of(REVISIONS_DIR),
                ),
                review_files: reviews
                    .into_iter()
                    .map(|(name, read)| ReviewFile { name, read })
                    .collect(),
                existing_sources,
            })
        }
        None if depth >= MAX_FOLDER_DEPTH => DirContents::TooDeep,
        None => DirContents::Folder(sub_folders(ws_root, path, &mut folder, depth + 1)?),
    };
    Ok(DesignDir { name, contents })
}

/// The files of the real sub-folder `sub` of a package (`kind`: its entry's kind, `None` when
/// absent), each read up to `max` bytes, sorted by name; none when it is not a real folder.
/// Sub-folders inside it are not files and are left out.
fn files_of(
    package: &Path,
    sub: &str,
    max: u64,
    kind: Option<EntryKind>,
) -> Vec<(String, FileRead)> {
    let Some(kind) = kind else {
        return Vec::new();
    };
    if !is_real_dir(package, sub, kind) {
        return Vec::new();
    }
    let dir = package.join(sub);
    let Ok(mut folder) = Folder::open(&dir) else {
        return Vec::new();
    };
    let mut entries: Vec<(String, EntryKind)> = folder
        .entries()
        .into_iter()
        .filter(|(name, kind)| !is_real_dir(&dir, name, *kind))
        .collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    entries
        .into_iter()
        .map(|(name, kind)| {
            let read = read_file(&folder, &dir, &name, kind, max);
            (name, read)
        })
        .collect()
}

/// The `locators` that name something that exists: a safe relative path under the workspace
/// (no link followed on the way out: a link that leaves the workspace does not count), or an
/// absolute path as given.
pub fn existing(ws_root: &Path, locators: Vec<String>) -> Vec<String> {
    locators
        .into_iter()
        .filter(|l| {
            let path = if Path::new(l).is_absolute() {
                Path::new(l).to_path_buf()
            } else if unsafe_relative(l).is_none() {
                match crate::io::containment::write_target(ws_root, &ws_root.join(l)) {
                    Ok(real) => real,
                    Err(_) => return false,
                }
            } else {
                return false;
            };
            std::fs::symlink_metadata(path).is_ok()
        })
        .collect()
}

/// The bytes of the regular file `name` in `folder` (at `dir`), when it is one and holds at
/// most `max` bytes; otherwise why not. The open does not wait (a FIFO that took the file's
/// place since the listing opens at once and is then refused by its own `stat`).
fn read_file(folder: &Folder, dir: &Path, name: &str, kind: EntryKind, max: u64) -> FileRead {
    let refused = |why: &str| FileRead::Unreadable(why.to_owned());
    let kind = match kind {
        EntryKind::Unknown => match std::fs::symlink_metadata(dir.join(name)) {
            Ok(m) if m.file_type().is_symlink() => EntryKind::Symlink,
            Ok(m) if m.is_file() => EntryKind::File,
            Ok(m) if m.is_dir() => EntryKind::Dir,
            Ok(_) => EntryKind::Special,
            Err(e) => return FileRead::Unreadable(e.to_string()),
        },
        known => known,
    };
    match kind {
        EntryKind::File => {}
        EntryKind::Symlink => return refused("it is a symbolic link"),
        EntryKind::Dir => return refused("it is a folder"),
        _ => return refused("it is not a regular file (a FIFO, a socket or a device)"),
    }
    let file = match folder.open_file(name) {
        Ok(f) => f,
        Err(e) => return FileRead::Unreadable(e.to_string()),
    };
    let meta = match file.metadata() {
        Ok(m) => m,
        Err(e) => return FileRead::Unreadable(e.to_string()),
    };
    if !meta.is_file() {
        return refused("it is not a regular file");
    }
    if meta.len() > max {
        return FileRead::Unreadable(format!("it holds more than {max} bytes"));
    }
    let mut bytes = Vec::new();
    match crate::sessions::artifacts::read_announced(file, meta.len(), &mut bytes) {
        Ok(()) => FileRead::Bytes(bytes),
        Err(e) => FileRead::Unreadable(e.to_string()),
    }
}

#[cfg(test)]
#[path = "designs_tests.rs"]
mod tests;
