//! `aw flow submit [--session <s>] [--approval <digest>] < answer.json`: answers the boundary in
//! force.

use super::{FlowArgs, drive_in, emit, flow_name};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::error_code::ErrorCode;
use aw_core::flow::Journey;
use aw_core::flow::error::FlowError;
use aw_core::flow::internal;
use aw_core::flow::submit::{Submission, submit};
use aw_workspace::flow::observe;
use aw_workspace::io::stdin::{AnswerLimits, read_answer};
use clap::Args;

// Arguments of `aw flow submit`.
#[derive(Debug, Args)]
#[command(
    long_about = "Answer the boundary in force with one JSON object on stdin; the \
directive's next_action shows the exact shape. Every answer quotes the directive's state_digest \
as \"input_digest\".\n\n  semantic       {\"input_digest\", \"signals\": [...], \"decisions\": {...}} \
(at least one non-empty; signals from the row's vocabulary; at an authoring step also \
\"artifacts\": [{path, content}], at the scope step \"decisions\": {sources, plan})\n  human          {\"input_digest\", \
\"choice\": \"<label>\"}\n  authorization  {\"input_digest\"} with --approval <digest> (the digest \
is in next_action); or \"choice\": \"Stop\" / \"Compact\" without it\n  execution      \
{\"input_digest\", \"outcome\", \"invocation\": {program, args, target, input}, \"validations\": \
[{id, passed, detail, proof?}], \"effects\": {\"applied\": [...]}, \"output\"?} (the proof \
is what `aw flow proof` prints)\n\nA refused answer prints \
the directive with `error` set and exits 0; three refused answers exhaust a boundary.\n\nStdin \
is read whole before the workspace is locked. A stdin left open with nothing written for \
AW_ANSWER_IDLE_MS (default 30000) fails with FLOW_ANSWER_TIMEOUT; an answer over \
AW_ANSWER_MAX_BYTES (default 4 MiB) fails with FLOW_ANSWER_TOO_LARGE."
)]
pub struct SubmitArgs {
    /// The approval digest of an authorization boundary (quoted in its next_action).
    #[arg(long, value_name = "DIGEST")]
    pub approval: Option<String>,
    /// Accepted for symmetry with `advance` and checked, but the run's own flow is used.
    #[arg(long, value_name = "FLOW", value_parser = flow_name)]
    pub flow: Option<String>,
}

/// Runs the verb.
pub fn run(args: &SubmitArgs, flow: &FlowArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    // Read before the lock is taken: a slow writer must not hold the workspace.
    let raw = read_answer(AnswerLimits::from_env()).map_err(|e| Failure::from(e.into_error()))?;
    let approval = args.approval.as_deref();
    let turn = drive_in(flow, cx, false, |stored, folder, ws| {
        let Some(state) = stored else {
            return Err(FlowError::new(
                ErrorCode::FlowRunAbsent,
                format!("Session '{folder}' has no run state: there is nothing to answer."),
                format!(
                    "Adopt it first with `aw flow advance --session {folder} --flow <flow> --adopt`."
                ),
            ));
        };
        let journey = Journey::builtin(state.flow)?;
        // Read under the lock: the plan an answer names is judged as it stands now.
        let facts = observe::gather(ws, &raw);
        let mut turn = submit(
            state,
            &journey,
            Submission {
                raw: &raw,
                approval,
                facts: &facts,
            },
        )?;
        if turn.directive.error.is_none() {
            internal::begin(&mut turn, &journey);
        }
        Ok(turn)
    })?;
    // Only an answer that applied or held something moves the run onto a new internal step.
    let turn = if turn.directive.error.is_none() {
        super::run_internal(cx, turn)?
    } else {
        turn
    };
    Ok(emit(style, &turn.directive))
}
