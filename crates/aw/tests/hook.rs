//! `aw hook branch-check`: the PreToolUse hook that refuses edits in a source that is not on its
//! working branch, in a workspace whose source is a real git repository.

use crate::support::{Ws, git};
use serde_json::json;
use std::path::{Path, PathBuf};

/// A workspace with two sources, `app` (working branch `feat/x`) and `lib` (none), each a git
/// repository with one commit on `main`.
fn workspace() -> Ws {
    let ws = Ws::bare();
    for name in ["app", "lib"] {
        let dir = ws.root().join(name);
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::write(dir.join("src/a.rs"), "fn a() {}\n").unwrap();
        git(&dir, ws.home(), &["init", "-q"]);
        git(&dir, ws.home(), &["add", "."]);
        git(&dir, ws.home(), &["commit", "-q", "-m", "init"]);
    }
    ws.ok(&[
        "workspace-init",
        "--source",
        "app:app:main",
        "--source",
        "lib:lib:main",
    ]);
    ws.ok(&["set-working-branch", "app", "feat/x"]);
    ws
}

fn payload(file: &Path) -> String {
    json!({"tool_name": "Edit", "tool_input": {"file_path": file, "old_string": "a", "new_string": "b"}})
        .to_string()
}

/// (exit code, stdout, stderr) of the hook run in `dir` with `stdin`.
fn hook(ws: &Ws, dir: &Path, stdin: Option<&str>) -> (i32, String, String) {
    let out = ws.output_in(dir, &["hook", "branch-check"], stdin, &[]);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn file(ws: &Ws, rel: &str) -> PathBuf {
    ws.root().join(rel)
}

#[test]
fn an_edit_in_a_source_off_its_working_branch_is_blocked_with_the_ways_on() {
    let ws = workspace();
    let before = ws.tree();
    let (code, out, err) = hook(&ws, ws.root(), Some(&payload(&file(&ws, "app/src/a.rs"))));
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "a hook prints nothing on stdout: {out}");
    assert!(err.contains("`app`") && err.contains("`feat/x`"), "{err}");
    assert!(err.contains("checkout feat/x"), "{err}");
    assert!(err.contains("aw set-working-branch app main"), "{err}");
    assert!(!err.contains("stash"), "a clean tree needs no stash: {err}");
    // A file the edit would create, named relative to the payload's folder, is judged the same.
    let relative = json!({"tool_name": "Write", "cwd": ws.root().join("app"),
        "tool_input": {"file_path": "src/new/b.rs", "content": "x"}})
    .to_string();
    let (code, _, _) = hook(&ws, ws.root(), Some(&relative));
    assert_eq!(code, 2);
    assert_eq!(ws.tree(), before, "the hook never writes");
}

#[test]
fn a_dirty_source_is_told_to_commit_or_stash_first() {
    let ws = workspace();
    std::fs::write(file(&ws, "app/src/a.rs"), "fn a() { 1 }\n").unwrap();
    let (code, _, err) = hook(&ws, ws.root(), Some(&payload(&file(&ws, "app/src/a.rs"))));
    assert_eq!(code, 2);
    assert!(
        err.contains("1 uncommitted") && err.contains("stash"),
        "{err}"
    );
}

#[test]
fn on_its_working_branch_the_edit_is_allowed() {
    let ws = workspace();
    git(
        &ws.root().join("app"),
        ws.home(),
        &["checkout", "-q", "-b", "feat/x"],
    );
    let (code, out, err) = hook(&ws, ws.root(), Some(&payload(&file(&ws, "app/src/a.rs"))));
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
}

#[test]
fn edits_the_hook_cannot_judge_are_allowed_silently() {
    let ws = workspace();
    let cases: Vec<(&str, Option<String>)> = vec![
        (
            "outside every source",
            Some(payload(&file(&ws, "notes.md"))),
        ),
        (
            "a source with no working branch",
            Some(payload(&file(&ws, "lib/src/a.rs"))),
        ),
        ("no payload", None),
        ("an empty payload", Some(String::new())),
        ("a payload that is not JSON", Some("{not json".to_owned())),
        (
            "a payload without a file",
            Some(json!({"tool_name": "Edit", "tool_input": {}}).to_string()),
        ),
    ];
    for (what, stdin) in cases {
        let (code, out, err) = hook(&ws, ws.root(), stdin.as_deref());
        assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""), "{what}");
    }
    // Outside any workspace, nothing is judged either.
    let elsewhere = Ws::bare();
    let (code, out, err) = hook(
        &elsewhere,
        elsewhere.root(),
        Some(&payload(&file(&ws, "app/src/a.rs"))),
    );
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
}

#[test]
fn the_payload_folder_finds_the_workspace_from_anywhere() {
    let ws = workspace();
    let elsewhere = Ws::bare();
    let p = json!({"tool_name": "Edit", "cwd": ws.root(),
        "tool_input": {"file_path": "app/src/a.rs"}})
    .to_string();
    let (code, _, err) = hook(&ws, elsewhere.root(), Some(&p));
    assert_eq!(code, 2, "{err}");
}

#[test]
fn hook_help_lists_branch_check() {
    let ws = Ws::bare();
    let out = ws.aw().args(["hook", "--help"]).output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("branch-check"));
}
