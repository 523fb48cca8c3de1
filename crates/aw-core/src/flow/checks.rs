//! The ten construction checks every directive passes (§8.1), in order; the first failure wins.
//! None is reachable in correct operation: they are the invariants that keep a directive from
//! saying two contradictory things.

use super::directive::Directive;
use super::error::{FlowError, FlowResult};
use crate::error_code::ErrorCode;
use crate::vocab::flow::{BoundaryKind, CLI_OWNED, StepOutcome};

const ACTION: &str = "This is a bug in aw (a directive contradicted itself); report it with the command you ran and `aw --version`.";

fn fail(code: ErrorCode, message: impl Into<String>) -> FlowResult<()> {
    Err(FlowError::new(code, message, ACTION))
}

fn blank(s: &str) -> bool {
    s.trim().is_empty()
}

/// Checks a directive.
pub fn check(d: &Directive) -> FlowResult<()> {
    let kind = d.boundary.kind;
    if blank(&d.next_action) {
        return fail(
            ErrorCode::FlowDirectiveNoNextAction,
            "The directive has no next action.",
        );
    }
    if kind == BoundaryKind::Final {
        if !d.pending.is_empty() {
            return fail(
                ErrorCode::FlowDirectiveFinalWithPending,
                "A final directive still lists pending transitions.",
            );
        }
        if d.boundary.transition.is_some() {
            return fail(
                ErrorCode::FlowDirectiveFinalWithTransition,
                "A final directive names a transition.",
            );
        }
    } else if d.boundary.transition.is_none() {
        return fail(
            ErrorCode::FlowDirectiveBoundaryWithoutTransition,
            format!("A {} boundary names no transition.", kind.as_str()),
        );
    }
    match (kind == BoundaryKind::Semantic, d.request.is_some()) {
        (true, false) => {
            return fail(
                ErrorCode::FlowDirectiveSemanticWithoutRequest,
                "A semantic boundary carries no request.",
            );
        }
        (false, true) => {
            return fail(
                ErrorCode::FlowDirectiveRequestWithoutSemantic,
                format!("A {} boundary carries a semantic request.", kind.as_str()),
            );
        }
        _ => {}
    }
    check_action(d)?;
    check_choices(d)?;
    if kind == BoundaryKind::Blocked && d.error.is_none() {
        return fail(
            ErrorCode::FlowDirectiveBlockedWithoutCause,
            "A blocked boundary carries no cause.",
        );
    }
    if kind == BoundaryKind::Authorization
        && d.effects
            .planned
            .iter()
            .all(|c| d.authorizations.contains(c))
    {
        return fail(
            ErrorCode::FlowDirectiveAuthorizationWithoutGap,
            "An authorization boundary asks for classes the run already holds.",
        );
    }
    if d.boundary.transition.is_some()
        && !matches!(kind, BoundaryKind::Blocked | BoundaryKind::Authorization)
        && d.boundary.ownership.as_deref() != Some(CLI_OWNED)
    {
        return fail(
            ErrorCode::FlowDirectiveOwnershipContradicted,
            format!(
                "A {} boundary stands on a transition the CLI does not own.",
                kind.as_str()
            ),
        );
    }
    for c in d.effects.applied.iter().chain(d.effects.approved.iter()) {
        if !d.effects.planned.contains(c) {
            return fail(
                ErrorCode::FlowDirectiveEffectUnplanned,
                format!("The effect class {} is not planned.", c.as_str()),
            );
        }
    }
    for (i, step) in d.applied.iter().enumerate() {
        if d.applied[..i]
            .iter()
            .any(|s| s.transition == step.transition)
        {
            return fail(
                ErrorCode::FlowDirectiveAppliedRepeated,
                format!("The trace lists '{}' twice.", step.transition),
            );
        }
        let has_reason = step.reason.as_deref().is_some_and(|r| !blank(r));
        let mismatch = match step.outcome {
            StepOutcome::Skipped => !has_reason,
            StepOutcome::Applied => step.reason.is_some(),
        };
        if mismatch {
            return fail(
                ErrorCode::FlowDirectiveStepReasonMismatch,
                format!(
                    "Step '{}' is {} {} a reason.",
                    step.transition,
                    if step.outcome == StepOutcome::Skipped {
                        "skipped"
                    } else {
                        "applied"
                    },
                    if step.outcome == StepOutcome::Skipped {
                        "without"
                    } else {
                        "with"
                    },
                ),
            );
        }
    }
    Ok(())
}

fn check_action(d: &Directive) -> FlowResult<()> {
    let kind = d.boundary.kind;
    match (&d.action, kind == BoundaryKind::Execution) {
        (Some(_), false) => fail(
            ErrorCode::FlowDirectiveActionWithoutBoundary,
            format!("A {} boundary carries an action.", kind.as_str()),
        ),
        (None, true) => fail(
            ErrorCode::FlowDirectiveExecutionWithoutAction,
            "An execution boundary carries no action.",
        ),
        (Some(a), true) => {
            if blank(&a.invocation.program) || blank(&a.invocation.target) {
                fail(
                    ErrorCode::FlowDirectiveActionIncomplete,
                    "The action lacks its program or its target.",
                )
            } else if a.evidence.is_empty() {
                fail(
                    ErrorCode::FlowDirectiveActionWithoutEvidence,
                    "The action demands no evidence.",
                )
            } else if blank(&a.recovery) {
                fail(
                    ErrorCode::FlowDirectiveActionWithoutRecovery,
                    "The action has no recovery.",
                )
            } else {
                Ok(())
            }
        }
        (None, false) => Ok(()),
    }
}

fn check_choices(d: &Directive) -> FlowResult<()> {
    let kind = d.boundary.kind;
    let chooses = matches!(kind, BoundaryKind::Human | BoundaryKind::Authorization);
    if !chooses {
        if !d.choices.is_empty() {
            return fail(
                ErrorCode::FlowDirectiveChoicesWithoutBoundary,
                format!("A {} boundary carries choices.", kind.as_str()),
            );
        }
        return Ok(());
    }
    if d.choices.len() < 2 {
        return fail(
            ErrorCode::FlowDirectiveChoiceSetTooSmall,
            format!(
                "A {} boundary offers fewer than two choices.",
                kind.as_str()
            ),
        );
    }
    if d.choices
        .iter()
        .any(|c| blank(&c.label) || blank(&c.consequence))
    {
        return fail(
            ErrorCode::FlowDirectiveChoiceWithoutConsequence,
            "A choice lacks its label or its consequence.",
        );
    }
    if d.choices.iter().filter(|c| c.recommended).count() != 1 {
        return fail(
            ErrorCode::FlowDirectiveRecommendationAmbiguous,
            "The choices do not recommend exactly one option.",
        );
    }
    Ok(())
}
