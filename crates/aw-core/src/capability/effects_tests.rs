use super::*;
use crate::capability::builtin::design_descriptor;
use crate::capability::descriptor::Descriptor;

/// The default declaration of a class: by invocation with no approval when self-authorizable,
/// by preflight with a visible approval otherwise (the reference's test fixture).
fn declared(class: EffectClass) -> Effect {
    let own = class.self_authorizable();
    Effect {
        class,
        idempotent: false,
        authorization: if own {
            Authorization::Invocation
        } else {
            Authorization::Preflight
        },
        approval: if own {
            Approval::None
        } else {
            Approval::Visible
        },
    }
}

fn design() -> Descriptor {
    match design_descriptor() {
        Ok(d) => d,
        Err(f) => panic!("design descriptor: {f:?}"),
    }
}

fn plain(effects: &[Effect]) -> EffectAuthorization {
    authorize_effects(effects, Reach::default(), &HostPolicy::default(), &[])
}

#[test]
fn only_read_only_and_local_additive_authorize_themselves() {
    for class in EffectClass::ALL {
        let a = plain(&[declared(class)]);
        assert_eq!(a.planned, vec![class]);
        if class.self_authorizable() {
            assert_eq!(a.self_authorized, vec![class], "{class:?}");
            assert!(a.needs_preflight.is_empty());
        } else {
            assert_eq!(a.needs_preflight, vec![class], "{class:?}");
            assert!(a.self_authorized.is_empty());
        }
    }
}

#[test]
fn a_self_authorizable_class_declared_for_preflight_needs_one() {
    let mut e = declared(EffectClass::LocalAdditive);
    e.authorization = Authorization::Preflight;
    assert_eq!(
        plain(&[e]).needs_preflight,
        vec![EffectClass::LocalAdditive]
    );
    let mut e = declared(EffectClass::ReadOnly);
    e.approval = Approval::Visible;
    assert_eq!(plain(&[e]).needs_preflight, vec![EffectClass::ReadOnly]);
}

/// Authorizes `read_only` + `local_additive` under `reach`: (self-authorized, needs preflight).
fn under(reach: Reach) -> (Vec<EffectClass>, Vec<EffectClass>) {
    let declared = [
        declared(EffectClass::ReadOnly),
        declared(EffectClass::LocalAdditive),
    ];
    let a = authorize_effects(&declared, reach, &HostPolicy::default(), &[]);
    (a.self_authorized, a.needs_preflight)
}

#[test]
fn read_only_with_sensitive_sources_needs_a_preflight() {
    let (own, preflight) = under(Reach {
        sensitive_sources: true,
        scope_expanded: false,
    });
    assert_eq!(preflight, vec![EffectClass::ReadOnly]);
    assert_eq!(own, vec![EffectClass::LocalAdditive]);
}

#[test]
fn local_additive_with_an_expanded_scope_needs_a_preflight() {
    let (own, preflight) = under(Reach {
        sensitive_sources: false,
        scope_expanded: true,
    });
    assert_eq!(preflight, vec![EffectClass::LocalAdditive]);
    assert_eq!(own, vec![EffectClass::ReadOnly]);
}

#[test]
fn a_host_preflight_removes_self_authorization_and_a_deny_denies_only() {
    let policy = HostPolicy {
        denied: vec![EffectClass::NetworkExternal],
        preflight: vec![EffectClass::LocalAdditive],
    };
    let a = authorize_effects(
        &[
            declared(EffectClass::LocalAdditive),
            declared(EffectClass::NetworkExternal),
        ],
        Reach::default(),
        &policy,
        &[],
    );
    assert_eq!(
        a.planned,
        vec![EffectClass::LocalAdditive, EffectClass::NetworkExternal]
    );
    assert_eq!(a.needs_preflight, vec![EffectClass::LocalAdditive]);
    assert!(a.self_authorized.is_empty());
    assert_eq!(
        a.denied,
        vec![Denied {
            class: EffectClass::NetworkExternal,
            why: DENIED_WHY.to_owned()
        }]
    );
}

#[test]
fn an_annotation_is_recorded_verbatim_and_grants_nothing() {
    let notes = vec!["mcp: openWorldHint=false".to_owned()];
    let a = authorize_effects(
        &[declared(EffectClass::NetworkExternal)],
        Reach::default(),
        &HostPolicy::default(),
        &notes,
    );
    assert_eq!(a.annotations, notes);
    assert_eq!(a.needs_preflight, vec![EffectClass::NetworkExternal]);
}

#[test]
fn design_render_needs_a_preflight_for_network_external_and_validate_needs_none() {
    let d = design();
    let op = |n: &str| {
        d.operation(n)
            .map(|o| o.effects.clone())
            .unwrap_or_default()
    };
    assert_eq!(
        plain(&op("render")).needs_preflight,
        vec![EffectClass::NetworkExternal]
    );
    assert!(plain(&op("validate")).needs_preflight.is_empty());
}

#[test]
fn only_read_only_is_not_durable() {
    for class in EffectClass::ALL {
        assert_eq!(is_durable(class), class != EffectClass::ReadOnly);
    }
}

#[test]
fn off_blocks_exactly_the_operations_whose_policy_says_so() {
    let d = design();
    for op in &d.operations {
        let blocked = check_not_off("design", BindingState::Off, op).is_err();
        assert_eq!(blocked, op.off == OffPolicy::Blocked, "{}", op.name);
        assert!(check_not_off("design", BindingState::FloorAndImprovements, op).is_ok());
        assert!(check_not_off("design", BindingState::Misconfigured, op).is_ok());
    }
    let create = d.operation("create");
    let err = create.map(|op| check_not_off("design", BindingState::Off, op));
    match err {
        Some(Err(e)) => {
            assert_eq!(e.code, ErrorCode::CapabilityOperationOff);
            assert!(!e.action.trim().is_empty());
        }
        other => panic!("create under off: {other:?}"),
    }
}
