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
    /// What a scope answer is checked against.
    pub scope: ScopeFacts,
}

/// What a scope answer is checked against, read before the lock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScopeFacts {
    /// The plan folder of the docs canon, or why it did not resolve.
    pub plan_canon: Result<String, String>,
    /// The aliases the WORKSPACE block declares (`None`: the block does not read).
    pub declared: Option<Vec<String>>,
    /// The text of the plan the answer names (`None`: not read or unreadable).
    pub plan_text: Option<String>,
}

impl Default for ScopeFacts {
    fn default() -> Self {
        ScopeFacts {
            plan_canon: Ok(PLAN_CANON.to_owned()),
            declared: Some(Vec::new()),
            plan_text: None,
        }
    }
}

/// The plan folder: aw has no relocatable docs canon, so it is always this.
pub const PLAN_CANON: &str = "docs/plans";

/// Checks a scope answer's `decisions` against what was observed.
pub fn check_scope(decisions: &Map<String, Value>, facts: &Facts) -> Result<Scope, Rejection> {
    let f = &facts.scope;
    super::scope::check(
        &Value::Object(decisions.clone()),
        f.plan_canon.as_deref().map_err(String::as_str),
        f.declared.as_deref(),
        f.plan_text.as_deref(),
    )
    .map_err(|r| {
        let code = crate::error_code::ErrorCode::from_wire(r.code.as_str())
            .unwrap_or(crate::error_code::ErrorCode::FlowScopeInvalid);
        Rejection::spent(code, r.message, r.action)
    })
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

#[cfg(test)]
mod tests {
    use crate::error_code::ErrorCode;
    use crate::flow::scope::ScopeCode;

    #[test]
    fn every_scope_refusal_has_its_error_code() {
        for c in ScopeCode::ALL {
            assert!(ErrorCode::from_wire(c.as_str()).is_some(), "{}", c.as_str());
        }
    }
}
