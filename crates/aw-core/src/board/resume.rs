//! `aw resume` (§11): what to pick up next, and the exact command to run. It only proposes; it
//! never runs anything and never binds a conversation.
//!
//! - A document target (`docs/…` path or number) matches specs and plans exactly by path, or by
//!   number; slugs never match. One match is a proposal; several are candidates.
//! - A session target (`--code`) proposes resuming that session; a run stopped inside a flow
//!   proposes the flow's next step instead.
//! - A proposal's `kind` is the one the pipeline gives the item (`spec-unrefined`,
//!   `spec-unplanned`, `plan-open`), even when the pipeline does not list it (a planned spec, a
//!   done plan); a session's is `session`, its `file` its folder name and its `number` its code.
//!   Objective, progress and next step are the item's [`super::detail`], never derived again.
//! - No target walks the pipeline: its head is the proposal, with every pending item as
//!   `candidates`; when other items tie with it on priority and on being started, the answer is
//!   `candidates` (every pending item). A spec a done plan resolves to is delivered: the walk
//!   passes over it (the pipeline still lists a spec that never reached `ready-for-plan`), and a
//!   proposal for it says its plan is done. Outside a workspace the answer is `uninitialized`.

use super::detail::{Detail, plan_detail, spec_detail};
use super::pipeline::{self, PLAN_OPEN, PipelineItem, SPEC_UNREFINED};
use super::status::{PlanEntry, SessionEntry, SpecEntry, StatusModel};
use crate::documents::plan::PlanState;
use crate::documents::relation::SpecRelation;
use crate::documents::spec::Maturity;
use crate::error_code::ErrorCode;
use crate::vocab::correlative::Correlative;
use serde::Serialize;

use std::collections::HashMap;

/// The error code of an unusable target.
pub const TARGET_INVALID: ErrorCode = ErrorCode::ResumeTargetInvalid;

/// The kind of a proposal for a session the pipeline does not list (the reference's).
pub const SESSION: &str = "session";

/// A design reference of the proposed document that does not resolve as valid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct DesignNote {
    /// `stale` or `missing`.
    pub state: &'static str,
    /// The package and pinned revision (`DES-001@r2`).
    pub baseline: String,
    /// Why.
    pub detail: Option<String>,
}

/// One proposal: what it is about, where it stands, what comes next and the command for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Proposal {
    /// The kind the pipeline gives the item (`spec-unrefined`, `spec-unplanned`, `plan-open`),
    /// or `session`.
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
    /// The document's design references that are not valid (absent when there are none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub design: Option<Vec<DesignNote>>,
    /// A session's isolation units (absent when it holds none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub units: Option<Vec<crate::isolation::units::UnitRef>>,
}

impl Proposal {
    /// Whether the proposal is about a session (its `file` is then a folder name).
    pub fn is_session(&self) -> bool {
        self.kind == SESSION
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
        /// Every pending item, in the pipeline's order (pipeline proposals only).
        #[serde(skip_serializing_if = "Option::is_none")]
        candidates: Option<Vec<Proposal>>,
    },
    /// Several equally good answers; the caller picks one.
    Candidates {
        /// The proposals: every pending item when no target was given.
        candidates: Vec<Proposal>,
        /// How to pick.
        action: String,
    },
    /// Nothing is left.
    Idle {
        /// What that means.
        action: String,
    },
    /// No target, and the folder is not a workspace.
    Uninitialized {
        /// What to do.
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

/// The design references that are not valid, by the document that makes them (read once, so
/// a proposal per pending item does not walk every reference again).
fn design_notes(model: &StatusModel) -> HashMap<&str, Vec<DesignNote>> {
    let mut by_file: HashMap<&str, Vec<DesignNote>> = HashMap::new();
    for r in model
        .designs
        .references
        .iter()
        .filter(|r| r.state != "valid")
    {
        by_file
            .entry(r.from.as_str())
            .or_default()
            .push(DesignNote {
                state: r.state,
                baseline: match r.revision {
                    Some(rev) => format!("{}@r{rev}", r.id),
                    None => r.text.clone(),
                },
                detail: r.detail.clone(),
            });
    }
    by_file
}

/// A proposal from an item's detail.
fn proposal(kind: &'static str, file: &str, number: &str, d: Detail, command: String) -> Proposal {
    Proposal {
        kind,
        file: file.to_owned(),
        number: number.to_owned(),
        objective: d.objective,
        progress: d.progress,
        next: d.next,
        command,
        design: None,
        units: None,
    }
}

/// The proposal for a spec; `done_plan` is the done plan that delivered it, if one did.
pub fn spec_proposal(s: &SpecEntry, done_plan: Option<&str>) -> Proposal {
    let command = match s.status {
        Maturity::ReadyForPlan => format!("/w:plan-new {}", s.file),
        _ => format!("/w:spec-refine {}", s.file),
    };
    proposal(
        pipeline::spec_kind(s),
        &s.file,
        &s.number,
        spec_detail(s, done_plan),
        command,
    )
}

/// The proposal for a plan.
pub fn plan_proposal(p: &PlanEntry) -> Proposal {
    proposal(
        PLAN_OPEN,
        &p.file,
        &p.number,
        plan_detail(p),
        format!("/w:plan-exec {}", p.file),
    )
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
    let done = d
        .checkpoint
        .as_ref()
        .and_then(|cp| cp.first_result.as_deref());
    let phase = s.phase.word();
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
        kind: SESSION,
        file: s.folder.clone(),
        number: s.code.clone(),
        objective,
        progress,
        next,
        command,
        design: None,
        units: (!s.units.is_empty()).then(|| s.units.clone()),
    }
}

/// Resuming a session named with `--code`.
pub fn for_session(s: &SessionEntry) -> Answer {
    Answer::Proposal {
        via: "explicit",
        proposal: session_proposal(s),
        candidates: None,
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
    let designs = design_notes(model);
    let mut found: Vec<Proposal> = Vec::new();
    for s in &model.specs {
        if s.file == rel || number.as_ref() == Some(&s.correlative) {
            let mut p = spec_proposal(s, delivered.get(s.file.as_str()).copied());
            p.design = designs.get(s.file.as_str()).cloned();
            found.push(p);
        }
    }
    for p in &model.plans {
        if p.file == rel || number.as_ref() == Some(&p.correlative) {
            let mut proposal = plan_proposal(p);
            proposal.design = designs.get(p.file.as_str()).cloned();
            found.push(proposal);
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
            candidates: None,
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

/// The board's documents by path, so pipeline items find theirs in constant time (every
/// pending item is a candidate, so there may be thousands).
struct Index<'a> {
    designs: HashMap<&'a str, Vec<DesignNote>>,
    specs: HashMap<&'a str, &'a SpecEntry>,
    /// Specs a done plan delivered, with that plan.
    delivered: HashMap<&'a str, &'a str>,
}

impl<'a> Index<'a> {
    fn new(model: &'a StatusModel) -> Self {
        Index {
            designs: design_notes(model),
            specs: model.specs.iter().map(|s| (s.file.as_str(), s)).collect(),
            delivered: delivered(model),
        }
    }

    /// Whether the walk passes over an item: a spec to refine whose plan is already done.
    fn settled(&self, item: &PipelineItem) -> bool {
        item.kind == SPEC_UNREFINED && self.delivered.contains_key(item.file.as_str())
    }

    /// The proposal for one pipeline item: its own detail, and a delivered spec's done plan.
    fn proposal(&self, item: &PipelineItem) -> Proposal {
        let file = item.file.as_str();
        let detail = match (item.kind, self.specs.get(file)) {
            (PLAN_OPEN, _) => item.detail.clone(),
            (_, Some(s)) => spec_detail(s, self.delivered.get(file).copied()),
            (_, None) => item.detail.clone(),
        };
        let mut p = proposal(item.kind, file, &item.number, detail, item.command.clone());
        p.design = self.designs.get(file).cloned();
        p
    }
}

/// Resuming with no target: the pipeline's head, with every pending item as a candidate, or
/// every pending item when others tie with the head (same priority, same started); a delivered
/// spec is passed over. Outside a workspace: `uninitialized`.
pub fn from_pipeline(model: &StatusModel) -> Answer {
    if !model.workspace.initialized {
        return Answer::Uninitialized {
            action: format!(
                "{} is not a workspace: set one up with /w:workspace-init (or aw workspace-init)",
                model.workspace.path
            ),
        };
    }
    let index = Index::new(model);
    let open: Vec<&PipelineItem> = model
        .pipeline
        .iter()
        .filter(|i| !index.settled(i))
        .collect();
    let Some(head) = open.first() else {
        return Answer::Idle {
            action: "Nothing is pending: every spec is planned and every plan is done.".to_owned(),
        };
    };
    let tied = open
        .iter()
        .filter(|i| i.priority == head.priority && i.is_started() == head.is_started())
        .count();
    let candidates: Vec<Proposal> = open.iter().map(|i| index.proposal(i)).collect();
    if tied > 1 {
        return Answer::Candidates {
            action: format!(
                "{tied} items tie at the head of {} pending: pick one and run `aw resume` again with its path.",
                candidates.len()
            ),
            candidates,
        };
    }
    Answer::Proposal {
        via: "pipeline",
        proposal: index.proposal(head),
        candidates: Some(candidates),
    }
}
