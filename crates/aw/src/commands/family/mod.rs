//! `aw family …`: the agent-workflow family's members, read through the validator's typed
//! manifest model.

pub mod posture;
pub mod status;
mod survey;

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use clap::Subcommand;

/// The `family` verbs.
#[derive(Debug, Subcommand)]
pub enum FamilyCommand {
    #[command(about = "The configured dispatch posture line, from the backends' `posture` blocks.")]
    Posture(posture::PostureArgs),
    #[command(
        about = "Detect each family member: ladder state, version and its source, freshness, deployment."
    )]
    Status(status::StatusArgs),
}

/// Runs a `family` verb.
pub fn dispatch(cmd: &FamilyCommand, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    match cmd {
        FamilyCommand::Posture(args) => posture::run(args, cx),
        FamilyCommand::Status(args) => status::run(args, cx),
    }
}
