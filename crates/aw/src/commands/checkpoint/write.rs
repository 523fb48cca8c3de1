//! `aw checkpoint-write [--code <c>] [--force] [--can-pause]`: the PreCompact hook target.
//!
//! Writes a machine snapshot of the session into `CHECKPOINT.md` (progress, newest decision,
//! uncommitted files, origin) with `_[AI: …]_` placeholders for the agent to fill in. A checkpoint
//! somebody already wrote in is kept unless `--force`: only a missing file, the close stub or
//! our untouched sealed template is regenerated.
//!
//! The target is the session resolver's lifecycle target (closed sessions refused) and the
//! conversation is bound to it. When no session can be settled on, a host that can hold its
//! compaction (`--can-pause`) gets a choice that binding settles as a failure with exit 2 and
//! the binding command on stderr; every other case answers "degraded" with exit 0, so
//! compaction goes on and nothing is written.

use super::hook_request;
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Outcome, Style, emit_err};
use crate::style::clean;
use crate::views::hooks::Degraded;
use aw_core::checkpoint::hold;
use aw_core::wire::checkpoint::{self as wire, CheckpointWrite, Kept, Written};
use aw_workspace::WorkspaceError;
use aw_workspace::sessions::hooks::{self, Checkpointed, Unresolved};
use clap::Args;

// Arguments of `aw checkpoint-write`.
#[derive(Debug, Args)]
#[command(
    long_about = "Write a CHECKPOINT.md snapshot of the session (the PreCompact hook target).\n\n\
The session is `--code`, else the one this conversation is bound to (AW_CONTEXT_ID, else \
CLAUDE_CODE_SESSION_ID, or the hook's `session_id` on stdin), else the only active session; the \
conversation is bound to the session written. A checkpoint that holds written content is kept \
unless --force. When no session can be chosen the command exits 0 with `continuity: degraded`, \
except that with --can-pause, when several sessions are active and this conversation is bound to \
none, it exits 2 so the host holds its compaction, and says on stderr the command that binds the \
conversation and lifts the hold."
)]
pub struct CheckpointWriteArgs {
    /// The session: a number, a folder name or a unique folder prefix.
    #[arg(long, value_name = "CODE")]
    pub code: Option<String>,
    /// Regenerate the checkpoint even when it holds written content.
    #[arg(long)]
    pub force: bool,
    /// The host can hold its compaction: exit 2 (with the remedy on stderr) when several
    /// sessions are active and this conversation is bound to none.
    #[arg(long)]
    pub can_pause: bool,
}

/// Runs the command.
pub fn run(args: &CheckpointWriteArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let (ws, req) = hook_request(cx, &args.code)?;
    match hooks::write_checkpoint(&ws, &req, args.force)? {
        Ok(done) => Ok(report(&done, &style)),
        Err(u) => unresolved(u, args.can_pause, req.context_id.as_deref(), &style),
    }
}

/// No session to act on: exit 2 for a pausable host facing a choice that binding the
/// conversation settles (with the reason and the binding command on stderr, which is all the
/// host shows of a held compaction), otherwise degraded continuity with exit 0 and nothing
/// written.
fn unresolved(
    u: Unresolved,
    can_pause: bool,
    context_id: Option<&str>,
    style: &Style,
) -> Result<Outcome, Failure> {
    let held = match &u.refusal {
        WorkspaceError::Session(r) if can_pause => {
            hold::pre_compact(r, context_id, &aw_workspace::invocation::invocation())
        }
        _ => None,
    };
    if let Some(h) = held {
        emit_err(&format!("{}\n", clean(h.notice.trim_end())));
        let mut f = Failure::from(u.refusal);
        f.action = h.action;
        f.exit = 2;
        return Err(f);
    }
    let d = Degraded::of(u, context_id);
    let model = CheckpointWrite::Degraded(wire::Degraded {
        skipped: true,
        reason: &d.reason,
        continuity: "degraded",
        primary_session: None,
        active_sessions: &d.active,
        candidates: &d.candidates,
        action: &d.action,
    });
    Ok(Outcome::shown(&model, style))
}

/// The output of a checkpoint that was written or kept.
fn report(done: &Checkpointed, style: &Style) -> Outcome {
    match done {
        Checkpointed::Kept { folder, path } => {
            let path = path.to_string_lossy();
            Outcome::shown(&CheckpointWrite::Kept(Kept::of(folder, &path)), style)
        }
        Checkpointed::Written {
            folder,
            path,
            lines,
            snapshot: g,
            narrative,
        } => {
            let path = path.to_string_lossy();
            let model = CheckpointWrite::Written(Written {
                session: folder,
                checkpoint_path: &path,
                lines_written: *lines,
                progress_pct: g.progress_pct(),
                tasks_open: g.tasks_open(),
                tasks_closed: g.tasks_closed(),
                files_touched_count: g.files.len(),
                narrative_error: narrative.as_ref().err().map(String::as_str),
            });
            Outcome::shown(&model, style)
        }
    }
}
