//! Session commands end to end: the resolver (§7.2) and its envelopes, conversation bindings
//! (§7.3), create/close/resume/reopen, HISTORY upserts (§7.9), artifacts, and the defects the
//! reference had (§13: 3, 4, 5, 8, 9, 14, 16).

use crate::support::{Ws, json_of};
use serde_json::{Value, json};

fn create(ws: &Ws, name: &str) -> Value {
    ws.create_session("quick", name, "o")
}

fn registry(ws: &Ws) -> Value {
    serde_json::from_str(&ws.read(".workflow/sessions/.bindings.json")).unwrap()
}

/// sha256 of a context id, computed by `sha256sum` so the test does not share the code under
/// test.
fn sha256(s: &str) -> String {
    use std::io::Write;
    let mut child = std::process::Command::new("sha256sum")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(s.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout).unwrap()[..64].to_owned()
}

// ---- resolver ----

#[test]
fn explicit_codes_match_numbers_prefixes_and_exact_names() {
    let ws = Ws::new();
    ws.session("004-login", false);
    ws.session("004-login-x", false);
    ws.session("session007-old", false);
    assert_eq!(
        ws.ok(&["session-resume", "--code", "7"])["folder"],
        "session007-old"
    );
    assert_eq!(
        ws.ok(&["session-resume", "--code", "session7"])["folder"],
        "session007-old"
    );
    assert_eq!(
        ws.ok(&["session-resume", "--code", "004-login-x"])["folder"],
        "004-login-x"
    );
    // The exact folder name wins over the prefix match of 004-login-x.
    assert_eq!(
        ws.ok(&["session-resume", "--code", "004-login"])["folder"],
        "004-login"
    );
    let v = ws.fails(&["session-resume", "--code", "4"], "SESSION_AMBIGUOUS");
    assert_eq!(
        v["data"]["candidates"],
        json!([
            {"folder": "004-login", "code": "004", "state": "active"},
            {"folder": "004-login-x", "code": "004", "state": "active"}
        ])
    );
    let v = ws.fails(&["session-resume", "--code", "../etc"], "INVALID_INPUT");
    assert!(v["data"]["candidates"].is_array());
}

#[test]
fn implicit_resolution_sole_active_or_refuses() {
    let ws = Ws::new();
    ws.fails(&["session-resume"], "SESSION_NOT_FOUND");
    ws.session("001-a", false);
    ws.session("002-b", true);
    let v = ws.ok(&["session-resume"]);
    assert_eq!(v["folder"], "001-a");
    ws.session("003-c", false);
    let v = ws.fails(&["session-resume"], "SESSION_AMBIGUOUS");
    assert_eq!(v["data"]["candidates"].as_array().unwrap().len(), 2);
    // An explicit code that fails never falls through to the sole active session.
    ws.fails(&["session-resume", "--code", "9"], "SESSION_NOT_FOUND");
}

#[test]
fn closed_sessions_are_refused_where_closed_is_not_allowed() {
    let ws = Ws::new();
    ws.session("003-done", true);
    let v = ws.fails(
        &[
            "next-number",
            "docs/specs",
            "--claim",
            "spec-x.md",
            "--code",
            "3",
        ],
        "SESSION_CLOSED",
    );
    assert!(v["data"]["action"].as_str().unwrap().contains("--reopen"));
    assert!(!ws.root().join("docs/specs").exists(), "nothing created");
    // Reads and closes accept a closed session.
    assert_eq!(ws.ok(&["session-resume", "--code", "3"])["state"], "closed");
}

#[test]
fn writes_refuse_a_number_shared_by_two_folders() {
    let ws = Ws::new();
    ws.session("047-x", false);
    ws.session("session047-y", false);
    let before = ws.tree();
    let v = ws.fails(&["session-close", "--code", "047-x"], "SESSION_AMBIGUOUS");
    // The action names the folders to rename (aw has no `workspace-migrate` to point to).
    let action = v["data"]["action"].as_str().unwrap();
    assert!(action.contains("047-x, session047-y"), "{action}");
    assert!(!action.contains("workspace-migrate"), "{action}");
    assert_eq!(v["data"]["candidates"].as_array().unwrap().len(), 2);
    let mut after = ws.tree();
    after.remove(".workflow/.lock");
    assert_eq!(after, before);
    // Reading is fine.
    assert_eq!(
        ws.ok(&["session-resume", "--code", "047-x"])["folder"],
        "047-x"
    );
}

// ---- bindings ----

#[test]
fn create_binds_and_the_binding_resolves_later() {
    let ws = Ws::new();
    let conv = [("AW_CONTEXT_ID", " conv-A ")];
    let (code, v) = ws.run_env(
        &[
            "session-create",
            "--type",
            "quick",
            "--name",
            "a-quick",
            "--objective",
            "o",
        ],
        &conv,
    );
    assert_eq!(code, 0, "{v:#}");
    create(&ws, "b-quick");
    let text = ws.read(".workflow/sessions/.bindings.json");
    assert_eq!(
        text,
        format!(
            "{{\n  \"version\": 1,\n  \"bindings\": {{\n    \"{}\": \"001-a-quick\"\n  }}\n}}\n",
            sha256("conv-A")
        ),
        "keys are sha256 of the trimmed context id; the raw id is never stored"
    );
    assert!(!text.contains("conv-A"));
    let (code, v) = ws.run_env(&["session-resume"], &conv);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["folder"], "001-a-quick");
    // Another conversation has no binding: two active sessions are ambiguous.
    let (code, v) = ws.run_env(&["session-resume"], &[("AW_CONTEXT_ID", "conv-B")]);
    assert_eq!(
        (code, v["error"]["code"].clone()),
        (1, json!("SESSION_AMBIGUOUS"))
    );
}

#[test]
fn reads_never_bind() {
    let ws = Ws::new();
    ws.session("001-a", false);
    let conv = [("AW_CONTEXT_ID", "conv-R")];
    for args in [
        &["session-resume"][..],
        &["session-artifacts"][..],
        &["session-resume", "--code", "1"][..],
    ] {
        let (code, _) = ws.run_env(args, &conv);
        assert_eq!(code, 0);
    }
    assert!(!ws.sessions().join(".bindings.json").exists());
}

#[test]
fn invalid_registries_fail_closed() {
    let ws = Ws::new();
    ws.session("001-a", false);
    ws.session("002-gone-closed", true);
    let conv = [("AW_CONTEXT_ID", "conv-X")];
    let key = sha256("conv-X");
    let cases = [
        "{not json".to_owned(),
        r#"{"version":2,"bindings":{}}"#.to_owned(),
        r#"{"version":1,"bindings":[]}"#.to_owned(),
        format!(r#"{{"version":1,"bindings":{{"{key}":""}}}}"#),
        format!(r#"{{"version":1,"bindings":{{"{key}":"009-missing"}}}}"#),
        format!(r#"{{"version":1,"bindings":{{"{key}":"002-gone-closed"}}}}"#),
    ];
    for reg in cases {
        std::fs::write(ws.sessions().join(".bindings.json"), &reg).unwrap();
        let (code, v) = ws.run_env(&["session-resume"], &conv);
        assert_eq!(code, 1, "{reg}");
        assert_eq!(
            v["error"]["code"], "SESSION_BINDING_INVALID",
            "{reg}: {v:#}"
        );
        assert_eq!(
            ws.read(".workflow/sessions/.bindings.json"),
            reg,
            "never repaired"
        );
    }
    // session-create with a context id refuses too, and creates nothing.
    std::fs::write(ws.sessions().join(".bindings.json"), "{bad").unwrap();
    let (code, v) = ws.run_env(
        &[
            "session-create",
            "--type",
            "quick",
            "--name",
            "n-quick",
            "--objective",
            "o",
        ],
        &conv,
    );
    assert_eq!(
        (code, v["error"]["code"].clone()),
        (1, json!("SESSION_BINDING_INVALID"))
    );
    assert!(!ws.sessions().join("003-n-quick").exists());
    // An empty registry file is an empty registry.
    std::fs::write(ws.sessions().join(".bindings.json"), "").unwrap();
    let (code, _) = ws.run_env(&["session-resume"], &conv);
    assert_eq!(code, 0);
}

#[test]
fn close_removes_bindings_and_refuses_on_a_broken_registry() {
    let ws = Ws::new();
    let conv = [("AW_CONTEXT_ID", "conv-C")];
    let (code, _) = ws.run_env(
        &[
            "session-create",
            "--type",
            "quick",
            "--name",
            "c-quick",
            "--objective",
            "o",
        ],
        &conv,
    );
    assert_eq!(code, 0);
    let v = ws.ok(&["session-close", "--code", "1"]);
    assert_eq!(v["bindings_invalidated"], 1);
    assert_eq!(registry(&ws)["bindings"], json!({}));

    let ws = Ws::new();
    ws.session("001-a", false);
    std::fs::write(ws.sessions().join(".bindings.json"), "[").unwrap();
    let before = ws.tree();
    ws.fails(&["session-close", "--code", "1"], "SESSION_BINDING_INVALID");
    let mut after = ws.tree();
    after.remove(".workflow/.lock");
    assert_eq!(after, before, "no checkpoint, no .closed, no history");
}

#[test]
fn reopen_removes_closed_and_binds() {
    let ws = Ws::new();
    ws.session("001-a", true);
    let v = ws.fails(&["session-resume", "--reopen"], "INVALID_INPUT");
    assert!(v["error"]["message"].as_str().unwrap().contains("--code"));
    let (code, v) = ws.run_env(
        &["session-resume", "--code", "1", "--reopen"],
        &[("AW_CONTEXT_ID", "conv-O")],
    );
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["state"], "active");
    assert!(!ws.sessions().join("001-a/.closed").exists());
    assert_eq!(registry(&ws)["bindings"][sha256("conv-O")], "001-a");
    // Reopening an active session is idempotent.
    assert_eq!(
        ws.ok(&["session-resume", "--code", "1", "--reopen"])["state"],
        "active"
    );
}

// ---- create ----

#[test]
fn escaping_names_are_refused_and_nothing_is_created() {
    let ws = Ws::new();
    let before = ws.tree();
    for name in [
        "x/../../../../escaped-quick",
        "../up",
        "a\\b",
        "..",
        ".hidden",
        "tab\tname",
        "   ",
    ] {
        let (code, v) = ws.run(&[
            "session-create",
            "--type",
            "quick",
            "--name",
            name,
            "--objective",
            "o",
        ]);
        assert_eq!(code, 1, "{name:?}");
        assert_eq!(v["error"]["code"], "INVALID_INPUT", "{name:?}");
    }
    assert_eq!(ws.tree(), before);
    let parent = ws.root().parent().unwrap();
    assert!(!parent.join("escaped-quick").exists());
    assert!(!ws.root().join("escaped-quick").exists());
}

#[test]
fn numbering_counts_both_layouts_and_history_rows() {
    let ws = Ws::new();
    ws.session("session001-legacy", false);
    assert_eq!(
        create(&ws, "a")["number"],
        "002",
        "legacy folders count (defect 4)"
    );
    std::fs::write(
        ws.history(),
        "# Session History\n\n| Session | Date | State | Refs |\n|---|---|---|---|\n| 041-gone | 2026-01-01 | closed | — |\n",
    )
    .unwrap();
    assert_eq!(ws.ok(&["sessions"])["next_correlative"], "042");
    assert_eq!(create(&ws, "b")["number"], "042", "HISTORY rows count");
    assert_eq!(
        ws.ok(&["sessions"])["next_correlative"],
        "043",
        "current-model folders count (defect 3)"
    );
    ws.session("999-big", false);
    assert_eq!(create(&ws, "c")["folder"], "1000-c", "no width limit");
}

#[test]
fn session_date_comes_from_the_creation_record_not_mtime() {
    let ws = Ws::new().pinned_clock();
    create(&ws, "dated-quick");
    let dir = ws.sessions().join("001-dated-quick");
    let status = std::process::Command::new("touch")
        .args(["-d", "2001-02-03 04:05:06"])
        .arg(&dir)
        .status()
        .unwrap();
    assert!(status.success());
    let v = ws.ok(&["sessions"]);
    assert_eq!(v["sessions"][0]["date"], ws.today());
    assert_eq!(v["sessions"][0]["type"], "quick");
    assert_eq!(v["sessions"][0]["summary"], "001 dated quick");
    // No start date: the HISTORY row's date, then today.
    ws.session("002-undated", false);
    std::fs::write(
        ws.history(),
        "# Session History\n\n| Sesión | Fecha | Estado | Refs |\n|---|---|---|---|\n| 002-undated | 2025-05-05 | active | — |\n",
    )
    .unwrap();
    let v = ws.ok(&["sessions"]);
    assert_eq!(v["sessions"][1]["date"], "2025-05-05");
    // The reference v22 records the day it created a session in the session's custody: that
    // date comes before the HISTORY row's.
    std::fs::write(
        ws.sessions().join("002-undated/.custody.json"),
        r#"{"version":1,"subject":"x","created":"2026-10-01","digest":"d"}"#,
    )
    .unwrap();
    assert_eq!(ws.ok(&["sessions"])["sessions"][1]["date"], "2026-10-01");
    std::fs::write(
        ws.sessions().join("002-undated/.custody.json"),
        r#"{"created":"not a date"}"#,
    )
    .unwrap();
    assert_eq!(ws.ok(&["sessions"])["sessions"][1]["date"], "2025-05-05");
    std::fs::remove_file(ws.history()).unwrap();
    assert_eq!(ws.ok(&["sessions"])["sessions"][1]["date"], ws.today());
}

#[test]
fn create_output_and_files() {
    let ws = Ws::new().pinned_clock();
    let v = ws.ok(&[
        "session-create",
        "--type",
        "REFINE",
        "--name",
        "login-spec-refine",
        "--objective",
        "Refine the login spec",
        "--from",
        "spec-refine-loop, docs/specs/001-spec-login.md",
    ]);
    insta::assert_json_snapshot!("create_refine", ws.masked(&v));
    let text = ws.read(".workflow/sessions/001-login-spec-refine/SESSION.md");
    assert!(!text.contains("## Type"), "the suffix already says refine");
    assert!(text.starts_with("# Session — login-spec-refine\n"));
    let leftovers: Vec<_> = std::fs::read_dir(ws.sessions())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with(".aw-tmp"))
        .collect();
    assert!(leftovers.is_empty());
    let s = &ws.ok(&["sessions"])["sessions"][0];
    assert_eq!(s["type"], "refine");
    assert_eq!(s["path"], ".workflow/sessions/001-login-spec-refine");
}

// ---- close ----

#[test]
fn close_is_idempotent_and_keeps_refs() {
    let ws = Ws::new().pinned_clock();
    create(&ws, "a-quick");
    let v = ws.ok(&[
        "session-close",
        "--code",
        "001-a-quick",
        "--refs",
        "plan:003-plan-x,https://x.y/z,free text",
    ]);
    assert_eq!(v["history"], json!({"action": "added", "state": "closed"}));
    assert_eq!(v["code"], "001-a-quick", "a current folder is its own code");
    let row = format!(
        "| 001-a-quick | {} | closed | [PLAN](../docs/planes/003-plan-x.md), https://x.y/z, free text |",
        ws.today()
    );
    assert_eq!(
        ws.read(".workflow/HISTORY.md"),
        format!(
            "# Session History\n\n| Session | Date | State | Refs |\n|---------|------|-------|------|\n{row}\n"
        )
    );
    let again = ws.ok(&["session-close", "--code", "1"]);
    assert_eq!(again["history"]["action"], "unchanged");
    assert!(ws.read(".workflow/HISTORY.md").contains(&row));
}

#[test]
fn close_requires_code_and_rejects_unknown_flags() {
    let ws = Ws::new();
    ws.session("001-a", false);
    ws.fails(&["session-close"], "INVALID_INPUT");
    let v = ws.fails(&["session-close", "--code", "1", "--bogus"], "UNKNOWN_FLAG");
    assert!(v["error"]["message"].as_str().unwrap().contains("--bogus"));
    assert_eq!(v["data"]["unknown_flags"], json!(["--bogus"]));
    assert!(!ws.sessions().join("001-a/.closed").exists());
    // Every unknown flag is named (v22's `unknown_flags`); an alias such as `--sesion` is known.
    let v = ws.fails(
        &[
            "history-update",
            "--code",
            "1",
            "--sesion",
            "x",
            "--state",
            "closed",
            "--bogus",
            "--also=1",
        ],
        "UNKNOWN_FLAG",
    );
    assert_eq!(v["data"]["unknown_flags"], json!(["--bogus", "--also"]));
    assert!(
        v["data"]["valid_flags"]
            .as_array()
            .unwrap()
            .contains(&json!("--state"))
    );
    assert_eq!(
        v["error"]["details"]["valid_flags"],
        v["data"]["valid_flags"]
    );
    assert!(!ws.history().exists());
}

#[test]
fn close_releases_untouched_reservations_only() {
    let ws = Ws::new();
    create(&ws, "r-quick");
    let a = ws.ok(&[
        "next-number",
        "docs/specs",
        "--claim",
        "spec-a.md",
        "--code",
        "1",
    ]);
    let b = ws.ok(&[
        "next-number",
        "docs/plans",
        "--claim",
        "plan-b.md",
        "--code",
        "1",
    ]);
    let written = b["claimed_path"].as_str().unwrap();
    std::fs::write(written, "# Plan 001 — b\n").unwrap();
    // A slot the reference claimed for this session, and one an older aw claimed: both are
    // this session's reservations; another session's is not.
    let folder = a["claimed_owner"].as_str().unwrap().to_owned();
    ws.write(
        "docs/research/004-research-v22.md",
        &format!("<!-- aw:reserva {folder} -->\n"),
    );
    ws.write(
        "docs/research/005-research-old.md",
        &format!("<!-- aw:reservation {folder} -->\n"),
    );
    ws.write(
        "docs/research/006-research-other.md",
        "<!-- aw:reserva 009-other-quick -->\n",
    );
    let v = ws.ok(&["session-close", "--code", "1"]);
    assert_eq!(
        v["reservations_released"],
        json!([
            "docs/research/004-research-v22.md",
            "docs/research/005-research-old.md",
            "docs/specs/001-spec-a.md"
        ])
    );
    assert!(
        ws.root()
            .join("docs/research/006-research-other.md")
            .exists()
    );
    assert!(!std::path::Path::new(a["claimed_path"].as_str().unwrap()).exists());
    assert!(
        std::path::Path::new(written).exists(),
        "a filled slot is kept"
    );
}

// ---- history-update ----

#[test]
fn history_update_rules() {
    let ws = Ws::new();
    ws.fails(&["history-update", "--code", "1"], "INVALID_INPUT");
    ws.fails(&["history-update", "--state", "closed"], "INVALID_INPUT");
    ws.fails(
        &["history-update", "--code", "1", "--state", "open"],
        "INVALID_INPUT",
    );
    ws.fails(
        &[
            "history-update",
            "--code",
            "1",
            "--state",
            "active",
            "--date",
            "01/02/2026",
        ],
        "INVALID_INPUT",
    );
    ws.fails(
        &["history-update", "--code", "a/b", "--state", "active"],
        "INVALID_INPUT",
    );
    // A code no session folder answers to gets no row: a row would move the next number.
    ws.fails(
        &[
            "history-update",
            "--code",
            "777",
            "--state",
            "active",
            "--date",
            "2026-02-03",
        ],
        "SESSION_NOT_FOUND",
    );
    assert!(!ws.history().exists(), "refusals write nothing");
    assert_eq!(ws.ok(&["sessions"])["next_correlative"], "001");
    ws.session("session005-legacy", false);
    ws.ok(&[
        "history-update",
        "--code",
        "5",
        "--state",
        "active",
        "--sesion",
        "renamed",
        "--date",
        "2026-02-04",
    ]);
    assert!(
        ws.read(".workflow/HISTORY.md")
            .contains("| 005-renamed | 2026-02-04 | active | — |")
    );
    // A busy lock is LOCK_BUSY (the reference said INVALID_INPUT), and nothing is written.
    let before = ws.read(".workflow/HISTORY.md");
    let held = std::fs::File::options()
        .write(true)
        .open(ws.root().join(".workflow/.lock"))
        .unwrap();
    held.lock().unwrap();
    let (code, v) = ws.run_env(
        &["history-update", "--code", "5", "--state", "closed"],
        &[("AW_LOCK_WAIT_MS", "50")],
    );
    assert_eq!((code, v["error"]["code"].clone()), (1, json!("LOCK_BUSY")));
    assert_eq!(ws.read(".workflow/HISTORY.md"), before);
}

#[test]
fn history_spanish_header_is_read_and_upserted() {
    let ws = Ws::new();
    ws.session("001-a", false);
    let es = "# Session History\n\n| Sesión | Fecha | Estado | Refs |\n|--------|-------|--------|------|\n| 001-a | 2026-01-01 | active | — |\n";
    std::fs::write(ws.history(), es).unwrap();
    let v = ws.ok(&["history-update", "--code", "1", "--state", "closed"]);
    assert_eq!(v["action"], "updated");
    assert_eq!(
        ws.read(".workflow/HISTORY.md"),
        es.replace("| active |", "| closed |"),
        "the row keeps its date and the Spanish header stays"
    );
}

#[test]
fn a_history_that_is_not_utf8_is_never_rewritten() {
    let ws = Ws::new();
    let dir = ws.session("001-a", false);
    // "Migración" in Latin-1: a byte no UTF-8 reader can round-trip.
    let mut bytes = b"# Session History\n\n| Session | Date | State | Refs |\n|---|---|---|---|\n| 001-a | 2026-01-01 | active | Migraci".to_vec();
    bytes.extend_from_slice(b"\xf3n |\n");
    std::fs::write(ws.history(), &bytes).unwrap();

    let v = ws.fails(
        &["history-update", "--code", "1", "--state", "closed"],
        "HISTORY_ENCODING_INVALID",
    );
    assert!(
        v["error"]["message"].as_str().unwrap().contains("line 5"),
        "{v}"
    );
    assert_eq!(std::fs::read(ws.history()).unwrap(), bytes);

    // The close itself stands; only the history is left alone, and the reason is reported.
    let v = ws.ok(&["session-close", "--code", "1"]);
    assert_eq!(v["closed"], true);
    assert_eq!(v["history"], Value::Null);
    let why = v["history_error"].as_str().unwrap();
    assert!(
        why.contains("UTF-8") && why.contains("iconv"),
        "the cause and its fix: {why}"
    );
    assert!(dir.join(".closed").exists());
    assert_eq!(std::fs::read(ws.history()).unwrap(), bytes);

    // Reading stays tolerant: the row still counts for numbering.
    assert_eq!(ws.ok(&["sessions"])["next_correlative"], "002");
}

// ---- artifacts ----

#[test]
fn artifacts_flags_scripts_and_dump() {
    let ws = Ws::new();
    let dir = ws.session("001-a", false);
    std::fs::write(dir.join("SESSION.md"), "# Session — a\n\nBranch: feat/a\n\n## Origin\n- loop\n\n## Success criteria\n- [ ] one\n- [x] two\n").unwrap();
    std::fs::write(dir.join("checkpoint.md"), "# c\n").unwrap();
    std::fs::write(dir.join("Conclusiones.md"), "# c\n").unwrap();
    std::fs::create_dir_all(dir.join("scripts/sub")).unwrap();
    std::fs::write(dir.join("scripts/001-a.sql"), "select 1;").unwrap();
    std::fs::write(dir.join("scripts/sub/001-a.rollback.sql"), "select 0;").unwrap();
    let v = ws.ok(&["session-artifacts"]);
    let a = &v["artifacts"];
    assert_eq!(
        a["session"],
        json!({"titulo": "Session — a", "criterios_count": 2, "has_origen": true})
    );
    assert_eq!(a["tasks"], json!(null));
    assert_eq!(a["checkpoint_present"], true);
    assert_eq!(a["conclusiones_present"], true);
    assert!(a.get("backlog_present").is_none());
    assert_eq!(
        a["scripts"],
        json!({"total": 2, "forward": 1, "rollback": 1, "has_bundle": false})
    );
    assert_eq!(v["branch"], "feat/a");
    assert_eq!(v["path"], ".workflow/sessions/001-a");
    let verbose = ws.ok(&["session-artifacts", "--verbose"]);
    assert_eq!(verbose["artifacts"]["backlog_present"], false);
    // As the reference: the folder's absolute path with `--verbose`, workspace-relative without.
    assert_eq!(
        verbose["path"],
        format!("{}/.workflow/sessions/001-a", ws.root().display())
    );

    ws.fails(&["session-artifacts", "--dump"], "INVALID_INPUT");
    ws.fails(
        &["session-artifacts", "--code", "1", "--dump", "nope"],
        "INVALID_INPUT",
    );
    let d = ws.ok(&[
        "session-artifacts",
        "--code",
        "1",
        "--dump",
        "tasks,scripts,checkpoint",
    ]);
    assert_eq!(d["tasks"], json!(null));
    assert_eq!(d["checkpoint"]["content"], "# c\n");
    assert_eq!(d["checkpoint"]["size"], 4);
    assert_eq!(d["scripts"][1]["name"], "sub/001-a.rollback.sql");
    assert_eq!(d["scripts"][1]["is_rollback"], true);
    assert!(d.get("objetivo").is_none());
    let all = ws.ok(&["session-artifacts", "--code", "1", "--dump"]);
    assert!(
        all["objetivo"]["content"]
            .as_str()
            .unwrap()
            .starts_with("# Session — a")
    );

    let legacy = ws.session("002-old", false);
    std::fs::write(legacy.join("requirements.md"), "# old\n").unwrap();
    ws.fails(
        &["session-artifacts", "--code", "2", "--dump"],
        "LEGACY_FORMAT",
    );
}

#[test]
fn a_seeded_criteria_box_counts_as_one_criterion() {
    let ws = Ws::new();
    ws.create_session("quick", "seed-quick", "x");
    // The bare `- [ ]` session-create seeds is one criterion, as v21 and v22 count it.
    let v = ws.ok(&["session-artifacts", "--code", "1"]);
    assert_eq!(v["artifacts"]["session"]["criterios_count"], 1, "{v}");
}

#[test]
fn dump_takes_english_kinds_in_the_order_asked_with_absolute_paths() {
    let ws = Ws::new();
    let dir = ws.session("001-a", false);
    std::fs::write(dir.join("SESSION.md"), "# Session — a\n\n## Objective\nx\n").unwrap();
    std::fs::write(dir.join("DECISION.md"), "# Decisions\n").unwrap();
    let (code, text) = ws.stdout(
        &[
            "session-artifacts",
            "--code",
            "1",
            "--dump",
            "Decisions, objective,objetivo,CONCLUSIONS",
        ],
        None,
        &[],
    );
    assert_eq!(code, 0, "{text}");
    let d = json_of(&text);
    let keys: Vec<&str> = d.as_object().unwrap().keys().map(String::as_str).collect();
    // The wire ids stay the reference's, in the order asked, each once.
    assert_eq!(
        keys,
        [
            "session",
            "path",
            "code",
            "state",
            "decisiones",
            "objetivo",
            "conclusiones"
        ]
    );
    // As the reference: the folder's absolute path, and each file as {path, content, size}.
    assert_eq!(d["path"], dir.to_string_lossy().as_ref());
    let file: Vec<&str> = d["objetivo"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(file, ["path", "content", "size"]);
    assert_eq!(d["conclusiones"], json!(null));
    let bad = ws.fails(
        &["session-artifacts", "--code", "1", "--dump", "objectives"],
        "INVALID_INPUT",
    );
    assert!(
        bad["data"]["action"]
            .as_str()
            .unwrap()
            .contains("objective")
    );
}

// ---- the narrative block (`aw:recorrido`) ----

const NARRATED_SESSION: &str = "# SESSION — two-quick\n\n## Objective\nz\n\n## Origin\n- \n\n## Success criteria\n<!-- c -->\n- [x] parser compiles\n- [ ] docs\n";

/// What the reference (v22.4.2) leaves in `SESSION.md` after closing the session of
/// [`narrated_session`], byte for byte (recorded with `wl session-close --code 002`).
const CLOSED_BY_THE_REFERENCE: &str = "# SESSION — two-quick\n\n## Objective\nz\n\n## Origin\n- \n\n## Success criteria\n<!-- c -->\n- [x] parser compiles\n- [ ] docs\n\n<!-- aw:recorrido -->\n## Recorrido\n\n> Bloque administrado por el CLI: proyecta las fuentes que enlaza y se reescribe solo. Editarlo a mano no cambia nada — corregí la fuente.\n\n- **Estado:** cerrada\n- **Objetivo:** z _(aplicado · SESSION.md)_\n- **Siguiente paso:** wire CLI _(planificado · CHECKPOINT.md)_\n\n### Tareas\n- parser compiles _(aplicado · SESSION.md)_\n- docs _(planificado · SESSION.md)_\n\n### Decisiones y por qué\n- use serde — Faster to write. _(aplicado · DECISION.md)_\n- Origin: T2 — cache — → docs/x.md _(aplicado · DECISION.md)_\n\n### Resultados\n- parser written _(aplicado · CHECKPOINT.md)_\n- tests green _(aplicado · CHECKPOINT.md)_\n\n### Pendiente\n- wire CLI _(planificado · CHECKPOINT.md)_\n- naming? _(planificado · CHECKPOINT.md)_\n\n### Detalle\n- [CHECKPOINT.md](./CHECKPOINT.md)\n- [DECISION.md](./DECISION.md)\n- [BACKLOG.md](./BACKLOG.md)\n\n<!-- /aw:recorrido -->\n";

/// A session with criteria, two decisions (both shapes), a checkpoint with results, pending work
/// and an open question, and a backlog; its SESSION.md carries `block` after the document.
fn narrated_session(ws: &Ws, block: &str) -> std::path::PathBuf {
    let s = ws.session("002-two-quick", false);
    std::fs::write(s.join("SESSION.md"), format!("{NARRATED_SESSION}{block}")).unwrap();
    std::fs::write(
        s.join("DECISION.md"),
        "# Decisions\n\n## DEC-1: use serde\nFaster to write.\n\n**Origin: T2 — cache**\n→ docs/x.md\n",
    )
    .unwrap();
    std::fs::write(
        s.join("CHECKPOINT.md"),
        "# CHECKPOINT\n\n## Completed\n- parser written\n- tests green\n\n## Pending / Next\n- wire CLI\n\n## Open questions\n- naming?\n",
    )
    .unwrap();
    std::fs::write(s.join("BACKLOG.md"), "# Backlog\n").unwrap();
    s
}

#[test]
fn close_and_reopen_refresh_the_narrative_block_as_the_reference_does() {
    let ws = Ws::new();
    // A block the reference wrote while the session was open.
    let open_block = "\n<!-- aw:recorrido -->\n## Recorrido\n\n> Bloque administrado por el CLI: proyecta las fuentes que enlaza y se reescribe solo. Editarlo a mano no cambia nada — corregí la fuente.\n\n- **Estado:** abierta\n- **Objetivo:** z _(aplicado · SESSION.md)_\n\n<!-- /aw:recorrido -->\n";
    let s = narrated_session(&ws, open_block);
    let v = ws.ok(&["session-close", "--code", "2"]);
    assert!(v.get("narrative_error").is_none(), "{v}");
    // The block now says the session is closed, in the reference's bytes.
    assert_eq!(
        ws.read(".workflow/sessions/002-two-quick/SESSION.md"),
        CLOSED_BY_THE_REFERENCE
    );
    // Reopened, it says so; nothing else moves.
    let v = ws.ok(&["session-resume", "--code", "2", "--reopen"]);
    let reopened = std::fs::read_to_string(s.join("SESSION.md")).unwrap();
    assert_eq!(
        reopened,
        CLOSED_BY_THE_REFERENCE.replace("- **Estado:** cerrada\n", "- **Estado:** reanudada\n")
    );
    // A resuming agent reads the narrative first: before the document and the checkpoint.
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    let at = |k: &str| keys.iter().position(|x| *x == k).unwrap();
    assert!(at("narrative") < at("objetivo") && at("narrative") < at("checkpoint"));
    let n = &v["narrative"];
    assert_eq!(n["phase"], "reanudada");
    assert_eq!(n["next"]["text"], "wire CLI");
    assert_eq!(
        n["tasks"].as_array().unwrap().len(),
        2,
        "the block is not read back"
    );
    assert_eq!(n["decisions"][0]["source"]["locator"], "DEC-1");
    let (code, text) = ws.stdout(
        &["session-resume", "--code", "2", "--format", "human"],
        None,
        &[],
    );
    assert_eq!(code, 0);
    let second = text.lines().nth(1).unwrap_or_default();
    assert_eq!(second, "  Narrative · resumed", "{text}");
    assert!(
        text.contains("Next       wire CLI [planned · CHECKPOINT.md]"),
        "{text}"
    );
    // session-artifacts carries the same narrative last, as v22 does, unless told not to.
    let a = ws.ok(&["session-artifacts", "--code", "2"]);
    assert_eq!(a["narrative"], v["narrative"]);
    let keys: Vec<&str> = a.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys.last(), Some(&"narrative"), "{keys:?}");
    let bare = ws.ok(&["session-artifacts", "--code", "2", "--no-narrative"]);
    assert!(bare.get("narrative").is_none(), "{bare}");
    let dumped = ws.ok(&["session-artifacts", "--code", "2", "--dump", "tasks"]);
    assert!(dumped.get("narrative").is_none(), "a dump is unchanged");
    let (_, text) = ws.stdout(
        &["session-artifacts", "--code", "2", "--format", "human"],
        None,
        &[],
    );
    assert_eq!(text.lines().nth(1), Some("  Narrative · resumed"), "{text}");
    // A plain read refreshes nothing.
    let before = ws.tree();
    ws.ok(&["session-resume", "--code", "2"]);
    ws.ok(&["session-artifacts", "--code", "2"]);
    assert_eq!(ws.tree(), before);
}

#[test]
fn a_session_with_nothing_to_narrate_gets_no_block() {
    let ws = Ws::new();
    ws.create_session("quick", "plain-quick", "x");
    let before = ws.read(".workflow/sessions/001-plain-quick/SESSION.md");
    ws.ok(&["session-close", "--code", "1"]);
    assert_eq!(
        ws.read(".workflow/sessions/001-plain-quick/SESSION.md"),
        before
    );
    ws.ok(&["session-resume", "--code", "1", "--reopen"]);
    assert_eq!(
        ws.read(".workflow/sessions/001-plain-quick/SESSION.md"),
        before
    );
}

#[test]
fn a_written_checkpoint_refreshes_the_narrative_a_kept_one_does_not() {
    let ws = Ws::new();
    let s = narrated_session(&ws, "");
    std::fs::remove_file(s.join("CHECKPOINT.md")).unwrap();
    let v = ws.ok(&["checkpoint-write", "--code", "2"]);
    assert!(v.get("narrative_error").is_none(), "{v}");
    let doc = std::fs::read_to_string(s.join("SESSION.md")).unwrap();
    assert!(doc.starts_with(NARRATED_SESSION), "the document is kept");
    assert!(doc.contains("- **Estado:** abierta\n"), "{doc}");
    // The written template's placeholders are not results.
    assert!(!doc.contains("### Resultados"), "{doc}");
    // The agent fills in the checkpoint; the next write keeps it and leaves the block alone.
    std::fs::write(
        s.join("CHECKPOINT.md"),
        "# CHECKPOINT\n\n## Completed\n- parser written\n",
    )
    .unwrap();
    let v = ws.ok(&["checkpoint-write", "--code", "2"]);
    assert_eq!(v["preserved"], true);
    assert_eq!(std::fs::read_to_string(s.join("SESSION.md")).unwrap(), doc);
    // The closing hook never refreshes it either.
    ws.ok(&["auto-compact-on-close", "--code", "2"]);
    assert_eq!(std::fs::read_to_string(s.join("SESSION.md")).unwrap(), doc);
}

// ---- listing ----

#[test]
fn listing_flags_order_and_paths() {
    let ws = Ws::new();
    for f in ["b-x", "B-y", "001-z", "a_b", "a-b"] {
        ws.session(f, false);
    }
    ws.session("002-shut", true);
    let v = ws.ok(&["sessions"]);
    let folders: Vec<_> = v["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["folder"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        folders,
        ["001-z", "B-y", "a-b", "a_b", "b-x"],
        "byte order (defect 14)"
    );
    let verbose = ws.ok(&["sessions", "--verbose", "--include-legacy"]);
    assert_eq!(verbose["sessions"].as_array().unwrap().len(), 6);
    assert_eq!(verbose["history_exists"], false);
    assert_eq!(verbose["legacy"], json!([]));
    assert!(
        verbose["sessions"][0]["path"]
            .as_str()
            .unwrap()
            .starts_with(ws.root().to_str().unwrap())
    );
    ws.fails(&["sessions", "--state", "foo"], "INVALID_INPUT");
    assert_eq!(
        ws.ok(&["sessions", "--state", "closed"])["sessions"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

// ---- human projections ----

#[test]
fn human_projections() {
    let ws = Ws::golden();
    let human = |args: &[&str]| -> String {
        let out = ws
            .aw()
            .args(args)
            .arg("--format")
            .arg("human")
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let list = human(&["sessions", "--all"]);
    assert!(list.starts_with("FOLDER"), "{list}");
    assert!(list.contains("session003-dev-baz"));
    assert!(list.contains("the next session takes number 004"), "{list}");
    assert!(human(&["session-artifacts", "--code", "1"]).contains("2/5 done (40%)"));
    assert!(human(&["session-resume", "--code", "1"]).starts_with("session001-dev-foo · active"));
    assert!(
        human(&["history-update", "--code", "2", "--state", "active"])
            .starts_with("HISTORY row 002-analyze-bar")
    );
    assert!(
        human(&["session-close", "--code", "1"]).starts_with("Closed session session001-dev-foo")
    );
    assert!(
        human(&[
            "session-create",
            "--type",
            "quick",
            "--name",
            "h-quick",
            "--objective",
            "o"
        ])
        .starts_with("Created session 004-h-quick (quick)")
    );
    assert!(human(&["next-number", "docs/specs"]).starts_with("Next number in docs/specs: 001"));
    let fail = human(&["session-close", "--code", "999"]);
    assert!(fail.starts_with("✗ SESSION_NOT_FOUND"), "{fail}");
    assert!(fail.contains("session002-analyze-bar  (active)"), "{fail}");
}

#[test]
fn create_refuses_a_taken_name_and_busy_lock() {
    let ws = Ws::new();
    // A stray file holds the name the next number would give.
    std::fs::write(ws.sessions().join("001-taken"), "").unwrap();
    let v = ws.fails(
        &[
            "session-create",
            "--type",
            "quick",
            "--name",
            "taken",
            "--objective",
            "o",
        ],
        "INVALID_INPUT",
    );
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("already exists")
    );
    let held = std::fs::File::options()
        .write(true)
        .create(true)
        .truncate(false)
        .open(ws.root().join(".workflow/.lock"))
        .unwrap();
    held.lock().unwrap();
    let (code, v) = ws.run_env(
        &[
            "session-create",
            "--type",
            "quick",
            "--name",
            "x-quick",
            "--objective",
            "o",
        ],
        &[("AW_LOCK_WAIT_MS", "50")],
    );
    assert_eq!((code, v["error"]["code"].clone()), (1, json!("LOCK_BUSY")));
    assert!(!ws.sessions().join("001-x-quick").exists());
}

#[test]
fn resume_parses_the_checkpoint_in_either_language() {
    let ws = Ws::new();
    let dir = ws.session("001-a", false);
    std::fs::write(dir.join("SESSION.md"), "# Session — a\n").unwrap();
    std::fs::write(
        dir.join("CHECKPOINT.md"),
        "# Checkpoint\n\n## Completed\n- parser\n\n## Pending / Next\n- table\n",
    )
    .unwrap();
    let v = ws.ok(&["session-resume"]);
    assert_eq!(v["checkpoint"]["ultimo"], "- parser");
    assert_eq!(v["checkpoint"]["proximo"], "- table");
    assert_eq!(v["objetivo"], "# Session — a\n");
    std::fs::write(
        dir.join("CHECKPOINT.md"),
        "# Checkpoint\n\n- Actualizado: 2026-01-02 10:00\n\n## Próximo paso\nseguir\n",
    )
    .unwrap();
    let v = ws.ok(&["session-resume", "--code", "001-a"]);
    assert_eq!(v["checkpoint"]["actualizado"], "2026-01-02 10:00");
    assert_eq!(v["checkpoint"]["proximo"], "seguir");
}
