//! `aw worktree integrate [--source <alias>] [--code <session>]`: merges a session's isolation
//! units into their sources. This aw creates no unit, so what it can honestly do is the case a
//! run scoped to the workspace alone meets: a session with no live unit has nothing to merge
//! (empty lists, exit 0, as the reference prints it). A session with units is refused
//! (`WORKTREE_UNSUPPORTED`), and `--source` naming a source with no unit of the session is the
//! reference's `unit_absent` result (exit 2).

use super::unsupported;
use crate::cli::session_or_code;
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::session::resolve::Intent;
use aw_core::wire::worktree::{
    SESSION_UNRESOLVED, SessionIntegration, UNIT_ABSENT, WorktreeIntegrate, WorktreeRefusal,
};
use aw_workspace::WorkspaceError;
use aw_workspace::flow::store;
use aw_workspace::isolation::inventory;
use aw_workspace::sessions;
use aw_workspace::sessions::context_id::from_env;
use aw_workspace::sessions::resolver::{self, Request};

/// Runs the verb.
pub fn run(args: &super::UnitArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let code = session_or_code(&args.session, &args.code).map_err(Failure::with_error_data)?;
    let ws = cx.workspace()?;
    let home = super::home(cx)?;
    let listing = sessions::list(&ws)?;
    let cid = from_env();
    let req = Request {
        code,
        allow_closed: false,
        bind: false,
        context_id: cid.as_deref(),
        intent: Intent::Write,
    };
    let resolved = match resolver::resolve_in(&ws, &listing, &req) {
        Ok(r) => r,
        Err(e @ (WorkspaceError::Session(_) | WorkspaceError::Refused { .. })) => {
            let model = WorktreeIntegrate::Refused(WorktreeRefusal {
                error: SESSION_UNRESOLVED,
                message: format!(
                    "A unit belongs to a session, and this one cannot be used: {}.",
                    e.to_string().trim_end_matches('.')
                ),
                hint: "Pass `--code` with an active session: its number, its folder name or a \
                       unique folder prefix (`aw sessions` lists them)."
                    .to_owned(),
            });
            return Ok(Outcome::shown(&model, &style).with_exit(2));
        }
        Err(e) => return Err(e.into()),
    };
    let folder = resolved.folder.as_str();
    let inv = inventory(&ws, &home, &listing, Some(folder))?;
    if let Some(alias) = args.source.as_deref() {
        if inv.units.iter().any(|u| u.alias == alias) {
            return Err(unsupported("integrate"));
        }
        let model = WorktreeIntegrate::Refused(WorktreeRefusal {
            error: UNIT_ABSENT,
            message: format!("Session '{folder}' holds no unit of the source '{alias}'."),
            hint: format!(
                "There is nothing of '{alias}' to merge for this session: its work was made in \
                 the source's own checkout, or the unit was never made (`aw worktree list --code \
                 {folder}` shows the session's units)."
            ),
        });
        return Ok(Outcome::shown(&model, &style).with_exit(2));
    }
    if !inv.units.is_empty() {
        return Err(unsupported("integrate"));
    }
    let run = store::read(&resolved.path, folder).ok().flatten();
    let plan = run
        .as_ref()
        .and_then(|r| r.scope.as_ref())
        .map(|s| s.plan.as_str());
    let model = WorktreeIntegrate::Session(SessionIntegration {
        session: folder,
        plan,
        results: Vec::new(),
        integrated: Vec::new(),
        pending: Vec::new(),
        next: None,
    });
    Ok(Outcome::shown(&model, &style))
}
