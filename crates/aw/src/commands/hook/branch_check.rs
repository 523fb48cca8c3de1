//! `aw hook branch-check`: refuses an edit in a source that is not on its working branch, or,
//! in a source with isolation units, an edit outside the editing session's own unit. The
//! verdicts are `aw_core::project::branch_check` and `aw_core::isolation::unit_check`; what it
//! reads is `aw_workspace::git::branch_check`.
//! What it cannot read about the repository (no workspace, no block, a folder git cannot read)
//! lets the edit through, silently; an edit it cannot judge (too large, cut short, malformed, no
//! verdict within the time budget) is refused with the reason, since a host lets through what a
//! hook does not answer in time.

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Outcome, emit_err};
use aw_core::isolation::unit_check::EditVerdict;
use aw_core::project::branch_check::{MAX_PAYLOAD_BYTES, Verdict};
use aw_workspace::git::branch_check::{budget_from_env, judge, read_deadline};
use aw_workspace::io::stdin::read_hook_payload;
use aw_workspace::locate::LocateInput;
use clap::Args;
use std::time::Instant;

// Arguments of `aw hook branch-check` (none: the payload comes on stdin).
#[derive(Debug, Args)]
pub struct BranchCheckArgs {}

/// Runs the hook: exit 0 (allow) or 2 (refuse, with the reason and the way on, on stderr);
/// never stdout.
pub fn run(_args: &BranchCheckArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let started = Instant::now();
    let budget = budget_from_env();
    let payload = read_hook_payload(MAX_PAYLOAD_BYTES, read_deadline(started, budget));
    let Ok(input) =
        LocateInput::from_process(cx.global.workspace.clone(), cx.global.namespace.clone())
    else {
        return Ok(Outcome::text(String::new()));
    };
    let refuse = |text: String| {
        emit_err(&text);
        Ok(Outcome::text(String::new()).with_exit(2))
    };
    match judge(payload, input, started, budget) {
        EditVerdict::Branch(Verdict::Allow(_)) => Ok(Outcome::text(String::new())),
        EditVerdict::Branch(Verdict::Block(b)) => {
            refuse(b.advice(&aw_workspace::invocation::invocation()))
        }
        EditVerdict::Branch(Verdict::Unjudgeable(u)) => refuse(u.advice()),
        EditVerdict::Unit { file, verdict } => {
            refuse(verdict.advice(&file, &aw_workspace::invocation::invocation()))
        }
    }
}
