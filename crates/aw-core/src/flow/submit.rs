//! The `submit` verb as a pure function (§10): resend and drift checks, answer admission, the
//! execution verdict, and applying (or holding) exactly the boundary's transition.
//!
//! Refusals come back as a directive with `error` set. A refusal that reached answer validation
//! records an attempt (and is written); pauses, declines, resends and drift record nothing.

use super::answer::{Answer, Context, Rejection, parse_answer};
use super::attempts::{identity, replay};
use super::boundary::{Resolved, action_digest, resolve};
use super::choices::boundary_choices;
use super::directive::{Overrides, Step, directive_for};
use super::error::FlowResult;
use super::journey::Journey;
use super::next_action::advance_command;
use super::plan_evidence::{self, EvidenceFacts};
use super::run::Turn;
use super::state::{Attempt, RunState};
use super::verdict::verdict;
use super::walk::advance_run;
use crate::error_code::ErrorCode;
use crate::vocab::flow::{BoundaryKind, Outcome, PAUSE_LABEL, STOP_LABEL};

/// What `submit` received.
#[derive(Debug, Clone, Copy)]
pub struct Submission<'a> {
    /// The stdin text, decoded (a leading BOM dropped, invalid UTF-8 replaced).
    pub raw: &'a str,
    /// `--approval`, if given.
    pub approval: Option<&'a str>,
    /// What the shell found on disk at the plan paths the answer names
    /// ([`plan_evidence::requested`]); the evidence aw checks itself is judged against it.
    pub evidence: &'a EvidenceFacts,
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
            let refused = resolved.emitted.as_ref().and_then(|a| {
                verdict(result, row, a)
                    .and_then(|()| plan_evidence::check(result, a, sub.evidence, &folder))
                    .err()
            });
            if let Some(r) = refused {
                return reject(state, journey, resolved, r, Some(attempt));
            }
        }
        _ => {}
    }
    apply(state, journey, resolved, answer, attempt)
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
    if resolved.kind == BoundaryKind::Authorization {
        if let Some(a) = &resolved.authorization {
            state.approve(&a.planned);
        }
        if row.action.is_some() || !row.owned() {
            // Approval never applies a delegated step: the same transition now resolves to its
            // execution boundary.
            state.attempts.push(attempt);
            return advance_run(state, journey, Vec::new());
        }
    }
    if let Answer::Semantic { signals } = answer
        && !signals.is_empty()
    {
        state.observe(&row.id, signals);
    }
    state.apply_transition(&row.id, &row.effects());
    state.attempts.push(attempt);
    state.boundary = journey.at(state.cursor()).map(|d| d.id.to_string());
    advance_run(state, journey, vec![Step::applied(row)])
}

/// Builds the directive of a refusal: the attempt recorded when spent, the boundary
/// re-resolved then (so the third refusal turns into the exhaustion), nothing else changed.
fn reject<'a>(
    mut state: RunState,
    journey: &Journey<'a>,
    resolved: Resolved<'a>,
    rejection: Rejection,
    attempt: Option<Attempt>,
) -> FlowResult<Turn> {
    let spent = rejection.spent && attempt.is_some();
    let now = match attempt {
        Some(a) if rejection.spent => {
            state.attempts.push(a);
            resolve(&state, journey)
        }
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
    let directive = directive_for(&state, journey, &now, Vec::new(), overrides)?;
    Ok(Turn {
        state,
        directive,
        write: spent,
    })
}
