//! Looking for the reference CLI's traces on this workspace and this machine (which files count
//! is `aw_core::project::reference_trace`): a handful of `stat`s and one listing of the logs
//! folder, done only when a new project block needs a language nothing configures.

use crate::locate::Workspace;
use crate::project::read_optional;
use aw_core::project::reference_trace::{
    LOGS, PROCESSES, has_reference_hook, is_reference_log, is_reference_skills_toml,
};
use std::path::Path;

/// The first of the reference's logs in `dir`.
fn log(dir: &Path) -> Option<String> {
    let entries = std::fs::read_dir(dir).ok()?;
    entries
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .find(|n| is_reference_log(n))
}

/// Each trace of the reference found, as a path the person can look at (workspace-relative,
/// or `~/…` under `home`), in the order of the table in `aw_core::project::reference_trace`.
/// Anything unreadable is no trace.
pub fn traces(ws: &Workspace, home: Option<&Path>) -> Vec<String> {
    let state = format!(".{}", ws.ns);
    let mut out = Vec::new();
    if std::fs::symlink_metadata(ws.state_dir().join(PROCESSES)).is_ok_and(|m| m.is_file()) {
        out.push(format!("{state}/{PROCESSES}"));
    }
    if read_optional(&ws.state_dir().join("skills.toml"))
        .ok()
        .flatten()
        .is_some_and(|t| is_reference_skills_toml(&t))
    {
        out.push(format!("{state}/skills.toml"));
    }
    if let Some(home) = home {
        if let Some(name) = log(&home.join(&state).join(LOGS)) {
            out.push(format!("~/{state}/{LOGS}/{name}"));
        }
        if read_optional(&home.join(".claude/settings.json"))
            .ok()
            .flatten()
            .is_some_and(|t| has_reference_hook(&t))
        {
            out.push("~/.claude/settings.json".to_owned());
        }
    }
    out
}
