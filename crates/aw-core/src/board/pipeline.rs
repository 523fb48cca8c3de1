//! The pipeline (§10.2): what is left to do, in a fixed priority, each item with the exact
//! command that moves it forward.
//!
//! | priority | kind | when |
//! |---|---|---|
//! | 1 | `spec-unrefined` | a spec that is not `ready-for-plan` |
//! | 2 | `spec-unplanned` | a ready spec no plan resolves to |
//! | 3 | `plan-open` | a plan that is not `done` (inconsistent ones included) |
//!
//! Order: priority, then started items first, then number, then path. Dates never reorder it.
//! Each item carries its [`Detail`]: what it owes, said as `aw resume` says it.
//!
//! Since v22 an active session with a checkpoint and no document is not an item: it is listed
//! in the board's `loose_sessions` (the `checkpoint-orphan` kind survives in the vocabulary).

use super::detail::{Detail, open_questions, plan_detail, spec_detail};
use super::status::{PlanEntry, SessionEntry, SpecEntry};
use crate::decimal::push_decimal;
use crate::documents::plan::PlanState;
use crate::documents::spec::Maturity;
use crate::vocab::correlative::Correlative;
use serde::Serialize;
use std::cmp::Ordering;

/// `spec-unrefined`.
pub const SPEC_UNREFINED: &str = "spec-unrefined";
/// `spec-unplanned`.
pub const SPEC_UNPLANNED: &str = "spec-unplanned";
/// `plan-open`.
pub const PLAN_OPEN: &str = "plan-open";
/// `checkpoint-orphan`.
pub const CHECKPOINT_ORPHAN: &str = "checkpoint-orphan";

/// One thing left to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct PipelineItem {
    /// What kind of work it is.
    pub kind: &'static str,
    /// 1 (first) to 4.
    pub priority: u8,
    /// The document, workspace-relative; for a session, its folder name.
    pub file: String,
    /// Its number as written; for a session, its code.
    pub number: String,
    /// Its slug; for a session, its folder name.
    pub slug: String,
    /// One line saying where it stands.
    pub summary: String,
    /// The command that moves it forward.
    pub command: String,
    /// What it owes.
    pub detail: Detail,
    /// Whether work on it has begun (plans only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started: Option<bool>,
    /// The number's value (ordering): a session's is its folder's number.
    #[serde(skip)]
    pub order: Option<Correlative>,
}

/// The kind the pipeline gives a spec: unrefined until it is `ready-for-plan`, then unplanned
/// (a ready spec a plan already resolves to is not in the pipeline, but a proposal for it is
/// still of this kind, as in the reference).
pub fn spec_kind(s: &SpecEntry) -> &'static str {
    match s.status {
        Maturity::ReadyForPlan => SPEC_UNPLANNED,
        _ => SPEC_UNREFINED,
    }
}

/// Whether a session is loose: active, with a checkpoint, and an origin that names no spec or
/// plan.
pub fn is_loose(s: &SessionEntry) -> bool {
    let d = &s.detail;
    d.active && d.checkpoint.is_some() && !d.links_document
}

impl PipelineItem {
    /// Whether work has begun (absent reads as not started).
    pub fn is_started(&self) -> bool {
        self.started == Some(true)
    }
}

/// A spec's one-line summary: `spec 004 — draft · 2 open questions`.
pub fn spec_summary(s: &SpecEntry) -> String {
    [
        "spec ",
        &s.number,
        " — ",
        s.status.as_str(),
        " · ",
        &open_questions(s.open_questions),
    ]
    .concat()
}

/// A plan's one-line summary: `plan 003 — 40%, phases 2/5, 1 blocked`.
pub fn plan_summary(p: &PlanEntry) -> String {
    // Pieces pushed rather than formatted: the board writes one summary per plan.
    let mut s = String::with_capacity(48);
    s.push_str("plan ");
    s.push_str(&p.number);
    s.push_str(" — ");
    push_decimal(&mut s, u64::from(p.progress_pct));
    s.push('%');
    if p.phases_total > 0 {
        s.push_str(", phases ");
        push_decimal(&mut s, p.phases_validated as u64);
        s.push('/');
        push_decimal(&mut s, p.phases_total as u64);
    }
    if p.phases_blocked > 0 {
        s.push_str(", ");
        push_decimal(&mut s, p.phases_blocked as u64);
        s.push_str(" blocked");
    }
    if p.plan_state == PlanState::Inconsistent {
        s.push_str(", inconsistent");
    }
    s
}

/// The command that resumes a session.
pub fn session_command(folder: &str) -> String {
    ["aw session-resume --code ", folder, " --reopen"].concat()
}

/// Builds the pipeline.
pub fn pipeline(specs: &[SpecEntry], plans: &[PlanEntry]) -> Vec<PipelineItem> {
    let mut items = Vec::with_capacity(specs.len() + plans.len());
    // Pushed close to their final order (each priority in turn, started plans first, each
    // inventory already in number order), so the sort below, which decides the order, finds
    // long runs already in place instead of moving thousands of items around.
    for wanted in [1, 2] {
        for s in specs {
            let kind = spec_kind(s);
            let (priority, verb) = match kind {
                SPEC_UNPLANNED if s.planned => continue,
                SPEC_UNPLANNED => (2, "/w:plan-new "),
                _ => (1, "/w:spec-refine "),
            };
            if priority != wanted {
                continue;
            }
            let command = [verb, &s.file].concat();
            items.push(PipelineItem {
                kind,
                priority,
                file: s.file.clone(),
                number: s.number.clone(),
                slug: s.slug.clone(),
                summary: spec_summary(s),
                command,
                detail: spec_detail(s, None),
                started: None,
                order: Some(s.correlative.clone()),
            });
        }
    }
    for wanted in [true, false] {
        for p in plans.iter().filter(|p| p.plan_state != PlanState::Done) {
            let started = p.tasks_done > 0 || p.phases_validated > 0;
            if started != wanted {
                continue;
            }
            items.push(PipelineItem {
                kind: PLAN_OPEN,
                priority: 3,
                file: p.file.clone(),
                number: p.number.clone(),
                slug: p.slug.clone(),
                summary: plan_summary(p),
                command: ["/w:plan-exec ", &p.file].concat(),
                detail: plan_detail(p),
                started: Some(started),
                order: Some(p.correlative.clone()),
            });
        }
    }
    items.sort_by(order);
    items
}

/// Priority, started first, number (items without one last), path.
fn order(a: &PipelineItem, b: &PipelineItem) -> Ordering {
    a.priority
        .cmp(&b.priority)
        .then_with(|| b.is_started().cmp(&a.is_started()))
        .then_with(|| match (&a.order, &b.order) {
            (Some(x), Some(y)) => x.cmp(y),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        })
        .then_with(|| a.file.as_bytes().cmp(b.file.as_bytes()))
}
