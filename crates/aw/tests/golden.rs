//! The reference's golden cases (golden.md §2), run black-box against a copy of the sample
//! workspace (`tests/fixtures/sample-workspace`, a legacy workspace as the reference left it).
//!
//! Session numbers follow the reference's v22 rule (legacy folders and HISTORY rows count), so
//! cases 12–14 expect `004`. Messages are aw's own English; the reference's Spanish message
//! checks are replaced by checks of the code and of the fact the message must carry. Case 5
//! (`project-md-upsert --read`) belongs to the project-block suite.

use crate::support::Ws;
use serde_json::json;

// ---- read cases (1–4, 6): the fixture itself, never written ----

#[test]
fn case01_sessions_default() {
    let ws = Ws::golden();
    let v = ws.ok(&["sessions"]);
    assert_eq!(v["next_correlative"], "004");
    assert_eq!(v["sessions"].as_array().unwrap().len(), 2);
    assert_eq!(v["sessions"][0]["date"], "2026-01-01");
    assert_eq!(
        v["sessions"][1]["summary"],
        "¿Por qué bar tarda tanto en arrancar?"
    );
    assert!(
        v["sessions"][0].get("type").is_none(),
        "legacy `## Tipo` is not read"
    );
    insta::assert_json_snapshot!("sessions_default", v);
}

#[test]
fn case02_sessions_all() {
    let ws = Ws::golden();
    let v = ws.ok(&["sessions", "--all"]);
    assert_eq!(v, ws.ok(&["sessions", "--state", "all"]));
    assert_eq!(v["sessions"][2]["state"], "closed");
    assert_eq!(
        (
            v["active_count"].clone(),
            v["closed_count"].clone(),
            v["total_count"].clone()
        ),
        (json!(2), json!(1), json!(3))
    );
    insta::assert_json_snapshot!("sessions_all", v);
}

#[test]
fn case03_sessions_closed() {
    let ws = Ws::golden();
    let v = ws.ok(&["sessions", "--state", "closed"]);
    let folders: Vec<_> = v["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["folder"].clone())
        .collect();
    assert_eq!(folders, [json!("session003-dev-baz")]);
    insta::assert_json_snapshot!("sessions_closed", v);
}

#[test]
fn case04_session_artifacts_001() {
    let ws = Ws::golden();
    let v = ws.ok(&["session-artifacts", "--code", "001"]);
    let a = &v["artifacts"];
    assert_eq!(a["session"]["titulo"], "Objetivo — session001-dev-foo");
    assert_eq!(a["session"]["criterios_count"], 1);
    assert_eq!(a["session"]["has_origen"], false);
    assert_eq!(
        (
            &a["tasks"]["total"],
            &a["tasks"]["open"],
            &a["tasks"]["closed"]
        ),
        (&json!(5), &json!(3), &json!(2))
    );
    assert_eq!(a["tasks"]["progress_pct"], 40);
    assert!(
        a["tasks"]["next_open"]["text"]
            .as_str()
            .unwrap()
            .starts_with("T2.1")
    );
    assert_eq!(a["decisiones_count"], 3);
    assert!(
        a.as_object()
            .unwrap()
            .keys()
            .all(|k| !k.ends_with("_present")),
        "no presence flags without --verbose when nothing is present"
    );
    insta::assert_json_snapshot!("artifacts_001", v);
}

#[test]
fn case06_session_resume_001() {
    let ws = Ws::golden();
    let v = ws.ok(&["session-resume", "--code", "001"]);
    let raw = ws.read(".workflow/sessions/session001-dev-foo/OBJETIVO.md");
    assert_eq!(v["objetivo"], raw);
    assert_eq!(v["objetivo_text"], raw);
    assert_eq!(v["checkpoint"], json!(null));
    assert_eq!(v["state"], "active");
    assert!(
        !ws.sessions().join(".bindings.json").exists(),
        "a read never binds"
    );
}

// ---- write cases (7–17): each on a fresh copy ----

#[test]
fn case07_history_update_closed() {
    let ws = Ws::golden();
    let v = ws.ok(&[
        "history-update",
        "--code",
        "001",
        "--state",
        "closed",
        "--summary",
        "ignored",
    ]);
    assert_eq!(
        v,
        json!({"code": "001", "flow": null, "action": "updated", "state": "closed"})
    );
    let text = ws.read(".workflow/HISTORY.md");
    assert_eq!(
        text,
        "# QTC Session History\n\n\
         | Session | Date | State | Refs |\n\
         |---------|------|-------|------|\n\
         | 001-dev-foo | 2026-01-01 | closed | — |\n\
         | 002-bar | 2026-01-02 | active | — |\n\
         | 003-baz | 2026-01-03 | closed | [DEC](../docs/decisiones/003-baz.md) |\n"
    );
}

#[test]
fn case08_session_close_001() {
    let ws = Ws::golden().pinned_clock();
    let v = ws.ok(&["session-close", "--code", "001"]);
    assert_eq!(v["code"], "001");
    assert_eq!(v["folder"], "session001-dev-foo");
    assert_eq!(v["closed"], true);
    assert_eq!(
        v["history"],
        json!({"action": "updated", "state": "closed"})
    );
    let dir = ws.sessions().join("session001-dev-foo");
    assert!(dir.join(".closed").exists());
    assert_eq!(
        std::fs::read_to_string(dir.join("CHECKPOINT.md")).unwrap(),
        "# CHECKPOINT\n"
    );
    assert!(
        !dir.join("BACKLOG.md").exists(),
        "BACKLOG.md is never created"
    );
    let history = ws.read(".workflow/HISTORY.md");
    let row = history
        .lines()
        .find(|l| l.starts_with("| 001-dev-foo |"))
        .unwrap();
    assert!(row.contains("| closed |"), "{row}");
    insta::assert_json_snapshot!("close_001", ws.masked(&v));
}

#[test]
fn case09_session_close_with_refs() {
    let ws = Ws::golden();
    let refs = "see docs/decisiones/001-foo.md";
    let v = ws.ok(&["session-close", "--code", "001", "--refs", refs]);
    assert_eq!(v["refs"], refs);
    let history = ws.read(".workflow/HISTORY.md");
    let row = history
        .lines()
        .find(|l| l.starts_with("| 001-dev-foo |"))
        .unwrap();
    assert!(row.contains(refs), "{row}");
}

#[test]
fn case10_session_close_with_busy_lock_writes_nothing() {
    let ws = Ws::golden();
    let now = std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%dT%H:%M:%S.000Z"])
        .output()
        .unwrap();
    let stamp = format!(
        "{{\"pid\":{},\"ts\":\"{}\"}}",
        std::process::id(),
        String::from_utf8(now.stdout).unwrap().trim()
    );
    std::fs::write(ws.root().join(".workflow/.lock"), &stamp).unwrap();
    let before = ws.tree();
    let (exit, v) = ws.run_env(
        &["session-close", "--code", "001"],
        &[("AW_LOCK_WAIT_MS", "100")],
    );
    assert_eq!(exit, 1);
    assert_eq!(v["error"]["code"], "LOCK_BUSY");
    assert!(v["error"]["message"].as_str().unwrap().contains("locked"));
    let dir = ws.sessions().join("session001-dev-foo");
    assert!(!dir.join(".closed").exists());
    assert!(
        !dir.join("CHECKPOINT.md").exists(),
        "defect 8 fixed: a busy lock leaves no checkpoint behind"
    );
    assert_eq!(ws.tree(), before, "nothing at all was written");
}

#[test]
fn case11_session_close_unknown() {
    let ws = Ws::golden();
    let v = ws.fails(&["session-close", "--code", "999"], "SESSION_NOT_FOUND");
    assert!(v["error"]["message"].as_str().unwrap().contains("'999'"));
    let candidates = v["data"]["candidates"].as_array().unwrap();
    assert!(candidates.contains(&json!({
        "folder": "session001-dev-foo", "code": "001", "state": "active"
    })));
}

#[test]
fn case12_session_create_exec() {
    let ws = Ws::golden().pinned_clock();
    let history = ws.read(".workflow/HISTORY.md");
    let claude = ws.read("CLAUDE.md");
    let v = ws.ok(&[
        "session-create",
        "--type",
        "exec",
        "--name",
        "session004-dev-nueva-tarea",
        "--objetivo",
        "Probar session-create del CLI TS",
        "--from",
        "loop exec, docs/plan-004.md",
    ]);
    assert_eq!(v["number"], "004");
    assert_eq!(v["folder"], "004-session004-dev-nueva-tarea");
    assert_eq!(v["name"], "session004-dev-nueva-tarea");
    assert_eq!(v["origin"], "loop exec, docs/plan-004.md");
    let text = ws.read(".workflow/sessions/004-session004-dev-nueva-tarea/SESSION.md");
    assert!(text.contains("## Origin\n- loop exec\n- docs/plan-004.md\n"));
    assert!(
        text.contains("## Type\nexec\n"),
        "no flow suffix, so the type is written"
    );
    insta::assert_snapshot!("session_md_exec", text.replace(&ws.today(), "[TODAY]"));
    insta::assert_json_snapshot!("create_exec", ws.masked(&v));
    assert_eq!(ws.read(".workflow/HISTORY.md"), history);
    assert_eq!(ws.read("CLAUDE.md"), claude);
}

#[test]
fn case13_global_sequential_numbering() {
    let ws = Ws::golden();
    let mut folders = Vec::new();
    for (kind, name) in [
        ("refine", "spec-refine"),
        ("research", "spec-refine-research-winfacts"),
        ("refine", "plan-new"),
        ("quick", "001-quick"),
    ] {
        let v = ws.ok(&[
            "session-create",
            "--type",
            kind,
            "--name",
            name,
            "--objetivo",
            "x",
        ]);
        folders.push(v["folder"].as_str().unwrap().to_owned());
    }
    assert_eq!(
        folders,
        [
            "004-spec-refine",
            "005-spec-refine-research-winfacts",
            "006-plan-new",
            "007-quick"
        ]
    );
    assert_eq!(ws.ok(&["sessions"])["next_correlative"], "008");
}

#[test]
fn case14_session_create_without_from() {
    let ws = Ws::golden();
    let v = ws.ok(&[
        "session-create",
        "--type",
        "research",
        "--name",
        "investiga-x",
        "--objetivo",
        "Investigar el patrón X",
    ]);
    assert_eq!(v["folder"], "004-investiga-x");
    assert!(v.get("origin").is_none());
    let text = ws.read(".workflow/sessions/004-investiga-x/SESSION.md");
    assert!(text.contains("## Origin\n<!-- "));
    assert!(text.contains("## Type\nresearch\n"));
}

#[test]
fn case15_missing_type() {
    let ws = Ws::golden();
    let v = ws.fails(
        &["session-create", "--name", "x", "--objetivo", "y"],
        "INVALID_INPUT",
    );
    assert!(v["error"]["message"].as_str().unwrap().contains("--type"));
    assert_eq!(
        v["data"]["expected"],
        json!(["research", "refine", "exec", "quick"])
    );
}

#[test]
fn case16_invalid_type() {
    let ws = Ws::golden();
    let v = ws.fails(
        &[
            "session-create",
            "--type",
            "feature",
            "--name",
            "x",
            "--objetivo",
            "y",
        ],
        "INVALID_INPUT",
    );
    assert!(v["error"]["message"].as_str().unwrap().contains("feature"));
}

#[test]
fn case17_missing_objective() {
    let ws = Ws::golden();
    let before = ws.tree();
    let v = ws.fails(
        &["session-create", "--type", "exec", "--name", "x"],
        "INVALID_INPUT",
    );
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("--objective")
    );
    assert_eq!(ws.tree(), before);
}
