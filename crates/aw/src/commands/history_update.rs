//! `aw history-update --code <c> --state active|closed [--date <d>] [--session <name>]
//! [--refs <csv>]`: upserts one row of `.<ns>/HISTORY.md` under the workspace lock.
//!
//! The session is resolved only to fill in the row's name and date; a code that matches no
//! folder still gets its row (`| 777 | … |`). A legacy 6/7-column table is migrated to four
//! columns on the way.

use crate::cli::Global;
use crate::context;
use crate::failure::Failure;
use crate::output::{Format, Outcome, tty_default};
use aw_core::session::folder::{SessionFolder, SessionState, identity};
use aw_core::session::history::{self, Row};
use aw_core::session::resolve::{Intent, RefusalKind, is_valid_code};
use aw_workspace::clock::local_date_today;
use aw_workspace::resolver::{self, Request};
use aw_workspace::{WorkspaceError, history as history_file, sessions};
use clap::Args;
use serde_json::json;

/// Arguments of `aw history-update`.
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
    #[arg(long, value_name = "active|closed")]
    pub state: Option<String>,
    /// The row's date, `YYYY-MM-DD`.
    #[arg(long, value_name = "YYYY-MM-DD")]
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

fn invalid(message: impl Into<String>, action: &str) -> Failure {
    Failure::new("INVALID_INPUT", message, action)
}

/// `YYYY-MM-DD`, a real calendar date (`2026-02-31` is refused).
fn is_date(s: &str) -> bool {
    aw_core::calendar::parse_date(s).is_some()
}

/// Runs the command.
pub fn run(args: &HistoryUpdateArgs, global: &Global) -> Result<Outcome, Failure> {
    let style = global.flags().resolve(tty_default())?;
    let trimmed = |v: &Option<String>| {
        v.as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    let (Some(code), Some(state)) = (trimmed(&args.code), trimmed(&args.state)) else {
        return Err(invalid(
            "`--code` and `--state` are both required.",
            "Add `--code <session> --state active|closed`.",
        ));
    };
    let Some(state) = SessionState::parse(&state) else {
        return Err(invalid(
            format!("`--state` must be `active` or `closed`, not `{state}`."),
            "Pass `--state active` or `--state closed`.",
        ));
    };
    if !is_valid_code(&code) {
        return Err(invalid(
            format!(
                "`{code}` is not a session code: give a number or a folder name, without path separators or `..`."
            ),
            "Pass the session's number or folder name.",
        ));
    }
    let date = trimmed(&args.date);
    if let Some(d) = &date
        && !is_date(d)
    {
        return Err(invalid(
            format!("`--date` must be a date written YYYY-MM-DD, not `{d}`."),
            "Pass a date such as `--date 2026-01-31`.",
        ));
    }
    let name_override = trimmed(&args.session);
    if let Some(n) = &name_override
        && n.chars().any(char::is_control)
    {
        return Err(invalid(
            "`--session` must be one line of text.",
            "Pass a plain name.",
        ));
    }
    let ws = context::workspace(global)?;
    let today = local_date_today();

    let lock = context::lock(&ws)?;
    let listing = sessions::list(&ws)?;
    let request = Request {
        code: Some(&code),
        allow_closed: true,
        bind: false,
        context_id: None,
        intent: Intent::Write,
    };
    let found = match resolver::resolve_in(&ws, &listing, &request) {
        Ok(r) => Some(r),
        // An unknown code still gets its row: the history may name sessions whose folder is gone.
        Err(WorkspaceError::Session(r)) if r.kind == RefusalKind::NotFound => None,
        Err(e) => return Err(e.into()),
    };
    let current = history_file::read(&ws)?;
    let (row_code, key, session_date) = match &found {
        Some(r) => {
            let id = identity(&r.folder);
            let key =
                history::row_key(&id.code, Some(name_override.as_deref().unwrap_or(&id.name)));
            let folder = SessionFolder {
                folder: r.folder.clone(),
                state: r.state,
            };
            let info = sessions::info(&ws, &folder, current.as_deref(), &today)?;
            (id.code, key, Some(info.date))
        }
        None => {
            let key = history::row_key(&code, name_override.as_deref());
            let recorded = current
                .as_deref()
                .and_then(|h| history::date_of(h, &code, &key));
            (code.clone(), key, recorded)
        }
    };
    let refs = history::refs_cell(current.as_deref(), &row_code, &key, args.refs.as_deref());
    let row = Row {
        key,
        date: date.or(session_date).unwrap_or(today),
        state: state.as_str().to_owned(),
        refs,
    };
    let planned = history_file::plan(current.as_deref(), &row_code, &row);
    history_file::commit(&ws, current.as_deref(), &planned, &lock)?;
    drop(lock);

    if style.format == Format::Human {
        return Ok(Outcome::text(format!(
            "HISTORY row {} {} ({})\n",
            row.key,
            planned.action.as_str(),
            state.as_str()
        )));
    }
    Ok(Outcome::json(json!({
        "code": code,
        "flow": null,
        "action": planned.action.as_str(),
        "state": state.as_str(),
    })))
}
