//! The `advance` verb as a pure function, and the adoption rules (§4.7): which state a call
//! starts from, and what it hands back to the shell.

use super::directive::Directive;
use super::error::{FlowError, FlowResult};
use super::journey::Journey;
use super::state::RunState;
use super::walk::advance_run;
use crate::error_code::ErrorCode;
use crate::vocab::flow::Flow;

/// What one invocation produced: the state to persist and the directive to print.
#[derive(Debug, Clone)]
pub struct Turn {
    /// The state after the invocation.
    pub state: RunState,
    /// The directive.
    pub directive: Directive,
    /// Whether the state may be written (the shell still skips a write that changes no byte).
    pub write: bool,
}

/// The state an `advance` starts from: the stored one, or a fresh one when adopting a session
/// that has none. `--flow` and `--adopt` are ignored when a state exists.
pub fn starting_state(
    stored: Option<RunState>,
    folder: &str,
    adopt: bool,
    flow: Option<&str>,
) -> FlowResult<RunState> {
    if let Some(state) = stored {
        return Ok(state);
    }
    if !adopt {
        return Err(FlowError::new(
            ErrorCode::FlowRunAbsent,
            format!("Session '{folder}' has no run state."),
            format!(
                "Adopt it with `aw flow advance --session {folder} --flow <flow> --adopt`, naming its \
                 flow (one of: {}).",
                Flow::list()
            ),
        ));
    }
    let action = format!(
        "Name the session's flow: `aw flow advance --session {folder} --flow <flow> --adopt`, with \
         <flow> one of: {}. The flow is never guessed from the folder name.",
        Flow::list()
    );
    match flow.map(str::trim).filter(|f| !f.is_empty()) {
        None => Err(FlowError::new(
            ErrorCode::FlowAdoptionFlowMissing,
            "Adopting a session without a run state needs its flow.",
            action,
        )),
        Some(f) => match Flow::parse(f) {
            Some(flow) => Ok(RunState::new(flow, folder)),
            None => Err(FlowError::new(
                ErrorCode::FlowAdoptionFlowMissing,
                format!("'{f}' is not a Workline flow."),
                action,
            )),
        },
    }
}

/// Walks a run as far as the CLI may go and returns the directive at its boundary.
pub fn advance(state: RunState, journey: &Journey<'_>) -> FlowResult<Turn> {
    advance_run(state, journey, Vec::new())
}

/// Whether a run may still be driven once its session is closed: when its journey is finished,
/// or when it stands on the step whose own action closes the session — so the submit reporting
/// that closure is accepted and the run reaches `final` (the reference refused it with
/// `SESSION_CLOSED`, so no journey ever reached `final`).
pub fn closed_session_allows(state: &RunState, journey: &Journey<'_>) -> bool {
    match journey.at(state.cursor()) {
        None => true,
        Some(row) => row.action.as_ref().is_some_and(|a| {
            a.invocation.program == "aw"
                && a.invocation.args.first().map(|a| a.as_ref()) == Some("session-close")
        }),
    }
}
