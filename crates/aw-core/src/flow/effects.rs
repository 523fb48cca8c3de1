//! Effect authorization per transition (flow-spec-v22 §7) and the approval digest.
//!
//! An approval is a grant over one seal: the approval digest of a row and its planned classes,
//! or the digest of the proposal it decided. A grant never covers another transition, even one
//! of the same class. A row in the run's custody (`custody: "run"`) needs no person for the
//! classes custody may cover, except when a seated proposal is its subject: somebody's sealed
//! bytes keep their preflight whoever publishes them.

use super::registry::{Custody, Decision};
use super::state::Grant;
use crate::canonical::semantic_digest;
use crate::capability::descriptor::{Approval, Authorization as Who, Effect};
use crate::capability::effects::{HostPolicy, Reach, self_authorizes};
use crate::vocab::flow::EffectClass;
use serde_json::json;

/// The classes a row's custody may cover without a person.
pub const CUSTODY_COVERABLE: [EffectClass; 4] = [
    EffectClass::ReadOnly,
    EffectClass::LocalAdditive,
    EffectClass::MutateOverwrite,
    EffectClass::Execute,
];

/// A seated proposal standing as the subject of the row that decides or publishes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subject {
    /// The proposal's seal.
    pub digest: String,
    /// What publishing it really exercises (observed when it was sealed).
    pub effects: Vec<EffectClass>,
    /// Its reach: whether it read a sensitive source, whether it writes past what was shown.
    pub reach: Reach,
}

/// What a transition needs before the run may apply it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Authorization {
    /// Every class the row (or its subject) exercises.
    pub planned: Vec<EffectClass>,
    /// The planned classes the run may exercise on its own.
    pub self_authorized: Vec<EffectClass>,
    /// The planned classes that need a person's approval, or custody.
    pub needs_preflight: Vec<EffectClass>,
    /// The classes covered: self-authorized ones, then those a grant over this seal or custody
    /// covers.
    pub covered: Vec<EffectClass>,
    /// The classes still to approve.
    pub missing: Vec<EffectClass>,
    /// The seal an approval of this boundary is given over.
    pub seal: String,
}

/// What the row needs, given the grants the run holds and the proposal it stands over, if any.
pub fn authorize_transition(
    row: &Decision,
    grants: &[Grant],
    subject: Option<&Subject>,
) -> Authorization {
    let planned = match subject {
        Some(s) => s.effects.clone(),
        None => row.effects(),
    };
    let reach = subject.map_or(Reach::default(), |s| s.reach);
    let (self_authorized, needs_preflight): (Vec<_>, Vec<_>) = planned.iter().partition(|c| {
        let declared = Effect {
            class: **c,
            idempotent: true,
            authorization: Who::Invocation,
            approval: Approval::None,
        };
        self_authorizes(&declared, reach, &HostPolicy::default())
    });
    let seal = subject.map_or_else(|| approval_digest(&row.id, &planned), |s| s.digest.clone());
    let custody = subject.is_none() && row.custody == Some(Custody::Run);
    let covers = |c: &EffectClass| {
        grants
            .iter()
            .any(|g| g.digest == seal && g.classes.contains(c))
            || (custody && CUSTODY_COVERABLE.contains(c))
    };
    let (held, missing): (Vec<_>, Vec<_>) = needs_preflight.iter().partition(|c| covers(c));
    let covered = self_authorized.iter().chain(held.iter()).copied().collect();
    Authorization {
        planned,
        self_authorized,
        needs_preflight,
        covered,
        missing,
        seal,
    }
}

/// The digest an approval must quote: over the transition id and all its planned classes,
/// sorted, so it cannot be replayed for another transition or another set of classes.
pub fn approval_digest(transition: &str, classes: &[EffectClass]) -> String {
    let mut names: Vec<&str> = classes.iter().map(|c| c.as_str()).collect();
    names.sort_unstable();
    semantic_digest(&json!({ "transition": transition, "effects": names }))
}
