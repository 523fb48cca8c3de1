//! `aw auto-compact-on-close [--code <c>]`: the SessionEnd hook target.
//!
//! Checkpoints the one session this conversation resolves to, and nothing else (never "every
//! active session": that would write over other conversations' lines). The host is exiting, so
//! there is nobody to pick a session and nothing to hold: an unresolved target is reported as
//! degraded, a session whose checkpoint cannot be written is reported in its entry, and the
//! exit code is 0. It does not bind the conversation either: no later turn would use it.

use super::hook_request;
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Outcome, Style};
use crate::views::hooks::Degraded;
use aw_core::wire::checkpoint::{AutoCompactOnClose, Kept, OnCloseEntry};
use aw_workspace::sessions::hooks::{self, Checkpointed, OnClose};
use clap::Args;

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
    let (folder, result) = match hooks::checkpoint_on_close(&ws, &req)? {
        OnClose::Unresolved(u) => {
            let d = Degraded::of(u, req.context_id.as_deref());
            return Ok(degraded(&style, d));
        }
        OnClose::Session { folder, result } => (folder, result),
    };
    let done = match result {
        Ok(Checkpointed::Kept { folder, path }) => Done::Kept {
            folder,
            path: path.to_string_lossy().into_owned(),
        },
        Ok(Checkpointed::Written {
            folder,
            path,
            snapshot,
            ..
        }) => Done::Written {
            folder,
            path: path.to_string_lossy().into_owned(),
            progress: snapshot.progress_pct(),
        },
        Err(e) => {
            let f = Failure::from(e);
            Done::Failed {
                error: format!("{}: {}", f.code, f.message),
            }
        }
    };
    let entry = match &done {
        Done::Kept { folder, path } => OnCloseEntry::Kept(Kept::of(folder, path)),
        Done::Written {
            folder,
            path,
            progress,
        } => OnCloseEntry::Written {
            session: folder,
            checkpoint_path: path,
            progress_pct: *progress,
        },
        Done::Failed { error } => OnCloseEntry::Failed {
            session: &folder,
            error: error.clone(),
        },
    };
    let model = AutoCompactOnClose::Session {
        checkpoints_written: [entry],
    };
    Ok(Outcome::shown(&model, &style))
}

/// What happened to the closing session's checkpoint, owned.
enum Done {
    Kept {
        folder: String,
        path: String,
    },
    Written {
        folder: String,
        path: String,
        progress: Option<u32>,
    },
    Failed {
        error: String,
    },
}

fn degraded(style: &Style, d: Degraded) -> Outcome {
    let model = AutoCompactOnClose::Degraded {
        checkpoints_written: [],
        continuity: "degraded",
        primary_session: None,
        candidates: &d.candidates,
        action: &d.action,
        reason: &d.reason,
        active_sessions: &d.active,
    };
    Outcome::shown(&model, style)
}
