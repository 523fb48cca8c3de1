//! The `recover` verb as a pure function: gives an exhausted boundary its attempts back, as a
//! recorded grant (the attempt history is never deleted), so it can be answered again.
//!
//! The reference v21.3.0 had no way out of an exhausted boundary that cannot be degraded short
//! of deleting the state; its later versions added this verb, and aw follows their refusals.

use super::boundary::resolve;
use super::error::{FlowError, FlowResult};
use super::journey::Journey;
use super::next_action::advance_command;
use super::run::Turn;
use super::state::{RunState, event};
use super::walk::advance_run;
use crate::error_code::ErrorCode;
use crate::vocab::flow::MAX_BOUNDARY_ATTEMPTS;

/// Gives the exhausted boundary in force its attempts back. `transition`, when given, must name
/// that boundary.
pub fn recover(
    mut state: RunState,
    journey: &Journey<'_>,
    transition: Option<&str>,
) -> FlowResult<Turn> {
    journey.check(&state)?;
    let folder = state.session.clone();
    let resolved = resolve(&state, journey);
    let unchanged = "Nothing was changed.";
    let Some(row) = resolved.stopped else {
        return Err(FlowError::new(
            ErrorCode::FlowRecoveryNotNeeded,
            "The journey is finished: there are no attempts to give back.",
            format!("{unchanged} Nothing is left to do in this run."),
        ));
    };
    if state.boundary.is_none() {
        return Err(FlowError::new(
            ErrorCode::FlowRecoveryNotNeeded,
            "The run stands on no boundary: there are no attempts to give back.",
            format!(
                "{unchanged} Run `{}` to see where the run stands.",
                advance_command(&folder)
            ),
        ));
    }
    if let Some(t) = transition
        && t != row.id
    {
        return Err(FlowError::new(
            ErrorCode::FlowRecoveryOtherBoundary,
            format!("The run stands on '{}', not on '{t}'.", row.id),
            format!(
                "{unchanged} Only the boundary in force can get its attempts back: run `aw flow \
                 recover --session {folder} --transition {}`, or leave --transition out.",
                row.id
            ),
        ));
    }
    let counted = state.attempts_at(&row.id);
    if counted < MAX_BOUNDARY_ATTEMPTS {
        return Err(FlowError::new(
            ErrorCode::FlowRecoveryNotNeeded,
            format!(
                "'{}' has used {counted} of its {MAX_BOUNDARY_ATTEMPTS} attempts: it is not exhausted.",
                row.id
            ),
            format!(
                "{unchanged} Answer it as `{}` describes.",
                advance_command(&folder)
            ),
        ));
    }
    // The run's own trace says whether the world moved here, or whether nobody can tell.
    let trace: Vec<&serde_json::Value> = state
        .events
        .iter()
        .filter(|e| e.get("transition").and_then(serde_json::Value::as_str) == Some(&*row.id))
        .collect();
    if let Some(material) = trace.iter().rev().find(|e| event::is_material(e)) {
        let operation = material
            .get("operation")
            .and_then(serde_json::Value::as_str)
            .unwrap_or("its action");
        let recovery = material
            .get("recovery")
            .and_then(serde_json::Value::as_str)
            .or(row.action.as_ref().map(|a| &*a.recovery))
            .unwrap_or("settle it by hand");
        return Err(FlowError::new(
            ErrorCode::FlowRecoveryEffectsApplied,
            format!(
                "'{}' already changed something: `{operation}` reported effects past reading. \
                 Giving its attempts back would invite a second answer on top of what happened.",
                row.id
            ),
            format!(
                "{unchanged} Settle what it did outside the run ({}), record it under '## Open \
                 questions' in the session or in BACKLOG.",
                recovery.trim_end_matches('.')
            ),
        ));
    }
    if trace.is_empty()
        && state
            .pending_action
            .as_ref()
            .is_some_and(|p| p.transition == row.id && p.attempted)
    {
        return Err(FlowError::new(
            ErrorCode::FlowRecoveryExecutionUnverified,
            format!(
                "aw began running '{}' and no result came back: nobody can say whether it changed \
                 anything.",
                row.id
            ),
            format!(
                "{unchanged} Run `{}` first: it runs the step again and records what it did.",
                advance_command(&folder)
            ),
        ));
    }
    let counted = state.attempts_at(&row.id);
    state.grant_attempts(&row.id, counted);
    advance_run(state, journey, Vec::new())
}
