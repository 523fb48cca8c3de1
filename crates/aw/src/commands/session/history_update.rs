//! `aw history-update --code <c> --state active|closed [--date <d>] [--session <name>]
//! [--refs <csv>]`: upserts one row of `.<ns>/HISTORY.md` under the workspace lock.
//!
//! The session must exist (a code that matches no folder is `SESSION_NOT_FOUND`, as in v22: its
//! row would move the next session number). A legacy 6/7-column table is migrated to four
//! columns on the way.

use crate::cli::given;
use crate::context::Ctx;
use crate::failure::{Failure, with_error_unless_unresolved};
use crate::output::Outcome;
use aw_core::calendar::parse_date;
use aw_core::error_code::ErrorCode;
use aw_core::session::folder::SessionState;
use aw_core::session::history::RowRequest;
use aw_core::session::resolve::is_valid_code;
use aw_core::wire::session::HistoryUpdate;
use aw_workspace::sessions::history;
use clap::Args;

// Arguments of `aw history-update`.
#[derive(Debug, Args)]
#[command(
    long_about = "Add or update a session's row in HISTORY.md.\n\nThe row key is the session's \
code and name (`001-dev-foo`, or the folder name); the date is `--date`, else the session's \
start date, else today. A legacy 6/7-column table is migrated to the 4-column form."
)]
pub struct HistoryUpdateArgs {
    /// The session: a number, a folder name or a unique folder prefix.
    #[arg(long, value_name = "CODE")]
    pub code: Option<String>,
    /// The row's state: `active` or `closed`.
    #[arg(long, value_name = "active|closed", value_parser = row_state)]
    pub state: Option<SessionState>,
    /// The row's date, `YYYY-MM-DD` (a real calendar date).
    #[arg(long, value_name = "YYYY-MM-DD", value_parser = calendar_date)]
    pub date: Option<String>,
    /// The name to put in the row key instead of the session's.
    #[arg(long, visible_alias = "sesion", value_name = "NAME")]
    pub session: Option<String>,
    /// References for the Refs cell (comma-separated).
    #[arg(long, value_name = "CSV")]
    pub refs: Option<String>,
    /// Accepted for compatibility and ignored (the table has no summary column).
    #[arg(long, hide = true, value_name = "TEXT")]
    pub summary: Option<String>,
}

/// A refused argument; like the reference's, it carries its reason as `data.error`.
fn invalid(message: impl Into<String>, action: &str) -> Failure {
    Failure::new(ErrorCode::InvalidInput, message, action).with_error_data()
}

/// `--state`, surrounding spaces ignored.
fn row_state(raw: &str) -> Result<SessionState, String> {
    SessionState::parse(raw.trim()).ok_or_else(|| "it takes active or closed".to_owned())
}

/// `--date`: a `YYYY-MM-DD` date that exists (surrounding spaces dropped).
fn calendar_date(raw: &str) -> Result<String, String> {
    let d = raw.trim();
    // A blank value is no date (the reference ignored it).
    if d.is_empty() || parse_date(d).is_some() {
        Ok(d.to_owned())
    } else {
        Err("it takes a date that exists, written YYYY-MM-DD, such as 2026-01-31".to_owned())
    }
}

/// Runs the command.
pub fn run(args: &HistoryUpdateArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let (Some(code), Some(state)) = (given(&args.code), args.state) else {
        return Err(invalid(
            "`--code` and `--state` are both required.",
            "Add `--code <session> --state active|closed`.",
        ));
    };
    if !is_valid_code(code) {
        return Err(invalid(
            format!(
                "`{code}` is not a session code: give a number or a folder name, without path separators or `..`."
            ),
            "Pass the session's number or folder name.",
        ));
    }
    let name_override = given(&args.session);
    if let Some(n) = name_override
        && n.chars().any(char::is_control)
    {
        return Err(invalid(
            "`--session` must be one line of text.",
            "Pass a plain name.",
        ));
    }
    let ws = cx.workspace()?;
    let updated = history::update(
        &ws,
        code,
        &RowRequest {
            state,
            date: args.date.as_deref().filter(|d| !d.is_empty()),
            name: name_override,
            refs: args.refs.as_deref(),
            today: &cx.now.today(),
        },
    )
    .map_err(with_error_unless_unresolved)?;

    let model = HistoryUpdate {
        code,
        flow: None,
        action: updated.action.as_str(),
        state: state.as_str(),
        row_key: &updated.row.key,
    };
    Ok(Outcome::shown(&model, &style))
}
