use super::*;
use crate::design::sources::floor_source;
use crate::design::test_support::{DOC, manifest_text};
use serde_json::json;

const PATH: &str = "docs/designs/001-design-x/design-manifest.json";
const FOLDER: &str = "001-design-x";

fn doc() -> FileRead {
    FileRead::Bytes(DOC.as_bytes().to_vec())
}

fn good() -> Value {
    serde_json::from_str(&manifest_text("DES-001")).unwrap()
}

fn check_with(
    value: &Value,
    design_doc: &FileRead,
    revisions: &[(String, FileRead)],
) -> ManifestCheck {
    let bytes = serde_json::to_vec(value).unwrap();
    check_manifest(PackageFiles {
        manifest_path: PATH,
        folder: FOLDER,
        manifest: &bytes,
        design_doc,
        revisions,
    })
}

fn check(value: &Value) -> ManifestCheck {
    check_with(value, &doc(), &[])
}

fn codes(check: &ManifestCheck) -> Vec<ErrorCode> {
    check.failures.iter().map(|f| f.code).collect()
}

#[test]
fn the_derived_first_manifest_is_v1_with_its_keys_in_order() {
    let text = manifest_text("DES-001");
    assert!(text.ends_with("}\n"));
    let v: Value = serde_json::from_str(&text).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, MANIFEST_KEYS);
    assert_eq!(
        v,
        json!({
            "schema": "workline.design-manifest/v1",
            "id": "DES-001",
            "title": "A design",
            "revision": 1,
            "digest": digest_of(DOC.as_bytes()),
            "sources": [{"name": "sources", "kind": "markdown", "locator": "docs/req.md",
                         "disposition": "used", "reason": null, "derived": [],
                         "sensitivity": "public", "essential": true}],
            "maturity": {"requested": null, "attained": "handoff", "gaps": []},
            "history": [{"revision": 1, "digest": digest_of(DOC.as_bytes()), "path": "DESIGN.md"}]
        })
    );
}

#[test]
fn a_valid_manifest_gives_its_identity_and_baseline() {
    let c = check(&good());
    assert!(c.failures.is_empty(), "{:?}", c.failures);
    let m = c.manifest.unwrap();
    assert_eq!(m.id, "DES-001");
    assert_eq!(m.title, "A design");
    assert_eq!(
        m.baseline(),
        Baseline {
            revision: 1,
            digest: digest_of(DOC.as_bytes())
        }
    );
    assert_eq!(c.declared_id.as_deref(), Some("DES-001"));
}

#[test]
fn the_next_manifest_archives_the_current_revision_in_the_history() {
    let first: Manifest = {
        let c = check(&good());
        c.manifest.unwrap()
    };
    let new_doc = "# A design\n\n## Objective\n\nx\n\n## Proposed design\n\ny\n\n## Validation\n\nz\n\n## Open questions\n\n- when?\n";
    let next = next_manifest(
        &first,
        Revision {
            doc: new_doc,
            sources: &first.sources,
            requested: Some(Maturity::Handoff),
        },
    );
    assert_eq!(next.revision, 2);
    assert_eq!(next.digest, digest_of(new_doc.as_bytes()));
    assert_eq!(
        next.history,
        [
            HistoryEntry {
                revision: 1,
                digest: first.digest.clone(),
                path: "revisions/DESIGN-r001.md".to_owned()
            },
            HistoryEntry {
                revision: 2,
                digest: next.digest.clone(),
                path: "DESIGN.md".to_owned()
            }
        ]
    );
    assert_eq!(next.maturity.attained, Maturity::Outline);
    // It checks against the files it describes: the new DESIGN.md and the archived first one.
    let archived = vec![("DESIGN-r001.md".to_owned(), doc())];
    let v = serde_json::from_str::<Value>(&next.to_text()).unwrap();
    let c = check_with(&v, &FileRead::Bytes(new_doc.as_bytes().to_vec()), &archived);
    assert!(c.failures.is_empty(), "{:?}", c.failures);
    // An archived revision that is missing or edited is caught.
    let c = check_with(&v, &FileRead::Bytes(new_doc.as_bytes().to_vec()), &[]);
    assert_eq!(codes(&c), [ErrorCode::DesignManifestInvalid]);
    let edited = vec![("DESIGN-r001.md".to_owned(), FileRead::Bytes(b"x".to_vec()))];
    let c = check_with(&v, &FileRead::Bytes(new_doc.as_bytes().to_vec()), &edited);
    assert_eq!(codes(&c), [ErrorCode::DesignDigestMismatch]);
}

#[test]
fn names_and_identities_follow_the_grammar() {
    for id in ["DES-001", "DES-999", "DES-1000", "DES-12345"] {
        assert!(is_package_id(id), "{id}");
    }
    for id in [
        "DES-01",
        "DES-0100",
        "des-001",
        "DES-001@r1",
        " DES-001",
        "DES-1a3",
    ] {
        assert!(!is_package_id(id), "{id}");
    }
    let n = Correlative::from_digits("7").unwrap();
    assert_eq!(package_id(&n), "DES-007");
    assert_eq!(package_folder(&n, "check-out"), "007-design-check-out");
    assert_eq!(folder_number("007-design-check-out"), Some("007"));
    assert_eq!(folder_number("1000-design-x"), Some("1000"));
    for bad in [
        "07-design-x",
        "007-design-",
        "007-design-Check",
        "007-spec-x",
        "007-design-a--b",
    ] {
        assert_eq!(folder_number(bad), None, "{bad}");
    }
    assert_eq!(archive_path(3), "revisions/DESIGN-r003.md");
    assert_eq!(archive_path(1234), "revisions/DESIGN-r1234.md");
}

#[test]
fn the_id_must_match_the_folder_number() {
    let mut v = good();
    v["id"] = json!("DES-002");
    let c = check(&v);
    assert_eq!(codes(&c), [ErrorCode::DesignManifestInvalid]);
    assert!(
        c.failures[0].message.contains("numbered 001"),
        "{:?}",
        c.failures
    );
    let bytes = serde_json::to_vec(&good()).unwrap();
    let c = check_manifest(PackageFiles {
        manifest_path: PATH,
        folder: "checkout",
        manifest: &bytes,
        design_doc: &doc(),
        revisions: &[],
    });
    assert_eq!(codes(&c), [ErrorCode::DesignManifestInvalid]);
    assert!(c.failures[0].message.contains("NNN-design-<slug>"));
}

#[test]
fn keys_schema_and_each_broken_field_are_failures_and_the_claimed_id_is_kept() {
    let mut v = good();
    v["title"] = json!("  ");
    v["revision"] = json!(0);
    v["digest"] = json!("sha256:XYZ");
    let c = check(&v);
    // title, revision, digest, history count.
    assert!(c.failures.len() >= 3, "{:?}", c.failures);
    assert!(
        codes(&c)
            .iter()
            .all(|k| *k == ErrorCode::DesignManifestInvalid)
    );
    assert_eq!(c.declared_id.as_deref(), Some("DES-001"));
    assert!(c.manifest.is_none());
    assert!(c.failures.iter().all(|f| f.artifact == PATH));

    // The v21 minimal manifest is not v1.
    let old = json!({"id": "DES-001", "title": "A design", "revision": 1, "digest": digest_of(DOC.as_bytes())});
    let c = check(&old);
    assert!(c.failures.iter().any(|f| f.message.contains("keys")));
    assert!(c.failures.iter().any(|f| f.message.contains("schema")));

    // Key order counts.
    let obj = good();
    let mut reordered = Map::new();
    for k in [
        "id", "schema", "title", "revision", "digest", "sources", "maturity", "history",
    ] {
        reordered.insert(k.to_owned(), obj[k].clone());
    }
    let c = check(&Value::Object(reordered));
    assert_eq!(codes(&c), [ErrorCode::DesignManifestInvalid]);

    for revision in [json!(1.5), json!("1"), json!(-1), json!(null)] {
        let mut v = good();
        v["revision"] = revision.clone();
        let c = check(&v);
        assert!(!c.failures.is_empty(), "{revision}");
        assert!(c.manifest.is_none());
    }
    let c = check(&json!([1]));
    assert_eq!(codes(&c), [ErrorCode::DesignManifestInvalid]);
    assert_eq!(c.declared_id, None);
}

#[test]
fn the_title_must_be_design_md_s_and_the_maturity_recomputed() {
    let mut v = good();
    v["title"] = json!("Another");
    let c = check(&v);
    assert_eq!(codes(&c), [ErrorCode::DesignManifestInvalid]);
    assert!(c.failures[0].message.contains("titled 'A design'"));

    let mut v = good();
    v["maturity"]["attained"] = json!("outline");
    let c = check(&v);
    assert_eq!(codes(&c), [ErrorCode::DesignManifestInvalid]);
    assert!(c.failures[0].message.contains("'maturity'"));

    let mut v = good();
    v["maturity"] = json!({"requested": null, "attained": "handoff"});
    assert_eq!(codes(&check(&v)), [ErrorCode::DesignManifestInvalid]);
}

#[test]
fn sources_must_be_reported_sources() {
    let mut v = good();
    v["sources"] = json!([{"name": "sources"}]);
    assert_eq!(codes(&check(&v)), [ErrorCode::DesignManifestInvalid]);
    let mut s = floor_source("sources", "docs/req.md");
    s.essential = false;
    let mut v = good();
    v["sources"] = json!([s]);
    let c = check(&v);
    assert!(codes(&c).contains(&ErrorCode::DesignSourceOptionalWithoutReason));
}

#[test]
fn the_history_must_list_every_revision_ending_at_the_current_one() {
    let mut v = good();
    v["history"][0]["path"] = json!("revisions/DESIGN-r001.md");
    assert_eq!(codes(&check(&v)), [ErrorCode::DesignManifestInvalid]);
    let mut v = good();
    v["history"][0]["digest"] = json!(format!("sha256:{}", "0".repeat(64)));
    assert_eq!(codes(&check(&v)), [ErrorCode::DesignManifestInvalid]);
    let mut v = good();
    v["history"] = json!([]);
    assert_eq!(codes(&check(&v)), [ErrorCode::DesignManifestInvalid]);
}

#[test]
fn text_that_is_not_json_is_unreadable() {
    for bytes in [&b"{"[..], b"\xff\xfe", b"", &[b'['; 200_000][..]] {
        let c = check_manifest(PackageFiles {
            manifest_path: PATH,
            folder: FOLDER,
            manifest: bytes,
            design_doc: &FileRead::Absent,
            revisions: &[],
        });
        assert_eq!(codes(&c), [ErrorCode::DesignManifestUnreadable]);
    }
}

#[test]
fn the_digest_must_be_the_sha256_of_design_md() {
    let c = check_with(&good(), &FileRead::Bytes(b"# Changed\n".to_vec()), &[]);
    assert!(
        codes(&c).contains(&ErrorCode::DesignDigestMismatch),
        "{:?}",
        c.failures
    );
    assert!(c.manifest.is_none());
    let c = check_with(&good(), &FileRead::Unreadable("a FIFO".to_owned()), &[]);
    assert_eq!(codes(&c), [ErrorCode::DesignDigestMismatch]);
    assert!(c.failures[0].message.contains("a FIFO"));
    let c = check_with(&good(), &FileRead::Absent, &[]);
    assert_eq!(codes(&c), [ErrorCode::DesignDigestMismatch]);
}

#[test]
fn file_sources_are_the_used_ones_that_name_files() {
    let mut v = good();
    v["sources"] = json!([
        floor_source("sources", "docs/a.md"),
        floor_source("sources", "DES-002"),
        floor_source("sources", "figma://x"),
        floor_source("sources", "weird.xyz"),
        floor_source("sources", "shot.png"),
    ]);
    assert_eq!(
        file_source_locators(&serde_json::to_vec(&v).unwrap()),
        ["docs/a.md", "shot.png"]
    );
    assert!(file_source_locators(b"{").is_empty());
}

#[test]
fn a_manifest_records_the_lineage_of_the_revision_a_create_wrote() {
    let m = br#"{"id": "DES-001", "history": [{"revision": 1, "digest": "sha256:aa"},
        {"revision": 2, "digest": "sha256:bb"}]}"#;
    assert!(records_lineage(m, "DES-001", "sha256:aa"));
    assert!(records_lineage(m, "DES-001", "sha256:bb"));
    assert!(!records_lineage(m, "DES-002", "sha256:aa"));
    assert!(!records_lineage(m, "DES-001", "sha256:cc"));
    assert!(!records_lineage(b"not json", "DES-001", "sha256:aa"));
    assert!(!records_lineage(
        br#"{"id": "DES-001"}"#,
        "DES-001",
        "sha256:aa"
    ));
}
