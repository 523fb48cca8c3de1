//! What the lifecycle hooks do on disk: writing a session's checkpoint as a host compacts a
//! conversation (`checkpoint-write`) or closes it (`auto-compact-on-close`).
//!
//! A hook runs while a host compacts or closes a conversation. It must never guess a session
//! (that would hand one conversation another's state): when the resolver cannot settle on one,
//! the transaction reports it as [`Unresolved`] with the listing it saw, and writes nothing.

use crate::error::{Result, WorkspaceError};
use crate::io::lock::{WorkspaceLock, default_wait};
use crate::locate::Workspace;
use crate::sessions;
use crate::sessions::artifacts::{entries, read_text};
use crate::sessions::checkpoint::{checkpoint_path, gather};
use crate::sessions::resolver::{self, Request, Resolved};
use aw_core::calendar::WallClock;
use aw_core::checkpoint::{Guard, Snapshot, guard, render};
use aw_core::error_code::ErrorCode;
use aw_core::session::folder::SessionFolder;
use aw_core::session::resolve::Intent;
use std::path::PathBuf;

/// No session could be settled on: the resolver's refusal and the sessions it saw.
#[derive(Debug)]
pub struct Unresolved {
    /// The refusal (a `SESSION_*` code with its candidates and next action).
    pub refusal: WorkspaceError,
    /// The session folders listed.
    pub listing: Vec<SessionFolder>,
}

/// What happened to a session's checkpoint.
#[derive(Debug, Clone)]
pub enum Checkpointed {
    /// The existing checkpoint holds written content and was kept.
    Kept {
        /// The session folder.
        folder: String,
        /// The checkpoint's path.
        path: PathBuf,
    },
    /// A fresh snapshot was written.
    Written {
        /// The session folder.
        folder: String,
        /// The checkpoint's path.
        path: PathBuf,
        /// How many lines it has.
        lines: usize,
        /// What it states.
        snapshot: Box<Snapshot>,
        /// Whether `checkpoint-write` rewrote the narrative block of `SESSION.md`, or why it
        /// could not (the checkpoint stands); `Ok(false)` for the closing hook, which never
        /// refreshes it.
        narrative: std::result::Result<bool, String>,
    },
}

/// The existing checkpoint of a session: its path (the existing file in any letter case, else
/// the canonical name) and its text, `None` when there is none.
pub fn read_checkpoint(session_dir: &std::path::Path) -> Result<(PathBuf, Option<String>)> {
    let names = entries(session_dir)?;
    let path = checkpoint_path(session_dir, &names);
    let text = read_text(&path)?;
    Ok((path, text))
}

/// What the overwrite guard and the snapshot decided, before anything is written.
struct Plan {
    path: PathBuf,
    /// `None`: keep the existing file.
    write: Option<(String, Box<Snapshot>)>,
}

/// Reads everything a checkpoint write needs: the existing file for the guard, then (when it may
/// be replaced) the snapshot, rendered.
fn plan(ws: &Workspace, resolved: &Resolved, now: WallClock, force: bool) -> Result<Plan> {
    let names = entries(&resolved.path)?;
    let path = checkpoint_path(&resolved.path, &names);
    let existing = read_text(&path)?;
    if guard(existing.as_deref(), force) == Guard::Preserve {
        return Ok(Plan { path, write: None });
    }
    let snapshot = gather(&ws.root, &resolved.path, &resolved.folder, &names, now)?;
    Ok(Plan {
        path,
        write: Some((render(&snapshot), Box::new(snapshot))),
    })
}

/// Writes a plan (the caller holds the workspace lock).
fn commit(folder: &str, plan: Plan, held: &WorkspaceLock) -> Result<Checkpointed> {
    let Some((text, snapshot)) = plan.write else {
        return Ok(Checkpointed::Kept {
            folder: folder.to_owned(),
            path: plan.path,
        });
    };
    crate::io::atomic::write(held.root(), &plan.path, text.as_bytes())?;
    Ok(Checkpointed::Written {
        folder: folder.to_owned(),
        lines: text.trim_end_matches('\n').split('\n').count(),
        path: plan.path,
        snapshot,
        narrative: Ok(false),
    })
}

/// A hook's request: the session asked for and the conversation asking.
#[derive(Debug, Clone)]
pub struct HookRequest {
    /// `--code`.
    pub code: Option<String>,
    /// The conversation (`AW_CONTEXT_ID` and/or the hook's `session_id`).
    pub context_id: Option<String>,
    /// Local time now.
    pub now: WallClock,
}

impl HookRequest {
    /// Lists the sessions and resolves the target (closed sessions refused, nothing bound):
    /// the inner `Err` when the resolver will not settle on one.
    fn settle(&self, ws: &Workspace) -> Result<std::result::Result<Resolved, Unresolved>> {
        let listing = sessions::list(ws)?;
        let request = Request {
            code: self.code.as_deref(),
            allow_closed: false,
            bind: false,
            context_id: self.context_id.as_deref(),
            intent: Intent::Write,
        };
        match resolver::resolve_in(ws, &listing, &request) {
            Ok(r) => Ok(Ok(r)),
            Err(e) if e.is_unresolved() => Ok(Err(Unresolved {
                refusal: e,
                listing,
            })),
            Err(e) => Err(e),
        }
    }
}

/// `checkpoint-write`: under the lock, resolves the session (closed ones refused), reads
/// everything, binds the conversation to the session (writing its checkpoint is the
/// conversation claiming the line, so the next hook call lands on the same session), then
/// writes the snapshot unless a written-in checkpoint must be kept (`force` regenerates it).
/// A binding that cannot be written is a refusal like any other: unresolved, nothing written.
pub fn write_checkpoint(
    ws: &Workspace,
    req: &HookRequest,
    force: bool,
) -> Result<std::result::Result<Checkpointed, Unresolved>> {
    // Without a sessions folder nothing can resolve; the lock is skipped so a workspace that was
    // never initialised gets no `.<ns>/` folder from a hook.
    if !ws.sessions_dir().is_dir() {
        return match req.settle(ws)? {
            Err(u) => Ok(Err(u)),
            // No folder, no session; but never write without the lock.
            Ok(r) => Err(WorkspaceError::Refused {
                code: ErrorCode::IoError,
                message: format!(
                    "The sessions folder of '{}' disappeared during the command.",
                    r.folder
                ),
                action: "Run the command again.".to_owned(),
            }),
        };
    }
    let held = WorkspaceLock::of(ws, default_wait())?;
    let resolved = match req.settle(ws)? {
        Ok(r) => r,
        Err(u) => return Ok(Err(u)),
    };
    let plan = plan(ws, &resolved, req.now, force)?;
    // A checkpoint that cannot be written (a link out of the workspace) refuses before the
    // conversation is bound to the session.
    if plan.write.is_some() {
        crate::io::containment::check_writes(held.root(), [plan.path.as_path()])?;
    }
    let folder = resolved.folder.clone();
    let resolved_dir = resolved.path.clone();
    if let Some(cid) = req.context_id.as_deref() {
        match resolver::bind_locked(ws, cid, resolved, &held) {
            Ok(_) => {}
            Err(e) if e.is_unresolved() => {
                return Ok(Err(Unresolved {
                    refusal: e,
                    listing: sessions::list(ws)?,
                }));
            }
            Err(e) => return Err(e),
        }
    }
    let mut done = commit(&folder, plan, &held)?;
    // A checkpoint that was written changes what the narrative says (a kept one does not).
    if let Checkpointed::Written { narrative, .. } = &mut done {
        *narrative = crate::sessions::narrative::refresh_reported(&resolved_dir, &folder, &held);
    }
    Ok(Ok(done))
}

/// The checkpoint of the session a closing conversation resolves to, for
/// `auto-compact-on-close`.
#[derive(Debug)]
pub enum OnClose {
    /// No session could be settled on.
    Unresolved(Unresolved),
    /// The session and what happened to its checkpoint (an error is reported, not raised: the
    /// host is exiting and nobody can act on a failure).
    Session {
        /// The session folder.
        folder: String,
        /// The checkpoint, or why it could not be written.
        result: Result<Checkpointed>,
    },
}

/// `auto-compact-on-close`: checkpoints the one session the conversation resolves to, never
/// forced and never binding. The session is resolved first without the lock (an unresolved
/// target costs nothing, and a busy lock can still name the session it could not checkpoint),
/// then again under it (the session may have been closed meanwhile).
pub fn checkpoint_on_close(ws: &Workspace, req: &HookRequest) -> Result<OnClose> {
    let first = match req.settle(ws)? {
        Ok(r) => r,
        Err(u) => return Ok(OnClose::Unresolved(u)),
    };
    let held = match WorkspaceLock::of(ws, default_wait()) {
        Ok(h) => h,
        Err(e) => {
            return Ok(OnClose::Session {
                folder: first.folder,
                result: Err(e),
            });
        }
    };
    let resolved = match req.settle(ws)? {
        Ok(r) => r,
        Err(u) => return Ok(OnClose::Unresolved(u)),
    };
    let result =
        plan(ws, &resolved, req.now, false).and_then(|p| commit(&resolved.folder, p, &held));
    Ok(OnClose::Session {
        folder: resolved.folder,
        result,
    })
}
