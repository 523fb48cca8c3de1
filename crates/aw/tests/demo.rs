//! `aw demo` runs on its embedded example with no set-up and leaves nothing behind.

use crate::support::Ws;
use serde_json::Value;

/// `aw` in an empty folder, its temporary folders made in the (private) home.
fn aw(ws: &Ws) -> std::process::Command {
    let mut c = ws.aw();
    c.env("TMPDIR", ws.home());
    c
}

#[test]
fn demo_text_shows_the_family_and_the_workspace_steps() {
    let ws = Ws::bare();
    let out = aw(&ws).arg("demo").output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "[VALID] skills/review-bridge (review-bridge)",
        "[INVALID] skills/broken-bridge (broken-bridge)",
        "[UNSUPPORTED] skills/future-skill (future-skill)",
        "$ aw workspace-init",
        "$ aw session-create",
        "$ aw checkpoint-write --code 001",
        "001-login-redirect-quick",
        "$ aw resume",
        "$ aw status",
        "✗ F2 — Deep links work on mobile",
        "$ aw capability apply --capability design --approval",
        "wrote docs/designs/001-design-login-redirect/DESIGN.md",
        "check design-content: ok",
        "wrote docs/designs/001-design-login-redirect/renders/portable-html/DESIGN-r001.html",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in:\n{text}");
    }
    let left: Vec<_> = std::fs::read_dir(ws.home()).unwrap().collect();
    assert!(left.is_empty(), "the temporary folder is removed");
}

#[test]
fn demo_json_reports_every_step_and_keep_keeps_the_folder() {
    let ws = Ws::bare();
    let out = aw(&ws).args(["demo", "--json", "--keep"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let classes: Vec<&str> = v["manifests"]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["class"].as_str().unwrap())
        .collect();
    assert_eq!(classes, ["valid", "valid", "invalid", "unsupported"]);
    let steps = v["steps"].as_array().unwrap();
    assert!(steps.len() >= 4);
    assert!(steps.iter().all(|s| s["exit"] == 0), "{steps:?}");
    assert_eq!(steps[1]["output"]["folder"], "001-login-redirect-quick");
    let boundaries = v["journey"]["boundaries"].as_array().unwrap();
    assert_eq!(v["journey"]["session"]["exit"], 0);
    assert_eq!(boundaries.first().unwrap()["kind"], "semantic");
    assert_eq!(
        boundaries.last().unwrap()["kind"],
        "final",
        "the scripted quick journey reaches final"
    );
    // v22: the run's custody covers quick's own steps, so no approval is asked.
    for kind in ["execution", "human"] {
        assert!(
            boundaries.iter().any(|b| b["kind"] == kind),
            "the journey meets a {kind} boundary"
        );
    }
    // The plan-exec journey runs in its own session, every check a real command, to final.
    let exec = v["plan_exec"]["boundaries"].as_array().unwrap();
    assert_eq!(v["plan_exec"]["session"]["exit"], 0);
    // The session step runs in aw itself; the entry gate is the first stop.
    assert_eq!(exec.first().unwrap()["transition"], "plan-exec.entry-gate");
    assert_eq!(exec.last().unwrap()["kind"], "final", "{exec:?}");
    for t in [
        "plan-exec.source-scope",
        "plan-exec.final-validation",
        "plan-exec.unit-integration",
    ] {
        assert!(exec.iter().any(|b| b["transition"] == t), "{t}: {exec:?}");
    }
    assert!(exec.iter().any(|b| b["kind"] == "authorization"));
    // aw installed into the example's own home (never the user's), and the installed copy is
    // what an agent reads.
    let host = v["host"].as_array().unwrap();
    assert!(host.iter().all(|s| s["exit"] == 0), "{host:?}");
    let home = host[0]["output"]["home"].as_str().unwrap();
    assert!(
        home.ends_with("/home") && home.contains("aw-demo-"),
        "{home}"
    );
    assert_ne!(Some(home), ws.home().to_str());
    assert_eq!(host[0]["output"]["targets"][0]["status"], "installed");
    assert_eq!(
        host[1]["output"]["read_set"][0]["path"],
        "commands/quick.md"
    );
    assert!(
        host[1]["output"]["read_set"][0]["absolute"]
            .as_str()
            .unwrap()
            .starts_with(home)
    );
    assert!(
        !ws.home().join(".claude").exists(),
        "the demo never installs into the user's home"
    );
    let design = v["design"]["steps"].as_array().unwrap();
    assert!(design.iter().all(|s| s["exit"] == 0), "{design:?}");
    let outcomes: Vec<&str> = design
        .iter()
        .map(|s| s["output"]["receipt"]["outcome"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        outcomes,
        [
            "needs_input",
            "needs_input",
            "completed",
            "completed",
            "needs_input",
            "completed"
        ],
        "prepare, validate, apply, validate of the package, then render and its apply"
    );
    assert_eq!(
        v["design"]["packages"]["output"]["packages"][0]["id"],
        "DES-001"
    );
    let board = &v["board"]["output"];
    assert_eq!(v["board"]["exit"], 0);
    assert_eq!(
        board["counts"]["plans"], 1,
        "the demo ends on the board: {board}"
    );
    assert_eq!(board["plans"][0]["phases_blocked"], 1);
    let closed: Vec<&str> = board["sessions"]["closed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["folder"].as_str().unwrap())
        .collect();
    assert!(
        closed.contains(&"002-onboarding-copy-quick")
            && closed.contains(&"003-login-redirect-plan-exec"),
        "the journeys closed their sessions, and the board shows it: {closed:?}"
    );
    let kept = std::path::PathBuf::from(v["kept"].as_str().unwrap());
    assert!(
        kept.join("project/.workflow/sessions/001-login-redirect-quick/CHECKPOINT.md")
            .is_file()
    );
}
