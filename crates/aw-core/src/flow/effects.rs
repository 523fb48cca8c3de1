//! Effect authorization per transition (§9.6) and the approval digest (§9.7).

use super::registry::Decision;
use crate::canonical::semantic_digest;
use crate::vocab::flow::EffectClass;
use serde_json::json;

/// What a transition needs before the run may apply it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Authorization {
    /// Every class the row exercises.
    pub planned: Vec<EffectClass>,
    /// The planned classes the run may exercise on its own.
    pub self_authorized: Vec<EffectClass>,
    /// The planned classes that need a person's approval.
    pub needs_preflight: Vec<EffectClass>,
    /// The planned classes already covered.
    pub covered: Vec<EffectClass>,
    /// The classes still to approve.
    pub missing: Vec<EffectClass>,
}

/// What the row needs, given the classes the run was already granted.
pub fn authorize_transition(row: &Decision, granted: &[EffectClass]) -> Authorization {
    let planned = row.effects();
    let (self_authorized, needs_preflight): (Vec<_>, Vec<_>) =
        planned.iter().partition(|c| c.self_authorizable());
    let missing: Vec<EffectClass> = needs_preflight
        .iter()
        .copied()
        .filter(|c| !granted.contains(c))
        .collect();
    let covered = planned
        .iter()
        .copied()
        .filter(|c| !missing.contains(c))
        .collect();
    Authorization {
        planned,
        self_authorized,
        needs_preflight,
        covered,
        missing,
    }
}

/// The digest an approval must quote: over the transition id and all its planned classes,
/// sorted, so it cannot be replayed for another transition or another set of classes.
pub fn approval_digest(transition: &str, classes: &[EffectClass]) -> String {
    let mut names: Vec<&str> = classes.iter().map(|c| c.as_str()).collect();
    names.sort_unstable();
    semantic_digest(&json!({ "transition": transition, "effects": names }))
}
