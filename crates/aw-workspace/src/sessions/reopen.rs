//! Reopening a closed session: one transaction under the workspace lock.

use super::CLOSED_SENTINEL;
use crate::error::Result;
use crate::locate::Workspace;
use crate::lock::{WorkspaceLock, default_wait};
use crate::resolver::{self, Resolved};
use crate::{atomic, bindings};
use aw_core::session::folder::SessionState;

/// Reopens the session `code`: removes its `.closed` and, when there is a conversation, binds it
/// to the session. A bindings registry that cannot be read refuses before anything is written.
pub fn reopen(ws: &Workspace, code: &str, context_id: Option<&str>) -> Result<Resolved> {
    let lock = WorkspaceLock::of(ws, default_wait())?;
    let mut resolved = resolver::resolve_code_locked(ws, code, &lock)?;
    let registry = match context_id {
        Some(_) => Some(bindings::load(ws)?),
        None => None,
    };
    atomic::remove_file(&ws.root, &resolved.path.join(CLOSED_SENTINEL))?;
    resolved.state = SessionState::Active;
    if let (Some(cid), Some(mut registry)) = (context_id, registry)
        && registry.bind(cid, &resolved.folder)
    {
        bindings::store(ws, &registry, &lock)?;
        resolved.bound = true;
    }
    Ok(resolved)
}
