//! `aw capability continue`: attempt n+1 of a carried invocation.

use super::protocol::{ProtocolArgs, run as protocol};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::capability::handler::Verb;

/// The verb's one-line help.
pub const ABOUT: &str = "Answer a needs_input attempt: attempt n+1 of the request on stdin.";

/// The verb's long help.
pub const LONG_ABOUT: &str = "Build the next attempt of an invocation from its previous request.\
\n\nStdin: {\"parent\": <the previous attempt's request>, \"pin\"?: <its pin>}. The parent must \
be exactly as aw printed it (its request_digest is checked). The new request keeps the \
invocation_id, takes attempt + 1 and parent_request_digest = the parent's request_digest; its \
operation is the parent's, and its inputs, target and policy come from this call's flags (send \
every input again). A pin whose skills changed since it was taken blocks the attempt with \
CAPABILITY_SELECTION_CHANGED.";

/// Runs `continue`.
pub fn run(args: &ProtocolArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    protocol(Verb::Continue, args, cx)
}
