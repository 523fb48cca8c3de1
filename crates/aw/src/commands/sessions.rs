//! `aw sessions [--state active|closed|all] [--all] [--verbose] [--include-legacy]`: the
//! workspace's sessions, with counts and the next session number.
//!
//! `next_correlative` is the number `session-create` would take: one more than the highest of
//! the numbered folders (both layouts) and the HISTORY rows (the reference's v21 looked only at
//! legacy folders, so a workspace with `001-…`–`003-…` reported `001`).

use crate::cli::Global;
use crate::commands::session_entry::entry_json;
use crate::context;
use crate::failure::Failure;
use crate::output::{Format, Outcome, tty_default};
use aw_core::session::folder::{SessionState, next_session};
use aw_core::session::history;
use aw_workspace::clock::local_date_today;
use aw_workspace::history as history_file;
use aw_workspace::sessions::{self, Info};
use clap::Args;
use serde_json::json;

/// Arguments of `aw sessions`.
#[derive(Debug, Args)]
#[command(
    long_about = "List the workspace's sessions.\n\nBy default only active sessions are listed \
(all of them with `--verbose`). Each entry has its code, folder, state, type, date and a \
one-line summary; the counts and `next_correlative` (the number the next session will take) \
cover every session."
)]
pub struct SessionsArgs {
    /// Which sessions: `active`, `closed` or `all`.
    #[arg(long, value_name = "active|closed|all")]
    pub state: Option<String>,
    /// Same as `--state all`.
    #[arg(long)]
    pub all: bool,
    /// Absolute paths and `history_exists`; lists every state unless `--state` says otherwise.
    #[arg(long)]
    pub verbose: bool,
    /// Add the (always empty) `legacy` list the reference reported.
    #[arg(long)]
    pub include_legacy: bool,
}

/// Which states to list.
fn filter(args: &SessionsArgs) -> Result<Option<SessionState>, Failure> {
    match args.state.as_deref().map(str::trim) {
        Some("active") => Ok(Some(SessionState::Active)),
        Some("closed") => Ok(Some(SessionState::Closed)),
        Some("all") => Ok(None),
        Some(other) => Err(Failure::new(
            "INVALID_INPUT",
            format!("`--state` takes `active`, `closed` or `all`, not `{other}`."),
            "Pass `--state active`, `--state closed` or `--state all`.",
        )),
        None if args.all || args.verbose => Ok(None),
        None => Ok(Some(SessionState::Active)),
    }
}

/// Runs the command.
pub fn run(args: &SessionsArgs, global: &Global) -> Result<Outcome, Failure> {
    let style = global.flags().resolve(tty_default())?;
    let wanted = filter(args)?;
    let ws = context::workspace(global)?;
    let listing = sessions::list(&ws)?;
    let history_text = history_file::read(&ws)?;
    let today = local_date_today();
    let keys: Vec<String> = history_text
        .as_deref()
        .map(|h| history::rows(h).into_iter().map(|r| r.key).collect())
        .unwrap_or_default();
    let (_, next) = next_session(
        listing.iter().map(|f| f.folder.as_str()),
        keys.iter().map(String::as_str),
    );
    let wanted_folders: Vec<_> = listing
        .iter()
        .filter(|f| wanted.is_none_or(|w| f.state == w))
        .collect();
    let shown: Vec<Info> = sessions::infos(&ws, &wanted_folders, history_text.as_deref(), &today)?;
    let active = listing
        .iter()
        .filter(|f| f.state == SessionState::Active)
        .count();
    let closed = listing.len() - active;
    if style.format == Format::Human {
        return Ok(Outcome::text(human(
            &shown,
            active,
            closed,
            &next.padded(),
            style.detail,
            style.color,
        )));
    }
    let mut model = json!({
        "sessions": shown.iter().map(|i| entry_json(&ws, i, args.verbose)).collect::<Vec<_>>(),
        "active_count": active,
        "closed_count": closed,
        "total_count": listing.len(),
        "next_correlative": next.padded(),
    });
    if args.include_legacy {
        model["legacy"] = json!([]);
    }
    if args.verbose {
        model["history_exists"] = json!(history_text.is_some());
    }
    Ok(Outcome::json(model))
}

/// A compact table: folder, state, type, date, summary.
fn human(
    shown: &[Info],
    active: usize,
    closed: usize,
    next: &str,
    detail: bool,
    color: bool,
) -> String {
    let mut out = String::new();
    if shown.is_empty() {
        out.push_str("No sessions to show.\n");
    } else {
        let width = shown
            .iter()
            .map(|i| i.folder.folder.chars().count())
            .max()
            .unwrap_or(6)
            .max(6);
        out.push_str(&format!(
            "{:<width$}  {:<6}  {:<8}  {:<10}  SUMMARY\n",
            "FOLDER", "STATE", "TYPE", "DATE"
        ));
        for i in shown {
            let summary: String = if detail {
                i.facts.summary.clone()
            } else {
                i.facts.summary.chars().take(60).collect()
            };
            let state = format!("{:<6}", i.folder.state.as_str());
            // Colour only on a terminal: active in green, closed dimmed.
            let state = match (color, i.folder.state) {
                (false, _) => state,
                (true, SessionState::Active) => format!("\x1b[32m{state}\x1b[0m"),
                (true, SessionState::Closed) => format!("\x1b[2m{state}\x1b[0m"),
            };
            out.push_str(&format!(
                "{:<width$}  {}  {:<8}  {:<10}  {}\n",
                i.folder.folder,
                state,
                i.facts.kind.as_deref().unwrap_or("—"),
                i.date,
                summary
            ));
        }
    }
    out.push_str(&format!(
        "\n{active} active, {closed} closed · the next session takes number {next}\n"
    ));
    out
}
