//! What the two advisory PreToolUse guards read: the host's payload (bounded, to the end of
//! stdin), the bypass variables, the runtime settings file under HOME
//! (`~/.<ns>/agent-workflow/runtime.json`) and, for the commit advisor, the workspace's active
//! sessions. The rules are aw-core's (`project::sql_guard`, `project::commit_advisor`).
//!
//! Nothing here fails: what cannot be read (no HOME, no workspace, a settings file that is not
//! one, a sessions folder that cannot be listed) lets the tool call run without a word.

use crate::git::branch_check::{budget_from_env, read_deadline};
use crate::io::stdin::{HookPayload, read_hook_payload};
use crate::locate::{LocateInput, locate};
use crate::sessions::list;
use aw_core::project::commit_advisor::{advise, commit_message};
use aw_core::project::pretool::{Runtime, is_off, parse_runtime, payload_object};
use aw_core::project::sql_guard::{self, Verdict};
use aw_core::session::folder::SessionState;
use serde_json::Value;
use std::path::PathBuf;
use std::time::Instant;

/// The largest payload read; a larger one is let through (these guards advise, they do not
/// judge an edit).
pub const MAX_PAYLOAD_BYTES: usize = 64 << 20;

/// The prefix of the guards' messages when the runtime settings name none.
pub const DEFAULT_DISPLAY: &str = "aw";

/// The payload's text, whole or as much as came while stdin stayed open for half the hooks'
/// time budget (5 s; `AW_HOOK_BUDGET_MS`, as for `hook branch-check`); `None` for no payload or
/// one past [`MAX_PAYLOAD_BYTES`].
pub fn read_payload() -> Option<String> {
    let deadline = read_deadline(Instant::now(), budget_from_env());
    match read_hook_payload(MAX_PAYLOAD_BYTES, deadline) {
        HookPayload::Whole(t) | HookPayload::Cut(t) => Some(t),
        HookPayload::Absent | HookPayload::TooLarge => None,
    }
}

fn env(name: &str) -> Option<String> {
    std::env::var_os(name).map(|v| v.to_string_lossy().into_owned())
}

/// The runtime settings of the namespace `input` resolves (`--namespace`, `AW_NAMESPACE`, the
/// workspace's, the pinned one, else `workflow`), read from HOME; `None` when absent or unusable.
pub fn runtime(input: &LocateInput) -> Option<Runtime> {
    let home = input.home.as_ref().filter(|h| h.is_absolute())?;
    let ns = locate(input).ok()?.ns;
    let path = home
        .join(format!(".{ns}"))
        .join("agent-workflow")
        .join("runtime.json");
    let bytes = crate::io::folder::read_regular_path(&path).ok()?;
    parse_runtime(&String::from_utf8_lossy(&bytes))
}

fn display(runtime: Option<&Runtime>) -> String {
    runtime
        .and_then(|r| r.display_name.clone())
        .unwrap_or_else(|| DEFAULT_DISPLAY.to_owned())
}

/// `aw hook sql-mutation-guard`: the text to print on stderr when the call is blocked (exit 2),
/// `None` to let it run.
pub fn sql_guard(payload: Option<&str>, input: &LocateInput) -> Option<String> {
    if is_off(env("AW_SQL_GUARD").as_deref()) {
        return None;
    }
    let payload = payload?;
    let runtime = runtime(input)?;
    let patterns = runtime.sql.as_ref()?;
    match sql_guard::judge(payload, patterns, env("AW_SQL_GUARD_ALLOW").as_deref()) {
        Verdict::Allow => None,
        Verdict::Block(b) => Some(b.advice(&display(Some(&runtime)))),
    }
}

/// `aw hook git-commit-advisor`: the advice to print on stderr (the exit is 0 whatever it says),
/// `None` for nothing to say. The workspace is looked for from the payload's `cwd` when it is
/// absolute, else from `input.cwd`.
pub fn commit_advice(payload: Option<&str>, mut input: LocateInput) -> Option<String> {
    if is_off(env("AW_COMMIT_ADVISOR").as_deref()) {
        return None;
    }
    let payload = payload?;
    let message = commit_message(payload)?;
    if let Some(cwd) = payload_object(payload)
        .and_then(|m| m.get("cwd").and_then(Value::as_str).map(PathBuf::from))
        .filter(|p| p.is_absolute())
    {
        input.cwd = cwd;
    }
    let ws = locate(&input).ok()?;
    let active: Vec<String> = list(&ws)
        .ok()?
        .into_iter()
        .filter(|s| s.state == SessionState::Active)
        .map(|s| s.folder)
        .collect();
    let advice = advise(&message, &active)?;
    Some(advice.text(&display(runtime(&input).as_ref())))
}
