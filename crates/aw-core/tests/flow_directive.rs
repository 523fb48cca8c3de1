//! The directive's shape, its closed key set, the ten construction checks and the human
//! projection (flow-directive suite).

use crate::common::{Run, action, row};
use aw_core::flow::checks::check;
use aw_core::flow::directive::{DIRECTIVE_KEYS, Directive, ErrorView, Step};
use aw_core::flow::human::render;
use aw_core::flow::registry::Choice;
use aw_core::flow::{EffectClass, Flow, Journey};
use aw_core::vocab::flow::{BoundaryKind, Outcome, StepOutcome};
use serde_json::json;

fn semantic() -> Directive {
    let rows = vec![row("fixture.ask", json!({"authority": "agent"}))];
    Run::start(Journey::fixture(Flow::Quick, &rows, &[]), "001-x").last
}

fn human() -> Directive {
    let rows = vec![row("fixture.person", json!({"authority": "human"}))];
    Run::start(Journey::fixture(Flow::Quick, &rows, &[]), "001-x").last
}

fn execution() -> Directive {
    let rows = vec![row(
        "fixture.seed",
        json!({"action": action("aw", &["session-create"], ".", &["sesion-creada"])}),
    )];
    Run::start(Journey::fixture(Flow::Quick, &rows, &[]), "001-x").last
}

fn code(d: &Directive) -> &'static str {
    let e = check(d).unwrap_err();
    assert!(!e.message.is_empty() && !e.action.is_empty());
    e.code.as_str()
}

#[test]
fn the_valid_shapes_build() {
    let d = semantic();
    assert!(check(&d).is_ok());
    assert_eq!(d.tranche.as_str(), "quick");
    assert_eq!(d.boundary.ownership.as_deref(), Some("cli-owned"));
    let v = serde_json::to_value(&d).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, DIRECTIVE_KEYS);
    assert!(!keys.contains(&"input_digest"));
    assert!(keys.contains(&"state_digest"));
    assert!(v["request"].get("input_digest").is_some());
    for k in ["host", "harness", "surface", "presentation"] {
        assert!(!keys.contains(&k));
    }
    let text = render(&d);
    assert!(
        text.contains("fixture.ask")
            && text.contains(&d.next_action)
            && text.contains(&d.state_digest)
    );
    let rows = vec![row("fixture.a", json!({}))];
    let fin = Run::start(Journey::fixture(Flow::Quick, &rows, &[]), "001-x").last;
    assert!(check(&fin).is_ok());
    assert_eq!(fin.boundary.kind, BoundaryKind::Final);
    let ex = execution();
    assert!(ex.request.is_none() && ex.choices.is_empty());
    assert_eq!(ex.action.as_ref().unwrap().evidence[..], ["sesion-creada"]);
    let text = render(&ex);
    for needle in [
        "aw session-create",
        "in: .",
        "sesion-creada",
        &ex.action.as_ref().unwrap().recovery,
    ] {
        assert!(text.contains(needle), "{needle}");
    }
    let h = human();
    assert!(h.boundary.document.is_some());
    assert!(!render(&h).contains("loops/FIXTURE.md"));
}

#[test]
fn vocabularies_keep_the_reference_order() {
    let kinds: Vec<_> = BoundaryKind::ALL.iter().map(|k| k.as_str()).collect();
    assert_eq!(
        kinds,
        [
            "semantic",
            "human",
            "authorization",
            "execution",
            "blocked",
            "final"
        ]
    );
    let flows: Vec<_> = Flow::ALL.iter().map(|f| f.as_str()).collect();
    assert_eq!(
        flows,
        [
            "spec-refine",
            "plan-new",
            "plan-refine",
            "plan-exec",
            "quick"
        ]
    );
    let outcomes: Vec<_> = Outcome::ALL.iter().map(|o| o.as_str()).collect();
    assert_eq!(
        outcomes,
        ["completed", "needs_input", "blocked", "failed", "cancelled"]
    );
    let classes: Vec<_> = EffectClass::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(
        classes,
        [
            "read_only",
            "local_additive",
            "mutate_overwrite",
            "execute",
            "network_external",
            "destructive"
        ]
    );
    assert_eq!(
        serde_json::to_value(StepOutcome::Skipped).unwrap(),
        "skipped"
    );
    assert!(!BoundaryKind::ALL.iter().any(|k| k.as_str() == "legacy"));
}

#[test]
fn every_lying_combination_is_refused() {
    let mut d = semantic();
    d.next_action = "  ".into();
    assert_eq!(code(&d), "FLOW_DIRECTIVE_NO_NEXT_ACTION");

    let rows = vec![row("fixture.a", json!({}))];
    let fin = Run::start(Journey::fixture(Flow::Quick, &rows, &[]), "001-x").last;
    let mut d = fin.clone();
    d.pending = vec!["x".into()];
    assert_eq!(code(&d), "FLOW_DIRECTIVE_FINAL_WITH_PENDING");
    let mut d = fin.clone();
    d.boundary.transition = Some("x".into());
    assert_eq!(code(&d), "FLOW_DIRECTIVE_FINAL_WITH_TRANSITION");
    let mut d = semantic();
    d.boundary.transition = None;
    assert_eq!(code(&d), "FLOW_DIRECTIVE_BOUNDARY_WITHOUT_TRANSITION");
    let mut d = semantic();
    d.request = None;
    assert_eq!(code(&d), "FLOW_DIRECTIVE_SEMANTIC_WITHOUT_REQUEST");
    let mut d = human();
    d.request = semantic().request;
    assert_eq!(code(&d), "FLOW_DIRECTIVE_REQUEST_WITHOUT_SEMANTIC");
    let mut d = semantic();
    d.choices = human().choices;
    assert_eq!(code(&d), "FLOW_DIRECTIVE_CHOICES_WITHOUT_BOUNDARY");
    let mut d = human();
    d.choices.truncate(1);
    assert_eq!(code(&d), "FLOW_DIRECTIVE_CHOICE_SET_TOO_SMALL");
    let mut d = human();
    d.choices[1].consequence = " ".into();
    assert_eq!(code(&d), "FLOW_DIRECTIVE_CHOICE_WITHOUT_CONSEQUENCE");
    let mut d = human();
    d.choices[1].recommended = true;
    assert_eq!(code(&d), "FLOW_DIRECTIVE_RECOMMENDATION_AMBIGUOUS");
    let mut d = semantic();
    d.boundary.kind = BoundaryKind::Blocked;
    d.request = None;
    assert_eq!(code(&d), "FLOW_DIRECTIVE_BLOCKED_WITHOUT_CAUSE");
    let auth_rows = vec![row("fixture.w", json!({"effects": ["mutate_overwrite"]}))];
    let auth = Run::start(Journey::fixture(Flow::Quick, &auth_rows, &[]), "001-x").last;
    assert!(check(&auth).is_ok());
    let mut d = auth.clone();
    d.authorizations = d.effects.planned.clone();
    assert_eq!(code(&d), "FLOW_DIRECTIVE_AUTHORIZATION_WITHOUT_GAP");
    let mut d = semantic();
    d.effects.applied.push(EffectClass::Destructive);
    assert_eq!(code(&d), "FLOW_DIRECTIVE_EFFECT_UNPLANNED");
    // v22 removed the approved-but-unauthorized check: `authorizations` are the classes covered
    // at the boundary in force, so an approval held for another seal is no lie.
    let mut d = semantic();
    d.effects.planned.push(EffectClass::Execute);
    d.effects.approved.push(EffectClass::Execute);
    assert!(check(&d).is_ok());
    for mut d in [semantic(), human(), execution()] {
        d.boundary.ownership = Some("doctrine".into());
        assert_eq!(code(&d), "FLOW_DIRECTIVE_OWNERSHIP_CONTRADICTED");
    }
    let mut d = semantic();
    let step = Step {
        transition: "x".into(),
        authority: aw_core::vocab::flow::Authority::Cli,
        ownership: "cli-owned".into(),
        outcome: StepOutcome::Applied,
        reason: None,
    };
    d.applied = vec![step.clone(), step.clone()];
    assert_eq!(code(&d), "FLOW_DIRECTIVE_APPLIED_REPEATED");
    let mut d = semantic();
    d.applied = vec![Step {
        outcome: StepOutcome::Skipped,
        reason: Some(" ".into()),
        ..step.clone()
    }];
    assert_eq!(code(&d), "FLOW_DIRECTIVE_STEP_REASON_MISMATCH");
    let mut d = semantic();
    d.applied = vec![Step {
        reason: Some("why".into()),
        ..step
    }];
    assert_eq!(code(&d), "FLOW_DIRECTIVE_STEP_REASON_MISMATCH");
    let mut d = execution();
    d.action = None;
    assert_eq!(code(&d), "FLOW_DIRECTIVE_EXECUTION_WITHOUT_ACTION");
    let mut d = semantic();
    d.action = execution().action;
    assert_eq!(code(&d), "FLOW_DIRECTIVE_ACTION_WITHOUT_BOUNDARY");
    let mut d = execution();
    d.action.as_mut().unwrap().invocation.program = "".into();
    assert_eq!(code(&d), "FLOW_DIRECTIVE_ACTION_INCOMPLETE");
    let mut d = execution();
    d.action.as_mut().unwrap().evidence = Vec::new().into();
    assert_eq!(code(&d), "FLOW_DIRECTIVE_ACTION_WITHOUT_EVIDENCE");
    let mut d = execution();
    d.action.as_mut().unwrap().recovery = " ".into();
    assert_eq!(code(&d), "FLOW_DIRECTIVE_ACTION_WITHOUT_RECOVERY");
    // A blocked directive with its cause is valid.
    let mut d = semantic();
    d.boundary.kind = BoundaryKind::Blocked;
    d.request = None;
    d.error = Some(ErrorView {
        code: aw_core::error_code::ErrorCode::FlowBoundaryExhausted,
        message: "m".into(),
        action: "a".into(),
    });
    assert!(check(&d).is_ok());
    let _ = Choice {
        label: "l".into(),
        consequence: "c".into(),
        recommended: true,
    };
}
