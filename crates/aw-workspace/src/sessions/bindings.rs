//! The conversation registry file, `.<ns>/sessions/.bindings.json`.
//!
//! Reads fail closed (`SESSION_BINDING_INVALID`); writes happen only under the workspace lock,
//! which callers prove by passing the guard.

use crate::error::{Result, WorkspaceError};
use crate::io::atomic;
use crate::io::lock::WorkspaceLock;
use crate::locate::Workspace;
use aw_core::session::bindings::Registry;
use aw_core::session::resolve::{Refusal, RefusalKind};
use std::path::PathBuf;

/// The registry's path.
pub fn path(ws: &Workspace) -> PathBuf {
    ws.sessions_dir().join(".bindings.json")
}

/// Reads the registry. A missing file is an empty registry; a malformed one is
/// `SESSION_BINDING_INVALID`.
pub fn load(ws: &Workspace) -> Result<Registry> {
    read(ws)?.map_err(invalid)
}

/// Reads the registry, separating I/O failures (the outer error) from a malformed registry
/// (the inner one, with the reason in English).
pub fn read(ws: &Workspace) -> Result<std::result::Result<Registry, String>> {
    let p = path(ws);
    let text = match crate::io::folder::read_regular_path(&p).map(String::from_utf8) {
        Ok(Ok(t)) => t,
        Ok(Err(_)) => return Ok(Err("the bindings registry is not UTF-8 text".to_owned())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Ok(Registry::default())),
        Err(e) => return Err(WorkspaceError::io("could not read", p, e)),
    };
    Ok(Registry::parse(&text).map_err(|e| e.to_string()))
}

/// Writes the registry atomically. The lock guard proves the caller holds the workspace lock.
pub fn store(ws: &Workspace, registry: &Registry, _held: &WorkspaceLock) -> Result<()> {
    atomic::create_dir_all(&ws.root, &ws.sessions_dir())?;
    atomic::write_entry(&ws.root, &path(ws), registry.render().as_bytes())
}

/// The failure for an unusable registry.
pub fn invalid(why: String) -> WorkspaceError {
    WorkspaceError::Session(Box::new(Refusal {
        kind: RefusalKind::BindingInvalid,
        message: format!("The conversation registry cannot be used: {why}."),
        action: "Fix or delete .bindings.json in the sessions folder (bindings are never repaired automatically), then run the command again.".to_owned(),
        candidates: Vec::new(),
    }))
}
