//! `aw hook sql-mutation-guard` and `aw hook git-commit-advisor`: the advisory PreToolUse guards,
//! fed Claude Code's PreToolUse payload (`session_id`, `transcript_path`, `cwd`,
//! `hook_event_name`, `tool_name`, `tool_input`).

use crate::support::Ws;
use serde_json::json;
use std::path::Path;

const RUNTIME: &str = r#"{"packageName":"@acme/wf","binName":"agent-workflow",
  "mcpGuards":{"sqlMutation":{"toolPattern":"^mcp__.*__execute_sql$","serverPattern":"^mcp__(.+?)__"}}}"#;

/// A workspace whose HOME holds the runtime settings that turn the SQL guard on.
fn guarded() -> Ws {
    let ws = Ws::new();
    runtime(&ws, RUNTIME);
    ws
}

fn runtime(ws: &Ws, text: &str) {
    let dir = ws.home().join(".workflow/agent-workflow");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("runtime.json"), text).unwrap();
}

/// Claude Code's PreToolUse payload for `tool` with `input`, run in `cwd`.
fn claude(cwd: &Path, tool: &str, input: serde_json::Value) -> String {
    json!({
        "session_id": "9f1c2e7a-1111-2222-3333-444455556666",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": input,
    })
    .to_string()
}

/// (exit code, stdout, stderr) of `aw hook <name>` in `dir`.
fn run(
    ws: &Ws,
    dir: &Path,
    name: &str,
    stdin: Option<&str>,
    env: &[(&str, &str)],
) -> (i32, String, String) {
    let out = ws.output_in(dir, &["hook", name], stdin, env);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn sql(ws: &Ws, tool: &str, statement: &str, env: &[(&str, &str)]) -> (i32, String, String) {
    let payload = claude(ws.root(), tool, json!({"sql": statement}));
    run(ws, ws.root(), "sql-mutation-guard", Some(&payload), env)
}

#[test]
fn a_mutating_statement_is_blocked_naming_tool_server_keyword_and_bypasses() {
    let ws = guarded();
    let before = ws.tree();
    let (code, out, err) = sql(
        &ws,
        "mcp__dbcert__execute_sql",
        "-- DELETE\nselect 1; update t set a = 1",
        &[],
    );
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "a hook prints nothing on stdout: {out}");
    assert!(err.starts_with("[aw sql-mutation-guard]"), "{err}");
    for part in [
        "mcp__dbcert__execute_sql",
        "mcp__dbcert__",
        "keyword: UPDATE",
        "AW_SQL_GUARD=off",
        "AW_SQL_GUARD_ALLOW",
    ] {
        assert!(err.contains(part), "{part}: {err}");
    }
    assert_eq!(ws.tree(), before, "a guard writes nothing");
}

#[test]
fn reads_comments_other_tools_and_the_other_keys_are_let_through_silently() {
    let ws = guarded();
    for (tool, statement) in [
        ("mcp__dbcert__execute_sql", "/* DROP */ select 1"),
        ("mcp__dbcert__execute_sql", "select * from updates -- drop"),
        ("mcp__dbcert__execute_sql", "   "),
        ("mcp__dbcert__list_tables", "drop table x"),
        ("Bash", "drop table x"),
    ] {
        assert_eq!(
            sql(&ws, tool, statement, &[]),
            (0, String::new(), String::new()),
            "{tool} {statement}"
        );
    }
    let payload = claude(
        ws.root(),
        "mcp__db__execute_sql",
        json!({"sql": " ", "query": 1, "statement": "Truncate t"}),
    );
    let (code, _, err) = run(&ws, ws.root(), "sql-mutation-guard", Some(&payload), &[]);
    assert_eq!(code, 2);
    assert!(err.contains("keyword: TRUNCATE"), "{err}");
}

#[test]
fn the_bypass_variables_let_the_statement_through() {
    let ws = guarded();
    let t = "mcp__dbcert__execute_sql";
    let quiet = (0, String::new(), String::new());
    assert_eq!(
        sql(&ws, t, "drop table x", &[("AW_SQL_GUARD", "OFF")]),
        quiet
    );
    assert_eq!(
        sql(
            &ws,
            t,
            "drop table x",
            &[("AW_SQL_GUARD_ALLOW", "prod, dbcert")]
        ),
        quiet
    );
    assert_eq!(
        sql(&ws, t, "drop table x", &[("AW_SQL_GUARD_ALLOW", "prod")]).0,
        2
    );
    assert_eq!(sql(&ws, t, "drop table x", &[("AW_SQL_GUARD", "no")]).0, 2);
}

#[test]
fn a_server_named_in_capitals_can_be_allowed() {
    let ws = guarded();
    let t = "mcp__DBCert__execute_sql";
    assert_eq!(
        sql(&ws, t, "drop table x", &[("AW_SQL_GUARD_ALLOW", "dbcert")]),
        (0, String::new(), String::new())
    );
    assert_eq!(sql(&ws, t, "drop table x", &[]).0, 2);
}

#[test]
fn without_usable_runtime_settings_the_sql_guard_is_off() {
    let ws = Ws::new();
    let t = "mcp__dbcert__execute_sql";
    let quiet = (0, String::new(), String::new());
    assert_eq!(sql(&ws, t, "drop table x", &[]), quiet, "no settings file");
    for text in [
        r#"{"binName":"agent-workflow","mcpGuards":{"sqlMutation":{"toolPattern":".","serverPattern":"."}}}"#,
        r#"{"packageName":"p","binName":"b"}"#,
        r#"{"packageName":"p","binName":"b","mcpGuards":{"sqlMutation":{"toolPattern":"(","serverPattern":"."}}}"#,
        "not json",
    ] {
        runtime(&ws, text);
        assert_eq!(sql(&ws, t, "drop table x", &[]), quiet, "{text}");
    }
    runtime(
        &ws,
        r#"{"packageName":"p","binName":"b","displayName":"Acme",
        "mcpGuards":{"sqlMutation":{"toolPattern":"execute_sql$","serverPattern":"^mcp__(.+?)__"}}}"#,
    );
    let (code, _, err) = sql(&ws, t, "drop table x", &[]);
    assert_eq!(code, 2);
    assert!(err.starts_with("[Acme sql-mutation-guard]"), "{err}");
}

#[test]
fn garbage_on_stdin_never_breaks_either_guard() {
    let ws = guarded();
    std::fs::create_dir_all(ws.sessions().join("001-one-quick")).unwrap();
    let deep = format!("{{\"a\":{}{}}}", "[".repeat(100_000), "]".repeat(100_000));
    let bytes = String::from_utf8_lossy(&[0xff, 0xfe, b'{', 0x00]).into_owned();
    for name in ["sql-mutation-guard", "git-commit-advisor"] {
        for stdin in [
            None,
            Some(""),
            Some("   \n"),
            Some("not json"),
            Some("[1,2]"),
            Some("null"),
            Some("\"x\""),
            Some("{\"tool_name\":"),
            Some(deep.as_str()),
            Some(bytes.as_str()),
        ] {
            let (code, out, err) = run(&ws, ws.root(), name, stdin, &[]);
            assert_eq!(
                (code, out.as_str(), err.as_str()),
                (0, "", ""),
                "{name} {:?}",
                stdin.map(|s| &s[..s.len().min(20)])
            );
        }
    }
}

fn commit(ws: &Ws, command: &str, env: &[(&str, &str)]) -> (i32, String, String) {
    let payload = claude(
        ws.root(),
        "Bash",
        json!({"command": command, "description": "Commit"}),
    );
    run(ws, ws.home(), "git-commit-advisor", Some(&payload), env)
}

#[test]
fn a_commit_without_the_session_tag_gets_advice_and_still_runs() {
    let ws = Ws::new();
    std::fs::create_dir_all(ws.sessions().join("001-one-quick")).unwrap();
    let before = ws.tree();
    // Run from HOME: the workspace is the payload's `cwd`.
    let (code, out, err) = commit(&ws, r#"git add . && git commit -m "feat: add x""#, &[]);
    assert_eq!(code, 0, "the advisor never blocks");
    assert!(out.is_empty(), "{out}");
    assert!(err.starts_with("[aw git-commit-advisor]"), "{err}");
    for part in [
        "session001 (001-one-quick)",
        "\"feat: add x\"",
        "`session001`",
        "AW_COMMIT_ADVISOR=off",
    ] {
        assert!(err.contains(part), "{part}: {err}");
    }
    assert_eq!(ws.tree(), before, "the advisor writes nothing");
    let long = format!("git commit -m '{}'", "y".repeat(80));
    let (_, _, err) = commit(&ws, &long, &[]);
    assert!(err.contains(&format!("\"{}...\"", "y".repeat(60))), "{err}");
}

#[test]
fn the_advisor_is_silent_when_it_has_nothing_to_say() {
    let ws = Ws::new();
    let quiet = (0, String::new(), String::new());
    let plain = r#"git commit -m "feat: add x""#;
    assert_eq!(commit(&ws, plain, &[]), quiet, "no session");
    std::fs::create_dir_all(ws.sessions().join("001-one-quick")).unwrap();
    for command in [
        "git commit -m 'feat: y (session001)'",
        r#"git commit -m "feat: y (Session0042)""#,
        "git commit --message='feat: y'",
        "git commit -F msg.txt",
        "git commit",
        "git status",
        r#"echo "git commit -mx""#,
    ] {
        assert_eq!(commit(&ws, command, &[]), quiet, "{command}");
    }
    assert_eq!(
        commit(&ws, plain, &[("AW_COMMIT_ADVISOR", "Off")]),
        quiet,
        "bypass"
    );
    let other = claude(ws.root(), "Shell", json!({"command": plain}));
    assert_eq!(
        run(&ws, ws.root(), "git-commit-advisor", Some(&other), &[]),
        quiet,
        "not Bash"
    );
    std::fs::create_dir_all(ws.sessions().join("002-two")).unwrap();
    assert_eq!(commit(&ws, plain, &[]), quiet, "two active sessions");
    std::fs::write(ws.sessions().join("002-two/.closed"), "").unwrap();
    assert!(!commit(&ws, plain, &[]).2.is_empty(), "one active again");
    std::fs::rename(
        ws.sessions().join("001-one-quick"),
        ws.sessions().join("login-fix"),
    )
    .unwrap();
    assert_eq!(commit(&ws, plain, &[]), quiet, "a session without a number");
    std::fs::rename(
        ws.sessions().join("login-fix"),
        ws.sessions().join("session0042-old"),
    )
    .unwrap();
    assert!(
        commit(&ws, plain, &[])
            .2
            .contains("session0042 (session0042-old)")
    );
}

#[test]
fn a_stdin_left_open_is_read_for_half_the_budget_then_judged() {
    use std::io::Write;
    let ws = guarded();
    let payload = claude(
        ws.root(),
        "mcp__db__execute_sql",
        json!({"sql": "delete from t"}),
    );
    let (reader, mut open) = std::io::pipe().unwrap();
    open.write_all(payload.as_bytes()).unwrap();
    let out = ws
        .process(&["hook", "sql-mutation-guard"])
        .env("AW_HOOK_BUDGET_MS", "400")
        .stdin(std::process::Stdio::from(reader))
        .output()
        .unwrap();
    drop(open);
    assert!(out.stdout.is_empty());
    assert_eq!(
        out.status.code(),
        Some(2),
        "the whole JSON came: it is judged"
    );
    // Nothing on a stdin left open is no payload.
    let (reader, open) = std::io::pipe().unwrap();
    let out = ws
        .process(&["hook", "git-commit-advisor"])
        .env("AW_HOOK_BUDGET_MS", "400")
        .stdin(std::process::Stdio::from(reader))
        .output()
        .unwrap();
    drop(open);
    assert_eq!((out.status.code(), out.stderr.len()), (Some(0), 0));
}
