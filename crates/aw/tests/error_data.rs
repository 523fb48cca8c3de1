//! The failure envelope's `data` beside `action`: the keys the reference put there
//! (`error`, `code`, `sessionError`, the legacy dump's `session`/`path`/`hint`) are kept, with
//! aw's own words for free text and the reference's tokens where it had tokens.

use crate::support::Ws;
use serde_json::{Value, json};
use std::fs::File;

/// A workspace with one source (`app`) and two active sessions, `001-one` and `002-two`.
fn ws() -> Ws {
    let ws = Ws::initialised().with_env("AW_LOCK_WAIT_MS", "50");
    ws.create_session("quick", "one", "first");
    ws.create_session("quick", "two", "second");
    ws
}

/// Runs a command that must fail; returns (error code, data).
fn refused(ws: &Ws, args: &[&str], env: &[(&str, &str)]) -> (String, Value) {
    let (exit, v) = ws.run_env(args, env);
    assert_eq!((exit, &v["ok"]), (1, &json!(false)), "{args:?}: {v:#}");
    assert!(v["data"]["action"].is_string(), "{args:?}: {v:#}");
    (
        v["error"]["code"].as_str().unwrap().to_owned(),
        v["data"].clone(),
    )
}

/// `data.error` repeats the message (aw's words, as the reference repeated its own).
fn reason(ws: &Ws, args: &[&str], env: &[(&str, &str)]) -> (String, Value) {
    let (exit, v) = ws.run_env(args, env);
    assert_eq!(exit, 1, "{args:?}: {v:#}");
    assert_eq!(v["data"]["error"], v["error"]["message"], "{args:?}: {v:#}");
    (
        v["error"]["code"].as_str().unwrap().to_owned(),
        v["data"].clone(),
    )
}

/// Holds the workspace lock until dropped.
fn hold_lock(ws: &Ws) -> File {
    let held = File::options()
        .write(true)
        .create(true)
        .truncate(false)
        .open(ws.root().join(".workflow/.lock"))
        .unwrap();
    held.lock().unwrap();
    held
}

#[test]
fn session_writes_carry_the_reason_and_the_code_where_the_reference_did() {
    let ws = ws();
    // Refused arguments: the reason, and no code (the reference set none).
    let (code, data) = reason(&ws, &["session-create"], &[]);
    assert_eq!(code, "INVALID_INPUT");
    assert_eq!(
        data["expected"],
        json!(["research", "refine", "exec", "quick"])
    );
    assert!(data.get("code").is_none(), "{data:#}");
    for args in [
        &["session-create", "--type", "quick", "--name", "x"][..],
        &["session-create", "--type", "quick", "--objective", "y"],
        &["session-close"],
    ] {
        let (code, data) = reason(&ws, args, &[]);
        assert_eq!((code.as_str(), data.get("code")), ("INVALID_INPUT", None));
    }
    // `--reopen` without `--code` also repeats its code, as the reference's did.
    let (_, data) = reason(&ws, &["session-resume", "--reopen"], &[]);
    assert_eq!(data["code"], "INVALID_INPUT");

    // A code that names no session is the resolver's refusal: candidates, no reason.
    for args in [
        &["session-close", "--code", "9"][..],
        &["session-resume", "--code", "9", "--reopen"],
    ] {
        let (code, data) = refused(&ws, args, &[]);
        assert_eq!(code, "SESSION_NOT_FOUND");
        assert_eq!(data["candidates"].as_array().unwrap().len(), 2);
        assert!(data.get("error").is_none(), "{data:#}");
    }

    // A busy lock: the reason and the code.
    let create = [
        "session-create",
        "--type",
        "quick",
        "--name",
        "x",
        "--objective",
        "y",
    ];
    let writes: [&[&str]; 3] = [
        &create,
        &["session-close", "--code", "1"],
        &["session-resume", "--code", "1", "--reopen"],
    ];
    let held = hold_lock(&ws);
    for args in writes {
        let (code, data) = reason(&ws, args, &[]);
        assert_eq!(
            (code.as_str(), &data["code"]),
            ("LOCK_BUSY", &json!("LOCK_BUSY"))
        );
    }
    drop(held);

    // A registry the binding cannot be written to: the reason and the code, no candidates.
    ws.write(".workflow/sessions/.bindings.json", "{bad");
    for args in writes {
        let (code, data) = reason(&ws, args, &[("AW_CONTEXT_ID", "conv-1")]);
        assert_eq!(
            (code.as_str(), &data["code"]),
            ("SESSION_BINDING_INVALID", &json!("SESSION_BINDING_INVALID"))
        );
        assert!(data.get("candidates").is_none(), "{data:#}");
    }
}

#[test]
fn history_update_failures_carry_the_reason() {
    let ws = ws();
    for args in [
        &["history-update"][..],
        &["history-update", "--code", "1"],
        &["history-update", "--code", "1", "--state", "weird"],
    ] {
        let (code, data) = reason(&ws, args, &[]);
        assert_eq!((code.as_str(), data.get("code")), ("INVALID_INPUT", None));
    }
    let held = hold_lock(&ws);
    let (code, data) = reason(
        &ws,
        &["history-update", "--code", "1", "--state", "closed"],
        &[],
    );
    assert_eq!((code.as_str(), data.get("code")), ("LOCK_BUSY", None));
    drop(held);
    let (code, data) = refused(
        &ws,
        &["history-update", "--code", "9", "--state", "closed"],
        &[],
    );
    assert_eq!(code, "SESSION_NOT_FOUND");
    assert!(
        data.get("error").is_none() && data["candidates"].is_array(),
        "{data:#}"
    );
}

#[test]
fn remove_source_names_what_is_not_a_source_with_the_references_token() {
    let ws = ws();
    for (alias, token) in [
        ("nope", "unknown_source: nope"),
        ("bad alias", "unknown_source: bad alias"),
        (" ", "alias_required"),
    ] {
        let (code, data) = refused(&ws, &["remove-source", alias], &[]);
        assert_eq!(
            (code.as_str(), &data["error"]),
            ("INVALID_INPUT", &json!(token))
        );
    }
    // Without a block no alias is a source either.
    let bare = Ws::new();
    let (_, data) = refused(&bare, &["remove-source", "app"], &[]);
    assert_eq!(data["error"], "unknown_source: app");
}

#[test]
fn next_number_refusals_carry_the_reason_and_the_sessions_refusal() {
    let ws = ws();
    for args in [
        &["next-number"][..],
        &["next-number", "docs/specs", "--claim", "x.md", "--dry-run"],
        &["next-number", "docs/specs", "--code", "1"],
    ] {
        let (code, _) = reason(&ws, args, &[]);
        assert_eq!(code, "INVALID_INPUT");
    }
    // An owner that cannot be resolved: the resolver's code stays aw's error code; the reason
    // and the resolver's whole refusal are the reference's `data.error` and `data.sessionError`.
    let (code, data) = refused(
        &ws,
        &[
            "next-number",
            "docs/specs",
            "--claim",
            "x.md",
            "--code",
            "9",
        ],
        &[],
    );
    assert_eq!(code, "SESSION_NOT_FOUND");
    assert!(data["error"].as_str().unwrap().contains("`9`"), "{data:#}");
    let se = &data["sessionError"];
    assert_eq!(
        (&se["outcome"], &se["code"]),
        (&json!("error"), &json!("SESSION_NOT_FOUND"))
    );
    assert_eq!(se["candidates"], data["candidates"]);
    assert!(
        se["message"].is_string() && se["action"].is_string(),
        "{se:#}"
    );
    ws.ok(&["session-close", "--code", "2"]);
    let (code, data) = refused(
        &ws,
        &[
            "next-number",
            "docs/specs",
            "--claim",
            "x.md",
            "--code",
            "2",
        ],
        &[],
    );
    assert_eq!(
        (code.as_str(), &data["sessionError"]["code"]),
        ("SESSION_CLOSED", &json!("SESSION_CLOSED"))
    );
    assert!(!ws.root().join("docs/specs/001-x.md").exists());
}

#[test]
fn sources_with_two_different_sessions_carries_the_reason() {
    let ws = ws();
    let (code, _) = reason(&ws, &["sources", "--code", "1", "--session", "2"], &[]);
    assert_eq!(code, "ARGS_INVALID");
}

#[test]
fn a_legacy_session_dump_carries_the_references_data() {
    let ws = ws();
    let folder = ws.session("session003-old", false);
    ws.write(
        ".workflow/sessions/session003-old/REQUIREMENTS.md",
        "# Requirements\n",
    );
    let (exit, v) = ws.run(&["session-artifacts", "--code", "3", "--dump"]);
    assert_eq!((exit, &v["error"]["code"]), (1, &json!("LEGACY_FORMAT")));
    let data = &v["data"];
    assert_eq!(
        (
            &data["error"],
            &data["session"],
            &data["path"],
            &data["hint"]
        ),
        (
            &json!("legacy_format"),
            &json!("session003-old"),
            &json!(folder.to_str().unwrap()),
            &v["error"]["message"]
        )
    );
}
