//! `aw hook branch-check`: refuses an edit in a source that is not on its working branch. The
//! verdict is `aw_core::project::branch_check`; what it reads is `aw_workspace::branch_check`.
//! It fails open: whatever it cannot read (stdin, the workspace, git) lets the edit through,
//! silently, so a broken hook never stops an agent's work.

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Outcome, emit_err};
use aw_core::project::branch_check::{Verdict, edited_files};
use aw_workspace::locate::{LocateInput, locate};
use aw_workspace::stdin::read_hook_stdin;
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// How long the payload's first byte may take: a host writes it at once, but a loaded machine
/// must not turn the hook into a silent allow.
const PAYLOAD_WAIT: Duration = Duration::from_secs(2);

/// Arguments of `aw hook branch-check` (none: the payload comes on stdin).
#[derive(Debug, Args)]
pub struct BranchCheckArgs {}

/// Runs the hook: exit 0 (allow) or 2 (block, with the advice on stderr); never stdout.
pub fn run(_args: &BranchCheckArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let allow = || Ok(Outcome::text(String::new()));
    let edits = read_hook_stdin(PAYLOAD_WAIT)
        .map(|t| edited_files(&t))
        .unwrap_or_default();
    let Some(first) = edits.first() else {
        return allow();
    };
    let Ok(mut input) =
        LocateInput::from_process(cx.global.workspace.clone(), cx.global.namespace.clone())
    else {
        return allow();
    };
    // The conversation's folder, when the host gives it, is where the workspace is looked for.
    if let Some(cwd) = first.cwd.as_deref().map(PathBuf::from)
        && cwd.is_absolute()
    {
        input.cwd = cwd;
    }
    let Ok(ws) = locate(&input) else {
        return allow();
    };
    // A patch may touch several files: the first one in a source off its branch blocks it.
    for edited in &edits {
        if let Verdict::Block(b) = aw_workspace::branch_check::check(&ws, edited) {
            emit_err(&b.advice(&edited.path));
            return Ok(Outcome::text(String::new()).with_exit(2));
        }
    }
    allow()
}
