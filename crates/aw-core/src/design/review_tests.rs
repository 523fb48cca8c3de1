use super::*;
use serde_json::json;

const D1: &str = "sha256:1111111111111111111111111111111111111111111111111111111111111111";
const D2: &str = "sha256:2222222222222222222222222222222222222222222222222222222222222222";
const AT: &str = "2026-01-31T09:30:00Z";

fn review(revision: u64, digest: &str, decision: Decision, at: &str) -> Review {
    Review {
        schema: REVIEW_SCHEMA.to_owned(),
        id: "DES-001".to_owned(),
        revision,
        digest: digest.to_owned(),
        decision,
        note: None,
        recorded_at: at.to_owned(),
    }
}

fn invalid_message(value: Value, path: &str) -> String {
    let bytes = serde_json::to_vec(&value).unwrap_or_default();
    match parse_review(&bytes, path) {
        Ok(r) => panic!("accepted {r:?}"),
        Err(f) => {
            assert_eq!(f.code, ErrorCode::DesignReviewInvalid, "{f:?}");
            assert_eq!(f.artifact, path);
            f.message
        }
    }
}

fn good() -> Value {
    json!({
        "schema": REVIEW_SCHEMA, "id": "DES-001", "revision": 2, "digest": D1,
        "decision": "approved", "note": null, "recorded_at": AT
    })
}

#[test]
fn decisions_have_their_wire_spellings() {
    let spelled: Vec<&str> = DECISIONS.iter().map(|d| d.as_str()).collect();
    assert_eq!(spelled, ["approved", "rejected", "changes-requested"]);
    for d in DECISIONS {
        assert_eq!(serde_json::to_value(d).ok(), Some(json!(d.as_str())));
        assert_eq!(Decision::parse(d.as_str()), Some(d));
    }
    assert_eq!(Decision::parse("Approved"), None);
    assert_eq!(Decision::parse("changes_requested"), None);
}

#[test]
fn review_paths_pad_to_three_digits() {
    assert_eq!(review_path(1), "reviews/r001.json");
    assert_eq!(review_path(42), "reviews/r042.json");
    assert_eq!(review_path(1234), "reviews/r1234.json");
}

#[test]
fn review_json_is_pretty_in_key_order_with_a_newline() {
    let text = review_json(
        "DES-001",
        2,
        D1,
        Decision::ChangesRequested,
        Some("tighten validation"),
        AT,
    );
    let expected = format!(
        "{{\n  \"schema\": \"workline.design-review/v1\",\n  \"id\": \"DES-001\",\n  \"revision\": 2,\n  \"digest\": \"{D1}\",\n  \"decision\": \"changes-requested\",\n  \"note\": \"tighten validation\",\n  \"recorded_at\": \"{AT}\"\n}}\n"
    );
    assert_eq!(text, expected);
    let null_note = review_json("DES-001", 2, D1, Decision::Approved, None, AT);
    assert!(null_note.contains("\"note\": null,"), "{null_note}");
}

#[test]
fn a_written_review_reads_back() {
    let text = review_json("DES-007", 3, D2, Decision::Rejected, Some("no"), AT);
    let parsed = parse_review(
        text.as_bytes(),
        "docs/designs/007-design-x/reviews/r003.json",
    );
    assert_eq!(
        parsed,
        Ok(Review {
            note: Some("no".to_owned()),
            id: "DES-007".to_owned(),
            ..review(3, D2, Decision::Rejected, AT)
        })
    );
}

#[test]
fn bytes_that_are_not_utf8_json_are_unreadable() {
    for bytes in [&b"\xff\xfe"[..], b"{not json", b""] {
        let failure = parse_review(bytes, "reviews/r001.json").err();
        assert_eq!(
            failure.map(|f| f.code),
            Some(ErrorCode::DesignReviewUnreadable),
            "{bytes:?}"
        );
    }
}

#[test]
fn a_non_object_is_invalid() {
    let message = invalid_message(json!([1]), "reviews/r001.json");
    assert!(message.contains("not a JSON object"), "{message}");
}

#[test]
fn unknown_and_missing_keys_are_refused() {
    let mut extra = good();
    extra["approver"] = json!("someone");
    let message = invalid_message(extra, "reviews/r002.json");
    assert!(message.contains("approver"), "{message}");

    let mut missing = good();
    if let Some(obj) = missing.as_object_mut() {
        obj.remove("note");
    }
    let message = invalid_message(missing, "reviews/r002.json");
    assert!(message.contains("lacks the keys: note"), "{message}");
}

#[test]
fn each_broken_field_is_named() {
    let cases = [
        ("schema", json!("workline.design-review/v2"), "'schema'"),
        ("id", json!("DES-1"), "'id'"),
        ("revision", json!(0), "'revision'"),
        ("revision", json!(1.5), "'revision'"),
        ("revision", json!("2"), "'revision'"),
        ("digest", json!("sha256:ABC"), "'digest'"),
        (
            "digest",
            json!(D1.trim_start_matches("sha256:")),
            "'digest'",
        ),
        ("decision", json!("approve"), "'decision'"),
        ("note", json!(3), "'note'"),
        (
            "recorded_at",
            json!("2026-01-31T09:30:00+02:00"),
            "'recorded_at'",
        ),
        ("recorded_at", json!("2026-01-31 09:30"), "'recorded_at'"),
    ];
    for (key, value, named) in cases {
        let mut v = good();
        v[key] = value.clone();
        let message = invalid_message(v, "reviews/r002.json");
        assert!(message.contains(named), "{key}={value}: {message}");
    }
}

#[test]
fn every_broken_rule_is_reported_at_once() {
    let mut v = good();
    v["decision"] = json!("maybe");
    v["note"] = json!(false);
    let message = invalid_message(v, "reviews/r002.json");
    assert!(
        message.contains("'decision'") && message.contains("'note'"),
        "{message}"
    );
    assert!(
        message.contains("approved, rejected, changes-requested"),
        "{message}"
    );
}

#[test]
fn the_revision_must_be_the_one_the_file_name_claims() {
    let message = invalid_message(good(), "docs/designs/001-design-x/reviews/r003.json");
    assert!(message.contains("revision 3"), "{message}");
    // A name without that shape claims nothing.
    let bytes = serde_json::to_vec(&good()).unwrap_or_default();
    assert!(parse_review(&bytes, "elsewhere/review.json").is_ok());
    assert!(parse_review(&bytes, "reviews/r2.json").is_ok());
}

#[test]
fn approval_needs_the_exact_revision_and_digest() {
    let reviews = [review(2, D1, Decision::Approved, AT)];
    assert!(is_approved(&reviews, 2, D1));
    assert!(!is_approved(&reviews, 2, D2), "other bytes, same number");
    assert!(!is_approved(&reviews, 1, D1), "another revision");
    assert!(!is_approved(&[], 2, D1), "no review");
}

#[test]
fn the_latest_review_decides() {
    let approved_then_rejected = [
        review(2, D1, Decision::Approved, "2026-01-31T09:30:00Z"),
        review(2, D1, Decision::Rejected, "2026-02-01T09:30:00Z"),
    ];
    assert!(!is_approved(&approved_then_rejected, 2, D1));
    // Order in the list does not matter, the timestamps do.
    let listed_backwards = [
        review(2, D1, Decision::Approved, "2026-02-02T00:00:00Z"),
        review(
            2,
            D1,
            Decision::ChangesRequested,
            "2026-02-01T23:59:59.999Z",
        ),
    ];
    assert!(is_approved(&listed_backwards, 2, D1));
    // A later decision on other bytes does not overturn this one.
    let other_bytes_later = [
        review(2, D1, Decision::Approved, "2026-01-31T09:30:00Z"),
        review(2, D2, Decision::Rejected, "2026-03-01T00:00:00Z"),
    ];
    assert!(is_approved(&other_bytes_later, 2, D1));
    // At the same instant, the later entry wins.
    let tie = [
        review(2, D1, Decision::Approved, AT),
        review(2, D1, Decision::Rejected, AT),
    ];
    assert!(!is_approved(&tie, 2, D1));
}

#[test]
fn the_decision_input_is_one_of_three() {
    assert_eq!(
        decision_input(Some(&json!("approved"))),
        Ok(Decision::Approved)
    );
    assert_eq!(
        decision_input(Some(&json!(" changes-requested "))),
        Ok(Decision::ChangesRequested)
    );
    for bad in [
        None,
        Some(json!("APPROVED")),
        Some(json!("lgtm")),
        Some(json!(true)),
        Some(json!("")),
    ] {
        let Err(f) = decision_input(bad.as_ref()) else {
            panic!("accepted {bad:?}");
        };
        assert_eq!(f.code, ErrorCode::DesignDecisionInvalid);
        assert_eq!(
            f.action,
            "pass 'decision' as one of: approved, rejected, changes-requested"
        );
    }
}
