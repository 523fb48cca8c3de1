//! `aw hook git-commit-advisor`: advises, on stderr, tagging a commit message with the active
//! session. It never blocks. The rule is `aw_core::project::commit_advisor`; what it reads is
//! `aw_workspace::project::pretool`.

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Outcome, emit_err};
use aw_workspace::locate::LocateInput;
use aw_workspace::project::pretool::{commit_advice, read_payload};
use clap::Args;

// Arguments of `aw hook git-commit-advisor` (none: the payload comes on stdin).
#[derive(Debug, Args)]
pub struct GitCommitAdvisorArgs {}

/// Runs the advisor: exit 0 always, the advice (if any) on stderr, never stdout.
pub fn run(_args: &GitCommitAdvisorArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let payload = read_payload();
    if let Ok(input) =
        LocateInput::from_process(cx.global.workspace.clone(), cx.global.namespace.clone())
        && let Some(text) = commit_advice(payload.as_deref(), input)
    {
        emit_err(&text);
    }
    Ok(Outcome::text(String::new()))
}
