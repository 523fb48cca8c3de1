//! Unit tests of `resolution`: every state of §8.2, each contributor check of §8.3, the
//! degradation with its declared action applied (quirk 9, fixed), the wire shape and the pin.

use super::*;
use crate::capability::descriptor::{Degradation, Floor, FloorKind};
use crate::capability::test_support::{
    binding, broken, design, digest, improvement, improves, ready,
};

const CLAUDE: &str = "/h/.claude/skills";
const AGENTS: &str = "/h/.agents/skills";

/// The improvement `acme-design-lab`, claiming `design.create` and `design.update`.
fn lab() -> Instance {
    ready(
        improvement(
            "acme-design-lab",
            Some(improves("design", &["create", "update"], 1)),
        ),
        &digest('a'),
        &[CLAUDE],
    )
}

fn contributor(name: &str, order: u64) -> Contributor {
    Contributor {
        name: name.to_owned(),
        order,
        version: None,
        digest: None,
        locator: None,
    }
}

fn select(contributors: Vec<Contributor>) -> HostSelection {
    HostSelection { contributors }
}

fn available(r: &CapabilityResolution) -> Vec<&str> {
    r.operations
        .iter()
        .filter(|o| o.available)
        .map(|o| o.operation.as_str())
        .collect()
}

fn causes(r: &CapabilityResolution) -> Vec<DegradationCause> {
    r.degradations.iter().map(|d| d.cause).collect()
}

/// Resolving `design` under the canonical binding with `lab` installed and `selection`, for
/// `create`.
fn with_lab(inventory: &[Instance], selection: HostSelection) -> CapabilityResolution {
    resolve(
        &design(),
        &binding(Some("design")),
        inventory,
        Some(&selection),
        Some("create"),
    )
}

#[test]
fn the_canonical_binding_with_nothing_installed_runs_the_floor_ready() {
    for policy in [binding(Some("design")), classify_unset()] {
        let r = resolve(&design(), &policy, &[], None, None);
        assert_eq!(r.state, CapabilityState::Ready);
        assert!(r.floor);
        assert!(r.selection.is_empty() && r.degradations.is_empty());
        assert_eq!((r.reason.as_ref(), r.action.as_ref()), (None, None));
        assert_eq!(available(&r).len(), 5);
    }
}

fn classify_unset() -> BindingPolicy {
    crate::capability::bindings::classify(None, "design")
}

#[test]
fn an_empty_selection_or_no_improvements_policy_is_the_floor_only() {
    let r = with_lab(&[lab()], select(vec![]));
    assert_eq!((r.state, r.floor), (CapabilityState::Ready, true));
    // A descriptor that takes no improvements ignores the host's selection.
    let mut d = design();
    d.floor.improvements = Improvements::None;
    let r = resolve(
        &d,
        &binding(Some("design")),
        &[lab()],
        Some(&select(vec![contributor("acme-design-lab", 1)])),
        Some("create"),
    );
    assert_eq!((r.state, r.floor), (CapabilityState::Ready, true));
    assert!(r.selection.is_empty());
}

#[test]
fn a_verified_host_selection_is_ready_without_the_floor_and_its_pin_passes() {
    let inventory = [lab()];
    let r = with_lab(&inventory, select(vec![contributor("acme-design-lab", 1)]));
    assert_eq!(r.state, CapabilityState::Ready);
    assert!(!r.floor);
    assert!(r.degradations.is_empty());
    assert_eq!(
        r.selection,
        vec![SelectedInstance {
            name: "acme-design-lab".into(),
            scope: CLAUDE.into(),
            locator: format!("{CLAUDE}/acme-design-lab"),
            version: Some("1.0.0".into()),
            digest: digest('a'),
            order: 1,
        }]
    );
    let pin = pin_selection(&r, &design());
    assert_eq!(pin.instances[0].digest, r.selection[0].digest);
    assert!(!pin.floor);
    assert_eq!(check_pin(&pin, &inventory), Ok(()));
}

#[test]
fn contributors_are_taken_in_order_and_the_first_problem_aborts_the_selection() {
    let other = ready(
        improvement("zeta-lab", Some(improves("design", &["create"], 1))),
        &digest('b'),
        &[CLAUDE],
    );
    let inventory = [lab(), other];
    let r = with_lab(
        &inventory,
        select(vec![
            contributor("zeta-lab", 2),
            contributor("acme-design-lab", 1),
        ]),
    );
    let names: Vec<(&str, u64)> = r
        .selection
        .iter()
        .map(|s| (s.name.as_str(), s.order))
        .collect();
    assert_eq!(names, [("acme-design-lab", 1), ("zeta-lab", 2)]);
    // A missing contributor ordered first aborts everything, the good one included.
    let r = with_lab(
        &inventory,
        select(vec![
            contributor("acme-design-lab", 2),
            contributor("ghost", 1),
        ]),
    );
    assert_eq!(r.state, CapabilityState::Degraded);
    assert!(r.selection.is_empty());
    assert!(r.degradations[0].loss.contains("ghost"));
}

#[test]
fn a_name_only_selection_among_replicas_is_opaque_until_the_locator_names_one() {
    let replicas = [ready(
        improvement("acme-design-lab", Some(improves("design", &["create"], 1))),
        &digest('a'),
        &[CLAUDE, AGENTS],
    )];
    let r = with_lab(&replicas, select(vec![contributor("acme-design-lab", 1)]));
    assert_eq!((r.state, r.floor), (CapabilityState::Degraded, true));
    assert!(r.selection.is_empty());
    assert_eq!(causes(&r), [DegradationCause::OpaqueSelection]);
    assert!(r.degradations[0].loss.contains("2 roots"));
    assert_eq!(r.reason.as_deref(), Some(r.degradations[0].loss.as_str()));
    assert!(r.action.is_some());
    // The degraded floor keeps every operation available.
    assert_eq!(available(&r).len(), 5);

    let mut named = contributor("acme-design-lab", 1);
    named.locator = Some(format!("{AGENTS}/acme-design-lab"));
    let r = with_lab(&replicas, select(vec![named]));
    assert_eq!((r.state, r.floor), (CapabilityState::Ready, false));
    assert_eq!(r.selection[0].locator, format!("{AGENTS}/acme-design-lab"));
    assert_eq!(r.selection[0].scope, AGENTS);
}

#[test]
fn a_selected_name_that_is_not_installed_is_opaque() {
    let r = with_lab(&[lab()], select(vec![contributor("ghost", 1)]));
    assert_eq!((r.state, r.floor), (CapabilityState::Degraded, true));
    assert_eq!(causes(&r), [DegradationCause::OpaqueSelection]);
    assert!(r.degradations[0].loss.contains("'ghost'"));
}

#[test]
fn a_misconfigured_selected_instance_is_opaque_with_its_failure() {
    let r = with_lab(
        &[broken("acme-design-lab", "two copies differ")],
        select(vec![contributor("acme-design-lab", 1)]),
    );
    assert_eq!(r.state, CapabilityState::Degraded);
    assert_eq!(causes(&r), [DegradationCause::OpaqueSelection]);
    assert_eq!(r.degradations[0].loss, "two copies differ");
}

#[test]
fn a_contributor_digest_that_differs_is_digest_changed() {
    let mut c = contributor("acme-design-lab", 1);
    c.digest = Some(digest('f'));
    let r = with_lab(&[lab()], select(vec![c.clone()]));
    assert_eq!((r.state, r.floor), (CapabilityState::Degraded, true));
    assert_eq!(causes(&r), [DegradationCause::DigestChanged]);
    // The same digest verifies.
    c.digest = Some(digest('a'));
    assert_eq!(
        with_lab(&[lab()], select(vec![c])).state,
        CapabilityState::Ready
    );
}

#[test]
fn an_incompatible_improvement_falls_back_to_the_floor() {
    let cases = [
        (None, Some("create")),
        (Some(improves("diagrams", &["create"], 1)), Some("create")),
        (Some(improves("design", &["render"], 1)), Some("create")),
        (Some(improves("design", &["create"], 2)), Some("create")),
    ];
    for (claim, op) in cases {
        let inventory = [ready(
            improvement("acme-design-lab", claim.clone()),
            &digest('a'),
            &[CLAUDE],
        )];
        let r = resolve(
            &design(),
            &binding(Some("design")),
            &inventory,
            Some(&select(vec![contributor("acme-design-lab", 1)])),
            op,
        );
        assert_eq!(r.state, CapabilityState::Degraded, "{claim:?}");
        assert!(r.floor && r.selection.is_empty());
        assert_eq!(causes(&r), [DegradationCause::IncompatibleImprovement]);
    }
    // Without an operation, the claim's operations are not checked.
    let inventory = [ready(
        improvement("acme-design-lab", Some(improves("design", &["render"], 1))),
        &digest('a'),
        &[CLAUDE],
    )];
    let r = resolve(
        &design(),
        &binding(Some("design")),
        &inventory,
        Some(&select(vec![contributor("acme-design-lab", 1)])),
        None,
    );
    assert_eq!(r.state, CapabilityState::Ready);
}

#[test]
fn a_replacement_binding_degrades_with_invalid_binding() {
    let r = resolve(
        &design(),
        &binding(Some("acme/figma-spec")),
        &[],
        None,
        None,
    );
    assert_eq!((r.state, r.floor), (CapabilityState::Degraded, true));
    assert_eq!(causes(&r), [DegradationCause::InvalidBinding]);
    assert!(r.reason.as_deref().unwrap().contains("acme/figma-spec"));
    assert!(r.action.as_deref().unwrap().contains("'design'"));
    assert_eq!(available(&r).len(), 5);
    // The host's selection cannot undo a replacement binding.
    let r = resolve(
        &design(),
        &binding(Some("acme/figma-spec")),
        &[lab()],
        Some(&select(vec![contributor("acme-design-lab", 1)])),
        Some("create"),
    );
    assert_eq!(r.state, CapabilityState::Degraded);
    assert!(r.selection.is_empty());
}

#[test]
fn off_disables_the_capability_and_blocks_exactly_the_operations_whose_policy_says_so() {
    let r = resolve(
        &design(),
        &binding(None),
        &[lab()],
        Some(&select(vec![contributor("acme-design-lab", 1)])),
        Some("create"),
    );
    assert_eq!(r.state, CapabilityState::Disabled);
    assert!(r.floor, "validate still runs on the floor");
    assert!(r.selection.is_empty() && r.degradations.is_empty());
    let mut blocked: Vec<&str> = r
        .operations
        .iter()
        .filter(|o| !o.available)
        .map(|o| o.operation.as_str())
        .collect();
    blocked.sort();
    assert_eq!(blocked, ["create", "record", "render", "update"]);
    assert!(
        r.operations
            .iter()
            .all(|o| o.available == o.reason.is_none())
    );
    assert_eq!(available(&r), ["validate"]);
    assert!(r.reason.as_deref().unwrap().contains("off"));
    assert!(r.action.as_deref().unwrap().contains("'design'"));
}

#[test]
fn off_with_every_operation_blocked_has_no_floor_running() {
    let mut d = design();
    for op in &mut d.operations {
        op.off = crate::capability::descriptor::OffPolicy::Blocked;
    }
    let r = resolve(&d, &binding(None), &[], None, None);
    assert_eq!((r.state, r.floor), (CapabilityState::Disabled, false));
    assert!(available(&r).is_empty());
}

/// A feature whose only operation is `create`, with no floor and no improvements.
fn feature() -> Descriptor {
    let mut d = design();
    d.name = "example-capability".into();
    d.operations.retain(|o| o.name == "create");
    d.floor = Floor {
        builtin: false,
        kind: FloorKind::Feature,
        improvements: Improvements::None,
    };
    d
}

#[test]
fn a_feature_without_a_floor_and_nothing_installed_is_unavailable() {
    let binding = crate::capability::bindings::classify(None, "example-capability");
    let r = resolve(&feature(), &binding, &[], None, None);
    assert_eq!((r.state, r.floor), (CapabilityState::Unavailable, false));
    assert_eq!(r.operations.len(), 1);
    assert_eq!(r.operations[0].operation, "create");
    assert!(!r.operations[0].available);
    assert!(
        r.operations[0]
            .reason
            .as_deref()
            .unwrap()
            .contains("no built-in floor")
    );
    assert!(r.action.as_deref().unwrap().contains("install"));
}

#[test]
fn a_cause_declared_reject_does_not_fall_back_to_the_floor() {
    // Quirk 9, fixed: the reference ran the floor whatever the declared action said.
    let mut d = design();
    for deg in &mut d.degradations {
        if deg.cause == DegradationCause::InvalidBinding {
            deg.action = DegradationAction::Reject;
        }
    }
    let r = resolve(&d, &binding(Some("acme/figma-spec")), &[], None, None);
    assert_eq!((r.state, r.floor), (CapabilityState::Misconfigured, false));
    assert!(r.selection.is_empty());
    assert_eq!(causes(&r), [DegradationCause::InvalidBinding]);
    let loss = r.degradations[0].loss.clone();
    assert_eq!(r.reason.as_deref(), Some(loss.as_str()));
    assert!(
        r.operations
            .iter()
            .all(|o| !o.available && o.reason.as_deref() == Some(loss.as_str()))
    );
    // The same descriptor still falls back for a cause it declares `floor`.
    let r = resolve(
        &d,
        &binding(Some("design")),
        &[lab()],
        Some(&select(vec![contributor("ghost", 1)])),
        Some("create"),
    );
    assert_eq!((r.state, r.floor), (CapabilityState::Degraded, true));
    // A cause declared both ways is refused: `reject` wins.
    d.degradations.push(Degradation {
        cause: DegradationCause::OpaqueSelection,
        action: DegradationAction::Reject,
    });
    let r = resolve(
        &d,
        &binding(Some("design")),
        &[lab()],
        Some(&select(vec![contributor("ghost", 1)])),
        Some("create"),
    );
    assert_eq!(r.state, CapabilityState::Misconfigured);
}

#[test]
fn an_undeclared_cause_or_no_builtin_floor_is_misconfigured() {
    let mut d = design();
    d.degradations
        .retain(|x| x.cause != DegradationCause::InvalidBinding);
    let r = resolve(&d, &binding(Some("acme/figma-spec")), &[], None, None);
    assert_eq!((r.state, r.floor), (CapabilityState::Misconfigured, false));
    assert!(available(&r).is_empty());
    // Declared `floor`, but there is no built-in floor to fall back to.
    let mut d = design();
    d.floor.builtin = false;
    d.floor.kind = FloorKind::Feature;
    let r = resolve(&d, &binding(Some("acme/figma-spec")), &[], None, None);
    assert_eq!((r.state, r.floor), (CapabilityState::Misconfigured, false));
    assert!(available(&r).is_empty());
}

#[test]
fn the_resolution_serializes_with_the_reference_keys_in_order() {
    let r = resolve(
        &design(),
        &binding(Some("acme/figma-spec")),
        &[],
        None,
        None,
    );
    let v = serde_json::to_value(&r).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "capability",
            "state",
            "floor",
            "selection",
            "degradations",
            "operations",
            "reason",
            "action"
        ]
    );
    assert_eq!(v["state"], "degraded");
    assert_eq!(v["degradations"][0]["cause"], "invalid_binding");
    let op: Vec<&str> = v["operations"][0]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(op, ["operation", "available", "reason"]);
    for (s, wire) in [
        (CapabilityState::Ready, "ready"),
        (CapabilityState::Degraded, "degraded"),
        (CapabilityState::Disabled, "disabled"),
        (CapabilityState::Misconfigured, "misconfigured"),
        (CapabilityState::Unavailable, "unavailable"),
    ] {
        assert_eq!(serde_json::to_value(s).unwrap(), wire);
        assert_eq!(s.as_str(), wire);
    }
}

#[test]
fn an_unavailable_operation_is_refused_with_off_or_unavailable() {
    let off = resolve(&design(), &binding(None), &[], None, None);
    assert_eq!(
        operation_state(&off, "create").map(|o| o.available),
        Some(false)
    );
    assert!(operation_state(&off, "consume").is_none());
    let e = check_operation_available(&off, "create").unwrap_err();
    assert_eq!(e.code, ErrorCode::CapabilityOperationOff);
    assert_eq!(Some(e.action), off.action);
    assert_eq!(check_operation_available(&off, "validate"), Ok(()));

    let binding = crate::capability::bindings::classify(None, "example-capability");
    let none = resolve(&feature(), &binding, &[], None, None);
    let e = check_operation_available(&none, "create").unwrap_err();
    assert_eq!(e.code, ErrorCode::CapabilityUnavailable);
    assert!(e.message.contains("no built-in floor"));
}

#[test]
fn a_pin_fails_when_a_pinned_improvement_changed_or_left() {
    let r = with_lab(&[lab()], select(vec![contributor("acme-design-lab", 1)]));
    let pin = pin_selection(&r, &design());
    let changed = [ready(
        improvement("acme-design-lab", Some(improves("design", &["create"], 1))),
        &digest('c'),
        &[CLAUDE],
    )];
    let e = check_pin(&pin, &changed).unwrap_err();
    assert_eq!(e.code, ErrorCode::CapabilitySelectionChanged);
    assert!(e.message.contains("'acme-design-lab'"));
    assert!(e.action.contains("aw capability prepare"));
    assert_eq!(
        check_pin(&pin, &[]).unwrap_err().code,
        ErrorCode::CapabilitySelectionChanged
    );
    // A misconfigured instance under the pinned name has no digest: changed too.
    assert!(check_pin(&pin, &[broken("acme-design-lab", "x")]).is_err());
}

#[test]
fn a_floor_pin_always_passes_and_round_trips_with_its_keys_in_order() {
    let r = resolve(&design(), &binding(Some("design")), &[], None, None);
    let pin = pin_selection(&r, &design());
    assert_eq!(
        pin,
        SelectionPin {
            capability: "design".into(),
            contract_version: 1,
            floor: true,
            instances: vec![],
        }
    );
    assert_eq!(check_pin(&pin, &[]), Ok(()));
    assert_eq!(check_pin(&pin, &[broken("acme-design-lab", "x")]), Ok(()));
    let v = serde_json::to_value(&pin).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        ["capability", "contract_version", "floor", "instances"]
    );
    let back: SelectionPin = serde_json::from_value(v).unwrap();
    assert_eq!(back, pin);
    // A carried pin is closed: an unknown key is refused.
    let extra = serde_json::json!({
        "capability": "design", "contract_version": 1, "floor": true, "instances": [], "x": 1
    });
    assert!(serde_json::from_value::<SelectionPin>(extra).is_err());
}
