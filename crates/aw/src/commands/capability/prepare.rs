//! `aw capability prepare`: attempt 1 of an invocation.

use super::protocol::{ProtocolArgs, run as protocol};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::capability::handler::Verb;

/// The verb's one-line help.
pub const ABOUT: &str = "Start an invocation: attempt 1 of an operation (stdin is not read).";

/// The verb's long help.
pub const LONG_ABOUT: &str = "Start an invocation of a capability's operation: attempt 1, with a \
fresh invocation_id.\n\nReads no stdin. Prints the attempt: the request (its request_digest and \
semantic_inputs_digest), the receipt (outcome, gaps, next_action), the resolution, the pin to \
carry into later attempts, and, for an authoring operation, `semantic`: the contract, the \
input_digest the answer quotes, the allowed destinations and an answer skeleton.\n\nExample:\n  \
aw capability prepare --capability design --operation create \\\n    --input title=Checkout \
--input sources=docs/specs/001-checkout.md --input target=docs/designs";

/// Runs `prepare`.
pub fn run(args: &ProtocolArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    protocol(Verb::Prepare, args, cx)
}
