//! Unit tests of `plan`: the plan's keys, the pinned approval digest, and each apply-side check
//! with its tamper cases.

use super::*;
use crate::capability::builtin::design_descriptor;
use crate::capability::effects::{HostPolicy, Reach, authorize_effects};
use crate::capability::test_support::{ID, direct, invocation};
const INPUT_DIGEST: &str = "11d6c64888e813457261ca1da43b4c29116f91f1a31f15db8b17262f98e32a7b";

/// Pinned once; cross-checked with Python's `json.dumps(sort_keys=True, separators=(",", ":"),
/// ensure_ascii=False)` + SHA-256 (the same canonical form for these ASCII keys).
const PINNED: &str = "788bac99420c379db60752f22da45aa285e8d1d34a2d3b3262441dcefa0d9b12";

fn request(operation: &str) -> CapabilityRequest {
    let inputs: &[(&str, &str)] = match operation {
        "create" => &[
            ("title", "Alta"),
            ("sources", "docs/req.md"),
            ("target", "docs/designs"),
        ],
        "update" => &[("package", "docs/designs/a"), ("base", "r1")],
        "render" => &[("package", "docs/designs/a"), ("profile", "web")],
        _ => &[("package", "docs/designs/a")],
    };
    let inv = invocation(operation, direct(), inputs);
    CapabilityRequest::first_attempt(&design_descriptor().unwrap(), ID.to_owned(), inv).unwrap()
}

fn auth(operation: &str) -> EffectAuthorization {
    let d = design_descriptor().unwrap();
    let op = d.operation(operation).unwrap();
    authorize_effects(&op.effects, Reach::default(), &HostPolicy::default(), &[])
}

fn art(path: &str, content: &str) -> Artifact {
    Artifact {
        path: path.to_owned(),
        content: content.to_owned(),
        overwrite: None,
    }
}

fn plan(operation: &str, artifacts: Vec<Artifact>) -> (CapabilityRequest, DurablePlan) {
    let r = request(operation);
    let p = prepare_durable_effect(&r, &auth(operation), artifacts, None).unwrap();
    (r, p)
}

fn allowed() -> Vec<String> {
    vec!["docs/designs".to_owned()]
}

fn code<T: std::fmt::Debug>(r: CapabilityResult<T>) -> ErrorCode {
    r.unwrap_err().code
}

#[test]
fn the_approval_digest_is_pinned() {
    let arts = [
        art("docs/designs/a.md", "abc"),
        Artifact {
            path: "docs/designs/b.md".to_owned(),
            content: "é\n".to_owned(),
            overwrite: Some(true),
        },
    ];
    assert_eq!(
        approval_digest("design", "create", INPUT_DIGEST, &arts),
        PINNED
    );
}

#[test]
fn the_approval_digest_is_the_reference_formula() {
    let arts = [art("docs/designs/a.md", "abc")];
    let expected = semantic_digest(&json!({
        "operation": "design.create",
        "input_digest": INPUT_DIGEST,
        "artifacts": [{"path": "docs/designs/a.md", "content_digest": semantic_digest(&json!("abc"))}],
    }));
    assert_eq!(
        approval_digest("design", "create", INPUT_DIGEST, &arts),
        expected
    );
}

#[test]
fn the_approval_digest_covers_path_content_order_operation_and_inputs_only() {
    let base = [
        art("docs/designs/a.md", "abc"),
        art("docs/designs/b.md", "x"),
    ];
    let d = approval_digest("design", "create", INPUT_DIGEST, &base);
    let mut other = base.clone();
    other[0].content = "abd".to_owned();
    assert_ne!(approval_digest("design", "create", INPUT_DIGEST, &other), d);
    let mut other = base.clone();
    other[0].path = "docs/designs/c.md".to_owned();
    assert_ne!(approval_digest("design", "create", INPUT_DIGEST, &other), d);
    let swapped = [base[1].clone(), base[0].clone()];
    assert_ne!(
        approval_digest("design", "create", INPUT_DIGEST, &swapped),
        d
    );
    assert_ne!(approval_digest("design", "update", INPUT_DIGEST, &base), d);
    assert_ne!(
        approval_digest("design", "create", &"0".repeat(64), &base),
        d
    );
    let mut other = base.clone();
    other[0].overwrite = Some(true);
    assert_eq!(approval_digest("design", "create", INPUT_DIGEST, &other), d);
}

#[test]
fn the_plan_has_its_keys_in_order_and_a_preview() {
    let (r, p) = plan("create", vec![art("docs/designs/a.md", "abc")]);
    let v = serde_json::to_value(&p).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "capability",
            "operation",
            "request_digest",
            "semantic_inputs_digest",
            "artifacts",
            "preview",
            "approval_digest",
            "requires_approval",
            "base"
        ]
    );
    assert_eq!(
        v["preview"],
        json!([{"path": "docs/designs/a.md", "bytes": 3, "overwrite": false}])
    );
    assert_eq!(
        v["artifacts"],
        json!([{"path": "docs/designs/a.md", "content": "abc"}])
    );
    assert_eq!(v["base"], Value::Null);
    assert_eq!(v["requires_approval"], json!([]));
    assert_eq!(p.request_digest, r.request_digest);
    assert_eq!(
        p.approval_digest,
        approval_digest("design", "create", &r.semantic_inputs_digest, &p.artifacts)
    );
    let back: DurablePlan = serde_json::from_value(v).unwrap();
    assert_eq!(back, p);
}

#[test]
fn the_preview_counts_utf8_bytes_and_overwrite_is_true_only_when_true() {
    let p = preview_of(&[
        Artifact {
            path: "a".to_owned(),
            content: "é".to_owned(),
            overwrite: Some(false),
        },
        Artifact {
            path: "b".to_owned(),
            content: String::new(),
            overwrite: Some(true),
        },
    ]);
    assert_eq!((p[0].bytes, p[0].overwrite), (2, false));
    assert_eq!((p[1].bytes, p[1].overwrite), (0, true));
}

#[test]
fn a_plan_with_network_external_requires_its_approval() {
    let (_, p) = plan("render", vec![art("docs/designs/r.md", "x")]);
    assert_eq!(p.requires_approval, [EffectClass::NetworkExternal]);
    assert_eq!(p.preview[0].path, "docs/designs/r.md");
}

#[test]
fn prepare_refuses_a_read_only_operation_a_denied_class_and_no_artifacts() {
    let r = request("validate");
    assert_eq!(
        code(prepare_durable_effect(
            &r,
            &auth("validate"),
            vec![art("a", "b")],
            None
        )),
        ErrorCode::CapabilityEffectNotDurable
    );
    let r = request("render");
    let d = design_descriptor().unwrap();
    let policy = HostPolicy {
        denied: vec![EffectClass::NetworkExternal],
        preflight: vec![],
    };
    let denied = authorize_effects(
        &d.operation("render").unwrap().effects,
        Reach::default(),
        &policy,
        &[],
    );
    assert_eq!(
        code(prepare_durable_effect(
            &r,
            &denied,
            vec![art("a", "b")],
            None
        )),
        ErrorCode::CapabilityEffectDenied
    );
    let r = request("create");
    assert_eq!(
        code(prepare_durable_effect(&r, &auth("create"), vec![], None)),
        ErrorCode::CapabilityEffectEmpty
    );
}

#[test]
fn an_untouched_plan_with_its_own_digest_passes_every_check() {
    let (r, p) = plan("create", vec![art("docs/designs/a.md", "abc")]);
    check_approval(&p, &r, &p.approval_digest).unwrap();
    check_destinations(&p, &allowed()).unwrap();
    check_granted(&p, &auth("create").needs_preflight, &[]).unwrap();
}

#[test]
fn an_edited_artifact_with_the_old_digest_is_refused() {
    let (r, mut p) = plan("create", vec![art("docs/designs/a.md", "abc")]);
    let approved = p.approval_digest.clone();
    p.artifacts[0].content = "evil".to_owned();
    assert_eq!(
        code(check_approval(&p, &r, &approved)),
        ErrorCode::CapabilityApprovalMismatch
    );
    let (r, mut p) = plan("create", vec![art("docs/designs/a.md", "abc")]);
    p.artifacts.push(art("docs/designs/extra.md", "x"));
    p.preview = preview_of(&p.artifacts);
    assert_eq!(
        code(check_approval(&p, &r, &approved)),
        ErrorCode::CapabilityApprovalMismatch
    );
}

#[test]
fn a_resealed_edit_is_refused_because_the_approval_was_for_the_original() {
    let (r, mut p) = plan("create", vec![art("docs/designs/a.md", "abc")]);
    let approved = p.approval_digest.clone();
    p.artifacts[0].content = "evil".to_owned();
    p.approval_digest = resealed(&p);
    p.preview = preview_of(&p.artifacts);
    assert_eq!(
        code(check_approval(&p, &r, &approved)),
        ErrorCode::CapabilityApprovalMismatch
    );
}

#[test]
fn an_approval_replayed_for_another_plan_is_refused() {
    let (_, first) = plan("create", vec![art("docs/designs/a.md", "abc")]);
    let (r, second) = plan("create", vec![art("docs/designs/b.md", "abc")]);
    assert_eq!(
        code(check_approval(&second, &r, &first.approval_digest)),
        ErrorCode::CapabilityApprovalMismatch
    );
}

#[test]
fn a_plan_carried_with_another_request_is_refused() {
    let (_, p) = plan("create", vec![art("docs/designs/a.md", "abc")]);
    let other = request("update");
    assert_eq!(
        code(check_approval(&p, &other, &p.approval_digest)),
        ErrorCode::CapabilityApprovalMismatch
    );
    let mut r = request("create");
    r.semantic_inputs_digest = "0".repeat(64);
    assert_eq!(
        code(check_approval(&p, &r, &p.approval_digest)),
        ErrorCode::CapabilityApprovalMismatch
    );
}

#[test]
fn a_preview_that_hides_a_file_is_refused() {
    let (r, mut p) = plan("create", vec![art("docs/designs/a.md", "abc")]);
    p.preview[0].path = "docs/designs/harmless.md".to_owned();
    assert_eq!(
        code(check_approval(&p, &r, &p.approval_digest.clone())),
        ErrorCode::CapabilityApprovalMismatch
    );
}

#[test]
fn every_escaping_path_is_refused_at_apply() {
    for path in [
        "../x",
        "docs/designs/../../x",
        "/etc/passwd",
        "C:/x",
        "docs//designs/x",
        "docs\\designs\\x",
        "docs/designs/./x",
        "",
        "docs/designs-evil/x",
        "docs/other.md",
    ] {
        let (_, p) = plan(
            "create",
            vec![art("docs/designs/ok.md", "a"), art(path, "b")],
        );
        let err = check_destinations(&p, &allowed()).unwrap_err();
        assert_eq!(err.code, ErrorCode::SemanticPathRejected, "{path:?}");
        assert!(err.message.contains(path), "{path:?}: {}", err.message);
    }
}

#[test]
fn a_class_needing_approval_that_was_not_granted_is_refused_and_named() {
    let (_, p) = plan("render", vec![art("docs/designs/r.md", "x")]);
    let err = check_granted(&p, &auth("render").needs_preflight, &[]).unwrap_err();
    assert_eq!(err.code, ErrorCode::CapabilityApprovalMissing);
    assert!(err.message.contains("network_external"));
    check_granted(
        &p,
        &auth("render").needs_preflight,
        &[EffectClass::NetworkExternal],
    )
    .unwrap();
}

#[test]
fn emptying_requires_approval_in_the_carried_plan_grants_nothing() {
    let (_, mut p) = plan("render", vec![art("docs/designs/r.md", "x")]);
    p.requires_approval.clear();
    assert_eq!(
        code(check_granted(&p, &auth("render").needs_preflight, &[])),
        ErrorCode::CapabilityApprovalMissing
    );
}

#[test]
fn a_base_must_still_exist_and_hold_the_sealed_text() {
    let base = Base {
        path: "docs/designs/a.md".to_owned(),
        digest: base_digest("viejo"),
    };
    check_base(Some(&base), Some("viejo")).unwrap();
    assert_eq!(
        code(check_base(Some(&base), Some("nuevo"))),
        ErrorCode::CapabilityBaseStale
    );
    assert_eq!(
        code(check_base(Some(&base), None)),
        ErrorCode::CapabilityBaseGone
    );
    check_base(None, None).unwrap();
    assert_eq!(
        base_digest("hola\n"),
        "0f96df6242be02c5d63e65dc724ca3604c629aafac98400e78849b85d0288eeb"
    );
}

#[test]
fn applied_classes_are_the_durable_self_authorized_and_granted_ones_once() {
    assert_eq!(
        applied_classes(
            &[EffectClass::ReadOnly, EffectClass::LocalAdditive],
            &[EffectClass::NetworkExternal, EffectClass::LocalAdditive]
        ),
        [EffectClass::LocalAdditive, EffectClass::NetworkExternal]
    );
}

#[test]
fn an_overwrite_needs_mutate_overwrite_among_the_applied_classes() {
    let mut a = art("docs/designs/a.md", "x");
    a.overwrite = Some(true);
    let (_, p) = plan("create", vec![a]);
    // `create` applies only local_additive: the flag (not sealed by the digest) is refused.
    let applied = applied_classes(&auth("create").self_authorized, &[]);
    assert_eq!(
        code(check_overwrites(&p, &applied)),
        ErrorCode::CapabilityEffectUnplanned
    );
    // `update`, with mutate_overwrite granted by the approval, may replace.
    assert!(
        check_overwrites(
            &p,
            &[EffectClass::LocalAdditive, EffectClass::MutateOverwrite]
        )
        .is_ok()
    );
    // No overwrite asked: nothing to check.
    let (_, plain) = plan("create", vec![art("docs/designs/a.md", "x")]);
    assert!(check_overwrites(&plain, &applied).is_ok());
}
