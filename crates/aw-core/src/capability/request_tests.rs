//! Unit tests of `request`: the key set, each builder check, the attempt chain and pinned digest
//! vectors.

use super::*;
use crate::capability::builtin::design_descriptor;
use crate::capability::descriptor::Descriptor;

use crate::capability::test_support::{ID, direct, invocation as inv};
const ID2: &str = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

fn design() -> Descriptor {
    design_descriptor().unwrap()
}

fn compose() -> Caller {
    Caller {
        route: Route::Compose,
        host: "claude-code".to_owned(),
        flow: Some("plan-exec".to_owned()),
    }
}

const CREATE: &[(&str, &str)] = &[
    ("title", "Alta"),
    ("sources", "docs/req.md"),
    ("target", "docs/designs"),
];

fn create() -> CapabilityRequest {
    CapabilityRequest::first_attempt(&design(), ID.to_owned(), inv("create", direct(), CREATE))
        .unwrap()
}

fn code(r: CapabilityResult<CapabilityRequest>) -> ErrorCode {
    r.unwrap_err().code
}

#[test]
fn the_key_set_and_order_are_exactly_the_fourteen_keys() {
    let v = create().to_value();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, REQUEST_KEYS);
    let nested = |k: &str| -> Vec<String> { v[k].as_object().unwrap().keys().cloned().collect() };
    assert_eq!(nested("caller"), ["route", "host", "flow"]);
    assert_eq!(
        nested("context"),
        ["workspace", "target", "base", "profile"]
    );
    assert_eq!(
        nested("policy"),
        ["sensitive_sources", "external_transmission"]
    );
    let input: Vec<&String> = v["inputs"][0].as_object().unwrap().keys().collect();
    assert_eq!(input, ["name", "value", "provenance"]);
    assert_eq!(
        v["inputs"][0]["provenance"],
        json!({"kind": "text", "origin": "caller", "seal": null, "sensitivity": "public"})
    );
}

#[test]
fn an_attempt_one_is_built_from_the_flags() {
    let r = create();
    assert_eq!(r.protocol_version, 1);
    assert_eq!(r.invocation_id, ID);
    assert_eq!(r.attempt, 1);
    assert_eq!(r.capability, "design");
    assert_eq!(r.contract_version, 1);
    assert_eq!(r.operation, "create");
    assert_eq!(r.parent_request_digest, None);
    assert!(r.authorizations.is_empty());
    let names: Vec<&str> = r.inputs.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["sources", "target", "title"]);
    assert!(r.is_sealed());
}

#[test]
fn the_worked_examples_input_digest_comes_out_exactly() {
    assert_eq!(
        input_digest(&create().inputs),
        "11d6c64888e813457261ca1da43b4c29116f91f1a31f15db8b17262f98e32a7b"
    );
}

#[test]
fn pinned_digest_vectors() {
    // Computed once from these fixed requests and pinned: any change to the canonical layout,
    // the key set or the digest rules moves them.
    let r = create();
    assert_eq!(
        r.semantic_inputs_digest,
        "d5d310efc0d1704d7aa162c5cbd4d47837ab38aa17240108a5560410067dcaa1"
    );
    assert_eq!(r.request_digest, PINNED_CREATE_REQUEST);

    let mut i = inv(
        "validate",
        compose(),
        &[("package", "docs/designs/001-design-alta")],
    );
    i.context = RequestContext {
        workspace: Some("/ws".to_owned()),
        target: Some("docs/designs".to_owned()),
        base: None,
        profile: Some("portable-html".to_owned()),
    };
    i.policy.sensitive_sources = true;
    let v = CapabilityRequest::first_attempt(&design(), ID2.to_owned(), i).unwrap();
    assert_eq!(v.semantic_inputs_digest, PINNED_VALIDATE_SEMANTIC);
    assert_eq!(v.request_digest, PINNED_VALIDATE_REQUEST);
}

// Cross-checked against an independent canonical-JSON + SHA-256 computation of the same objects.
const PINNED_CREATE_REQUEST: &str =
    "18dc936500ca5aec2913bdce7a8c18998da25f485165ab5e3bcd5397eb9425b6";
const PINNED_VALIDATE_SEMANTIC: &str =
    "e8a9a4a61bb70e8c1f24794e70c0604211d5c9feb0ab6b207af9acc833b85101";
const PINNED_VALIDATE_REQUEST: &str =
    "151994b125dd36fe6ca4c87ae6f213c3fd8eeecd0e0f3d5fe57b21ee3cc582d3";

#[test]
fn direct_and_compose_share_the_semantic_digest_not_the_request_digest() {
    let d = create();
    let c = CapabilityRequest::first_attempt(
        &design(),
        ID2.to_owned(),
        inv("create", compose(), CREATE),
    )
    .unwrap();
    assert_eq!(d.semantic_inputs_digest, c.semantic_inputs_digest);
    assert_ne!(d.request_digest, c.request_digest);
}

#[test]
fn a_different_value_changes_the_semantic_digest_and_order_does_not() {
    let other = [
        ("title", "Baja"),
        ("sources", "docs/req.md"),
        ("target", "docs/designs"),
    ];
    let b =
        CapabilityRequest::first_attempt(&design(), ID.to_owned(), inv("create", direct(), &other))
            .unwrap();
    assert_ne!(create().semantic_inputs_digest, b.semantic_inputs_digest);
    let reordered = [CREATE[2], CREATE[0], CREATE[1]];
    let c = CapabilityRequest::first_attempt(
        &design(),
        ID.to_owned(),
        inv("create", direct(), &reordered),
    )
    .unwrap();
    assert_eq!(create(), c);
}

#[test]
fn the_builder_checks_in_order() {
    let d = design();
    let first = |id: &str, i| CapabilityRequest::first_attempt(&d, id.to_owned(), i);
    assert_eq!(
        code(first(
            "0F8FAD5B-D9CB-469F-A165-70867728950E",
            inv("create", direct(), CREATE)
        )),
        ErrorCode::CapabilityInvocationIdInvalid
    );
    let unknown = first(ID, inv("consume", direct(), CREATE)).unwrap_err();
    assert_eq!(unknown.code, ErrorCode::CapabilityOperationUnknown);
    assert!(unknown.action.contains("validate"));
    let mut extra = CREATE.to_vec();
    extra.push(("prompt", "x"));
    assert_eq!(
        code(first(ID, inv("create", direct(), &extra))),
        ErrorCode::CapabilityInputUndeclared
    );
    let mut twice = CREATE.to_vec();
    twice.push(("title", "again"));
    assert_eq!(
        code(first(ID, inv("create", direct(), &twice))),
        ErrorCode::CapabilityInputRepeated
    );
    let mut blank = inv("create", direct(), CREATE);
    blank.inputs[0].provenance.origin = "  ".to_owned();
    assert_eq!(
        code(first(ID, blank)),
        ErrorCode::CapabilityInputProvenanceMissing
    );
    let mut sensitive = inv("create", direct(), CREATE);
    sensitive.inputs[1].provenance.sensitivity = Sensitivity::Sensitive;
    assert_eq!(
        code(first(ID, sensitive.clone())),
        ErrorCode::CapabilitySensitiveInputUnauthorized
    );
    sensitive.policy.sensitive_sources = true;
    assert!(first(ID, sensitive).is_ok());
    let missing = first(ID, inv("validate", direct(), &[])).unwrap_err();
    assert_eq!(missing.code, ErrorCode::CapabilityInputRequiredMissing);
    assert!(missing.message.contains("package"));
    // Presence is enough: an empty value satisfies a required input.
    assert!(first(ID, inv("validate", direct(), &[("package", "")])).is_ok());
}

#[test]
fn the_route_must_be_exposed() {
    let mut d = design();
    d.operations[2].exposure = vec![Route::Direct];
    let e = CapabilityRequest::first_attempt(
        &d,
        ID.to_owned(),
        inv("validate", compose(), &[("package", "p")]),
    )
    .unwrap_err();
    assert_eq!(e.code, ErrorCode::CapabilityRouteUnsupported);
}

#[test]
fn the_attempt_chain_is_checked() {
    let d = design();
    let draft = |attempt, parent: Option<&str>| Draft {
        invocation_id: ID.to_owned(),
        attempt,
        parent_request_digest: parent.map(str::to_owned),
        authorizations: Vec::new(),
        invocation: inv("create", direct(), CREATE),
    };
    assert_eq!(
        code(build(&d, draft(0, None))),
        ErrorCode::CapabilityAttemptInvalid
    );
    assert_eq!(
        code(build(&d, draft(1, Some("abc")))),
        ErrorCode::CapabilityParentUnexpected
    );
    assert_eq!(
        code(build(&d, draft(2, None))),
        ErrorCode::CapabilityParentMissing
    );
    assert!(build(&d, draft(2, Some("abc"))).is_ok());
}

#[test]
fn continue_builds_the_next_attempt_from_the_current_invocation() {
    let parent = create();
    let mut next = inv("validate", compose(), CREATE);
    next.inputs
        .push(RequestInput::from_flag("profile", "portable-html"));
    let child = CapabilityRequest::continue_from(&parent, &design(), next).unwrap();
    assert_eq!(child.invocation_id, parent.invocation_id);
    assert_eq!(child.attempt, 2);
    assert_eq!(child.operation, "create", "the parent's operation wins");
    assert_eq!(
        child.parent_request_digest.as_deref(),
        Some(parent.request_digest.as_str())
    );
    assert_eq!(child.caller, compose());
    assert_ne!(child.request_digest, parent.request_digest);
    assert_ne!(child.semantic_inputs_digest, parent.semantic_inputs_digest);
    assert!(child.authorizations.is_empty());
    // Inputs are checked against the parent's operation.
    let e = CapabilityRequest::continue_from(
        &parent,
        &design(),
        inv("create", direct(), &[("package", "")]),
    )
    .unwrap_err();
    assert_eq!(e.code, ErrorCode::CapabilityInputUndeclared);
}

#[test]
fn an_edited_parent_is_refused() {
    let mut parent = create();
    parent.operation = "validate".to_owned();
    let e = CapabilityRequest::continue_from(&parent, &design(), inv("create", direct(), CREATE))
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::CapabilityParentAltered);
}

#[test]
fn a_parent_at_the_last_attempt_number_has_no_continuation() {
    // A saturating add would give the child the parent's own number (u64::MAX twice), and a
    // number above 2^53 does not survive a JSON reader: both are refused.
    for top in [MAX_ATTEMPT, u64::MAX] {
        let parent = build(
            &design(),
            Draft {
                invocation_id: ID.to_owned(),
                attempt: top,
                parent_request_digest: Some("a".repeat(64)),
                authorizations: Vec::new(),
                invocation: inv("create", direct(), CREATE),
            },
        )
        .unwrap();
        let e =
            CapabilityRequest::continue_from(&parent, &design(), inv("create", direct(), CREATE))
                .unwrap_err();
        assert_eq!(e.code, ErrorCode::CapabilityAttemptInvalid, "{top}");
    }
    let mut below = create();
    below.attempt = MAX_ATTEMPT - 1;
    below.parent_request_digest = Some("a".repeat(64));
    below.request_digest = below.computed_request_digest();
    let child =
        CapabilityRequest::continue_from(&below, &design(), inv("create", direct(), CREATE))
            .unwrap();
    assert_eq!(child.attempt, MAX_ATTEMPT);
}

#[test]
fn invocation_ids_are_version_four_uuids() {
    let id = invocation_id_from_random([0xff; 16]);
    assert_eq!(id, "ffffffff-ffff-4fff-bfff-ffffffffffff");
    assert!(is_invocation_id(&id));
    assert_eq!(
        invocation_id_from_random([0; 16]),
        "00000000-0000-4000-8000-000000000000"
    );
    assert!(!is_invocation_id("0f8fad5b-d9cb-469f-a165-70867728950"));
    assert!(!is_invocation_id("0f8fad5bd9cb-469f-a165-70867728950ee"));
    assert!(!is_invocation_id("0f8fad5b-d9cb-469f-a165-70867728950g"));
}

#[test]
fn a_request_round_trips_through_serde_and_stays_sealed() {
    let r = create();
    let text = serde_json::to_string(&r).unwrap();
    let back: CapabilityRequest = serde_json::from_str(&text).unwrap();
    assert_eq!(back, r);
    assert!(back.is_sealed());
    let mut extra = r.to_value();
    extra["prompt"] = json!("private");
    assert!(serde_json::from_value::<CapabilityRequest>(extra).is_err());
}

/// An object value with the given entries inserted in the given order.
fn object(entries: &[(String, String)]) -> Value {
    let mut map = serde_json::Map::new();
    for (k, v) in entries {
        map.insert(k.clone(), Value::String(v.clone()));
    }
    Value::Object(map)
}

proptest::proptest! {
    /// The canonical JSON of a request does not depend on the order its inputs were given in nor
    /// on the key order of object values, and the request round-trips through serde unchanged.
    #[test]
    fn canonical_json_is_stable_under_reordering_and_round_trips(
        title in "\\PC{0,12}",
        context in proptest::collection::btree_map("[a-zé😀\u{ff61}]{1,4}", "\\PC{0,6}", 0..5),
        rotate in 0usize..6,
    ) {
        let entries: Vec<(String, String)> = context.into_iter().collect();
        let mut reversed = entries.clone();
        reversed.reverse();
        let inputs = |entries: &[(String, String)]| {
            vec![
                RequestInput::from_flag("title", &title),
                RequestInput::from_flag("sources", "docs/req.md"),
                RequestInput::from_flag("target", "docs/designs"),
                RequestInput { value: object(entries), ..RequestInput::from_flag("context", "") },
            ]
        };
        let mut a = inv("create", direct(), &[]);
        a.inputs = inputs(&entries);
        let mut b = a.clone();
        b.inputs = inputs(&reversed);
        b.inputs.rotate_left(rotate % 4);
        let ra = CapabilityRequest::first_attempt(&design(), ID.to_owned(), a).unwrap();
        let rb = CapabilityRequest::first_attempt(&design(), ID.to_owned(), b).unwrap();
        let ca = crate::canonical::canonical_json(&ra.to_value());
        proptest::prop_assert_eq!(&ca, &crate::canonical::canonical_json(&rb.to_value()));
        proptest::prop_assert_eq!(&ra.request_digest, &rb.request_digest);
        proptest::prop_assert_eq!(&ra.semantic_inputs_digest, &rb.semantic_inputs_digest);
        let back: CapabilityRequest = serde_json::from_str(&serde_json::to_string(&ra).unwrap()).unwrap();
        proptest::prop_assert_eq!(crate::canonical::canonical_json(&back.to_value()), ca);
        proptest::prop_assert!(back.is_sealed());
        proptest::prop_assert_eq!(back, ra);
    }
}

#[test]
fn authorizations_sort_as_strings_and_keep_repeats() {
    let r = build(
        &design(),
        Draft {
            invocation_id: ID.to_owned(),
            attempt: 1,
            parent_request_digest: None,
            authorizations: vec![
                EffectClass::Execute,
                EffectClass::ReadOnly,
                EffectClass::Execute,
                EffectClass::LocalAdditive,
            ],
            invocation: inv("create", direct(), CREATE),
        },
    )
    .unwrap();
    let wire: Vec<&str> = r.authorizations.iter().map(|c| c.as_str()).collect();
    // String order, as the reference's sort gives it: not the classes' own order.
    assert_eq!(wire, ["execute", "execute", "local_additive", "read_only"]);
}
