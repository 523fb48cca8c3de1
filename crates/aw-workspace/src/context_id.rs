//! Where the conversation's context id comes from: `AW_CONTEXT_ID`, and for lifecycle hooks the
//! host's JSON on stdin.

use crate::stdin::{FIRST_BYTE_WAIT, read_hook_stdin};

/// `AW_CONTEXT_ID`, trimmed; `None` when unset or blank.
pub fn from_env() -> Option<String> {
    aw_core::context_id::clean(std::env::var("AW_CONTEXT_ID").ok().as_deref())
}

/// The conversation a lifecycle hook acts for: `AW_CONTEXT_ID` and the `session_id` of the hook's
/// JSON on stdin (read within [`FIRST_BYTE_WAIT`]). Both may be absent; when both are present
/// they must name the same conversation.
pub fn for_hook() -> Result<Option<String>, aw_core::context_id::Conflict> {
    let hook = read_hook_stdin(FIRST_BYTE_WAIT)
        .as_deref()
        .and_then(aw_core::context_id::hook_session_id);
    aw_core::context_id::reconcile(from_env().as_deref(), hook.as_deref())
}
