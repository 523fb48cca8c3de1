//! `aw family …`: the agent-workflow family's manifests in use (detection, posture, settings,
//! mode catalogs, sandbox advice, wrapper links), each read once through the validator's typed
//! model.

pub mod links;
pub mod modes;
pub mod posture;
mod read;
pub mod sandbox;
pub mod settings;
pub mod status;
mod survey;

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use clap::Subcommand;

/// The `family` verbs.
#[derive(Debug, Subcommand)]
// A verb's arguments are built only when that verb runs, which keeps start-up small.
#[command(defer = true)]
pub enum FamilyCommand {
    // `about` rather than a doc comment, which would reset the verb's long help.
    #[command(about = "Show, create or remove a member's wrapper links (`roles.*.cmd`).")]
    Links(links::LinksArgs),
    #[command(about = "Render a member's mode catalog (`modeCatalog`): modes, forms, guardrails.")]
    Modes(modes::ModesArgs),
    #[command(about = "The configured dispatch posture line, from the backends' `posture` blocks.")]
    Posture(posture::PostureArgs),
    #[command(about = "Advise the sandbox lane: egress hosts, writable dirs, recipe fingerprint.")]
    Sandbox(sandbox::SandboxArgs),
    #[command(about = "List, read, set, unset or reconcile the bridges' host settings file.")]
    Settings(settings::SettingsArgs),
    #[command(
        about = "Detect each family member: ladder state, version and its source, freshness, deployment."
    )]
    Status(status::StatusArgs),
}

/// Runs a `family` verb.
pub fn dispatch(cmd: &FamilyCommand, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    match cmd {
        FamilyCommand::Links(args) => links::run(args, cx),
        FamilyCommand::Modes(args) => modes::run(args, cx),
        FamilyCommand::Posture(args) => posture::run(args, cx),
        FamilyCommand::Sandbox(args) => sandbox::run(args, cx),
        FamilyCommand::Settings(args) => settings::run(args, cx),
        FamilyCommand::Status(args) => status::run(args, cx),
    }
}
