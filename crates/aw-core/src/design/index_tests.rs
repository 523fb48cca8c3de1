use super::*;
use crate::design::manifest::digest_of;
use crate::design::manifest::{Revision, first_manifest};
use crate::design::sources::{Maturity, floor_source};
use crate::design::test_support::{DOC, doc_digest, folder, manifest_text, package, raw_package};
use serde_json::json;

fn paths(index: &DesignIndex) -> Vec<&str> {
    index.packages.iter().map(|p| p.path.as_str()).collect()
}

#[test]
fn a_valid_package_is_an_entry_with_its_identity_and_baseline() {
    let index = DesignIndex::from_tree(&[package("001-design-signup", "DES-001")]);
    assert!(index.failures.is_empty());
    let manifest: serde_json::Value = serde_json::from_str(&manifest_text("DES-001")).unwrap();
    assert_eq!(
        serde_json::to_value(&index.packages[0]).unwrap(),
        json!({
            "id": "DES-001",
            "declared_id": "DES-001",
            "title": "A design",
            "path": "docs/designs/001-design-signup",
            "manifest_path": "docs/designs/001-design-signup/design-manifest.json",
            "current_baseline": {"revision": 1, "digest": doc_digest()},
            "manifest": manifest,
            "ok": true,
            "failures": [],
            "content_failures": []
        })
    );
    let entry = &index.packages[0];
    assert_eq!(entry.design_text.as_deref(), Some(DOC));
    assert_eq!(
        entry.manifest_text.as_deref(),
        Some(manifest_text("DES-001").as_str())
    );
    assert_eq!(index.root, "docs/designs");
}

#[test]
fn entries_sort_by_identity_or_else_by_path() {
    let index = DesignIndex::from_tree(&[
        package("002-design-zzz", "DES-002"),
        folder("team-b", vec![package("010-design-x", "DES-010")]),
        folder("empty-leaf", vec![]),
        package("001-design-aaa", "DES-001"),
    ]);
    // Identities (`DES-…`) before paths (`docs/…`): 'D' sorts before 'd'.
    assert_eq!(
        paths(&index),
        [
            "docs/designs/001-design-aaa",
            "docs/designs/002-design-zzz",
            "docs/designs/team-b/010-design-x",
            "docs/designs/empty-leaf"
        ]
    );
}

#[test]
fn nested_packages_are_found_and_a_leaf_without_a_manifest_is_broken() {
    let index = DesignIndex::from_tree(&[folder(
        "team-a",
        vec![
            package("001-design-a", "DES-001"),
            folder("drafts", vec![folder("sketch", vec![])]),
        ],
    )]);
    assert_eq!(
        paths(&index),
        [
            "docs/designs/team-a/001-design-a",
            "docs/designs/team-a/drafts/sketch"
        ]
    );
    let broken = &index.packages[1];
    assert!(!broken.ok && broken.id.is_none());
    assert_eq!(broken.failures[0].code, ErrorCode::DesignManifestMissing);
    assert_eq!(
        broken.failures[0].artifact,
        "docs/designs/team-a/drafts/sketch/design-manifest.json"
    );
    // Folders that group packages are not reported themselves.
    assert!(!paths(&index).contains(&"docs/designs/team-a"));
}

#[test]
fn two_packages_claiming_one_identity_are_one_index_failure() {
    let index = DesignIndex::from_tree(&[
        package("001-design-a", "DES-001"),
        package("001-design-b", "DES-001"),
        package("002-design-c", "DES-002"),
    ]);
    assert_eq!(index.failures.len(), 1);
    let f = &index.failures[0];
    assert_eq!(f.code, ErrorCode::DesignIdDuplicate);
    assert_eq!(
        f.artifact,
        "docs/designs/001-design-a, docs/designs/001-design-b"
    );
    assert!(f.message.contains("DES-001") && f.message.contains('2'));
    // Resolution takes the first in index order.
    assert_eq!(
        index.resolve("DES-001").unwrap().path,
        "docs/designs/001-design-a"
    );
}

#[test]
fn an_invalid_manifest_has_no_identity_and_is_never_resolved() {
    let broken = json!({"id": "DES-003", "title": "Broken", "revision": 0, "digest": doc_digest()});
    let index = DesignIndex::from_tree(&[
        raw_package("003-design-broken", serde_json::to_vec(&broken).unwrap()),
        raw_package("x", b"not json".to_vec()),
    ]);
    let entry = &index.packages[0];
    assert_eq!(entry.id, None);
    assert_eq!(entry.declared_id.as_deref(), Some("DES-003"));
    assert_eq!(entry.failures[0].code, ErrorCode::DesignManifestInvalid);
    assert_eq!(
        index.packages[1].failures[0].code,
        ErrorCode::DesignManifestUnreadable
    );
    assert!(index.resolve("DES-003").is_none());
    // Lookup is by identity, never by path.
    assert!(index.resolve("docs/designs/x").is_none());
}

#[test]
fn locate_falls_back_to_a_broken_package_that_matches_by_claim_or_folder() {
    let claims = json!({"id": "DES-004", "title": "", "revision": 1, "digest": doc_digest()});
    let index = DesignIndex::from_tree(&[
        raw_package("renamed", serde_json::to_vec(&claims).unwrap()),
        raw_package("005-design-login", b"{".to_vec()),
        folder("1234-design-big", vec![]),
        package("016-design-ok", "DES-016"),
    ]);
    assert_eq!(
        index.locate("DES-004").unwrap().path,
        "docs/designs/renamed"
    );
    assert_eq!(
        index.locate("DES-005").unwrap().path,
        "docs/designs/005-design-login"
    );
    assert_eq!(
        index.locate("DES-1234").unwrap().path,
        "docs/designs/1234-design-big"
    );
    // A valid package is found by its identity.
    assert_eq!(
        index.locate("DES-016").unwrap().path,
        "docs/designs/016-design-ok"
    );
    // Numbers compare as text: DES-05 is no identity, 05-design-… no match.
    assert!(index.locate("DES-05").is_none());
    assert!(index.locate("DES-007").is_none());
}

#[test]
fn an_unreadable_manifest_is_reported_with_its_reason() {
    let index = DesignIndex::from_tree(&[DesignDir {
        name: "007-design-fifo".to_owned(),
        contents: DirContents::Package(PackageRead::of(
            FileRead::Unreadable("not a regular file".to_owned()),
            FileRead::Absent,
        )),
    }]);
    let f = &index.packages[0].failures[0];
    assert_eq!(f.code, ErrorCode::DesignManifestUnreadable);
    assert!(f.message.contains("not a regular file"));
    assert_eq!(DesignIndex::empty(), DesignIndex::from_tree(&[]));
}

#[test]
fn references_must_resolve_packages_revisions_and_files() {
    let mut sourced = raw_package(
        "002-design-b",
        first_manifest(
            "DES-002",
            Revision {
                doc: DOC,
                sources: &[
                    floor_source("sources", "DES-001@r1"),
                    floor_source("sources", "DES-001@r2"),
                    floor_source("sources", "DES-009"),
                    floor_source("sources", "docs/here.md"),
                    floor_source("sources", "docs/gone.md"),
                ],
                requested: None,
            },
        )
        .to_text()
        .into_bytes(),
    );
    if let DirContents::Package(read) = &mut sourced.contents {
        read.existing_sources = vec!["docs/here.md".to_owned()];
    }
    let index = DesignIndex::from_tree(&[package("001-design-a", "DES-001"), sourced]);
    let b = index.resolve("DES-002").unwrap();
    assert!(!b.ok, "an unresolved reference fails the package");
    let messages: Vec<&str> = b.failures.iter().map(|f| f.message.as_str()).collect();
    assert!(
        b.failures
            .iter()
            .all(|f| f.code == ErrorCode::DesignReferenceUnresolved)
    );
    assert_eq!(messages.len(), 3, "{messages:?}");
    assert!(messages[0].contains("docs/gone.md"));
    assert!(messages[1].contains("DES-001@r2"));
    assert!(messages[2].contains("DES-009"));
    assert!(index.resolve("DES-001").unwrap().ok);
}

#[test]
fn a_package_without_design_md_fails_its_content_and_a_broken_one_is_reported() {
    let mut dir = package("001-design-a", "DES-001");
    if let DirContents::Package(read) = &mut dir.contents {
        read.design_doc = FileRead::Absent;
    }
    let index = DesignIndex::from_tree(&[dir]);
    let e = &index.packages[0];
    assert_eq!(e.content_failures.len(), 1);
    assert_eq!(e.failures[0].code, ErrorCode::DesignDigestMismatch);
    let mut dir = package("001-design-a", "DES-001");
    if let DirContents::Package(read) = &mut dir.contents {
        read.design_doc = FileRead::Bytes(b"# Only a title\n".to_vec());
    }
    let e = DesignIndex::from_tree(&[dir]).packages[0].clone();
    assert_eq!(e.content_failures.len(), 3, "{:?}", e.content_failures);
    assert_eq!(digest_of(DOC.as_bytes()), doc_digest());
}

#[test]
fn a_package_source_resolves_only_to_an_identity_at_a_revision_it_reached() {
    let index = DesignIndex::from_tree(&[package("001-design-signup", "DES-001")]);
    for ok in ["DES-001", "DES-001@r1", " DES-001 ", "\u{feff}DES-001"] {
        assert!(index.resolves_source(ok), "{ok:?}");
    }
    for broken in [
        "DES-002",
        "DES-001@r2",
        "DES-001@r0",
        "DES-001@rfoo",
        "DES-001@r",
        "DES-001@r99999999999999999999999",
    ] {
        assert!(!index.resolves_source(broken), "{broken:?}");
    }
}

#[test]
fn a_package_that_fails_a_check_attains_outline_whatever_its_manifest_records() {
    let index = DesignIndex::from_tree(&[package("001-design-signup", "DES-001")]);
    let mut entry = index.packages[0].clone();
    assert_eq!(entry.attained(), Some(Maturity::Handoff));
    entry.ok = false;
    assert_eq!(entry.attained(), Some(Maturity::Outline));
    entry.manifest = None;
    assert_eq!(entry.attained(), None);
}
