//! `aw status [--format human|json] [--detail]`: the board of the workspace. Specs, plans and
//! sessions with their progress, what sessions set aside, and the pipeline of what is left, each
//! item with the command that moves it forward. Read-only.

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_workspace::documents::board;
use clap::Args;

// Arguments of `aw status`.
#[derive(Debug, Args)]
#[command(
    long_about = "Show the workspace board: specs (maturity, open questions), plans (tasks done, \
phases validated, plan closed), sessions, items sessions deferred or excluded, and the pipeline of \
what is left, in priority order, each with the command that moves it forward.\n\nRead-only. On a \
terminal it prints a dashboard (`--detail` adds the full lists); piped, or with `--json`, it \
prints the JSON model."
)]
pub struct StatusArgs {}

/// Runs the command.
pub fn run(_args: &StatusArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let ws = cx.workspace_settled()?;
    let model = board::load(&ws, &cx.now.wall, cx.home().as_deref());
    // Serialised straight from the model into stdout: a large board never exists in memory as a
    // JSON tree, nor whole as text.
    Ok(Outcome::shown_model(model, &style))
}
