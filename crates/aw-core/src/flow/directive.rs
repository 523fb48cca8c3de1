//! The directive: the document both verbs return — the boundary, what this invocation applied,
//! what is pending, the bounded request / choices / action for the boundary, effects, error and
//! a never-empty `next_action`. Every directive passes the construction checks before it leaves.

use super::boundary::Resolved;
use super::checks::check;
use super::choices::boundary_choices;
use super::error::{FlowError, FlowResult};
use super::next_action::next_action;
use super::proposal::ProposalView;
use super::registry::{Action, Choice, Decision};
use super::request::{SemanticRequest, build_request};
use super::state::RunState;
use crate::error_code::ErrorCode;
use crate::vocab::flow::Effects;
use crate::vocab::flow::{
    Authority, BoundaryKind, DIRECTIVE_VERSION, EffectClass, Flow, Outcome, StepOutcome, Tranche,
};
use serde::Serialize;

/// The closed key set of the directive, in emission order.
pub const DIRECTIVE_KEYS: [&str; 18] = [
    "version",
    "flow",
    "tranche",
    "session",
    "boundary",
    "outcome",
    "state_digest",
    "applied",
    "pending",
    "request",
    "action",
    "choices",
    "proposal",
    "effects",
    "authorizations",
    "degradations",
    "error",
    "next_action",
];

/// The directive.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Directive {
    /// 1.
    pub version: u32,
    /// The flow.
    pub flow: Flow,
    /// Its tranche.
    pub tranche: Tranche,
    /// The session folder.
    pub session: String,
    /// Where the run stands.
    pub boundary: BoundaryView,
    /// `completed` when final, `blocked` when blocked, else `needs_input` (or a rejection's own).
    pub outcome: Outcome,
    /// The seal an answer must quote as `input_digest`.
    pub state_digest: String,
    /// The steps this invocation applied or skipped, in order.
    pub applied: Vec<Step>,
    /// The ids from the cursor to the end of the journey.
    pub pending: Vec<String>,
    /// The question, at a semantic boundary.
    pub request: Option<SemanticRequest>,
    /// The exact invocation, at an execution boundary.
    pub action: Option<Action>,
    /// The choices, at human and authorization boundaries.
    pub choices: Vec<Choice>,
    /// The seated proposal, at the row that decides it and the row that publishes it.
    pub proposal: Option<ProposalView>,
    /// The effect ledger (the stopped row's classes shown as planned).
    pub effects: Effects,
    /// The classes covered at the boundary in force (a `cli` row's: self-authorized, in custody
    /// or granted over its seal); empty at other boundaries.
    pub authorizations: Vec<EffectClass>,
    /// Every step of the run that was degraded after exhausting its attempts.
    pub degradations: Vec<Degradation>,
    /// The cause of a block or of a rejection.
    pub error: Option<ErrorView>,
    /// What to do next, as one complete instruction.
    pub next_action: String,
}

/// The boundary block.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct BoundaryView {
    /// The kind.
    pub kind: BoundaryKind,
    /// The transition (null when final).
    pub transition: Option<String>,
    /// Its authority.
    pub authority: Option<Authority>,
    /// Its ownership.
    pub ownership: Option<String>,
    /// Its title.
    pub title: Option<String>,
    /// Its doctrine document.
    pub document: Option<String>,
}

/// One step applied or skipped by an invocation.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Step {
    /// The transition.
    pub transition: String,
    /// Its authority.
    pub authority: Authority,
    /// Its ownership.
    pub ownership: String,
    /// Applied or skipped.
    pub outcome: StepOutcome,
    /// Why it was skipped (null when applied).
    pub reason: Option<String>,
}

impl Step {
    /// A row applied.
    pub fn applied(row: &Decision) -> Step {
        Step {
            transition: row.id.to_string(),
            authority: row.authority,
            ownership: row.ownership.to_string(),
            outcome: StepOutcome::Applied,
            reason: None,
        }
    }

    /// A row skipped, with its reason.
    pub fn skipped(row: &Decision, reason: String) -> Step {
        Step {
            transition: row.id.to_string(),
            authority: row.authority,
            ownership: row.ownership.to_string(),
            outcome: StepOutcome::Skipped,
            reason: Some(reason),
        }
    }
}

/// A step the run lost: passed over after exhausting its attempts.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Degradation {
    /// The transition.
    pub transition: String,
    /// Why (`FLOW_BOUNDARY_EXHAUSTED`).
    pub cause: ErrorCode,
    /// What was lost.
    pub loss: String,
}

/// An error block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ErrorView {
    /// The stable code.
    pub code: ErrorCode,
    /// What went wrong.
    pub message: String,
    /// What to do about it.
    pub action: String,
}

impl From<&FlowError> for ErrorView {
    fn from(e: &FlowError) -> Self {
        ErrorView {
            code: e.code,
            message: e.message.clone(),
            action: e.action.clone(),
        }
    }
}

/// Every degraded step of the run, with the cause recorded when it was passed over.
pub fn degradations(state: &RunState) -> Vec<Degradation> {
    state
        .degradations()
        .iter()
        .map(|d| Degradation {
            transition: d.transition.clone(),
            cause: ErrorCode::FlowBoundaryExhausted,
            loss: d.cause.clone(),
        })
        .collect()
}

/// The parts of a directive a rejection replaces.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    /// The outcome, instead of the kind's default.
    pub outcome: Option<Outcome>,
    /// The error, when the boundary has none of its own.
    pub error: Option<FlowError>,
    /// The next action, instead of the kind's.
    pub next_action: Option<String>,
}

/// Builds (and checks) the directive for a resolved boundary.
pub fn directive_for(
    state: &RunState,
    resolved: &Resolved<'_>,
    steps: Vec<Step>,
    overrides: Overrides,
) -> FlowResult<Directive> {
    let row = resolved.stopped;
    let choices = boundary_choices(resolved);
    let request = match (resolved.kind, row) {
        (BoundaryKind::Semantic, Some(r)) => Some(build_request(r, state, &resolved.seal)),
        _ => None,
    };
    let action = match resolved.kind {
        BoundaryKind::Execution => resolved.emitted.clone(),
        _ => None,
    };
    let mut planned = state.effects.planned.clone();
    if let Some(a) = &resolved.authorization {
        for c in &a.planned {
            if !planned.contains(c) {
                planned.push(*c);
            }
        }
    }
    let default_outcome = match resolved.kind {
        BoundaryKind::Final => Outcome::Completed,
        BoundaryKind::Blocked => Outcome::Blocked,
        _ => Outcome::NeedsInput,
    };
    let outcome = if resolved.kind == BoundaryKind::Blocked {
        Outcome::Blocked
    } else {
        overrides.outcome.unwrap_or(default_outcome)
    };
    let error = resolved
        .blocked
        .as_ref()
        .or(overrides.error.as_ref())
        .map(ErrorView::from);
    let next_action = overrides.next_action.unwrap_or_else(|| {
        let degraded = state.degradations();
        if resolved.kind == BoundaryKind::Final && !degraded.is_empty() {
            // A finished run that gave up on steps says which, and what is owed for them.
            let ids: Vec<&str> = degraded.iter().map(|d| d.transition.as_str()).collect();
            format!(
                "The run is finished, leaving degraded: {}. Each gap belongs under '## Open \
                 questions' in the session (or in BACKLOG if it outlives it), saying it was \
                 tried and not settled.",
                ids.join(", ")
            )
        } else {
            next_action(resolved, &state.session, &choices)
        }
    });
    let directive = Directive {
        version: DIRECTIVE_VERSION,
        flow: state.flow,
        tranche: state.flow.tranche(),
        session: state.session.clone(),
        boundary: BoundaryView {
            kind: resolved.kind,
            transition: row.map(|r| r.id.to_string()),
            authority: row.map(|r| r.authority),
            ownership: row.map(|r| r.ownership.to_string()),
            title: row.map(|r| r.title.to_string()),
            document: row.map(|r| r.document.to_string()),
        },
        outcome,
        state_digest: resolved.seal.clone(),
        applied: steps,
        pending: resolved.pending.clone(),
        request,
        action,
        choices,
        proposal: row.and_then(|r| super::proposal::view(r, state)),
        effects: Effects {
            planned,
            approved: state.effects.approved.clone(),
            applied: state.effects.applied.clone(),
        },
        authorizations: resolved
            .authorization
            .as_ref()
            .map(|a| a.covered.clone())
            .unwrap_or_default(),
        degradations: degradations(state),
        error,
        next_action,
    };
    check(&directive)?;
    Ok(directive)
}
