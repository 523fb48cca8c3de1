//! `aw status [--format human|json] [--detail]`: the board of the workspace. Specs, plans and
//! sessions with their progress, what sessions set aside, and the pipeline of what is left, each
//! item with the command that moves it forward. Read-only.

use crate::cli::Global;
use crate::commands::{board, status_view};
use crate::context;
use crate::failure::Failure;
use crate::output::{Format, Outcome, tty_default};
use clap::Args;

/// Arguments of `aw status`.
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
pub fn run(_args: &StatusArgs, global: &Global) -> Result<Outcome, Failure> {
    let style = global.flags().resolve(tty_default())?;
    let ws = context::workspace(global)?;
    let now = board::now();
    let model = board::load(&ws, &now);
    Ok(match style.format {
        // Serialised straight from the model: a large board never exists twice in memory as a
        // JSON tree and as text.
        Format::Json => Outcome::text(json_text(&model)),
        Format::Human => Outcome::text(status_view::render(&model, style)),
    })
}

/// Pretty JSON with a trailing newline, as every command prints its model.
pub fn json_text<T: serde::Serialize>(model: &T) -> String {
    let mut s = serde_json::to_string_pretty(model).unwrap_or_else(|_| "null".to_owned());
    s.push('\n');
    s
}
