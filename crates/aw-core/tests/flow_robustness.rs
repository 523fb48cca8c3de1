//! No input makes the engine panic: arbitrary state files and arbitrary answers at every kind of
//! boundary come back as typed refusals, and a refusal changes nothing decided.

use crate::common::{Run, decided};
use aw_core::flow::state_parse::parse_state;
use aw_core::flow::submit::{Submission, submit};
use aw_core::flow::{Flow, Journey, RunState};
use proptest::prelude::*;

/// States standing on a semantic, an execution, an authorization, a human and a final boundary.
fn states() -> &'static [RunState] {
    static CELL: std::sync::OnceLock<Vec<RunState>> = std::sync::OnceLock::new();
    CELL.get_or_init(walk)
}

fn walk() -> Vec<RunState> {
    let mut out = Vec::new();
    let mut run = Run::builtin(Flow::Quick, "007-q");
    for _ in 0..40 {
        out.push(run.state.clone());
        if run.at().0 == "final" {
            break;
        }
        run.generic();
    }
    out
}

fn json_fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "\\{\"input_digest\":\"[a-f0-9]{0,64}\",\"(signals|choice|decisions|outcome|invocation|validations|effects|output)\":(null|1|\"x\"|\\[\\]|\\{\\}|\\[\"quick.needs-architecture\"\\])\\}",
        Just("{\"input_digest\":".to_owned() + &"[".repeat(600)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Arbitrary text is never a run state: it is refused as unusable (no panic, no other
    /// verdict), with a next action.
    #[test]
    fn arbitrary_state_text_never_panics(text in any::<String>()) {
        let err = parse_state(&text, "007-q").err();
        prop_assert!(err.is_some(), "arbitrary text was accepted as a run state: {text:?}");
        let err = err.unwrap();
        prop_assert!(
            matches!(err.code.as_str(), "FLOW_RUN_INVALID" | "FLOW_RUN_VERSION_UNSUPPORTED"),
            "{} for {text:?}", err.code
        );
        prop_assert!(!err.action.is_empty());
    }

    /// An arbitrary answer (its seal is random, so never the current one) is a business
    /// refusal at every boundary: `Ok` with an error in the directive, a next action, and the
    /// decided state unchanged. At the final boundary there is nothing to answer.
    #[test]
    fn arbitrary_answers_never_panic(raw in json_fragment(), approval in proptest::option::of("[a-f0-9]{0,64}")) {
        let j = Journey::builtin(Flow::Quick).unwrap();
        for s in states() {
            let turn = submit(s.clone(), &j, Submission { raw: &raw, approval: approval.as_deref(), facts: &Default::default() });
            prop_assert!(turn.is_ok(), "{:?} at {:?}", turn.err(), s.boundary);
            let turn = turn.unwrap();
            prop_assert!(!turn.directive.next_action.is_empty());
            let code = turn.directive.error.as_ref().map(|e| e.code.as_str());
            if s.boundary.is_none() {
                prop_assert_eq!(code, Some("FLOW_ANSWER_NOT_EXPECTED"));
                prop_assert!(!turn.write);
            } else {
                prop_assert!(
                    matches!(
                        code,
                        Some("FLOW_ANSWER_INVALID" | "FLOW_ANSWER_MISSING" | "FLOW_ANSWER_STALE")
                    ),
                    "{code:?} for {raw:?} at {:?}", s.boundary
                );
            }
            prop_assert_eq!(decided(&turn.state), decided(s));
        }
    }
}

#[test]
fn extreme_attempt_numbers_are_safe() {
    let mut run = Run::builtin(Flow::Quick, "007-q");
    let seal = run.last.state_digest.clone();
    run.raw(
        &format!("{{\"input_digest\":\"{seal}\",\"signals\":[\"x\"]}}"),
        None,
    );
    run.state.attempts[0].attempt = i64::MAX;
    let j = Journey::builtin(Flow::Quick).unwrap();
    let text = run.state.serialize();
    let back = parse_state(&text, "007-q").unwrap();
    // An attempt number out of the ledger's sequence is refused as an inconsistent history
    // (no overflow, no panic), whatever the answer.
    let err = submit(
        back,
        &j,
        Submission {
            raw: "{}",
            approval: None,
            facts: &Default::default(),
        },
    )
    .expect_err("a ledger jumping to i64::MAX is refused");
    assert_eq!(err.code, "CAPABILITY_ATTEMPT_OUT_OF_SEQUENCE");
    assert!(
        err.message.contains(&i64::MAX.to_string()),
        "{}",
        err.message
    );
}
