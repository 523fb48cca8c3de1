//! The unit rule of `aw check-branch` and `aw hook branch-check`, end to end: real repositories,
//! units made by hand with `git worktree add -b aw/<session>` at the path the units root gives
//! them (under a throwaway HOME), sessions bound to host conversations by `session-create`.
//! A source with a unit answers by the unit rule; a source without one, exactly as before.

use crate::support::{Ws, git};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The workspace's key: its folder's name and the first 8 hex digits of its path's SHA-256.
fn key(ws: &Ws) -> String {
    let digest = Sha256::digest(ws.root().to_str().unwrap().as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("proj-{}", &hex[..8])
}

fn units_root(ws: &Ws) -> PathBuf {
    ws.home()
        .canonicalize()
        .unwrap()
        .join(".workflow/worktrees")
}

fn unit_path(ws: &Ws, alias: &str, session: &str) -> PathBuf {
    units_root(ws).join(key(ws)).join(alias).join(session)
}

/// A repository with one commit at `dir`, on the branch `dev`.
fn repo(ws: &Ws, dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("f.txt"), "one\n").unwrap();
    git(dir, ws.home(), &["init", "-q"]);
    git(dir, ws.home(), &["checkout", "-q", "-b", "dev"]);
    git(dir, ws.home(), &["add", "."]);
    git(dir, ws.home(), &["commit", "-q", "-m", "init"]);
}

/// Sources `app` and `api` (repositories inside the workspace, both on their working branch
/// `dev`), and two active sessions: `001-feat-plan-exec` bound to the conversation `conv-a`,
/// `002-other-plan-exec` bound to `conv-b`.
fn workspace() -> Ws {
    let ws = Ws::bare();
    repo(&ws, &ws.root().join("app"));
    repo(&ws, &ws.root().join("api"));
    ws.ok(&[
        "workspace-init",
        "--source",
        "app:app",
        "--source",
        "api:api",
    ]);
    ws.ok(&["set-working-branch", "app", "dev"]);
    ws.ok(&["set-working-branch", "api", "dev"]);
    for (name, conv) in [("feat-plan-exec", "conv-a"), ("other-plan-exec", "conv-b")] {
        let (code, v) = ws.run_env(
            &[
                "session-create",
                "--type",
                "exec",
                "--name",
                name,
                "--objective",
                "x",
            ],
            &[("AW_CONTEXT_ID", conv)],
        );
        assert_eq!(code, 0, "{v}");
    }
    ws
}

/// Makes `session`'s unit of `alias` by hand; returns its path.
fn add_unit(ws: &Ws, alias: &str, session: &str) -> PathBuf {
    let path = unit_path(ws, alias, session);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    git(
        &ws.root().join(alias),
        ws.home(),
        &[
            "worktree",
            "add",
            "-q",
            "-b",
            &format!("aw/{session}"),
            path.to_str().unwrap(),
        ],
    );
    path
}

fn unit_ref(path: &Path, session: &str) -> Value {
    json!({"session": session, "path": path.to_str().unwrap(), "branch": format!("aw/{session}")})
}

/// `aw check-branch args…`: (exit code, JSON).
fn check(ws: &Ws, args: &[&str]) -> (i32, Value) {
    let mut all = vec!["check-branch", "--json"];
    all.extend_from_slice(args);
    ws.run(&all)
}

/// A Claude Code PreToolUse payload for an `Edit` of `file` by the conversation `conv`.
fn payload(ws: &Ws, file: &Path, conv: Option<&str>) -> String {
    let mut p = json!({
        "hook_event_name": "PreToolUse",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": ws.root(),
        "permission_mode": "default",
        "tool_name": "Edit",
        "tool_input": {"file_path": file, "old_string": "one", "new_string": "two"},
    });
    if let Some(c) = conv {
        p["session_id"] = json!(c);
    }
    p.to_string()
}

/// `aw hook branch-check` with `stdin` and extra variables: (exit code, stdout, stderr).
fn hook(ws: &Ws, stdin: &str, env: &[(&str, &str)]) -> (i32, String, String) {
    let out = ws.output_in(ws.root(), &["hook", "branch-check"], Some(stdin), env);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const ENSURE_002: &str = "aw worktree ensure --source app --code 002-other-plan-exec";

#[test]
fn an_edit_inside_another_sessions_unit_is_refused_with_the_ensure_command() {
    let ws = workspace();
    let unit = add_unit(&ws, "app", "001-feat-plan-exec");
    let file = unit.join("f.txt");
    let f = file.to_str().unwrap();
    let expected = json!({
        "alias": "app",
        "path": "app",
        "session_code": "002-other-plan-exec",
        "actual_unit": unit_ref(&unit, "001-feat-plan-exec"),
        "expected_unit": null,
        "match": false,
        "reason": "other_session_unit",
        "work_branch": "aw/001-feat-plan-exec",
        "remedy": ENSURE_002,
    });
    assert_eq!(
        check(&ws, &["--file", f, "--code", "002"]),
        (0, expected.clone())
    );
    assert_eq!(
        check(&ws, &["--file", f, "--session", "002", "--strict"]),
        (2, expected.clone())
    );
    // The conversation's binding names the session as `--code` does.
    let (code, v) = ws.run_env(
        &["check-branch", "--json", "--file", f],
        &[("CLAUDE_CODE_SESSION_ID", "conv-b")],
    );
    assert_eq!((code, v), (0, expected));

    let (code, out, err) = hook(&ws, &payload(&ws, &file, Some("conv-b")), &[]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("another session's unit"), "{err}");
    assert!(
        err.contains("`app`") && err.contains("session 001-feat-plan-exec"),
        "{err}"
    );
    assert!(
        err.contains("worktree ensure --source app --code 002-other-plan-exec`"),
        "{err}"
    );
}

#[test]
fn an_edit_in_the_sessions_own_unit_is_allowed_silently() {
    let ws = workspace();
    let unit = add_unit(&ws, "app", "001-feat-plan-exec");
    let file = unit.join("src/new.rs");
    let (code, v) = check(
        &ws,
        &["--file", file.to_str().unwrap(), "--code", "1", "--strict"],
    );
    assert_eq!(
        (code, v),
        (
            0,
            json!({
                "alias": "app",
                "path": "app",
                "session_code": "001-feat-plan-exec",
                "actual_unit": unit_ref(&unit, "001-feat-plan-exec"),
                "expected_unit": unit_ref(&unit, "001-feat-plan-exec"),
                "match": true,
                "reason": "inside_own_unit",
                "work_branch": "aw/001-feat-plan-exec",
            })
        )
    );
    assert_eq!(
        hook(&ws, &payload(&ws, &file, Some("conv-a")), &[]),
        (0, String::new(), String::new())
    );
}

#[test]
fn an_edit_of_the_main_checkout_while_a_unit_exists_is_outside_unit() {
    let ws = workspace();
    let unit = add_unit(&ws, "app", "001-feat-plan-exec");
    let main_file = ws.root().join("app/f.txt");
    let m = main_file.to_str().unwrap();
    // The session without a unit is told where its unit would be.
    let wanted = unit_path(&ws, "app", "002-other-plan-exec");
    assert_eq!(
        check(&ws, &["--file", m, "--code", "002", "--strict"]),
        (
            2,
            json!({
                "alias": "app",
                "path": "app",
                "session_code": "002-other-plan-exec",
                "actual_unit": null,
                "expected_unit": unit_ref(&wanted, "002-other-plan-exec"),
                "match": false,
                "reason": "outside_unit",
                "work_branch": "aw/002-other-plan-exec",
                "remedy": ENSURE_002,
            })
        )
    );
    // The session with a unit is pointed at it; `--source` names no file: outside too.
    let (code, v) = check(&ws, &["--source", "app", "--code", "001"]);
    assert_eq!(code, 0);
    assert_eq!(v["reason"], "outside_unit");
    assert_eq!(v["expected_unit"], unit_ref(&unit, "001-feat-plan-exec"));
    let (code, out, err) = hook(&ws, &payload(&ws, &main_file, Some("conv-a")), &[]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("outside every unit"), "{err}");
    assert!(err.contains(unit.to_str().unwrap()), "{err}");
    assert!(
        err.contains("worktree ensure --source app --code 001-feat-plan-exec`"),
        "{err}"
    );
}

#[test]
fn two_active_sessions_and_no_binding_fail_closed_as_unknown_identity() {
    let ws = workspace();
    let unit = add_unit(&ws, "app", "001-feat-plan-exec");
    let file = unit.join("f.txt");
    let bindings = ws.root().join(".workflow/sessions/.bindings.json");
    let before = std::fs::read(&bindings).ok();
    let (code, v) = check(&ws, &["--file", file.to_str().unwrap(), "--strict"]);
    assert_eq!(code, 2, "{v}");
    assert_eq!(v["reason"], "unknown_identity");
    assert_eq!(v["match"], false);
    assert_eq!(v["session_code"], Value::Null);
    assert_eq!(v["expected_unit"], Value::Null);
    assert_eq!(v["actual_unit"], unit_ref(&unit, "001-feat-plan-exec"));
    assert_eq!(v["work_branch"], "aw/001-feat-plan-exec");
    assert!(
        v["error"].as_str().unwrap().contains("2 active sessions"),
        "{v}"
    );
    assert!(v["remedy"].as_str().unwrap().contains("--code"), "{v}");
    // A `--code` that names no session is echoed raw.
    let (_, v) = check(&ws, &["--file", file.to_str().unwrap(), "--code", "9"]);
    assert_eq!(
        (v["reason"].as_str(), v["session_code"].as_str()),
        (Some("unknown_identity"), Some("9"))
    );
    // A conversation bound to nothing is no identity either; the hook reads the payload's
    // `session_id` only, never the environment.
    for (conv, env) in [
        (Some("conv-unknown"), &[][..]),
        (
            None,
            &[
                ("AW_CONTEXT_ID", "conv-a"),
                ("CLAUDE_CODE_SESSION_ID", "conv-a"),
            ][..],
        ),
    ] {
        let (code, out, err) = hook(&ws, &payload(&ws, &file, conv), env);
        assert_eq!((code, out.as_str()), (2, ""), "{err}");
        assert!(err.contains("could not be resolved"), "{err}");
        assert!(err.contains("session 001-feat-plan-exec"), "{err}");
    }
    // Reads never bind.
    assert_eq!(std::fs::read(&bindings).ok(), before);
    // A closed session works in no unit: its own is not its to edit any more.
    ws.ok(&["session-close", "--code", "001"]);
    let (code, v) = check(
        &ws,
        &[
            "--file",
            file.to_str().unwrap(),
            "--code",
            "001",
            "--strict",
        ],
    );
    assert_eq!(
        (code, v["reason"].as_str()),
        (2, Some("unknown_identity")),
        "{v}"
    );
    assert!(v["remedy"].as_str().unwrap().contains("--reopen"), "{v}");
    // With one active session left, it is the identity.
    let (_, v) = check(&ws, &["--file", file.to_str().unwrap()]);
    assert_eq!(v["reason"], "other_session_unit");
    assert_eq!(v["session_code"], "002-other-plan-exec");
}

#[test]
fn a_source_without_units_keeps_the_plain_branch_check() {
    let ws = workspace();
    add_unit(&ws, "app", "001-feat-plan-exec");
    let api = ws.root().join("api");
    let file = api.join("f.txt");
    let v21 = |current: &str, changed: Value, session: Value| {
        json!({
            "alias": "api",
            "path": "api",
            "main_branch": null,
            "expected_work_branch": "dev",
            "current_branch": current,
            "match": current == "dev",
            "dirty": !changed.as_array().unwrap().is_empty(),
            "changed_files": changed,
            "is_repo": true,
            "error": null,
            "session_code": session,
            "work_branch": "dev",
        })
    };
    assert_eq!(
        check(&ws, &["--file", file.to_str().unwrap(), "--strict"]),
        (0, v21("dev", json!([]), Value::Null))
    );
    assert_eq!(
        hook(&ws, &payload(&ws, &file, None), &[]),
        (0, String::new(), String::new())
    );
    git(&api, ws.home(), &["checkout", "-q", "-b", "other"]);
    std::fs::write(api.join("g.txt"), "x").unwrap();
    assert_eq!(
        check(&ws, &["--source", "api", "--code", "7", "--strict"]),
        (2, v21("other", json!(["g.txt"]), json!("7")))
    );
    assert_eq!(check(&ws, &["--source", "api"]).0, 0, "not strict");
    // The hook's wrong-branch refusal, unchanged, whatever conversation edits.
    let (code, out, err) = hook(&ws, &payload(&ws, &file, Some("conv-a")), &[]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.starts_with(&format!(
            "aw branch-check: edit of {} refused.\nThe source `api`",
            file.display()
        )),
        "{err}"
    );
    assert!(
        err.contains("is on branch `other`, but its working branch is `dev`"),
        "{err}"
    );
}

#[test]
fn what_no_source_owns_and_a_source_with_no_working_branch_match() {
    let ws = workspace();
    add_unit(&ws, "app", "001-feat-plan-exec");
    assert_eq!(
        check(&ws, &["--file", "/elsewhere/x.rs", "--strict"]),
        (
            0,
            json!({"match": true, "reason": "file_not_in_managed_source"})
        )
    );
    assert_eq!(
        check(&ws, &["--source", "nope"]),
        (
            0,
            json!({"match": true, "reason": "file_not_in_managed_source"})
        )
    );
    ws.ok(&["workspace-init", "--source", "docs:docs"]);
    std::fs::create_dir_all(ws.root().join("docs")).unwrap();
    assert_eq!(
        check(&ws, &["--path", "docs"]),
        (
            0,
            json!({"match": true, "reason": "no_expected_branch_declared", "alias": "docs", "path": "docs"})
        )
    );
}

#[test]
fn a_relative_source_owns_an_absolute_path_inside_it() {
    // The reference compares the raw strings, so a source written `app` (or `.`) never owns an
    // absolute path; aw compares the resolved folders (docs/PROTOCOL.md).
    let ws = workspace();
    let abs = ws.root().join("app/f.txt");
    let (code, v) = check(&ws, &["--file", abs.to_str().unwrap()]);
    assert_eq!((code, v["alias"].as_str()), (0, Some("app")), "{v}");
    // Relative to the current folder, too.
    let (code, v) = ws.run_in(
        &ws.root().join("app"),
        &["check-branch", "--json", "--file", "f.txt"],
        None,
        &[],
    );
    assert_eq!((code, v["alias"].as_str()), (0, Some("app")), "{v}");
}

#[test]
fn the_human_view_says_the_verdict_and_the_way_on() {
    let ws = workspace();
    let unit = add_unit(&ws, "app", "001-feat-plan-exec");
    let f = unit.join("f.txt");
    let (code, text) = ws.stdout(
        &[
            "check-branch",
            "--format",
            "human",
            "--file",
            f.to_str().unwrap(),
            "--code",
            "2",
        ],
        None,
        &[],
    );
    assert_eq!(code, 0);
    assert!(
        text.starts_with("refused: inside another session's unit · source app (app)"),
        "{text}"
    );
    assert!(text.contains(ENSURE_002), "{text}");
}
