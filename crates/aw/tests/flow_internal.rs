//! The v22 engine's in-process steps through the CLI (flow-internal-actions, flow-proposal,
//! flow-recovery suites): what aw runs itself, what it records, what it refuses, and a
//! publication that never writes over bytes it did not see.

use crate::support::{Ws, git, json_of};
use serde_json::{Value, json};

/// A workspace with one session of `name` (`…-<flow>`), a git repository with one commit.
pub(crate) fn workspace(kind: &str, name: &str) -> (Ws, String) {
    let ws = Ws::initialised();
    std::fs::create_dir_all(ws.root().join("docs/specs")).unwrap();
    std::fs::write(
        ws.root().join("docs/specs/001-spec-x.md"),
        "---\nstatus: ready-for-plan\n---\n# Spec 001 — x\n\nold\n",
    )
    .unwrap();
    git(ws.root(), ws.home(), &["init", "-q"]);
    git(ws.root(), ws.home(), &["add", "-A"]);
    git(ws.root(), ws.home(), &["commit", "-q", "-m", "start"]);
    let folder = ws.create_session(kind, name, "x")["folder"]
        .as_str()
        .unwrap()
        .to_owned();
    (ws, folder)
}

pub(crate) fn run(ws: &Ws, args: &[&str], stdin: &str) -> Value {
    let (rc, out) = ws.stdout(args, Some(stdin), &[]);
    assert_eq!(rc, 0, "{args:?}: {out}");
    json_of(&out)
}

fn state(ws: &Ws, folder: &str) -> Value {
    json_of(std::fs::read_to_string(ws.sessions().join(folder).join(".flow-run.json")).unwrap())
}

/// Answers semantic boundaries with a decision (and, at an authoring row, `artifacts`) until
/// the run stands on `until`.
pub(crate) fn walk_to(
    ws: &Ws,
    folder: &str,
    mut d: Value,
    until: &str,
    artifacts: &Value,
) -> Value {
    for _ in 0..40 {
        if d["boundary"]["transition"] == until {
            return d;
        }
        assert!(d["error"].is_null(), "{d:#}");
        let seal = d["state_digest"].clone();
        let answer = match d["boundary"]["kind"].as_str().unwrap() {
            "semantic" if d["request"]["allowed_destinations"] != json!([]) => {
                json!({"input_digest": seal, "decisions": {"a": 1}, "artifacts": artifacts})
            }
            "semantic" => json!({"input_digest": seal, "decisions": {"a": 1}}),
            "execution" => {
                let mut t = crate::support::answer_template(d["next_action"].as_str().unwrap());
                let args: Vec<String> = d["action"]["invocation"]["args"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|a| a.as_str().unwrap().to_owned())
                    .collect();
                for v in t["validations"].as_array_mut().unwrap() {
                    v["detail"] = json!("seen");
                    if v["id"] == "workline.source-bounded" {
                        let mut proof = vec!["flow", "proof", "--"];
                        proof.extend(args.iter().map(String::as_str));
                        v["proof"] = ws.ok(&proof);
                    }
                }
                t
            }
            other => panic!("{other}: {d:#}"),
        };
        d = run(
            ws,
            &["flow", "submit", "--session", folder],
            &answer.to_string(),
        );
    }
    panic!("never reached {until}");
}

#[test]
fn the_session_step_runs_in_aw_and_is_traced() {
    let (ws, folder) = workspace("refine", "x-spec-refine");
    let d = run(
        &ws,
        &[
            "flow",
            "advance",
            "--session",
            &folder,
            "--flow",
            "spec-refine",
            "--adopt",
        ],
        "",
    );
    // The session step never stops: it ran in-process and is listed with the adoption's steps.
    assert_eq!(
        d["boundary"]["transition"],
        "spec-refine.escalation-adoption"
    );
    let applied: Vec<&str> = d["applied"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["transition"].as_str().unwrap())
        .collect();
    assert_eq!(
        applied,
        [
            "chassis.docs-boundary",
            "chassis.research-exhaustion",
            "spec-refine.session"
        ]
    );
    let s = state(&ws, &folder);
    assert_eq!(s["version"], 9);
    let e = &s["events"][0];
    assert_eq!(e["kind"], "executed");
    assert_eq!(e["transition"], "spec-refine.session");
    assert_eq!(e["operation"], "session.artifacts");
    assert_eq!(e["evidence"], json!(["spec.session-present"]));
    assert!(
        e["effects"]
            .as_array()
            .unwrap()
            .contains(&json!("local_additive"))
    );
    assert!(e["output_digest"].as_str().is_some_and(|d| d.len() == 64));
    assert_eq!(s["pending_action"], Value::Null);
}

#[test]
fn a_crash_after_the_mark_reruns_the_step_once() {
    let (ws, folder) = workspace("quick", "x-quick");
    let d = run(
        &ws,
        &[
            "flow",
            "advance",
            "--session",
            &folder,
            "--flow",
            "quick",
            "--adopt",
        ],
        "",
    );
    // The entry gate answered, aw ran the session step; put the run back on that step, begun
    // and never settled, as a crash after the mark leaves it.
    let answer = json!({"input_digest": d["state_digest"], "decisions": {"a": 1}});
    let d = run(
        &ws,
        &["flow", "submit", "--session", &folder],
        &answer.to_string(),
    );
    assert_eq!(
        d["boundary"]["transition"],
        "quick.success-criteria-authoring"
    );
    let mut s = state(&ws, &folder);
    let at = s["applied"]
        .as_array()
        .unwrap()
        .iter()
        .position(|t| t == "quick.session-create")
        .unwrap();
    s["applied"].as_array_mut().unwrap().truncate(at);
    s["boundary"] = json!("quick.session-create");
    s["events"] = json!([]);
    // The action's digest as aw emits it: read it off a fresh directive of the same step.
    s["pending_action"] =
        json!({"transition": "quick.session-create", "digest": "x", "attempted": true});
    let obj = s.as_object_mut().unwrap();
    obj.remove("digest");
    let seal = aw_core::canonical::semantic_digest(&s);
    s["digest"] = json!(seal);
    std::fs::write(
        ws.sessions().join(&folder).join(".flow-run.json"),
        aw_core::canonical::canonical_json(&s) + "\n",
    )
    .unwrap();
    let d = run(&ws, &["flow", "advance", "--session", &folder], "");
    assert_eq!(
        d["boundary"]["transition"], "quick.success-criteria-authoring",
        "{d:#}"
    );
    let s = state(&ws, &folder);
    let executed: Vec<&Value> = s["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["transition"] == "quick.session-create")
        .collect();
    assert_eq!(executed.len(), 1, "{s:#}");
    assert_eq!(
        s["applied"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| *t == "quick.session-create")
            .count(),
        1
    );
}

#[test]
fn a_failing_seed_is_refused_traced_and_spends_one_attempt() {
    let (ws, folder) = workspace("quick", "x-quick");
    let d = run(
        &ws,
        &[
            "flow",
            "advance",
            "--session",
            &folder,
            "--flow",
            "quick",
            "--adopt",
        ],
        "",
    );
    let d = walk_to(
        &ws,
        &folder,
        d,
        "quick.success-criteria-authoring",
        &json!([]),
    );
    let answer = json!({"input_digest": d["state_digest"], "decisions": {"a": 1}});
    let d = run(
        &ws,
        &["flow", "submit", "--session", &folder],
        &answer.to_string(),
    );
    assert_eq!(d["boundary"]["transition"], "quick.artifact-seed-order");
    assert_eq!(d["error"]["code"], "FLOW_EVIDENCE_MISSING");
    let next = d["next_action"].as_str().unwrap();
    assert!(next.starts_with("session.artifacts: "), "{next}");
    let s = state(&ws, &folder);
    let last = s["events"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["kind"], "failed");
    assert_eq!(last["operation"], "session.artifacts");
    assert_eq!(last["effects"], json!([]));
    assert_eq!(s["attempt_floor"]["quick.artifact-seed-order"], 1);
    // Advancing again runs it again: the same failure is one fact, one more attempt.
    run(&ws, &["flow", "advance", "--session", &folder], "");
    let s = state(&ws, &folder);
    let failed = s["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "failed")
        .count();
    assert_eq!(failed, 1);
    assert_eq!(s["attempt_floor"]["quick.artifact-seed-order"], 2);
    // Written, the criterion and the checkpoint let the seed through.
    let session = ws.sessions().join(&folder).join("SESSION.md");
    let text = std::fs::read_to_string(&session).unwrap();
    std::fs::write(&session, text.replace("- [ ]", "- [ ] it works")).unwrap();
    ws.ok(&["checkpoint-write", "--code", &folder]);
    let d = run(&ws, &["flow", "advance", "--session", &folder], "");
    assert!(d["error"].is_null(), "{d:#}");
    assert_eq!(d["boundary"]["transition"], "quick.branch-precondition");
}

#[test]
fn a_publication_never_writes_over_bytes_changed_after_the_preview() {
    let (ws, folder) = workspace("refine", "x-spec-refine");
    let spec = "docs/specs/001-spec-x.md";
    let d = run(
        &ws,
        &[
            "flow",
            "advance",
            "--session",
            &folder,
            "--flow",
            "spec-refine",
            "--adopt",
        ],
        "",
    );
    let new = "---\nstatus: ready-for-plan\n---\n# Spec 001 — x\n\nnew\n";
    let d = walk_to(
        &ws,
        &folder,
        d,
        "spec-refine.save-confirmation",
        &json!([{"path": spec, "content": new}]),
    );
    let p = &d["proposal"];
    assert_eq!(
        p["preview"],
        json!([{"path": spec, "bytes": new.len(), "overwrite": true}])
    );
    assert_eq!(p["requires_approval"], json!(["mutate_overwrite"]));
    assert!(
        p.get("artifacts").is_none(),
        "the preview never carries the bytes"
    );
    // Someone edits the spec after the preview was shown.
    let theirs = "---\nstatus: draft\n---\n# Spec 001 — x\n\ntheirs\n";
    std::fs::write(ws.root().join(spec), theirs).unwrap();
    let answer = json!({"input_digest": d["state_digest"], "choice": "Approve and save"});
    let d = run(
        &ws,
        &["flow", "submit", "--session", &folder],
        &answer.to_string(),
    );
    assert_eq!(d["boundary"]["transition"], "spec-refine.publication");
    assert_eq!(d["error"]["code"], "FLOW_EVIDENCE_MISSING", "{d:#}");
    assert!(
        d["next_action"]
            .as_str()
            .unwrap()
            .contains("changed after the proposal was prepared"),
        "{d:#}"
    );
    assert_eq!(
        std::fs::read_to_string(ws.root().join(spec)).unwrap(),
        theirs
    );
    // Put back as they were when sealed, the bytes land.
    std::fs::write(
        ws.root().join(spec),
        "---\nstatus: ready-for-plan\n---\n# Spec 001 — x\n\nold\n",
    )
    .unwrap();
    let d = run(&ws, &["flow", "advance", "--session", &folder], "");
    assert_eq!(d["boundary"]["kind"], "final", "{d:#}");
    assert_eq!(std::fs::read_to_string(ws.root().join(spec)).unwrap(), new);
    let s = state(&ws, &folder);
    assert_eq!(s["proposal"], Value::Null);
    assert_eq!(s["authorizations"][0]["destinations"], json!([spec]));
}

#[test]
fn refining_instead_of_approving_writes_nothing() {
    let (ws, folder) = workspace("refine", "x-spec-refine");
    let spec = "docs/specs/001-spec-x.md";
    let before = std::fs::read_to_string(ws.root().join(spec)).unwrap();
    let d = run(
        &ws,
        &[
            "flow",
            "advance",
            "--session",
            &folder,
            "--flow",
            "spec-refine",
            "--adopt",
        ],
        "",
    );
    let d = walk_to(
        &ws,
        &folder,
        d,
        "spec-refine.save-confirmation",
        &json!([{"path": spec, "content": "# other\n"}]),
    );
    let answer = json!({"input_digest": d["state_digest"], "choice": "Refine"});
    let d = run(
        &ws,
        &["flow", "submit", "--session", &folder],
        &answer.to_string(),
    );
    assert_eq!(d["boundary"]["kind"], "final", "{d:#}");
    let skipped = d["applied"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["transition"] == "spec-refine.publication")
        .unwrap();
    assert_eq!(skipped["outcome"], "skipped");
    assert_eq!(
        std::fs::read_to_string(ws.root().join(spec)).unwrap(),
        before
    );
}

#[test]
fn a_proof_of_a_moved_checkout_is_stale() {
    let (ws, folder) = workspace("refine", "x-spec-refine");
    let d = run(
        &ws,
        &[
            "flow",
            "advance",
            "--session",
            &folder,
            "--flow",
            "spec-refine",
            "--adopt",
        ],
        "",
    );
    let d = walk_to(&ws, &folder, d, "spec-refine.ready-gate", &json!([]));
    let mut t = crate::support::answer_template(d["next_action"].as_str().unwrap());
    let proof = ws.ok(&["flow", "proof", "--artifact", "docs/specs/001-spec-x.md"]);
    assert_eq!(proof["kind"], "inspection");
    // The checkout moves after the proof was made.
    std::fs::write(ws.root().join("app/new.txt"), "x").unwrap();
    for v in t["validations"].as_array_mut().unwrap() {
        v["detail"] = json!("seen");
        if v["id"] == "workline.source-bounded" {
            v["proof"] = proof.clone();
        }
    }
    let r = run(
        &ws,
        &["flow", "submit", "--session", &folder],
        &t.to_string(),
    );
    assert_eq!(r["error"]["code"], "WORKLINE_CHECKOUT_PROOF_STALE", "{r:#}");
    // Without a proof: missing; a proof naming no observed checkout: invalid.
    for v in t["validations"].as_array_mut().unwrap() {
        if v["id"] == "workline.source-bounded" {
            v.as_object_mut().unwrap().remove("proof");
        }
    }
    let r = run(
        &ws,
        &["flow", "submit", "--session", &folder],
        &t.to_string(),
    );
    assert_eq!(
        r["error"]["code"], "WORKLINE_CHECKOUT_PROOF_MISSING",
        "{r:#}"
    );
    let mut other = proof.clone();
    other["source"] = json!("app");
    for v in t["validations"].as_array_mut().unwrap() {
        if v["id"] == "workline.source-bounded" {
            v["proof"] = other.clone();
        }
    }
    let r = run(
        &ws,
        &["flow", "submit", "--session", &folder],
        &t.to_string(),
    );
    // The third refusal exhausts the gate; its own reason leads the next action.
    assert_eq!(r["error"]["code"], "FLOW_BOUNDARY_EXHAUSTED", "{r:#}");
    let next = r["next_action"].as_str().unwrap();
    assert!(
        next.contains("'app'") && next.contains("workspace"),
        "{next}"
    );
}

/// The CLI checks a proof against the live checkout whatever the answer's spelling: a proof
/// under an escaped key (`"pr\u006fof"`) is the same field, and a stale one is refused.
#[test]
fn an_escaped_proof_key_is_checked_live() {
    let (ws, folder) = workspace("refine", "x-spec-refine");
    let adopt = [
        "flow",
        "advance",
        "--session",
        folder.as_str(),
        "--flow",
        "spec-refine",
        "--adopt",
    ];
    let d = run(&ws, &adopt, "");
    let d = walk_to(&ws, &folder, d, "spec-refine.ready-gate", &json!([]));
    let mut t = crate::support::answer_template(d["next_action"].as_str().unwrap());
    let proof = ws.ok(&["flow", "proof", "--artifact", "docs/specs/001-spec-x.md"]);
    std::fs::write(ws.root().join("app/new.txt"), "x").unwrap();
    for v in t["validations"].as_array_mut().unwrap() {
        v["detail"] = json!("seen");
        if v["id"] == "workline.source-bounded" {
            v["proof"] = proof.clone();
        }
    }
    let escaped = t.to_string().replace("\"proof\"", "\"pr\\u006fof\"");
    assert!(escaped.contains("pr\\u006fof") && !escaped.contains("\"proof\""));
    let r = run(&ws, &["flow", "submit", "--session", &folder], &escaped);
    assert_eq!(r["error"]["code"], "WORKLINE_CHECKOUT_PROOF_STALE", "{r:#}");
}

/// A file that appears at a new destination after the person approved the preview is someone
/// else's: the publication refuses and keeps it (the preview said "new file").
#[test]
fn a_file_written_at_a_new_destination_after_the_preview_is_kept() {
    let (ws, folder) = workspace("refine", "x-spec-refine");
    let fresh = "docs/specs/002-spec-y.md";
    let d = run(
        &ws,
        &[
            "flow",
            "advance",
            "--session",
            &folder,
            "--flow",
            "spec-refine",
            "--adopt",
        ],
        "",
    );
    let d = walk_to(
        &ws,
        &folder,
        d,
        "spec-refine.save-confirmation",
        &json!([{"path": fresh, "content": "# Spec 002 — y\n"}]),
    );
    assert_eq!(d["proposal"]["preview"][0]["overwrite"], false);
    std::fs::write(ws.root().join(fresh), "THEIRS\n").unwrap();
    let answer = json!({"input_digest": d["state_digest"], "choice": "Approve and save"});
    let d = run(
        &ws,
        &["flow", "submit", "--session", &folder],
        &answer.to_string(),
    );
    assert_eq!(d["boundary"]["transition"], "spec-refine.publication");
    assert_eq!(d["error"]["code"], "FLOW_EVIDENCE_MISSING", "{d:#}");
    assert_eq!(
        std::fs::read_to_string(ws.root().join(fresh)).unwrap(),
        "THEIRS\n"
    );
}

/// The close step never closes a session that still holds an isolation unit: its work would be
/// left outside the source's branch. It names the integration command instead.
#[test]
fn the_close_step_refuses_while_the_session_holds_a_unit() {
    let (ws, folder) = workspace("quick", "x-quick");
    let d = run(
        &ws,
        &[
            "flow",
            "advance",
            "--session",
            &folder,
            "--flow",
            "quick",
            "--adopt",
        ],
        "",
    );
    // A unit of the source `app` (the workspace's own repository), made by hand.
    let key = ws.ok(&["worktree", "list", "--json"])["workspace_key"]
        .as_str()
        .unwrap()
        .to_owned();
    let unit = ws
        .home()
        .join(".workflow/worktrees")
        .join(&key)
        .join("app")
        .join(&folder);
    std::fs::create_dir_all(unit.parent().unwrap()).unwrap();
    git(
        ws.root(),
        ws.home(),
        &[
            "worktree",
            "add",
            "-q",
            "-b",
            &format!("aw/{folder}"),
            unit.to_str().unwrap(),
        ],
    );
    let session = ws.sessions().join(&folder).join("SESSION.md");
    let d = walk_to(
        &ws,
        &folder,
        d,
        "quick.success-criteria-authoring",
        &json!([]),
    );
    let text = std::fs::read_to_string(&session).unwrap();
    std::fs::write(&session, text.replace("- [ ]", "- [ ] it works")).unwrap();
    ws.ok(&["checkpoint-write", "--code", &folder]);
    let answer = json!({"input_digest": d["state_digest"], "decisions": {"a": 1}});
    let d = run(
        &ws,
        &["flow", "submit", "--session", &folder],
        &answer.to_string(),
    );
    let d = walk_to(&ws, &folder, d, "quick.commit-authorization", &json!([]));
    let answer = json!({"input_digest": d["state_digest"], "choice": "Approve the commit"});
    let d = run(
        &ws,
        &["flow", "submit", "--session", &folder],
        &answer.to_string(),
    );
    assert_eq!(d["boundary"]["transition"], "chassis.finalize", "{d:#}");
    assert_eq!(d["error"]["code"], "FLOW_EVIDENCE_MISSING", "{d:#}");
    let next = d["next_action"].as_str().unwrap();
    assert!(
        next.contains(&format!("aw worktree integrate --code {folder}")),
        "{next}"
    );
    assert!(!ws.sessions().join(&folder).join(".closed").exists());
}

/// plan-exec's unit-acquisition step gives the session a unit of every source its scope names
/// but the workspace, as `aw worktree ensure` would, and records it in the session's custody.
#[test]
fn the_unit_acquisition_step_makes_a_unit_of_each_scoped_source() {
    let (ws, folder) = workspace("exec", "x-plan-exec");
    let lib = ws.root().parent().unwrap().join("lib");
    std::fs::create_dir_all(&lib).unwrap();
    std::fs::write(lib.join("f.txt"), "a\n").unwrap();
    git(&lib, ws.home(), &["init", "-q"]);
    git(&lib, ws.home(), &["add", "-A"]);
    git(&lib, ws.home(), &["commit", "-q", "-m", "init"]);
    let claude = ws.root().join("CLAUDE.md");
    let text = std::fs::read_to_string(&claude).unwrap();
    std::fs::write(
        &claude,
        text.replace("| app | app |", "| app | app |\n| lib | ../lib |"),
    )
    .unwrap();
    ws.ok(&["set-working-branch", "lib", "main"]);
    std::fs::create_dir_all(ws.root().join("docs/plans")).unwrap();
    std::fs::write(
        ws.root().join("docs/plans/001-plan-x.md"),
        "# Plan 001 — x\n\n> Derived from docs/specs/001-spec-x.md\n> Status: open\n\
         > Execution surface: checkout\n\n## Tasks\n\n### F1 — it works\n> Status: pending\n\
         > Sources: lib\n- [ ] T1.1 — make it work _(sources: lib)_\n",
    )
    .unwrap();
    git(ws.root(), ws.home(), &["add", "-A"]);
    git(ws.root(), ws.home(), &["commit", "-q", "-m", "plan"]);
    let d = run(
        &ws,
        &[
            "flow",
            "advance",
            "--session",
            &folder,
            "--flow",
            "plan-exec",
            "--adopt",
        ],
        "",
    );
    let d = walk_to(&ws, &folder, d, "plan-exec.source-scope", &json!([]));
    let answer = json!({"input_digest": d["state_digest"],
                        "decisions": {"sources": ["lib"], "plan": "docs/plans/001-plan-x.md"}});
    let d = run(
        &ws,
        &["flow", "submit", "--session", &folder],
        &answer.to_string(),
    );
    assert!(d["error"].is_null(), "{d:#}");
    let applied: Vec<&str> = d["applied"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["transition"].as_str().unwrap())
        .collect();
    assert!(applied.contains(&"plan-exec.unit-acquisition"), "{d:#}");
    let s = state(&ws, &folder);
    let event = s["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["operation"] == "worktree.ensure")
        .unwrap()
        .clone();
    assert_eq!(event["kind"], "executed", "{event:#}");
    let summary = event["summary"].as_str().unwrap();
    assert!(summary.contains(&format!("lib → aw/{folder}")), "{summary}");
    let units = ws.ok(&["worktree", "list", "--code", &folder, "--json"])["units"].clone();
    assert_eq!(units[0]["alias"], "lib", "{units:#}");
    assert_eq!(units[0]["branch"], format!("aw/{folder}"));
    let custody =
        std::fs::read_to_string(ws.sessions().join(&folder).join(".custody.json")).unwrap();
    assert!(custody.contains("\"unit_taken\""), "{custody}");
}
