//! The `recover` verb as a pure function: gives an exhausted boundary its attempts back, as a
//! recorded grant (the attempt history is never deleted), so it can be answered again.
//!
//! The reference v21.3.0 had no way out of an exhausted boundary that cannot be degraded short
//! of deleting the state; its later versions added this verb, and aw follows their refusals.

use super::boundary::{action_digest, resolve};
use super::error::{FlowError, FlowResult};
use super::journey::Journey;
use super::next_action::advance_command;
use super::run::Turn;
use super::state::RunState;
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
    let Some(row) = resolved.stopped.filter(|_| state.boundary.is_some()) else {
        return Err(FlowError::new(
            ErrorCode::FlowRecoveryNotNeeded,
            "The run stands on no boundary: there are no attempts to give back.",
            format!(
                "{unchanged} Run `{}` to see where the run stands.",
                advance_command(&folder)
            ),
        ));
    };
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
    if let Some(action) = &row.action {
        if !action.idempotent {
            return Err(FlowError::new(
                ErrorCode::FlowRecoveryEffectsApplied,
                format!(
                    "'{}' runs an action that is not safe to repeat, and its refused attempts may \
                     already have exercised its effects: attempts are not given back over something \
                     that may already have happened.",
                    row.id
                ),
                format!(
                    "{unchanged} Check by hand what the action did, settle it outside the run, and \
                     record it under '## Open questions' in the session or in BACKLOG."
                ),
            ));
        }
        if let (Some(pending), Some(emitted)) = (&state.pending_action, &resolved.emitted)
            && (pending.transition != row.id || pending.digest != action_digest(emitted))
        {
            return Err(FlowError::new(
                ErrorCode::FlowRecoveryExecutionUnverified,
                format!(
                    "The attempts of '{}' answered an action other than the one this aw emits: \
                     their results cannot be verified against it.",
                    row.id
                ),
                format!(
                    "{unchanged} Run `{}` so the current action is sealed, then run `aw flow \
                     recover --session {folder}` again.",
                    advance_command(&folder)
                ),
            ));
        }
    }
    let counted = state.attempts_at(&row.id);
    state.grant_attempts(&row.id, counted);
    advance_run(state, journey, Vec::new())
}
