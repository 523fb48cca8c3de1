//! Real journeys through the pure engine: fail-closed answers, resends, the attempt cap and
//! degradation, recovery, and the quick / spec / plan tranches (flow-fail-closed,
//! flow-tramo-chassis, flow-tramo-quick, flow-tramo-spec, flow-tramo-plan, flow-effects,
//! flow-human-boundary suites).

use crate::common::{self, Run, decided};
use aw_core::flow::proposal::Seen;
use aw_core::flow::recover::recover;
use aw_core::flow::state::Observation;
use aw_core::flow::{EffectClass, Flow, Journey, RunState};
use aw_core::vocab::flow::{PAUSE_LABEL, STOP_LABEL};
use serde_json::json;

const Q: &str = "007-tramo-quick-quick";

fn quick() -> Run<'static> {
    Run::builtin(Flow::Quick, Q)
}

#[test]
fn adoption_applies_the_chassis_prefix_and_stops_at_the_entry_gate() {
    let run = quick();
    let trace: Vec<_> = run
        .last
        .applied
        .iter()
        .map(|s| s.transition.as_str())
        .collect();
    assert_eq!(
        trace,
        ["chassis.docs-boundary", "chassis.research-exhaustion"]
    );
    assert_eq!(run.at(), ("semantic", "quick.entry-gate-signal"));
    assert_eq!(run.last.pending.last().unwrap(), "chassis.finalize");
    let r = run.last.request.as_ref().unwrap();
    assert!(r.contract.chars().count() > 80);
    assert!(
        r.contract
            .contains("The CLI applies the threshold over the signals, not you")
    );
    for s in &r.inventory.signals {
        assert!(r.contract.contains(s.as_str()));
    }
    assert_eq!(r.read_set, ["guides/quick.md"]);
    assert_eq!(
        r.inventory.applied,
        ["chassis.docs-boundary", "chassis.research-exhaustion"]
    );
    assert!(r.metrics.request_bytes > 0);
    // The quirk kept on purpose: the count excludes its own digits.
    let mut zero = r.clone();
    zero.metrics.request_bytes = 0;
    assert_eq!(
        serde_json::to_string(&zero).unwrap().len(),
        r.metrics.request_bytes
    );
}

#[test]
fn five_failure_modes_change_nothing_decided() {
    let cases = [
        ("", "FLOW_ANSWER_MISSING"),
        ("{", "FLOW_ANSWER_INVALID"),
        ("[1]", "FLOW_ANSWER_INVALID"),
        (
            "{\"signals\":[\"quick.needs-architecture\"]}",
            "FLOW_ANSWER_INVALID",
        ),
    ];
    for (raw, code) in cases {
        let mut run = quick();
        let before = decided(&run.state);
        run.raw(raw, None);
        assert_eq!(run.code(), Some(code), "{raw}");
        assert_eq!(run.at(), ("semantic", "quick.entry-gate-signal"));
        assert_eq!(decided(&run.state), before);
        // A malformed envelope spends nothing (v22): the boundary stays answerable.
        assert!(!run.wrote, "an envelope refusal writes nothing");
        assert_eq!(run.state.attempts.len(), 0);
        assert!(!run.last.next_action.is_empty() && !run.error().action.is_empty());
    }
    let mut run = quick();
    run.send(json!({}), None);
    assert_eq!(run.code(), Some("FLOW_ANSWER_AMBIGUOUS"));
    let mut run = quick();
    run.signals(&["quick.made-up"]);
    assert_eq!(run.code(), Some("FLOW_SIGNAL_UNKNOWN"));
    let mut run = quick();
    run.send(json!({"input_digest": "0".repeat(64), "signals": []}), None);
    assert_eq!(run.code(), Some("FLOW_ANSWER_STALE"));
    assert_eq!(run.at(), ("semantic", "quick.entry-gate-signal"));
}

#[test]
fn a_stale_answer_reports_the_current_boundary() {
    let mut run = quick();
    let old = run.last.state_digest.clone();
    run.signals(&["quick.needs-architecture"]);
    assert_eq!(run.code(), None);
    let before = decided(&run.state);
    run.send(json!({"input_digest": old, "signals": []}), None);
    assert_eq!(run.code(), Some("FLOW_ANSWER_STALE"));
    assert_eq!(run.at(), ("execution", "quick.session-create"));
    assert_ne!(run.last.state_digest, old);
    assert_eq!(decided(&run.state), before);
}

#[test]
fn an_identical_resend_of_an_applied_answer_is_refused() {
    let mut run = quick();
    let payload =
        json!({"input_digest": run.last.state_digest, "signals": ["quick.needs-architecture"]})
            .to_string();
    run.raw(&payload, None);
    let first = run.last.boundary.clone();
    let state = run.state.clone();
    run.raw(&payload, None);
    assert_eq!(run.code(), Some("FLOW_ANSWER_RESENT"));
    assert_eq!(run.last.outcome.as_str(), "completed");
    assert_eq!(run.last.boundary, first);
    assert!(!run.wrote);
    assert_eq!(run.state, state);
    assert_eq!(
        run.state
            .applied
            .iter()
            .filter(|t| *t == "quick.entry-gate-signal")
            .count(),
        1
    );
    assert_eq!(run.state.recorded_at("quick.entry-gate-signal"), 1);
}

#[test]
fn resending_a_refused_answer_is_a_new_attempt() {
    let mut run = quick();
    let payload =
        json!({"input_digest": run.last.state_digest, "signals": ["quick.nope"]}).to_string();
    run.raw(&payload, None);
    assert_eq!(run.code(), Some("FLOW_SIGNAL_UNKNOWN"));
    run.raw(&payload, None);
    assert_eq!(run.code(), Some("FLOW_SIGNAL_UNKNOWN"));
    assert_ne!(run.last.outcome.as_str(), "completed");
    assert_eq!(run.state.attempts.len(), 2);
    assert_eq!(
        run.state.attempts[1].attempt, 2,
        "numbered after the first, not a duplicate"
    );
    assert!(
        !run.state
            .applied
            .contains(&"quick.entry-gate-signal".to_owned())
    );
    // The reference's defect: a different payload now got attempt 3 against a ledger at 1 and
    // failed with CAPABILITY_ATTEMPT_OUT_OF_SEQUENCE. Here it is simply the third attempt.
    let before = run.state.clone();
    let fresh = quick();
    let mut run = Run::from_state(Journey::builtin(Flow::Quick).unwrap(), before);
    let _ = fresh;
    run.signals(&["quick.needs-architecture"]);
    assert_eq!(run.code(), None);
    assert_eq!(run.at(), ("execution", "quick.session-create"));
}

#[test]
fn a_reference_state_with_duplicate_entries_still_moves_on() {
    // Two entries numbered 1 with the same payload, as the reference wrote them.
    let mut run = quick();
    let payload =
        json!({"input_digest": run.last.state_digest, "signals": ["quick.nope"]}).to_string();
    run.raw(&payload, None);
    let dup = run.state.attempts[0].clone();
    run.state.attempts.push(dup);
    run.signals(&["quick.needs-architecture"]);
    assert_eq!(run.code(), None);
    assert_eq!(run.state.attempts.last().unwrap().attempt, 2);
}

#[test]
fn an_unadvanced_or_finished_run_takes_no_answer() {
    let j = Journey::builtin(Flow::Quick).unwrap();
    let s = RunState::new(Flow::Quick, Q);
    let turn = aw_core::flow::submit::submit(
        s.clone(),
        &j,
        aw_core::flow::submit::Submission {
            raw: "{}",
            approval: None,
            facts: &Default::default(),
        },
    )
    .unwrap();
    assert!(!turn.write);
    let e = turn.directive.error.unwrap();
    assert_eq!(e.code, "FLOW_ANSWER_NOT_EXPECTED");
    assert!(e.action.contains("aw flow advance"));
    assert_eq!(turn.state, s);
}

#[test]
fn the_attempt_cap_degrades_a_judgment_row() {
    let mut run = quick();
    for (i, bad) in ["quick.a", "quick.b", "quick.c"].iter().enumerate() {
        run.signals(&[bad]);
        let expected = if i < 2 {
            "FLOW_SIGNAL_UNKNOWN"
        } else {
            "FLOW_BOUNDARY_EXHAUSTED"
        };
        assert_eq!(run.code(), Some(expected));
    }
    let e = run.error();
    assert!(e.action.contains("Open questions") && e.action.contains("BACKLOG"));
    assert_eq!(run.at(), ("blocked", "quick.entry-gate-signal"));
    assert_eq!(run.last.outcome.as_str(), "blocked");
    run.advance();
    let skipped = &run.last.applied[0];
    assert_eq!(skipped.transition, "quick.entry-gate-signal");
    assert_eq!(serde_json::to_value(skipped.outcome).unwrap(), "skipped");
    assert!(skipped.reason.as_ref().unwrap().contains("Open questions"));
    assert!(
        run.state
            .skipped
            .contains(&"quick.entry-gate-signal".to_owned())
    );
    assert_ne!(run.at().1, "quick.entry-gate-signal");
    // The loss is declared, and stays declared for the rest of the run.
    assert_eq!(run.last.degradations.len(), 1);
    assert_eq!(
        run.last.degradations[0].transition,
        "quick.entry-gate-signal"
    );
    assert_eq!(run.last.degradations[0].cause, "FLOW_BOUNDARY_EXHAUSTED");
    run.generic();
    assert_eq!(run.last.degradations.len(), 1);
}

#[test]
fn refusals_do_not_make_the_boundary_stale() {
    let mut run = quick();
    let seal = run.last.state_digest.clone();
    run.signals(&["quick.a"]);
    run.send(json!({"input_digest": seal, "signals": ["quick.b"]}), None);
    assert_eq!(run.code(), Some("FLOW_SIGNAL_UNKNOWN"));
    assert_eq!(run.last.state_digest, seal);
    run.send(
        json!({"input_digest": seal, "signals": ["quick.needs-architecture"]}),
        None,
    );
    assert_eq!(run.code(), None);
    assert_eq!(run.state.recorded_at("quick.entry-gate-signal"), 3);
    let mut run = quick();
    run.signals(&["quick.a"]);
    run.signals(&[]);
    assert_eq!(run.state.recorded_at("quick.entry-gate-signal"), 2);
}

/// Quick, walked with no signals to the convergence gate's execution boundary (the run's
/// custody covers its `execute`: no authorization is asked).
fn at_convergence_execution() -> Run<'static> {
    let mut run = quick();
    run.walk_to("quick.convergence-gate");
    assert_eq!(run.at(), ("execution", "quick.convergence-gate"));
    run
}

#[test]
fn an_exhausted_execution_stays_blocked_until_recovered() {
    let mut run = at_convergence_execution();
    // Three refused results that applied nothing: no trace, three attempts.
    for _ in 0..3 {
        let mut r = run.result();
        r["validations"][0]["passed"] = json!(false);
        r["effects"]["applied"] = json!([]);
        run.send(r, None);
    }
    assert_eq!(run.code(), Some("FLOW_BOUNDARY_EXHAUSTED"));
    assert!(run.error().action.contains("aw flow recover --session"));
    assert!(run.state.events.is_empty());
    run.advance();
    assert_eq!(
        run.at(),
        ("blocked", "quick.convergence-gate"),
        "a delegated step nobody ran is not degradable"
    );
    assert!(run.last.applied.is_empty());
    // recover: --transition must name the boundary in force.
    let j = Journey::builtin(Flow::Quick).unwrap();
    let e = recover(run.state.clone(), &j, Some("quick.review-findings")).unwrap_err();
    assert_eq!(e.code, "FLOW_RECOVERY_OTHER_BOUNDARY");
    let turn = recover(run.state.clone(), &j, Some("quick.convergence-gate")).unwrap();
    assert_eq!(turn.directive.boundary.kind.as_str(), "execution");
    assert!(turn.directive.applied.is_empty());
    assert_eq!(
        turn.state.recorded_at("quick.convergence-gate"),
        3,
        "history is kept"
    );
    assert_eq!(turn.state.granted.get("quick.convergence-gate"), Some(&3));
    assert_eq!(turn.state.attempts_at("quick.convergence-gate"), 0);
    let e = recover(turn.state.clone(), &j, None).unwrap_err();
    assert_eq!(e.code, "FLOW_RECOVERY_NOT_NEEDED");
    let mut run = Run::from_state(j, turn.state);
    run.execute();
    assert_eq!(run.code(), None);
    assert!(run.state.effects.applied.contains(&EffectClass::Execute));
}

#[test]
fn recover_refuses_what_it_cannot_verify() {
    // Refused results that said they executed something: the trace is material.
    let mut run = at_convergence_execution();
    for _ in 0..3 {
        let mut r = run.result();
        r["outcome"] = json!("failed");
        run.send(r, None);
    }
    assert_eq!(run.code(), Some("FLOW_BOUNDARY_EXHAUSTED"));
    let failed = run.state.events.last().unwrap();
    assert_eq!(failed["kind"], "failed");
    assert_eq!(failed["effects"], json!(["execute"]));
    assert_eq!(run.state.events.len(), 1, "a restated failure is one fact");
    let j = Journey::builtin(Flow::Quick).unwrap();
    let e = recover(run.state.clone(), &j, None).unwrap_err();
    assert_eq!(e.code, "FLOW_RECOVERY_EFFECTS_APPLIED");
    assert!(e.message.contains("aw session-artifacts"), "{}", e.message);
    // An internal action begun and never settled: nobody can say what it did.
    let mut run = at_convergence_execution();
    for _ in 0..3 {
        let mut r = run.result();
        r["validations"][0]["passed"] = json!(false);
        r["effects"]["applied"] = json!([]);
        run.send(r, None);
    }
    run.state.pending_action.as_mut().unwrap().attempted = true;
    let e = recover(run.state.clone(), &j, None).unwrap_err();
    assert_eq!(e.code, "FLOW_RECOVERY_EXECUTION_UNVERIFIED");
    assert!(e.action.contains("aw flow advance"));
    // Nothing to recover on a fresh boundary.
    let run = quick();
    assert_eq!(
        recover(run.state.clone(), &j, None).unwrap_err().code,
        "FLOW_RECOVERY_NOT_NEEDED"
    );
}

#[test]
fn pause_and_stop_record_nothing() {
    let mut run = quick();
    run.signals(&["quick.needs-architecture", "quick.two-or-more-sources"]);
    assert_eq!(run.at(), ("execution", "quick.anti-duplicate"));
    run.execute();
    assert_eq!(run.at(), ("human", "quick.gate-choice"));
    let labels: Vec<_> = run.last.choices.iter().map(|c| &*c.label).collect();
    assert_eq!(
        labels,
        [
            "Switch to SPEC",
            "Stay in quick",
            "Trim the scope",
            PAUSE_LABEL,
            STOP_LABEL
        ]
    );
    let before = run.state.clone();
    run.choose(PAUSE_LABEL);
    assert_eq!(run.code(), Some("FLOW_BOUNDARY_PAUSED"));
    assert_eq!(run.last.outcome.as_str(), "needs_input");
    assert!(run.error().action.contains("checkpoint-write"));
    assert_eq!(run.at(), ("human", "quick.gate-choice"));
    assert!(!run.wrote);
    assert_eq!(run.state, before);
    run.choose(STOP_LABEL);
    assert_eq!(run.code(), Some("FLOW_BOUNDARY_DECLINED"));
    assert_eq!(run.last.outcome.as_str(), "cancelled");
    assert_eq!(run.state, before);
    run.choose("Maybe");
    assert_eq!(run.code(), Some("FLOW_CHOICE_UNKNOWN"));
    assert!(run.error().action.contains("Stay in quick"));
    run.send(json!({}), None);
    assert_eq!(run.code(), Some("FLOW_ANSWER_AMBIGUOUS"));
    run.choose("Stay in quick");
    assert_eq!(run.code(), None);
    assert_eq!(run.last.applied[0].transition, "quick.gate-choice");
}

#[test]
fn quick_thresholds() {
    let mut run = quick();
    run.signals(&["quick.needs-architecture"]);
    let skipped: Vec<_> = run
        .last
        .applied
        .iter()
        .filter(|s| s.reason.is_some())
        .map(|s| (s.transition.as_str(), s.reason.clone().unwrap()))
        .collect();
    assert_eq!(skipped.len(), 2);
    assert_eq!(skipped[0].0, "quick.anti-duplicate");
    assert_eq!(skipped[1].0, "quick.gate-choice");
    assert!(skipped.iter().all(|(_, r)| r.contains("did not fire")));
    assert_eq!(
        run.state.skipped,
        ["quick.anti-duplicate", "quick.gate-choice"]
    );
    assert!(
        !run.state
            .effects
            .applied
            .contains(&EffectClass::MutateOverwrite)
    );
    // A duplicated signal stores nothing.
    let mut run = quick();
    run.signals(&["quick.needs-architecture", "quick.needs-architecture"]);
    assert_eq!(run.code(), Some("FLOW_ANSWER_INVALID"));
    assert!(run.state.observations.is_empty() && run.state.skipped.is_empty());
    // Two signals: the anti-duplicate search runs first, on a real result.
    let mut run = quick();
    run.signals(&["quick.needs-architecture", "quick.two-or-more-sources"]);
    assert_eq!(run.at(), ("execution", "quick.anti-duplicate"));
    assert_eq!(
        run.last.action.as_ref().unwrap().invocation.args[..],
        ["status", "--json"]
    );
    assert_eq!(
        run.state.pending_action.as_ref().unwrap().transition,
        "quick.anti-duplicate"
    );
    run.send(json!({"confirmed": true}), None);
    assert_eq!(run.code(), Some("FLOW_RESULT_INVALID"));
    run.execute();
    assert_eq!(run.code(), None);
    assert_eq!(run.at().1, "quick.gate-choice");
    assert!(run.state.skipped.is_empty());
}

#[test]
fn quick_session_and_seed_steps() {
    let mut run = quick();
    run.signals(&[]);
    assert_eq!(run.at(), ("execution", "quick.session-create"));
    let inv = &run.last.action.as_ref().unwrap().invocation;
    // `{code}` binds to the session folder (the reference bound the bare number, `007`).
    assert_eq!(inv.args[..], ["session-artifacts", "--code", Q]);
    assert_eq!(inv.target, Q);
    assert!(
        !run.last.next_action.contains("{code}") && !run.last.next_action.contains("{session}")
    );
    run.execute();
    assert_eq!(run.at(), ("semantic", "quick.success-criteria-authoring"));
    let fork = run.state.clone();
    run.signals(&[]);
    assert_eq!(run.at(), ("execution", "quick.artifact-seed-order"));
    let a = run.last.action.clone().unwrap();
    assert_eq!(a.invocation.args[3..], ["--dump", "objetivo,checkpoint"]);
    assert_eq!(a.evidence.len(), 3);
    let mut r = run.result();
    r["validations"] = json!([r["validations"][0]]);
    run.send(r, None);
    assert_eq!(run.code(), Some("FLOW_EVIDENCE_MISSING"));
    assert!(
        !run.state
            .applied
            .contains(&"quick.artifact-seed-order".to_owned())
    );
    let mut run = Run::from_state(Journey::builtin(Flow::Quick).unwrap(), fork);
    run.signals(&["quick.deliverable-is-analysis"]);
    assert_eq!(run.at(), ("human", "quick.success-criteria-ratification"));
}

#[test]
fn quick_convergence_and_db_rules() {
    let mut run = at_convergence_execution();
    assert!(!run.state.effects.applied.contains(&EffectClass::Execute));
    assert!(
        !run.state
            .applied
            .contains(&"quick.convergence-gate".to_owned())
    );
    let mut r = run.result();
    r["validations"][0]["passed"] = json!(false);
    run.send(r, None);
    assert_eq!(run.code(), Some("FLOW_EVIDENCE_MISSING"));
    assert!(!run.state.effects.applied.contains(&EffectClass::Execute));
    run.execute();
    assert_eq!(run.code(), None);
    assert!(run.state.effects.applied.contains(&EffectClass::Execute));
    let db = run
        .state
        .skipped
        .iter()
        .any(|t| t == "quick.db-scripts-only");
    assert!(db, "no db-touched signal skips the scripts step");
    let mut run = quick();
    run.walk_to("quick.db-touched");
    run.signals(&[]);
    let step = run
        .last
        .applied
        .iter()
        .find(|s| s.transition == "quick.db-scripts-only")
        .unwrap();
    assert!(
        step.reason
            .as_ref()
            .unwrap()
            .contains("touched no database")
    );
}

#[test]
fn an_authorization_is_declined_refused_and_approved_over_its_own_seal() {
    // v22: the integration of the session's units is the row that still asks a person.
    let mut run = Run::builtin(Flow::PlanExec, "031-x-plan-exec");
    run.walk_to("plan-exec.unit-integration");
    assert_eq!(run.at(), ("authorization", "plan-exec.unit-integration"));
    let j = Journey::builtin(Flow::PlanExec).unwrap();
    let row = j.find("plan-exec.unit-integration").unwrap();
    let seal = aw_core::flow::effects::approval_digest(&row.id, &row.effects());
    assert_eq!(
        seal,
        "da5cda501e4895163bd51320a202b086410427a8b3797b10bd5a06812040e119"
    );
    assert!(run.last.next_action.contains(&format!("--approval {seal}")));
    let before = decided(&run.state);
    run.send(json!({"choice": STOP_LABEL}), None);
    assert_eq!(run.code(), Some("FLOW_BOUNDARY_DECLINED"));
    assert_eq!(run.last.outcome.as_str(), "cancelled");
    assert_eq!(decided(&run.state), before);
    run.send(json!({}), None);
    assert_eq!(run.code(), Some("FLOW_APPROVAL_MISSING"));
    assert!(run.error().action.contains("--approval"));
    let mut mismatched = Run::from_state(j.clone(), run.state.clone());
    mismatched.send(json!({}), Some(&"0".repeat(64)));
    assert_eq!(mismatched.code(), Some("FLOW_APPROVAL_MISMATCH"));
    assert_eq!(decided(&mismatched.state), before);
    // The approval holds: the step resolves to its execution, with one grant over its seal.
    run.send(json!({}), Some(&seal));
    assert_eq!(run.code(), None);
    assert_eq!(run.at(), ("execution", "plan-exec.unit-integration"));
    let grant = run
        .state
        .authorizations
        .iter()
        .find(|g| g.digest == seal)
        .expect("a grant over the seal");
    assert_eq!(
        grant.classes,
        [EffectClass::Execute, EffectClass::MutateOverwrite]
    );
    assert_eq!(
        run.last.authorizations,
        [EffectClass::Execute, EffectClass::MutateOverwrite]
    );
}

#[test]
fn every_journey_reaches_final_answered_generically() {
    for flow in Flow::ALL {
        let mut run = Run::builtin(flow, &format!("041-x-{}", flow.as_str()));
        for _ in 0..40 {
            if run.at().0 == "final" {
                break;
            }
            run.generic();
            assert_eq!(run.code(), None, "{flow:?} at {:?}", run.at());
        }
        assert_eq!(run.at(), ("final", ""), "{flow:?}");
        // A finished run takes no answer and writes nothing.
        let before = run.state.clone();
        run.send(json!({}), None);
        assert_eq!(run.code(), Some("FLOW_ANSWER_NOT_EXPECTED"));
        assert_eq!(run.last.outcome.as_str(), "completed");
        assert_eq!(run.state, before);
    }
}

#[test]
fn spec_refine_tranche() {
    let mut run = Run::builtin(Flow::SpecRefine, "021-x-spec-refine");
    assert_eq!(run.at(), ("execution", "spec-refine.session"));
    assert_eq!(
        run.last.action.as_ref().unwrap().invocation.args[..],
        ["session-artifacts", "--code", "021-x-spec-refine"]
    );
    let mut r = run.result();
    r["validations"][0]["detail"] = json!("");
    run.send(r, None);
    assert_eq!(run.code(), Some("FLOW_EVIDENCE_MISSING"));
    run.walk_to("spec-refine.split-signal");
    assert_eq!(
        run.last.boundary.document.as_deref(),
        Some("guides/spec-refine.md")
    );
    run.walk_to("spec-refine.gap-recognition");
    let fork = run.state.clone();
    run.signals(&[]);
    assert_eq!(run.at().1, "spec-refine.content-authoring");
    assert!(
        run.state
            .skipped
            .contains(&"spec-refine.ideation-consent".to_owned())
    );
    let j = || Journey::builtin(Flow::SpecRefine).unwrap();
    let mut run = Run::from_state(j(), fork.clone());
    run.signals(&["spec.solution-space-unexplored"]);
    assert_eq!(run.at(), ("human", "spec-refine.ideation-consent"));
    let labels: Vec<_> = run.last.choices.iter().map(|c| &*c.label).collect();
    assert_eq!(
        labels,
        [
            "Explore ideas",
            "Go on without ideation",
            PAUSE_LABEL,
            STOP_LABEL
        ]
    );
    let mut run = Run::from_state(j(), fork);
    run.signals(&["spec.functional-ambiguity"]);
    assert_eq!(run.at(), ("semantic", "spec-refine.content-authoring"));
    run.signals(&[]);
    assert_eq!(run.at(), ("human", "spec-refine.functional-ambiguity"));
    assert!(
        run.state
            .skipped
            .contains(&"spec-refine.ideation-consent".to_owned())
    );
    run.walk_to("spec-refine.save-proposal");
    let at_proposal = run.state.clone();
    // The bytes of an existing spec: an overwrite, which a person must approve.
    let spec = "docs/specs/001-spec-x.md";
    run.facts.proposal.destinations.insert(
        spec.to_owned(),
        Seen::Present(aw_core::flow::proposal::base_digest("old\n"), None),
    );
    run.send(
        json!({"decisions": {"answer": "refined"}, "artifacts": [{"path": spec, "content": "# x\n"}]}),
        None,
    );
    assert_eq!(run.code(), None);
    assert_eq!(run.at(), ("human", "spec-refine.save-confirmation"));
    let p = run
        .last
        .proposal
        .clone()
        .expect("the preview at the deciding row");
    assert_eq!(p.preview.len(), 1);
    assert_eq!((p.preview[0].bytes, p.preview[0].overwrite), (4, true));
    assert_eq!(p.requires_approval, [EffectClass::MutateOverwrite]);
    assert!(run.last.next_action.contains("`proposal`"));
    let labels: Vec<_> = run
        .last
        .choices
        .iter()
        .map(|c| c.label.to_string())
        .collect();
    assert_eq!(labels[..2], ["Approve and save", "Refine"]);
    let refine_from = run.state.clone();
    run.choose("Approve and save");
    assert_eq!(run.code(), None);
    let grant = &run.state.authorizations[0];
    assert_eq!(grant.digest, p.digest);
    assert_eq!(grant.destinations, [spec]);
    assert_eq!(grant.classes, [EffectClass::MutateOverwrite]);
    // Without an executor the publication is an ordinary execution boundary, over the proposal.
    assert_eq!(run.at(), ("execution", "spec-refine.publication"));
    // Without the grant (a state whose approval was lost), the publication asks for one: the
    // `--approval` is the step's own digest, the grant is recorded over the proposal's.
    let mut ungranted = run.state.clone();
    ungranted.authorizations.clear();
    ungranted.boundary = Some("spec-refine.publication".into());
    let mut ask = Run::from_state(Journey::builtin(Flow::SpecRefine).unwrap(), ungranted);
    assert_eq!(ask.at(), ("authorization", "spec-refine.publication"));
    let step = aw_core::flow::effects::approval_digest(
        "spec-refine.publication",
        &[EffectClass::MutateOverwrite],
    );
    assert!(ask.last.next_action.contains(&format!("--approval {step}")));
    ask.send(json!({}), Some(&step));
    assert_eq!(ask.code(), None, "{:?}", ask.last.error);
    assert_eq!(ask.at(), ("execution", "spec-refine.publication"));
    assert_eq!(ask.state.authorizations[0].digest, p.digest);
    assert_eq!(
        run.last.proposal.as_ref().map(|v| &v.digest),
        Some(&p.digest)
    );
    run.execute();
    assert_eq!(run.code(), None);
    assert!(
        run.state.proposal.is_none(),
        "a publication clears the proposal"
    );
    // Refining instead unseats it: the publication is passed over, nothing written.
    let mut refine = Run::from_state(Journey::builtin(Flow::SpecRefine).unwrap(), refine_from);
    refine.choose("Refine");
    assert!(refine.state.proposal.is_none());
    let step = refine
        .last
        .applied
        .iter()
        .find(|s| s.transition == "spec-refine.publication")
        .expect("the publication passed over");
    assert!(
        step.reason
            .as_deref()
            .unwrap()
            .contains("nothing was written")
    );
    // An answer without its bytes spends nothing.
    let mut bare = Run::from_state(Journey::builtin(Flow::SpecRefine).unwrap(), at_proposal);
    bare.signals(&[]);
    assert_eq!(bare.code(), Some("FLOW_ARTIFACTS_MISSING"));
    assert!(!bare.wrote);
}

#[test]
fn plan_exec_tranche() {
    let j = || Journey::builtin(Flow::PlanExec).unwrap();
    let mut run = Run::builtin(Flow::PlanExec, "031-x-plan-exec");
    assert_eq!(run.at(), ("execution", "plan-exec.session"));
    let mut r = run.result();
    r["validations"][0]["detail"] = json!(" ");
    run.send(r, None);
    assert_eq!(run.code(), Some("FLOW_EVIDENCE_MISSING"));
    assert!(!run.state.applied.contains(&"plan-exec.session".to_owned()));
    run.walk_to("plan-exec.entry-gap-recognition");
    let gap = run.state.clone();
    run.signals(&[]);
    for t in [
        "plan-exec.entry-gap-severity",
        "plan-exec.normalization-consent",
    ] {
        assert!(run.state.skipped.contains(&t.to_owned()));
    }
    let mut minor = Run::from_state(j(), gap.clone());
    minor.signals(&["plan.entry-gap-minor"]);
    assert_eq!(minor.at(), ("human", "plan-exec.normalization-consent"));
    let labels: Vec<_> = minor.last.choices.iter().map(|c| &*c.label).collect();
    assert_eq!(
        labels,
        [
            "Normalise and execute",
            "Go to plan-refine",
            PAUSE_LABEL,
            STOP_LABEL
        ]
    );
    assert!(
        !minor
            .state
            .skipped
            .contains(&"plan-exec.entry-gap-severity".to_owned())
    );
    let mut structural = Run::from_state(j(), gap);
    structural.signals(&["plan.entry-gap-structural"]);
    assert!(
        !structural
            .state
            .skipped
            .contains(&"plan-exec.entry-gap-severity".to_owned())
    );
    assert!(
        structural
            .state
            .skipped
            .contains(&"plan-exec.normalization-consent".to_owned())
    );
    assert_eq!(structural.at().1, "plan-exec.batch-eligibility-signal");
    let batch = structural.state.clone();
    structural.signals(&[]);
    assert!(
        structural
            .state
            .skipped
            .contains(&"plan-exec.batch-isolation".to_owned())
    );
    let mut isolated = Run::from_state(j(), batch);
    isolated.signals(&["plan.recovery-boundary"]);
    assert!(
        isolated
            .state
            .applied
            .contains(&"plan-exec.batch-isolation".to_owned())
    );
    assert!(
        !isolated
            .state
            .skipped
            .contains(&"plan-exec.batch-isolation".to_owned())
    );
    isolated.walk_to("plan-exec.pending-effects");
    isolated.signals(&[
        "plan.tasks-to-mark",
        "plan.plan-closable",
        "plan.commit-pending",
    ]);
    // v22: custody covers the plan's own writes; an execution boundary straight away.
    assert_eq!(isolated.at(), ("execution", "plan-exec.task-marking"));
    assert!(
        !isolated
            .state
            .effects
            .applied
            .contains(&EffectClass::MutateOverwrite)
    );
    isolated.execute();
    assert!(
        isolated
            .state
            .effects
            .applied
            .contains(&EffectClass::MutateOverwrite)
    );
    isolated.walk_to("plan-exec.validation-execution");
    assert_eq!(isolated.at().0, "execution");
    let mut r = isolated.result();
    r["validations"][0]["passed"] = json!(false);
    r["effects"]["applied"] = json!([]);
    isolated.send(r, None);
    assert_eq!(isolated.code(), Some("FLOW_EVIDENCE_MISSING"));
    for t in [
        "plan-exec.validation-execution",
        "plan-exec.commit-enablement",
    ] {
        assert!(!isolated.state.applied.contains(&t.to_owned()));
    }
    assert_eq!(isolated.at().1, "plan-exec.validation-execution");
    isolated.walk_to("plan-exec.commit-authorization");
    let labels: Vec<_> = isolated.last.choices.iter().map(|c| &*c.label).collect();
    assert_eq!(
        labels,
        [
            "Approve the batch commits",
            "Leave the batch uncommitted",
            PAUSE_LABEL,
            STOP_LABEL
        ]
    );
    isolated.choose("Approve the batch commits");
    // The approval granted the commit's own seal: an execution boundary, no authorization.
    assert_eq!(isolated.at(), ("execution", "plan-exec.commit-execution"));
    let commit = j();
    let commit = commit.find("plan-exec.commit-execution").unwrap();
    let seal = aw_core::flow::effects::approval_digest(&commit.id, &commit.effects());
    assert!(
        isolated
            .state
            .authorizations
            .iter()
            .any(|g| g.digest == seal)
    );
    assert_eq!(
        isolated.last.action.as_ref().unwrap().invocation.args[..],
        ["worktree", "list", "--code", "031-x-plan-exec"]
    );
    isolated.execute();
    // The units are integrated before the plan is sealed done.
    assert_eq!(
        isolated.at(),
        ("authorization", "plan-exec.unit-integration")
    );
    isolated.approve();
    assert_eq!(isolated.at(), ("execution", "plan-exec.unit-integration"));
    isolated.execute();
    assert_eq!(isolated.at(), ("execution", "plan-exec.plan-done"));
}

#[test]
fn a_positioned_run_stops_at_normalization_consent() {
    let j = Journey::builtin(Flow::PlanExec).unwrap();
    let at = j
        .rows
        .iter()
        .position(|d| d.id == "plan-exec.normalization-consent")
        .unwrap();
    let mut s = RunState::new(Flow::PlanExec, "031-x-plan-exec");
    s.applied = j.rows[..at].iter().map(|d| d.id.to_string()).collect();
    s.observations = vec![Observation {
        transition: "plan-exec.entry-gap-recognition".into(),
        signals: vec!["plan.entry-gap-minor".into()],
    }];
    let mut run = Run::from_state(j, s);
    assert_eq!(run.at(), ("human", "plan-exec.normalization-consent"));
    let before = run.state.serialize();
    run.choose(STOP_LABEL);
    assert_eq!(run.code(), Some("FLOW_BOUNDARY_DECLINED"));
    assert_eq!(run.state.serialize(), before, "byte-identical, no attempt");
    run.choose("Normalize and execute");
    assert_eq!(run.code(), Some("FLOW_CHOICE_UNKNOWN"));
    assert!(run.error().action.contains("Normalise and execute"));
    run.choose("Normalise and execute");
    assert_eq!(run.code(), None);
    assert_eq!(
        run.last.applied[0].transition,
        "plan-exec.normalization-consent"
    );
}

/// Every execution directive of the five journeys, met declaring no signal and then every
/// signal (so the conditional steps are met too).
fn every_execution_directive() -> Vec<aw_core::flow::Directive> {
    let mut out = Vec::new();
    for flow in Flow::ALL {
        for every_signal in [false, true] {
            let mut run = Run::builtin(flow, &format!("041-x-{}", flow.as_str()));
            for _ in 0..60 {
                match run.at().0 {
                    "final" => break,
                    "execution" => out.push(run.last.clone()),
                    _ => {}
                }
                let vocabulary = run
                    .last
                    .request
                    .as_ref()
                    .map(|r| r.inventory.signals.clone())
                    .unwrap_or_default();
                if every_signal && run.at().0 == "semantic" && !vocabulary.is_empty() {
                    let all: Vec<&str> = vocabulary.iter().map(|s| &**s).collect();
                    run.signals(&all);
                } else {
                    run.generic();
                }
                assert_eq!(run.code(), None, "{flow:?} at {:?}", run.at());
            }
            assert_eq!(run.at().0, "final", "{flow:?}");
        }
    }
    out
}

/// Issue 20 (points 11 and 14): an execution directive says in English what each evidence id
/// means, and a reading that only dumps the session's files says which files, so the agent
/// writes there (a check run and ticked `- [x]`) what the output must show.
#[test]
fn execution_directives_say_what_each_evidence_id_means_and_where_to_write_it() {
    let directives = every_execution_directive();
    let mut dumps = 0;
    for d in &directives {
        let action = d.action.as_ref().unwrap();
        let t = d.boundary.transition.as_deref().unwrap();
        for id in action.evidence.iter() {
            let means = aw_core::flow::gloss::evidence(id).unwrap();
            let means = means.replace("<session>", &d.session);
            assert!(
                d.next_action.contains(&format!("`{id}` ({means})")),
                "{t}: {}",
                d.next_action
            );
        }
        let kinds = aw_core::flow::gloss::dumped(&action.invocation.args);
        for kind in &kinds {
            let prints = aw_core::flow::gloss::dump_kind(kind).unwrap();
            assert!(
                d.next_action.contains(&format!("`{kind}` is {prints}"))
                    && d.next_action.contains("write it there first"),
                "{t}: {}",
                d.next_action
            );
        }
        if kinds == ["objetivo"] {
            dumps += 1;
            // What the dump cannot show unless it was written: a check's result, ticked.
            assert!(
                d.next_action.contains("`SESSION.md`") && d.next_action.contains("`- [x]`"),
                "{t}: {}",
                d.next_action
            );
        }
    }
    // quick's convergence, spec's readiness, plan-new's coherence, plan-refine's
    // executability and plan-exec's validations, each met twice.
    assert_eq!(dumps, 10);
}

/// Issue 20 (point 10): `plan.propuesta-publicada` is checked against the disk. The answer
/// template sent as printed (no plan anywhere) is refused, and so is every file that is not a
/// published plan; only the plan written at the path the detail names applies the step.
#[test]
fn plan_new_adoption_applies_only_a_plan_the_disk_holds() {
    use aw_core::flow::plan_evidence::{EvidenceFacts, PLAN_PUBLISHED, PlanFile};
    let folder = "041-demo-plan-new";
    let mut run = Run::builtin(Flow::PlanNew, folder);
    run.walk_to("plan-new.save-confirmation");
    run.choose("Approve and save");
    // Answered as an external result (no executor here), the publication's evidence is the
    // plan on disk.
    assert_eq!(run.at(), ("execution", "plan-new.publication"));
    // The reviewer's walk: nothing claimed, nothing written, the template sent as printed.
    run.facts.evidence = EvidenceFacts::default();
    let next = run.last.next_action.clone();
    let at = next.find("{\"input_digest\"").unwrap();
    let template: serde_json::Value = serde_json::Deserializer::from_str(&next[at..])
        .into_iter()
        .next()
        .unwrap()
        .unwrap();
    assert_eq!(template["validations"][0]["id"], PLAN_PUBLISHED);
    run.send(template.clone(), None);
    assert_eq!(run.code(), Some("FLOW_EVIDENCE_MISSING"));
    assert!(
        run.error().message.contains("the template's placeholder"),
        "{}",
        run.error().message
    );
    assert_eq!(run.at(), ("execution", "plan-new.publication"));
    assert!(run.wrote, "the refusal spends an attempt");
    let action = &run.error().action;
    assert!(
        action.contains(&format!(
            "`aw next-number docs/plans --claim plan-<slug>.md --code {folder}`"
        )) && action.contains("`aw status --json`")
            && action.contains(PLAN_PUBLISHED),
        "{action}"
    );
    // The old placeholder, a bare folder, or another workspace's plan name no plan here.
    let path = "docs/plans/007-plan-demo.md";
    let with_detail = |detail: &str| {
        let mut r = template.clone();
        r["validations"][0]["detail"] = json!(detail);
        r
    };
    let plan = "# Plan 007 — demo\n\n> Status: open\n\n## Tasks\n\n### F1 — it works\n\
                > Status: pending\n- [ ] T1.1 — make it work\n";
    let cases: Vec<(&str, PlanFile, &str)> = vec![
        (
            "<what the output shows>",
            PlanFile::Absent,
            "names no plan file",
        ),
        (
            "written under docs/plans/",
            PlanFile::Absent,
            "names no plan file",
        ),
        (
            "/elsewhere/docs/plans/007-plan-demo.md",
            PlanFile::Absent,
            "names no plan file",
        ),
        (
            "docs/plans/notes.md",
            PlanFile::Absent,
            "not a plan's file name",
        ),
        (path, PlanFile::Absent, "does not exist"),
        (path, PlanFile::Linked, "symbolic link"),
        (path, PlanFile::NotRegular, "not a regular file"),
        (
            path,
            PlanFile::Text(format!("<!-- aw:reserva {folder} -->\n")),
            "bare reservation this session claimed",
        ),
        (
            path,
            PlanFile::Text("<!-- aw:reserva 040-other -->\n".into()),
            "reserved by session 040-other",
        ),
        (path, PlanFile::Text("\n  \n".into()), "no `# ` title"),
        (
            path,
            PlanFile::Text("# Plan 007 — demo\n\nto be written\n".into()),
            "no phase",
        ),
        (
            path,
            PlanFile::Text(plan.replace("> Status: open", "> Status: done")),
            "declared done",
        ),
    ];
    let mut fresh = Run::builtin(Flow::PlanNew, folder);
    fresh.walk_to("plan-new.save-confirmation");
    fresh.choose("Approve and save");
    for (detail, file, why) in cases {
        let mut run = Run::from_state(
            Journey::builtin(Flow::PlanNew).unwrap(),
            fresh.state.clone(),
        );
        run.facts.evidence = EvidenceFacts {
            root: "/w".into(),
            plans: vec![(path.into(), file.clone())],
        };
        let mut r = with_detail(detail);
        r["input_digest"] = json!(run.last.state_digest);
        run.send(r, None);
        assert_eq!(
            run.code(),
            Some("FLOW_EVIDENCE_MISSING"),
            "{detail} {file:?}"
        );
        assert!(
            run.error().message.contains(why),
            "{why}: {}",
            run.error().message
        );
        assert_eq!(run.at(), ("execution", "plan-new.publication"));
    }
    // Claimed, written, named (here as the absolute claimed_path): applied.
    run.facts.evidence = EvidenceFacts {
        root: "/w".into(),
        plans: vec![(path.into(), PlanFile::Text(plan.into()))],
    };
    let mut r = with_detail(&format!("/w/{path} listed by aw status with 1 phase"));
    r["input_digest"] = json!(run.last.state_digest);
    run.send(r, None);
    assert_eq!(run.code(), None, "{:?}", run.last.error);
    assert!(
        run.state
            .applied
            .contains(&"plan-new.publication".to_owned())
    );
    assert!(run.state.applied.contains(&"plan-new.adoption".to_owned()));
    assert_eq!(run.at().1, "chassis.finalize");
}

/// v22: plan-new claims the plan's number itself, with the slug of the session's folder, before
/// the plan is shaped; a folder with no slug cannot bind the claim.
#[test]
fn plan_new_claims_its_number_with_the_session_slug() {
    let mut run = Run::builtin(Flow::PlanNew, "041-demo-plan-new");
    run.walk_to("plan-new.numbering");
    assert_eq!(run.at(), ("execution", "plan-new.numbering"));
    let action = run.last.action.as_ref().unwrap();
    assert_eq!(
        action.invocation.args[..],
        [
            "next-number",
            "docs/plans",
            "--claim",
            "plan-demo.md",
            "--code",
            "041-demo-plan-new"
        ]
    );
    assert_eq!(action.evidence[..], ["plan.numero-reclamado"]);
    assert!(run.last.pending.contains(&"chassis.finalize".to_owned()));
    let mut bare = Run::builtin(Flow::PlanNew, "041-demo");
    while bare.at().0 != "blocked" {
        bare.generic();
    }
    assert_eq!(bare.at(), ("blocked", "plan-new.numbering"));
    assert_eq!(bare.code(), Some("FLOW_ACTION_UNBOUND"));
    assert!(bare.error().action.contains("-plan-new"));
}

/// flow-degradation: a scope naming an alias the workspace does not declare spends an attempt
/// each time; three exhaust the boundary with no scope fixed, and the next advance degrades it
/// (a judgment, not a delegated step) and the run goes on to final naming it.
#[test]
fn an_exhausted_scope_is_degraded_and_the_run_goes_on() {
    let mut run = Run::builtin(Flow::PlanExec, "031-x-plan-exec");
    run.walk_to("plan-exec.source-scope");
    run.facts.scope.plan_text = Some(common::PLAN_TEXT.to_owned());
    for i in 0..3 {
        run.send(
            json!({"decisions": {"sources": ["ghost"], "plan": common::PLAN_PATH}}),
            None,
        );
        let code = if i < 2 {
            "FLOW_SCOPE_UNKNOWN_SOURCE"
        } else {
            "FLOW_BOUNDARY_EXHAUSTED"
        };
        assert_eq!(run.code(), Some(code), "try {i}");
    }
    assert!(run.state.scope.is_none());
    assert_eq!(run.state.attempts_at("plan-exec.source-scope"), 3);
    run.advance();
    assert!(
        run.state
            .skipped
            .contains(&"plan-exec.source-scope".to_owned())
    );
    let degraded = run.state.degradations();
    assert_eq!(degraded.len(), 1);
    assert_eq!(degraded[0].transition, "plan-exec.source-scope");
    assert!(degraded[0].cause.contains("used up its 3 attempts"));
    assert_eq!(
        run.last.degradations[0].transition,
        "plan-exec.source-scope"
    );
}

/// A run that finishes after degrading a step says so in its last `next_action`.
#[test]
fn a_finished_run_names_what_it_degraded() {
    let mut run = quick();
    for _ in 0..3 {
        run.signals(&["quick.made-up"]);
    }
    assert_eq!(run.code(), Some("FLOW_BOUNDARY_EXHAUSTED"));
    run.advance();
    for _ in 0..40 {
        if run.at().0 == "final" {
            break;
        }
        run.generic();
    }
    assert_eq!(run.at(), ("final", ""));
    let next = &run.last.next_action;
    assert!(
        next.contains("degraded: quick.entry-gate-signal") && next.contains("Open questions"),
        "{next}"
    );
}
