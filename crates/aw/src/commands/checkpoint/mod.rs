//! `aw checkpoint-write`, `aw checkpoint-read` and the other lifecycle hook targets
//! (`auto-compact-on-close`, `resume-summary`), and what the hooks share: the conversation they
//! act for.
//!
//! A lifecycle hook runs while a host compacts or closes a conversation. It must never guess a
//! session, and except for the one case a pausable host asked for, it must never stop the host
//! either: an unresolved target is reported as degraded continuity with exit 0
//! ([`crate::views::hooks`]).

pub mod auto_compact_on_close;
pub mod read;
pub mod resume_summary;
pub mod write;

use crate::failure::Failure;
use aw_core::error_code::ErrorCode;

/// The conversation the hook acts for (`AW_CONTEXT_ID` and/or the hook's `session_id`).
pub fn hook_context_id() -> Result<Option<String>, Failure> {
    aw_workspace::context_id::for_hook().map_err(|_| {
        Failure::new(
            ErrorCode::ContextIdConflict,
            "AW_CONTEXT_ID and the hook's session_id name two different conversations.",
            "Unset AW_CONTEXT_ID in the hook's environment (the host's session_id identifies the conversation), or make both agree.",
        )
    })
}
