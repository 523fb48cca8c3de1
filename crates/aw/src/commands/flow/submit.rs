//! `aw flow submit [--session <s>] [--approval <digest>] < answer.json`: answers the boundary in
//! force.

use super::{FlowArgs, checked_flow, drive, emit, style};
use crate::cli::Global;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::flow::Journey;
use aw_core::flow::error::FlowError;
use aw_core::flow::submit::{Submission, submit};
use clap::Args;
use std::io::{IsTerminal, Read};

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
    #[arg(long, value_name = "FLOW")]
    pub flow: Option<String>,
}

/// Reads stdin whole: empty on a terminal; a leading BOM dropped, invalid UTF-8 replaced (the
/// text that is both parsed and hashed).
fn read_stdin() -> String {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return String::new();
    }
    let mut bytes = Vec::new();
    if stdin.lock().read_to_end(&mut bytes).is_err() {
        return String::new();
    }
    let text = String::from_utf8_lossy(&bytes);
    text.strip_prefix('\u{feff}').unwrap_or(&text).to_owned()
}

/// Runs the verb.
pub fn run(args: &SubmitArgs, flow: &FlowArgs, global: &Global) -> Result<Outcome, Failure> {
    let style = style(global)?;
    checked_flow(args.flow.as_deref())?;
    let raw = read_stdin();
    let approval = args.approval.as_deref();
    let turn = drive(flow, global, |stored, folder| {
        let Some(state) = stored else {
            return Err(FlowError::new(
                "FLOW_RUN_ABSENT",
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
