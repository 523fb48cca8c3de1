//! `aw worktree list [--code <session>]`: the workspace's isolation units, read-only. For each
//! source of the project block (in its order), the worktrees git lists whose path is a unit of
//! this workspace: live (its session exists and is open; with `git status` and HEAD) or orphaned
//! (with the reason and the reference's release command); a source whose worktrees git cannot
//! list is reported `unreadable`. With `--code`, only that session's units; a `--code` that
//! resolves to no session is the reference's refusal payload, printed as the result (exit 2).
//!
//! The rules are `aw_core::isolation::units`; the reading is `aw_workspace::isolation`.

use crate::cli::session_or_code;
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::isolation::refusal::RefusalKind;
use aw_core::session::resolve::Intent;
use aw_core::wire::worktree::{UnitList, WorktreeList, WorktreeRefusal};
use aw_workspace::WorkspaceError;
use aw_workspace::isolation::inventory;
use aw_workspace::sessions;
use aw_workspace::sessions::resolver::{self, Request};
use clap::Args;

// Arguments of `aw worktree list`.
#[derive(Debug, Args)]
#[command(
    long_about = "List the workspace's isolation units, without changing anything.\n\nA unit is \
one `git worktree` of a source, owned by one session, at \
`~/.<ns>/worktrees/<workspace key>/<alias>/<session folder>` on the branch `aw/<session folder>`; \
the path is the registry and `git worktree list` in each source is the live inventory. For each \
source of the project block, in its order: `units` are the live ones (their session exists and \
is open), each with its branch, whether it has uncommitted changes (`dirty`, `null` when git \
cannot say) and its HEAD; `orphans` are the ones nobody works in any more, with the reason \
(`directory_missing`, `session_absent`, `session_closed`, the first that applies) and the \
reference's release command; `unreadable` names a source whose worktrees git could not list. A \
source that is missing or not a git repository has no units.\n\nWith `--code` (or `--session`), \
only that session's units (a closed session is accepted); a session that cannot be resolved is \
refused with `{\"error\": \"session_unresolved\", …}` as the result and exit 2. The conversation's \
own session is never assumed. The units root is read, never created."
)]
pub struct ListArgs {
    /// Only this session's units: a number, a folder name or a unique folder prefix.
    #[arg(long, value_name = "SESSION")]
    pub code: Option<String>,
    /// Same as `--code`.
    #[arg(long, value_name = "SESSION")]
    pub session: Option<String>,
    /// Accepted and ignored: a listing covers every source.
    #[arg(long, value_name = "ALIAS")]
    pub source: Option<String>,
}

/// Runs the command.
pub fn run(args: &ListArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    // The reference gave the conflict's reason as `data.error` too.
    let code = session_or_code(&args.session, &args.code).map_err(Failure::with_error_data)?;
    let ws = cx.workspace()?;
    let home = super::home(cx)?;
    let listing = sessions::list(&ws)?;
    let only = match code {
        None => None,
        Some(code) => {
            let req = Request {
                code: Some(code),
                allow_closed: true,
                bind: false,
                context_id: None,
                intent: Intent::Read,
            };
            match resolver::resolve_in(&ws, &listing, &req) {
                Ok(r) => Some(r.folder),
                Err(e @ (WorkspaceError::Session(_) | WorkspaceError::Refused { .. })) => {
                    let model = WorktreeList::Refused(WorktreeRefusal {
                        error: RefusalKind::SessionUnresolved,
                        message: format!(
                            "The units of session '{code}' were asked for, and that session cannot be resolved: {}.",
                            e.to_string().trim_end_matches('.')
                        ),
                        hint: Some("Pass `--code` with the flow's session: its number, its folder name or a unique folder prefix (`aw sessions` lists them).".to_owned()),
                        occupant: None,
                    });
                    return Ok(Outcome::shown(&model, &style).with_exit(2));
                }
                Err(e) => return Err(e.into()),
            }
        }
    };
    let inv = inventory(&ws, &home, &listing, only.as_deref(), true)?;
    let model = WorktreeList::Listed(UnitList::of(&inv, only.as_deref()));
    Ok(Outcome::shown(&model, &style))
}
