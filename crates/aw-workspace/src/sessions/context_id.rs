//! Where the conversation's context id comes from: `AW_CONTEXT_ID`, else Claude Code's
//! `CLAUDE_CODE_SESSION_ID` (the precedence is `aw_core::context_id`'s), and for lifecycle hooks
//! also the host's JSON on stdin.

use crate::io::stdin::{FIRST_BYTE_WAIT, read_hook_stdin};
use aw_core::context_id::{self, Conflict, EnvId};

/// The environment's context id and the variable that gave it; `None` when every variable is
/// unset or blank.
pub fn env_id() -> Option<EnvId> {
    context_id::from_variables(|name| std::env::var(name).ok())
}

/// The environment's context id, trimmed; `None` when unset or blank.
pub fn from_env() -> Option<String> {
    env_id().map(|e| e.id)
}

/// The conversation a lifecycle hook acts for: the environment's context id and the
/// `session_id` of the hook's JSON on stdin (read within [`FIRST_BYTE_WAIT`]). Both may be
/// absent; when both are present they must name the same conversation.
pub fn for_hook() -> Result<Option<String>, Conflict> {
    let hook = read_hook_stdin(FIRST_BYTE_WAIT)
        .as_deref()
        .and_then(context_id::hook_session_id);
    context_id::reconcile(env_id().as_ref(), hook.as_deref())
}
