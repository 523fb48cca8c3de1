//! The walk (§6): from the cursor, apply every row the CLI can apply itself, skip (with a
//! reason) every row whose condition did not fire or whose attempts are exhausted and
//! degradable, and stop at the first row it can do neither with.

use super::boundary::{
    Resolved, action_digest, authorization_of, boundary_seal, exhaustion_skip, resolve,
};
use super::directive::{Overrides, Step, directive_for};
use super::error::FlowResult;
use super::journey::Journey;
use super::proposal::PUBLISH_OPERATION;
use super::registry::{Decision, Execution};
use super::run::Turn;
use super::state::RunState;
use super::threshold::skip_reason;
use crate::vocab::flow::{Authority, BoundaryKind};

/// Walks the state forward as far as the CLI may go on its own.
pub fn walk(state: &mut RunState, journey: &Journey<'_>) -> Vec<Step> {
    let mut steps = Vec::new();
    while let Some(row) = journey.at(state.cursor()) {
        // Conditions and exhaustion come before authority: a human row whose condition did
        // not fire is never asked.
        let passed = skip_reason(row, journey, state)
            .map(str::to_owned)
            .or_else(|| nothing_to_publish(row, state));
        if let Some(reason) = passed {
            state.skip_transition(&row.id);
            steps.push(Step::skipped(row, reason));
            continue;
        }
        if let Some(cause) = exhaustion_skip(row, state) {
            state.degrade_transition(&row.id, &cause);
            steps.push(Step::skipped(row, cause));
            continue;
        }
        if row.authority != Authority::Cli
            || !row.owned()
            || !authorization_of(row, state).missing.is_empty()
            || row.action.is_some()
        {
            break;
        }
        state.apply_transition(&row.id, &row.effects());
        steps.push(Step::applied(row));
    }
    steps
}

/// The reason a publication row is passed over: no proposal is seated (the person chose to
/// refine instead of approving), so there is nothing to write.
fn nothing_to_publish(row: &Decision, state: &RunState) -> Option<String> {
    (state.proposal.is_none()
        && row.action.as_ref().is_some_and(|a| {
            matches!(&a.execution, Some(Execution::Internal { operation, .. }) if operation == PUBLISH_OPERATION)
        }))
    .then(|| "no approved proposal is left: nothing was written".to_owned())
}

/// Walks, settles the boundary and its pending action, and builds the directive; `seed` are
/// steps already taken by this invocation (the answered transition). A walked state is always
/// written (the shell still skips a write that changes no byte).
pub fn advance_run<'a>(
    mut state: RunState,
    journey: &Journey<'a>,
    seed: Vec<Step>,
) -> FlowResult<Turn> {
    journey.check(&state)?;
    let mut steps = seed;
    steps.extend(walk(&mut state, journey));
    state.boundary = journey.at(state.cursor()).map(|d| d.id.to_string());
    let mut resolved: Resolved<'a> = resolve(&state, journey);
    state.set_pending_action(match (&resolved.emitted, resolved.stopped, resolved.kind) {
        (Some(a), Some(row), BoundaryKind::Execution) => {
            Some((row.id.to_string(), action_digest(a)))
        }
        _ => None,
    });
    // The seal covers the state exactly as persisted, pending action included.
    resolved.seal = boundary_seal(&state, resolved.stopped, resolved.emitted.as_ref());
    let directive = directive_for(&state, &resolved, steps, Overrides::default())?;
    Ok(Turn {
        state,
        directive,
        write: true,
    })
}
