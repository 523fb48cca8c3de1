//! `aw family …`: the agent-workflow family's manifests in use (detection, settings, mode
//! catalogs, sandbox advice, wrapper links), each read once through the validator's typed model.

pub mod settings;

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use clap::Subcommand;

/// The `family` verbs.
#[derive(Debug, Subcommand)]
pub enum FamilyCommand {
    // `about` rather than a doc comment, which would reset the verb's long help.
    #[command(about = "List, read, set, unset or reconcile the bridges' host settings file.")]
    Settings(settings::SettingsArgs),
}

/// Runs a `family` verb.
pub fn dispatch(cmd: &FamilyCommand, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    match cmd {
        FamilyCommand::Settings(args) => settings::run(args, cx),
    }
}
