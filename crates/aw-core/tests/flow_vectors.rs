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
fn new_run_state_serializes_and_seals_like_the_reference() {
    let s = RunState::new(Flow::Quick, SESSION);
    assert_eq!(
        s.serialize(),
        "{\"applied\":[],\"attempts\":[],\"authorizations\":[],\"boundary\":null,\"digest\":\"904d9ae11af347d5f23879ba361334d2c76d56b95590c44ba411f3f4ef939453\",\"effects\":{\"applied\":[],\"approved\":[],\"planned\":[]},\"flow\":\"quick\",\"observations\":[],\"pending_action\":null,\"session\":\"007-tramo-quick-quick\",\"skipped\":[],\"version\":4}\n"
    );
    assert_eq!(
        s.position_digest(),
        "5dc5e1cd5cb899b2cbde90db478b2d3a1d9846f8d9ba7cfa8f954d908f55f952"
    );
}

#[test]
fn first_advance_of_quick_matches_the_reference() {
    let journey = Journey::builtin(Flow::Quick).unwrap();
    let turn = advance(RunState::new(Flow::Quick, SESSION), &journey).unwrap();
    let text = turn.state.serialize();
    assert_eq!(
        text,
        "{\"applied\":[\"chassis.docs-boundary\",\"chassis.research-exhaustion\"],\"attempts\":[],\"authorizations\":[],\"boundary\":\"quick.entry-gate-signal\",\"digest\":\"c2765c66b77153e88f9cf79d1377e1627ea80ac6e0acdf5064a4516669181cb5\",\"effects\":{\"applied\":[\"read_only\"],\"approved\":[],\"planned\":[\"read_only\"]},\"flow\":\"quick\",\"observations\":[],\"pending_action\":null,\"session\":\"007-tramo-quick-quick\",\"skipped\":[],\"version\":4}\n"
    );
    assert_eq!(
        turn.state.position_digest(),
        "81f91535e4119993757b7823e154ba5b9791eba6620290217e772dd88510636d"
    );
    let seal = "8628bfdd8e506c7e54bd21309d4b941515d3cbf7b3126c0c93a50cdd879d28ca";
    assert_eq!(turn.directive.state_digest, seal);
    assert_eq!(turn.directive.request.as_ref().unwrap().input_digest, seal);
    // The file reads back, sealed, as the same state.
    assert_eq!(parse_state(&text, SESSION).unwrap(), turn.state);
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
