//! `aw checkpoint-write`, `aw checkpoint-read` and the other lifecycle hook targets
//! (`auto-compact-on-close`, `resume-summary`), and what the hooks share: the conversation they
//! act for.
//!
//! A lifecycle hook runs while a host compacts or closes a conversation. It must never guess a
//! session, and except for the one case a pausable host asked for, it must never stop the host
//! either: an unresolved target is reported as degraded continuity with exit 0
//! ([`crate::views::hooks`]). That one case (exit 2) always says on stderr why, and the command
//! that lifts it (`aw_core::checkpoint::hold`).

pub mod auto_compact_on_close;
pub mod read;
pub mod resume_summary;
pub mod write;

use crate::context::Ctx;
use crate::failure::Failure;
use aw_core::error_code::ErrorCode;
use aw_workspace::locate::Workspace;
use aw_workspace::sessions::hooks::HookRequest;

/// The conversation the hook acts for (the environment's context id and/or the hook's
/// `session_id`).
fn hook_context_id() -> Result<Option<String>, Failure> {
    aw_workspace::sessions::context_id::for_hook().map_err(|c| {
        Failure::new(
            ErrorCode::ContextIdConflict,
            format!(
                "{} and the hook's session_id name two different conversations.",
                c.variable
            ),
            format!(
                "Unset {} in the hook's environment (the host's session_id identifies the conversation), or make both agree.",
                c.variable
            ),
        )
    })
}

/// What every hook starts from: the workspace, and its request (the session asked for, the
/// conversation it acts for, now).
///
/// A failure here (two conversations named, no workspace) is also said on stderr: a host shows
/// a failed hook's stderr and nothing of its stdout, and a hook never fails without words.
pub fn hook_request(
    cx: &Ctx<'_>,
    code: &Option<String>,
) -> Result<(Workspace, HookRequest), Failure> {
    let start = || -> Result<(Workspace, HookRequest), Failure> {
        let context_id = hook_context_id()?;
        let req = HookRequest {
            code: code.clone(),
            context_id,
            now: cx.now.wall,
        };
        Ok((cx.workspace()?, req))
    };
    start().inspect_err(|f| {
        crate::output::emit_err(&format!(
            "aw: {} Next: {}\n",
            crate::style::clean(f.message.trim_end()),
            crate::style::clean(f.action.trim_end())
        ));
    })
}
