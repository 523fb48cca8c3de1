//! `aw flow advance [--session <s>] [--flow <f> --adopt]`: walks the run to its next boundary.

use super::{FlowArgs, drive, emit, flow_name};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::flow::Journey;
use aw_core::flow::internal;
use aw_core::flow::run::{advance, starting_state};
use clap::Args;

// Arguments of `aw flow advance`.
#[derive(Debug, Args)]
#[command(
    long_about = "Apply every step the CLI can decide by itself and stop at the next boundary; \
print its directive. Advancing again on the same boundary applies nothing and prints the same \
directive.\n\nA session without a run state is adopted with `--flow <flow> --adopt` (the flow is \
never guessed from the folder name); with a state, `--flow` and `--adopt` are ignored."
)]
pub struct AdvanceArgs {
    /// The flow of a session being adopted: spec-refine, plan-new, plan-refine, plan-exec or quick.
    #[arg(long, value_name = "FLOW", value_parser = flow_name)]
    pub flow: Option<String>,
    /// Adopt a session that has no run state yet (needs `--flow`).
    #[arg(long)]
    pub adopt: bool,
}

/// Runs the verb.
pub fn run(args: &AdvanceArgs, flow: &FlowArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let named = args.flow.as_deref();
    let turn = drive(flow, cx, args.adopt, |stored, folder| {
        let state = starting_state(stored, folder, args.adopt, named)?;
        let journey = Journey::builtin(state.flow)?;
        let mut turn = advance(state, &journey)?;
        internal::begin(&mut turn, &journey);
        Ok(turn)
    })?;
    let turn = super::run_internal(cx, turn)?;
    Ok(emit(style, &turn.directive))
}
