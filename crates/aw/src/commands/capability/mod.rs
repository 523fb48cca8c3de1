//! `aw capability …`: the capability protocol's four verbs, and descriptors.

pub mod apply;
#[path = "continue.rs"]
pub mod continue_verb;
pub mod descriptor;
pub mod prepare;
pub mod protocol;
pub mod validate;

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use clap::{Args, Subcommand};
use protocol::ProtocolArgs;

/// The one-line summary of `aw capability`, also set on its entry in the command list (the
/// arguments are built only when the command runs).
pub const ABOUT: &str =
    "Run a capability's operations: prepare, continue, validate, apply; check descriptors.";

// Arguments of `aw capability`.
#[derive(Debug, Args)]
#[command(
    about = ABOUT,
    long_about = GUIDE
)]
pub struct CapabilityArgs {
    /// The verb.
    #[command(subcommand)]
    pub command: CapabilityCommand,
}

/// `aw capability --help`: the protocol, the way `aw flow --help` explains flows.
const GUIDE: &str = "Run an operation of a capability (today: `design`) through one protocol of \
four stages. Every stage prints a CapabilityAttempt (JSON when piped): request, receipt, output, \
resolution, pin, persistence, plan, and `semantic` when the agent is asked to author. The \
receipt's outcome is the result (completed, needs_input, blocked); the exit status is 0 for \
every attempt and 1 only when the command itself fails. The receipt's next_action always says \
what to run next.\n\n\
prepare   stdin: nothing. Attempt 1 with a fresh invocation_id.\n\
continue  stdin: {\"parent\": <request>, \"pin\"?}. Attempt n+1 of the same invocation.\n\
validate  stdin: {\"request\": <request>, \"answer\": <answer>, \"pin\"?}. Checks the agent's \
answer and proposes a plan.\n\
apply     stdin: {\"request\": <request>, \"plan\": <plan>} with --approval <digest>. Writes the \
plan all or nothing.\n\n\
Digests (SHA-256 of canonical JSON: keys sorted by UTF-16 code units, no spaces):\n  \
request_digest          the request's first twelve keys: who, where, what, the attempt chain\n  \
semantic_inputs_digest  the work only: capability, operation, target, base, profile, inputs\n  \
input_digest            the inputs' {name, value} by name: what an answer quotes (`semantic`)\n  \
approval_digest         what a person approves: operation, input_digest, each file's path and\n                          \
content digest; apply recomputes it from the plan it is given\n\n\
Example (inside a workspace):\n  \
aw capability prepare --capability design --operation create --input title=Checkout \\\n      \
--input sources=docs/specs/001-checkout.md --input target=docs/designs > a1.json\n  \
# author the files; answer = a1.json's semantic.answer_skeleton, filled in\n  \
jq '{request: .request, answer: $ans}' --argjson ans \"$(cat answer.json)\" a1.json \\\n      \
| aw capability validate --capability design > a2.json\n  \
# show a2.json's plan.preview to a person; on approval:\n  \
jq '{request: .request, plan: .plan}' a2.json \\\n      \
| aw capability apply --capability design --approval \"$(jq -r .plan.approval_digest a2.json)\"\n\n\
`aw capability descriptor validate <file|skill-dir>` checks a capability descriptor.";

/// The `capability` verbs.
#[derive(Debug, Subcommand)]
// A verb's arguments are built only when that verb runs, which keeps start-up small.
#[command(defer = true)]
pub enum CapabilityCommand {
    // `about` rather than doc comments, which would reset each verb's long help.
    #[command(about = prepare::ABOUT, long_about = prepare::LONG_ABOUT)]
    Prepare(ProtocolArgs),
    #[command(about = continue_verb::ABOUT, long_about = continue_verb::LONG_ABOUT)]
    Continue(ProtocolArgs),
    #[command(about = validate::ABOUT, long_about = validate::LONG_ABOUT)]
    Validate(ProtocolArgs),
    #[command(about = apply::ABOUT, long_about = apply::LONG_ABOUT)]
    Apply(ProtocolArgs),
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
pub fn dispatch(args: &CapabilityArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    match &args.command {
        CapabilityCommand::Prepare(a) => prepare::run(a, cx),
        CapabilityCommand::Continue(a) => continue_verb::run(a, cx),
        CapabilityCommand::Validate(a) => validate::run(a, cx),
        CapabilityCommand::Apply(a) => apply::run(a, cx),
        CapabilityCommand::Descriptor(cmd) => descriptor::dispatch(cmd, cx),
    }
}
