//! Builders the design unit tests share: folders under `docs/designs/` as the shell reads them,
//! holding v1 packages.

use super::index::{DesignDir, DirContents, PackageRead};
use super::manifest::{FileRead, Revision, digest_of, first_manifest};
use super::sources::floor_source;

/// The `DESIGN.md` every valid test package holds.
pub const DOC: &str = "# A design\n\n## Objective\n\nPay in one step.\n\n## Proposed design\n\nOne page.\n\n## Validation\n\nA person pays.\n";

/// The digest of [`DOC`], as a manifest seals it.
pub fn doc_digest() -> String {
    digest_of(DOC.as_bytes())
}

/// The manifest aw writes for revision 1 of [`DOC`] as `id`, sourced from `docs/req.md`.
pub fn manifest_text(id: &str) -> String {
    first_manifest(
        id,
        Revision {
            doc: DOC,
            sources: &[floor_source("sources", "docs/req.md")],
            requested: None,
        },
    )
    .to_text()
}

/// A valid package folder claiming `id` (the folder must be named `NNN-design-…` for it),
/// whose source exists.
pub fn package(name: &str, id: &str) -> DesignDir {
    let mut dir = raw_package(name, manifest_text(id).into_bytes());
    if let DirContents::Package(read) = &mut dir.contents {
        read.existing_sources = vec!["docs/req.md".to_owned()];
    }
    dir
}

/// A package folder whose manifest holds `bytes`, with [`DOC`] beside it.
pub fn raw_package(name: &str, bytes: Vec<u8>) -> DesignDir {
    DesignDir {
        name: name.to_owned(),
        contents: DirContents::Package(PackageRead::of(
            FileRead::Bytes(bytes),
            FileRead::Bytes(DOC.as_bytes().to_vec()),
        )),
    }
}

/// A grouping folder.
pub fn folder(name: &str, children: Vec<DesignDir>) -> DesignDir {
    DesignDir {
        name: name.to_owned(),
        contents: DirContents::Folder(children),
    }
}
