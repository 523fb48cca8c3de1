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

#[test]
fn a_codex_patch_is_judged_by_every_file_it_names() {
    let ws = workspace();
    let patch = |files: &[&str]| {
        let mut text = String::from("*** Begin Patch\n");
        for f in files {
            text.push_str(&format!(
                "*** Update File: {f}\n@@\n-fn a() {{}}\n+fn b() {{}}\n"
            ));
        }
        text.push_str("*** End Patch\n");
        json!({"tool_name": "apply_patch", "cwd": ws.root(),
            "tool_input": {"command": ["apply_patch", text]}})
        .to_string()
    };
    let (code, _, err) = hook(
        &ws,
        ws.root(),
        Some(&patch(&["lib/src/a.rs", "app/src/a.rs"])),
    );
    assert_eq!(
        code, 2,
        "a patch touching the off-branch source is blocked: {err}"
    );
    assert!(err.contains("`app`"), "{err}");
    let (code, _, _) = hook(&ws, ws.root(), Some(&patch(&["lib/src/a.rs"])));
    assert_eq!(code, 0);
}

#[test]
fn a_write_payload_larger_than_a_mebibyte_is_still_judged() {
    let ws = workspace();
    let big = json!({"tool_name": "Write",
        "tool_input": {"file_path": file(&ws, "app/src/big.rs"), "content": "x".repeat(3 << 20)}})
    .to_string();
    let (code, _, _) = hook(&ws, ws.root(), Some(&big));
    assert_eq!(code, 2);
}

#[test]
fn the_branch_is_the_checked_out_one_even_when_a_tag_shares_its_name() {
    let ws = workspace();
    let app = ws.root().join("app");
    git(&app, ws.home(), &["checkout", "-q", "-b", "feat/x"]);
    git(&app, ws.home(), &["tag", "feat/x"]);
    let (code, _, err) = hook(&ws, ws.root(), Some(&payload(&file(&ws, "app/src/a.rs"))));
    assert_eq!(code, 0, "{err}");
}

#[test]
fn a_rebase_of_the_working_branch_is_work_on_it_and_a_plain_detached_head_is_not() {
    let ws = workspace();
    let app = ws.root().join("app");
    let home = ws.home();
    git(&app, home, &["checkout", "-q", "-b", "other"]);
    std::fs::write(app.join("src/a.rs"), "fn other() {}\n").unwrap();
    git(&app, home, &["commit", "-q", "-am", "other"]);
    git(&app, home, &["checkout", "-q", "-b", "feat/x", "main"]);
    std::fs::write(app.join("src/a.rs"), "fn feat() {}\n").unwrap();
    git(&app, home, &["commit", "-q", "-am", "feat"]);
    // The rebase stops on the conflict, HEAD detached (support's `git` insists on success).
    let out = std::process::Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.com",
            "rebase",
            "other",
        ])
        .current_dir(&app)
        .env("HOME", home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap();
    assert!(
        !out.status.success(),
        "the rebase should stop on its conflict"
    );
    let (code, _, err) = hook(&ws, ws.root(), Some(&payload(&file(&ws, "app/src/a.rs"))));
    assert_eq!(code, 0, "resolving the conflict is work on feat/x: {err}");
    git(&app, home, &["rebase", "--abort"]);
    git(&app, home, &["checkout", "-q", "--detach"]);
    let (code, _, err) = hook(&ws, ws.root(), Some(&payload(&file(&ws, "app/src/a.rs"))));
    assert_eq!(code, 2, "{err}");
}

#[test]
fn the_workspace_state_is_written_on_any_branch() {
    let ws = Ws::bare();
    std::fs::write(ws.root().join("a.rs"), "fn a() {}\n").unwrap();
    git(ws.root(), ws.home(), &["init", "-q"]);
    git(ws.root(), ws.home(), &["add", "."]);
    git(ws.root(), ws.home(), &["commit", "-q", "-m", "init"]);
    ws.ok(&["workspace-init", "--source", "me:.:main"]);
    ws.ok(&["set-working-branch", "me", "feat/y"]);
    let checkpoint = file(&ws, ".workflow/sessions/001-x-quick/CHECKPOINT.md");
    let (code, _, err) = hook(&ws, ws.root(), Some(&payload(&checkpoint)));
    assert_eq!(code, 0, "{err}");
    let (code, _, _) = hook(&ws, ws.root(), Some(&payload(&file(&ws, "a.rs"))));
    assert_eq!(code, 2);
}

/// The hook run with `stdin` as a file (all there at once, then its end) and extra variables.
fn hook_with(ws: &Ws, stdin: std::process::Stdio, env: &[(&str, &str)]) -> (i32, String) {
    let out = ws
        .process(&["hook", "branch-check"])
        .envs(env.iter().copied())
        .stdin(stdin)
        .output()
        .unwrap();
    assert!(out.stdout.is_empty(), "a hook prints nothing on stdout");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A stand-in for git, first on PATH: the shell `body` runs with git's arguments.
#[cfg(unix)]
fn fake_git(ws: &Ws, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let bin = ws.home().join("fake-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let git = bin.join("git");
    std::fs::write(&git, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&git, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// Where the real git is, for a stand-in that passes calls on.
#[cfg(unix)]
fn real_git() -> PathBuf {
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|d| d.join("git"))
        .find(|p| p.is_file())
        .expect("git on PATH")
}

#[test]
fn an_edit_the_hook_cannot_judge_is_refused_with_the_reason_and_the_way_on() {
    let ws = workspace();
    let before = ws.tree();
    // Every case is in `lib`, which has no working branch: judged, each would be allowed.
    let lib = |rest: &str| file(&ws, &format!("lib/{rest}"));
    let write = |path: &str| {
        json!({"tool_name": "Write", "tool_input": {"file_path": path, "content": "x"}}).to_string()
    };
    let long_path = lib(&"d/".repeat(512 << 10)).to_string_lossy().into_owned() + "f.rs";
    let patch = {
        let mut text = String::from("*** Begin Patch\n");
        for i in 0..=10_000 {
            text.push_str(&format!("*** Add File: lib/src/f{i}.rs\n+x\n"));
        }
        json!({"tool_name": "apply_patch", "cwd": ws.root(), "tool_input": {"command": ["apply_patch", text]}})
            .to_string()
    };
    let deep = format!(
        "{{\"tool_name\":\"Write\",\"tool_input\":{{\"file_path\":{}}},\"x\":{}{}}}",
        json!(lib("src/a.rs")),
        "[".repeat(600),
        "]".repeat(600)
    );
    let cases = [
        ("a path of a mebibyte", write(&long_path), "bytes long"),
        (
            "a patch naming 10,001 files",
            patch,
            "more than 10000 files",
        ),
        ("a payload nested 600 levels deep", deep, "levels deep"),
        (
            "a path with a NUL byte",
            write(&format!("{}\0x", lib("src/a.rs").display())),
            "NUL byte",
        ),
    ];
    for (what, payload, why) in cases {
        let (code, out, err) = hook(&ws, ws.root(), Some(&payload));
        assert_eq!(code, 2, "{what}: {err}");
        assert!(out.is_empty(), "{what}: {out}");
        assert!(
            err.starts_with("aw branch-check: edit refused: ") && err.contains(why),
            "{what}: {err}"
        );
        assert!(err.contains("\nNext: "), "{what}: {err}");
    }
    // Under the bounds, the same kinds of edit are judged (and allowed in `lib`).
    let mut text = String::from("*** Begin Patch\n");
    for i in 0..10_000 {
        text.push_str(&format!("*** Add File: lib/src/f{i}.rs\n+x\n"));
    }
    let patch = json!({"tool_name": "apply_patch", "cwd": ws.root(),
        "tool_input": {"command": ["apply_patch", text]}});
    assert_eq!(hook(&ws, ws.root(), Some(&patch.to_string())).0, 0);
    let long_path = lib(&"d/".repeat(8 << 10)).to_string_lossy().into_owned() + "f.rs";
    assert_eq!(hook(&ws, ws.root(), Some(&write(&long_path))).0, 0);
    assert_eq!(ws.tree(), before, "the hook never writes");
}

#[test]
fn a_payload_past_the_size_bound_is_refused_not_cut_and_allowed() {
    let ws = workspace();
    let big = json!({"tool_name": "Write",
        "tool_input": {"file_path": file(&ws, "lib/src/big.rs"), "content": "x".repeat(64 << 20)}})
    .to_string();
    let (code, _, err) = hook(&ws, ws.root(), Some(&big));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("larger than 64 MiB"), "{err}");
}

#[test]
fn a_payload_cut_short_by_a_stdin_left_open_is_refused() {
    use std::io::Write;
    let ws = workspace();
    // The start of an edit's JSON is in the pipe from the start; the pipe is never closed.
    let (reader, mut open) = std::io::pipe().unwrap();
    open.write_all(br#"{"tool_name":"Write","tool_input":{"file_path":"lib/s"#)
        .unwrap();
    let (code, err) = hook_with(&ws, reader.into(), &[("AW_HOOK_BUDGET_MS", "400")]);
    drop(open);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("did not arrive whole"), "{err}");
    // A stdin left open with nothing on it is no payload, as a closed empty one is.
    let (reader, open) = std::io::pipe().unwrap();
    let (code, err) = hook_with(&ws, reader.into(), &[("AW_HOOK_BUDGET_MS", "400")]);
    drop(open);
    assert_eq!((code, err.as_str()), (0, ""));
}

#[cfg(unix)]
#[test]
fn a_git_that_does_not_answer_in_time_refuses_the_edit() {
    let ws = Ws::bare();
    // A source that is no repository: only git can say so, and this git never answers.
    std::fs::create_dir_all(ws.root().join("plain")).unwrap();
    ws.ok(&["workspace-init", "--source", "plain:plain:main"]);
    ws.ok(&["set-working-branch", "plain", "feat/z"]);
    let path = fake_git(&ws, "exec sleep 60");
    let payload = ws.root().join("payload.json");
    std::fs::write(
        &payload,
        json!({"tool_name": "Edit",
        "tool_input": {"file_path": file(&ws, "plain/a.rs")}})
        .to_string(),
    )
    .unwrap();
    let stdin = std::fs::File::open(&payload).unwrap();
    let (code, err) = hook_with(
        &ws,
        stdin.into(),
        &[("PATH", path.as_str()), ("AW_HOOK_BUDGET_MS", "500")],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("could not be checked within 500 ms"), "{err}");
    assert!(err.contains("git branch --show-current"), "{err}");
    // With a git that answers, the same edit is allowed: the folder is no repository.
    let stdin = std::fs::File::open(&payload).unwrap();
    assert_eq!(hook_with(&ws, stdin.into(), &[]), (0, String::new()));
}

#[cfg(unix)]
#[test]
fn the_branch_is_read_without_starting_git_so_the_cost_does_not_grow_with_the_repository() {
    let ws = workspace();
    let app = ws.root().join("app");
    git(&app, ws.home(), &["checkout", "-q", "-b", "feat/x"]);
    let log = ws.home().join("git-calls.log");
    let path = fake_git(
        &ws,
        &format!(
            "echo \"$*\" >> '{}'\nexec '{}' \"$@\"",
            log.display(),
            real_git().display()
        ),
    );
    let run = |rel: &str| {
        ws.output_in(
            ws.root(),
            &["hook", "branch-check"],
            Some(&payload(&file(&ws, rel))),
            &[("PATH", path.as_str())],
        )
    };
    // On its working branch: allowed, and git was never started (no status of the work tree).
    let out = run("app/src/a.rs");
    assert_eq!(out.status.code(), Some(0));
    assert!(
        !log.exists(),
        "git ran: {:?}",
        std::fs::read_to_string(&log)
    );
    // Off it: refused; git is asked only for the uncommitted files the advice counts.
    git(&app, ws.home(), &["checkout", "-q", "main"]);
    std::fs::write(app.join("src/a.rs"), "fn a() { 2 }\n").unwrap();
    let out = run("app/src/a.rs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 uncommitted"));
    let calls = std::fs::read_to_string(&log).unwrap();
    assert!(
        calls.lines().all(|l| l.contains("status --porcelain")),
        "{calls}"
    );
}

#[test]
fn a_linked_work_tree_is_judged_by_its_own_head() {
    let ws = Ws::bare();
    let app = ws.root().join("app");
    std::fs::create_dir_all(app.join("src")).unwrap();
    std::fs::write(app.join("src/a.rs"), "fn a() {}\n").unwrap();
    git(&app, ws.home(), &["init", "-q"]);
    git(&app, ws.home(), &["add", "."]);
    git(&app, ws.home(), &["commit", "-q", "-m", "init"]);
    let wt = ws.root().join("app-wt");
    git(
        &app,
        ws.home(),
        &[
            "worktree",
            "add",
            "-q",
            "-b",
            "feat/x",
            &wt.to_string_lossy(),
        ],
    );
    ws.ok(&[
        "workspace-init",
        "--source",
        "app:app:main",
        "--source",
        "wt:app-wt:main",
    ]);
    ws.ok(&["set-working-branch", "app", "feat/x"]);
    ws.ok(&["set-working-branch", "wt", "feat/x"]);
    let (code, _, err) = hook(
        &ws,
        ws.root(),
        Some(&payload(&file(&ws, "app-wt/src/a.rs"))),
    );
    assert_eq!(code, 0, "the linked work tree is on feat/x: {err}");
    let (code, _, err) = hook(&ws, ws.root(), Some(&payload(&file(&ws, "app/src/new.rs"))));
    assert_eq!(code, 2, "the main one is on main: {err}");
    git(&wt, ws.home(), &["checkout", "-q", "--detach"]);
    let (code, _, err) = hook(
        &ws,
        ws.root(),
        Some(&payload(&file(&ws, "app-wt/src/a.rs"))),
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("a detached HEAD"), "{err}");
}
