//! Decision notes, the effective contract and the reconciliation a plan owes (board-spec-v22
//! §3–§4). The digests were computed by the reference's own code on the same notes.

use aw_core::documents::contract::{Baseline, COMPOSITION, compose, reconciliation};
use aw_core::documents::decisions::{
    Note, read_content, read_index, sealed, spec_criteria, validate,
};
use aw_core::markdown::scan;
use serde_json::{Value, json};

const SPEC_DIGEST: &str = "sha256:873db332f60bc84aa718beee8c5d26fc2d8bccb0cd78fa575dccf57eb56dc4be";

fn raw_note() -> Value {
    json!({
        "schema": "workline.decision-note/v1", "id": "DEC-001",
        "lineage": {
            "spec": {"path": "docs/specs/001-spec-login.md", "number": "001", "digest": SPEC_DIGEST},
            "plan": {"path": "docs/plans/001-plan-login.md", "number": "001",
                     "digest": format!("sha256:{}", "1".repeat(64))},
            "execution": {"session": "001-x", "phase": "F1"}
        },
        "decision": "use SSO", "reason": "policy ñ", "supersedes_assertions": ["S001/AC-01"],
        "supersedes_note": null, "scope": "functional", "consumers": [],
        "evidence_preserved": ["F1/T1.1 as history"], "evidence_invalidated": ["F1/T1.1 as proof"],
        "obligations": ["revalidate F1 against SSO"], "resume_point": "F1/T1.1", "date": "2026-08-16"
    })
}

fn with(mut v: Value, key: &str, value: Value) -> Value {
    v[key] = value;
    v
}

/// A note with its content sealed, checked back through `validate`.
fn sealed_note(v: Value) -> Note {
    let content = read_content(&v).unwrap();
    validate(&with(v, "digest", json!(content.computed_digest()))).unwrap()
}

#[test]
fn a_note_seals_as_the_reference_seals_it() {
    const REFERENCE: &str =
        "sha256:b8f41e7d0f09deef79dd8b6ab9dc9614ff32b929922f55c34417bdc5e9ddb669";
    // Keys the note does not define are ignored, by the check and by the seal.
    let note = validate(&with(
        with(raw_note(), "digest", json!(REFERENCE)),
        "extra",
        json!(1),
    ));
    let note = note.unwrap();
    assert_eq!(note.computed_digest(), REFERENCE);
    assert_eq!(sealed(&note)["digest"], REFERENCE);
    let codes = |v: &Value| {
        validate(v)
            .unwrap_err()
            .iter()
            .map(|r| r.code)
            .collect::<Vec<_>>()
    };
    assert_eq!(codes(&raw_note()), ["NOTE_DIGEST_MISSING"]);
    assert_eq!(
        codes(&with(raw_note(), "digest", json!(SPEC_DIGEST))),
        ["NOTE_DIGEST_MISMATCH"]
    );
}

#[test]
fn every_missing_field_has_its_own_code_in_the_reference_order() {
    let bad = json!({"schema": "workline.decision-note/v1", "id": "DEC-01",
        "lineage": {"spec": 1, "plan": {"path": "a", "number": "1", "digest": "x"}},
        "supersedes_assertions": ["S1/AC-1"], "supersedes_note": "x", "scope": "y",
        "consumers": [""], "date": "2026-1-1"});
    let codes: Vec<_> = validate(&bad).unwrap_err().iter().map(|r| r.code).collect();
    assert_eq!(
        codes,
        [
            "NOTE_ID_INVALID",
            "NOTE_LINEAGE_MISSING",
            "NOTE_LINEAGE_DIGEST_INVALID",
            "NOTE_EXECUTION_STATE_MISSING",
            "NOTE_DECISION_MISSING",
            "NOTE_REASON_MISSING",
            "NOTE_ASSERTIONS_INVALID",
            "NOTE_SUPERSEDES_INVALID",
            "NOTE_SCOPE_INVALID",
            "NOTE_CONSUMERS_MISSING",
            "NOTE_EVIDENCE_PRESERVED_MISSING",
            "NOTE_EVIDENCE_INVALIDATED_MISSING",
            "NOTE_OBLIGATIONS_MISSING",
            "NOTE_RESUME_POINT_MISSING",
            "NOTE_DATE_INVALID",
        ]
    );
    // The schema is checked first and alone.
    let other = with(raw_note(), "schema", json!("workline.decision-note/v2"));
    let r = validate(&with(other, "id", json!("nope"))).unwrap_err();
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].code, "NOTE_SCHEMA_UNKNOWN");
    let dup = with(
        raw_note(),
        "supersedes_assertions",
        json!(["S001/AC-01", "S001/AC-01"]),
    );
    assert_eq!(
        validate(&dup).unwrap_err()[0].code,
        "NOTE_ASSERTIONS_DUPLICATE"
    );
    for id in ["DEC-1000", "DEC-000"] {
        let ok = with(raw_note(), "id", json!(id));
        assert_ne!(
            validate(&ok).unwrap_err()[0].code,
            "NOTE_ID_INVALID",
            "{id}"
        );
    }
    let leading_zero = with(raw_note(), "id", json!("DEC-0001"));
    assert_eq!(
        validate(&leading_zero).unwrap_err()[0].code,
        "NOTE_ID_INVALID"
    );
}

#[test]
fn an_index_reads_whole_or_not_at_all() {
    let note = sealed(&sealed_note(raw_note()));
    let index = |notes: Value| {
        json!({"schema": "workline.decision-index/v1",
        "spec": {"path": "docs/specs/001-spec-login.md", "number": "001"}, "notes": notes})
    };
    assert_eq!(read_index(&index(json!([note.clone()]))).unwrap().len(), 1);
    let code = |v: Value| read_index(&v).unwrap_err()[0].code;
    assert_eq!(code(json!([])), "NOTE_INDEX_INVALID");
    assert_eq!(
        code(with(index(json!([])), "schema", json!("x"))),
        "NOTE_INDEX_SCHEMA_UNKNOWN"
    );
    assert_eq!(
        code(with(index(json!([])), "notes", json!({}))),
        "NOTE_INDEX_INVALID"
    );
    let one_bad = read_index(&index(json!([note, {"schema": "x"}]))).unwrap_err();
    assert_eq!(one_bad[0].code, "NOTE_SCHEMA_UNKNOWN");
    assert!(one_bad[0].message.starts_with("notes[1] "));
}

#[test]
fn a_chain_no_append_could_produce_does_not_read() {
    let index = |notes: Vec<Value>| {
        json!({"schema": "workline.decision-index/v1",
        "spec": {"path": "docs/specs/001-spec-login.md", "number": "001"}, "notes": notes})
    };
    let note = |id: &str, supersedes: Value| {
        let v = with(
            with(raw_note(), "id", json!(id)),
            "supersedes_note",
            supersedes,
        );
        sealed(&sealed_note(v))
    };
    let codes = |notes: Vec<Value>| -> Vec<&'static str> {
        read_index(&index(notes))
            .map(|_| Vec::new())
            .unwrap_or_else(|r| r.iter().map(|r| r.code).collect())
    };
    // A settled obligation: DEC-002 supersedes DEC-001, which the chain holds.
    assert!(
        codes(vec![
            note("DEC-001", Value::Null),
            note("DEC-002", json!("DEC-001"))
        ])
        .is_empty()
    );
    assert_eq!(
        codes(vec![
            note("DEC-001", Value::Null),
            note("DEC-001", Value::Null)
        ]),
        ["NOTE_ALREADY_PUBLISHED"]
    );
    assert_eq!(
        codes(vec![note("DEC-001", json!("DEC-001"))]),
        ["NOTE_SUPERSEDES_ABSENT"]
    );
    assert_eq!(
        codes(vec![note("DEC-002", json!("DEC-009"))]),
        ["NOTE_SUPERSEDES_ABSENT"]
    );
    assert_eq!(
        codes(vec![
            note("DEC-001", json!("DEC-002")),
            note("DEC-002", json!("DEC-001"))
        ]),
        ["NOTE_SUPERSEDES_ABSENT", "NOTE_SUPERSEDES_ABSENT"]
    );
}

fn criteria() -> Vec<String> {
    let spec = "# Spec\n\n- S001/AC-01 login\n- S001/AC-02 logout, again S001/AC-01\n```\nS001/AC-09\n```\n";
    spec_criteria(&scan(spec))
}

fn baseline(criteria: &[String]) -> Baseline<'_> {
    Baseline {
        path: "docs/specs/001-spec-login.md",
        number: "001",
        digest: SPEC_DIGEST,
        criteria,
    }
}

#[test]
fn the_worked_example_composes_and_owes_its_obligation() {
    let c = criteria();
    assert_eq!(c, ["S001/AC-01", "S001/AC-02"]);
    let chain = vec![sealed_note(raw_note())];
    let composed = compose(&baseline(&c), &chain);
    let contract = composed.as_ref().unwrap();
    assert_eq!(
        serde_json::to_value(contract).unwrap(),
        json!({"spec": {"path": "docs/specs/001-spec-login.md", "number": "001", "digest": SPEC_DIGEST},
               "assertions": [{"id": "S001/AC-01", "state": "amended", "by": "DEC-001"},
                              {"id": "S001/AC-02", "state": "baseline", "by": null}],
               "obligations": [{"text": "revalidate F1 against SSO", "by": "DEC-001"}],
               "evidence_preserved": ["F1/T1.1 as history"],
               "evidence_invalidated": ["F1/T1.1 as proof"], "applied": ["DEC-001"]})
    );
    let r = reconciliation(&composed, &chain);
    assert_eq!(
        serde_json::to_value(&r).unwrap(),
        json!({"pending": [{"text": "revalidate F1 against SSO", "by": "DEC-001",
                            "resume_point": "F1/T1.1"}],
               "resume_point": "F1/T1.1", "closable": false})
    );
    // No notes: the spec's own contract, nothing owed.
    let empty = compose(&baseline(&c), &[]);
    let r = reconciliation(&empty, &[]);
    assert!(r.closable && r.pending.is_empty() && r.resume_point.is_none());
}

#[test]
fn an_obligation_is_settled_by_a_note_that_supersedes_its_owner() {
    let c = criteria();
    let first = sealed_note(raw_note());
    let second = sealed_note(with(
        with(
            with(raw_note(), "id", json!("DEC-002")),
            "supersedes_note",
            json!("DEC-001"),
        ),
        "obligations",
        json!([]),
    ));
    let chain = vec![first, second];
    let composed = compose(&baseline(&c), &chain);
    let contract = composed.as_ref().unwrap();
    assert_eq!(contract.applied, ["DEC-002"]);
    assert_eq!(contract.assertions[0].by.as_deref(), Some("DEC-002"));
    assert!(reconciliation(&composed, &chain).closable);
}

#[test]
fn a_chain_that_does_not_compose_blocks_with_one_entry_per_reason() {
    let c = criteria();
    // Two notes in force on the same criterion, neither superseding the other; the second also
    // keeps and drops the same evidence and decides on another spec version.
    let second = with(
        with(
            with(raw_note(), "id", json!("DEC-002")),
            "evidence_preserved",
            json!(["F1/T1.1 as proof"]),
        ),
        "lineage",
        {
            let mut l = raw_note()["lineage"].clone();
            l["spec"]["digest"] = json!(format!("sha256:{}", "2".repeat(64)));
            l
        },
    );
    let chain = vec![sealed_note(raw_note()), sealed_note(second)];
    let composed = compose(&baseline(&c), &chain);
    let codes: Vec<_> = composed
        .as_ref()
        .unwrap_err()
        .iter()
        .map(|b| b.code)
        .collect();
    assert_eq!(
        codes,
        [
            "CONTRACT_BASELINE_ABSENT",
            "CONTRACT_OVERLAP",
            "CONTRACT_CONTRADICTION",
            "CONTRACT_CONTRADICTION"
        ]
    );
    let r = reconciliation(&composed, &chain);
    assert!(!r.closable);
    assert_eq!(r.pending.len(), 4);
    assert!(r.pending.iter().all(|p| p.by == COMPOSITION));
    assert!(r.pending[0].text.starts_with("CONTRACT_BASELINE_ABSENT: "));
    let absent = with(raw_note(), "supersedes_assertions", json!(["S001/AC-07"]));
    let blocked = compose(&baseline(&c), &[sealed_note(absent)]).unwrap_err();
    assert_eq!(blocked[0].code, "CONTRACT_ASSERTION_ABSENT");
}
