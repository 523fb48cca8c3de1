//! `aw resume-summary [--code <c>] [--include-recent-closed] [--recent-days <n>]`: the
//! PostCompact hook target.
//!
//! Tells a freshly compacted conversation which session it was on and how usable that session's
//! checkpoint is (`missing`, `draft` with placeholders left, `stale` when `Updated:` is more than
//! five minutes old, `complete`). It only reads: it never binds the conversation, and when no
//! session can be settled on it says so (`continuity: degraded`) instead of presenting one.

use super::hook_request;
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use crate::views::hooks::{Degraded, active_folders};
use aw_core::checkpoint::{assess, parse};
use aw_core::markdown::first_lines;
use aw_core::session::folder::numeric_code;
use aw_core::session::resolve::Intent;
use aw_core::wire::checkpoint::{Glance, RecentClosed, ResumeSummary};
use aw_workspace::sessions;
use aw_workspace::sessions::checkpoint::recent_closed;
use aw_workspace::sessions::hooks::{Unresolved, read_checkpoint};
use aw_workspace::sessions::resolver::{self, Request};
use clap::Args;
use std::time::Duration;

// Arguments of `aw resume-summary`.
#[derive(Debug, Args)]
#[command(
    long_about = "Summarise where this conversation's session stands after a compaction (the \
PostCompact hook target).\n\nThe session is `--code`, else the one this conversation is bound to \
(AW_CONTEXT_ID, else CLAUDE_CODE_SESSION_ID, or the hook's `session_id` on stdin), else the \
only active session. Read-only; \
when no session can be chosen, `continuity` is `degraded` and the candidates are listed."
)]
pub struct ResumeSummaryArgs {
    /// The session: a number, a folder name or a unique folder prefix.
    #[arg(long, value_name = "CODE")]
    pub code: Option<String>,
    /// Also list sessions closed recently that left CONCLUSIONS or ANALYSIS-FILE.
    #[arg(long)]
    pub include_recent_closed: bool,
    /// How many days count as recent (a positive whole number).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 7,
        value_parser = positive_days
    )]
    pub recent_days: u64,
}

/// `--recent-days`: a positive whole number.
fn positive_days(raw: &str) -> Result<u64, String> {
    match raw.trim().parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err("it takes a positive whole number of days, such as 7".to_owned()),
    }
}

/// Runs the command.
pub fn run(args: &ResumeSummaryArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let days = args.recent_days;
    let (ws, hook) = hook_request(cx, &args.code)?;
    let listing = sessions::list(&ws)?;
    let active = active_folders(&listing);
    let req = Request {
        code: hook.code.as_deref(),
        allow_closed: false,
        bind: false,
        context_id: hook.context_id.as_deref(),
        intent: Intent::Read,
    };
    let mut model = ResumeSummary {
        active_sessions: &active,
        primary_session: None,
        primary_session_code: None,
        checkpoint_present: false,
        checkpoint_path: None,
        checkpoint_status: "missing",
        checkpoint_age_seconds: None,
        unfilled_placeholders: Vec::new(),
        needs_ai_action: false,
        continuity: "ok",
        checkpoint: None,
        candidates: None,
        action: None,
        recent_closed_with_artifacts: None,
        degraded_reason: None,
        recent_days: days,
    };
    match resolver::resolve_in(&ws, &listing, &req) {
        Ok(r) => {
            let (path, cp) = read_checkpoint(&r.path)?;
            let a = assess(cp.as_deref(), cx.now.wall);
            model.primary_session_code = numeric_code(&r.folder);
            model.checkpoint_present = cp.is_some();
            model.checkpoint_path = Some(cp.as_ref().map(|_| path.to_string_lossy().into_owned()));
            model.checkpoint_status = a.status.as_str();
            model.checkpoint_age_seconds = Some(a.age_seconds);
            model.needs_ai_action = a.needs_ai_action();
            if let Some(cp) = &cp {
                let f = parse(cp);
                let next = f
                    .proximo
                    .as_deref()
                    .map(|p| first_lines(p, 3))
                    .filter(|l| !l.is_empty());
                model.checkpoint = Some(Glance {
                    actualizado: f.actualizado,
                    avance: f.avance,
                    proximo: next,
                });
            }
            model.unfilled_placeholders = a.unfilled;
            model.primary_session = Some(r.folder);
        }
        Err(e) if e.is_unresolved() => {
            let d = Degraded::of(
                Unresolved {
                    refusal: e,
                    listing: listing.clone(),
                },
                hook.context_id.as_deref(),
            );
            // With no session at all there is nothing to do; with candidates, choosing is.
            model.needs_ai_action = !active.is_empty();
            model.continuity = "degraded";
            model.degraded_reason = Some(d.reason);
            model.candidates = Some(d.candidates);
            model.action = Some(d.action);
        }
        Err(e) => return Err(e.into()),
    }
    // Held outside the branch: the model borrows from it.
    let recent = if args.include_recent_closed {
        let window = Duration::from_secs(days.saturating_mul(86_400));
        Some(recent_closed(
            &ws.sessions_dir(),
            &listing,
            cx.now.system,
            window,
        ))
    } else {
        None
    };
    if let Some(recent) = &recent {
        let items: Vec<RecentClosed<'_>> = recent
            .iter()
            .map(|r| RecentClosed {
                code: &r.code,
                folder: &r.folder,
                closed_age_seconds: r.closed_age_seconds,
                complete: true,
                artifact_signal: r.artifact_signal,
            })
            .collect();
        model.recent_closed_with_artifacts = Some(items);
    }
    Ok(Outcome::shown(&model, &style))
}
