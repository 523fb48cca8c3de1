//! Boundary resolution (§7.1), shared by every verb: where the run stands, what kind of stop it
//! is, why it is blocked if it is, and its seal.

use super::binding::{BindError, emit_action};
use super::effects::{Authorization, authorize_transition};
use super::error::FlowError;
use super::journey::Journey;
use super::registry::{Action, Decision};
use super::state::RunState;
use crate::canonical::semantic_digest;
use crate::error_code::ErrorCode;
use crate::vocab::flow::{Authority, BoundaryKind, EffectClass, MAX_BOUNDARY_ATTEMPTS};
use serde_json::{Value, json};

/// A resolved boundary.
#[derive(Debug, Clone)]
pub struct Resolved<'a> {
    /// The row the run stands on (`None` when the journey is finished).
    pub stopped: Option<&'a Decision>,
    /// The kind of stop.
    pub kind: BoundaryKind,
    /// The ids from the cursor to the end.
    pub pending: Vec<String>,
    /// The row's action, bound and checked against the `docs/` boundary, whatever the kind.
    pub emitted: Option<Action>,
    /// What the row needs authorized (`cli` rows only).
    pub authorization: Option<Authorization>,
    /// Why the run cannot go on, for a blocked boundary.
    pub blocked: Option<FlowError>,
    /// The seal an answer must quote as `input_digest`.
    pub seal: String,
}

impl Resolved<'_> {
    /// The transition id, if any.
    pub fn transition(&self) -> Option<&str> {
        self.stopped.map(|d| d.id.as_ref())
    }
}

/// The digest of an action: program, args, target, input and evidence (not `idempotent`, not
/// `recovery`).
pub fn action_digest(a: &Action) -> String {
    let inv = &a.invocation;
    semantic_digest(&json!({
        "program": inv.program,
        "args": inv.args,
        "target": inv.target,
        "input": inv.input,
        "evidence": a.evidence,
    }))
}

/// The seal of a boundary: the run's position, the stopped transition and its emitted action.
pub fn boundary_seal(
    state: &RunState,
    stopped: Option<&Decision>,
    emitted: Option<&Action>,
) -> String {
    semantic_digest(&json!({
        "state": state.position_digest(),
        "transition": stopped.map_or(Value::Null, |d| json!(d.id)),
        "action": emitted.map_or(Value::Null, |a| json!(action_digest(a))),
    }))
}

/// What a row needs authorized, with the seated proposal as its subject when the row decides
/// or publishes it.
pub fn authorization_of(row: &Decision, state: &RunState) -> Authorization {
    let subject = super::proposal::subject(row, state);
    authorize_transition(row, &state.authorizations, subject.as_ref())
}

/// The last event recorded at a transition.
fn last_event_at<'s>(state: &'s RunState, transition: &str) -> Option<&'s Value> {
    state
        .events
        .iter()
        .rev()
        .find(|e| e.get("transition").and_then(Value::as_str) == Some(transition))
}

/// Whether an exhausted row may be passed over (flow-spec-v22 §6): not a delegated action
/// nobody ran yet (its last event is not a failure), not a failed action whose effects touch the
/// world (its way out is `aw flow recover`), and not a row still missing an approval.
pub fn degradable(row: &Decision, state: &RunState) -> bool {
    if !row.owned() {
        return false;
    }
    let failed = last_event_at(state, &row.id)
        .is_some_and(|e| e.get("kind").and_then(Value::as_str) == Some("failed"));
    if row.action.is_some() && !failed {
        return false;
    }
    let auth = authorization_of(row, state);
    if failed && auth.planned.iter().any(|c| *c != EffectClass::ReadOnly) {
        return false;
    }
    auth.missing.is_empty()
}

/// The cause recorded when the walk passes over an exhausted, degradable row.
pub fn exhaustion_skip(row: &Decision, state: &RunState) -> Option<String> {
    if state.attempts_at(&row.id) < MAX_BOUNDARY_ATTEMPTS || !degradable(row, state) {
        return None;
    }
    let degrade = "its gap belongs under '## Open questions' in the session, or in BACKLOG if it \
                   outlives it";
    let failure = last_event_at(state, &row.id)
        .filter(|e| e.get("kind").and_then(Value::as_str) == Some("failed"));
    Some(match failure {
        Some(e) => format!(
            "'{}': its action ran and failed ({}: {}) and used up its {MAX_BOUNDARY_ATTEMPTS} \
             attempts, so it was degraded instead of retried: {degrade}",
            row.id,
            e.get("code").and_then(Value::as_str).unwrap_or(""),
            e.get("message").and_then(Value::as_str).unwrap_or("")
        ),
        None => format!(
            "'{}' used up its {MAX_BOUNDARY_ATTEMPTS} attempts and was degraded instead of \
             retried: {degrade}",
            row.id
        ),
    })
}

/// Resolves the boundary the state stands on.
pub fn resolve<'a>(state: &RunState, journey: &Journey<'a>) -> Resolved<'a> {
    let cursor = state.cursor();
    let pending = journey.pending_from(cursor);
    let Some(row) = journey.at(cursor) else {
        return Resolved {
            stopped: None,
            kind: BoundaryKind::Final,
            pending,
            emitted: None,
            authorization: None,
            blocked: None,
            seal: boundary_seal(state, None, None),
        };
    };
    let (emitted, bind_error) = match &row.action {
        None => (None, None),
        Some(a) => match emit_action(a, &state.session, state.flow.as_str(), &journey.docs) {
            Ok(bound) => (Some(bound), None),
            Err(e) => (None, Some(e)),
        },
    };
    let authorization = (row.authority == Authority::Cli).then(|| authorization_of(row, state));
    let blocked = blocked_cause(row, state, journey, bind_error);
    let kind = if blocked.is_some() {
        BoundaryKind::Blocked
    } else if authorization
        .as_ref()
        .is_some_and(|a| !a.missing.is_empty())
    {
        BoundaryKind::Authorization
    } else if row.authority == Authority::Agent {
        BoundaryKind::Semantic
    } else if emitted.is_none() {
        BoundaryKind::Human
    } else {
        BoundaryKind::Execution
    };
    let seal = boundary_seal(state, Some(row), emitted.as_ref());
    Resolved {
        stopped: Some(row),
        kind,
        pending,
        emitted,
        authorization,
        blocked,
        seal,
    }
}

fn blocked_cause(
    row: &Decision,
    state: &RunState,
    journey: &Journey<'_>,
    bind_error: Option<BindError>,
) -> Option<FlowError> {
    let id = &row.id;
    let folder = &state.session;
    if !row.owned() {
        return Some(FlowError::new(
            ErrorCode::FlowTransitionUnowned,
            format!(
                "'{id}' is not owned by the CLI, and there is no doctrine left to hand it back to."
            ),
            "This is a defect of the registry, not a fallback: report it with `aw --version`; the run \
             cannot pass this step.",
        ));
    }
    match bind_error {
        Some(BindError::Unbound(p)) if p == "{slug}" => {
            return Some(FlowError::new(
                ErrorCode::FlowActionUnbound,
                format!(
                    "The action of '{id}' names its file after the session's slug, and the folder \
                     '{folder}' is not named `NNN-<slug>-{}`.",
                    journey.flow.as_str()
                ),
                format!(
                    "Run this flow in a session whose folder ends in `-{}` (`aw session-create \
                     --name <slug>-{}`), adopting it with `aw flow advance --session <folder> --flow \
                     {} --adopt`.",
                    journey.flow.as_str(),
                    journey.flow.as_str(),
                    journey.flow.as_str()
                ),
            ));
        }
        Some(BindError::Unbound(p)) => {
            return Some(FlowError::new(
                ErrorCode::FlowActionUnbound,
                format!("The action of '{id}' uses {p}, which this run cannot fill in."),
                "This is a defect of the registry: report it with `aw --version`; the run cannot \
                 pass this step.",
            ));
        }
        Some(BindError::DocsCrossed(path)) => {
            let allowed = if journey.docs.is_empty() {
                "no docs folder".to_owned()
            } else {
                journey.docs.join(", ")
            };
            return Some(FlowError::new(
                ErrorCode::FlowDocsBoundaryCrossed,
                format!(
                    "The action of '{id}' writes into {path}, which the '{}' flow may not write.",
                    journey.flow.as_str()
                ),
                format!(
                    "The '{}' flow may write into {allowed} only; material for any other docs folder \
                     goes through the export-* commands. This is a defect of the registry: report it.",
                    journey.flow.as_str()
                ),
            ));
        }
        None => {}
    }
    if state.attempts_at(id) >= MAX_BOUNDARY_ATTEMPTS {
        let action = if degradable(row, state) {
            format!(
                "Degrade the gap instead of retrying it: record it under '## Open questions' in the \
                 session (or in BACKLOG if it outlives the session); the next `aw flow advance \
                 --session {folder}` passes this step over. To answer it again instead, give it its \
                 attempts back with `aw flow recover --session {folder}`."
            )
        } else {
            format!(
                "This step cannot be passed over: fix what its refusals name, record it under '## \
                 Open questions' in the session or in BACKLOG, then give it its attempts back with \
                 `aw flow recover --session {folder}` and answer it again."
            )
        };
        return Some(FlowError::new(
            ErrorCode::FlowBoundaryExhausted,
            format!(
                "'{id}' used up its {MAX_BOUNDARY_ATTEMPTS} attempts: answering it again would be the \
                 loop the cap exists to prevent."
            ),
            action,
        ));
    }
    None
}
