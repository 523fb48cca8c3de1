//! Internal actions (flow-spec-v22 §9): the execution rows aw runs itself, in-process, instead
//! of handing them to the agent. The shell runs the operation; here is what is pure — which
//! operation the run stands on, the mark that it began, and the judgment of what came back, with
//! the same verdict an agent's result faces.

use super::answer::Rejection;
use super::boundary::{Resolved, resolve};
use super::directive::{Overrides, Step, directive_for};
use super::error::FlowResult;
use super::journey::Journey;
use super::proposal::PUBLISH_OPERATION;
use super::registry::{Action, Decision, Execution, Text};
use super::run::Turn;
use super::state::{Attempt, RunState, event};
use super::submit::effects_of_transition;
use super::verdict::{ExecResult, Validation, verdict};
use super::walk::advance_run;
use crate::canonical::semantic_digest;
use crate::vocab::flow::{EffectClass, Outcome};
use serde_json::json;

/// The most internal steps one invocation runs before it hands the run back.
pub const MAX_INTERNAL_STEPS: usize = 64;

/// What an operation did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpOutcome {
    /// Whether it succeeded.
    pub ok: bool,
    /// One line saying what it did, or why it refused.
    pub summary: String,
    /// Its output (canonical JSON text, or empty).
    pub output: String,
    /// The classes it exercised.
    pub effects: Vec<EffectClass>,
}

impl OpOutcome {
    /// A refusal of `operation`, exercising nothing.
    pub fn refused(operation: &str, why: impl AsRef<str>, output: String) -> OpOutcome {
        OpOutcome {
            ok: false,
            summary: format!("{operation}: {}", why.as_ref()),
            output,
            effects: Vec::new(),
        }
    }
}

/// The internal operation the run stands on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pending {
    /// The row.
    pub transition: String,
    /// The operation.
    pub operation: String,
    /// The session files it reads (a `session.artifacts` dump), if any.
    pub dump: Option<Vec<String>>,
}

fn internal_of(row: &Decision) -> Option<(&Action, &Text, Option<&[Text]>)> {
    let a = row.action.as_ref()?;
    match &a.execution {
        Some(Execution::Internal { operation, dump }) => Some((a, operation, dump.as_deref())),
        _ => None,
    }
}

/// The internal operation the run's boundary is, when it is one (and may be run: a
/// non-idempotent action already begun is never run again by itself).
pub fn pending(state: &RunState, journey: &Journey<'_>) -> Option<Pending> {
    let resolved = resolve(state, journey);
    if resolved.kind != crate::vocab::flow::BoundaryKind::Execution {
        return None;
    }
    let row = resolved.stopped?;
    let (action, operation, dump) = internal_of(row)?;
    if state.pending_action.as_ref().is_some_and(|p| p.attempted) && !action.idempotent {
        return None;
    }
    Some(Pending {
        transition: row.id.to_string(),
        operation: operation.to_string(),
        dump: dump.map(|d| d.iter().map(|k| k.to_string()).collect()),
    })
}

/// Marks the pending action as begun, before anything is run: a crash after this mark is
/// re-entered by running it again.
pub fn mark_attempted(state: &mut RunState) {
    if let Some(p) = &mut state.pending_action {
        p.attempted = true;
    }
}

/// Whether a directive stands on an internal step (read off what it already resolved).
pub fn stands_on_one(d: &super::directive::Directive) -> bool {
    d.boundary.kind == crate::vocab::flow::BoundaryKind::Execution
        && d.action
            .as_ref()
            .is_some_and(|a| matches!(a.execution, Some(Execution::Internal { .. })))
}

/// For a caller that runs internal steps right after writing `turn`: when the run stands on
/// one, marks it begun in the same write (one write fewer than marking it apart; the mark is on
/// disk before anything runs all the same). The turn's directive is then stale, and is never
/// shown: the step's settlement replaces it.
pub fn begin(turn: &mut Turn, journey: &Journey<'_>) {
    if stands_on_one(&turn.directive) && pending(&turn.state, journey).is_some() {
        mark_attempted(&mut turn.state);
    }
}

/// The attempt a failed internal run records: numbered under the boundary's seal, its digest
/// over the failure and its ordinal (two retries of one broken action are two attempts).
fn failed_attempt(
    state: &RunState,
    row: &Decision,
    seal: &str,
    code: &str,
    message: &str,
) -> Attempt {
    let prior: Vec<&Attempt> = state
        .attempts
        .iter()
        .filter(|a| a.invocation_id == seal)
        .collect();
    let attempt = prior.len() as i64 + 1;
    Attempt {
        invocation_id: seal.to_owned(),
        attempt,
        request_digest: semantic_digest(&json!({
            "execution_failure": {"transition": row.id, "code": code, "message": message},
            "attempt": attempt,
        })),
        parent_request_digest: prior
            .iter()
            .find(|a| a.attempt == attempt - 1)
            .map(|a| a.request_digest.clone()),
        transition: row.id.to_string(),
    }
}

/// Judges what the operation came back with, as an agent's result is judged (every evidence id
/// passed when it succeeded, its output as the detail; the classes it reported as applied), and
/// moves the run: on success the step is applied with an `executed` event and the walk goes on;
/// on refusal a `failed` event and one attempt are recorded, and the directive says why.
pub fn settle(mut state: RunState, journey: &Journey<'_>, outcome: &OpOutcome) -> FlowResult<Turn> {
    let resolved: Resolved<'_> = resolve(&state, journey);
    let (Some(row), Some(action)) = (resolved.stopped, resolved.emitted.clone()) else {
        return advance_run(state, journey, Vec::new());
    };
    let Some((_, operation, _)) = internal_of(row) else {
        return advance_run(state, journey, Vec::new());
    };
    let operation = operation.to_string();
    let declared = effects_of_transition(row, &state);
    let result = ExecResult {
        outcome: Outcome::Completed,
        validations: action
            .evidence
            .iter()
            .map(|id| Validation {
                id: id.to_string(),
                passed: outcome.ok,
                detail: Some(if outcome.ok {
                    outcome.output.clone()
                } else {
                    outcome.summary.clone()
                }),
                proof: None,
            })
            .collect(),
        applied: outcome.effects.clone(),
        partial: false,
    };
    if let Err(r) = verdict(&result, &declared, &action, &|_| Ok(())) {
        return refuse(state, journey, row, &resolved.seal, &operation, outcome, r);
    }
    state.record_event(event::executed(
        &row.id,
        &operation,
        &outcome.summary,
        &semantic_digest(&json!({ "output": outcome.output })),
        &outcome.effects,
        &action
            .evidence
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>(),
    ));
    state.apply_transition(&row.id, &declared);
    if operation == PUBLISH_OPERATION {
        state.proposal = None;
    }
    state.pending_action = None;
    state.boundary = journey.at(state.cursor()).map(|d| d.id.to_string());
    advance_run(state, journey, vec![Step::applied(row)])
}

fn refuse(
    mut state: RunState,
    journey: &Journey<'_>,
    row: &Decision,
    seal: &str,
    operation: &str,
    outcome: &OpOutcome,
    r: Rejection,
) -> FlowResult<Turn> {
    state.record_event(event::failed(
        &row.id,
        operation,
        r.code.as_str(),
        &outcome.summary,
        &r.action,
        &outcome.effects,
    ));
    let attempt = failed_attempt(&state, row, seal, r.code.as_str(), &outcome.summary);
    state.attempts.push(attempt);
    let now = resolve(&state, journey);
    let error = now
        .blocked
        .clone()
        .unwrap_or_else(|| super::error::FlowError {
            code: r.code,
            message: format!("{}: {}", r.message.trim_end_matches('.'), outcome.summary),
            action: r.action.clone(),
        });
    let action = now
        .blocked
        .as_ref()
        .map_or(r.action.clone(), |b| b.action.clone());
    let overrides = Overrides {
        outcome: r.outcome,
        next_action: Some(format!("{} — {action}", outcome.summary)),
        error: Some(error),
    };
    let directive = directive_for(&state, &now, Vec::new(), overrides)?;
    Ok(Turn {
        state,
        directive,
        write: true,
    })
}

/// Whether a session descriptor's success criteria hold at least one written criterion: a
/// checkbox line with text under `## Success criteria` (or the Spanish heading). The empty
/// `- [ ]` the template seeds is not a criterion anybody could check.
pub fn has_written_criteria(descriptor: &str) -> bool {
    let Some(section) =
        crate::markdown::section(descriptor, &["success criteria", "criterios de aceptacion"])
    else {
        return false;
    };
    section.lines().any(|line| {
        let t = line.trim_start_matches([' ', '\t']);
        let Some(rest) = t.strip_prefix(['-', '*']) else {
            return false;
        };
        let rest = rest.trim_start_matches([' ', '\t']);
        if rest.len() == t.len() - 1 {
            // No blank after the bullet.
            return false;
        }
        let Some(rest) = rest.strip_prefix('[') else {
            return false;
        };
        let rest = rest.strip_prefix(['x', 'X', ' ']).unwrap_or(rest);
        rest.strip_prefix(']')
            .is_some_and(|r| !r.trim_start_matches([' ', '\t']).trim().is_empty())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_criterion_with_text_counts() {
        let with = |body: &str| format!("# S\n\n## Success criteria\n\n{body}\n\n## Next\n");
        assert!(!has_written_criteria(&with("- [ ]")));
        assert!(!has_written_criteria(&with("- [ ]   ")));
        assert!(has_written_criteria(&with("- [ ] the test passes")));
        assert!(has_written_criteria(&with("* [x] done")));
        assert!(has_written_criteria(&with("  - [] compact")));
        assert!(!has_written_criteria(&with(
            "-[ ] no blank after the bullet"
        )));
        assert!(!has_written_criteria("# S\n\n- [ ] outside the section\n"));
        assert!(has_written_criteria(
            "# S\n\n## Criterios de aceptación\n\n- [ ] pasa la prueba\n"
        ));
    }
}
