//! `aw worktree release --source <alias> [--code <session>]`: removes the session's unit of a
//! source without merging it (never forced; the branch is kept). Unlike the other verbs it takes
//! a closed session, and the folder name of a session that is gone, so that the release command
//! an orphan prints works.

use super::{Start, UnitArgs, refused};
use crate::cli::session_or_code;
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::isolation::integration::require_source;
use aw_core::isolation::units::OrphanReason;
use aw_core::wire::worktree::WorktreeRelease;
use aw_workspace::isolation::inventory;
use aw_workspace::isolation::verbs::{self, UnitRequest};

/// Runs the verb.
pub fn run(args: &UnitArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let start = Start::read(cx)?;
    let today = cx.now.today();
    let source = match require_source(&start.block.sources, args.source.as_deref()) {
        Ok(s) => s,
        Err(r) => return Ok(refused(&WorktreeRelease::Refused(r.into()), &style)),
    };
    // The command an orphan prints must work: a closed session's unit is released too, and so
    // is the unit of a session folder that is gone, named by its folder.
    let folder = match start.session(args, true)? {
        Ok(s) => s.folder,
        Err(r) => {
            let code =
                session_or_code(&args.session, &args.code).map_err(Failure::with_error_data)?;
            match code.and_then(|c| sessionless(&start, &source.alias, c)) {
                Some(folder) => folder,
                None => return Ok(refused(&WorktreeRelease::Refused(r.into()), &style)),
            }
        }
    };
    let req = UnitRequest {
        ws: &start.ws,
        home: &start.home,
        block: &start.block,
        source,
        folder: &folder,
        today: &today,
    };
    match verbs::release(&req)? {
        Ok(unit) => Ok(Outcome::shown(&WorktreeRelease::Released(unit), &style)),
        Err(r) => Ok(refused(&WorktreeRelease::Refused(r.into()), &style)),
    }
}

/// `code` as the folder of a session that is gone, when `alias` has a unit orphaned for that
/// reason under exactly that name.
fn sessionless(start: &Start, alias: &str, code: &str) -> Option<String> {
    let inv = inventory(&start.ws, &start.home, &start.listing, None, false).ok()?;
    inv.orphans
        .iter()
        .any(|o| o.alias == alias && o.session == code && o.reason == OrphanReason::SessionAbsent)
        .then(|| code.to_owned())
}
