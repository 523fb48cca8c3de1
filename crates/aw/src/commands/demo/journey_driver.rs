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
use aw_core::flow::facts::Facts;
use aw_core::flow::proof::SOURCE_BOUNDED_EVIDENCE;
use aw_core::flow::registry::Invocation;
use aw_core::flow::run::{Turn, advance, starting_state};
use aw_core::flow::submit::{Submission, submit};
use aw_core::flow::{BoundaryKind, Directive, Flow, FlowError, Journey, RunState};
use aw_workspace::flow::{internal, observe, store};
use aw_workspace::locate::Workspace;
use serde::Serialize;
use std::fmt::Write;

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
/// `plan` is the plan a `plan-exec` run's scope names.
pub fn drive(
    ws: &Workspace,
    folder: &str,
    flow: Flow,
    plan: Option<&str>,
    cx: &Ctx<'_>,
) -> Result<Vec<DemoStep>, Failure> {
    let journey = Journey::builtin(flow).map_err(flow_failure)?;
    let mut directive = turn(ws, folder, cx, true, |stored, folder| {
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
        let (raw, approval) = scripted_answer(&directive, ws, cx, plan)?;
        directive = turn(ws, folder, cx, false, |stored, _| {
            let state = stored.ok_or_else(|| {
                FlowError::new(
                    ErrorCode::FlowRunAbsent,
                    "The run vanished.",
                    "Run the demo again.",
                )
            })?;
            // The demo runs where git may be missing: its proofs are checked for their shape
            // only, as a library caller's are.
            let facts = Facts {
                checkouts: None,
                ..observe::gather(ws, &raw)
            };
            submit(
                state,
                &journey,
                Submission {
                    raw: &raw,
                    approval: approval.as_deref(),
                    facts: &facts,
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
        // Writing into a `String` cannot fail.
        let _ = writeln!(
            out,
            "{:>2}. {} {}\n    next: {}",
            i + 1,
            s.kind,
            s.transition,
            s.next_action
        );
    }
    out
}

fn flow_failure(e: FlowError) -> Failure {
    Failure::new(e.code, e.message, e.action)
}

/// One engine step on the session's run, exactly as `aw flow` takes it: the verb's turn, then
/// the internal actions the run stands on (only after an answer that was not refused).
/// `adopting` is the first turn's, as `advance --adopt` (the custody records the adoption).
fn turn(
    ws: &Workspace,
    folder: &str,
    cx: &Ctx<'_>,
    adopting: bool,
    f: impl FnOnce(Option<RunState>, &str) -> Result<Turn, FlowError>,
) -> Result<Directive, Failure> {
    let today = cx.now.today();
    let t = store::drive(ws, Some(folder), None, adopting, &today, f)?;
    if t.directive.error.is_some() {
        return Ok(t.directive);
    }
    Ok(internal::drive(ws, folder, t, &cx.now, cx.home().as_deref())?.directive)
}

/// A scripted answer, as `aw flow submit` reads it on stdin: the seal, then what the boundary
/// asks for.
#[derive(Debug, Default, Serialize)]
struct Answer<'a> {
    /// The directive's `state_digest`.
    input_digest: &'a str,
    /// The size signals observed (the `quick` entry gate).
    #[serde(skip_serializing_if = "Option::is_none")]
    signals: Option<Vec<&'a String>>,
    /// A semantic boundary's judgment.
    #[serde(skip_serializing_if = "Option::is_none")]
    decisions: Option<Decisions<'a>>,
    /// A human boundary's choice (`null` when none is recommended).
    #[serde(skip_serializing_if = "Option::is_none")]
    choice: Option<Option<String>>,
    /// An execution's outcome.
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<&'static str>,
    /// The command run.
    #[serde(skip_serializing_if = "Option::is_none")]
    invocation: Option<&'a Invocation>,
    /// Each evidence the boundary asks for.
    #[serde(skip_serializing_if = "Option::is_none")]
    validations: Option<Vec<Validation<'a>>>,
    /// The effects applied.
    #[serde(skip_serializing_if = "Option::is_none")]
    effects: Option<Applied<'a>>,
}

/// The demo's judgment at a semantic boundary.
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum Decisions<'a> {
    /// Any judgment: always the same sentence.
    Judged {
        /// The sentence.
        demo: &'static str,
    },
    /// The scope of a plan-exec run: the plan and its one source, the workspace.
    Scope {
        /// `["workspace"]`.
        sources: [&'static str; 1],
        /// The plan's path.
        plan: &'a str,
    },
}

/// A checkout proof, checked for its shape only in the demo.
#[derive(Debug, Serialize)]
struct Proof<'a> {
    /// `command`.
    kind: &'static str,
    /// `workspace`.
    source: &'static str,
    /// `.`.
    relative_cwd: &'static str,
    /// A stand-in: the demo has no live checkout to digest.
    checkout_digest: &'static str,
    /// The command run.
    invocation: ProofCommand<'a>,
}

/// The command a proof names.
#[derive(Debug, Serialize)]
struct ProofCommand<'a> {
    /// `aw`.
    program: &'a str,
    /// Its arguments.
    args: &'a [aw_core::flow::registry::Text],
}

/// One evidence of an execution.
#[derive(Debug, Serialize)]
struct Validation<'a> {
    /// Its id.
    id: &'a str,
    /// Whether the command succeeded.
    passed: bool,
    /// The command's first line.
    detail: &'a str,
    /// The checkout proof, for the evidence that asks for one.
    #[serde(skip_serializing_if = "Option::is_none")]
    proof: Option<Proof<'a>>,
}

/// The effects an execution applied.
#[derive(Debug, Serialize)]
struct Applied<'a> {
    /// Their names.
    applied: Vec<&'a str>,
}

/// An answer as the compact JSON text `aw flow submit` reads.
fn text(answer: &Answer<'_>) -> String {
    serde_json::to_string(answer).unwrap_or_default()
}

/// The scripted answer to a directive: (stdin text, --approval).
fn scripted_answer(
    d: &Directive,
    ws: &Workspace,
    cx: &Ctx<'_>,
    plan: Option<&str>,
) -> Result<(String, Option<String>), Failure> {
    let seal = Answer {
        input_digest: &d.state_digest,
        ..Answer::default()
    };
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
                text(&Answer {
                    signals: Some(signals),
                    ..seal
                })
            } else if transition == "plan-exec.source-scope" {
                text(&Answer {
                    decisions: Some(Decisions::Scope {
                        sources: ["workspace"],
                        plan: plan.unwrap_or_default(),
                    }),
                    ..seal
                })
            } else {
                text(&Answer {
                    decisions: Some(Decisions::Judged {
                        demo: "judged by the script",
                    }),
                    ..seal
                })
            }
        }
        BoundaryKind::Human => {
            let label = d
                .choices
                .iter()
                .find(|c| c.recommended)
                .map(|c| c.label.to_string());
            text(&Answer {
                choice: Some(label),
                ..seal
            })
        }
        BoundaryKind::Authorization => {
            // The digest the next action quotes: the seal the approval is given over.
            let digest = d
                .next_action
                .split("--approval ")
                .nth(1)
                .and_then(|rest| rest.get(..64))
                .map(str::to_owned);
            return Ok((text(&seal), digest));
        }
        BoundaryKind::Execution => {
            let action = d.action.as_ref().ok_or_else(|| {
                Failure::new(
                    ErrorCode::Internal,
                    "An execution boundary without its action.",
                    "Report it.",
                )
            })?;
            let args: Vec<&str> = action.invocation.args.iter().map(|a| a.as_ref()).collect();
            let ran = step::run(&ws.root, &args, Format::Json, cx)?;
            let ok = ran.exit == 0;
            let output = match &ran.body {
                Body::Text(t) | Body::JsonText(t) => t.clone(),
                // Never here: `step::run` holds every body in memory.
                Body::JsonModel(_) => String::new(),
            };
            let first = output
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("")
                .trim();
            let detail = if ok {
                format!("it ran: {first}")
            } else {
                format!("it failed: {first}")
            };
            let applied: Vec<&str> = d.effects.planned.iter().map(|c| c.as_str()).collect();
            text(&Answer {
                outcome: Some(if ok { "completed" } else { "failed" }),
                invocation: Some(&action.invocation),
                validations: Some(
                    action
                        .evidence
                        .iter()
                        .map(|id| Validation {
                            id,
                            passed: ok,
                            detail: &detail,
                            proof: (id == SOURCE_BOUNDED_EVIDENCE).then_some(Proof {
                                kind: "command",
                                source: "workspace",
                                relative_cwd: ".",
                                checkout_digest: "checked for its shape only by the demo",
                                invocation: ProofCommand {
                                    program: &action.invocation.program,
                                    args: &action.invocation.args,
                                },
                            }),
                        })
                        .collect(),
                ),
                effects: Some(Applied { applied }),
                ..seal
            })
        }
        BoundaryKind::Blocked | BoundaryKind::Final => text(&seal),
    };
    Ok((answer, None))
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
