//! The session resolver (§7.2), shared by every session-scoped command.
//!
//! A command builds a [`Request`] (explicit code, whether a closed session will do, whether to
//! bind the conversation, the context id it read) and gets back the folder to act on, or a
//! [`WorkspaceError::Session`] carrying the wire code, the candidates and the next action.
//!
//! Reads never bind (the reference's v22 rule): only callers that change a session's lifecycle
//! set `bind`. A binding is written under the workspace lock, and skipped when already right.

use crate::error::{Result, WorkspaceError};
use crate::io::lock::{WorkspaceLock, default_wait};
use crate::locate::Workspace;
use crate::sessions;
use crate::sessions::bindings;
use aw_core::session::folder::{SessionFolder, SessionState};
use aw_core::session::resolve::{self, BindingLookup, Intent, Refusal, RefusalKind, Target, Via};
use std::path::PathBuf;

/// What a caller asks the resolver for.
#[derive(Debug, Clone, Copy, Default)]
pub struct Request<'a> {
    /// `--code`: a number, a `sessionNNN`, a folder prefix or a folder name.
    pub code: Option<&'a str>,
    /// Whether a closed session is an acceptable answer.
    pub allow_closed: bool,
    /// Whether to bind the conversation to the resolved (active) session.
    pub bind: bool,
    /// The conversation's context id (`AW_CONTEXT_ID`, or a hook's `session_id`), trimmed and
    /// non-empty; `None` when there is no conversation.
    pub context_id: Option<&'a str>,
    /// Read or write; writes refuse a number shared by two folders.
    pub intent: Intent,
}

/// A resolved session.
#[derive(Debug, Clone)]
pub struct Resolved {
    /// The folder name.
    pub folder: String,
    /// The folder's absolute path.
    pub path: PathBuf,
    /// Active or closed.
    pub state: SessionState,
    /// How it was chosen.
    pub via: Via,
    /// Whether this call wrote a new binding.
    pub bound: bool,
}

/// Lists the sessions and resolves the request.
pub fn resolve(ws: &Workspace, req: &Request<'_>) -> Result<Resolved> {
    let listing = sessions::list(ws)?;
    resolve_in(ws, &listing, req)
}

/// Resolves an explicit `--code` for a command that only reads the session (what `resume` and
/// `sources` propose or expect): closed sessions are acceptable and nothing is bound.
pub fn resolve_code_read(ws: &Workspace, code: &str) -> Result<SessionFolder> {
    let r = resolve(ws, &explicit(code, Intent::Read))?;
    Ok(SessionFolder {
        folder: r.folder,
        state: r.state,
    })
}

/// Resolves an explicit `--code` for a command that changes the session (closing, reopening,
/// its HISTORY row): closed sessions are acceptable, a number shared by two folders is not,
/// and nothing is bound. The caller holds the lock, so the folder cannot change before it acts.
pub fn resolve_code_locked(ws: &Workspace, code: &str, _held: &WorkspaceLock) -> Result<Resolved> {
    resolve(ws, &explicit(code, Intent::Write))
}

/// An explicit `--code` that may name a closed session and binds nothing.
fn explicit(code: &str, intent: Intent) -> Request<'_> {
    Request {
        code: Some(code),
        allow_closed: true,
        bind: false,
        context_id: None,
        intent,
    }
}

/// Resolves the request against a listing the caller already read (so it is read once).
pub fn resolve_in(
    ws: &Workspace,
    listing: &[SessionFolder],
    req: &Request<'_>,
) -> Result<Resolved> {
    let resolved = decide(ws, listing, req)?;
    if !req.bind || resolved.state != SessionState::Active || resolved.via == Via::Binding {
        return Ok(resolved);
    }
    let Some(cid) = req.context_id else {
        return Ok(resolved);
    };
    let lock =
        WorkspaceLock::of(ws, default_wait()).map_err(|e| bind_failed(&resolved.folder, e))?;
    bind_locked(ws, cid, resolved, &lock)
}

/// Resolves while the caller already holds the workspace lock (for commands that bind inside
/// their own critical section, such as `session-resume --reopen`).
pub fn resolve_locked(
    ws: &Workspace,
    listing: &[SessionFolder],
    req: &Request<'_>,
    held: &WorkspaceLock,
) -> Result<Resolved> {
    let resolved = decide(ws, listing, req)?;
    match req.context_id {
        Some(cid) if req.bind && resolved.state == SessionState::Active => {
            bind_locked(ws, cid, resolved, held)
        }
        _ => Ok(resolved),
    }
}

/// Binds `context_id` to `resolved.folder` under the held lock (skipping a write that would
/// change nothing). A failure becomes `SESSION_BINDING_INVALID`.
pub fn bind_locked(
    ws: &Workspace,
    context_id: &str,
    mut resolved: Resolved,
    held: &WorkspaceLock,
) -> Result<Resolved> {
    let mut registry = bindings::load(ws)?;
    if registry.bind(context_id, &resolved.folder) {
        bindings::store(ws, &registry, held).map_err(|e| bind_failed(&resolved.folder, e))?;
        resolved.bound = true;
    }
    Ok(resolved)
}

fn decide(ws: &Workspace, listing: &[SessionFolder], req: &Request<'_>) -> Result<Resolved> {
    let target = Target {
        code: req.code,
        allow_closed: req.allow_closed,
        intent: req.intent,
    };
    let lookup = || match req.context_id {
        None => BindingLookup::NoContext,
        Some(cid) => match bindings::read(ws) {
            Ok(Ok(reg)) => reg.lookup(cid).map_or(BindingLookup::Unbound, |f| {
                BindingLookup::Bound(f.to_owned())
            }),
            Ok(Err(why)) => BindingLookup::Unreadable(why),
            Err(e) => BindingLookup::Unreadable(e.to_string()),
        },
    };
    let r = resolve::resolve(listing, &target, lookup)
        .map_err(|refusal| WorkspaceError::Session(Box::new(refusal)))?;
    Ok(Resolved {
        path: sessions::folder_path(ws, &r.folder),
        folder: r.folder,
        state: r.state,
        via: r.via,
        bound: false,
    })
}

fn bind_failed(folder: &str, why: WorkspaceError) -> WorkspaceError {
    if let WorkspaceError::Session(r) = why {
        return WorkspaceError::Session(r);
    }
    // A refusal (a registry that is a link out of the workspace) says itself what to fix; a
    // failing disk may pass, so running again is the advice.
    let action = match &why {
        WorkspaceError::Refused { action, .. } => action.clone(),
        _ => format!("Run the command again, or name the session with --code {folder}."),
    };
    let why = why.to_string();
    WorkspaceError::Session(Box::new(Refusal {
        kind: RefusalKind::BindingInvalid,
        message: format!(
            "This conversation could not be bound to '{folder}': {}.",
            why.trim_end_matches('.')
        ),
        action,
        candidates: Vec::new(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ws(root: &std::path::Path) -> Workspace {
        Workspace::for_test(root)
    }

    #[test]
    fn binds_only_when_asked_and_active() {
        let dir = tempfile::tempdir().unwrap();
        let w = ws(dir.path());
        std::fs::create_dir_all(w.sessions_dir().join("001-a")).unwrap();
        let read = Request {
            context_id: Some("conv-1"),
            ..Default::default()
        };
        let r = resolve(&w, &read).unwrap();
        assert_eq!(
            (r.folder.as_str(), r.via, r.bound),
            ("001-a", Via::SoleActive, false)
        );
        assert!(!bindings::path(&w).exists(), "reads never bind");
        let write = Request { bind: true, ..read };
        assert!(resolve(&w, &write).unwrap().bound);
        assert_eq!(bindings::load(&w).unwrap().lookup("conv-1"), Some("001-a"));
        // Now the binding decides, and nothing is rewritten.
        std::fs::create_dir_all(w.sessions_dir().join("002-b")).unwrap();
        let again = resolve(&w, &write).unwrap();
        assert_eq!((again.via, again.bound), (Via::Binding, false));
    }

    #[test]
    fn unreadable_registry_fails_closed() {
        let dir = tempfile::tempdir().unwrap();
        let w = ws(dir.path());
        std::fs::create_dir_all(w.sessions_dir().join("001-a")).unwrap();
        std::fs::write(bindings::path(&w), "{nope").unwrap();
        let req = Request {
            context_id: Some("c"),
            ..Default::default()
        };
        let e = resolve(&w, &req).unwrap_err();
        assert_eq!(e.code(), "SESSION_BINDING_INVALID");
        // An explicit code never reads the registry.
        let explicit = Request {
            code: Some("1"),
            ..req
        };
        assert_eq!(resolve(&w, &explicit).unwrap().folder, "001-a");
    }
}
