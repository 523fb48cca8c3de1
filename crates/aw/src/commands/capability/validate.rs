//! `aw capability validate`: the agent's answer, checked into a durable plan.

use super::protocol::{ProtocolArgs, run as protocol};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::capability::handler::Verb;

/// The verb's one-line help.
pub const ABOUT: &str = "Check the agent's answer to an attempt and propose a plan to approve.";

/// The verb's long help.
pub const LONG_ABOUT: &str = "Check an authored answer against the request it answers.\n\n\
Stdin: {\"request\": <the attempt's request>, \"answer\": <the answer>, \"pin\"?: <pin>}. The \
carried request decides the operation, inputs and target (repeating a flag is allowed only with \
the same value); the new attempt continues its invocation. The answer is {\"version\": 1, \
\"operation\": \"<capability>.<operation>\", \"input_digest\": <from the attempt's semantic \
key>, \"state\": \"proposed\", \"artifacts\": [{\"path\", \"content\"}]}, every path inside an \
allowed destination.\n\nA valid answer gives a needs_input attempt carrying `plan`: the files, a \
preview (path, bytes, overwrite) and the approval_digest a person approves. A refused answer \
gives a blocked attempt naming the reason (SEMANTIC_RESPONSE_INVALID, SEMANTIC_STALE, \
SEMANTIC_PATH_REJECTED, ...). Without a carried request the flags build a fresh attempt 1.";

/// Runs `validate`.
pub fn run(args: &ProtocolArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    protocol(Verb::Validate, args, cx)
}
