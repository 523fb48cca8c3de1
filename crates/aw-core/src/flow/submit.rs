//! The `submit` verb as a pure function (flow-spec-v22 §5.2): resend and drift checks, answer
//! admission, the execution verdict, the scope, the proposal, the grant, and applying (or
//! holding) exactly the boundary's transition.
//!
//! Refusals come back as a directive with `error` set. Whether one spends an attempt is its
//! code's class (see [`super::rejections`]); a refused external result that says it changed
//! something records that in the run's trace. A refusal is written when it spent an attempt or
//! recorded an event.

use super::answer::{Answer, Context, Rejection, parse_answer};
use super::attempts::{identity, replay};
use super::boundary::{Resolved, action_digest, resolve};
use super::choices::boundary_choices;
use super::directive::{Overrides, Step, directive_for};
use super::error::FlowResult;
use super::facts::Facts;
use super::journey::Journey;
use super::next_action::advance_command;
use super::plan_evidence;
use super::proposal::{self, concerns_proposal};
use super::registry::Decision;
use super::run::Turn;
use super::state::{Attempt, Grant, RunState, event};
use super::verdict::{ExecResult, verdict};
use super::walk::advance_run;
use crate::error_code::ErrorCode;
use crate::vocab::flow::{BoundaryKind, EffectClass, Outcome, PAUSE_LABEL, STOP_LABEL};

/// What `submit` received.
#[derive(Debug, Clone, Copy)]
pub struct Submission<'a> {
    /// The stdin text, decoded (a leading BOM dropped, invalid UTF-8 replaced).
    pub raw: &'a str,
    /// `--approval`, if given.
    pub approval: Option<&'a str>,
    /// What the shell observed before the lock, for the checks that look at the workspace.
    pub facts: &'a Facts,
}

/// The classes a transition exercises: its seated proposal's when it decides or publishes one,
/// else its own.
pub fn effects_of_transition(row: &Decision, state: &RunState) -> Vec<EffectClass> {
    match proposal::subject(row, state) {
        Some(s) => s.effects,
        None => row.effects(),
    }
}

/// Answers the boundary in force.
pub fn submit(state: RunState, journey: &Journey<'_>, sub: Submission<'_>) -> FlowResult<Turn> {
    journey.check(&state)?;
    let folder = state.session.clone();
    let resolved = resolve(&state, journey);
    let Some(row) = resolved.stopped else {
        let r = Rejection::free(
            ErrorCode::FlowAnswerNotExpected,
            "The journey is already finished: there is nothing to answer.",
            "Nothing is left to do in this run.",
        )
        .with_outcome(Outcome::Completed);
        return reject(state, journey, resolved, r, None);
    };
    if state.boundary.is_none() {
        let r = Rejection::free(
            ErrorCode::FlowAnswerNotExpected,
            "This run has not stopped at any boundary yet.",
            format!(
                "Run `{}` first, then answer the boundary it returns.",
                advance_command(&folder)
            ),
        );
        return reject(state, journey, resolved, r, None);
    }
    replay(&state.attempts)?;
    let id = identity(&state, sub.raw, sub.approval, &resolved.seal, &row.id);
    if let Some(twin) = &id.twin
        && state.applied.contains(&twin.transition)
        && !state.skipped.contains(&twin.transition)
    {
        let r = Rejection::free(
            ErrorCode::FlowAnswerResent,
            "This answer was already applied: the journey does not advance twice.",
            "Answer the boundary below instead; its next_action says how.",
        )
        .with_outcome(Outcome::Completed);
        return reject(state, journey, resolved, r, None);
    }
    if let Some(pending) = &state.pending_action {
        let drifted = pending.transition != row.id
            || resolved
                .emitted
                .as_ref()
                .is_some_and(|a| action_digest(a) != pending.digest);
        if drifted {
            let r = Rejection::free(
                ErrorCode::FlowActionChanged,
                "The action of this boundary changed after it was emitted (aw was probably upgraded mid-run).",
                format!(
                    "Run `{}` to have the current action emitted and sealed, then run that one.",
                    advance_command(&folder)
                ),
            );
            return reject(state, journey, resolved, r, None);
        }
    }
    let attempt = id.attempt;
    let choices = boundary_choices(&resolved);
    let ctx = Context {
        resolved: &resolved,
        choices: &choices,
        folder: &folder,
    };
    let answer = match parse_answer(sub.raw, sub.approval, &ctx) {
        Ok(a) => a,
        Err(r) => return reject(state, journey, resolved, r, Some(attempt)),
    };
    match &answer {
        Answer::Choice(c) if c == PAUSE_LABEL => {
            let r = Rejection::free(
                ErrorCode::FlowBoundaryPaused,
                format!(
                    "The run is paused at '{}' so the context can be compacted.",
                    row.title
                ),
                format!(
                    "Write the CHECKPOINT with `aw checkpoint-write`, compact the context, then run \
                     `{}` to pick this same boundary up again.",
                    advance_command(&folder)
                ),
            );
            return reject(state, journey, resolved, r, None);
        }
        Answer::Choice(c) if c == STOP_LABEL => {
            let r = Rejection::free(
                ErrorCode::FlowBoundaryDeclined,
                format!("The run was stopped at '{}'.", row.title),
                format!(
                    "Nothing was applied: the state and the boundary stay as they are. Run `{}` when \
                     the work should go on.",
                    advance_command(&folder)
                ),
            )
            .with_outcome(Outcome::Cancelled);
            return reject(state, journey, resolved, r, None);
        }
        Answer::Execution(result) => {
            let declared = effects_of_transition(row, &state);
            let refused = resolved.emitted.as_ref().and_then(|a| {
                verdict(result, &declared, a, &|r| {
                    super::facts::check_proof(r, a, sub.facts)
                })
                .and_then(|()| plan_evidence::check(result, a, &sub.facts.evidence, &folder))
                .err()
            });
            if let Some(r) = refused {
                let trace = external_failure(row, &resolved, result, &r);
                return reject_traced(state, journey, resolved, r, Some(attempt), trace);
            }
        }
        _ => {}
    }
    let mut state = state;
    if let Answer::Semantic {
        artifacts,
        decisions,
        ..
    } = &answer
    {
        if row.scopes_sources {
            match super::facts::check_scope(decisions, sub.facts) {
                Ok(scope) => state.scope = Some(scope),
                Err(r) => return reject(state, journey, resolved, r, Some(attempt)),
            }
        }
        if !artifacts.is_empty() {
            match proposal::seal_from(row, artifacts, &sub.facts.proposal, &state.session) {
                Ok(p) => state.proposal = Some(p),
                Err(r) => return reject(state, journey, resolved, r, Some(attempt)),
            }
        }
    }
    grant(&mut state, journey, &resolved, &answer);
    apply(state, journey, resolved, answer, attempt)
}

/// The `failed` event a refused external result leaves when it said it changed something (any
/// applied class but `read_only`), or when its verdict is a partial effect.
fn external_failure(
    row: &Decision,
    resolved: &Resolved<'_>,
    result: &ExecResult,
    r: &Rejection,
) -> Option<serde_json::Value> {
    let material = result.applied.iter().any(|c| *c != EffectClass::ReadOnly)
        || r.code == ErrorCode::FlowEffectPartial;
    let action = resolved.emitted.as_ref()?;
    material.then(|| {
        event::failed(
            &row.id,
            &action.invocation.command_line(),
            r.code.as_str(),
            &r.message,
            &action.recovery,
            &result.applied,
        )
    })
}

/// Records the grant an accepted answer gives (flow-spec-v22 §7): the approval of a seated
/// proposal, the approval another row's effects wait on, or an authorization boundary's. Any
/// other choice at a row that decides a proposal unseats it.
fn grant(state: &mut RunState, journey: &Journey<'_>, resolved: &Resolved<'_>, answer: &Answer) {
    let Some(row) = resolved.stopped else {
        return;
    };
    match answer {
        Answer::Approved => {
            if let Some(a) = &resolved.authorization {
                state.approve(Grant {
                    digest: a.seal.clone(),
                    destinations: Vec::new(),
                    classes: a.planned.clone(),
                });
            }
        }
        Answer::Choice(choice) => {
            if let Some(p) = &row.publishes
                && let Some(seated) = &state.proposal
            {
                if *choice == p.approve {
                    let requires = seated
                        .get("requires_approval")
                        .and_then(serde_json::Value::as_array)
                        .map(|l| {
                            l.iter()
                                .filter_map(|c| c.as_str().and_then(EffectClass::parse))
                                .collect()
                        })
                        .unwrap_or_default();
                    let g = Grant {
                        digest: seated
                            .get("digest")
                            .and_then(serde_json::Value::as_str)
                            .unwrap_or_default()
                            .to_owned(),
                        destinations: proposal::destinations_of(seated),
                        classes: requires,
                    };
                    state.approve(g);
                } else {
                    state.proposal = None;
                }
            }
            if let Some(a) = &row.authorizes
                && *choice == a.approve
                && let Some(target) = journey.find(&a.transition)
            {
                let classes = target.effects();
                state.approve(Grant {
                    digest: super::effects::approval_digest(&target.id, &classes),
                    destinations: Vec::new(),
                    classes,
                });
            }
        }
        _ => {}
    }
}

fn apply(
    mut state: RunState,
    journey: &Journey<'_>,
    resolved: Resolved<'_>,
    answer: Answer,
    attempt: Attempt,
) -> FlowResult<Turn> {
    let Some(row) = resolved.stopped else {
        return advance_run(state, journey, Vec::new());
    };
    if resolved.kind == BoundaryKind::Authorization && (row.action.is_some() || !row.owned()) {
        // Approval never applies a delegated step: the same transition now resolves to its
        // execution boundary.
        state.attempts.push(attempt);
        return advance_run(state, journey, Vec::new());
    }
    if let Answer::Semantic { signals, .. } = &answer
        && !signals.is_empty()
    {
        state.observe(&row.id, signals.clone());
    }
    let effects = effects_of_transition(row, &state);
    state.apply_transition(&row.id, &effects);
    if resolved.kind == BoundaryKind::Execution && concerns_proposal(row) {
        // A publication answered as an external result clears the proposal like one run here.
        state.proposal = None;
    }
    state.attempts.push(attempt);
    state.boundary = journey.at(state.cursor()).map(|d| d.id.to_string());
    advance_run(state, journey, vec![Step::applied(row)])
}

/// Builds the directive of a refusal: the attempt recorded when spent, the boundary
/// re-resolved then (so the third refusal turns into the exhaustion), nothing else changed.
fn reject<'a>(
    state: RunState,
    journey: &Journey<'a>,
    resolved: Resolved<'a>,
    rejection: Rejection,
    attempt: Option<Attempt>,
) -> FlowResult<Turn> {
    reject_traced(state, journey, resolved, rejection, attempt, None)
}

/// [`reject`], recording `trace` (unless it restates the last event).
pub fn reject_traced<'a>(
    mut state: RunState,
    journey: &Journey<'a>,
    resolved: Resolved<'a>,
    rejection: Rejection,
    attempt: Option<Attempt>,
    trace: Option<serde_json::Value>,
) -> FlowResult<Turn> {
    let before = state.events.len();
    if let Some(e) = trace {
        state.record_event(e);
    }
    let traced = state.events.len() != before;
    let spent = rejection.spent && attempt.is_some();
    let now = match attempt {
        Some(a) if rejection.spent => {
            state.attempts.push(a);
            resolve(&state, journey)
        }
        _ if traced => resolve(&state, journey),
        _ => resolved,
    };
    let action = now
        .blocked
        .as_ref()
        .map_or(rejection.action.clone(), |e| e.action.clone());
    let overrides = Overrides {
        outcome: rejection.outcome,
        next_action: Some(format!("{} — {action}", rejection.message)),
        error: Some(super::error::FlowError {
            code: rejection.code,
            message: rejection.message,
            action: rejection.action,
        }),
    };
    let directive = directive_for(&state, &now, Vec::new(), overrides)?;
    Ok(Turn {
        state,
        directive,
        write: spent || traced,
    })
}
