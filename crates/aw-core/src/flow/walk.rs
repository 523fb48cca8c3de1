//! The walk (§6): from the cursor, apply every row the CLI can apply itself, skip (with a
//! reason) every row whose condition did not fire or whose attempts are exhausted and
//! degradable, and stop at the first row it can do neither with.

use super::boundary::{Resolved, action_digest, boundary_seal, exhaustion_skip, resolve};
use super::directive::{Overrides, Step, directive_for};
use super::effects::authorize_transition;
use super::error::FlowResult;
use super::journey::Journey;
use super::run::Turn;
use super::state::{PendingAction, RunState};
use super::threshold::skip_reason;
use crate::vocab::flow::{Authority, BoundaryKind};

/// Walks the state forward as far as the CLI may go on its own.
pub fn walk(state: &mut RunState, journey: &Journey<'_>) -> Vec<Step> {
    let mut steps = Vec::new();
    while let Some(row) = journey.at(state.cursor()) {
        // Conditions and exhaustion come before authority: a human row whose condition did
        // not fire is never asked.
        let reason = skip_reason(row, journey, state)
            .map(str::to_owned)
            .or_else(|| exhaustion_skip(row, state));
        if let Some(reason) = reason {
            state.skip_transition(&row.id);
            steps.push(Step::skipped(row, reason));
            continue;
        }
        if row.authority != Authority::Cli
            || !row.owned()
            || !authorize_transition(row, &state.authorizations)
                .missing
                .is_empty()
            || row.action.is_some()
        {
            break;
        }
        state.apply_transition(&row.id, &row.effects());
        steps.push(Step::applied(row));
    }
    steps
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
    state.pending_action = match (&resolved.emitted, resolved.stopped, resolved.kind) {
        (Some(a), Some(row), BoundaryKind::Execution) => Some(PendingAction {
            transition: row.id.to_string(),
            digest: action_digest(a),
        }),
        _ => None,
    };
    // The seal covers the state exactly as persisted, pending action included.
    resolved.seal = boundary_seal(&state, resolved.stopped, resolved.emitted.as_ref());
    let directive = directive_for(&state, journey, &resolved, steps, Overrides::default())?;
    Ok(Turn {
        state,
        directive,
        write: true,
    })
}
