//! A scripted flow journey for `aw demo`: adopts a session of the example workspace, answers
//! every boundary with a scripted answer (a judgment at semantic boundaries, the recommended
//! choice at human ones, the quoted approval at authorization ones) and, at execution
//! boundaries, really runs the named `aw` command and reports its output as the evidence — until
//! the run is final. Each step records the boundary met and its next action.
//!
//! `aw demo` calls [`drive`] on its example workspace (a `quick` and a `plan-exec` journey) and
//! prints [`render_steps`].

use super::step;
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Body, Format};
use aw_core::error_code::ErrorCode;
use aw_core::flow::effects::approval_digest;
use aw_core::flow::run::{Turn, advance, starting_state};
use aw_core::flow::submit::{Submission, submit};
use aw_core::flow::{BoundaryKind, Directive, Flow, FlowError, Journey, RunState};
use aw_workspace::flow::{plan_evidence, store};
use aw_workspace::locate::Workspace;
use serde_json::{Value, json};

/// One boundary met by the scripted journey.
#[derive(Debug, Clone)]
pub struct DemoStep {
    /// The boundary kind.
    pub kind: String,
    /// The transition (empty when final).
    pub transition: String,
    /// The directive's next action.
    pub next_action: String,
}

/// Drives the `flow` journey of session `folder` from adoption to `final`.
pub fn drive(
    ws: &Workspace,
    folder: &str,
    flow: Flow,
    cx: &Ctx<'_>,
) -> Result<Vec<DemoStep>, Failure> {
    let journey = Journey::builtin(flow).map_err(flow_failure)?;
    let mut directive = turn(ws, folder, |stored, folder| {
        let state = starting_state(stored, folder, true, Some(flow.as_str()))?;
        advance(state, &journey)
    })?;
    let mut steps = Vec::new();
    for _ in 0..60 {
        steps.push(DemoStep {
            kind: directive.boundary.kind.as_str().to_owned(),
            transition: directive.boundary.transition.clone().unwrap_or_default(),
            next_action: directive.next_action.clone(),
        });
        if directive.boundary.kind == BoundaryKind::Final {
            return Ok(steps);
        }
        let (raw, approval) = scripted_answer(&directive, &journey, ws, cx)?;
        directive = turn(ws, folder, |stored, _| {
            let state = stored.ok_or_else(|| {
                FlowError::new(
                    ErrorCode::FlowRunAbsent,
                    "The run vanished.",
                    "Run the demo again.",
                )
            })?;
            submit(
                state,
                &journey,
                Submission {
                    raw: &raw,
                    approval: approval.as_deref(),
                    evidence: &plan_evidence::gather(ws, &raw),
                },
            )
        })?;
        if let Some(e) = &directive.error {
            return Err(Failure::new(
                ErrorCode::Internal,
                format!("The scripted answer was refused: {} {}", e.code, e.message),
                "This is a bug in the demo script; please report it.",
            ));
        }
    }
    Err(Failure::new(
        ErrorCode::Internal,
        "The scripted journey did not finish.",
        "This is a bug in the demo script; please report it.",
    ))
}

/// The steps as text: one line per boundary, then its next action indented.
pub fn render_steps(steps: &[DemoStep]) -> String {
    let mut out = String::new();
    for (i, s) in steps.iter().enumerate() {
        out.push_str(&format!("{:>2}. {} {}\n", i + 1, s.kind, s.transition));
        out.push_str(&format!("    next: {}\n", s.next_action));
    }
    out
}

fn flow_failure(e: FlowError) -> Failure {
    Failure::new(e.code, e.message, e.action)
}

/// One engine step on the session's run, exactly as `aw flow` takes it.
fn turn(
    ws: &Workspace,
    folder: &str,
    f: impl FnOnce(Option<RunState>, &str) -> Result<Turn, FlowError>,
) -> Result<Directive, Failure> {
    Ok(store::drive(ws, Some(folder), None, false, f)?.directive)
}

/// The scripted answer to a directive: (stdin text, --approval).
fn scripted_answer(
    d: &Directive,
    journey: &Journey<'_>,
    ws: &Workspace,
    cx: &Ctx<'_>,
) -> Result<(String, Option<String>), Failure> {
    let seal = &d.state_digest;
    let transition = d.boundary.transition.clone().unwrap_or_default();
    let answer = match d.boundary.kind {
        BoundaryKind::Semantic => {
            // One size signal at the entry gate: below the threshold, so the task stays quick.
            let signals: Vec<&String> = d
                .request
                .as_ref()
                .map(|r| r.inventory.signals.iter().take(1).collect())
                .unwrap_or_default();
            if transition == "quick.entry-gate-signal" {
                json!({"input_digest": seal, "signals": signals})
            } else {
                json!({"input_digest": seal, "decisions": {"demo": "judged by the script"}})
            }
        }
        BoundaryKind::Human => {
            let label = d
                .choices
                .iter()
                .find(|c| c.recommended)
                .map(|c| c.label.clone());
            json!({"input_digest": seal, "choice": label})
        }
        BoundaryKind::Authorization => {
            let row = journey.find(&transition);
            let digest = row.map(|r| approval_digest(&r.id, &r.effects()));
            return Ok((json!({"input_digest": seal}).to_string(), digest));
        }
        BoundaryKind::Execution => {
            let action = d.action.as_ref().ok_or_else(|| {
                Failure::new(
                    ErrorCode::Internal,
                    "An execution boundary without its action.",
                    "Report it.",
                )
            })?;
            let args: Vec<&str> = action.invocation.args.iter().map(String::as_str).collect();
            let ran = step::run(&ws.root, &args, Format::Json, cx)?;
            let ok = ran.exit == 0;
            let text = match &ran.body {
                Body::Text(t) | Body::JsonText(t) => t.clone(),
                // Never here: `step::run` holds every body in memory.
                Body::JsonModel(_) => String::new(),
            };
            let first = text
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("")
                .trim();
            let detail = if ok {
                format!("it ran: {first}")
            } else {
                format!("it failed: {first}")
            };
            let validations: Vec<Value> = action
                .evidence
                .iter()
                .map(|id| json!({"id": id, "passed": ok, "detail": detail}))
                .collect();
            let applied: Vec<&str> = journey
                .find(&transition)
                .map(|r| r.effects().iter().map(|c| c.as_str()).collect())
                .unwrap_or_default();
            json!({
                "input_digest": seal,
                "outcome": if ok { "completed" } else { "failed" },
                "invocation": action.invocation,
                "validations": validations,
                "effects": {"applied": applied},
            })
        }
        BoundaryKind::Blocked | BoundaryKind::Final => json!({"input_digest": seal}),
    };
    Ok((answer.to_string(), None))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_render_as_numbered_boundaries_with_their_next_action() {
        let steps = [
            DemoStep {
                kind: "semantic".into(),
                transition: "quick.entry-gate-signal".into(),
                next_action: "answer it".into(),
            },
            DemoStep {
                kind: "final".into(),
                transition: String::new(),
                next_action: "nothing left".into(),
            },
        ];
        assert_eq!(
            render_steps(&steps),
            " 1. semantic quick.entry-gate-signal\n    next: answer it\n 2. final \n    next: nothing left\n"
        );
    }
}
