//! Builders the design unit tests share: folders under `docs/designs/` as the shell reads them.

use super::index::{DesignDir, DirContents};
use super::manifest::FileRead;
use crate::canonical::sha256_hex;
use serde_json::json;

/// The `DESIGN.md` every valid test package holds.
pub const DOC: &[u8] = b"# A design\n";

/// The digest of [`DOC`], as a manifest seals it.
pub fn doc_digest() -> String {
    format!("sha256:{}", sha256_hex(DOC))
}

/// A valid package folder claiming `id`.
pub fn package(name: &str, id: &str) -> DesignDir {
    let manifest =
        json!({"id": id, "title": format!("Title of {id}"), "revision": 2, "digest": doc_digest()});
    raw_package(name, serde_json::to_vec(&manifest).unwrap())
}

/// A package folder whose manifest holds `bytes`, with [`DOC`] beside it.
pub fn raw_package(name: &str, bytes: Vec<u8>) -> DesignDir {
    DesignDir {
        name: name.to_owned(),
        contents: DirContents::Package {
            manifest: FileRead::Bytes(bytes),
            design_doc: FileRead::Bytes(DOC.to_vec()),
        },
    }
}

/// A grouping folder.
pub fn folder(name: &str, children: Vec<DesignDir>) -> DesignDir {
    DesignDir {
        name: name.to_owned(),
        contents: DirContents::Folder(children),
    }
}
