//! `aw capability apply`: an approved plan, written all or nothing.

use super::protocol::{ProtocolArgs, run as protocol};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::capability::handler::Verb;

/// The verb's one-line help.
pub const ABOUT: &str = "Publish an approved plan (--approval <approval_digest>), all or nothing.";

/// The verb's long help.
pub const LONG_ABOUT: &str = "Write a durable plan once a person approved it.\n\nStdin: \
{\"request\": <the request of the attempt that proposed the plan>, \"plan\": <its plan>}, and --approval <the \
plan's approval_digest>. Needs a workspace, unless the operation publishes into an explicit \
root (design create with an absolute --target outside any workspace). Before anything is written aw checks that the request \
is unedited, that the capability is not off, that the plan re-sealed from its own artifacts \
gives the approved digest, that every path is inside the destinations the operation allows, and \
that every effect class needing approval is granted. Then, under the lock: a plan whose every \
file already holds exactly its bytes writes nothing and completes as already published (the same \
plan applied again, after a lost answer or a kill); otherwise a claimed package number is checked \
to be still free (DESIGN_NUMBER_TAKEN) and every file is created (or replaced, when the plan \
allows it); any failure rolls every file back. A new package appears whole, with one rename, and \
an apply of several files killed half-way is finished (or undone) by the next aw command in the \
workspace, before it reads anything.\n\nA \
completed attempt lists the written paths in output.value.written (and, when nothing had to be \
written, the paths in output.value.already_published). A refused plan gives a \
blocked attempt (CAPABILITY_APPROVAL_MISMATCH, SEMANTIC_PATH_REJECTED, PUBLISH_TARGET_EXISTS, \
...), exit 0; a missing request, plan or --approval is CAPABILITY_APPLY_INCOMPLETE, exit 1.";

/// Runs `apply`.
pub fn run(args: &ProtocolArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    protocol(Verb::Apply, args, cx)
}
