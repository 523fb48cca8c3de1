//! What commands share: locating the workspace, taking its lock, and turning shell errors into
//! failures.

use crate::cli::Global;
use crate::failure::Failure;
use aw_workspace::WorkspaceError;
use aw_workspace::locate::{LocateInput, Workspace, locate};
use aw_workspace::lock::{WorkspaceLock, default_wait};
use serde_json::json;

impl From<WorkspaceError> for Failure {
    fn from(e: WorkspaceError) -> Self {
        let mut f = Failure::new(e.code(), sentence(&e.to_string()), e.action());
        if let WorkspaceError::LockBusy { pid, .. } = &e {
            f = f.with_details(json!({ "pid": pid }));
        }
        if let WorkspaceError::Session(r) = &e {
            let candidates: Vec<_> = r
                .candidates
                .iter()
                .map(|c| json!({ "folder": c.folder, "code": c.code, "state": c.state.as_str() }))
                .collect();
            f = f.with_data("candidates", json!(candidates));
        }
        f
    }
}

/// Capitalises the first letter and ends with a period.
pub fn sentence(s: &str) -> String {
    let mut c = s.chars();
    let mut out = match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    };
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

/// Locates the workspace from the current folder (walking up), honouring `--workspace`,
/// `--namespace` and `AW_NAMESPACE`.
pub fn workspace(global: &Global) -> Result<Workspace, Failure> {
    let cwd = std::env::current_dir().map_err(|e| {
        Failure::new(
            "IO_ERROR",
            format!("The current folder cannot be read: {e}."),
            "Run aw from an existing folder.",
        )
    })?;
    let input = LocateInput {
        cwd,
        workspace: global.workspace.clone(),
        namespace: global.namespace.clone(),
        env_namespace: std::env::var("AW_NAMESPACE").ok(),
        home: std::env::var_os("HOME").map(Into::into),
    };
    Ok(locate(&input)?)
}

/// Takes the workspace lock, waiting up to the default wait (`AW_LOCK_WAIT_MS`).
pub fn lock(ws: &Workspace) -> Result<WorkspaceLock, Failure> {
    Ok(WorkspaceLock::acquire(&ws.lock_path(), default_wait())?)
}
