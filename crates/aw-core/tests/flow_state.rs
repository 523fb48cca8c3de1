//! The run state: round trip, pure mutations, and the fail-closed reader in its order
//! (flow-run-state suite).

use aw_core::canonical::{canonical_json, semantic_digest};
use aw_core::flow::state::{PendingAction, RunState};
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
        attempted: true,
    });
    s.observe(
        "quick.entry-gate-signal",
        vec!["quick.needs-architecture".into()],
    );
    s.observe(
        "quick.entry-gate-signal",
        vec!["quick.two-or-more-sources".into()],
    );
    assert_eq!(s.observations.len(), 2, "observations accumulate");
    s.observe(
        "quick.entry-gate-signal",
        vec!["quick.two-or-more-sources".into()],
    );
    assert_eq!(s.observations.len(), 2, "an exact repeat is not added");
    s.approve(aw_core::flow::state::Grant {
        digest: "seal".into(),
        destinations: vec![],
        classes: vec![EffectClass::Execute],
    });
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
    // The reference v22's versions read, and are written back as 9.
    for version in [7, 8, 9] {
        let mut x = good.clone();
        x["version"] = json!(version);
        let state = parse_state(&sealed(x), F).unwrap();
        assert!(state.serialize().contains("\"version\":9"));
    }
    let mut x = good.clone();
    x["version"] = json!(9);
    x["flow"] = json!("tramo-x");
    let e = parse_state(&sealed(x), F).unwrap_err();
    assert_eq!(e.code.as_str(), "FLOW_RUN_INVALID");
    let shapes: Vec<(&str, Value)> = vec![
        ("flow", json!("spec-new")),
        ("session", json!("  ")),
        ("applied", json!("x")),
        ("skipped", json!([1])),
        ("skipped", json!(["not-applied"])),
        ("boundary", json!(3)),
        ("pending_action", json!({"transition": "t"})),
        ("pending_action", json!({"transition": "t", "digest": "d"})),
        ("pending_action", json!("t")),
        ("scope", json!({"plan": "p", "sources": []})),
        ("scope", json!({"plan": " ", "sources": ["workspace"]})),
        ("scope", json!("p")),
        (
            "events",
            json!([{"kind": "executed", "transition": "t", "operation": "o"}]),
        ),
        (
            "events",
            json!([{"kind": "failed", "transition": "t", "operation": "o", "code": "c", "message": "m"}]),
        ),
        (
            "events",
            json!([{"kind": "other", "transition": "t", "operation": "o"}]),
        ),
        (
            "authorizations",
            json!([{"digest": "", "destinations": [], "classes": []}]),
        ),
        ("authorizations", json!([{"digest": "d", "classes": []}])),
        (
            "proposal",
            json!({"operation": "o", "digest": "d", "artifacts": [], "bases": [], "scope": {"sensitive_sources": false, "scope_expanded": false}, "effects": [], "requires_approval": []}),
        ),
        ("degraded", json!([{"transition": "t", "cause": " "}])),
        (
            "degraded",
            json!([{"transition": "never-skipped", "cause": "c"}]),
        ),
        ("attempt_floor", json!({"t": -1})),
        ("attempt_grants", json!({"t": 1.5})),
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
            json!([{"transition": "t", "attempts": 1}]),
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
    s.grant_attempts("t", 3);
    s.floor.insert("t".into(), 3);
    assert_eq!(s.position_digest(), pos);
    assert!(s.serialize().contains("\"attempt_grants\":{\"t\":3}"));
    assert_eq!(parse_state(&s.serialize(), F).unwrap(), s);
    // Without counts the keys are not written.
    let bare = RunState::new(Flow::Quick, F).serialize();
    assert!(!bare.contains("attempt_grants") && !bare.contains("attempt_floor"));
    // A degradation is a position.
    let mut d = RunState::new(Flow::Quick, F);
    d.degrade_transition("quick.entry-gate-signal", "used up its attempts");
    assert_ne!(d.position_digest(), pos);
    assert_eq!(d.skipped, ["quick.entry-gate-signal"]);
    assert_eq!(parse_state(&d.serialize(), F).unwrap(), d);
}

#[test]
fn the_reference_vectors_hold() {
    // flow-spec-v22 §16.
    let s = RunState::new(Flow::Quick, "007-tramo-quick-quick");
    assert_eq!(
        s.serialize(),
        "{\"applied\":[],\"attempts\":[],\"authorizations\":[],\"boundary\":null,\"digest\":\"9d1b32220705daa004a2fc6552c6e69cf76bdec7a178378b4c7bab10bb495dbd\",\"effects\":{\"applied\":[],\"approved\":[],\"planned\":[]},\"events\":[],\"flow\":\"quick\",\"observations\":[],\"pending_action\":null,\"proposal\":null,\"scope\":null,\"session\":\"007-tramo-quick-quick\",\"skipped\":[],\"version\":9}\n"
    );
    assert_eq!(
        s.position_digest(),
        "94504214b2bf9fd7524d00f456965a98213318c4d77c3f1b53d75b8d6a038059"
    );
    let j = Journey::builtin(Flow::Quick).unwrap();
    let t = aw_core::flow::run::advance(s, &j).unwrap();
    assert_eq!(
        t.state.digest(),
        "11431eae83588246207f2d6afaef352a8354b53933e5578807d200ac50a11cc8"
    );
    assert_eq!(
        t.state.position_digest(),
        "943246824d5098c796e07c5f2ddc203a7217e7391e7ca76843e9109ed074c650"
    );
    assert_eq!(
        t.directive.state_digest,
        "187a123883db6b0632a5d8fbc41de6aad22eeadbfc6755e255a749d157676aef"
    );
    // The same state stamped 7 reads and re-stamps to the version-9 digest.
    let mut v: Value = serde_json::from_str(&t.state.serialize()).unwrap();
    v["version"] = json!(7);
    let seven = sealed(v);
    assert!(seven.contains("cbf55b87ced53a29dd19aa74c3747101593405ba6bab206a6cfcdc0b2eaa2459"));
    let read = parse_state(&seven, "007-tramo-quick-quick").unwrap();
    assert_eq!(read.digest(), t.state.digest());
}

#[test]
fn a_version_4_run_is_upgraded_when_its_journey_can_go_on() {
    // What aw wrote before v22: class approvals, aw's list of grants, a boundary and an action.
    let v4 = json!({
        "version": 4, "flow": "quick", "session": F,
        "applied": ["chassis.docs-boundary", "chassis.research-exhaustion"],
        "skipped": [], "boundary": "quick.entry-gate-signal",
        "pending_action": {"transition": "x", "digest": "d"},
        "observations": [{"transition": "quick.entry-gate-signal", "signals": ["quick.needs-architecture"]}],
        "authorizations": ["execute"],
        "effects": {"planned": ["read_only"], "approved": ["execute"], "applied": ["read_only"]},
        "attempts": [],
        "attempt_grants": [{"transition": "t", "attempts": 2}, {"transition": "t", "attempts": 3}],
        "attempt_floor": {"t": 3},
        "future_key": 1,
    });
    let state = parse_state(&sealed(v4.clone()), F).unwrap();
    assert!(state.legacy);
    assert_eq!(state.boundary, None);
    assert_eq!(state.pending_action, None);
    assert!(
        state.authorizations.is_empty(),
        "class approvals cannot be scoped to a seal"
    );
    assert_eq!(
        state.effects.approved,
        [aw_core::flow::EffectClass::Execute]
    );
    assert_eq!(state.granted.get("t"), Some(&3));
    assert_eq!(state.observations.len(), 1);
    assert!(state.serialize().contains("\"version\":9"));
    assert!(state.serialize().contains("\"future_key\":1"));
    let j = Journey::builtin(Flow::Quick).unwrap();
    assert!(j.check(&state).is_ok());
    // A cursor the current journey does not have at that place: refused with the command that
    // starts it over.
    let mut off = v4.clone();
    off["applied"] = json!(["chassis.docs-boundary", "quick.entry-gate-signal"]);
    let state = parse_state(&sealed(off), F).unwrap();
    let e = j.check(&state).unwrap_err();
    assert_eq!(e.code.as_str(), "FLOW_RUN_VERSION_UNSUPPORTED");
    assert!(e.action.contains(&format!(
        "aw flow advance --session {F} --flow quick --adopt"
    )));
    // A version-4 file read by its own rules: a v9-only shape is not asked of it, its seal is.
    let mut tampered: Value = serde_json::from_str(&sealed(v4)).unwrap();
    tampered["applied"] = json!([]);
    assert_eq!(code(&canonical_json(&tampered)), "FLOW_RUN_TAMPERED");
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
