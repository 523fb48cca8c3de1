//! The pipeline (§10.2): what is left to do, in a fixed priority, each item with the exact
//! command that moves it forward.
//!
//! | priority | kind | when |
//! |---|---|---|
//! | 1 | `spec-unrefined` | a spec that is not `ready-for-plan` |
//! | 2 | `spec-unplanned` | a ready spec no plan resolves to |
//! | 3 | `plan-open` | a plan that is not `done` (inconsistent ones included) |
//! | 4 | `checkpoint-orphan` | an active session with a checkpoint whose origin links no spec or plan |
//!
//! Order: priority, then started items first, then number, then path. Dates never reorder it.

use super::plan::PlanState;
use super::spec::Maturity;
use super::status::{PlanEntry, SessionEntry, SpecEntry};
use crate::session::correlative::Correlative;
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PipelineItem {
    /// What kind of work it is.
    pub kind: &'static str,
    /// 1 (first) to 4.
    pub priority: u8,
    /// The document (or session folder), workspace-relative.
    pub file: String,
    /// Its number as written (a session's folder number; empty when it has none).
    pub number: String,
    /// Its slug (a session's descriptor).
    pub slug: String,
    /// One line saying where it stands.
    pub summary: String,
    /// The command that moves it forward.
    pub command: String,
    /// Whether work on it has begun (plans and sessions only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started: Option<bool>,
    /// The number's value (ordering).
    #[serde(skip)]
    pub order: Option<Correlative>,
}

impl PipelineItem {
    /// Whether work has begun (absent reads as not started).
    pub fn is_started(&self) -> bool {
        self.started == Some(true)
    }
}

/// A spec's one-line summary: `spec 004 — draft`.
pub fn spec_summary(s: &SpecEntry) -> String {
    format!("spec {} — {}", s.number, s.status.as_str())
}

/// A plan's one-line summary: `plan 003 — 40%, phases 2/5, 1 blocked`.
pub fn plan_summary(p: &PlanEntry) -> String {
    let mut s = format!("plan {} — {}%", p.number, p.progress_pct);
    if p.phases_total > 0 {
        s.push_str(&format!(
            ", phases {}/{}",
            p.phases_validated, p.phases_total
        ));
    }
    if p.phases_blocked > 0 {
        s.push_str(&format!(", {} blocked", p.phases_blocked));
    }
    if p.plan_state == PlanState::Inconsistent {
        s.push_str(", inconsistent");
    }
    s
}

/// The command that resumes a session.
pub fn session_command(folder: &str) -> String {
    format!("aw session-resume --code {folder} --reopen")
}

/// Builds the pipeline.
pub fn pipeline(
    specs: &[SpecEntry],
    plans: &[PlanEntry],
    active: &[SessionEntry],
) -> Vec<PipelineItem> {
    let mut items = Vec::new();
    for s in specs {
        let (kind, priority, command) = match s.status {
            Maturity::ReadyForPlan if s.planned => continue,
            Maturity::ReadyForPlan => (SPEC_UNPLANNED, 2, format!("/w:plan-new {}", s.file)),
            _ => (SPEC_UNREFINED, 1, format!("/w:spec-refine {}", s.file)),
        };
        items.push(PipelineItem {
            kind,
            priority,
            file: s.file.clone(),
            number: s.number.clone(),
            slug: s.slug.clone(),
            summary: spec_summary(s),
            command,
            started: None,
            order: Some(s.correlative.clone()),
        });
    }
    for p in plans.iter().filter(|p| p.plan_state != PlanState::Done) {
        items.push(PipelineItem {
            kind: PLAN_OPEN,
            priority: 3,
            file: p.file.clone(),
            number: p.number.clone(),
            slug: p.slug.clone(),
            summary: plan_summary(p),
            command: format!("/w:plan-exec {}", p.file),
            started: Some(p.tasks_done > 0 || p.phases_validated > 0),
            order: Some(p.correlative.clone()),
        });
    }
    for s in active {
        let d = &s.detail;
        if d.checkpoint.is_none() || d.links_document {
            continue;
        }
        let number = d.number.clone().unwrap_or_default();
        let slug = s
            .folder
            .strip_prefix("session")
            .unwrap_or(&s.folder)
            .strip_prefix(&format!("{number}-"))
            .filter(|_| !number.is_empty())
            .unwrap_or(&s.folder)
            .to_owned();
        items.push(PipelineItem {
            kind: CHECKPOINT_ORPHAN,
            priority: 4,
            file: d.path.clone(),
            order: Correlative::from_digits(&number),
            number,
            slug,
            summary: s.summary.clone(),
            command: session_command(&s.folder),
            started: Some(true),
        });
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
