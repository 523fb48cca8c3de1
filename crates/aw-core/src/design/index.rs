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

use super::document::{DesignDocument, check_document};
use super::failure::DesignFailure;
use super::manifest::{
    Baseline, DESIGN_DOC_FILE, FileRead, MANIFEST_FILE, Manifest, PackageFiles, check_manifest,
    file_source_locators, is_package_id,
};
use super::output_root::DESIGNS_DIR;
use super::sources::{Disposition, SourceKind};
use crate::canonical::utf16_cmp;
use crate::error_code::ErrorCode;
use aw_json::js::js_trim;
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
    Package(PackageRead),
    /// A grouping folder: its real sub-folders (symbolic links left out), sorted by name.
    Folder(Vec<DesignDir>),
    /// A folder nested [`MAX_FOLDER_DEPTH`] levels under `docs/designs/` that is not a
    /// package: the shell stops there rather than descend without end.
    TooDeep,
}

/// How many folders deep under `docs/designs/` the index looks for packages. Packages sit one
/// or two levels down; the cap keeps a runaway tree (or a hostile one) from exhausting the
/// stack or the clock, and the folder where the walk stopped is reported, not skipped.
pub const MAX_FOLDER_DEPTH: usize = 32;

/// One review file of a package (`reviews/<name>`), carried as read for whoever judges it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewFile {
    /// The file's name inside `reviews/`.
    pub name: String,
    /// What was there.
    pub read: FileRead,
}

/// What the shell read of one package folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageRead {
    /// The manifest, as read.
    pub manifest: FileRead,
    /// The `DESIGN.md` beside it, as read.
    pub design_doc: FileRead,
    /// The files of `revisions/` (regular files only, by name, sorted).
    pub revisions: Vec<(String, FileRead)>,
    /// The `reviews/*.json` files, sorted by name.
    pub review_files: Vec<ReviewFile>,
    /// Which of the manifest's file sources ([`super::manifest::file_source_locators`]) exist,
    /// relative to the workspace.
    pub existing_sources: Vec<String>,
}

impl PackageRead {
    /// A package folder holding only these two files.
    pub fn of(manifest: FileRead, design_doc: FileRead) -> Self {
        PackageRead {
            manifest,
            design_doc,
            revisions: Vec::new(),
            review_files: Vec::new(),
            existing_sources: Vec::new(),
        }
    }
}

/// One package of the index (keys in emission order; the files' contents are carried for the
/// floor and never serialized).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
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
    /// The manifest, when it validates.
    pub manifest: Option<Manifest>,
    /// Whether the manifest validates and every reference it makes resolves.
    pub ok: bool,
    /// What is wrong with the manifest or its references.
    pub failures: Vec<DesignFailure>,
    /// What the content gate finds wrong with `DESIGN.md` (empty when it passes or is absent).
    pub content_failures: Vec<DesignFailure>,
    /// The manifest's text, when it validates (an update's compare-and-swap base).
    #[serde(skip)]
    pub manifest_text: Option<String>,
    /// `DESIGN.md`'s text, when it is UTF-8.
    #[serde(skip)]
    pub design_text: Option<String>,
    /// The `reviews/*.json` files, as read.
    #[serde(skip)]
    pub review_files: Vec<ReviewFile>,
}

/// The packages under `docs/designs/`, with the problems that span several of them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct DesignIndex {
    /// Where the packages live, workspace-relative ([`DESIGNS_DIR`]).
    pub root: String,
    /// The packages, sorted (see the module documentation).
    pub packages: Vec<DesignPackageEntry>,
    /// Index-level failures: one `DESIGN_ID_DUPLICATE` per identity claimed twice.
    pub failures: Vec<DesignFailure>,
}

impl DesignPackageEntry {
    /// The maturity the package attains as it stands: none without a valid manifest; `outline`
    /// when any check fails (every failure is a reason, as `design.validate` counts them);
    /// otherwise what its manifest records.
    pub fn attained(&self) -> Option<super::sources::Maturity> {
        let recorded = self.manifest.as_ref()?.maturity.attained;
        Some(if self.ok && self.content_failures.is_empty() {
            recorded
        } else {
            super::sources::Maturity::Outline
        })
    }
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
        check_references(&mut packages);
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

    /// Whether the package source `locator` (`DES-NNN` or `DES-NNN@rN`) resolves in this index,
    /// by the rule a package's own references are checked with.
    pub fn resolves_source(&self, locator: &str) -> bool {
        source_resolves(&current_revisions(&self.packages), locator)
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
            DirContents::Package(read) => out.push(package(&folder, &dir.name, read)),
            DirContents::TooDeep => out.push(too_deep(&folder)),
            DirContents::Folder(children) => {
                let before = out.len();
                collect(&folder, children, out);
                // A folder that groups packages is legitimate; a leaf that is nothing sits in
                // the design taxonomy as a broken package.
                if out.len() == before && children.is_empty() {
                    let empty = PackageRead::of(FileRead::Absent, FileRead::Absent);
                    out.push(package(&folder, &dir.name, &empty));
                }
            }
        }
    }
}

/// The broken entry for a folder where the walk stopped: a package cannot sit that deep.
fn too_deep(folder: &str) -> DesignPackageEntry {
    let mut entry = package(
        folder,
        "",
        &PackageRead::of(FileRead::Absent, FileRead::Absent),
    );
    entry.failures = vec![DesignFailure::new(
        ErrorCode::DesignManifestMissing,
        entry.manifest_path.clone(),
        format!(
            "'{}' sits {MAX_FOLDER_DEPTH} folders deep under {DESIGNS_DIR}/ and is not a package; aw does not look deeper",
            entry.path
        ),
        format!("move the packages inside it at most {MAX_FOLDER_DEPTH} folders deep"),
    )];
    entry
}

fn package(folder: &str, name: &str, read: &PackageRead) -> DesignPackageEntry {
    let path = format!("{DESIGNS_DIR}/{folder}");
    let manifest_path = format!("{path}/{MANIFEST_FILE}");
    let design_text = match &read.design_doc {
        FileRead::Bytes(b) => String::from_utf8(b.clone()).ok(),
        _ => None,
    };
    let doc_path = format!("{path}/{DESIGN_DOC_FILE}");
    let content_failures = match (&read.design_doc, &design_text) {
        // A leaf folder with nothing in it is reported once, as a missing manifest.
        (FileRead::Absent, _) if read.manifest == FileRead::Absent => Vec::new(),
        (FileRead::Absent, _) => vec![DesignFailure::new(
            ErrorCode::DesignContentInvalid,
            doc_path,
            format!("the package has no {DESIGN_DOC_FILE}"),
            format!("restore the package's {DESIGN_DOC_FILE}"),
        )],
        (_, Some(text)) => check_document(&DesignDocument::read(text), &doc_path),
        (FileRead::Unreadable(why), None) => vec![DesignFailure::new(
            ErrorCode::DesignContentInvalid,
            doc_path,
            format!("{DESIGN_DOC_FILE} cannot be read: {why}"),
            "make it a readable regular file",
        )],
        (FileRead::Bytes(_), None) => vec![DesignFailure::new(
            ErrorCode::DesignContentInvalid,
            doc_path,
            format!("{DESIGN_DOC_FILE} is not UTF-8 text"),
            "write it as UTF-8 Markdown",
        )],
    };
    let mut entry = DesignPackageEntry {
        id: None,
        declared_id: None,
        title: None,
        path,
        manifest_path,
        current_baseline: None,
        manifest: None,
        ok: false,
        failures: Vec::new(),
        content_failures,
        manifest_text: None,
        design_text,
        review_files: read.review_files.clone(),
    };
    let bytes = match &read.manifest {
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
    let check = check_manifest(PackageFiles {
        manifest_path: &entry.manifest_path,
        folder: name,
        manifest: bytes,
        design_doc: &read.design_doc,
        revisions: &read.revisions,
    });
    entry.declared_id = check.declared_id;
    entry.failures = check.failures;
    if let Some(m) = check.manifest {
        entry.id = Some(m.id.clone());
        entry.title = Some(m.title.clone());
        entry.current_baseline = Some(m.baseline());
        entry.manifest_text = String::from_utf8(bytes.clone()).ok();
        entry.ok = true;
        for locator in file_source_locators(bytes) {
            if !read.existing_sources.contains(&locator) {
                entry.failures.push(DesignFailure::new(
                    ErrorCode::DesignReferenceUnresolved,
                    entry.manifest_path.clone(),
                    format!("the source '{locator}' does not exist"),
                    "restore the file, or publish a revision whose sources say what became of it",
                ));
                entry.ok = false;
            }
        }
        entry.manifest = Some(m);
    }
    entry
}

/// Every `used` package source of a valid manifest must name a package of the index, and a
/// revision it has when it names one (`DES-001@r2`): `DESIGN_REFERENCE_UNRESOLVED` otherwise.
fn check_references(packages: &mut [DesignPackageEntry]) {
    let current = current_revisions(packages);
    for p in packages.iter_mut() {
        let Some(m) = &p.manifest else { continue };
        let mut failures = Vec::new();
        for s in &m.sources {
            if s.kind != SourceKind::Package || s.disposition != Disposition::Used {
                continue;
            }
            let locator = js_trim(&s.locator);
            if !source_resolves(&current, locator) {
                failures.push(DesignFailure::new(
                    ErrorCode::DesignReferenceUnresolved,
                    p.manifest_path.clone(),
                    format!("the source '{locator}' names no package (or revision) of the index"),
                    "see 'aw designs' for the published identities and their revisions",
                ));
            }
        }
        if !failures.is_empty() {
            p.ok = false;
            p.failures.extend(failures);
        }
    }
}

/// Each validated identity with its current revision.
fn current_revisions(packages: &[DesignPackageEntry]) -> Vec<(String, u64)> {
    packages
        .iter()
        .filter_map(|p| Some((p.id.clone()?, p.current_baseline.as_ref()?.revision)))
        .collect()
}

/// Whether the package source `locator` (`DES-NNN`, or `DES-NNN@rN` for a revision) names a
/// package of `current` and, when it pins one, a revision that package has reached.
fn source_resolves(current: &[(String, u64)], locator: &str) -> bool {
    let locator = js_trim(locator);
    let (id, revision) = match locator.split_once("@r") {
        // A pin that is not a revision number (`@rfoo`, `@r0`) pins nothing that exists.
        Some((id, r)) => match r.parse::<u64>() {
            Ok(n) if n >= 1 => (id, Some(n)),
            _ => return false,
        },
        None => (locator, None),
    };
    current
        .iter()
        .find(|(i, _)| i == id)
        .is_some_and(|(_, cur)| revision.is_none_or(|r| r <= *cur))
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
