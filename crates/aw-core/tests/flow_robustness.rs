//! No input makes the engine panic: arbitrary state files and arbitrary answers at every kind of
//! boundary come back as values or typed errors.

use crate::common::Run;
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

    #[test]
    fn arbitrary_state_text_never_panics(text in any::<String>()) {
        let _ = parse_state(&text, "007-q");
    }

    #[test]
    fn arbitrary_answers_never_panic(raw in json_fragment(), approval in proptest::option::of("[a-f0-9]{0,64}")) {
        let j = Journey::builtin(Flow::Quick).unwrap();
        for s in states() {
            if let Ok(turn) = submit(s.clone(), &j, Submission { raw: &raw, approval: approval.as_deref() }) {
                prop_assert!(!turn.directive.next_action.is_empty());
            }
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
    let _ = submit(
        back,
        &j,
        Submission {
            raw: "{}",
            approval: None,
        },
    );
}
