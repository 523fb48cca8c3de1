//! `aw sessions [--state active|closed|all] [--all] [--verbose] [--include-legacy]`: the
//! workspace's sessions, with counts and the next session number.
//!
//! `next_correlative` is the number `session-create` would take: one more than the highest of
//! the numbered folders (both layouts) and the HISTORY rows (the reference's v21 looked only at
//! legacy folders, so a workspace with `001-…`–`003-…` reported `001`).

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::session::folder::{SessionState, identity};
use aw_core::session::history::Dates;
use aw_core::wire::sessions::{Entry, Listing};
use aw_workspace::locate::{Workspace, slashed};
use aw_workspace::sessions::history;
use aw_workspace::sessions::{self, Info};
use clap::Args;

/// Which sessions `--state` lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateFilter {
    /// Active sessions.
    Active,
    /// Closed sessions.
    Closed,
    /// Every session.
    All,
}

// Arguments of `aw sessions`.
#[derive(Debug, Args)]
#[command(
    long_about = "List the workspace's sessions.\n\nBy default only active sessions are listed \
(all of them with `--verbose`). Each entry has its code, folder, state, type, date and a \
one-line summary; the counts and `next_correlative` (the number the next session will take) \
cover every session."
)]
pub struct SessionsArgs {
    /// Which sessions: `active`, `closed` or `all`.
    #[arg(long, value_name = "active|closed|all", value_parser = state_filter)]
    pub state: Option<StateFilter>,
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

/// `--state`, surrounding spaces ignored.
fn state_filter(raw: &str) -> Result<StateFilter, String> {
    match raw.trim() {
        "active" => Ok(StateFilter::Active),
        "closed" => Ok(StateFilter::Closed),
        "all" => Ok(StateFilter::All),
        _ => Err("it takes active, closed or all".to_owned()),
    }
}

/// Which states to list (`None`: all).
fn filter(args: &SessionsArgs) -> Option<SessionState> {
    match args.state {
        Some(StateFilter::Active) => Some(SessionState::Active),
        Some(StateFilter::Closed) => Some(SessionState::Closed),
        Some(StateFilter::All) => None,
        None if args.all || args.verbose => None,
        None => Some(SessionState::Active),
    }
}

/// Runs the command.
pub fn run(args: &SessionsArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let wanted = filter(args);
    let ws = cx.workspace()?;
    let history_text = history::read(&ws)?;
    // HISTORY's rows are read once into a lookup: each session's date is then found in constant
    // time, however many sessions and rows there are.
    let dates = history_text.as_deref().map(Dates::of);
    let today = cx.now.today();
    // Listing every session reads every folder, which says whether it is closed; a filtered
    // listing asks each folder's state first, to read only the ones it shows.
    let (listing, shown) = match wanted {
        None => {
            let listing = sessions::list_unstated(&ws)?;
            let all: Vec<_> = listing.iter().collect();
            let shown = sessions::infos(&ws, &all, dates.as_ref(), &today)?;
            let listing = shown.iter().map(|i| i.folder.clone()).collect::<Vec<_>>();
            (listing, shown)
        }
        Some(w) => {
            let listing = sessions::list(&ws)?;
            let wanted_folders: Vec<_> = listing.iter().filter(|f| f.state == w).collect();
            let shown = sessions::infos(&ws, &wanted_folders, dates.as_ref(), &today)?;
            (listing, shown)
        }
    };
    let next = sessions::next_number_of(&listing, dates.iter().flat_map(Dates::keys));
    let active = listing
        .iter()
        .filter(|f| f.state == SessionState::Active)
        .count();
    let closed = listing.len() - active;
    // Serialised straight from typed entries (no JSON tree of thousands of objects is built),
    // and streamed into stdout.
    let sessions = shown
        .into_iter()
        .map(|i| entry(&ws, i, args.verbose))
        .collect();
    let model = Listing {
        sessions,
        active_count: active,
        closed_count: closed,
        total_count: listing.len(),
        next_correlative: next.padded(),
        legacy: args.include_legacy.then(Vec::new),
        history_exists: args.verbose.then_some(history_text.is_some()),
    };
    Ok(Outcome::shown_model(model, &style))
}

/// The entry of one session: its path workspace-relative, or absolute when `absolute`.
fn entry(ws: &Workspace, info: Info, absolute: bool) -> Entry {
    let id = identity(&info.folder.folder);
    let path = if absolute {
        slashed(&info.dir)
    } else {
        ws.shown(&info.dir)
    };
    Entry {
        code: id.code,
        name: id.name,
        state: info.folder.state.as_str(),
        folder: info.folder.folder,
        path,
        kind: info.facts.kind,
        date: info.date,
        summary: info.facts.summary,
        branch: info.facts.branch,
    }
}
