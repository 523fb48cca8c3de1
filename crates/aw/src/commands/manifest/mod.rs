//! `aw manifest …`: the agent-workflow family's `capability.json` manifests.

pub mod validate;

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use clap::Subcommand;

/// The `manifest` verbs.
#[derive(Debug, Subcommand)]
// A verb's arguments are built only when that verb runs, which keeps start-up small.
#[command(defer = true)]
pub enum ManifestCommand {
    // `about` rather than a doc comment, which would reset the verb's long help.
    #[command(
        about = "Validate skill folders' `capability.json` (a drop-in for the family's validate.mjs)."
    )]
    Validate(validate::ValidateArgs),
}

/// Runs a `manifest` verb.
pub fn dispatch(cmd: &ManifestCommand, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    match cmd {
        ManifestCommand::Validate(args) => validate::run(args, cx),
    }
}
