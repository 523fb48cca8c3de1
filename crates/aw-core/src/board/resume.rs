//! `aw resume` (§11): what to pick up next, and the exact command to run. It only proposes; it
//! never runs anything and never binds a conversation.
//!
//! - A document target (`docs/…` path or number) matches specs and plans exactly by path, or by
//!   number; slugs never match. One match is a proposal; several are candidates.
//! - A session target (`--code`) proposes resuming that session; a run stopped inside a flow
//!   proposes the flow's next step instead.
//! - A proposal's `kind` is the one the pipeline gives the item (`spec-unrefined`,
//!   `spec-unplanned`, `plan-open`, `checkpoint-orphan`), even when the pipeline does not list
//!   it (a planned spec, a done plan); a session the pipeline cannot list (closed, without a
//!   checkpoint, or linked to a document) is `session`. A session's `file` is its folder name
//!   and its `number` its code, as in the reference.
//! - No target walks the pipeline: its head is the proposal, unless other items tie with it on
//!   priority and on being started, in which case they are all candidates. A spec a done plan
//!   resolves to is delivered: the walk passes over it (the pipeline still lists a spec that
//!   never reached `ready-for-plan`), and a proposal for it says its plan is done.

use super::pipeline::{self, CHECKPOINT_ORPHAN, PLAN_OPEN, PipelineItem, SPEC_UNREFINED};
use super::status::{PlanEntry, SessionEntry, SpecEntry, StatusModel};
use crate::documents::plan::{Declaration, PlanState};
use crate::documents::relation::SpecRelation;
use crate::documents::spec::Maturity;
use crate::error_code::ErrorCode;
use crate::session::narrative::Phase;
use crate::vocab::correlative::Correlative;
use serde::Serialize;

use std::collections::HashMap;

/// The error code of an unusable target.
pub const TARGET_INVALID: ErrorCode = ErrorCode::ResumeTargetInvalid;

/// The kind of a proposal for a session the pipeline does not list (the reference's).
pub const SESSION: &str = "session";

/// One proposal: what it is about, where it stands, what comes next and the command for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Proposal {
    /// The kind the pipeline gives the item (`spec-unrefined`, `spec-unplanned`, `plan-open`,
    /// `checkpoint-orphan`), or `session` for a session the pipeline does not list.
    pub kind: &'static str,
    /// The document, workspace-relative; for a session, its folder name.
    pub file: String,
    /// The document's number as written; for a session, its code.
    pub number: String,
    /// What it is for.
    pub objective: String,
    /// Where it stands.
    pub progress: String,
    /// The next step.
    pub next: String,
    /// The command to run.
    pub command: String,
}

impl Proposal {
    /// Whether the proposal is about a session (its `file` is then a folder name).
    pub fn is_session(&self) -> bool {
        self.kind == CHECKPOINT_ORPHAN || self.kind == SESSION
    }
}

/// The answer of `aw resume`: `status` names the variant, its fields follow.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum Answer {
    /// One thing to resume. `via` is `explicit` (a target was given) or `pipeline`.
    Proposal {
        /// How it was chosen.
        via: &'static str,
        /// The proposal.
        proposal: Proposal,
    },
    /// Several equally good answers; the caller picks one.
    Candidates {
        /// The proposals.
        candidates: Vec<Proposal>,
        /// How to pick.
        action: String,
    },
    /// Nothing is left.
    Idle {
        /// What that means.
        action: String,
    },
}

/// A target that names nothing resumable (`RESUME_TARGET_INVALID`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// What went wrong.
    pub message: String,
    /// What to do next.
    pub action: String,
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

fn titled(word: &str, number: &str, slug: &str) -> String {
    if slug.is_empty() {
        format!("{word} {number}")
    } else {
        format!("{word} {number} — {slug}")
    }
}

/// The done plan that delivered each spec, by the spec's path: a spec with one has nothing left
/// to refine, whatever its own status line says.
fn delivered(model: &StatusModel) -> HashMap<&str, &str> {
    model
        .plans
        .iter()
        .filter(|p| p.plan_state == PlanState::Done)
        .filter_map(|p| match &p.spec {
            SpecRelation::Resolved { file, .. } => Some((file.as_str(), p.file.as_str())),
            _ => None,
        })
        .collect()
}

/// The proposal for a spec; `done_plan` is the done plan that delivered it, if one did.
pub fn spec_proposal(s: &SpecEntry, done_plan: Option<&str>) -> Proposal {
    let questions = match s.open_questions {
        0 => "no open questions".to_owned(),
        n => plural(n, "open question", "open questions"),
    };
    let refine = format!("/w:spec-refine {}", s.file);
    let (next, command) = match (s.status, s.planned, done_plan) {
        (Maturity::ReadyForPlan, true, _) => (
            "it already has a plan derived from it".to_owned(),
            format!("/w:plan-new {}", s.file),
        ),
        (Maturity::ReadyForPlan, false, _) => (
            "derive its plan".to_owned(),
            format!("/w:plan-new {}", s.file),
        ),
        (_, _, Some(plan)) => (
            format!(
                "nothing is left: its plan {plan} is done (refine it only to change what was built)"
            ),
            refine,
        ),
        _ => ("refine it until it is ready-for-plan".to_owned(), refine),
    };
    Proposal {
        kind: pipeline::spec_kind(s),
        file: s.file.clone(),
        number: s.number.clone(),
        objective: titled("spec", &s.number, &s.slug),
        progress: format!("status {}, {questions}", s.status.as_str()),
        next,
        command,
    }
}

/// The proposal for a plan.
pub fn plan_proposal(p: &PlanEntry) -> Proposal {
    let mut progress = format!(
        "{}/{} tasks ({}%)",
        p.tasks_done, p.tasks_total, p.progress_pct
    );
    if p.phases_total > 0 {
        progress.push_str(&format!(
            " · phases {}/{}",
            p.phases_validated, p.phases_total
        ));
    }
    let next = if let Some((reference, why)) = p.design_missing.first() {
        format!(
            "UNRESOLVABLE DESIGN {reference}: {why} — create or repair the package, or fix the plan's reference (`aw designs --plan {}`)",
            p.file
        )
    } else if let Some(b) = p.blocked_phases.first() {
        format!(
            "BLOCKED F{} — {}",
            b.number,
            b.blocker.as_deref().unwrap_or("no reason given")
        )
    } else if p.plan_state == PlanState::Inconsistent {
        match &p.declaration {
            Declaration::Unknown(v) => format!(
                "the plan's state line says '{v}', which is neither open nor done: fix it by hand"
            ),
            _ => "the plan says it is done but its tasks and phases do not back it: fix it by hand"
                .to_owned(),
        }
    } else if p.final_validation_pending {
        "everything is executed: run the final validation, then close the plan".to_owned()
    } else if p.plan_state == PlanState::Done {
        "nothing left: the plan is done".to_owned()
    } else if let Some((n, name, _)) = &p.next_phase {
        format!("continue with F{n} — {name}")
    } else {
        "continue with the first phase that is not validated".to_owned()
    };
    Proposal {
        kind: PLAN_OPEN,
        file: p.file.clone(),
        number: p.number.clone(),
        objective: titled("plan", &p.number, &p.slug),
        progress,
        next,
        command: format!("/w:plan-exec {}", p.file),
    }
}

/// The proposal for a session.
pub fn session_proposal(s: &SessionEntry) -> Proposal {
    let d = &s.detail;
    let objective = d
        .objective
        .clone()
        .or_else(|| (!s.summary.is_empty()).then(|| s.summary.clone()))
        .unwrap_or_else(|| s.folder.clone());
    // Where the session stands, by the narrative's phase rule, and its first result.
    let done = d.checkpoint.as_ref().and_then(|cp| cp.completed.as_deref());
    let phase = Phase::of(!d.active, done.is_some()).word();
    let progress = match done {
        Some(done) => format!("session {phase}: {done}"),
        None => format!("session {phase}, no progress recorded"),
    };
    let (next, command) = match &d.flow_stop {
        Some(stop) => (stop.next.clone(), stop.command.clone()),
        None => {
            let next = match &d.checkpoint {
                Some(cp) => cp
                    .pending
                    .clone()
                    .unwrap_or_else(|| "the checkpoint declares no pending work".to_owned()),
                None => "no checkpoint yet: continue from the session's objective".to_owned(),
            };
            (next, pipeline::session_command(&s.folder))
        }
    };
    Proposal {
        kind: if pipeline::is_checkpoint_orphan(s) {
            CHECKPOINT_ORPHAN
        } else {
            SESSION
        },
        file: s.folder.clone(),
        number: s.code.clone(),
        objective,
        progress,
        next,
        command,
    }
}

/// Resuming a session named with `--code`.
pub fn for_session(s: &SessionEntry) -> Answer {
    Answer::Proposal {
        via: "explicit",
        proposal: session_proposal(s),
    }
}

/// Normalises a typed document target to a workspace-relative path: `\` read as `/`, a
/// leading `./` dropped, an absolute path under the workspace made relative.
fn relative_target(target: &str, root: &str) -> String {
    let t = target.trim().replace('\\', "/");
    let root = root.replace('\\', "/");
    let t = t
        .strip_prefix(&format!("{}/", root.trim_end_matches('/')))
        .map(str::to_owned)
        .unwrap_or(t);
    let mut t = t.as_str();
    while let Some(r) = t.strip_prefix("./") {
        t = r;
    }
    t.to_owned()
}

/// Resuming a document named by path or number.
pub fn for_target(model: &StatusModel, target: &str) -> Result<Answer, Refusal> {
    let rel = relative_target(target, &model.workspace.path);
    let number = Correlative::parse_input(target);
    let delivered = delivered(model);
    let mut found: Vec<Proposal> = Vec::new();
    for s in &model.specs {
        if s.file == rel || number.as_ref() == Some(&s.correlative) {
            found.push(spec_proposal(s, delivered.get(s.file.as_str()).copied()));
        }
    }
    for p in &model.plans {
        if p.file == rel || number.as_ref() == Some(&p.correlative) {
            found.push(plan_proposal(p));
        }
    }
    match found.len() {
        0 => Err(Refusal {
            message: format!("No spec or plan matches '{}'.", target.trim()),
            action: "Pass a path under docs/specs or docs/plans, or a document number; use --code to resume a session.".to_owned(),
        }),
        1 => Ok(Answer::Proposal {
            via: "explicit",
            proposal: found.remove(0),
        }),
        n => Ok(Answer::Candidates {
            candidates: found,
            action: format!(
                "'{}' names {n} documents: run `aw resume` again with the full path of one.",
                target.trim()
            ),
        }),
    }
}

/// The board's documents and sessions by path, so pipeline items find theirs in constant time
/// (every unrefined spec ties with the head, so there may be thousands of candidates).
struct Index<'a> {
    specs: HashMap<&'a str, &'a SpecEntry>,
    plans: HashMap<&'a str, &'a PlanEntry>,
    sessions: HashMap<&'a str, &'a SessionEntry>,
    /// Specs a done plan delivered, with that plan.
    delivered: HashMap<&'a str, &'a str>,
}

impl<'a> Index<'a> {
    fn new(model: &'a StatusModel) -> Self {
        Index {
            specs: model.specs.iter().map(|s| (s.file.as_str(), s)).collect(),
            plans: model.plans.iter().map(|p| (p.file.as_str(), p)).collect(),
            sessions: model
                .sessions
                .active
                .iter()
                .map(|s| (s.folder.as_str(), s))
                .collect(),
            delivered: delivered(model),
        }
    }

    /// Whether the walk passes over an item: a spec to refine whose plan is already done.
    fn settled(&self, item: &PipelineItem) -> bool {
        item.kind == SPEC_UNREFINED && self.delivered.contains_key(item.file.as_str())
    }

    /// The proposal for one pipeline item.
    fn proposal(&self, item: &PipelineItem) -> Option<Proposal> {
        let file = item.file.as_str();
        match item.kind {
            PLAN_OPEN => self.plans.get(file).map(|p| plan_proposal(p)),
            CHECKPOINT_ORPHAN => self.sessions.get(file).map(|s| session_proposal(s)),
            _ => self
                .specs
                .get(file)
                .map(|s| spec_proposal(s, self.delivered.get(file).copied())),
        }
    }
}

/// Resuming with no target: the pipeline's head, or the items tied with it; a delivered spec
/// is passed over.
pub fn from_pipeline(model: &StatusModel) -> Answer {
    let index = Index::new(model);
    let open = model.pipeline.iter().filter(|i| !index.settled(i));
    let Some(head) = open.clone().next() else {
        return Answer::Idle {
            action: "Nothing is pending: every spec is planned and every plan is done.".to_owned(),
        };
    };
    let tied: Vec<Proposal> = open
        .filter(|i| i.priority == head.priority && i.is_started() == head.is_started())
        .filter_map(|i| index.proposal(i))
        .collect();
    if tied.len() > 1 {
        return Answer::Candidates {
            action: format!(
                "{} items share the same priority: pick one and run `aw resume` again with its path.",
                tied.len()
            ),
            candidates: tied,
        };
    }
    match tied.into_iter().next() {
        Some(proposal) => Answer::Proposal {
            via: "pipeline",
            proposal,
        },
        None => Answer::Idle {
            action: "Nothing is pending.".to_owned(),
        },
    }
}
