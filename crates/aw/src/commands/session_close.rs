//! `aw session-close --code <c> [--refs <csv>]`: closes a session.
//!
//! The session is resolved and every input read before anything is written; then, under one
//! hold of the workspace lock: the conversation bindings that point at the session are removed,
//! `CHECKPOINT.md` is created as a stub if it is missing, `.closed` is written, the HISTORY row
//! is upserted and the session's untouched numbering reservations are released. A busy lock
//! writes nothing (the reference created `CHECKPOINT.md` before taking the lock). Closing a
//! closed session again is allowed and rewrites its row.

use crate::cli::Global;
use crate::context;
use crate::failure::Failure;
use crate::output::{Format, Outcome, tty_default};
use aw_core::artifacts::ArtifactKind;
use aw_core::session::folder::{SessionFolder, SessionState, identity};
use aw_core::session::history::{self, Row};
use aw_core::session::resolve::Intent;
use aw_workspace::checkpoint as disk;
use aw_workspace::clock::local_date_today;
use aw_workspace::resolver::{self, Request};
use aw_workspace::sessions::{self, CLOSED_SENTINEL};
use aw_workspace::{atomic, bindings, history as history_file, numbering};
use clap::Args;
use serde_json::json;

/// Arguments of `aw session-close`.
#[derive(Debug, Args)]
#[command(
    long_about = "Close a session: remove this workspace's conversation bindings to it, make \
sure it has a CHECKPOINT.md, write its `.closed` sentinel and its HISTORY.md row.\n\n`--refs` is \
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

/// The stub written when a session has no checkpoint.
const CHECKPOINT_STUB: &str = "# CHECKPOINT\n";

/// Runs the command.
pub fn run(args: &SessionCloseArgs, global: &Global) -> Result<Outcome, Failure> {
    let style = global.flags().resolve(tty_default())?;
    let Some(code) = args
        .code
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty())
    else {
        return Err(Failure::new(
            "INVALID_INPUT",
            "`--code` is required: closing never guesses the session.",
            "Add `--code <session>` (see `aw sessions`).",
        ));
    };
    let ws = context::workspace(global)?;
    let request = Request {
        code: Some(code),
        allow_closed: true,
        bind: false,
        context_id: None,
        intent: Intent::Write,
    };
    let today = local_date_today();

    // Resolve under the lock, so the folder cannot change between the decision and the writes.
    let lock = context::lock(&ws)?;
    let listing = sessions::list(&ws)?;
    let resolved = resolver::resolve_in(&ws, &listing, &request)?;
    let id = identity(&resolved.folder);
    let mut registry = bindings::load(&ws)?;
    let invalidated = registry.unbind_folder(&resolved.folder);
    let history_read = history_file::read(&ws);
    let current = history_read.as_ref().ok().and_then(|t| t.as_deref());
    let folder = SessionFolder {
        folder: resolved.folder.clone(),
        state: resolved.state,
    };
    let info = sessions::info(&ws, &folder, current, &today)?;
    let checkpoint_path = disk::checkpoint_path(&resolved.path, &info.entries);
    let backlog_path = disk::artifact(&resolved.path, &info.entries, ArtifactKind::Backlog)
        .unwrap_or_else(|| resolved.path.join(ArtifactKind::Backlog.canonical()));
    let planned = history_read
        .as_ref()
        .map_err(|e| e.to_string())
        .map(|current| {
            let key = history::row_key(&id.code, Some(&id.name));
            let row = Row {
                refs: history::refs_cell(current.as_deref(), &id.code, &key, args.refs.as_deref()),
                key,
                date: info.date.clone(),
                state: SessionState::Closed.as_str().to_owned(),
            };
            (
                current.as_deref(),
                history_file::plan(current.as_deref(), &id.code, &row),
            )
        });

    if invalidated > 0 {
        bindings::store(&ws, &registry, &lock)?;
    }
    if !checkpoint_path.exists() {
        atomic::create_new(&checkpoint_path, CHECKPOINT_STUB.as_bytes())?;
    }
    atomic::write(&resolved.path.join(CLOSED_SENTINEL), b"")?;
    crate::test_hook::stall();
    let history = match &planned {
        Ok((current, p)) => history_file::commit(&ws, *current, p, &lock)
            .map(|()| p.action)
            .map_err(|e| e.to_string()),
        Err(e) => Err(e.clone()),
    };
    let released = numbering::release_reservations(&ws, &resolved.folder, &lock)?;
    drop(lock);

    if style.format == Format::Human {
        let mut line = format!("Closed session {}", resolved.folder);
        match &history {
            Ok(a) => line.push_str(&format!(" · HISTORY row {}", a.as_str())),
            Err(e) => line.push_str(&format!(" · HISTORY not updated: {e}")),
        }
        if invalidated > 0 {
            line.push_str(&format!(" · {invalidated} binding(s) removed"));
        }
        if !released.is_empty() {
            line.push_str(&format!(" · {} reservation(s) released", released.len()));
        }
        line.push('\n');
        return Ok(Outcome::text(line));
    }
    let mut model = json!({
        "code": id.code,
        "folder": resolved.folder,
        "closed": true,
        "checkpoint_path": checkpoint_path.to_string_lossy(),
        "backlog_path": backlog_path.to_string_lossy(),
        "refs": args.refs,
        "bindings_invalidated": invalidated,
    });
    match history {
        Ok(action) => {
            model["history"] = json!({ "action": action.as_str(), "state": "closed" });
        }
        Err(e) => {
            model["history"] = json!(null);
            model["history_error"] = json!(e);
        }
    }
    model["reservations_released"] = json!(released);
    Ok(Outcome::json(model))
}
