//! The run state: round trip, pure mutations, and the fail-closed reader in its order
//! (flow-run-state suite).

use aw_core::canonical::{canonical_json, semantic_digest};
use aw_core::flow::state::{AttemptGrant, PendingAction, RunState};
use aw_core::flow::state_parse::parse_state;
use aw_core::flow::{EffectClass, Flow, Journey};
use serde_json::{Value, json};

const F: &str = "007-tramo-quick-quick";

fn code(text: &str) -> &'static str {
    let e = parse_state(text, F).unwrap_err();
    assert!(!e.action.is_empty());
    e.code.as_str()
}

/// Seals an arbitrary object the way a (buggy or foreign) writer would.
fn sealed(mut v: Value) -> String {
    v.as_object_mut().unwrap().remove("digest");
    let d = semantic_digest(&v);
    v["digest"] = json!(d);
    canonical_json(&v)
}

#[test]
fn seal_serialize_parse_round_trips() {
    let mut s = RunState::new(Flow::Quick, F);
    let d0 = s.digest();
    s.apply_transition("chassis.docs-boundary", &[EffectClass::ReadOnly]);
    assert_ne!(s.digest(), d0);
    s.apply_transition("chassis.research-exhaustion", &[]);
    assert_eq!(
        s.applied,
        ["chassis.docs-boundary", "chassis.research-exhaustion"]
    );
    assert_eq!(s.boundary, None, "applying never moves the boundary");
    s.boundary = Some("quick.entry-gate-signal".into());
    s.pending_action = Some(PendingAction {
        transition: "t".into(),
        digest: "d".into(),
    });
    s.observe(
        "quick.entry-gate-signal",
        vec!["quick.needs-architecture".into()],
    );
    s.observe(
        "quick.entry-gate-signal",
        vec!["quick.two-or-more-sources".into()],
    );
    assert_eq!(s.observations.len(), 1, "a re-observation replaces");
    s.approve(&[EffectClass::Execute]);
    s.extra
        .insert("future_key".into(), json!({"kept": [1, 2.5]}));
    let back = parse_state(&s.serialize(), F).unwrap();
    assert_eq!(back, s);
    s.pending_action = None;
    s.boundary = None;
    assert!(parse_state(&s.serialize(), F).is_ok());
}

#[test]
fn skipping_passes_without_effects() {
    let mut s = RunState::new(Flow::Quick, F);
    s.skip_transition("quick.anti-duplicate");
    assert_eq!(s.applied, ["quick.anti-duplicate"]);
    assert_eq!(s.skipped, ["quick.anti-duplicate"]);
    assert!(s.effects.planned.is_empty() && s.effects.applied.is_empty());
}

#[test]
fn reading_fails_closed_in_order() {
    for blank in ["", "   \n", "{", "[]", "\"texto\"", "42"] {
        assert_eq!(code(blank), "FLOW_RUN_INVALID", "{blank:?}");
    }
    let good: Value = serde_json::from_str(&RunState::new(Flow::Quick, F).serialize()).unwrap();
    for v in [json!(5), json!(1), json!(2), json!("4"), Value::Null] {
        let mut x = good.clone();
        x["version"] = v;
        // The version is checked before the shape and before the seal.
        assert_eq!(code(&canonical_json(&x)), "FLOW_RUN_VERSION_UNSUPPORTED");
    }
    let mut x = good.clone();
    x["version"] = json!(2);
    let e = parse_state(&canonical_json(&x), F).unwrap_err();
    assert!(e.action.contains("--adopt") && e.action.contains("no automatic migration"));
    // A reference v22 state is named as such, with the exact command that adopts it again.
    for version in [7, 8, 9] {
        let mut x = good.clone();
        x["version"] = json!(version);
        let text = canonical_json(&x);
        let e = parse_state(&text, F).unwrap_err();
        assert_eq!(e.code.as_str(), "FLOW_RUN_VERSION_UNSUPPORTED");
        assert!(e.message.contains("v22"), "{}", e.message);
        assert!(
            e.action.contains(&format!(
                "`aw flow advance --session {F} --flow quick --adopt`"
            )),
            "{}",
            e.action
        );
        assert!(e.action.contains(&format!(".flow-run.v{version}.json")));
        assert_eq!(
            aw_core::flow::state_parse::reference_v22_version(&text),
            Some(version)
        );
    }
    let mut x = good.clone();
    x["version"] = json!(9);
    x["flow"] = json!("tramo-x");
    let e = parse_state(&canonical_json(&x), F).unwrap_err();
    assert!(e.action.contains("--flow <flow> --adopt"), "{}", e.action);
    assert_eq!(
        aw_core::flow::state_parse::reference_v22_version(&canonical_json(&good)),
        None
    );
    let shapes: Vec<(&str, Value)> = vec![
        ("flow", json!("spec-new")),
        ("session", json!("  ")),
        ("applied", json!("x")),
        ("skipped", json!([1])),
        ("skipped", json!(["not-applied"])),
        ("boundary", json!(3)),
        ("pending_action", json!({"transition": "t"})),
        ("pending_action", json!("t")),
        ("observations", json!([{"transition": "t"}])),
        ("observations", json!([{"transition": "t", "signals": [1]}])),
        ("authorizations", json!(["everything"])),
        ("effects", json!({"planned": [], "approved": []})),
        (
            "attempts",
            json!([{"invocation_id": "i", "attempt": 1.5, "request_digest": "r", "parent_request_digest": null, "transition": "t"}]),
        ),
        (
            "attempts",
            json!([{"invocation_id": "i", "attempt": 1, "request_digest": "r", "transition": "t"}]),
        ),
        (
            "attempt_grants",
            json!([{"transition": "t", "attempts": -1}]),
        ),
        ("digest", json!(7)),
    ];
    for (key, bad) in shapes {
        let mut x = good.clone();
        x[key] = bad;
        let text = if key == "digest" {
            canonical_json(&x)
        } else {
            sealed(x)
        };
        assert_eq!(code(&text), "FLOW_RUN_INVALID", "{key}");
    }
    // A hand edit keeps the old seal.
    let mut x = good.clone();
    x["applied"] = json!(["chassis.docs-boundary"]);
    let e = parse_state(&canonical_json(&x), F).unwrap_err();
    assert_eq!(e.code, "FLOW_RUN_TAMPERED");
    assert!(!e.action.is_empty());
    // Integral floats are integers, as in JavaScript; the seal is over the text as written.
    let mut x = good.clone();
    x["attempts"] = json!([{"invocation_id": "i", "attempt": 1.0, "request_digest": "r", "parent_request_digest": null, "transition": "t"}]);
    assert!(parse_state(&sealed(x), F).is_ok());
}

#[test]
fn a_state_belongs_to_its_folder() {
    let text = RunState::new(Flow::Quick, "008-other-quick").serialize();
    let e = parse_state(&text, F).unwrap_err();
    assert_eq!(e.code, "FLOW_RUN_SESSION_MISMATCH");
    assert!(e.message.contains("008-other-quick"));
}

#[test]
fn the_journey_checks_the_cursor_and_the_boundary() {
    let j = Journey::builtin(Flow::Quick).unwrap();
    let mut s = RunState::new(Flow::Quick, F);
    s.applied = vec![
        "chassis.docs-boundary".into(),
        "quick.entry-gate-signal".into(),
    ];
    let e = j.check(&s).unwrap_err();
    assert_eq!(e.code, "FLOW_RUN_AHEAD_OF_JOURNEY");
    assert!(!e.action.is_empty());
    let mut s = RunState::new(Flow::Quick, F);
    s.boundary = Some("quick.entry-gate-signal".into());
    assert_eq!(j.check(&s).unwrap_err().code, "FLOW_RUN_AHEAD_OF_JOURNEY");
    s.boundary = Some("chassis.docs-boundary".into());
    assert!(j.check(&s).is_ok());
}

#[test]
fn grants_are_bookkeeping_outside_the_position() {
    let mut s = RunState::new(Flow::Quick, F);
    let pos = s.position_digest();
    s.grants.push(AttemptGrant {
        transition: "t".into(),
        attempts: 3,
    });
    assert_eq!(s.position_digest(), pos);
    assert!(s.serialize().contains("\"attempt_grants\""));
    assert_eq!(parse_state(&s.serialize(), F).unwrap(), s);
    // Without grants the key is not written: the file stays the reference's format.
    assert!(
        !RunState::new(Flow::Quick, F)
            .serialize()
            .contains("attempt_grants")
    );
}

#[test]
fn unknown_keys_survive_at_the_top_level_only() {
    let mut v: Value = serde_json::from_str(&RunState::new(Flow::Quick, F).serialize()).unwrap();
    v["future_key"] = json!({"kept": true});
    v["observations"] = json!([{
        "transition": "quick.entry-gate-signal",
        "signals": ["quick.needs-architecture"],
        "nested_key": 1
    }]);
    let state = parse_state(&sealed(v), F).unwrap();
    let back: Value = serde_json::from_str(&state.serialize()).unwrap();
    assert_eq!(back["future_key"], json!({"kept": true}));
    assert_eq!(
        back["observations"],
        json!([{"transition": "quick.entry-gate-signal", "signals": ["quick.needs-architecture"]}])
    );
}
