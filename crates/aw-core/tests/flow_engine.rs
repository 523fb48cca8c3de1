//! The engine over hand-built journeys: the walk, human and semantic boundaries, effects and
//! authorization, execution boundaries, ownership, the docs boundary and the flow-control
//! choices (flow-advance, flow-effects, flow-execution-boundary, flow-human-boundary,
//! flow-ownership, flow-tramo-chassis suites).

use crate::common::{Run, action, decided, row};
use aw_core::flow::boundary::{action_digest, resolve};
use aw_core::flow::effects::{approval_digest, authorize_transition};
use aw_core::flow::human::render;
use aw_core::flow::run::advance;
use aw_core::flow::{EffectClass, Flow, Journey, RunState};
use aw_core::vocab::flow::{PAUSE_LABEL, STOP_LABEL};
use serde_json::json;

const F: &str = "044-fixture-quick";

fn three_cli_then_agent() -> Vec<aw_core::flow::Decision> {
    vec![
        row("fixture.a", json!({})),
        row("fixture.b", json!({})),
        row("fixture.c", json!({})),
        row(
            "fixture.ask",
            json!({"authority": "agent", "signals": ["fixture.s1", "fixture.s2"]}),
        ),
    ]
}

#[test]
fn one_advance_applies_the_cli_steps_and_stops_at_the_semantic_one() {
    let rows = three_cli_then_agent();
    let run = Run::start(Journey::fixture(Flow::Quick, &rows, &[]), F);
    let d = &run.last;
    let trace: Vec<_> = d.applied.iter().map(|s| s.transition.as_str()).collect();
    assert_eq!(trace, ["fixture.a", "fixture.b", "fixture.c"]);
    for s in &d.applied {
        let v = serde_json::to_value(s).unwrap();
        assert_eq!(v["authority"], "cli");
        assert_eq!(v["ownership"], "cli-owned");
        assert_eq!(v["outcome"], "applied");
        assert_eq!(v["reason"], serde_json::Value::Null);
    }
    assert_eq!(d.outcome.as_str(), "needs_input");
    assert_eq!(d.pending, ["fixture.ask"]);
    assert_eq!(run.state.applied, ["fixture.a", "fixture.b", "fixture.c"]);
    assert_eq!(run.state.boundary.as_deref(), Some("fixture.ask"));
    let r = d.request.as_ref().unwrap();
    assert_eq!(r.operation, "flow.fixture.ask");
    assert!(r.contract.contains("The CLI validates the answer"));
    assert_eq!(r.input_digest.len(), 64);
    assert_eq!(r.read_set, ["loops/FIXTURE.md"]);
    assert!(r.allowed_destinations.is_empty());
    for cli in ["fixture.a", "fixture.b", "fixture.c"] {
        assert!(!d.pending.iter().any(|p| p == cli));
    }
}

#[test]
fn a_second_advance_applies_nothing_and_repeats_the_directive() {
    let rows = three_cli_then_agent();
    let mut run = Run::start(Journey::fixture(Flow::Quick, &rows, &[]), F);
    let first = run.last.clone();
    let before = run.state.serialize();
    let second = run.advance().clone();
    assert!(second.applied.is_empty());
    assert_eq!(second.boundary, first.boundary);
    assert_eq!(second.state_digest, first.state_digest);
    assert_eq!(
        run.state.serialize(),
        before,
        "nothing changed, nothing to write"
    );
}

#[test]
fn a_human_row_stops_with_its_choices() {
    let rows = vec![
        row("fixture.cli", json!({})),
        row("fixture.person", json!({"authority": "human"})),
    ];
    let run = Run::start(Journey::fixture(Flow::PlanExec, &rows, &[]), F);
    let d = &run.last;
    assert_eq!(run.at(), ("human", "fixture.person"));
    assert_eq!(d.applied.len(), 1);
    assert_eq!(d.pending, ["fixture.person"]);
    assert!(d.request.is_none());
    assert!(d.choices.len() >= 2);
    assert_eq!(d.choices.iter().filter(|c| c.recommended).count(), 1);
    assert!(d.choices[0].recommended);
    assert!(d.choices.iter().all(|c| !c.consequence.trim().is_empty()));
    let labels: Vec<_> = d.choices.iter().map(|c| &*c.label).collect();
    assert_eq!(labels[labels.len() - 2..], [PAUSE_LABEL, STOP_LABEL]);
    assert!(!d.choices[labels.len() - 1].recommended && !d.choices[labels.len() - 2].recommended);
    let pause = &d.choices[labels.len() - 2].consequence;
    assert!(pause.contains("CHECKPOINT"));
    assert_ne!(pause, &d.choices[labels.len() - 1].consequence);
    let text = render(d);
    assert!(
        !text.contains("loops/FIXTURE.md"),
        "the document is never a rule to apply"
    );
}

#[test]
fn a_journey_of_cli_rows_ends_final() {
    let rows = vec![row("fixture.a", json!({})), row("fixture.b", json!({}))];
    let run = Run::start(Journey::fixture(Flow::Quick, &rows, &[]), F);
    assert_eq!(run.at(), ("final", ""));
    assert!(run.last.pending.is_empty());
    assert_eq!(run.last.outcome.as_str(), "completed");
    assert_eq!(run.state.boundary, None);
    assert!(!run.last.next_action.is_empty());
}

#[test]
fn a_state_off_the_journey_is_refused() {
    let rows = three_cli_then_agent();
    let j = Journey::fixture(Flow::Quick, &rows, &[]);
    let mut s = RunState::new(Flow::Quick, F);
    s.applied = vec!["fixture.b".into()];
    assert_eq!(
        advance(s, &j).unwrap_err().code,
        "FLOW_RUN_AHEAD_OF_JOURNEY"
    );
    let mut s = RunState::new(Flow::Quick, F);
    s.applied = vec!["fixture.a".into()];
    s.boundary = Some("fixture.c".into());
    assert_eq!(
        advance(s, &j).unwrap_err().code,
        "FLOW_RUN_AHEAD_OF_JOURNEY"
    );
}

#[test]
fn live_plan_exec_rows_stop_at_their_first_execution() {
    let reg = aw_core::flow::Registry::get();
    let rows: Vec<_> = reg.of_scope("plan-exec").cloned().collect();
    let run = Run::start(Journey::fixture(Flow::PlanExec, &rows, &["docs/plans"]), F);
    assert!(run.last.applied.is_empty());
    assert_eq!(run.at(), ("execution", "plan-exec.session"));
    assert_eq!(
        run.last.boundary.document.as_deref(),
        Some(&*rows[0].document)
    );
    assert_eq!(run.last.action.as_ref().unwrap().invocation.program, "aw");
}

// ---- effects -------------------------------------------------------------------------------

/// A grant over a row's approval digest.
fn grant(id: &str, classes: &[EffectClass]) -> aw_core::flow::state::Grant {
    aw_core::flow::state::Grant {
        digest: approval_digest(id, classes),
        destinations: Vec::new(),
        classes: classes.to_vec(),
    }
}

#[test]
fn authorization_per_transition() {
    let plain = row("fixture.plain", json!({}));
    assert_eq!(plain.effects(), [EffectClass::ReadOnly]);
    for c in ["read_only", "local_additive"] {
        let r = row("fixture.x", json!({"effects": [c]}));
        let a = authorize_transition(&r, &[], None);
        assert!(a.missing.is_empty());
        assert_eq!(a.covered, [EffectClass::parse(c).unwrap()]);
    }
    for c in [
        "mutate_overwrite",
        "execute",
        "network_external",
        "destructive",
    ] {
        let r = row("fixture.x", json!({"effects": [c]}));
        assert_eq!(
            authorize_transition(&r, &[], None).missing,
            [EffectClass::parse(c).unwrap()]
        );
    }
    // A grant covers its own seal only: the same class at another transition stays missing.
    let granted = [grant("fixture.x", &[EffectClass::MutateOverwrite])];
    for c in ["execute", "destructive"] {
        let r = row("fixture.y", json!({"effects": [c]}));
        assert_eq!(authorize_transition(&r, &granted, None).missing.len(), 1);
    }
    let r = row("fixture.x", json!({"effects": ["mutate_overwrite"]}));
    assert!(authorize_transition(&r, &granted, None).missing.is_empty());
    let w = row("fixture.w", json!({"effects": ["mutate_overwrite"]}));
    assert_eq!(
        authorize_transition(&w, &granted, None).missing,
        [EffectClass::MutateOverwrite]
    );
    assert_ne!(
        approval_digest("a", &[EffectClass::Execute]),
        approval_digest("b", &[EffectClass::Execute])
    );
}

#[test]
fn self_authorizable_rows_apply_and_are_recorded() {
    let rows = vec![
        row("fixture.add", json!({"effects": ["local_additive"]})),
        row("fixture.read", json!({})),
    ];
    let run = Run::start(Journey::fixture(Flow::Quick, &rows, &[]), F);
    assert_eq!(run.at(), ("final", ""));
    let e = &run.state.effects;
    assert_eq!(
        e.planned,
        [EffectClass::LocalAdditive, EffectClass::ReadOnly]
    );
    assert_eq!(e.applied, e.planned);
    assert!(e.approved.is_empty());
}

#[test]
fn an_overwrite_asks_for_authorization_then_applies_once_granted() {
    let rows = vec![
        row("fixture.read", json!({})),
        row("fixture.write", json!({"effects": ["mutate_overwrite"]})),
        row("fixture.after", json!({})),
    ];
    let j = Journey::fixture(Flow::Quick, &rows, &[]);
    let run = Run::start(j.clone(), F);
    assert_eq!(run.at(), ("authorization", "fixture.write"));
    assert_eq!(run.last.applied.len(), 1);
    assert!(
        run.last
            .effects
            .planned
            .contains(&EffectClass::MutateOverwrite)
    );
    assert!(
        !run.last
            .effects
            .applied
            .contains(&EffectClass::MutateOverwrite)
    );
    assert!(
        !run.state
            .effects
            .planned
            .contains(&EffectClass::MutateOverwrite)
    );
    assert_eq!(run.last.pending, ["fixture.write", "fixture.after"]);
    assert!(
        run.last
            .choices
            .iter()
            .any(|c| c.consequence.contains("mutate_overwrite"))
    );
    let stop = run.last.choices.last().unwrap();
    assert_eq!(stop.label, STOP_LABEL);
    assert!(stop.consequence.contains("mutate_overwrite"));
    let digest = approval_digest("fixture.write", &[EffectClass::MutateOverwrite]);
    assert!(
        run.last
            .next_action
            .contains(&format!("--approval {digest}"))
    );
    // Already granted: applied straight away.
    let mut s = RunState::new(Flow::Quick, F);
    s.authorizations = vec![grant("fixture.write", &[EffectClass::MutateOverwrite])];
    let run = Run::from_state(j, s);
    assert_eq!(run.at(), ("final", ""));
    // Approving a non-delegated row applies it at once.
    let mut run = Run::start(Journey::fixture(Flow::Quick, &rows, &[]), F);
    run.approve();
    assert_eq!(run.code(), None);
    assert_eq!(run.at(), ("final", ""));
    assert_eq!(
        run.state.authorizations,
        [grant("fixture.write", &[EffectClass::MutateOverwrite])]
    );
}

// ---- execution boundaries ------------------------------------------------------------------

fn execution_fixture() -> Vec<aw_core::flow::Decision> {
    vec![
        row(
            "fixture.observe",
            json!({"authority": "agent", "signals": ["fixture.senal-a", "fixture.senal-b"]}),
        ),
        row(
            "fixture.seed",
            json!({
                "effects": ["local_additive"],
                "action": action("aw", &["session-create", "--type", "quick", "--name", "prueba"], ".workflow/sessions", &["sesion-creada"]),
            }),
        ),
        row("fixture.after-seed", json!({})),
        row(
            "fixture.validate",
            json!({
                "effects": ["execute"],
                "action": action("npm", &["test"], ".", &["suite"]),
            }),
        ),
    ]
}

fn at_seed(rows: &[aw_core::flow::Decision]) -> Run<'_> {
    let mut run = Run::start(Journey::fixture(Flow::Quick, rows, &[]), F);
    run.signals(&["fixture.senal-a"]);
    run
}

#[test]
fn nothing_is_credited_without_a_result() {
    let rows = execution_fixture();
    let run = at_seed(&rows);
    assert_eq!(run.at(), ("execution", "fixture.seed"));
    let a = run.last.action.as_ref().unwrap();
    assert_eq!(a.invocation.program, "aw");
    assert!(a.invocation.args.iter().any(|a| a == "session-create"));
    assert_eq!(a.evidence[..], ["sesion-creada"]);
    assert!(!a.recovery.is_empty());
    assert!(
        run.last
            .next_action
            .contains("aw session-create --type quick --name prueba")
    );
    assert!(run.last.next_action.contains("sesion-creada"));
    assert_eq!(run.state.applied, ["fixture.observe"]);
    assert!(
        !run.state
            .effects
            .applied
            .contains(&EffectClass::LocalAdditive)
    );
    assert!(run.last.pending.contains(&"fixture.seed".to_owned()));
    let p = run.state.pending_action.as_ref().unwrap();
    assert_eq!(p.transition, "fixture.seed");
    assert_eq!(p.digest, action_digest(a));
    assert_eq!(run.state.observations.len(), 1);
    assert_eq!(run.state.observations[0].transition, "fixture.observe");
    assert_eq!(run.state.observations[0].signals, ["fixture.senal-a"]);
    let text = render(&run.last);
    for needle in [
        "aw session-create --type quick --name prueba",
        ".workflow/sessions",
        "sesion-creada",
        &a.recovery,
    ] {
        assert!(text.contains(needle), "{needle}");
    }
}

#[test]
fn refused_results_change_nothing_decided() {
    let rows = execution_fixture();
    type Tweak = fn(&mut serde_json::Value);
    let cases: Vec<(&str, Tweak)> = vec![
        (
            "FLOW_RESULT_INVALID",
            |r| *r = json!({"input_digest": r["input_digest"], "confirmed": true}),
        ),
        ("FLOW_RESULT_INVALID", |r| {
            r.as_object_mut().unwrap().remove("invocation");
        }),
        ("FLOW_ACTION_MISMATCH", |r| {
            r["invocation"]["args"][4] = json!("otra")
        }),
        ("FLOW_EXECUTION_NOT_COMPLETED", |r| {
            r["outcome"] = json!("failed")
        }),
        ("FLOW_EVIDENCE_MISSING", |r| r["validations"] = json!([])),
        ("FLOW_EVIDENCE_MISSING", |r| {
            r["validations"][0]["passed"] = json!(false)
        }),
        ("FLOW_EVIDENCE_MISSING", |r| {
            r["validations"][0]["detail"] = json!("  ")
        }),
        ("FLOW_EVIDENCE_MISSING", |r| {
            r["validations"][0]["id"] = json!("otra-cosa")
        }),
        ("FLOW_ANSWER_STALE", |r| {
            r["input_digest"] = json!("0".repeat(64))
        }),
        ("FLOW_EFFECT_PARTIAL", |r| {
            r["effects"]["applied"] = json!(["read_only"])
        }),
        ("FLOW_EFFECT_PARTIAL", |r| {
            r["output"] = json!({"completeness": "partial"})
        }),
    ];
    for (code, tweak) in cases {
        let mut run = at_seed(&rows);
        let before = decided(&run.state);
        // Only an evaluated answer spends an attempt: a stale or malformed one does not.
        let spent = run.state.attempts.len()
            + usize::from(!["FLOW_ANSWER_STALE", "FLOW_RESULT_INVALID"].contains(&code));
        let mut r = run.result();
        tweak(&mut r);
        run.send(r, None);
        assert_eq!(run.code(), Some(code), "{:?}", run.last.error);
        assert_eq!(run.at(), ("execution", "fixture.seed"));
        assert_eq!(decided(&run.state), before, "{code}");
        assert_eq!(
            run.state.attempts.len(),
            spent,
            "{code}: a refusal spends one attempt"
        );
        let e = run.error();
        match code {
            "FLOW_RESULT_INVALID" if e.message.contains("invocation") => {}
            "FLOW_ACTION_MISMATCH" => assert!(
                e.action
                    .contains("aw session-create --type quick --name prueba")
            ),
            "FLOW_EXECUTION_NOT_COMPLETED" => {
                assert_eq!(run.last.outcome.as_str(), "failed");
                assert!(run.last.next_action.contains("run it again"));
            }
            "FLOW_EVIDENCE_MISSING" => assert!(e.message.contains("sesion-creada")),
            "FLOW_EFFECT_PARTIAL" => {
                assert!(run.last.next_action.to_lowercase().contains("run it again"))
            }
            _ => {}
        }
    }
}

#[test]
fn a_complete_result_applies_and_a_resend_is_refused() {
    let rows = execution_fixture();
    let mut run = at_seed(&rows);
    let r = run.result();
    run.send(r.clone(), None);
    assert_eq!(run.code(), None);
    let trace: Vec<_> = run
        .last
        .applied
        .iter()
        .map(|s| s.transition.as_str())
        .collect();
    assert_eq!(trace, ["fixture.seed", "fixture.after-seed"]);
    assert_eq!(
        run.state.applied,
        ["fixture.observe", "fixture.seed", "fixture.after-seed"]
    );
    assert!(
        run.state
            .effects
            .applied
            .contains(&EffectClass::LocalAdditive)
    );
    assert_eq!(run.state.pending_action, None);
    // Authorization and execution are two distinct acts.
    assert_eq!(run.at(), ("authorization", "fixture.validate"));
    assert!(run.last.action.is_none());
    let digest = {
        let na = &run.last.next_action;
        let at = na.find("--approval ").unwrap() + 11;
        na[at..at + 64].to_owned()
    };
    let before = run.state.clone();
    run.send(r, None);
    assert_eq!(run.code(), Some("FLOW_ANSWER_RESENT"));
    assert_eq!(run.last.outcome.as_str(), "completed");
    assert!(!run.wrote);
    assert_eq!(run.state, before);
    run.advance();
    run.send(json!({}), Some(&digest));
    assert_eq!(run.code(), None);
    assert_eq!(run.at(), ("execution", "fixture.validate"));
    assert!(run.last.applied.is_empty());
    assert_eq!(run.last.action.as_ref().unwrap().invocation.program, "npm");
    assert!(
        run.state
            .authorizations
            .iter()
            .any(|g| g.digest == digest && g.classes.contains(&EffectClass::Execute))
    );
    assert!(!run.state.effects.applied.contains(&EffectClass::Execute));
    assert!(!run.state.applied.contains(&"fixture.validate".to_owned()));
    assert_eq!(
        run.state.pending_action.as_ref().unwrap().transition,
        "fixture.validate"
    );
    run.execute();
    assert_eq!(run.code(), None);
    assert_eq!(run.at(), ("final", ""));
    assert_eq!(run.last.outcome.as_str(), "completed");
    assert!(run.last.pending.is_empty());
    assert!(run.state.effects.applied.contains(&EffectClass::Execute));
    assert_eq!(run.state.pending_action, None);
}

#[test]
fn a_changed_action_is_refused_without_writing() {
    let rows = execution_fixture();
    let mut run = at_seed(&rows);
    let r = run.result();
    run.state.pending_action.as_mut().unwrap().digest = "0".repeat(64);
    let before = run.state.clone();
    run.send(r, None);
    assert_eq!(run.code(), Some("FLOW_ACTION_CHANGED"));
    assert!(run.error().action.contains("aw flow advance"));
    assert!(!run.wrote);
    assert_eq!(run.state, before);
}

#[test]
fn the_action_travels_sealed() {
    let base = action("aw", &["status", "--json"], ".", &["ev"]);
    let seal_of = |a: serde_json::Value| {
        let rows = vec![row("fixture.only", json!({"action": a}))];
        let j = Journey::fixture(Flow::Quick, &rows, &[]);
        let s = RunState::new(Flow::Quick, F);
        let r = resolve(&s, &j);
        (r.seal, action_digest(r.emitted.as_ref().unwrap()))
    };
    let original = seal_of(base.clone());
    assert_eq!(seal_of(base.clone()), original);
    let mut changes = Vec::new();
    let mut a = base.clone();
    a["invocation"]["program"] = json!("npx");
    changes.push(a);
    let mut a = base.clone();
    a["invocation"]["args"][1] = json!("--verbose");
    changes.push(a);
    let mut a = base.clone();
    a["invocation"]["target"] = json!("src");
    changes.push(a);
    let mut a = base.clone();
    a["invocation"]["input"] = json!("text");
    changes.push(a);
    let mut a = base.clone();
    a["evidence"] = json!(["other"]);
    changes.push(a);
    for changed in changes {
        let (seal, digest) = seal_of(changed);
        assert_ne!(seal, original.0);
        assert_ne!(digest, original.1);
    }
}

// ---- ownership -----------------------------------------------------------------------------

#[test]
fn an_unowned_transition_blocks() {
    let rows = vec![
        row("fixture.migrada", json!({})),
        row("fixture.sin-propiedad", json!({"ownership": "doctrine"})),
    ];
    let run = Run::start(Journey::fixture(Flow::Quick, &rows, &[]), F);
    assert_eq!(run.at(), ("blocked", "fixture.sin-propiedad"));
    assert_eq!(run.last.applied.len(), 1);
    assert_eq!(run.last.applied[0].transition, "fixture.migrada");
    assert!(run.last.request.is_none() && run.last.choices.is_empty());
    assert_eq!(run.last.pending, ["fixture.sin-propiedad"]);
    assert_eq!(
        run.last.outcome.as_str(),
        "blocked",
        "a blocked boundary reports blocked"
    );
    let e = run.error();
    assert_eq!(e.code, "FLOW_TRANSITION_UNOWNED");
    assert!(e.message.contains("fixture.sin-propiedad"));
    assert!(e.action.contains("not a fallback"));
    let text = render(&run.last);
    assert!(text.contains("fixture.migrada (cli · cli-owned)"));
    assert!(text.contains("stopped at fixture.sin-propiedad"));
    assert!(!text.contains("loops/FIXTURE.md"));
    // No answer advances it.
    let mut run = run;
    run.send(json!({"fallback": true}), None);
    assert_eq!(run.code(), Some("FLOW_TRANSITION_UNOWNED"));
    assert!(
        run.last
            .next_action
            .contains("A blocked boundary takes no answer")
    );
}

#[test]
fn ownership_comes_before_the_effect_gate() {
    let owned = vec![row("fixture.w", json!({"effects": ["mutate_overwrite"]}))];
    let run = Run::start(Journey::fixture(Flow::Quick, &owned, &[]), F);
    assert_eq!(run.at(), ("authorization", "fixture.w"));
    assert!(run.last.applied.is_empty());
    let unowned = vec![row(
        "fixture.w",
        json!({"effects": ["mutate_overwrite"], "ownership": "doctrine"}),
    )];
    let run = Run::start(Journey::fixture(Flow::Quick, &unowned, &[]), F);
    assert_eq!(run.at(), ("blocked", "fixture.w"));
    assert_eq!(run.code(), Some("FLOW_TRANSITION_UNOWNED"));
    assert!(run.last.choices.is_empty());
    let mut s = RunState::new(Flow::Quick, F);
    s.authorizations = vec![grant("fixture.w", &[EffectClass::MutateOverwrite])];
    let run = Run::from_state(Journey::fixture(Flow::Quick, &unowned, &[]), s);
    assert_eq!(run.code(), Some("FLOW_TRANSITION_UNOWNED"));
    assert!(run.state.applied.is_empty());
}

// ---- the docs boundary and placeholders ----------------------------------------------------

#[test]
fn a_delegated_row_writing_outside_its_docs_is_blocked() {
    let rows = vec![row(
        "fixture.manual",
        json!({
            "action": action("aw", &["export-manuals"], "docs/manuals", &["ev"]),
        }),
    )];
    let run = Run::start(Journey::fixture(Flow::Quick, &rows, &[]), F);
    assert_eq!(run.at(), ("blocked", "fixture.manual"));
    let e = run.error();
    assert_eq!(e.code, "FLOW_DOCS_BOUNDARY_CROSSED");
    assert!(e.message.contains("docs/manuals"));
    assert!(e.action.contains("export-*"));
    assert!(run.last.action.is_none());
    assert!(run.state.applied.is_empty());
}

#[test]
fn a_placeholder_typo_is_blocked() {
    let rows = vec![row(
        "fixture.typo",
        json!({
            "action": action("aw", &["session-artifacts", "--code", "{sesion}"], ".", &["ev"]),
        }),
    )];
    let run = Run::start(Journey::fixture(Flow::Quick, &rows, &[]), F);
    assert_eq!(run.code(), Some("FLOW_ACTION_UNBOUND"));
    assert!(run.error().message.contains("{sesion}"));
}

// ---- semantic answers ----------------------------------------------------------------------

#[test]
fn semantic_answers_enter_as_data() {
    let rows = three_cli_then_agent();
    let mut run = Run::start(Journey::fixture(Flow::Quick, &rows, &[]), F);
    let fresh = run.clone_state();
    run.signals(&["fixture.zz"]);
    assert_eq!(run.code(), Some("FLOW_SIGNAL_UNKNOWN"));
    assert!(run.error().action.contains("fixture.s1, fixture.s2"));
    let mut run = Run::from_state(Journey::fixture(Flow::Quick, &rows, &[]), fresh.clone());
    run.signals(&["fixture.s1", "fixture.s1"]);
    assert_eq!(run.code(), Some("FLOW_ANSWER_INVALID"));
    let mut run = Run::from_state(Journey::fixture(Flow::Quick, &rows, &[]), fresh.clone());
    run.signals(&[]);
    assert_eq!(run.code(), None, "a decisions-only answer is valid");
    assert!(
        run.state.observations.is_empty(),
        "decisions are not persisted"
    );
    let mut run = Run::from_state(Journey::fixture(Flow::Quick, &rows, &[]), fresh);
    run.signals(&["fixture.s1", "fixture.s2"]);
    assert_eq!(run.code(), None);
    assert_eq!(
        run.state.observations[0].signals,
        ["fixture.s1", "fixture.s2"]
    );
}

trait CloneState {
    fn clone_state(&self) -> RunState;
}

impl CloneState for Run<'_> {
    fn clone_state(&self) -> RunState {
        // The state as it stood before the last advance's walk: re-advancing it is a no-op.
        self.state.clone()
    }
}
