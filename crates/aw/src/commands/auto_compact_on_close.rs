//! `aw auto-compact-on-close [--code <c>]`: the SessionEnd hook target.
//!
//! Checkpoints the one session this conversation resolves to, and nothing else (never "every
//! active session": that would write over other conversations' lines). The host is exiting, so
//! there is nobody to pick a session and nothing to hold: an unresolved target is reported as
//! degraded, a session whose checkpoint cannot be written is reported in its entry, and the
//! exit code is 0. It does not bind the conversation either: no later turn would use it.

use crate::cli::Global;
use crate::commands::checkpoint_write::write_for_close;
use crate::commands::lifecycle;
use crate::context;
use crate::failure::Failure;
use crate::output::{Format, Outcome, tty_default};
use aw_core::session::resolve::Intent;
use aw_workspace::resolver::{self, Request};
use aw_workspace::sessions;
use clap::Args;
use serde_json::{Value, json};

/// Arguments of `aw auto-compact-on-close`.
#[derive(Debug, Args)]
#[command(
    long_about = "Write the checkpoint of this conversation's session as the host closes (the \
SessionEnd hook target).\n\nThe session is `--code`, else the one this conversation is bound to \
(AW_CONTEXT_ID, or the hook's `session_id` on stdin), else the only active session. A checkpoint \
that holds written content is kept. Always exits 0: when no session can be chosen, \
`checkpoints_written` is empty and `continuity` is `degraded`."
)]
pub struct AutoCompactOnCloseArgs {
    /// The session: a number, a folder name or a unique folder prefix.
    #[arg(long, value_name = "CODE")]
    pub code: Option<String>,
}

/// Runs the command.
pub fn run(args: &AutoCompactOnCloseArgs, global: &Global) -> Result<Outcome, Failure> {
    let style = global.flags().resolve(tty_default())?;
    let start = lifecycle::start()?;
    let ws = context::workspace(global)?;
    let req = Request {
        code: args.code.as_deref(),
        allow_closed: false,
        bind: false,
        context_id: start.context_id.as_deref(),
        intent: Intent::Write,
    };
    // Resolve first without the lock, so an unresolved target costs nothing and a busy lock can
    // still name the session it could not checkpoint.
    let listing = sessions::list(&ws)?;
    let first = match resolver::resolve_in(&ws, &listing, &req) {
        Ok(r) => r,
        Err(e) if lifecycle::is_unresolved(&e) => {
            return Ok(degraded(style.format, e, &listing));
        }
        Err(e) => return Err(e.into()),
    };
    let entry = match context::lock(&ws) {
        Err(f) => error_entry(&first.folder, &f),
        Ok(held) => {
            // Decide again under the lock: the session may have been closed meanwhile.
            let listing = sessions::list(&ws)?;
            match resolver::resolve_locked(&ws, &listing, &req, &held) {
                Err(e) if lifecycle::is_unresolved(&e) => {
                    return Ok(degraded(style.format, e, &listing));
                }
                Err(e) => return Err(e.into()),
                Ok(resolved) => write_for_close(&ws, &resolved, &start, &held)
                    .unwrap_or_else(|f| error_entry(&resolved.folder, &f)),
            }
        }
    };
    let text = entry_text(&entry);
    let model = json!({ "checkpoints_written": [entry] });
    Ok(match style.format {
        Format::Json => Outcome::json(model),
        Format::Human => Outcome::text(text),
    })
}

fn error_entry(folder: &str, f: &Failure) -> Value {
    json!({ "session": folder, "error": format!("{}: {}", f.code, f.message) })
}

fn entry_text(entry: &Value) -> String {
    let s = |k: &str| entry.get(k).and_then(Value::as_str).unwrap_or_default();
    if entry.get("error").is_some() {
        format!(
            "Checkpoint not written · {}\n  Why  {}\n",
            s("session"),
            s("error")
        )
    } else if entry.get("preserved").is_some() {
        format!(
            "Checkpoint kept · {}\n  Why  {}\n",
            s("session"),
            s("reason")
        )
    } else {
        format!(
            "Checkpoint written · {}\n  File  {}\n",
            s("session"),
            s("checkpoint_path")
        )
    }
}

fn degraded(
    format: Format,
    e: aw_workspace::WorkspaceError,
    listing: &[aw_core::session::folder::SessionFolder],
) -> Outcome {
    let active = lifecycle::active_folders(listing);
    let (reason, candidates, action) = lifecycle::unresolved_detail(e);
    match format {
        Format::Json => Outcome::json(json!({
            "checkpoints_written": [],
            "continuity": "degraded",
            "primary_session": null,
            "candidates": candidates,
            "action": action,
        })),
        Format::Human => Outcome::text(lifecycle::degraded_text(&reason, &action, &active)),
    }
}
