//! `aw worktree list` end to end: units made by hand with `git worktree add` at the path the
//! reference gives them, read back as live units or as orphans with their reason; sources that
//! are not repositories; a source git cannot list; `--code`; and the verbs this aw refuses.

use crate::support::{Ws, git};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The workspace's key as the reference computes it: the folder's name (`proj`, already safe)
/// and the first 8 hex digits of the SHA-256 of its path.
fn key(ws: &Ws) -> String {
    let digest = Sha256::digest(ws.root().to_str().unwrap().as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("proj-{}", &hex[..8])
}

/// `<HOME>/.workflow/worktrees/<key>/<alias>/<session>`.
fn unit_path(ws: &Ws, alias: &str, session: &str) -> PathBuf {
    ws.home()
        .join(".workflow/worktrees")
        .join(key(ws))
        .join(alias)
        .join(session)
}

/// A workspace whose sources are `app` (a git repository with one commit) and `docs` (a plain
/// folder), both inside it.
fn workspace() -> Ws {
    let ws = Ws::bare();
    let app = ws.root().join("app");
    std::fs::create_dir_all(&app).unwrap();
    std::fs::create_dir_all(ws.root().join("docs")).unwrap();
    std::fs::write(app.join("f.txt"), "one\n").unwrap();
    git(&app, ws.home(), &["init", "-q"]);
    git(&app, ws.home(), &["add", "."]);
    git(&app, ws.home(), &["commit", "-q", "-m", "init"]);
    ws.ok(&[
        "workspace-init",
        "--source",
        "app:app",
        "--source",
        "docs:docs",
    ]);
    ws
}

/// Makes `session`'s unit of `app` by hand, on `aw/<session>`; returns its path.
fn add_unit(ws: &Ws, session: &str) -> PathBuf {
    let path = unit_path(ws, "app", session);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    git(
        &ws.root().join("app"),
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

fn head(dir: &Path, home: &Path) -> String {
    let out = git(dir, home, &["rev-parse", "HEAD"]);
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

fn list(ws: &Ws, extra: &[&str]) -> Value {
    let mut args = vec!["worktree", "list", "--json"];
    args.extend_from_slice(extra);
    ws.ok(&args)
}

#[test]
fn a_unit_made_by_hand_is_listed_with_its_state_and_head() {
    let ws = workspace();
    let folder = ws.create_session("exec", "x-plan-exec", "x")["folder"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(folder, "001-x-plan-exec");
    let unit = add_unit(&ws, &folder);
    let expected = json!({
        "workspace_key": key(&ws),
        "units": [{
            "alias": "app",
            "source_path": "app",
            "session": folder,
            "path": unit.to_str().unwrap(),
            "branch": "aw/001-x-plan-exec",
            "created": false,
            "session_active": true,
            "dirty": false,
            "head": head(&unit, ws.home()),
        }],
        "orphans": [],
        "unreadable": [],
        "session": folder,
    });
    assert_eq!(list(&ws, &["--code", "001"]), expected);
    // `--session` is the same flag; without either, every unit and no `session` key.
    assert_eq!(list(&ws, &["--session", "001"]), expected);
    let mut all = expected.clone();
    all.as_object_mut().unwrap().remove("session");
    assert_eq!(list(&ws, &[]), all);
    // Uncommitted work in the unit.
    std::fs::write(unit.join("new.txt"), "x").unwrap();
    assert_eq!(list(&ws, &["--code", "001"])["units"][0]["dirty"], true);
    // A detached unit is still its session's, on its unit branch.
    git(&unit, ws.home(), &["checkout", "-q", "--detach"]);
    let v = list(&ws, &["--code", "001"]);
    assert_eq!(v["units"][0]["branch"], "aw/001-x-plan-exec");
}

#[test]
fn closing_or_removing_a_session_or_its_folder_makes_an_orphan_with_the_first_reason() {
    let ws = workspace();
    for name in ["a-plan-exec", "b-plan-exec", "c-plan-exec", "d-plan-exec"] {
        ws.create_session("exec", name, "x");
    }
    let units: Vec<PathBuf> = [
        "001-a-plan-exec",
        "002-b-plan-exec",
        "003-c-plan-exec",
        "004-d-plan-exec",
    ]
    .iter()
    .map(|s| add_unit(&ws, s))
    .collect();
    ws.ok(&["session-close", "--code", "001"]);
    std::fs::remove_dir_all(ws.sessions().join("002-b-plan-exec")).unwrap();
    // The folder gone outweighs a session that is still open.
    std::fs::remove_dir_all(&units[2]).unwrap();
    let v = list(&ws, &[]);
    assert_eq!(v["units"].as_array().unwrap().len(), 1);
    assert_eq!(v["units"][0]["session"], "004-d-plan-exec");
    let orphans: Vec<(&str, &str)> = v["orphans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["session"].as_str().unwrap(),
                o["reason"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        orphans,
        [
            ("001-a-plan-exec", "session_closed"),
            ("002-b-plan-exec", "session_absent"),
            ("003-c-plan-exec", "directory_missing"),
        ]
    );
    assert_eq!(
        v["orphans"][0],
        json!({
            "alias": "app",
            "session": "001-a-plan-exec",
            "path": units[0].to_str().unwrap(),
            "branch": "aw/001-a-plan-exec",
            "reason": "session_closed",
            "release": "aw worktree release --source app --code 001-a-plan-exec",
        })
    );
    // A closed session can still be named: its orphan alone.
    let one = list(&ws, &["--code", "001"]);
    assert_eq!(one["session"], "001-a-plan-exec");
    assert_eq!(one["units"], json!([]));
    assert_eq!(one["orphans"].as_array().unwrap().len(), 1);
}

#[test]
fn only_this_workspaces_units_count_and_plain_folders_contribute_nothing() {
    let ws = workspace();
    ws.create_session("exec", "x-plan-exec", "x");
    // A worktree outside the units root, and one under another workspace's key.
    let app = ws.root().join("app");
    let outside = ws.root().parent().unwrap().join("feature-tree");
    git(
        &app,
        ws.home(),
        &[
            "worktree",
            "add",
            "-q",
            "-b",
            "feature",
            outside.to_str().unwrap(),
        ],
    );
    let other = ws
        .home()
        .join(".workflow/worktrees/other-12345678/app/001-x-plan-exec");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    git(
        &app,
        ws.home(),
        &[
            "worktree",
            "add",
            "-q",
            "-b",
            "other",
            other.to_str().unwrap(),
        ],
    );
    let v = list(&ws, &[]);
    assert_eq!(
        v,
        json!({"workspace_key": key(&ws), "units": [], "orphans": [], "unreadable": []})
    );
}

#[test]
fn a_source_git_cannot_list_is_unreadable_and_a_missing_one_has_no_units() {
    let ws = workspace();
    // A `git` that answers everything but `worktree`, which it fails.
    let bin = ws.root().parent().unwrap().join("fake-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let real = std::process::Command::new("sh")
        .args(["-c", "command -v git"])
        .output()
        .unwrap();
    let real = String::from_utf8(real.stdout).unwrap().trim().to_owned();
    let script = bin.join("git");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nfor a in \"$@\"; do [ \"$a\" = worktree ] && {{ echo 'fatal: boom' >&2; exit 128; }}; done\nexec {real} \"$@\"\n"
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let (code, v) = ws.run_env(&["worktree", "list", "--json"], &[("PATH", &path)]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["unreadable"][0]["alias"], "app");
    let error = v["unreadable"][0]["error"].as_str().unwrap();
    assert!(
        error.contains("git worktree list failed") && error.contains("fatal: boom"),
        "{error}"
    );
    assert_eq!(v["unreadable"].as_array().unwrap().len(), 1);

    // A source whose folder is missing is not an error of the listing (the reference fails it
    // whole); the units root is never created by a listing.
    std::fs::remove_dir_all(ws.root().join("docs")).unwrap();
    let v = list(&ws, &[]);
    assert_eq!(v["unreadable"], json!([]));
    assert!(!ws.home().join(".workflow/worktrees").exists());
}

#[test]
fn a_code_that_names_no_session_is_refused_as_the_result_with_exit_2() {
    let ws = workspace();
    let (code, v) = ws.run(&["worktree", "list", "--code", "999", "--json"]);
    assert_eq!(code, 2, "{v:#}");
    assert_eq!(v["error"], "session_unresolved");
    assert!(v["message"].as_str().unwrap().contains("'999'"));
    assert!(v["hint"].as_str().unwrap().contains("--code"));
    assert_eq!(v.as_object().unwrap().len(), 3, "{v:#}");
    // Both spellings naming different sessions: a failure envelope.
    ws.fails(
        &[
            "worktree",
            "list",
            "--code",
            "1",
            "--session",
            "2",
            "--json",
        ],
        "ARGS_INVALID",
    );
}

#[test]
fn ensure_release_and_integrate_are_refused_with_what_to_do_instead() {
    let ws = workspace();
    ws.create_session("exec", "x-plan-exec", "x");
    for verb in ["ensure", "release"] {
        let v = ws.fails(
            &[
                "worktree", verb, "--source", "app", "--code", "001", "--json",
            ],
            "WORKTREE_UNSUPPORTED",
        );
        let message = v["error"]["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("aw worktree {verb}")),
            "{message}"
        );
        assert!(
            v["data"]["action"]
                .as_str()
                .unwrap()
                .contains("scope `workspace`")
        );
    }
    // Integrating a session that holds no unit has nothing to merge; naming a source it has no
    // unit of is the reference's `unit_absent` result.
    let (code, out) = ws.text(&["worktree", "integrate", "--code", "001", "--json"]);
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v,
        json!({"session": "001-x-plan-exec", "plan": null, "results": [], "integrated": [],
               "pending": [], "next": null})
    );
    let (code, out) = ws.text(&[
        "worktree",
        "integrate",
        "--source",
        "app",
        "--code",
        "001",
        "--json",
    ]);
    assert_eq!(code, 2, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["error"], "unit_absent");
    // With a unit, integration is refused: this aw does not merge units yet.
    add_unit(&ws, "001-x-plan-exec");
    let v = ws.fails(
        &["worktree", "integrate", "--code", "001", "--json"],
        "WORKTREE_UNSUPPORTED",
    );
    assert!(
        v["data"]["action"]
            .as_str()
            .unwrap()
            .contains("scope `workspace`")
    );
    // Nothing else was made.
    let v = list(&ws, &[]);
    assert_eq!(v["units"].as_array().unwrap().len(), 1);
}

#[test]
fn the_human_view_names_units_and_orphans() {
    let ws = workspace();
    ws.create_session("exec", "x-plan-exec", "x");
    ws.create_session("exec", "y-plan-exec", "y");
    add_unit(&ws, "001-x-plan-exec");
    add_unit(&ws, "002-y-plan-exec");
    ws.ok(&["session-close", "--code", "002"]);
    let (code, text) = ws.text(&["worktree", "list", "--format", "human"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.starts_with(&format!("Isolation units of {}\n", key(&ws))),
        "{text}"
    );
    assert!(
        text.contains("001-x-plan-exec  aw/001-x-plan-exec  clean"),
        "{text}"
    );
    assert!(
        text.contains("002-y-plan-exec  aw/002-y-plan-exec  its session is closed"),
        "{text}"
    );
}

#[test]
fn the_workspace_is_keyed_by_its_root_so_a_subfolder_lists_the_same_units() {
    let ws = workspace();
    ws.create_session("exec", "x-plan-exec", "x");
    add_unit(&ws, "001-x-plan-exec");
    let from_root = list(&ws, &[]);
    assert_eq!(from_root["units"].as_array().unwrap().len(), 1);
    let deep = ws.root().join("docs");
    let (code, from_deep) = ws.run_in(&deep, &["worktree", "list", "--json"], None, &[]);
    assert_eq!(code, 0, "{from_deep:#}");
    assert_eq!(from_deep, from_root);
}

#[test]
fn listing_does_not_rewrite_a_units_git_index() {
    let ws = workspace();
    ws.create_session("exec", "x-plan-exec", "x");
    let unit = add_unit(&ws, "001-x-plan-exec");
    // A tracked file whose times moved: a `git status` that may take locks refreshes the index.
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(120);
    crate::support::set_mtime(&unit.join("f.txt"), later);
    let index = ws.root().join("app/.git/worktrees/001-x-plan-exec/index");
    let before = (
        std::fs::read(&index).unwrap(),
        std::fs::metadata(&index).unwrap().modified().unwrap(),
    );
    let v = list(&ws, &[]);
    assert_eq!(v["units"][0]["dirty"], false);
    let after = (
        std::fs::read(&index).unwrap(),
        std::fs::metadata(&index).unwrap().modified().unwrap(),
    );
    assert!(before == after, "the unit's index was rewritten");
}

#[test]
fn without_home_there_is_no_units_root_and_a_bad_verb_is_unknown() {
    let ws = workspace();
    let (code, v) = ws.run_env(&["worktree", "list", "--json"], &[("HOME", "")]);
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(v["error"]["code"], "HOME_UNSET");
    ws.fails(&["worktree", "prune", "--json"], "UNKNOWN_COMMAND");
    ws.fails(&["worktree", "--json"], "ARGS_INVALID");
}
