//! The journey driver: each of the five flows played through the CLI from adoption to `final`,
//! using only what each directive says — the recommended choice at human boundaries, the
//! approval digest quoted in `next_action` at authorization boundaries, and, at execution
//! boundaries, the named `aw` command actually run, its real output reported as evidence with
//! the answer template `next_action` gives.

use crate::support::{Ws, answer_template, json_of, recommended_choice};
use serde_json::{Value, json};

/// Runs `aw args…` in the workspace with `stdin`: (exit code, stdout).
fn aw(ws: &Ws, args: &[&str], stdin: Option<&str>) -> (i32, String) {
    ws.stdout(args, Some(stdin.unwrap_or_default()), &[])
}

/// A workspace with one session of the flow's kind; returns it and the session's folder.
fn workspace(flow: &str) -> (Ws, String) {
    let ws = Ws::initialised();
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

/// Plays a journey; returns the (kind, transition) of every boundary met, in order.
fn drive(flow: &str, signals: Signals) -> Vec<(String, String)> {
    drive_with(flow, signals, publish_plan).0
}

/// What plan-new's `next_action` has an agent do before the board reading at
/// `plan-new.adoption`: claim the plan's number with the command it quotes, write the plan at
/// the `claimed_path` printed, and name that file in the detail. Returns the path to name.
fn publish_plan(ws: &Ws, folder: &str, d: &Value) -> Option<String> {
    if d["boundary"]["transition"] != "plan-new.adoption" {
        return None;
    }
    let next = d["next_action"].as_str().unwrap();
    let claim = next
        .split('`')
        .find(|c| c.starts_with("aw next-number docs/plans --claim"))
        .unwrap_or_else(|| panic!("no claim in: {next}"))
        .replace("<slug>", "demo");
    assert!(claim.ends_with(&format!("--code {folder}")), "{claim}");
    let args: Vec<&str> = claim.split(' ').skip(1).collect();
    let claimed = ws.ok(&args);
    let path = claimed["claimed_path"].as_str().unwrap().to_owned();
    std::fs::write(
        &path,
        "# Plan 001 — demo\n\n> Status: open\n\n## Tasks\n\n### F1 — it works\n\
         > Status: pending\n- [ ] T1.1 — make it work\n",
    )
    .unwrap();
    Some(path)
}

/// [`drive`], with `prepare(ws, folder, directive)` called at each execution boundary before
/// its command runs: what an agent writes first, as the directive says, and what the detail
/// must name, if anything. The workspace is handed back with the boundaries met.
fn drive_with(
    flow: &str,
    signals: Signals,
    mut prepare: impl FnMut(&Ws, &str, &Value) -> Option<String>,
) -> (Vec<(String, String)>, Ws) {
    let (ws, folder) = workspace(flow);
    let root = ws.root();
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
            assert_eq!(
                state["applied"].as_array().unwrap().last().unwrap(),
                "chassis.finalize"
            );
            return (seen, ws);
        }
        d = respond(&ws, &folder, &d, signals, &mut prepare);
    }
    panic!("the journey did not end: {seen:?}");
}

/// Answers the directive `d` (any kind but final) as the driver does, and returns the next one.
fn respond(
    ws: &Ws,
    folder: &str,
    d: &Value,
    signals: Signals,
    prepare: &mut impl FnMut(&Ws, &str, &Value) -> Option<String>,
) -> Value {
    let kind = d["boundary"]["kind"].as_str().unwrap();
    let next = d["next_action"].as_str().unwrap().to_owned();
    let seal = d["state_digest"].as_str().unwrap().to_owned();
    let submit = ["flow", "submit", "--session", folder];
    let (rc, out) = match kind {
        "semantic" => {
            let vocabulary = d["request"]["inventory"]["signals"].clone();
            let answer = match signals {
                Signals::All if vocabulary.as_array().is_some_and(|v| !v.is_empty()) => {
                    json!({"input_digest": seal, "signals": vocabulary})
                }
                _ => json!({"input_digest": seal, "decisions": {"answer": "judged"}}),
            };
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
            let named = prepare(ws, folder, d);
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
            let mut answer = answer_template(&next);
            if code != 0 {
                answer["outcome"] = json!("failed");
            }
            let first = output.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            let mut detail = format!("exit {code}: {}", first.trim());
            if let Some(named) = named {
                detail = format!("{named} — {detail}");
            }
            for v in answer["validations"].as_array_mut().unwrap() {
                v["passed"] = json!(code == 0);
                v["detail"] = json!(detail);
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

#[test]
fn quick_journeys() {
    check(
        "quick",
        Signals::None,
        &[
            "semantic quick.entry-gate-signal",
            "execution quick.session-create",
            "semantic quick.success-criteria-authoring",
            "execution quick.artifact-seed-order",
            "execution quick.branch-precondition",
            "semantic quick.deliverable-authoring",
            "semantic quick.db-touched",
            "authorization quick.convergence-gate",
            "execution quick.convergence-gate",
            "semantic quick.review-findings",
            "human quick.commit-authorization",
            "authorization chassis.finalize",
            "execution chassis.finalize",
            "final ",
        ],
    );
    check(
        "quick",
        Signals::All,
        &[
            "semantic quick.entry-gate-signal",
            "execution quick.anti-duplicate",
            "human quick.gate-choice",
            "execution quick.session-create",
            "semantic quick.success-criteria-authoring",
            "human quick.success-criteria-ratification",
            "execution quick.artifact-seed-order",
            "execution quick.branch-precondition",
            "semantic quick.deliverable-authoring",
            "semantic quick.db-touched",
            "execution quick.db-scripts-only",
            "authorization quick.convergence-gate",
            "execution quick.convergence-gate",
            "semantic quick.review-findings",
            "human quick.commit-authorization",
            "authorization chassis.finalize",
            "execution chassis.finalize",
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
            "execution spec-refine.session",
            "semantic spec-refine.baseline-scope",
            "semantic spec-refine.split-signal",
            "semantic spec-refine.gap-recognition",
            "semantic spec-refine.content-authoring",
            "semantic spec-refine.design-reuse",
            "execution spec-refine.ready-gate",
            "human spec-refine.save-confirmation",
            "authorization spec-refine.status-promotion",
            "execution spec-refine.status-promotion",
            // mutate_overwrite was granted for the promotion: finalize goes straight to execution.
            "execution chassis.finalize",
            "final ",
        ],
    );
    check(
        "spec-refine",
        Signals::All,
        &[
            "execution spec-refine.session",
            "semantic spec-refine.baseline-scope",
            "semantic spec-refine.split-signal",
            "human spec-refine.split-choice",
            "semantic spec-refine.gap-recognition",
            "human spec-refine.ideation-consent",
            "semantic spec-refine.content-authoring",
            "human spec-refine.functional-ambiguity",
            "semantic spec-refine.design-reuse",
            "execution spec-refine.ready-gate",
            "human spec-refine.save-confirmation",
            "authorization spec-refine.status-promotion",
            "execution spec-refine.status-promotion",
            "execution chassis.finalize",
            "final ",
        ],
    );
}

#[test]
fn plan_new_journeys() {
    let tail = [
        "execution plan-new.coherence-gate",
        "human plan-new.save-confirmation",
        // The plan is written at its claimed number before the session may close.
        "execution plan-new.adoption",
        "authorization chassis.finalize",
        "execution chassis.finalize",
        "final ",
    ];
    let head = [
        "execution plan-new.spec-readiness",
        "execution plan-new.session",
        "semantic plan-new.slug-derivation",
        "semantic plan-new.phase-shaping",
        "semantic plan-new.batch-eligibility-signal",
        "semantic plan-new.split-signal",
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
    check(
        "plan-refine",
        Signals::None,
        &[
            "execution plan-refine.session",
            "semantic plan-refine.journey-map",
            "semantic plan-refine.batch-eligibility-signal",
            "semantic plan-refine.split-signal",
            "execution plan-refine.executability-gate",
            "human plan-refine.save-confirmation",
            "authorization plan-refine.normalize-on-write",
            "execution plan-refine.normalize-on-write",
            "execution chassis.finalize",
            "final ",
        ],
    );
    check(
        "plan-refine",
        Signals::All,
        &[
            "execution plan-refine.session",
            "semantic plan-refine.journey-map",
            "semantic plan-refine.batch-eligibility-signal",
            "semantic plan-refine.split-signal",
            "execution plan-refine.executability-gate",
            "human plan-refine.save-confirmation",
            "authorization plan-refine.split-in-place",
            "execution plan-refine.split-in-place",
            "execution plan-refine.normalize-on-write",
            "execution chassis.finalize",
            "final ",
        ],
    );
}

#[test]
fn plan_exec_journeys() {
    check(
        "plan-exec",
        Signals::None,
        &[
            "execution plan-exec.session",
            "execution plan-exec.entry-gate",
            "semantic plan-exec.entry-gap-recognition",
            "semantic plan-exec.batch-eligibility-signal",
            "execution plan-exec.branch-precondition",
            "semantic plan-exec.implementation",
            "semantic plan-exec.deviation-recognition",
            "semantic plan-exec.pending-effects",
            "authorization plan-exec.phase-state-transition",
            "execution plan-exec.phase-state-transition",
            "authorization plan-exec.validation-execution",
            "execution plan-exec.validation-execution",
            "semantic plan-exec.review-findings",
            "execution plan-exec.final-validation",
            "human plan-exec.commit-authorization",
            "execution chassis.finalize",
            "final ",
        ],
    );
    check(
        "plan-exec",
        Signals::All,
        &[
            "execution plan-exec.session",
            "execution plan-exec.entry-gate",
            "semantic plan-exec.entry-gap-recognition",
            "human plan-exec.normalization-consent",
            "semantic plan-exec.batch-eligibility-signal",
            "execution plan-exec.branch-precondition",
            "semantic plan-exec.implementation",
            "semantic plan-exec.deviation-recognition",
            "semantic plan-exec.pending-effects",
            "authorization plan-exec.task-marking",
            "execution plan-exec.task-marking",
            "execution plan-exec.phase-state-transition",
            "authorization plan-exec.validation-execution",
            "execution plan-exec.validation-execution",
            "semantic plan-exec.review-findings",
            "execution plan-exec.final-validation",
            "human plan-exec.commit-authorization",
            "execution plan-exec.plan-done",
            "execution plan-exec.commit-execution",
            "execution chassis.finalize",
            "final ",
        ],
    );
}

/// Issue 20 (point 10): after the save choice, plan-new's directive names the claim and the
/// board reading; an agent doing just that leaves the plan at its claimed number, listed by
/// the board, and the session closes with the plan kept.
#[test]
fn plan_new_leaves_the_plan_where_its_directive_says() {
    let mut plan_file = None;
    let (seen, _ws) = drive_with("plan-new", Signals::None, |ws, folder, d| {
        let path = publish_plan(ws, folder, d)?;
        let board = ws.ok(&["status", "--json"]);
        let listed = &board["plans"][0];
        assert!(
            path.ends_with(listed["file"].as_str().unwrap()),
            "{board:#}"
        );
        assert_eq!(listed["phases_total"], 1);
        plan_file = Some(path.clone());
        Some(path)
    });
    assert!(seen.contains(&("execution".to_owned(), "plan-new.adoption".to_owned())));
    let path = plan_file.expect("the run stopped for the plan");
    let kept = std::fs::read_to_string(&path).unwrap();
    assert!(kept.starts_with("# Plan 001 — demo"), "{kept}");
}

/// Issue 20 (point 10), a hostile reviewer's walk: at `plan-new.adoption`, the answer template
/// sent exactly as printed (nothing claimed, nothing written) is refused and `docs/plans` stays
/// absent; a number claimed but not written is refused by name; once the plan is written at the
/// claimed path and named, the step applies and the run reaches final with the plan kept.
#[test]
fn plan_new_adoption_is_refused_until_the_named_plan_is_written() {
    let ws = Ws::bare();
    ws.ok(&["workspace-init", "--source", "app:.:main"]);
    let folder = ws.create_session("refine", "demo-plan-new", "x")["folder"]
        .as_str()
        .unwrap()
        .to_owned();
    let advance = ["flow", "advance", "--session", folder.as_str()];
    let submit = ["flow", "submit", "--session", folder.as_str()];
    let mut adopt = advance.to_vec();
    adopt.extend(["--flow", "plan-new", "--adopt"]);
    let mut d = json_of(aw(&ws, &adopt, None).1);
    let mut write_nothing = |_: &Ws, _: &str, _: &Value| None;
    for _ in 0..40 {
        if d["boundary"]["transition"] == "plan-new.adoption" {
            break;
        }
        assert!(d["error"].is_null(), "{d:#}");
        d = respond(&ws, &folder, &d, Signals::None, &mut write_nothing);
    }
    assert_eq!(d["boundary"]["transition"], "plan-new.adoption", "{d:#}");
    let template = answer_template(d["next_action"].as_str().unwrap());
    assert_eq!(template["validations"][0]["id"], "plan.propuesta-publicada");
    let refused = json_of(aw(&ws, &submit, Some(&template.to_string())).1);
    assert_eq!(
        refused["error"]["code"], "FLOW_EVIDENCE_MISSING",
        "{refused:#}"
    );
    assert_eq!(refused["boundary"]["transition"], "plan-new.adoption");
    assert!(!ws.root().join("docs/plans").exists());
    assert!(!ws.sessions().join(&folder).join(".closed").exists());
    let action = refused["error"]["action"].as_str().unwrap();
    let claim = format!("aw next-number docs/plans --claim plan-<slug>.md --code {folder}");
    assert!(action.contains(&format!("`{claim}`")), "{action}");

    // Claimed, not written: the bare reservation is no plan.
    let claim = claim.replace("<slug>", "demo");
    let args: Vec<&str> = claim.split(' ').skip(1).collect();
    let path = ws.ok(&args)["claimed_path"].as_str().unwrap().to_owned();
    let mut named = template.clone();
    named["validations"][0]["detail"] = json!(format!("{path} listed by aw status"));
    let refused = json_of(aw(&ws, &submit, Some(&named.to_string())).1);
    assert_eq!(refused["error"]["code"], "FLOW_EVIDENCE_MISSING");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(message.contains("bare reservation"), "{message}");

    // Written at the claimed path and named: applied, and the run goes on to final.
    let plan = "# Plan 001 — demo\n\n> Status: open\n\n## Tasks\n\n### F1 — it works\n\
                > Status: pending\n- [ ] T1.1 — make it work\n";
    std::fs::write(&path, plan).unwrap();
    let mut d = json_of(aw(&ws, &advance, None).1);
    let mut name_it = |_: &Ws, _: &str, _: &Value| Some(path.clone());
    d = respond(&ws, &folder, &d, Signals::None, &mut name_it);
    assert!(d["error"].is_null(), "{d:#}");
    assert_eq!(d["applied"][0]["transition"], "plan-new.adoption", "{d:#}");
    for _ in 0..10 {
        if d["boundary"]["kind"] == "final" {
            break;
        }
        d = respond(&ws, &folder, &d, Signals::None, &mut name_it);
        assert!(d["error"].is_null(), "{d:#}");
    }
    assert_eq!(d["boundary"]["kind"], "final", "{d:#}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), plan);
    assert!(ws.sessions().join(&folder).join(".closed").exists());
}
