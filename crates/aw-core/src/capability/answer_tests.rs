use super::*;
use serde_json::json;

const DIGEST: &str = "11d6c64888e813457261ca1da43b4c29116f91f1a31f15db8b17262f98e32a7b";

fn request() -> SemanticRequest {
    SemanticRequest::new(
        "design.create".into(),
        DIGEST.into(),
        vec!["docs/designs".into()],
        "Author the first revision.".into(),
    )
}

fn answer(artifacts: Value) -> Value {
    json!({
        "version": 1, "operation": "design.create", "input_digest": DIGEST,
        "state": "proposed", "artifacts": artifacts,
    })
}

fn code(a: &Value) -> ErrorCode {
    parse(Some(a), &request()).unwrap_err().code
}

#[test]
fn an_absent_null_or_blank_answer_is_missing_not_refused() {
    for a in [None, Some(&Value::Null), Some(&json!("  \n"))] {
        assert_eq!(parse(a, &request()).unwrap(), Parsed::Missing);
    }
}

#[test]
fn a_proposal_becomes_the_artifacts_verbatim_in_order_with_trimmed_paths() {
    let a = answer(json!([
        {"path": " docs/designs/001-design-a/notes.md ", "content": "hola\n"},
        {"path": "docs/designs/001-design-a/b.md", "content": ""},
    ]));
    let Parsed::Proposed(arts) = parse(Some(&a), &request()).unwrap() else {
        panic!("expected a proposal");
    };
    assert_eq!(arts.len(), 2);
    assert_eq!(arts[0].path, "docs/designs/001-design-a/notes.md");
    assert_eq!(arts[0].content, "hola\n");
    assert_eq!(arts[0].overwrite, None);
    assert_eq!(arts[1].path, "docs/designs/001-design-a/b.md");
}

#[test]
fn the_envelope_is_checked_in_order() {
    let ok = json!([{"path": "docs/designs/x.md", "content": "x"}]);
    assert_eq!(code(&json!([1])), ErrorCode::SemanticResponseInvalid);
    let mut a = answer(ok.clone());
    a["version"] = json!(2);
    a["input_digest"] = json!("0");
    assert_eq!(
        code(&a),
        ErrorCode::SemanticResponseInvalid,
        "version before digest"
    );
    let mut a = answer(ok.clone());
    a["version"] = json!(1.0);
    assert!(parse(Some(&a), &request()).is_ok(), "1.0 is the number 1");
    let mut a = answer(ok.clone());
    a["operation"] = json!("design.update");
    assert_eq!(code(&a), ErrorCode::SemanticResponseInvalid);
    let mut a = answer(ok.clone());
    a["input_digest"] = json!("abc");
    a["state"] = json!("nonsense");
    assert_eq!(code(&a), ErrorCode::SemanticStale, "digest before state");
    let mut a = answer(ok.clone());
    a["state"] = json!("nonsense");
    assert_eq!(code(&a), ErrorCode::SemanticResponseInvalid);
}

#[test]
fn a_stale_answer_names_both_digests_and_the_one_to_quote() {
    let mut a = answer(json!([{"path": "docs/designs/x.md", "content": "x"}]));
    a["input_digest"] = json!("abc");
    let e = parse(Some(&a), &request()).unwrap_err();
    assert!(e.message.contains("'abc'") && e.message.contains(DIGEST));
    assert!(e.action.contains(DIGEST));
}

#[test]
fn ambiguous_and_unsupported_carry_the_agents_reason() {
    let mut a = answer(json!([]));
    a["state"] = json!("ambiguous");
    a["reason"] = json!("two screens share a name");
    let e = parse(Some(&a), &request()).unwrap_err();
    assert_eq!(e.code, ErrorCode::SemanticAmbiguous);
    assert_eq!(e.message, "two screens share a name");
    a["state"] = json!("unsupported");
    assert_eq!(code(&a), ErrorCode::SemanticUnsupported);
}

#[test]
fn artifacts_are_refused_when_empty_too_many_malformed_repeated_or_too_big() {
    assert_eq!(code(&answer(json!([]))), ErrorCode::SemanticResponseInvalid);
    assert_eq!(
        code(&answer(json!("x"))),
        ErrorCode::SemanticResponseInvalid
    );
    let many: Vec<Value> = (0..=MAX_ARTIFACTS)
        .map(|i| json!({"path": format!("docs/designs/{i}.md"), "content": ""}))
        .collect();
    assert_eq!(
        code(&answer(json!(many))),
        ErrorCode::SemanticResponseInvalid
    );
    let exactly: Vec<Value> = many[..MAX_ARTIFACTS].to_vec();
    assert!(parse(Some(&answer(json!(exactly))), &request()).is_ok());
    assert_eq!(
        code(&answer(json!([{"path": "docs/designs/x.md"}]))),
        ErrorCode::SemanticResponseInvalid
    );
    assert_eq!(
        code(&answer(
            json!([{"path": "docs/designs/x.md", "content": 3}])
        )),
        ErrorCode::SemanticResponseInvalid
    );
    assert_eq!(
        code(&answer(json!([
            {"path": "docs/designs/x.md", "content": "a"},
            {"path": " docs/designs/x.md", "content": "b"},
        ]))),
        ErrorCode::SemanticResponseInvalid
    );
    let big = "é".repeat(MAX_ARTIFACT_BYTES / 2 + 1);
    assert_eq!(
        code(&answer(
            json!([{"path": "docs/designs/x.md", "content": big}])
        )),
        ErrorCode::SemanticResponseInvalid,
        "the limit counts UTF-8 bytes, not characters"
    );
}

#[test]
fn paths_must_be_safe_and_inside_a_destination_segment_by_segment() {
    for bad in [
        "../x.md",
        "/etc/passwd",
        "docs/designs/../../x",
        "docs/designs-evil/x.md",
        "docs/other.md",
        "docs\\designs\\x.md",
    ] {
        let a = answer(json!([{"path": bad, "content": "x"}]));
        assert_eq!(code(&a), ErrorCode::SemanticPathRejected, "{bad}");
    }
    let a = answer(json!([{"path": "docs/designs", "content": "x"}]));
    assert!(
        parse(Some(&a), &request()).is_ok(),
        "the destination itself"
    );
}

#[test]
fn the_skeleton_is_itself_a_valid_answer_once_filled() {
    let r = request();
    let mut s = r.skeleton();
    assert_eq!(s["input_digest"], json!(DIGEST));
    s["artifacts"][0]["path"] = json!("docs/designs/a.md");
    assert!(matches!(parse(Some(&s), &r), Ok(Parsed::Proposed(_))));
}
