//! Reopening a closed session: one transaction under the workspace lock, which ends with the
//! narrative block saying the session is open again.

use super::CLOSED_SENTINEL;
use crate::error::Result;
use crate::io::lock::{WorkspaceLock, default_wait};
use crate::locate::Workspace;
use crate::sessions::resolver::{self, Resolved};
use crate::{io::atomic, sessions::bindings, sessions::narrative};
use aw_core::session::folder::SessionState;

/// Reopens the session `code`: removes its `.closed`, when there is a conversation binds it to
/// the session, and refreshes the narrative block of `SESSION.md` (the second value: whether it
/// was rewritten, or why it could not be; the reopening stands). A bindings registry that cannot
/// be read or written (a link out of the workspace) refuses before anything is written.
pub fn reopen(
    ws: &Workspace,
    code: &str,
    context_id: Option<&str>,
) -> Result<(Resolved, std::result::Result<bool, String>)> {
    let lock = WorkspaceLock::of(ws, default_wait())?;
    let mut resolved = resolver::resolve_code_locked(ws, code, &lock)?;
    let registry = match context_id {
        Some(_) => Some(bindings::load(ws)?),
        None => None,
    };
    let closed = resolved.path.join(CLOSED_SENTINEL);
    let bindings_path = bindings::path(ws);
    let mut targets = vec![closed.as_path()];
    if registry.is_some() {
        targets.push(&bindings_path);
    }
    // A registry that is a link out of the workspace refuses before `.closed` goes.
    crate::io::containment::check_writes(&ws.root, targets)?;
    atomic::remove_file(&ws.root, &closed)?;
    resolved.state = SessionState::Active;
    if let (Some(cid), Some(mut registry)) = (context_id, registry)
        && registry.bind(cid, &resolved.folder)
    {
        bindings::store(ws, &registry, &lock)?;
        resolved.bound = true;
    }
    let narrative = narrative::refresh_reported(&resolved.path, &resolved.folder, &lock);
    Ok((resolved, narrative))
}
