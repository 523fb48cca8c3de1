//! `aw session-close --code <c> [--refs <csv>]`: closes a session (the transaction is
//! `aw_workspace::sessions::close`). A busy lock writes nothing (the reference created
//! `CHECKPOINT.md` before taking the lock). Closing a closed session again is allowed and rewrites
//! its row.

use crate::cli::given;
use crate::context::Ctx;
use crate::failure::{Failure, session_write};
use crate::output::Outcome;
use aw_core::error_code::ErrorCode;
use aw_core::isolation::integration::reopen_command;
use aw_core::wire::session::{HistoryRow, PendingUnit, SessionClose};
use aw_workspace::isolation::inventory;
use aw_workspace::sessions;
use clap::Args;

// Arguments of `aw session-close`.
#[derive(Debug, Args)]
#[command(
    long_about = "Close a session: remove this workspace's conversation bindings to it, make \
sure it has a CHECKPOINT.md, write its `.closed` sentinel and its HISTORY.md row, release its \
untouched numbering reservations, and refresh the narrative block of its SESSION.md (the \
`aw:recorrido` block, which then says the session is closed).\n\nClosing never merges or removes \
an isolation unit: the units the session still holds are listed in `pending_integration`, each \
with the command that merges it, beside `reopen` (integration needs the session open); \
`pending_integration_error` says when they could not be listed.\n\n`--refs` is \
a comma-separated list for the row's Refs cell: `dec:X`, `plan:X`, `sql:X`, `conclusion:X`, \
`manual:X`, `release:X`, any `kind:value`, URLs or free text."
)]
pub struct SessionCloseArgs {
    /// The session: a number, a folder name or a unique folder prefix.
    #[arg(long, value_name = "CODE")]
    pub code: Option<String>,
    /// References for the HISTORY row (comma-separated).
    #[arg(long, value_name = "CSV")]
    pub refs: Option<String>,
}

/// Runs the command.
pub fn run(args: &SessionCloseArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let Some(code) = given(&args.code) else {
        return Err(Failure::new(
            ErrorCode::InvalidInput,
            "`--code` is required: closing never guesses the session.",
            "Add `--code <session>` (see `aw sessions`).",
        )
        .with_error_data());
    };
    let ws = cx.workspace()?;
    let closed =
        sessions::close(&ws, code, args.refs.as_deref(), &cx.now.today()).map_err(session_write)?;

    // Closing never merges or removes a unit: it reports the ones the session still holds.
    let (pending, pending_error) = match cx.home() {
        None => (
            None,
            Some(
                "HOME is not set, so the units root (`~/.<ns>/worktrees`) cannot be read"
                    .to_owned(),
            ),
        ),
        Some(home) => match sessions::list(&ws)
            .and_then(|listing| inventory(&ws, &home, &listing, Some(&closed.folder), false))
        {
            Ok(inv) => {
                let held = PendingUnit::held(&closed.folder, &inv);
                let unreadable = inv
                    .unreadable
                    .iter()
                    .map(|u| format!("{}: {}", u.alias, u.error));
                let unreadable: Vec<String> = unreadable.collect();
                (
                    (!held.is_empty()).then_some(held),
                    (!unreadable.is_empty()).then(|| unreadable.join("; ")),
                )
            }
            Err(e) => (None, Some(e.to_string())),
        },
    };
    let reopen = pending.as_ref().map(|_| reopen_command(&closed.folder));
    let model = SessionClose {
        code: &closed.code,
        folder: &closed.folder,
        closed: true,
        checkpoint_path: closed.checkpoint_path.to_string_lossy().into_owned(),
        backlog_path: closed.backlog_path.to_string_lossy().into_owned(),
        refs: args.refs.as_deref(),
        bindings_invalidated: closed.bindings_invalidated,
        history: closed.history.as_ref().ok().map(|action| HistoryRow {
            action: action.as_str(),
            state: "closed",
        }),
        history_error: closed.history.as_ref().err().map(String::as_str),
        pending_integration: pending,
        reopen,
        pending_integration_error: pending_error,
        reservations_released: &closed.reservations_released,
        narrative_error: closed.narrative.as_ref().err().map(String::as_str),
    };
    Ok(Outcome::shown(&model, &style))
}
