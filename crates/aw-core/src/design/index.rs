//! The design index (capability spec §10.5): every package under `docs/designs/`, built from
//! the folder tree the shell read, and the lookup by identity.
//!
//! The walk's rules are here, over a [`DesignDir`] tree: a folder holding
//! `design-manifest.json` is one package (the shell does not descend into it); any other
//! folder is descended into, and a leaf folder (no sub-folder) that gave no package is reported
//! as a broken one (`DESIGN_MANIFEST_MISSING`). Symbolic links never reach the tree: the shell
//! lists real folders only, so no identity can be pulled in from outside the workspace.
//!
//! Entries are sorted by `id`, or by `path` for an entry without a valid id, comparing UTF-16
//! code units (JavaScript's default string order). The reference sorts with `localeCompare`,
//! a locale-dependent collation; the two agree on every identity and on paths that differ only
//! in lowercase ASCII, which is what package folders are named with.

use super::failure::DesignFailure;
use super::manifest::{Baseline, FileRead, MANIFEST_FILE, check_manifest, is_package_id};
use super::output_root::DESIGNS_DIR;
use crate::canonical::utf16_cmp;
use crate::error_code::ErrorCode;
use serde::Serialize;

/// One real folder under `docs/designs/`, as the shell read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DesignDir {
    /// The folder's name (one segment).
    pub name: String,
    /// What it holds.
    pub contents: DirContents,
}

/// What a folder under `docs/designs/` holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DirContents {
    /// A package: the folder has an entry named `design-manifest.json`.
    Package {
        /// The manifest, as read.
        manifest: FileRead,
        /// The `DESIGN.md` beside it, as read.
        design_doc: FileRead,
    },
    /// A grouping folder: its real sub-folders (symbolic links left out), sorted by name.
    Folder(Vec<DesignDir>),
}

/// One package of the index (keys in emission order).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DesignPackageEntry {
    /// The validated identity; null when the manifest is missing or does not validate.
    pub id: Option<String>,
    /// The `id` the manifest claims, valid or not.
    pub declared_id: Option<String>,
    /// The validated title.
    pub title: Option<String>,
    /// The folder, workspace-relative (`docs/designs/<folder>`): where it is now, never its
    /// identity.
    pub path: String,
    /// `<path>/design-manifest.json`.
    pub manifest_path: String,
    /// The current baseline, when the manifest validates.
    pub current_baseline: Option<Baseline>,
    /// Whether the manifest validates.
    pub ok: bool,
    /// What is wrong with it.
    pub failures: Vec<DesignFailure>,
}

/// The packages under `docs/designs/`, with the problems that span several of them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DesignIndex {
    /// Where the packages live, workspace-relative ([`DESIGNS_DIR`]).
    pub root: String,
    /// The packages, sorted (see the module documentation).
    pub packages: Vec<DesignPackageEntry>,
    /// Index-level failures: one `DESIGN_ID_DUPLICATE` per identity claimed twice.
    pub failures: Vec<DesignFailure>,
}

impl Default for DesignIndex {
    fn default() -> Self {
        DesignIndex::empty()
    }
}

impl DesignIndex {
    /// The index of a workspace without `docs/designs/`.
    pub fn empty() -> Self {
        DesignIndex {
            root: DESIGNS_DIR.to_owned(),
            packages: Vec::new(),
            failures: Vec::new(),
        }
    }

    /// The index of the folders directly under `docs/designs/`.
    pub fn from_tree(dirs: &[DesignDir]) -> Self {
        let mut packages = Vec::new();
        collect("", dirs, &mut packages);
        packages.sort_by(|a, b| utf16_cmp(sort_key(a), sort_key(b)));
        let failures = duplicates(&packages);
        DesignIndex {
            root: DESIGNS_DIR.to_owned(),
            packages,
            failures,
        }
    }

    /// The package with this validated identity (the first, should two claim it). A path or
    /// a package whose manifest does not validate never answers.
    pub fn resolve(&self, id: &str) -> Option<&DesignPackageEntry> {
        self.packages.iter().find(|p| p.id.as_deref() == Some(id))
    }

    /// The package `design.validate` reports on: the one with this validated identity, else
    /// a broken package that can still be matched to it — its manifest claims the identity, or
    /// its folder is named `NNN-design-…` for `DES-NNN`. The reference resolves by validated
    /// identity only, so a broken package reads as "not found" (quirk 7); reporting it with its
    /// failures tells whoever fixes it what is actually wrong.
    pub fn locate(&self, id: &str) -> Option<&DesignPackageEntry> {
        self.resolve(id).or_else(|| {
            self.packages
                .iter()
                .filter(|p| p.id.is_none())
                .find(|p| p.declared_id.as_deref() == Some(id) || folder_matches(&p.path, id))
        })
    }
}

/// Whether the last segment of `path` is named `NNN-design-…` for the identity `DES-NNN`.
fn folder_matches(path: &str, id: &str) -> bool {
    if !is_package_id(id) {
        return false;
    }
    let number = &id["DES-".len()..];
    let folder = path.rsplit('/').next().unwrap_or_default();
    folder
        .strip_prefix(number)
        .is_some_and(|rest| rest.starts_with("-design-"))
}

fn sort_key(p: &DesignPackageEntry) -> &str {
    p.id.as_deref().unwrap_or(&p.path)
}

fn collect(prefix: &str, dirs: &[DesignDir], out: &mut Vec<DesignPackageEntry>) {
    for dir in dirs {
        let folder = if prefix.is_empty() {
            dir.name.clone()
        } else {
            format!("{prefix}/{}", dir.name)
        };
        match &dir.contents {
            DirContents::Package {
                manifest,
                design_doc,
            } => out.push(package(&folder, manifest, design_doc)),
            DirContents::Folder(children) => {
                let before = out.len();
                collect(&folder, children, out);
                // A folder that groups packages is legitimate; a leaf that is nothing sits in
                // the design taxonomy as a broken package.
                if out.len() == before && children.is_empty() {
                    out.push(package(&folder, &FileRead::Absent, &FileRead::Absent));
                }
            }
        }
    }
}

fn package(folder: &str, manifest: &FileRead, design_doc: &FileRead) -> DesignPackageEntry {
    let path = format!("{DESIGNS_DIR}/{folder}");
    let manifest_path = format!("{path}/{MANIFEST_FILE}");
    let mut entry = DesignPackageEntry {
        id: None,
        declared_id: None,
        title: None,
        path,
        manifest_path,
        current_baseline: None,
        ok: false,
        failures: Vec::new(),
    };
    let bytes = match manifest {
        FileRead::Absent => {
            entry.failures.push(DesignFailure::new(
                ErrorCode::DesignManifestMissing,
                entry.manifest_path.clone(),
                format!(
                    "'{}' is under {DESIGNS_DIR}/ and has no {MANIFEST_FILE}",
                    entry.path
                ),
                format!(
                    "create its manifest, or move the folder out of {DESIGNS_DIR}/ if it is not a package"
                ),
            ));
            return entry;
        }
        FileRead::Unreadable(why) => {
            entry.failures.push(DesignFailure::new(
                ErrorCode::DesignManifestUnreadable,
                entry.manifest_path.clone(),
                format!("the manifest cannot be read: {why}"),
                "make it a regular file holding a single valid JSON object",
            ));
            return entry;
        }
        FileRead::Bytes(bytes) => bytes,
    };
    let check = check_manifest(&entry.manifest_path, bytes, design_doc);
    entry.declared_id = check.declared_id;
    entry.failures = check.failures;
    if let Some(m) = check.manifest {
        entry.id = Some(m.id);
        entry.title = Some(m.title);
        entry.current_baseline = Some(m.current_baseline);
        entry.ok = true;
    }
    entry
}

/// One failure per identity two or more packages claim, naming every location (in index
/// order), rather than one per package, which would read as unrelated problems.
fn duplicates(packages: &[DesignPackageEntry]) -> Vec<DesignFailure> {
    let mut by_id: Vec<(&str, Vec<&str>)> = Vec::new();
    for p in packages {
        let Some(id) = p.id.as_deref() else { continue };
        match by_id.iter_mut().find(|(i, _)| *i == id) {
            Some((_, paths)) => paths.push(&p.path),
            None => by_id.push((id, vec![&p.path])),
        }
    }
    by_id
        .into_iter()
        .filter(|(_, paths)| paths.len() > 1)
        .map(|(id, paths)| {
            DesignFailure::new(
                ErrorCode::DesignIdDuplicate,
                paths.join(", "),
                format!("{id} is declared by {} packages", paths.len()),
                "an identity belongs to one package: change the id of the others",
            )
        })
        .collect()
}

#[cfg(test)]
#[path = "index_tests.rs"]
mod tests;
