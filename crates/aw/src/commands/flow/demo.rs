//! A scripted `quick` journey for `aw demo`: adopts a session of the example workspace, answers
//! every boundary with a scripted answer (a judgment at semantic boundaries, the recommended
//! choice at human ones, the quoted approval at authorization ones) and, at execution
//! boundaries, really runs the named `aw` command and reports its output as the evidence — until
//! the run is final. Each step records the boundary met and its next action.
//!
//! `aw demo` calls [`drive_quick`] on its example workspace and prints [`render_steps`].

use crate::failure::Failure;
use aw_core::flow::effects::approval_digest;
use aw_core::flow::run::{Turn, advance, starting_state};
use aw_core::flow::submit::{Submission, submit};
use aw_core::flow::{BoundaryKind, Directive, Flow, Journey};
use aw_workspace::flow_store;
use aw_workspace::locate::Workspace;
use aw_workspace::lock::{WorkspaceLock, default_wait};
use serde_json::{Value, json};
use std::path::Path;

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

/// Drives the `quick` journey of session `folder` from adoption to `final`.
pub fn drive_quick(ws: &Workspace, folder: &str) -> Result<Vec<DemoStep>, Failure> {
    let journey = Journey::builtin(Flow::Quick).map_err(flow_failure)?;
    let session = ws.sessions_dir().join(folder);
    let mut directive = step(ws, &session, folder, |stored| {
        let state = starting_state(stored, folder, true, Some("quick"))?;
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
        let (raw, approval) = scripted_answer(&directive, &journey, ws)?;
        directive = step(ws, &session, folder, |stored| {
            let state = stored.ok_or_else(|| {
                aw_core::flow::FlowError::new(
                    "FLOW_RUN_ABSENT",
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
                },
            )
        })?;
        if let Some(e) = &directive.error {
            return Err(Failure::new(
                "INTERNAL",
                format!("The scripted answer was refused: {} {}", e.code, e.message),
                "This is a bug in the demo script; please report it.",
            ));
        }
    }
    Err(Failure::new(
        "INTERNAL",
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

/// Runs an `aw` command in-process against the workspace at `root` (no new process, no
/// printing): whether it succeeded, and its JSON or text output.
fn run_aw(root: &Path, ns: &str, args: &[String]) -> (bool, String) {
    use clap::{CommandFactory, FromArgMatches};
    let argv = [
        "aw".to_owned(),
        "--workspace".to_owned(),
        root.to_string_lossy().into_owned(),
    ]
    .into_iter()
    .chain(["--namespace".to_owned(), ns.to_owned()])
    .chain(["--format".to_owned(), "json".to_owned()])
    .chain(args.iter().cloned());
    let parsed = crate::cli::Cli::command()
        .try_get_matches_from(argv)
        .and_then(|m| crate::cli::Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(c) => c,
        Err(e) => return (false, e.to_string()),
    };
    match crate::commands::dispatch(&cli.command, &cli.global) {
        Ok(outcome) => {
            let text = match outcome.body {
                crate::output::Body::Json(v) => crate::output::pretty(&v),
                crate::output::Body::Text(t) => t,
            };
            (outcome.exit == 0, text)
        }
        Err(f) => (false, crate::output::pretty(&f.envelope())),
    }
}

fn flow_failure(e: aw_core::flow::FlowError) -> Failure {
    Failure::new(e.code, e.message, e.action)
}

fn step(
    ws: &Workspace,
    session: &Path,
    folder: &str,
    f: impl FnOnce(Option<aw_core::flow::RunState>) -> Result<Turn, aw_core::flow::FlowError>,
) -> Result<Directive, Failure> {
    let lock = WorkspaceLock::acquire(&ws.lock_path(), default_wait())?;
    let turn = flow_store::mutate(session, folder, &lock, f)?;
    Ok(turn.directive)
}

/// The scripted answer to a directive: (stdin text, --approval).
fn scripted_answer(
    d: &Directive,
    journey: &Journey<'_>,
    ws: &Workspace,
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
                    "INTERNAL",
                    "An execution boundary without its action.",
                    "Report it.",
                )
            })?;
            let (ok, text) = run_aw(&ws.root, &ws.ns, &action.invocation.args);
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
    use aw_workspace::locate::NamespaceSource;

    #[test]
    fn the_scripted_quick_journey_reaches_final() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir(root.join("app")).unwrap();
        let ns = |args: &[&str]| args.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>();
        let (ok, out) = run_aw(
            root,
            "workflow",
            &ns(&["workspace-init", "--source", "app:app"]),
        );
        assert!(ok, "{out}");
        let (ok, out) = run_aw(
            root,
            "workflow",
            &ns(&[
                "session-create",
                "--type",
                "quick",
                "--name",
                "demo-quick",
                "--objective",
                "show a journey",
            ]),
        );
        assert!(ok, "{out}");
        let ws = Workspace {
            root: root.to_path_buf(),
            ns: "workflow".into(),
            ns_source: NamespaceSource::Default,
            initialized: true,
        };
        let steps = drive_quick(&ws, "001-demo-quick").unwrap();
        let kinds: Vec<&str> = steps.iter().map(|s| s.kind.as_str()).collect();
        assert_eq!(kinds.first(), Some(&"semantic"));
        assert_eq!(kinds.last(), Some(&"final"));
        for k in ["execution", "authorization", "human"] {
            assert!(kinds.contains(&k), "{kinds:?}");
        }
        assert!(
            root.join(".workflow/sessions/001-demo-quick/.closed")
                .exists()
        );
        let text = render_steps(&steps);
        assert!(text.contains(" 1. semantic quick.entry-gate-signal\n"));
        assert!(text.contains("next: "));
    }
}
