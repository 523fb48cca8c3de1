//! `aw capability …`: capabilities and their descriptors.

pub mod descriptor;

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use clap::Subcommand;

/// The `capability` groups.
#[derive(Debug, Subcommand)]
pub enum CapabilityCommand {
    // `about` rather than a doc comment, which would reset the group's long help.
    #[command(about = "Capability descriptors: `descriptor validate <file|skill-dir>`.")]
    #[command(subcommand)]
    Descriptor(descriptor::DescriptorCommand),
}

/// Runs a `capability` command.
pub fn dispatch(cmd: &CapabilityCommand, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    match cmd {
        CapabilityCommand::Descriptor(cmd) => descriptor::dispatch(cmd, cx),
    }
}
