//! `aw worktree ensure --source <alias> [--code <session>]`: the session's own worktree of a
//! source, made or found made. Checks in the reference's order: the block's sources, the
//! alias, the session, the repository, then git's worktrees (`aw_workspace::isolation::verbs`).

use super::{Start, UnitArgs, refused};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::isolation::integration::require_source;
use aw_core::wire::worktree::WorktreeEnsure;
use aw_workspace::isolation::verbs::{self, UnitRequest};

/// Runs the verb.
pub fn run(args: &UnitArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let start = Start::read(cx)?;
    let today = cx.now.today();
    let source = match require_source(&start.block.sources, args.source.as_deref()) {
        Ok(s) => s,
        Err(r) => return Ok(refused(&WorktreeEnsure::Refused(r.into()), &style)),
    };
    let session = match start.session(args, false)? {
        Ok(s) => s,
        Err(r) => return Ok(refused(&WorktreeEnsure::Refused(r.into()), &style)),
    };
    let req = UnitRequest {
        ws: &start.ws,
        home: &start.home,
        block: &start.block,
        source,
        folder: &session.folder,
        today: &today,
    };
    match verbs::ensure(&req)? {
        Ok(unit) => Ok(Outcome::shown(&WorktreeEnsure::Ensured(unit), &style)),
        Err(r) => Ok(refused(&WorktreeEnsure::Refused(r.into()), &style)),
    }
}
