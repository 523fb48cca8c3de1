//! The rejection classes of an answer (flow-spec-v22 §5.1): which refusals spend one of the
//! boundary's attempts. Only an answer the engine evaluated spends; a malformed or stale
//! envelope, or a flow-control choice, does not, so a typo never burns the boundary.

use crate::error_code::ErrorCode;

/// Refusals of the envelope, before any judgment: free.
pub const ENVELOPE: &[&str] = &[
    "FLOW_ANSWER_MISSING",
    "FLOW_ANSWER_INVALID",
    "FLOW_ANSWER_STALE",
    "FLOW_ANSWER_NOT_EXPECTED",
    "FLOW_RESULT_INVALID",
    "FLOW_ARTIFACTS_MISSING",
    "FLOW_ARTIFACTS_NOT_EXPECTED",
    "SEMANTIC_PATH_REJECTED",
    "SEMANTIC_RESPONSE_INVALID",
    "DOCS_CANON_INVALID",
    "FLOW_ACTION_CHANGED",
];

/// Refusals of an evaluated answer: each spends an attempt.
pub const EVALUATED: &[&str] = &[
    "FLOW_ANSWER_AMBIGUOUS",
    "FLOW_SIGNAL_UNKNOWN",
    "FLOW_CHOICE_UNKNOWN",
    "FLOW_APPROVAL_MISSING",
    "FLOW_APPROVAL_MISMATCH",
    "FLOW_ACTION_MISMATCH",
    "FLOW_EXECUTION_NOT_COMPLETED",
    "FLOW_EVIDENCE_MISSING",
    "WORKLINE_CHECKOUT_PROOF_MISSING",
    "WORKLINE_CHECKOUT_PROOF_INVALID",
    "WORKLINE_CHECKOUT_PROOF_STALE",
    "FLOW_EFFECT_PARTIAL",
    "FLOW_SCOPE_INVALID",
    "FLOW_SCOPE_UNKNOWN_SOURCE",
    "FLOW_SCOPE_NOT_IN_PLAN",
    "FLOW_SCOPE_PLAN_UNREADABLE",
    "FLOW_SCOPE_PLAN_OUTSIDE_CANON",
    "PLAN_SOURCE_BOUNDARY_MISSING",
    "PLAN_SOURCE_UNKNOWN",
    "PLAN_TASK_SOURCE_OUTSIDE_PHASE",
    "PLAN_SOURCE_EXTERNAL_CLOSURE",
    "PLAN_SOURCE_LOCAL_PROOF_MISSING",
    "FLOW_PROPOSAL_BEYOND_CONTRACT",
    "FLOW_PROPOSAL_DESTINATION_UNOBSERVED",
    "FLOW_PROPOSAL_BASE_UNREADABLE",
];

/// Flow-control outcomes: free.
pub const CONTROL: &[&str] = &[
    "FLOW_BOUNDARY_PAUSED",
    "FLOW_BOUNDARY_DECLINED",
    "FLOW_ANSWER_RESENT",
];

/// Whether a refusal with `code` spends an attempt: every code but the envelope's and the
/// control ones (an unlisted code spends, the safe side).
pub fn spends_attempt(code: ErrorCode) -> bool {
    let wire = code.as_str();
    !ENVELOPE.contains(&wire) && !CONTROL.contains(&wire)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_evaluated_answers_spend() {
        assert!(!spends_attempt(ErrorCode::FlowAnswerInvalid));
        assert!(!spends_attempt(ErrorCode::FlowAnswerMissing));
        assert!(!spends_attempt(ErrorCode::FlowResultInvalid));
        assert!(!spends_attempt(ErrorCode::FlowBoundaryPaused));
        assert!(!spends_attempt(ErrorCode::FlowAnswerNotExpected));
        assert!(spends_attempt(ErrorCode::FlowSignalUnknown));
        assert!(spends_attempt(ErrorCode::FlowEvidenceMissing));
        // Not listed anywhere: spends.
        assert!(spends_attempt(ErrorCode::IoError));
        for list in [ENVELOPE, EVALUATED, CONTROL] {
            for other in [ENVELOPE, EVALUATED, CONTROL] {
                if !std::ptr::eq(list, other) {
                    assert!(list.iter().all(|c| !other.contains(c)), "{c:?}", c = list);
                }
            }
        }
    }
}
