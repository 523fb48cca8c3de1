//! Effect authorization for capability operations (spec §6.1), as pure functions over the
//! effects an operation's descriptor declares, plus the `off` re-check an apply makes (quirk 13).
//!
//! The six classes and which of them are self-authorizable are the flow engine's
//! ([`EffectClass`]): one list for both subsystems.

use super::bindings::BindingState;
use super::descriptor::{Approval, Authorization, Effect, OffPolicy, Operation};
use super::error::{CapabilityError, CapabilityResult};
use crate::error_code::ErrorCode;
use crate::vocab::flow::EffectClass;
use serde::Serialize;

/// Why a denied class is denied.
pub const DENIED_WHY: &str = "the host's policy does not allow this effect class";

/// What the host allows: classes it refuses outright, and classes it always wants a preflight for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HostPolicy {
    /// Classes refused outright.
    pub denied: Vec<EffectClass>,
    /// Classes that always need a visible preflight, even when self-authorizable.
    pub preflight: Vec<EffectClass>,
}

/// What the invocation does beyond its declared effects.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reach {
    /// The invocation reads a sensitive source (`--sensitive-sources`).
    pub sensitive_sources: bool,
    /// The invocation writes beyond its declared scope (the dispatcher always passes `false`).
    pub scope_expanded: bool,
}

/// A class the host denied, with why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Denied {
    /// The class.
    pub class: EffectClass,
    /// Why.
    pub why: String,
}

/// The authorization of an operation's declared effects.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct EffectAuthorization {
    /// Every declared class, in declaration order.
    pub planned: Vec<EffectClass>,
    /// The classes the invocation authorizes on its own.
    pub self_authorized: Vec<EffectClass>,
    /// The classes that need a visible preflight.
    pub needs_preflight: Vec<EffectClass>,
    /// The classes the host refuses.
    pub denied: Vec<Denied>,
    /// Host or MCP hints, recorded verbatim; they never grant anything.
    pub annotations: Vec<String>,
}

/// Whether a class leaves something behind (every class but `read_only`).
pub fn is_durable(class: EffectClass) -> bool {
    class != EffectClass::ReadOnly
}

/// Whether one declared effect is authorized by the invocation itself: a self-authorizable class,
/// declared as authorized by the invocation with no visible approval, not put under preflight by
/// the host, and not reaching further than declared (`read_only` reading no sensitive source,
/// `local_additive` within its scope).
pub fn self_authorizes(effect: &Effect, reach: Reach, policy: &HostPolicy) -> bool {
    let within_reach = match effect.class {
        EffectClass::ReadOnly => !reach.sensitive_sources,
        EffectClass::LocalAdditive => !reach.scope_expanded,
        _ => true,
    };
    effect.class.self_authorizable()
        && effect.authorization == Authorization::Invocation
        && effect.approval == Approval::None
        && !policy.preflight.contains(&effect.class)
        && within_reach
}

/// Authorizes an operation's declared effects, each in declaration order: every one is planned;
/// a class the host denies is denied (and nothing else); otherwise it is self-authorized or needs
/// a preflight. Annotations are copied and grant nothing.
pub fn authorize_effects(
    effects: &[Effect],
    reach: Reach,
    policy: &HostPolicy,
    annotations: &[String],
) -> EffectAuthorization {
    let mut out = EffectAuthorization {
        planned: Vec::new(),
        self_authorized: Vec::new(),
        needs_preflight: Vec::new(),
        denied: Vec::new(),
        annotations: annotations.to_vec(),
    };
    for effect in effects {
        out.planned.push(effect.class);
        if policy.denied.contains(&effect.class) {
            out.denied.push(Denied {
                class: effect.class,
                why: DENIED_WHY.to_owned(),
            });
        } else if self_authorizes(effect, reach, policy) {
            out.self_authorized.push(effect.class);
        } else {
            out.needs_preflight.push(effect.class);
        }
    }
    out
}

/// Whether the binding's `off` blocks the operation (its own off policy decides).
pub fn blocked_by_off(state: BindingState, operation: &Operation) -> bool {
    state == BindingState::Off && operation.off == OffPolicy::Blocked
}

/// Refuses an operation the capability's `off` binding blocks. Apply calls it again, because the
/// binding may have been turned off between validate and apply (quirk 13, fixed).
pub fn check_not_off(
    capability: &str,
    state: BindingState,
    operation: &Operation,
) -> CapabilityResult<()> {
    if blocked_by_off(state, operation) {
        return Err(CapabilityError::new(
            ErrorCode::CapabilityOperationOff,
            format!(
                "'{capability}' is off, and its operation '{}' is blocked while it is off",
                operation.name
            ),
            format!(
                "remove the '{capability}' binding or set it to '{capability}' in skills.toml, then prepare again"
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
#[path = "effects_tests.rs"]
mod tests;
