//! The journey driver: each of the five flows played through the CLI from adoption to `final`,
//! using only what each directive says — the recommended choice at human boundaries, the
//! approval digest quoted in `next_action` at authorization boundaries, and, at execution
//! boundaries, the named `aw` command actually run, its real output reported as evidence with
//! the answer template `next_action` gives.

use crate::support::{Ws, answer_template, git, json_of, recommended_choice};
use serde_json::{Value, json};

/// Runs `aw args…` in the workspace with `stdin`: (exit code, stdout).
fn aw(ws: &Ws, args: &[&str], stdin: Option<&str>) -> (i32, String) {
    ws.stdout(args, Some(stdin.unwrap_or_default()), &[])
}

/// The spec a spec-refine run refines, and the plan the other plan flows start from.
const SPEC: &str = "docs/specs/001-spec-driver.md";
const PLAN: &str = "docs/plans/001-plan-driver.md";

/// A plan whose execution surface is the checkout and whose phase works on the workspace, so a
/// plan-exec scope of `workspace` is exactly its sources.
const PLAN_TEXT: &str = "# Plan 001 — driver\n\n> Derived from docs/specs/001-spec-driver.md\n\
     > Status: open\n> Execution surface: checkout\n\n## Tasks\n\n### F1 — it works\n\
     > Status: pending\n> Sources: workspace\n- [ ] T1.1 — make it work _(sources: workspace)_\n";

/// A workspace (a git repository with one commit, so a checkout proof can be made) with one
/// session of the flow's kind; returns it and the session's folder.
fn workspace(flow: &str) -> (Ws, String) {
    let ws = Ws::initialised();
    let root = ws.root().to_path_buf();
    std::fs::create_dir_all(root.join("docs/specs")).unwrap();
    std::fs::create_dir_all(root.join("docs/plans")).unwrap();
    std::fs::write(
        root.join(SPEC),
        "---\nstatus: ready-for-plan\n---\n# Spec 001 — driver\n\n## Requirement\nIt works.\n",
    )
    .unwrap();
    if flow != "plan-new" {
        std::fs::write(root.join(PLAN), PLAN_TEXT).unwrap();
    }
    git(&root, ws.home(), &["init", "-q"]);
    git(&root, ws.home(), &["add", "-A"]);
    git(&root, ws.home(), &["commit", "-q", "-m", "start"]);
    let kind = match flow {
        "quick" => "quick",
        "plan-exec" => "exec",
        _ => "refine",
    };
    let created = ws.create_session(kind, &format!("driver-{flow}"), "drive the journey");
    let folder = created["folder"].as_str().unwrap().to_owned();
    (ws, folder)
}

fn approval_of(next_action: &str) -> String {
    let at = next_action.find("--approval ").unwrap() + "--approval ".len();
    next_action[at..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect()
}

/// How semantic boundaries are answered.
#[derive(Clone, Copy)]
enum Signals {
    /// A decision and no signal.
    None,
    /// Every signal of the row's vocabulary.
    All,
}

/// What the driver remembers along a journey: the plan number it claimed.
#[derive(Default)]
struct Agent {
    claimed: Option<String>,
}

/// Plays a journey; returns the (kind, transition) of every boundary met, in order.
fn drive(flow: &str, signals: Signals) -> Vec<(String, String)> {
    drive_in(flow, signals).0
}

/// [`drive`], handing back the workspace and the session's folder.
fn drive_in(flow: &str, signals: Signals) -> (Vec<(String, String)>, Ws, String) {
    let (ws, folder) = workspace(flow);
    let root = ws.root().to_path_buf();
    let (rc, out) = aw(
        &ws,
        &[
            "flow",
            "advance",
            "--session",
            &folder,
            "--flow",
            flow,
            "--adopt",
        ],
        None,
    );
    assert_eq!(rc, 0, "{out}");
    let mut d = json_of(&out);
    let mut seen = Vec::new();
    let mut agent = Agent::default();
    for _ in 0..80 {
        assert!(d["error"].is_null(), "unexpected error: {d:#}");
        let kind = d["boundary"]["kind"].as_str().unwrap().to_owned();
        let transition = d["boundary"]["transition"]
            .as_str()
            .unwrap_or("")
            .to_owned();
        seen.push((kind.clone(), transition));
        if kind == "final" {
            assert_eq!(d["outcome"], "completed");
            assert_eq!(d["pending"], json!([]));
            // The finalize step really closed the session, and the run still reached final.
            let session = root.join(".workflow/sessions").join(&folder);
            assert!(
                session.join(".closed").exists(),
                "{flow}: session not closed"
            );
            let state = json_of(std::fs::read_to_string(session.join(".flow-run.json")).unwrap());
            assert_eq!(state["boundary"], Value::Null);
            assert_eq!(state["version"], 9);
            assert_eq!(
                state["applied"].as_array().unwrap().last().unwrap(),
                "chassis.finalize"
            );
            return (seen, ws, folder);
        }
        d = respond(&ws, &folder, &d, signals, &mut agent);
    }
    panic!("the journey did not end: {seen:?}");
}

/// What the doctrine has the agent write in its session before the work is seeded: a written
/// success criterion and a first checkpoint.
fn seed_the_session(ws: &Ws, folder: &str) {
    let session = ws.sessions().join(folder).join("SESSION.md");
    let text = std::fs::read_to_string(&session).unwrap();
    std::fs::write(
        &session,
        text.replace("- [ ]", "- [ ] the journey reaches final"),
    )
    .unwrap();
    ws.ok(&["checkpoint-write", "--code", folder]);
}

/// The bytes an authoring row proposes, and where.
fn proposal(flow: &str, agent: &Agent) -> (String, String) {
    match flow {
        "spec-refine" => (
            SPEC.to_owned(),
            "---\nstatus: ready-for-plan\n---\n# Spec 001 — driver\n\n## Requirement\nIt works, \
             refined.\n"
                .to_owned(),
        ),
        "plan-new" => (
            agent
                .claimed
                .clone()
                .expect("plan-new claimed its number first"),
            PLAN_TEXT.to_owned(),
        ),
        _ => (
            PLAN.to_owned(),
            PLAN_TEXT.replace("it works", "it works, refined"),
        ),
    }
}

/// Answers the directive `d` (any kind but final) as the driver does, and returns the next one.
fn respond(ws: &Ws, folder: &str, d: &Value, signals: Signals, agent: &mut Agent) -> Value {
    let kind = d["boundary"]["kind"].as_str().unwrap();
    let transition = d["boundary"]["transition"].as_str().unwrap_or("");
    let flow = d["flow"].as_str().unwrap();
    let next = d["next_action"].as_str().unwrap().to_owned();
    let seal = d["state_digest"].as_str().unwrap().to_owned();
    let submit = ["flow", "submit", "--session", folder];
    let (rc, out) = match kind {
        "semantic" => {
            if transition == "quick.success-criteria-authoring" {
                seed_the_session(ws, folder);
            }
            let vocabulary = d["request"]["inventory"]["signals"].clone();
            let mut answer = match signals {
                Signals::All if vocabulary.as_array().is_some_and(|v| !v.is_empty()) => {
                    json!({"input_digest": seal, "signals": vocabulary})
                }
                _ => json!({"input_digest": seal, "decisions": {"answer": "judged"}}),
            };
            if transition == "quick.db-touched" && matches!(signals, Signals::All) {
                // The database work is delivered as a script in the session, never run.
                let scripts = ws.sessions().join(folder).join("scripts");
                std::fs::create_dir_all(&scripts).unwrap();
                std::fs::write(
                    scripts.join("001-add-flag.sql"),
                    "alter table t add c int;\n",
                )
                .unwrap();
            }
            if d["request"]["allowed_destinations"]
                .as_array()
                .is_some_and(|a| !a.is_empty())
            {
                let (path, content) = proposal(flow, agent);
                answer["decisions"] = json!({"answer": "the exact bytes"});
                answer["artifacts"] = json!([{"path": path, "content": content}]);
            }
            if transition == "plan-exec.source-scope" {
                answer["decisions"] = json!({"sources": ["workspace"], "plan": PLAN});
            }
            aw(ws, &submit, Some(&answer.to_string()))
        }
        "human" => {
            let answer = json!({"input_digest": seal, "choice": recommended_choice(d)});
            aw(ws, &submit, Some(&answer.to_string()))
        }
        "authorization" => {
            let digest = approval_of(&next);
            let mut args = submit.to_vec();
            args.extend(["--approval", digest.as_str()]);
            aw(ws, &args, Some(&answer_template(&next).to_string()))
        }
        "execution" => {
            let inv = &d["action"]["invocation"];
            assert_eq!(inv["program"], "aw");
            let args: Vec<String> = inv["args"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap().to_owned())
                .collect();
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let (code, output) = aw(ws, &args, None);
            if args.first() == Some(&"next-number") {
                agent.claimed = json_of(&output)["claimed_path"].as_str().map(|p| {
                    p.trim_start_matches(&format!("{}/", ws.root().display()))
                        .to_owned()
                });
            }
            let mut answer = answer_template(&next);
            if code != 0 {
                answer["outcome"] = json!("failed");
            }
            let first = output.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            let detail = format!("exit {code}: {}", first.trim());
            for v in answer["validations"].as_array_mut().unwrap() {
                v["passed"] = json!(code == 0);
                v["detail"] = json!(detail);
                if v["id"] == "workline.source-bounded" {
                    // The proof of the checkout the command ran in, made right before answering,
                    // as the directive says.
                    let mut proof = vec!["flow", "proof", "--"];
                    proof.extend(args.iter().copied());
                    v["proof"] = ws.ok(&proof);
                }
            }
            aw(ws, &submit, Some(&answer.to_string()))
        }
        other => panic!("unexpected boundary {other}: {d:#}"),
    };
    assert_eq!(rc, 0, "{out}");
    json_of(&out)
}

fn ids(seen: &[(String, String)]) -> Vec<String> {
    seen.iter().map(|(k, t)| format!("{k} {t}")).collect()
}

fn check(flow: &str, signals: Signals, expected: &[&str]) {
    let seen = drive(flow, signals);
    assert_eq!(ids(&seen), expected, "{flow}");
    for kind in ["semantic", "execution", "final"] {
        assert!(
            seen.iter().any(|(k, _)| k == kind),
            "{flow} never met {kind}"
        );
    }
}

// The stops of flow-spec-v22 §14: the internal steps (sessions, the seeds, the board readings,
// the publications, the close) run in aw itself and are never met.

#[test]
fn quick_journeys() {
    check(
        "quick",
        Signals::None,
        &[
            "semantic quick.entry-gate-signal",
            "semantic quick.success-criteria-authoring",
            "execution quick.branch-precondition",
            "semantic quick.deliverable-authoring",
            "semantic quick.db-touched",
            "execution quick.convergence-gate",
            "semantic quick.review-findings",
            "human quick.commit-authorization",
            "final ",
        ],
    );
    check(
        "quick",
        Signals::All,
        &[
            "semantic quick.entry-gate-signal",
            "human quick.gate-choice",
            "semantic quick.success-criteria-authoring",
            "human quick.success-criteria-ratification",
            "execution quick.branch-precondition",
            "semantic quick.deliverable-authoring",
            "semantic quick.db-touched",
            "execution quick.convergence-gate",
            "semantic quick.review-findings",
            "human quick.commit-authorization",
            "final ",
        ],
    );
}

#[test]
fn spec_refine_journeys() {
    check(
        "spec-refine",
        Signals::None,
        &[
            "semantic spec-refine.escalation-adoption",
            "semantic spec-refine.baseline-scope",
            "semantic spec-refine.split-signal",
            "semantic spec-refine.gap-recognition",
            "semantic spec-refine.content-authoring",
            "semantic spec-refine.design-reuse",
            "execution spec-refine.ready-gate",
            "semantic spec-refine.save-proposal",
            "human spec-refine.save-confirmation",
            "final ",
        ],
    );
    check(
        "spec-refine",
        Signals::All,
        &[
            "semantic spec-refine.escalation-adoption",
            "semantic spec-refine.baseline-scope",
            "semantic spec-refine.split-signal",
            "human spec-refine.split-choice",
            "semantic spec-refine.gap-recognition",
            "human spec-refine.ideation-consent",
            "semantic spec-refine.content-authoring",
            "human spec-refine.functional-ambiguity",
            "semantic spec-refine.design-reuse",
            "execution spec-refine.ready-gate",
            "semantic spec-refine.save-proposal",
            "human spec-refine.save-confirmation",
            "final ",
        ],
    );
}

#[test]
fn plan_new_journeys() {
    let head = [
        "semantic plan-new.slug-derivation",
        "execution plan-new.numbering",
        "semantic plan-new.phase-shaping",
        "semantic plan-new.batch-eligibility-signal",
        "semantic plan-new.split-signal",
    ];
    let tail = [
        "execution plan-new.coherence-gate",
        "semantic plan-new.save-proposal",
        "human plan-new.save-confirmation",
        "final ",
    ];
    let none: Vec<&str> = head.iter().chain(tail.iter()).copied().collect();
    check("plan-new", Signals::None, &none);
    let all: Vec<&str> = head
        .iter()
        .copied()
        .chain(["human plan-new.split-choice"])
        .chain(tail.iter().copied())
        .collect();
    check("plan-new", Signals::All, &all);
}

#[test]
fn plan_refine_journeys() {
    let head = [
        "semantic plan-refine.escalation-adoption",
        "semantic plan-refine.journey-map",
        "semantic plan-refine.batch-eligibility-signal",
        "semantic plan-refine.split-signal",
        "execution plan-refine.executability-gate",
    ];
    let tail = [
        "semantic plan-refine.save-proposal",
        "human plan-refine.save-confirmation",
        "final ",
    ];
    let none: Vec<&str> = head.iter().chain(tail.iter()).copied().collect();
    check("plan-refine", Signals::None, &none);
    let all: Vec<&str> = head
        .iter()
        .copied()
        .chain(["semantic plan-refine.split-in-place"])
        .chain(tail.iter().copied())
        .collect();
    check("plan-refine", Signals::All, &all);
}

#[test]
fn plan_exec_journeys() {
    check(
        "plan-exec",
        Signals::None,
        &[
            "execution plan-exec.entry-gate",
            "semantic plan-exec.entry-gap-recognition",
            "semantic plan-exec.batch-eligibility-signal",
            "semantic plan-exec.source-scope",
            "execution plan-exec.branch-precondition",
            "semantic plan-exec.implementation",
            "semantic plan-exec.deviation-recognition",
            "semantic plan-exec.pending-effects",
            "execution plan-exec.phase-state-transition",
            "execution plan-exec.validation-execution",
            "semantic plan-exec.review-findings",
            "execution plan-exec.final-validation",
            "human plan-exec.commit-authorization",
            "authorization plan-exec.unit-integration",
            "execution plan-exec.unit-integration",
            "final ",
        ],
    );
    check(
        "plan-exec",
        Signals::All,
        &[
            "execution plan-exec.entry-gate",
            "semantic plan-exec.entry-gap-recognition",
            "human plan-exec.normalization-consent",
            "semantic plan-exec.batch-eligibility-signal",
            "semantic plan-exec.source-scope",
            "execution plan-exec.branch-precondition",
            "semantic plan-exec.implementation",
            "semantic plan-exec.deviation-recognition",
            "semantic plan-exec.deviation-eligibility",
            "human plan-exec.deviation-gate",
            "semantic plan-exec.escalation-package",
            "semantic plan-exec.pending-effects",
            "execution plan-exec.task-marking",
            "execution plan-exec.phase-state-transition",
            "execution plan-exec.validation-execution",
            "semantic plan-exec.review-findings",
            "execution plan-exec.final-validation",
            "human plan-exec.commit-authorization",
            "execution plan-exec.commit-execution",
            "authorization plan-exec.unit-integration",
            "execution plan-exec.unit-integration",
            "execution plan-exec.plan-done",
            "final ",
        ],
    );
}

/// A publication writes exactly the approved bytes, with the plan sealed to its spec's bytes;
/// plan-new's plan lands at its claimed number.
#[test]
fn the_approved_proposal_is_what_lands() {
    let (_, ws, _) = drive_in("plan-new", Signals::None);
    let plan = std::fs::read_to_string(ws.root().join("docs/plans/002-plan-driver.md"))
        .or_else(|_| std::fs::read_to_string(ws.root().join("docs/plans/001-plan-driver.md")))
        .unwrap();
    let spec = std::fs::read_to_string(ws.root().join(SPEC)).unwrap();
    let digest = aw_core::documents::baseline::spec_digest(&spec);
    assert!(
        plan.contains(&format!("> Baseline: {SPEC}@{digest}\n")),
        "{plan}"
    );
    assert_eq!(
        plan.replace(&format!("> Baseline: {SPEC}@{digest}\n"), ""),
        PLAN_TEXT
    );
    let board = ws.ok(&["status", "--json"]);
    assert_eq!(
        board["plans"][0]["baseline"]["status"], "aligned",
        "{board:#}"
    );
    let (_, ws, _) = drive_in("spec-refine", Signals::None);
    let spec = std::fs::read_to_string(ws.root().join(SPEC)).unwrap();
    assert!(spec.contains("It works, refined."), "{spec}");
}
