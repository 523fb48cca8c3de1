//! Unit tests of `readiness`: the report per host kind and wrapper state, operation labels
//! (quirk 8, fixed), improvements, the wire shape and the `--detail` lines.

use super::*;
use crate::capability::bindings::classify;
use crate::capability::descriptor::{DegradationAction, DegradationCause, Floor, Improvements};
use crate::capability::resolution::{Contributor, HostSelection, resolve};
use crate::capability::test_support::{
    binding, broken, design, digest, improvement, improves, ready,
};

const CLAUDE: &str = "/h/.claude/skills";

fn report(
    resolution: &CapabilityResolution,
    inventory: &[Instance],
    host: &str,
    wrapper: WrapperState,
) -> ReadinessReport {
    readiness(&design(), resolution, inventory, host, wrapper)
}

fn plain() -> CapabilityResolution {
    resolve(&design(), &binding(Some("design")), &[], None, None)
}

#[test]
fn our_wrapper_and_nothing_else_is_ready_on_the_floor() {
    let r = report(&plain(), &[], "claude-code", WrapperState::Ours);
    assert_eq!(r.capability, "design");
    assert_eq!(r.state, CapabilityState::Ready);
    assert_eq!(
        r.floor,
        FloorReadiness {
            builtin: true,
            kind: FloorKind::Core,
            running: true
        }
    );
    assert_eq!(r.instance, None);
    assert_eq!(r.exposures.direct.state, CapabilityState::Ready);
    assert_eq!(r.exposures.compose.state, CapabilityState::Ready);
    let ops: Vec<&str> = r.operations.iter().map(|o| o.operation.as_str()).collect();
    assert_eq!(ops, ["create", "update", "validate", "render", "record"]);
    assert!(
        r.operations
            .iter()
            .all(|o| o.state == CapabilityState::Ready)
    );
    assert!(r.improvements.is_empty());
    let render = &r.operations[3];
    assert_eq!(
        render.effects,
        [
            EffectClass::ReadOnly,
            EffectClass::LocalAdditive,
            EffectClass::NetworkExternal
        ]
    );
}

#[test]
fn a_missing_wrapper_closes_only_the_direct_route() {
    let r = report(
        &plain(),
        &[],
        "claude-code",
        WrapperState::Absent {
            root: CLAUDE.to_owned(),
        },
    );
    let direct = &r.exposures.direct;
    assert_eq!(direct.state, CapabilityState::Unavailable);
    assert!(direct.reason.as_deref().unwrap().contains("wrapper"));
    assert!(direct.reason.as_deref().unwrap().contains(CLAUDE));
    assert!(
        direct
            .action
            .as_deref()
            .unwrap()
            .contains("aw self install --target")
    );
    assert_eq!(r.exposures.compose.state, CapabilityState::Ready);
    assert!(r.floor.running);
}

#[test]
fn a_foreign_wrapper_is_misconfigured_on_the_direct_route() {
    let why = "'/h/.claude/skills/design' already has a SKILL.md that aw did not install";
    let r = report(
        &plain(),
        &[],
        "claude-code",
        WrapperState::Foreign { reason: why.into() },
    );
    let direct = &r.exposures.direct;
    assert_eq!(direct.state, CapabilityState::Misconfigured);
    assert_eq!(direct.reason.as_deref(), Some(why));
    assert!(direct.action.as_deref().unwrap().contains("reinstall"));
    assert_eq!(r.exposures.compose.state, CapabilityState::Ready);
}

#[test]
fn off_labels_exactly_the_blocked_operations_disabled() {
    let off = resolve(&design(), &binding(None), &[], None, None);
    let r = report(&off, &[], "claude-code", WrapperState::Ours);
    assert_eq!(r.state, CapabilityState::Disabled);
    let mut disabled: Vec<&str> = r
        .operations
        .iter()
        .filter(|o| o.state == CapabilityState::Disabled)
        .map(|o| o.operation.as_str())
        .collect();
    disabled.sort();
    assert_eq!(disabled, ["create", "record", "render", "update"]);
    assert!(
        r.operations
            .iter()
            .filter(|o| o.state == CapabilityState::Disabled)
            .all(|o| o.reason.is_some() && o.action == off.action)
    );
    // `validate` survives `off` on the floor, and says why the capability is off.
    let validate = r
        .operations
        .iter()
        .find(|o| o.operation == "validate")
        .unwrap();
    assert_eq!(validate.state, CapabilityState::Ready);
    assert_eq!(validate.reason, off.reason);
    assert!(validate.reason.as_deref().unwrap().contains("off"));
}

#[test]
fn a_replacement_binding_is_degraded_with_reason_and_action() {
    let res = resolve(
        &design(),
        &binding(Some("acme/figma-spec")),
        &[],
        None,
        None,
    );
    let r = report(&res, &[], "claude-code", WrapperState::Ours);
    assert_eq!(r.state, CapabilityState::Degraded);
    assert!(r.reason.as_deref().unwrap().contains("acme/figma-spec"));
    assert!(r.action.as_deref().unwrap().contains("design"));
    assert!(r.floor.running);
    assert!(
        r.operations
            .iter()
            .all(|o| o.state == CapabilityState::Degraded)
    );
    assert_eq!(r.exposures.direct.state, CapabilityState::Degraded);
}

#[test]
fn operations_blocked_by_a_misconfigured_or_unavailable_capability_show_that_state() {
    // Quirk 8, fixed: the reference labelled these operations `disabled`.
    let mut d = design();
    for deg in &mut d.degradations {
        if deg.cause == DegradationCause::InvalidBinding {
            deg.action = DegradationAction::Reject;
        }
    }
    let res = resolve(&d, &binding(Some("acme/figma-spec")), &[], None, None);
    let r = readiness(&d, &res, &[], "claude-code", WrapperState::Ours);
    assert_eq!(r.state, CapabilityState::Misconfigured);
    assert!(r.operations.iter().all(|o| {
        o.state == CapabilityState::Misconfigured
            && o.reason.as_deref().unwrap().contains("acme/figma-spec")
    }));

    let mut feature = design();
    feature.floor = Floor {
        builtin: false,
        kind: FloorKind::Feature,
        improvements: Improvements::None,
    };
    let res = resolve(&feature, &classify(None, "design"), &[], None, None);
    let r = readiness(&feature, &res, &[], "claude-code", WrapperState::Ours);
    assert_eq!(r.state, CapabilityState::Unavailable);
    assert!(!r.floor.running);
    assert!(
        r.operations
            .iter()
            .all(|o| { o.state == CapabilityState::Unavailable && o.reason.is_some() })
    );
    assert!(
        r.operations
            .iter()
            .all(|o| o.state != CapabilityState::Disabled)
    );
}

#[test]
fn each_host_kind_has_its_invocation() {
    let r = report(&plain(), &[], "claude-code", WrapperState::Ours);
    assert_eq!(r.invocation.kind, InvocationKind::Mention);
    assert_eq!(r.invocation.form.as_deref(), Some("design"));
    assert!(!r.invocation.note.is_empty());

    let r = report(&plain(), &[], "kimi", WrapperState::Ours);
    assert_eq!(r.invocation.kind, InvocationKind::Slash);
    assert_eq!(r.invocation.form.as_deref(), Some("/skill:design"));

    for host in ["codex", "oz", "warp", "gemini", "opencode", "crush"] {
        let r = report(&plain(), &[], host, WrapperState::Ours);
        assert_eq!(r.invocation.kind, InvocationKind::Mention, "{host}");
        assert_eq!(r.invocation.form.as_deref(), Some("design"), "{host}");
    }

    // An unknown host has no verified form and no direct route, whatever is on disk.
    let r = report(&plain(), &[], "unknown", WrapperState::Ours);
    assert_eq!(r.invocation.host, "unknown");
    assert_eq!(r.invocation.kind, InvocationKind::Unavailable);
    assert_eq!(r.invocation.form, None);
    assert!(r.invocation.note.contains("'unknown'"));
    assert_eq!(r.exposures.direct.state, CapabilityState::Unavailable);
    assert!(
        r.exposures
            .direct
            .action
            .as_deref()
            .unwrap()
            .contains("flow")
    );
    assert_eq!(r.exposures.compose.state, CapabilityState::Ready);
}

#[test]
fn a_route_the_descriptor_does_not_open_is_unavailable() {
    let mut d = design();
    d.exposure = vec![Route::Compose];
    let res = resolve(&d, &binding(Some("design")), &[], None, None);
    let r = readiness(&d, &res, &[], "claude-code", WrapperState::Ours);
    assert_eq!(r.exposures.direct.state, CapabilityState::Unavailable);
    assert!(
        r.exposures
            .direct
            .reason
            .as_deref()
            .unwrap()
            .contains("direct")
    );
    assert_eq!(r.exposures.compose.state, CapabilityState::Ready);
}

#[test]
fn every_other_installed_skill_is_judged_as_an_improvement() {
    let inventory = [
        ready(
            improvement("acme-design-lab", Some(improves("design", &["create"], 1))),
            &digest('a'),
            &[CLAUDE],
        ),
        broken("broken-lab", "two copies differ"),
        ready(improvement("design", None), &digest('d'), &[CLAUDE]),
        ready(
            improvement("diagram-lab", Some(improves("diagrams", &["create"], 1))),
            &digest('b'),
            &[CLAUDE],
        ),
        ready(improvement("plain-skill", None), &digest('c'), &[CLAUDE]),
        ready(
            improvement("future-lab", Some(improves("design", &["create"], 2))),
            &digest('e'),
            &[CLAUDE],
        ),
    ];
    let r = report(&plain(), &inventory, "claude-code", WrapperState::Ours);
    let judged: Vec<(&str, bool, Option<&str>)> = r
        .improvements
        .iter()
        .map(|i| (i.name.as_str(), i.eligible, i.why.as_deref()))
        .collect();
    assert_eq!(
        judged,
        [
            ("acme-design-lab", true, None),
            ("broken-lab", false, Some("two copies differ")),
            (
                "diagram-lab",
                false,
                Some("does not declare that it improves 'design'")
            ),
            (
                "plain-skill",
                false,
                Some("does not declare that it improves 'design'")
            ),
            ("future-lab", false, Some("speaks contract version 2")),
        ]
    );
    assert_eq!(r.improvements[0].digest, Some(digest('a')));
    assert_eq!(r.improvements[1].digest, None);
    assert_eq!(
        r.improvements[0]
            .improves
            .as_ref()
            .map(|i| i.capability.as_str()),
        Some("design")
    );
}

#[test]
fn a_selected_instance_is_reported_with_the_floor_not_running() {
    let inventory = [ready(
        improvement("acme-design-lab", Some(improves("design", &["create"], 1))),
        &digest('a'),
        &[CLAUDE],
    )];
    let selection = HostSelection {
        contributors: vec![Contributor {
            name: "acme-design-lab".into(),
            order: 1,
            version: None,
            digest: None,
            locator: None,
        }],
    };
    let res = resolve(
        &design(),
        &binding(Some("design")),
        &inventory,
        Some(&selection),
        Some("create"),
    );
    let r = report(&res, &inventory, "claude-code", WrapperState::Ours);
    assert!(!r.floor.running);
    let i = r.instance.as_ref().unwrap();
    assert_eq!(
        (i.name.as_str(), i.scope.as_str(), i.digest.as_str()),
        ("acme-design-lab", CLAUDE, digest('a').as_str())
    );
    let lines = render_detail(&r);
    assert_eq!(
        lines[2],
        format!("  instance: acme-design-lab@{}", digest('a'))
    );
}

#[test]
fn the_report_serializes_with_the_reference_keys_in_order() {
    let v = serde_json::to_value(report(&plain(), &[], "kimi", WrapperState::Ours)).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "capability",
            "contract_version",
            "purpose",
            "exposure",
            "state",
            "reason",
            "action",
            "floor",
            "instance",
            "invocation",
            "exposures",
            "operations",
            "improvements"
        ]
    );
    let keys_of =
        |v: &serde_json::Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    assert_eq!(keys_of(&v["floor"]), ["builtin", "kind", "running"]);
    assert_eq!(keys_of(&v["invocation"]), ["host", "kind", "form", "note"]);
    assert_eq!(keys_of(&v["exposures"]), ["direct", "compose"]);
    assert_eq!(
        keys_of(&v["exposures"]["direct"]),
        ["state", "reason", "action"]
    );
    assert_eq!(
        keys_of(&v["operations"][0]),
        [
            "operation",
            "exposure",
            "workspace",
            "effects",
            "state",
            "reason",
            "action"
        ]
    );
    assert_eq!(v["invocation"]["kind"], "slash");
    assert_eq!(v["floor"]["kind"], "core");
    assert_eq!(v["instance"], serde_json::Value::Null);
    assert_eq!(v["exposure"], serde_json::json!(["direct", "compose"]));
}

#[test]
fn the_detail_block_has_one_line_per_field() {
    let r = report(&plain(), &[], "claude-code", WrapperState::Ours);
    let lines = render_detail(&r);
    assert_eq!(lines[0], "design v1 — ready");
    assert_eq!(
        lines[1],
        "  invocation (claude-code): design — skills activate by their description: name the capability in the conversation"
    );
    assert_eq!(lines[2], "  runs the built-in floor (core)");
    assert_eq!(lines[3], "  direct: ready");
    assert_eq!(lines[4], "  compose: ready");
    assert_eq!(
        lines[5],
        "  · create    ready         optional · effects: read_only, local_additive"
    );
    assert_eq!(lines.len(), 10);

    let off = resolve(&design(), &binding(None), &[], None, None);
    let inventory = [broken("broken-lab", "two copies differ")];
    let r = report(
        &off,
        &inventory,
        "unknown",
        WrapperState::Absent {
            root: CLAUDE.into(),
        },
    );
    let lines = render_detail(&r);
    assert_eq!(lines[0], "design v1 — disabled");
    assert_eq!(lines[1], "  reason: 'design' is off");
    assert!(lines[2].starts_with("  next: to turn it back on"));
    assert!(lines[3].starts_with("  invocation (unknown): unavailable — "));
    assert!(lines[5].starts_with("  direct: unavailable — "));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("  · create    disabled      "))
    );
    assert_eq!(
        lines.last().unwrap(),
        "  improvement broken-lab: rejected — two copies differ"
    );
    // No Spanish label survives.
    assert!(
        lines
            .iter()
            .all(|l| !l.contains("motivo") && !l.contains("siguiente"))
    );
}
