//! The reference's text-independent test vectors (flow-spec §15), byte for byte.

use aw_core::canonical::{canonical_json, semantic_digest};
use aw_core::flow::attempts::request_digest;
use aw_core::flow::boundary::action_digest;
use aw_core::flow::effects::approval_digest;
use aw_core::flow::registry::{Action, Invocation};
use aw_core::flow::run::advance;
use aw_core::flow::state_parse::parse_state;
use aw_core::flow::{EffectClass, Flow, Journey, RunState};
use serde_json::json;

const SESSION: &str = "007-tramo-quick-quick";

#[test]
fn first_advance_of_quick_matches_the_reference() {
    // flow-spec-v22 §16: the state after the first advance, its position and its seal (the
    // digests are pinned in `flow_state::the_reference_vectors_hold`; here the file round-trips).
    let journey = Journey::builtin(Flow::Quick).unwrap();
    let turn = advance(RunState::new(Flow::Quick, SESSION), &journey).unwrap();
    let text = turn.state.serialize();
    assert!(text.contains("\"boundary\":\"quick.entry-gate-signal\""));
    assert!(text.contains("\"version\":9"));
    assert_eq!(
        turn.directive.request.as_ref().unwrap().input_digest,
        turn.directive.state_digest
    );
    assert_eq!(parse_state(&text, SESSION).unwrap(), turn.state);
}

#[test]
fn the_v22_approval_vectors_hold() {
    // flow-spec-v22 §16.
    assert_eq!(
        approval_digest(
            "plan-exec.commit-execution",
            &[EffectClass::Execute, EffectClass::LocalAdditive]
        ),
        "1246160a72b820907a74c7d1f1e9ceaf8e18f507440ec5a7533f7432543f0bd0"
    );
    let journey = Journey::builtin(Flow::PlanExec).unwrap();
    let integration = journey.find("plan-exec.unit-integration").unwrap();
    let a = aw_core::flow::effects::authorize_transition(integration, &[], None);
    assert_eq!(
        a.missing,
        [EffectClass::Execute, EffectClass::MutateOverwrite]
    );
    assert_eq!(
        a.seal,
        "da5cda501e4895163bd51320a202b086410427a8b3797b10bd5a06812040e119"
    );
    let finalize = journey.find("chassis.finalize").unwrap();
    let f = aw_core::flow::effects::authorize_transition(finalize, &[], None);
    assert!(f.missing.is_empty());
    assert!(f.covered.contains(&EffectClass::MutateOverwrite));
}

#[test]
fn action_and_approval_digests_match_the_reference() {
    // The reference bound `{code}` to `007`; the digest is over whatever was bound.
    let bound = Action {
        invocation: Invocation {
            program: "aw".into(),
            args: vec!["session-artifacts".into(), "--code".into(), "007".into()].into(),
            target: SESSION.into(),
            input: None,
        },
        execution: None,
        evidence: vec!["quick.session-present".into()].into(),
        idempotent: true,
        recovery: "any text: the recovery is not covered".into(),
    };
    assert_eq!(
        action_digest(&bound),
        "c72fdea899fc6fcd9f8cad6f5c34549b57cd009857a509e1f7cfe2e50b04e7d0"
    );
    assert_eq!(
        approval_digest("quick.convergence-gate", &[EffectClass::Execute]),
        "2355838378164cdc7adfcd319ed7fd5395cb1562fa9cb446d174085a2bb38cdd"
    );
    assert_eq!(
        approval_digest("x", &[EffectClass::MutateOverwrite, EffectClass::Execute]),
        "07f615991cae350f8a21d79208e4802579b4942a898cbb0b69bf80d439f559b7"
    );
    assert_eq!(
        approval_digest("x", &[EffectClass::Execute, EffectClass::MutateOverwrite]),
        approval_digest("x", &[EffectClass::MutateOverwrite, EffectClass::Execute]),
    );
}

#[test]
fn attempt_request_digest_matches_the_reference() {
    let raw = "{\"input_digest\":\"8628bfdd8e506c7e54bd21309d4b941515d3cbf7b3126c0c93a50cdd879d28ca\",\"signals\":[\"quick.needs-architecture\"]}";
    assert_eq!(
        request_digest(raw, None),
        "ce7f367944e999ff8b9514b8159b71583fc2c77d60b18c33bf746e21473df103"
    );
}

#[test]
fn canonical_vectors() {
    assert_eq!(
        semantic_digest(&json!("")),
        "12ae32cb1ec02d01eda3581b127c1fee3b0dc53572ed6baf239721a03d82e126"
    );
    assert_eq!(
        semantic_digest(&json!({})),
        "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
    );
    assert_eq!(
        canonical_json(&json!({"b": 1, "a": [true, null, "xé\n"], "c": {"y": 1.5}})),
        "{\"a\":[true,null,\"xé\\n\"],\"b\":1,\"c\":{\"y\":1.5}}"
    );
}
