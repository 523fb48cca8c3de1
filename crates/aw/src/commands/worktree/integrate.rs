//! `aw worktree integrate [--source <alias>] [--code <session>]`: merges a session's units back
//! into their sources' working branches and removes them. With `--source`, that unit alone
//! (a refusal is the result, exit 2); without, every live unit of the session in alias order,
//! each refusal recorded beside its alias without stopping the others (exit 0).

use super::{Start, UnitArgs, refused};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::isolation::integration::{UnitResult, integration_order, pick_source, summarize};
use aw_core::isolation::refusal;
use aw_core::wire::worktree::{RefusedUnit, SessionIntegration, UnitOutcome, WorktreeIntegrate};
use aw_workspace::flow::store;
use aw_workspace::isolation::inventory;
use aw_workspace::isolation::verbs::{self, UnitRequest};

/// Runs the verb.
pub fn run(args: &UnitArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let start = Start::read(cx)?;
    let today = cx.now.today();
    let named = match pick_source(&start.block.sources, args.source.as_deref()) {
        Ok(s) => s,
        Err(r) => return Ok(refused(&WorktreeIntegrate::Refused(r.into()), &style)),
    };
    let session = match start.session(args, false)? {
        Ok(s) => s,
        Err(r) => return Ok(refused(&WorktreeIntegrate::Refused(r.into()), &style)),
    };
    let folder = session.folder.as_str();
    let request = |source| UnitRequest {
        ws: &start.ws,
        home: &start.home,
        block: &start.block,
        source,
        folder,
        today: &today,
    };
    if let Some(source) = named {
        return Ok(match verbs::integrate(&request(source))? {
            Ok(merged) => Outcome::shown(&WorktreeIntegrate::Unit(merged.unit), &style),
            Err(r) => refused(&WorktreeIntegrate::Refused(r.into()), &style),
        });
    }
    let inv = inventory(&start.ws, &start.home, &start.listing, Some(folder), false)?;
    let aliases = integration_order(inv.units.iter().map(|u| u.alias.as_str()).collect());
    let mut results = Vec::new();
    for alias in aliases {
        let Some(source) = start.block.sources.iter().find(|s| s.alias == alias) else {
            continue;
        };
        // One unit's failure never stops the others, nor hides what they did.
        results.push(match verbs::integrate(&request(source)) {
            Ok(Ok(merged)) => UnitOutcome::Merged(merged.unit),
            Ok(Err(r)) => UnitOutcome::Refused(RefusedUnit::of(alias, r)),
            Err(e) => UnitOutcome::Refused(RefusedUnit::of(
                alias,
                refusal::unit_failed(alias, e.to_string().trim_end_matches('.'), &e.action()),
            )),
        });
    }
    let summary: Vec<(&str, UnitResult<'_>)> = results
        .iter()
        .map(|r| match r {
            UnitOutcome::Merged(u) if u.integrated && u.released => {
                (u.alias.as_str(), UnitResult::Integrated)
            }
            UnitOutcome::Merged(u) => (
                u.alias.as_str(),
                match u.next.as_deref() {
                    Some(next) if !u.conflicted.is_empty() => UnitResult::Conflicted { next },
                    _ => UnitResult::Pending,
                },
            ),
            UnitOutcome::Refused(r) => (r.alias.as_str(), UnitResult::Pending),
        })
        .collect();
    let (integrated, pending, next) = summarize(folder, &summary);
    let plan = store::read(&session.path, folder)
        .ok()
        .flatten()
        .and_then(|run| run.scope.map(|s| s.plan));
    let model = WorktreeIntegrate::Session(SessionIntegration {
        session: folder.to_owned(),
        plan,
        results,
        integrated,
        pending,
        next,
    });
    Ok(Outcome::shown(&model, &style))
}
