//! `aw flow submit [--session <s>] [--approval <digest>] < answer.json`: answers the boundary in
//! force.

use super::{FlowArgs, drive, emit, flow_name};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::error_code::ErrorCode;
use aw_core::flow::Journey;
use aw_core::flow::error::FlowError;
use aw_core::flow::submit::{Submission, submit};
use clap::Args;

/// Arguments of `aw flow submit`.
#[derive(Debug, Args)]
#[command(
    long_about = "Answer the boundary in force with one JSON object on stdin; the \
directive's next_action shows the exact shape. Every answer quotes the directive's state_digest \
as \"input_digest\".\n\n  semantic       {\"input_digest\", \"signals\": [...], \"decisions\": {...}} \
(at least one non-empty; signals from the row's vocabulary)\n  human          {\"input_digest\", \
\"choice\": \"<label>\"}\n  authorization  {\"input_digest\"} with --approval <digest> (the digest \
is in next_action); or \"choice\": \"Stop\" / \"Compact\" without it\n  execution      \
{\"input_digest\", \"outcome\", \"invocation\": {program, args, target, input}, \"validations\": \
[{id, passed, detail}], \"effects\": {\"applied\": [...]}, \"output\"?}\n\nA refused answer prints \
the directive with `error` set and exits 0; three refused answers exhaust a boundary."
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
    let raw = aw_workspace::stdin::read_answer();
    let approval = args.approval.as_deref();
    let turn = drive(flow, cx, |stored, folder| {
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
        submit(
            state,
            &journey,
            Submission {
                raw: &raw,
                approval,
            },
        )
    })?;
    Ok(emit(style, &turn.directive))
}
