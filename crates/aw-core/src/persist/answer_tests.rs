use super::*;
use crate::persist::inventory::{Entry, build};

fn inventory(kinds: &[DocKind]) -> Inventory {
    build(
        &[(
            DocKind::Spec,
            vec![Entry {
                name: "001-spec-login.md".into(),
                text: Some("# Login\n".into()),
            }],
        )],
        kinds,
    )
}

fn answer(req: &SemanticRequest, items: Value) -> Value {
    json!({"version": 1, "operation": "persist", "input_digest": req.input_digest, "state": "proposed", "items": items})
}

fn item(kind: &str, slug: &str, title: &str) -> Value {
    json!({"kind": kind, "slug": slug, "title": title, "content": format!("# {title}\n\nBody.\n")})
}

fn code(r: CapabilityResult<Vec<Item>>) -> ErrorCode {
    r.unwrap_err().code
}

#[test]
fn the_request_names_the_inventory_digest_folders_and_contract() {
    let inv = inventory(&[DocKind::Spec, DocKind::Plan]);
    let req = request(&inv);
    assert_eq!(req.operation, "persist");
    assert_eq!(req.input_digest, inv.digest());
    assert_eq!(req.allowed_destinations, ["docs/specs", "docs/plans"]);
    assert!(req.contract.contains("spec or plan"));
    let skel = skeleton(&req, &inv.doc_kinds());
    assert_eq!(skel["input_digest"], json!(inv.digest()));
    assert_eq!(skel["items"][0]["kind"], json!("spec"));
}

#[test]
fn a_well_formed_answer_reads_into_items() {
    let kinds = DocKind::ALL;
    let req = request(&inventory(&kinds));
    let items = parse(
        &answer(
            &req,
            json!([
                item("spec", "otp-login", " OTP login "),
                item("plan", "otp-login", "OTP login plan")
            ]),
        ),
        &req,
        &kinds,
    )
    .unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(
        (items[0].kind, items[0].title.as_str()),
        (DocKind::Spec, "OTP login")
    );
    assert_eq!(items[1].kind, DocKind::Plan);
}

#[test]
fn the_envelope_is_checked_first() {
    let kinds = DocKind::ALL;
    let req = request(&inventory(&kinds));
    let ok = answer(&req, json!([item("spec", "a", "A")]));
    let with = |k: &str, v: Value| {
        let mut a = ok.clone();
        a[k] = v;
        a
    };
    assert_eq!(
        code(parse(&json!([]), &req, &kinds)),
        ErrorCode::SemanticResponseInvalid
    );
    assert_eq!(
        code(parse(&with("version", json!(2)), &req, &kinds)),
        ErrorCode::SemanticResponseInvalid
    );
    assert!(parse(&with("version", json!(1.0)), &req, &kinds).is_ok());
    assert_eq!(
        code(parse(
            &with("operation", json!("design.create")),
            &req,
            &kinds
        )),
        ErrorCode::SemanticResponseInvalid
    );
    assert_eq!(
        code(parse(
            &with("input_digest", json!("0".repeat(64))),
            &req,
            &kinds
        )),
        ErrorCode::SemanticStale
    );
    assert_eq!(
        code(parse(&with("state", json!("ambiguous")), &req, &kinds)),
        ErrorCode::SemanticAmbiguous
    );
    assert_eq!(
        code(parse(&with("state", json!("unsupported")), &req, &kinds)),
        ErrorCode::SemanticUnsupported
    );
    assert_eq!(
        code(parse(&with("state", json!("done")), &req, &kinds)),
        ErrorCode::SemanticResponseInvalid
    );
    assert_eq!(
        code(parse(&with("items", json!([])), &req, &kinds)),
        ErrorCode::SemanticResponseInvalid
    );
}

#[test]
fn each_item_is_held_to_the_contract() {
    let kinds = [DocKind::Spec];
    let req = request(&inventory(&kinds));
    let refused = |it: Value| code(parse(&answer(&req, json!([it])), &req, &kinds));
    // A kind the request does not cover.
    assert_eq!(
        refused(item("plan", "a", "A")),
        ErrorCode::SemanticResponseInvalid
    );
    assert_eq!(
        refused(item("design", "a", "A")),
        ErrorCode::SemanticResponseInvalid
    );
    for slug in [
        "",
        "A",
        "a--b",
        "-a",
        "a-",
        "a_b",
        "a/b",
        "../x",
        "ñ",
        &"a".repeat(81),
    ] {
        assert_eq!(
            refused(item("spec", slug, "A")),
            ErrorCode::SemanticResponseInvalid,
            "{slug:?}"
        );
    }
    assert_eq!(
        refused(item("spec", "a", "  ")),
        ErrorCode::SemanticResponseInvalid
    );
    assert_eq!(
        refused(item("spec", "a", "two\nlines")),
        ErrorCode::SemanticResponseInvalid
    );
    assert_eq!(
        refused(json!({"kind": "spec", "slug": "a", "title": "A", "content": "# B\n"})),
        ErrorCode::SemanticResponseInvalid
    );
    assert_eq!(
        refused(json!({"kind": "spec", "slug": "a", "title": "A", "content": " \n"})),
        ErrorCode::SemanticResponseInvalid
    );
    assert_eq!(
        refused(json!({"kind": "spec", "slug": "a"})),
        ErrorCode::SemanticResponseInvalid
    );
    let big = format!("# A\n{}", "x".repeat(req.limits.max_artifact_bytes));
    assert_eq!(
        refused(json!({"kind": "spec", "slug": "a", "title": "A", "content": big})),
        ErrorCode::SemanticResponseInvalid
    );
    let many: Vec<Value> = (0..=req.limits.max_artifacts)
        .map(|i| item("spec", &format!("s{i}"), &format!("T{i}")))
        .collect();
    assert_eq!(
        code(parse(&answer(&req, json!(many)), &req, &kinds)),
        ErrorCode::SemanticResponseInvalid
    );
}

#[test]
fn slugs_read_back_through_the_docs_grammar() {
    for slug in ["a", "login-otp", "v2-cache-2024"] {
        assert!(is_valid_slug(slug));
        let file = DocKind::Spec.file_name("001", slug);
        assert_eq!(
            crate::documents::names::parse_name(DocKind::Spec, &file)
                .unwrap()
                .slug,
            slug
        );
    }
}

/// The reference's answer: `decisions` and one artifact.
fn reference_answer(req: &SemanticRequest, decisions: Value, artifacts: Value) -> Value {
    json!({"version": 1, "operation": "persist", "input_digest": req.input_digest,
           "state": "proposed", "decisions": decisions, "artifacts": artifacts})
}

#[test]
fn the_reference_answer_reads_into_one_item_numbered_by_aw() {
    let kinds = DocKind::ALL;
    let req = request(&inventory(&kinds));
    let a = reference_answer(
        &req,
        json!({"category": "spec", "slug": "otp-login", "mode": "new"}),
        json!([{"path": "docs/specs/007-spec-otp-login.md", "content": "# OTP login\n\nBody.\n"}]),
    );
    let items = parse(&a, &req, &kinds).unwrap();
    assert_eq!(
        items,
        [Item {
            kind: DocKind::Spec,
            slug: "otp-login".into(),
            title: "OTP login".into(),
            content: "# OTP login\n\nBody.\n".into(),
        }]
    );
    // Without a `# ` heading the slug stands for the title.
    let a = reference_answer(
        &req,
        json!({"category": "research", "slug": "vendors", "mode": "new"}),
        json!([{"path": "docs/research/001-research-vendors.md", "content": "Notes.\n"}]),
    );
    assert_eq!(parse(&a, &req, &kinds).unwrap()[0].title, "vendors");
}

#[test]
fn the_reference_answer_is_held_to_its_own_rules() {
    let kinds = DocKind::ALL;
    let req = request(&inventory(&kinds));
    let doc = json!([{"path": "docs/specs/002-spec-otp.md", "content": "# OTP\n"}]);
    let spec = |mode: &str| json!({"category": "spec", "slug": "otp", "mode": mode});
    for (decisions, artifacts, why) in [
        (spec("update"), doc.clone(), "only adds documents"),
        (spec("merge"), doc.clone(), "is not 'new'"),
        (
            json!({"category": "memo", "slug": "otp", "mode": "new"}),
            doc.clone(),
            "'memo'",
        ),
        (
            json!({"category": "spec", "slug": "OTP", "mode": "new"}),
            doc.clone(),
            "decisions.slug",
        ),
        (spec("new"), json!([]), "exactly one"),
        (
            spec("new"),
            json!([{"path": "docs/specs/002-spec-otp.md", "content": "# OTP\n"}, {"path": "docs/specs/003-spec-otp.md", "content": "# OTP\n"}]),
            "exactly one",
        ),
        (
            spec("new"),
            json!([{"path": "docs/plans/002-plan-otp.md", "content": "# OTP\n"}]),
            "is not docs/specs/NNN-spec-otp.md",
        ),
        (
            spec("new"),
            json!([{"path": "docs/specs/002-spec-other.md", "content": "# OTP\n"}]),
            "is not docs/specs/NNN-spec-otp.md",
        ),
        (
            spec("new"),
            json!([{"path": "docs/specs/002-spec-otp.md", "content": "  \n"}]),
            "no content",
        ),
        // The reference's file-name grammar is case-sensitive.
        (
            spec("new"),
            json!([{"path": "docs/specs/007-SPEC-otp.md", "content": "# OTP\n"}]),
            "is not docs/specs/NNN-spec-otp.md",
        ),
        (
            spec("new"),
            json!([{"path": "docs/specs/007-spec-otp.MD", "content": "# OTP\n"}]),
            "is not docs/specs/NNN-spec-otp.md",
        ),
    ] {
        let e = parse(&reference_answer(&req, decisions, artifacts), &req, &kinds).unwrap_err();
        assert_eq!(e.code, ErrorCode::SemanticResponseInvalid, "{why}");
        assert!(e.message.contains(why), "{why}: {}", e.message);
    }
    // Its kind must be one the request covers.
    let only_plans = [DocKind::Plan];
    let req = request(&inventory(&only_plans));
    let a = reference_answer(&req, spec("new"), doc);
    assert_eq!(
        code(parse(&a, &req, &only_plans)),
        ErrorCode::SemanticResponseInvalid
    );
}
