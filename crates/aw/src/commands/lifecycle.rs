//! What the lifecycle hook targets (`checkpoint-write`, `auto-compact-on-close`,
//! `resume-summary`) share: the clock and the context id read at start, the session they act on,
//! and the "degraded" answer they give when no session can be settled on.
//!
//! A lifecycle hook runs while a host compacts or closes a conversation. It must never guess a
//! session (that would hand one conversation another's state), and except for the one case a
//! pausable host asked for, it must never stop the host either: an unresolved target is reported
//! as degraded continuity with exit 0.

use crate::failure::Failure;
use aw_core::calendar::WallClock;
use aw_core::session::folder::{SessionFolder, SessionState};
use aw_workspace::WorkspaceError;
use aw_workspace::clock::local_wall_clock;
use aw_workspace::context_id::{FIRST_BYTE_WAIT, from_env, read_hook_stdin};
use serde_json::{Value, json};

/// What a lifecycle command learns before anything else.
#[derive(Debug, Clone)]
pub struct Start {
    /// Local time at start.
    pub now: WallClock,
    /// The conversation: `AW_CONTEXT_ID` and/or the hook's `session_id`.
    pub context_id: Option<String>,
}

/// Reads the clock, then the context id (env and hook stdin). The clock comes first because
/// reading the local offset is refused once the stdin reader thread exists.
pub fn start() -> Result<Start, Failure> {
    let now = local_wall_clock();
    let hook = read_hook_stdin(FIRST_BYTE_WAIT)
        .as_deref()
        .and_then(aw_core::context_id::hook_session_id);
    let env = from_env();
    let context_id =
        aw_core::context_id::reconcile(env.as_deref(), hook.as_deref()).map_err(|_| {
            Failure::new(
                "CONTEXT_ID_CONFLICT",
                "AW_CONTEXT_ID and the hook's session_id name two different conversations.",
                "Unset AW_CONTEXT_ID in the hook's environment (the host's session_id identifies the conversation), or make both agree.",
            )
        })?;
    Ok(Start { now, context_id })
}

/// The folders of the active sessions, in listing (byte) order.
pub fn active_folders(listing: &[SessionFolder]) -> Vec<String> {
    listing
        .iter()
        .filter(|f| f.state == SessionState::Active)
        .map(|f| f.folder.clone())
        .collect()
}

/// Whether a resolver error is a refusal to settle on a session (the degradable kind) rather
/// than a malformed request or a failing disk.
pub fn is_unresolved(e: &WorkspaceError) -> bool {
    matches!(e, WorkspaceError::Session(_)) && e.code() != "INVALID_INPUT"
}

/// Why the target is unresolved, as `(reason, candidates, action)`, in the resolver's words and
/// with its candidate shape.
pub fn unresolved_detail(e: WorkspaceError) -> (String, Value, String) {
    let f = Failure::from(e);
    let candidates = f.extra_data.get("candidates").cloned().unwrap_or(json!([]));
    (f.message, candidates, f.action)
}

/// The human lines for a degraded outcome.
pub fn degraded_text(reason: &str, action: &str, active: &[String]) -> String {
    let mut out = format!("Continuity degraded: {reason}\n");
    if !active.is_empty() {
        out.push_str(&format!("  Active sessions  {}\n", active.join(", ")));
    }
    out.push_str(&format!("  Next             {action}\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use aw_core::session::resolve::{Refusal, RefusalKind};

    fn refusal(kind: RefusalKind) -> WorkspaceError {
        WorkspaceError::Session(Box::new(Refusal {
            kind,
            message: "m".into(),
            action: "a".into(),
            candidates: Vec::new(),
        }))
    }

    #[test]
    fn only_refusals_degrade() {
        assert!(is_unresolved(&refusal(RefusalKind::Ambiguous)));
        assert!(is_unresolved(&refusal(RefusalKind::Closed)));
        assert!(!is_unresolved(&refusal(RefusalKind::InvalidCode)));
        let io = WorkspaceError::io("x", "/p", std::io::Error::other("boom"));
        assert!(!is_unresolved(&io));
    }
}
