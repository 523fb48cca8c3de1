//! What a spec or plan owes, said once: the `detail` of its pipeline item, and the objective,
//! progress and next step of an `aw resume` proposal (both read this derivation, never their
//! own).
//!
//! A plan's next step is the first of these that applies, `obligation` in brackets: a design
//! reference that does not resolve [yes]; a blocked phase [no]; a reconciliation still owed
//! [yes]; a done declaration its counters do not back [no]; a done plan, nothing left [no]; a
//! seal that does not prove the plan is on its spec's current text [yes]; the final validation
//! [no]; else the first phase not validated [no]. An obligation outranks the percentage: the
//! human board then titles the item with it.

use super::lineage::BaselineEntry;
use super::status::{PlanEntry, SpecEntry};
use crate::documents::plan::{Declaration, PlanState};
use crate::documents::spec::Maturity;
use serde::Serialize;
use std::fmt::Write as _;

/// What an item owes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Detail {
    /// `spec 004 — login`.
    pub objective: String,
    /// Where it stands.
    pub progress: String,
    /// The next step, or what the work waits on.
    pub next: String,
    /// Whether `next` leaves the item neither runnable nor closable as it stands.
    pub obligation: bool,
}

fn titled(word: &str, number: &str, slug: &str) -> String {
    if slug.is_empty() {
        [word, " ", number].concat()
    } else {
        [word, " ", number, " — ", slug].concat()
    }
}

/// `no open questions`, `1 open question`, `3 open questions`.
pub fn open_questions(n: usize) -> String {
    match n {
        0 => "no open questions".to_owned(),
        1 => "1 open question".to_owned(),
        n => format!("{n} open questions"),
    }
}

/// A spec's detail; `done_plan` is the done plan that delivered it, if one did.
pub fn spec_detail(s: &SpecEntry, done_plan: Option<&str>) -> Detail {
    let next = match (s.status, s.planned, done_plan) {
        (Maturity::ReadyForPlan, true, _) => "it already has a plan derived from it".to_owned(),
        (Maturity::ReadyForPlan, false, _) => "derive its plan".to_owned(),
        (_, _, Some(plan)) => format!(
            "nothing is left: its plan {plan} is done (refine it only to change what was built)"
        ),
        _ => "refine it until it is ready-for-plan".to_owned(),
    };
    Detail {
        objective: titled("spec", &s.number, &s.slug),
        progress: format!(
            "status {}, {}",
            s.status.as_str(),
            open_questions(s.open_questions)
        ),
        next,
        obligation: false,
    }
}

/// A plan's progress: `3/5 tasks (60%) · phases 1/2`.
fn plan_progress(p: &PlanEntry) -> String {
    let mut s = format!(
        "{}/{} tasks ({}%)",
        p.tasks_done, p.tasks_total, p.progress_pct
    );
    if p.phases_total > 0 {
        let _ = write!(s, " · phases {}/{}", p.phases_validated, p.phases_total);
    }
    s
}

/// A plan's detail.
pub fn plan_detail(p: &PlanEntry) -> Detail {
    let (next, obligation) = plan_next(p);
    Detail {
        objective: titled("plan", &p.number, &p.slug),
        progress: plan_progress(p),
        next,
        obligation,
    }
}

fn plan_next(p: &PlanEntry) -> (String, bool) {
    if let Some((reference, why)) = p.design_missing.first() {
        return (
            format!(
                "UNRESOLVABLE DESIGN {reference}: {why} — create or repair the package, or fix \
                 the plan's reference (`aw designs --plan {}`)",
                p.file
            ),
            true,
        );
    }
    if let Some(b) = p.blocked_phases.first() {
        let why = b.blocker.as_deref().unwrap_or("no reason given");
        return (format!("BLOCKED F{} — {why}", b.number), false);
    }
    if let Some(r) = p.reconciliation.as_ref().filter(|r| !r.closable) {
        let line = match r.pending.first() {
            None => "RECONCILIATION PENDING — the effective contract does not compose: the plan \
                     can be neither executed nor closed"
                .to_owned(),
            Some(first) => {
                let more = match r.pending.len() - 1 {
                    0 => String::new(),
                    n => format!(" (+{n} more)"),
                };
                format!(
                    "RECONCILIATION PENDING by {} — {}{more}: resume at {}; the plan can be \
                     neither executed nor closed as it stands",
                    first.by, first.text, first.resume_point
                )
            }
        };
        return (line, true);
    }
    if p.plan_state == PlanState::Inconsistent {
        let line = match &p.declaration {
            Declaration::Unknown(v) => format!(
                "the plan's state line says '{v}', which is neither open nor done: fix it by hand"
            ),
            _ => "the plan says it is done but its tasks and phases do not back it: fix it by hand"
                .to_owned(),
        };
        return (line, false);
    }
    if p.plan_state == PlanState::Done {
        return ("nothing left: the plan is done".to_owned(), false);
    }
    if let Some(line) = unproven_baseline(&p.baseline) {
        return (line, true);
    }
    if p.final_validation_pending {
        return (
            "everything is executed: run the final validation, then close the plan".to_owned(),
            false,
        );
    }
    let line = match &p.next_phase {
        Some((n, name, _)) => format!("continue with F{n} — {name}"),
        None => "continue with the first phase that is not validated".to_owned(),
    };
    (line, false)
}

/// What a seal that does not prove the plan is on its spec's current text means, or `None`
/// for an aligned one.
fn unproven_baseline(b: &BaselineEntry) -> Option<String> {
    Some(match b {
        BaselineEntry::Aligned { .. } => return None,
        BaselineEntry::Divergent {
            sealed_digest,
            current_digest,
        } => format!(
            "BASELINE DIVERGENT — the spec changed since the plan was sealed ({sealed_digest} → \
             {current_digest}): review the plan against the current spec before going on"
        ),
        BaselineEntry::Malformed { why, action } => {
            format!("BASELINE UNREADABLE — {why}: {action}")
        }
        BaselineEntry::Unresolved { path, .. } => format!(
            "BASELINE WITHOUT SPEC — {path} is not in the workspace: there is no contract to \
             check the plan against"
        ),
        BaselineEntry::Unsealed => "NO BASELINE SEAL — the plan does not say which version of \
                                    its spec it derives from, so it cannot be shown to be aligned"
            .to_owned(),
    })
}
