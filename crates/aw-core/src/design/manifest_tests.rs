use super::*;
use serde_json::json;

const PATH: &str = "docs/designs/001-design-x/design-manifest.json";
const DOC: &[u8] = b"# Sign-up\n";

fn doc_digest() -> String {
    format!("sha256:{}", sha256_hex(DOC))
}

fn manifest(value: Value) -> Vec<u8> {
    serde_json::to_vec(&value).unwrap()
}

fn good() -> Value {
    json!({"id": "DES-001", "title": "Sign-up", "revision": 1, "digest": doc_digest()})
}

fn codes(check: &ManifestCheck) -> Vec<ErrorCode> {
    check.failures.iter().map(|f| f.code).collect()
}

#[test]
fn a_valid_manifest_gives_its_identity_and_baseline() {
    let check = check_manifest(PATH, &manifest(good()), &FileRead::Bytes(DOC.to_vec()));
    assert!(check.failures.is_empty(), "{:?}", check.failures);
    let m = check.manifest.unwrap();
    assert_eq!(m.id, "DES-001");
    assert_eq!(m.title, "Sign-up");
    assert_eq!(
        m.current_baseline,
        Baseline {
            revision: 1,
            digest: doc_digest()
        }
    );
    assert_eq!(check.declared_id.as_deref(), Some("DES-001"));
    // Without a DESIGN.md beside it the digest is not compared; `1.0` is the integer 1.
    let mut v = good();
    v["revision"] = json!(1.0);
    v["digest"] = json!(format!("sha256:{}", "a".repeat(64)));
    assert!(
        check_manifest(PATH, &manifest(v), &FileRead::Absent)
            .manifest
            .is_some()
    );
}

#[test]
fn package_identities_follow_the_grammar() {
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
}

#[test]
fn each_broken_field_is_a_failure_and_the_claimed_id_is_kept() {
    let v = json!({"id": "DES-1", "title": "  ", "revision": 0, "digest": "sha256:XYZ"});
    let check = check_manifest(PATH, &manifest(v), &FileRead::Absent);
    assert_eq!(codes(&check), [ErrorCode::DesignManifestInvalid; 4]);
    assert_eq!(check.declared_id.as_deref(), Some("DES-1"));
    assert!(check.manifest.is_none());
    assert!(check.failures.iter().all(|f| f.artifact == PATH));
    for revision in [json!(1.5), json!("1"), json!(-1), json!(null)] {
        let mut v = good();
        v["revision"] = revision.clone();
        let check = check_manifest(PATH, &manifest(v), &FileRead::Absent);
        assert_eq!(
            codes(&check),
            [ErrorCode::DesignManifestInvalid],
            "{revision}"
        );
    }
    let check = check_manifest(PATH, &manifest(json!([1])), &FileRead::Absent);
    assert_eq!(codes(&check), [ErrorCode::DesignManifestInvalid]);
    assert_eq!(check.declared_id, None);
}

#[test]
fn text_that_is_not_json_is_unreadable() {
    for bytes in [&b"{"[..], b"\xff\xfe", b"", &[b'['; 200_000][..]] {
        let check = check_manifest(PATH, bytes, &FileRead::Absent);
        assert_eq!(codes(&check), [ErrorCode::DesignManifestUnreadable]);
    }
}

#[test]
fn the_digest_must_be_the_sha256_of_design_md() {
    let check = check_manifest(
        PATH,
        &manifest(good()),
        &FileRead::Bytes(b"# Changed\n".to_vec()),
    );
    assert_eq!(codes(&check), [ErrorCode::DesignDigestMismatch]);
    assert!(check.manifest.is_none());
    let check = check_manifest(
        PATH,
        &manifest(good()),
        &FileRead::Unreadable("a FIFO".to_owned()),
    );
    assert_eq!(codes(&check), [ErrorCode::DesignDigestMismatch]);
    assert!(check.failures[0].message.contains("a FIFO"));
}
