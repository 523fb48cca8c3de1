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

/// A first-attempt request for the design `operation` with `inputs` given as flags, and the
/// `--profile` flag when `profile` is some.
pub fn design_request(
    operation: &str,
    inputs: &[(&str, &str)],
    profile: Option<&str>,
) -> crate::capability::request::CapabilityRequest {
    use crate::capability::test_support::{ID, design, direct, invocation};
    let mut inv = invocation(operation, direct(), inputs);
    inv.context.profile = profile.map(str::to_owned);
    crate::capability::request::CapabilityRequest::first_attempt(&design(), ID.to_owned(), inv)
        .unwrap()
}

/// The `prepare` attempt of `floor` for `request`.
pub fn prepare(
    floor: &super::floor::DesignFloor,
    request: &crate::capability::request::CapabilityRequest,
) -> crate::capability::handler::HandlerResult {
    use crate::capability::handler::{Handler, HandlerCall, Verb};
    let d = crate::capability::test_support::design();
    floor.attempt(&HandlerCall {
        verb: Verb::Prepare,
        request,
        operation: d.operation(&request.operation).unwrap(),
        answer: None,
    })
}

/// A workspace floor over `dirs`.
pub fn floor_over(dirs: &[DesignDir]) -> super::floor::DesignFloor {
    super::floor::DesignFloor::new(true, Some(super::index::DesignIndex::from_tree(dirs)))
}

/// `dir` (a package) with these `reviews/` files.
pub fn with_reviews(mut dir: DesignDir, reviews: &[(&str, &str)]) -> DesignDir {
    if let DirContents::Package(read) = &mut dir.contents {
        read.review_files = reviews
            .iter()
            .map(|(name, text)| super::index::ReviewFile {
                name: (*name).to_owned(),
                read: FileRead::Bytes(text.as_bytes().to_vec()),
            })
            .collect();
    }
    dir
}
