//! What the shell observes in the workspace before it takes the lock, for the checks of an
//! answer that look at the disk: the plan a `plan.propuesta-publicada` detail names, the
//! destinations of a proposal, the scope's plan and declared sources, and the live checkouts a
//! checkout proof must match.

use super::answer::Rejection;
use super::plan_evidence::EvidenceFacts;
use super::proof::{ObservedCheckout, SOURCE_BOUNDED_EVIDENCE, proof_verdict};
use super::proposal::Observed;
use super::registry::Action;
use super::state::Scope;
use super::verdict::ExecResult;
use serde_json::{Map, Value};

/// Everything observed for one `submit`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Facts {
    /// The plan files a `plan.propuesta-publicada` detail names.
    pub evidence: EvidenceFacts,
    /// The destinations (and derived-from specs) of the answer's artifacts.
    pub proposal: Observed,
    /// The checkouts a proof may name, each with its live digest (`None`: not observed, so a
    /// proof is checked for its shape only — the library callers' reading).
    pub checkouts: Option<Vec<ObservedCheckout>>,
}

/// Checks a scope answer's `decisions` against what was observed.
pub fn check_scope(decisions: &Map<String, Value>, facts: &Facts) -> Result<Scope, Rejection> {
    let _ = (decisions, facts);
    Err(Rejection::spent(
        crate::error_code::ErrorCode::FlowAnswerInvalid,
        "scope checks are not wired yet",
        "",
    ))
}

/// Checks the checkout proof of an execution result whose action demands one (the evidence
/// `workline.source-bounded`) against the observed checkouts.
pub fn check_proof(result: &ExecResult, action: &Action, facts: &Facts) -> Result<(), Rejection> {
    if !action.evidence.iter().any(|e| e == SOURCE_BOUNDED_EVIDENCE) {
        return Ok(());
    }
    let proof = result
        .validations
        .iter()
        .find(|v| v.id == SOURCE_BOUNDED_EVIDENCE)
        .and_then(|v| v.proof.as_ref());
    proof_verdict(proof, facts.checkouts.as_deref()).map_err(|r| r.into_rejection(&action.recovery))
}
