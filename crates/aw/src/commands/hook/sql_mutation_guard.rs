//! `aw hook sql-mutation-guard`: blocks an MCP SQL tool call whose statement changes the
//! database. The rule is `aw_core::project::sql_guard`; what it reads is
//! `aw_workspace::project::pretool`. Anything it cannot read lets the call run, silently.

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Outcome, emit_err};
use aw_workspace::locate::LocateInput;
use aw_workspace::project::pretool::{read_payload, sql_guard};
use clap::Args;

// Arguments of `aw hook sql-mutation-guard` (none: the payload comes on stdin).
#[derive(Debug, Args)]
pub struct SqlMutationGuardArgs {}

/// Runs the guard: exit 2 with the reason on stderr when the statement mutates, else 0 and
/// nothing; never stdout.
pub fn run(_args: &SqlMutationGuardArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let payload = read_payload();
    let Ok(input) =
        LocateInput::from_process(cx.global.workspace.clone(), cx.global.namespace.clone())
    else {
        return Ok(Outcome::text(String::new()));
    };
    match sql_guard(payload.as_deref(), &input) {
        Some(text) => {
            emit_err(&text);
            Ok(Outcome::text(String::new()).with_exit(2))
        }
        None => Ok(Outcome::text(String::new())),
    }
}
