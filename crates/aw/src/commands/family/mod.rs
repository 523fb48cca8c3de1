//! `aw family …`: the agent-workflow family members, read through their `capability.json`.

pub mod links;
pub mod modes;
mod read;
pub mod sandbox;

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use clap::Subcommand;

/// The `family` verbs.
#[derive(Debug, Subcommand)]
pub enum FamilyCommand {
    #[command(about = "Show, create or remove a member's wrapper links (`roles.*.cmd`).")]
    Links(links::LinksArgs),
    #[command(about = "Render a member's mode catalog (`modeCatalog`): modes, forms, guardrails.")]
    Modes(modes::ModesArgs),
    #[command(about = "Advise the sandbox lane: egress hosts, writable dirs, recipe fingerprint.")]
    Sandbox(sandbox::SandboxArgs),
}

/// Runs a `family` verb.
pub fn dispatch(cmd: &FamilyCommand, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    match cmd {
        FamilyCommand::Links(args) => links::run(args, cx),
        FamilyCommand::Modes(args) => modes::run(args, cx),
        FamilyCommand::Sandbox(args) => sandbox::run(args, cx),
    }
}
