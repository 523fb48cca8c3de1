//! `aw auto-compact-on-close [--code <c>]`: the SessionEnd hook target.
//!
//! Checkpoints the one session this conversation resolves to, and nothing else (never "every
//! active session": that would write over other conversations' lines). The host is exiting, so
//! there is nobody to pick a session and nothing to hold: an unresolved target is reported as
//! degraded, a session whose checkpoint cannot be written is reported in its entry, and the
//! exit code is 0. It does not bind the conversation either: no later turn would use it.

use super::hook_request;
use super::write::preserved;
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use crate::style::clean;
use crate::views::hooks::Degraded;
use aw_workspace::hooks::{self, Checkpointed, OnClose};
use clap::Args;
use serde_json::{Value, json};

// Arguments of `aw auto-compact-on-close`.
#[derive(Debug, Args)]
#[command(
    long_about = "Write the checkpoint of this conversation's session as the host closes (the \
SessionEnd hook target).\n\nThe session is `--code`, else the one this conversation is bound to \
(AW_CONTEXT_ID, else CLAUDE_CODE_SESSION_ID, or the hook's `session_id` on stdin), else the \
only active session. A checkpoint \
that holds written content is kept. Always exits 0: when no session can be chosen, \
`checkpoints_written` is empty and `continuity` is `degraded`."
)]
pub struct AutoCompactOnCloseArgs {
    /// The session: a number, a folder name or a unique folder prefix.
    #[arg(long, value_name = "CODE")]
    pub code: Option<String>,
}

/// Runs the command.
pub fn run(args: &AutoCompactOnCloseArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let (ws, req) = hook_request(cx, &args.code)?;
    let entry = match hooks::checkpoint_on_close(&ws, &req)? {
        OnClose::Unresolved(u) => {
            let d = Degraded::of(u, req.context_id.as_deref());
            return Ok(degraded(style.format, d));
        }
        OnClose::Session { folder, result } => match result {
            Ok(Checkpointed::Kept { folder, path }) => preserved(&folder, &path.to_string_lossy()),
            Ok(Checkpointed::Written {
                folder,
                path,
                snapshot,
                ..
            }) => json!({
                "session": folder,
                "checkpoint_path": path.to_string_lossy(),
                "progress_pct": snapshot.progress_pct(),
            }),
            Err(e) => {
                let f = Failure::from(e);
                json!({ "session": folder, "error": format!("{}: {}", f.code, f.message) })
            }
        },
    };
    let text = entry_text(&entry);
    let model = json!({ "checkpoints_written": [entry] });
    Ok(match style.format {
        Format::Json => Outcome::json(model),
        Format::Human => Outcome::text(text),
    })
}

fn entry_text(entry: &Value) -> String {
    let s = |k: &str| clean(entry.get(k).and_then(Value::as_str).unwrap_or_default()).into_owned();
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

fn degraded(format: Format, d: Degraded) -> Outcome {
    match format {
        Format::Json => Outcome::json(json!({
            "checkpoints_written": [],
            "continuity": "degraded",
            "primary_session": null,
            "candidates": d.candidates,
            "action": d.action,
        })),
        Format::Human => Outcome::text(d.text()),
    }
}
