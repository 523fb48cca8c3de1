//! `aw flow recover [--session <s>] [--transition <id>]`: gives an exhausted boundary its
//! attempts back.

use super::{FlowArgs, drive, emit};
use crate::cli::given;
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::error_code::ErrorCode;
use aw_core::flow::Journey;
use aw_core::flow::error::FlowError;
use aw_core::flow::recover::recover;
use clap::Args;

// Arguments of `aw flow recover`.
#[derive(Debug, Args)]
#[command(
    long_about = "Give the exhausted boundary in force its attempts back, so it can be \
answered again. The grant is recorded in the run; the attempt history is never deleted.\n\n\
Refused when the boundary is not exhausted (FLOW_RECOVERY_NOT_NEEDED), when --transition names \
another boundary (FLOW_RECOVERY_OTHER_BOUNDARY), when its action is not safe to repeat \
(FLOW_RECOVERY_EFFECTS_APPLIED), or when its attempts answered an action this aw no longer emits \
(FLOW_RECOVERY_EXECUTION_UNVERIFIED). A refusal changes nothing."
)]
pub struct RecoverArgs {
    /// The boundary to recover (must be the one in force).
    #[arg(long, value_name = "ID")]
    pub transition: Option<String>,
}

/// Runs the verb.
pub fn run(args: &RecoverArgs, flow: &FlowArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let transition = given(&args.transition);
    let turn = drive(flow, cx, false, |stored, folder| {
        let Some(state) = stored else {
            return Err(FlowError::new(
                ErrorCode::FlowRunAbsent,
                format!("Session '{folder}' has no run state: there is nothing to recover."),
                format!(
                    "Adopt it with `aw flow advance --session {folder} --flow <flow> --adopt`."
                ),
            ));
        };
        let journey = Journey::builtin(state.flow)?;
        recover(state, &journey, transition)
    })?;
    Ok(emit(style, &turn.directive))
}
