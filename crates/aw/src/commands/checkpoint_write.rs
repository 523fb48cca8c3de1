//! `aw checkpoint-write [--code <c>] [--force] [--can-pause]`: the PreCompact hook target.
//!
//! Writes a machine snapshot of the session into `CHECKPOINT.md` (progress, newest decision,
//! uncommitted files, origin) with `_[AI: …]_` placeholders for the agent to fill in. A checkpoint
//! somebody already wrote in is kept unless `--force`: only a missing file, the close stub or
//! our untouched sealed template is regenerated.
//!
//! The target is the session resolver's lifecycle target (closed sessions refused) and the
//! conversation is bound to it. When no session can be settled on, a host that can hold its
//! compaction (`--can-pause`) gets the ambiguity as a failure with exit 2; every other case
//! answers "degraded" with exit 0, so compaction goes on and nothing is written.

use crate::cli::Global;
use crate::commands::lifecycle::{self, Start};
use crate::context;
use crate::failure::Failure;
use crate::output::{Format, Outcome, tty_default};
use aw_core::checkpoint::{Guard, guard, render};
use aw_core::session::folder::SessionFolder;
use aw_core::session::resolve::Intent;
use aw_workspace::WorkspaceError;
use aw_workspace::checkpoint as disk;
use aw_workspace::locate::Workspace;
use aw_workspace::lock::WorkspaceLock;
use aw_workspace::resolver::{self, Request, Resolved};
use aw_workspace::sessions;
use clap::Args;
use serde_json::{Value, json};
use std::path::PathBuf;

/// Arguments of `aw checkpoint-write`.
#[derive(Debug, Args)]
#[command(
    long_about = "Write a CHECKPOINT.md snapshot of the session (the PreCompact hook target).\n\n\
The session is `--code`, else the one this conversation is bound to (AW_CONTEXT_ID, or the \
hook's `session_id` on stdin), else the only active session. A checkpoint that holds written \
content is kept unless --force. When no session can be chosen the command exits 0 with \
`continuity: degraded`, except that with --can-pause an ambiguous choice exits 2 so the host \
holds its compaction."
)]
pub struct CheckpointWriteArgs {
    /// The session: a number, a folder name or a unique folder prefix.
    #[arg(long, value_name = "CODE")]
    pub code: Option<String>,
    /// Regenerate the checkpoint even when it holds written content.
    #[arg(long)]
    pub force: bool,
    /// The host can hold its compaction: exit 2 when the session is ambiguous.
    #[arg(long)]
    pub can_pause: bool,
}

/// Said whenever an existing checkpoint was kept.
pub const PRESERVED_REASON: &str =
    "CHECKPOINT.md holds written content, so it was kept; pass --force to regenerate it.";

/// Runs the command.
pub fn run(args: &CheckpointWriteArgs, global: &Global) -> Result<Outcome, Failure> {
    let style = global.flags().resolve(tty_default())?;
    let start = lifecycle::start()?;
    let ws = context::workspace(global)?;
    // Without a sessions folder nothing can resolve; skip the lock so a workspace that was
    // never initialised gets no `.<ns>/` folder from a hook.
    let lock = if ws.sessions_dir().is_dir() {
        Some(context::lock(&ws)?)
    } else {
        None
    };
    let listing = sessions::list(&ws)?;
    let req = Request {
        code: args.code.as_deref(),
        allow_closed: false,
        bind: false,
        context_id: start.context_id.as_deref(),
        intent: Intent::Write,
    };
    let resolved = match &lock {
        Some(held) => resolver::resolve_locked(&ws, &listing, &req, held),
        None => resolver::resolve_in(&ws, &listing, &req),
    };
    let (resolved, held) = match (resolved, &lock) {
        (Ok(r), Some(held)) => (r, held),
        (Ok(r), None) => {
            // Unreachable in practice (no folder, no session), but never write unlocked.
            return Err(Failure::new(
                "IO_ERROR",
                format!(
                    "The sessions folder of '{}' disappeared during the command.",
                    r.folder
                ),
                "Run the command again.",
            ));
        }
        (Err(e), _) if lifecycle::is_unresolved(&e) => {
            return unresolved(e, args.can_pause, &listing, style.format);
        }
        (Err(e), _) => return Err(e.into()),
    };
    match write_locked(&ws, resolved, &start, args.force, held)? {
        Ok((model, text)) => Ok(project(style.format, model, text)),
        Err(e) => unresolved(e, args.can_pause, &listing, style.format),
    }
}

/// No session to act on: exit 2 for a pausable host facing a choice, otherwise degraded
/// continuity with exit 0 and nothing written.
fn unresolved(
    e: WorkspaceError,
    can_pause: bool,
    listing: &[SessionFolder],
    format: Format,
) -> Result<Outcome, Failure> {
    if can_pause && e.code() == "SESSION_AMBIGUOUS" {
        let mut f = Failure::from(e);
        f.exit = 2;
        return Err(f);
    }
    let active = lifecycle::active_folders(listing);
    let (reason, candidates, action) = lifecycle::unresolved_detail(e);
    let text = lifecycle::degraded_text(&reason, &action, &active);
    let model = json!({
        "skipped": true,
        "reason": reason,
        "continuity": "degraded",
        "primary_session": null,
        "active_sessions": active,
        "candidates": candidates,
        "action": action,
    });
    Ok(project(format, model, text))
}

fn project(format: Format, model: Value, text: String) -> Outcome {
    match format {
        Format::Json => Outcome::json(model),
        Format::Human => Outcome::text(text),
    }
}

/// What the overwrite guard and the snapshot decided, before anything is written.
enum Plan {
    /// Keep the existing checkpoint.
    Keep,
    /// Write this text; the gathered facts feed the report.
    Write(String, Box<disk::Gathered>),
}

/// Reads everything a checkpoint write needs: the existing file for the guard, then (when it
/// may be replaced) the snapshot, rendered. Returns the checkpoint's path and the plan.
fn plan(
    ws: &Workspace,
    resolved: &Resolved,
    start: &Start,
    force: bool,
) -> Result<(PathBuf, Plan), Failure> {
    let entries = disk::entries(&resolved.path)?;
    let cp_path = disk::checkpoint_path(&resolved.path, &entries);
    let existing = disk::read_text(&cp_path)?;
    if guard(existing.as_deref(), force) == Guard::Preserve {
        return Ok((cp_path, Plan::Keep));
    }
    let g = disk::gather(
        &ws.root,
        &resolved.path,
        &resolved.folder,
        &entries,
        start.now,
    )?;
    Ok((cp_path, Plan::Write(render(&g.snapshot), Box::new(g))))
}

fn progress_of(g: &disk::Gathered) -> Option<u32> {
    g.snapshot
        .tasks
        .and_then(|(c, t)| aw_core::artifacts::percent(c, t))
}

fn preserved(folder: &str, path: &str) -> Value {
    json!({
        "session": folder,
        "checkpoint_path": path,
        "skipped": true,
        "preserved": true,
        "reason": PRESERVED_REASON,
    })
}

/// Under the held lock: plan (every read), bind, then the one atomic write; a failure before
/// the write leaves nothing behind. A binding that cannot be written is a refusal like any
/// other, returned as the inner error so the caller degrades.
fn write_locked(
    ws: &Workspace,
    resolved: Resolved,
    start: &Start,
    force: bool,
    held: &WorkspaceLock,
) -> Result<Result<(Value, String), WorkspaceError>, Failure> {
    let (cp_path, plan) = plan(ws, &resolved, start, force)?;
    let path_str = cp_path.to_string_lossy().into_owned();
    let folder = resolved.folder.clone();
    // Writing (or keeping) this conversation's checkpoint is it claiming the line, so the next
    // hook call, which carries no --code, lands on the same session.
    if let Some(cid) = start.context_id.as_deref() {
        match resolver::bind_locked(ws, cid, resolved, held) {
            Ok(_) => {}
            Err(e) if lifecycle::is_unresolved(&e) => return Ok(Err(e)),
            Err(e) => return Err(e.into()),
        }
    }
    let (md, g) = match plan {
        Plan::Keep => {
            let text = format!(
                "Checkpoint kept · {folder}\n  File  {path_str}\n  Why   {PRESERVED_REASON}\n"
            );
            return Ok(Ok((preserved(&folder, &path_str), text)));
        }
        Plan::Write(md, g) => (md, g),
    };
    disk::write(&cp_path, &md)?;
    let lines_written = md.trim_end_matches('\n').split('\n').count();
    let progress = progress_of(&g);
    let files = g.snapshot.files.len();
    let model = json!({
        "session": folder,
        "checkpoint_path": path_str,
        "lines_written": lines_written,
        "progress_pct": progress,
        "tasks_open": g.tasks_open,
        "tasks_closed": g.tasks_closed,
        "files_touched_count": files,
    });
    let progress_text = match progress {
        Some(p) => format!("{p}% ({} open, {} done)", g.tasks_open, g.tasks_closed),
        None => "unknown (no tasks)".to_owned(),
    };
    let text = format!(
        "Checkpoint written · {folder}\n  File      {path_str}\n  Progress  {progress_text}\n  Changes   {files} uncommitted file(s)\n  Next      fill in the _[AI: …]_ placeholders\n"
    );
    Ok(Ok((model, text)))
}

/// Writes the checkpoint of an already resolved session for `auto-compact-on-close`: never
/// forced, never binding. Returns the model entry.
pub fn write_for_close(
    ws: &Workspace,
    resolved: &Resolved,
    start: &Start,
    // Proof that the caller holds the workspace lock for the whole read-modify-write.
    _held: &WorkspaceLock,
) -> Result<Value, Failure> {
    let (cp_path, plan) = plan(ws, resolved, start, false)?;
    let path_str = cp_path.to_string_lossy().into_owned();
    match plan {
        Plan::Keep => Ok(preserved(&resolved.folder, &path_str)),
        Plan::Write(md, g) => {
            disk::write(&cp_path, &md)?;
            Ok(json!({
                "session": resolved.folder,
                "checkpoint_path": path_str,
                "progress_pct": progress_of(&g),
            }))
        }
    }
}
