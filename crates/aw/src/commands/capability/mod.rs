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
    #[command(
        about = "Capability descriptors: `descriptor validate <file|skill-dir>`.",
        long_about = "Capability descriptors (workline.capability-descriptor/v1): what a capability \
declares about itself, its operations, inputs, outputs, effects, floor and retired names.\n\n\
`aw capability descriptor validate <file|skill-dir>` checks one, from a JSON file or from the \
file a skill folder's SKILL.md locates and seals."
    )]
    #[command(subcommand)]
    Descriptor(descriptor::DescriptorCommand),
}

/// Runs a `capability` command.
pub fn dispatch(cmd: &CapabilityCommand, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    match cmd {
        CapabilityCommand::Descriptor(cmd) => descriptor::dispatch(cmd, cx),
    }
}
