//! `aw worktree` end to end, on real repositories: units made by hand with `git worktree add` at
//! the path the reference gives them and by `ensure`, read back as live units or as orphans with
//! their reason; sources that are not repositories; a source git cannot list; `--code`; each
//! refusal; integration (merges, conflicts, nothing lost), release, and what closing and the
//! board say of units.

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
    // A repository with no linked worktree has no unit, git unasked; with one, git is asked.
    ws.create_session("exec", "x-plan-exec", "x");
    list(&ws, &[]);
    assert!(
        !ws.home().join(".workflow/worktrees").exists(),
        "a listing never makes the units root"
    );
    add_unit(&ws, "001-x-plan-exec");
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
    // whole).
    std::fs::remove_dir_all(ws.root().join("docs")).unwrap();
    let v = list(&ws, &[]);
    assert_eq!(v["unreadable"], json!([]));
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

/// The user's git identity in the test HOME: merging a unit makes a merge commit.
fn identity(ws: &Ws) {
    std::fs::write(
        ws.home().join(".gitconfig"),
        "[user]\n\tname = t\n\temail = t@example.com\n[commit]\n\tgpgsign = false\n",
    )
    .unwrap();
}

/// `aw worktree <verb> …`: exit code and the JSON printed.
fn verb(ws: &Ws, args: &[&str]) -> (i32, Value) {
    let mut all = vec!["worktree"];
    all.extend_from_slice(args);
    all.push("--json");
    let (code, out) = ws.text(&all);
    (
        code,
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}")),
    )
}

fn commit_all(dir: &Path, home: &Path, message: &str) {
    git(dir, home, &["add", "-A"]);
    git(dir, home, &["commit", "-q", "-m", message]);
}

fn hosts_list(ws: &Ws, path: &Path) -> bool {
    std::fs::read_to_string(ws.root().join(".claude/settings.local.json"))
        .unwrap_or_default()
        .contains(path.to_str().unwrap())
}

#[test]
fn ensure_makes_the_unit_from_the_working_branch_once_and_shows_it_to_the_hosts() {
    let ws = workspace();
    ws.create_session("exec", "x-plan-exec", "x");
    // No working branch declared: the unit would start from `development`, which is missing.
    let (code, v) = verb(&ws, &["ensure", "--source", "app", "--code", "001"]);
    assert_eq!(code, 2, "{v:#}");
    assert_eq!(v["error"], "worktree_add_failed");
    assert!(v["hint"].as_str().unwrap().contains("'development'"), "{v}");
    ws.ok(&["set-working-branch", "app", "main"]);
    let app = ws.root().join("app");
    let unit = unit_path(&ws, "app", "001-x-plan-exec");
    let (code, v) = verb(&ws, &["ensure", "--source", "app", "--code", "001"]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(
        v,
        json!({"alias": "app", "source_path": "app", "session": "001-x-plan-exec",
               "path": unit.to_str().unwrap(), "branch": "aw/001-x-plan-exec",
               "created": true, "visibility": "attached"})
    );
    assert_eq!(head(&unit, ws.home()), head(&app, ws.home()));
    assert!(hosts_list(&ws, &unit));
    // Again: found made, nothing else changes.
    let (code, again) = verb(&ws, &["ensure", "--source", "app", "--session", "001"]);
    assert_eq!(code, 0);
    assert_eq!(again["created"], false);
    let listed = list(&ws, &[]);
    assert_eq!(listed["units"].as_array().unwrap().len(), 1, "{listed:#}");
    // A unit whose folder was deleted by hand is pruned and made again on its own branch.
    std::fs::write(unit.join("f.txt"), "unit\n").unwrap();
    commit_all(&unit, ws.home(), "unit work");
    let tip = head(&unit, ws.home());
    std::fs::remove_dir_all(&unit).unwrap();
    let (_, v) = verb(&ws, &["ensure", "--source", "app", "--code", "001"]);
    assert_eq!(v["created"], true, "{v:#}");
    assert_eq!(head(&unit, ws.home()), tip);
}

#[test]
fn ensure_is_refused_in_the_references_order_as_the_result_with_exit_2() {
    // A block whose sources table is empty.
    let bare = Ws::initialised();
    let claude = bare.root().join("CLAUDE.md");
    let text = std::fs::read_to_string(&claude).unwrap();
    std::fs::write(&claude, text.replace("| app | app |", "")).unwrap();
    bare.create_session("exec", "x-plan-exec", "x");
    let (code, v) = verb(&bare, &["ensure", "--source", "app", "--code", "001"]);
    assert_eq!(
        (code, v["error"].as_str()),
        (2, Some("no_sources_declared")),
        "{v}"
    );

    let ws = workspace();
    ws.create_session("exec", "x-plan-exec", "x");
    ws.create_session("exec", "y-plan-exec", "y");
    let (code, v) = verb(&ws, &["ensure", "--code", "001"]);
    assert_eq!((code, v["error"].as_str()), (2, Some("alias_required")));
    assert!(v["hint"].as_str().unwrap().contains("app, docs"), "{v}");
    let (_, v) = verb(&ws, &["ensure", "--source", "web"]);
    assert_eq!(
        v["error"], "unknown_source",
        "the alias is checked before the session"
    );
    // Two active sessions and no binding: which one is not guessed.
    let (code, v) = verb(&ws, &["ensure", "--source", "app"]);
    assert_eq!(
        (code, v["error"].as_str()),
        (2, Some("session_unresolved")),
        "{v}"
    );
    assert!(v["hint"].as_str().unwrap().contains("--code"), "{v}");
    let (_, v) = verb(&ws, &["ensure", "--source", "docs", "--code", "001"]);
    assert_eq!(v["error"], "not_a_repo");
    assert!(v.get("hint").is_none(), "{v}");
    // The unit's branch checked out in the source's own checkout.
    ws.ok(&["set-working-branch", "app", "main"]);
    let app = ws.root().join("app");
    git(
        &app,
        ws.home(),
        &["checkout", "-q", "-b", "aw/002-y-plan-exec"],
    );
    let (code, v) = verb(&ws, &["ensure", "--source", "app", "--code", "002"]);
    assert_eq!(
        (code, v["error"].as_str()),
        (2, Some("unit_occupied")),
        "{v}"
    );
    assert_eq!(
        v["occupant"],
        json!({"path": "<WS>/app", "branch": "aw/002-y-plan-exec"})
    );
    // A closed session gets no unit.
    ws.ok(&["session-close", "--code", "001"]);
    let (_, v) = verb(&ws, &["ensure", "--source", "app", "--code", "001"]);
    assert_eq!(v["error"], "session_unresolved");
    assert!(!unit_path(&ws, "app", "001-x-plan-exec").exists());
}

#[test]
fn integrate_merges_only_commits_into_the_working_branch_then_removes_the_unit() {
    let ws = workspace();
    identity(&ws);
    ws.create_session("exec", "x-plan-exec", "x");
    let app = ws.root().join("app");
    git(&app, ws.home(), &["checkout", "-q", "-b", "dev"]);
    ws.ok(&["set-working-branch", "app", "dev"]);
    verb(&ws, &["ensure", "--source", "app", "--code", "001"]);
    let unit = unit_path(&ws, "app", "001-x-plan-exec");
    std::fs::write(unit.join("feature.txt"), "new\n").unwrap();
    let integrate = ["integrate", "--source", "app", "--code", "001"];
    let (code, v) = verb(&ws, &integrate);
    assert_eq!(
        (code, v["error"].as_str()),
        (2, Some("unit_not_committed")),
        "{v}"
    );
    // Committed in the unit; the source's checkout on another branch, then dirty.
    commit_all(&unit, ws.home(), "feature");
    git(&app, ws.home(), &["checkout", "-q", "main"]);
    let (_, v) = verb(&ws, &integrate);
    assert_eq!(v["error"], "checkout_off_branch", "{v}");
    assert!(v["message"].as_str().unwrap().contains("'main'"));
    git(&app, ws.home(), &["checkout", "-q", "dev"]);
    std::fs::write(app.join("scratch.txt"), "mine\n").unwrap();
    let (_, v) = verb(&ws, &integrate);
    assert_eq!(v["error"], "checkout_dirty", "{v}");
    std::fs::remove_file(app.join("scratch.txt")).unwrap();
    // Meanwhile the working branch moved: a real merge, never a rebase.
    std::fs::write(app.join("other.txt"), "main side\n").unwrap();
    commit_all(&app, ws.home(), "other");
    let (code, v) = verb(&ws, &integrate);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(
        v,
        json!({"alias": "app", "source_path": "app", "session": "001-x-plan-exec",
               "into": "dev", "branch": "aw/001-x-plan-exec", "integrated": true,
               "conflicted": [], "released": true, "next": null})
    );
    assert_eq!(
        std::fs::read_to_string(app.join("feature.txt")).unwrap(),
        "new\n"
    );
    let parents = git(
        &app,
        ws.home(),
        &["rev-list", "--parents", "-n", "1", "HEAD"],
    );
    assert_eq!(
        String::from_utf8_lossy(&parents.stdout)
            .split_whitespace()
            .count(),
        3
    );
    assert!(!unit.exists(), "the unit is removed");
    assert!(!hosts_list(&ws, &unit), "and withdrawn from the hosts");
    git(
        &app,
        ws.home(),
        &[
            "rev-parse",
            "--verify",
            "-q",
            "refs/heads/aw/001-x-plan-exec",
        ],
    );
    assert_eq!(list(&ws, &[])["units"], json!([]));
    // The session's custody saw the unit taken and merged.
    let custody: Value = serde_json::from_str(
        &std::fs::read_to_string(ws.sessions().join("001-x-plan-exec/.custody.json")).unwrap(),
    )
    .unwrap();
    let kinds: Vec<&str> = custody["effects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["unit_taken", "unit_integrated"], "{custody:#}");
    assert_eq!(custody["effects"][1]["ref"], "refs/heads/dev");
    assert_eq!(
        custody["effects"][1]["after"],
        head(&app, ws.home()).as_str()
    );
    assert_eq!(custody["sources"][0]["unit_branch"], "aw/001-x-plan-exec");
    assert_eq!(custody["sources"][0]["branch"], "dev");
}

#[test]
fn a_custody_that_cannot_be_read_is_refused_before_the_unit_is_made() {
    let ws = workspace();
    ws.create_session("exec", "x-plan-exec", "x");
    ws.ok(&["set-working-branch", "app", "main"]);
    std::fs::write(
        ws.sessions().join("001-x-plan-exec/.custody.json"),
        "{broken",
    )
    .unwrap();
    let (code, v) = verb(&ws, &["ensure", "--source", "app", "--code", "001"]);
    assert_eq!(
        (code, v["error"].as_str()),
        (2, Some("custody_unreadable")),
        "{v}"
    );
    assert!(!unit_path(&ws, "app", "001-x-plan-exec").exists());
    assert_eq!(
        std::fs::read_to_string(ws.sessions().join("001-x-plan-exec/.custody.json")).unwrap(),
        "{broken"
    );
}

#[test]
fn a_conflict_stops_with_the_files_named_and_the_unit_intact_until_the_merge_is_finished() {
    let ws = workspace();
    identity(&ws);
    ws.create_session("exec", "x-plan-exec", "x");
    ws.ok(&["set-working-branch", "app", "main"]);
    let app = ws.root().join("app");
    verb(&ws, &["ensure", "--source", "app", "--code", "001"]);
    let unit = unit_path(&ws, "app", "001-x-plan-exec");
    std::fs::write(unit.join("f.txt"), "unit side\n").unwrap();
    commit_all(&unit, ws.home(), "unit");
    std::fs::write(app.join("f.txt"), "main side\n").unwrap();
    commit_all(&app, ws.home(), "main");
    let (code, v) = verb(&ws, &["integrate", "--source", "app", "--code", "001"]);
    assert_eq!(code, 0, "a conflict is a result: {v:#}");
    assert_eq!(v["integrated"], false);
    assert_eq!(v["conflicted"], json!(["f.txt"]));
    assert_eq!(v["released"], false);
    assert_eq!(v["next"], "aw fix-git --path app");
    let unit_tip = head(&unit, ws.home());
    assert!(unit.join("f.txt").exists(), "the unit is intact");
    // The merge is left for the person: integrating again is refused until it is finished.
    let (code, v) = verb(&ws, &["integrate", "--code", "001"]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["results"][0]["error"], "checkout_dirty", "{v:#}");
    assert_eq!(v["results"][0]["alias"], "app");
    assert_eq!(v["pending"], json!(["app"]));
    assert_eq!(
        v["next"],
        "aw worktree integrate --source app --code 001-x-plan-exec"
    );
    std::fs::write(app.join("f.txt"), "both\n").unwrap();
    commit_all(&app, ws.home(), "merged by hand");
    let (code, v) = verb(&ws, &["integrate", "--code", "001"]);
    assert_eq!(code, 0);
    assert_eq!(v["integrated"], json!(["app"]), "{v:#}");
    assert_eq!(v["pending"], json!([]));
    assert_eq!(v["next"], Value::Null);
    assert!(!unit.exists());
    // Not a commit was lost: the unit's tip is in the working branch.
    git(
        &app,
        ws.home(),
        &["merge-base", "--is-ancestor", &unit_tip, "HEAD"],
    );
}

#[test]
fn closing_lists_what_is_left_to_merge_and_the_orphans_release_command_works() {
    let ws = workspace();
    ws.create_session("exec", "x-plan-exec", "x");
    ws.create_session("exec", "y-plan-exec", "y");
    ws.ok(&["set-working-branch", "app", "main"]);
    verb(&ws, &["ensure", "--source", "app", "--code", "001"]);
    verb(&ws, &["ensure", "--source", "app", "--code", "002"]);
    let unit = unit_path(&ws, "app", "001-x-plan-exec");
    let closed = ws.ok(&["session-close", "--code", "001"]);
    assert_eq!(
        closed["pending_integration"],
        json!([{"alias": "app", "branch": "aw/001-x-plan-exec", "path": unit.to_str().unwrap(),
                "command": "aw worktree integrate --source app --code 001-x-plan-exec"}])
    );
    assert_eq!(
        closed["reopen"],
        "aw session-resume --code 001-x-plan-exec --reopen"
    );
    assert!(unit.exists(), "closing never merges or removes a unit");
    // A session without units says nothing of them.
    let other = ws.ok(&[
        "session-create",
        "--type",
        "quick",
        "--name",
        "z-quick",
        "--objective",
        "z",
    ]);
    let plain = ws.ok(&["session-close", "--code", other["folder"].as_str().unwrap()]);
    assert!(plain.get("pending_integration").is_none() && plain.get("reopen").is_none());
    // The orphan's own release command works on the closed session (the reference refuses it).
    let orphans = list(&ws, &[])["orphans"].clone();
    assert_eq!(orphans[0]["reason"], "session_closed", "{orphans:#}");
    let command = orphans[0]["release"].as_str().unwrap().to_owned();
    let words: Vec<&str> = command.split(' ').skip(2).collect();
    let (code, v) = verb(&ws, &words);
    assert_eq!(code, 0, "{command}: {v:#}");
    assert_eq!(v["released"], true);
    assert_eq!(v["visibility"], "detached");
    assert!(!unit.exists());
    // And on a session whose folder is gone, named by its folder.
    let unit2 = unit_path(&ws, "app", "002-y-plan-exec");
    std::fs::remove_dir_all(ws.sessions().join("002-y-plan-exec")).unwrap();
    let orphans = list(&ws, &[])["orphans"].clone();
    assert_eq!(orphans[0]["reason"], "session_absent", "{orphans:#}");
    let (code, v) = verb(
        &ws,
        &["release", "--source", "app", "--code", "002-y-plan-exec"],
    );
    assert_eq!(code, 0, "{v:#}");
    assert!(!unit2.exists());
    // A name no unit answers to is still unresolved.
    let (code, v) = verb(
        &ws,
        &["release", "--source", "app", "--code", "009-nothing"],
    );
    assert_eq!(
        (code, v["error"].as_str()),
        (2, Some("session_unresolved")),
        "{v}"
    );
}

#[test]
fn release_never_forces_and_keeps_the_branch() {
    let ws = workspace();
    ws.create_session("exec", "x-plan-exec", "x");
    ws.ok(&["set-working-branch", "app", "main"]);
    verb(&ws, &["ensure", "--source", "app", "--code", "001"]);
    let unit = unit_path(&ws, "app", "001-x-plan-exec");
    std::fs::write(unit.join("wip.txt"), "wip\n").unwrap();
    let (code, v) = verb(&ws, &["release", "--source", "app", "--code", "001"]);
    assert_eq!(
        (code, v["error"].as_str()),
        (2, Some("unit_not_clean")),
        "{v}"
    );
    assert!(unit.join("wip.txt").exists());
    std::fs::remove_file(unit.join("wip.txt")).unwrap();
    let (code, v) = verb(&ws, &["release", "--source", "app", "--code", "001"]);
    assert_eq!(code, 0);
    assert_eq!(
        v,
        json!({"alias": "app", "session": "001-x-plan-exec", "path": unit.to_str().unwrap(),
               "branch": "aw/001-x-plan-exec", "released": true, "visibility": "detached"})
    );
    let (_, v) = verb(&ws, &["release", "--source", "app", "--code", "001"]);
    assert_eq!(v["released"], false, "nothing left to remove");
    git(
        &ws.root().join("app"),
        ws.home(),
        &[
            "rev-parse",
            "--verify",
            "-q",
            "refs/heads/aw/001-x-plan-exec",
        ],
    );
}

#[test]
fn the_board_shows_each_sessions_units_and_the_orphans() {
    let ws = workspace();
    ws.create_session("exec", "x-plan-exec", "x");
    ws.create_session("exec", "y-plan-exec", "y");
    ws.ok(&["set-working-branch", "app", "main"]);
    verb(&ws, &["ensure", "--source", "app", "--code", "001"]);
    verb(&ws, &["ensure", "--source", "app", "--code", "002"]);
    ws.ok(&["session-close", "--code", "002"]);
    let unit = unit_path(&ws, "app", "001-x-plan-exec");
    let status = ws.ok(&["status", "--json"]);
    let ref1 =
        json!([{"alias": "app", "path": unit.to_str().unwrap(), "branch": "aw/001-x-plan-exec"}]);
    assert_eq!(status["sessions"]["active"][0]["units"], ref1, "{status:#}");
    assert_eq!(status["sessions"]["closed"][0]["units"], json!([]));
    assert_eq!(status["orphan_units"][0]["session"], "002-y-plan-exec");
    assert_eq!(status["orphan_units"][0]["reason"], "session_closed");
    let keys: Vec<&str> = status
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let at = keys.iter().position(|k| *k == "orphan_units").unwrap();
    assert_eq!(keys[at - 1..=at + 1], ["designs", "orphan_units", "counts"]);
    let resume = ws.ok(&["resume", "--code", "001", "--json"]);
    assert_eq!(resume["proposal"]["units"], ref1, "{resume:#}");
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

#[test]
fn a_unit_off_its_branch_is_neither_merged_nor_removed_so_no_commit_is_dropped() {
    let ws = workspace();
    identity(&ws);
    ws.create_session("exec", "x-plan-exec", "x");
    ws.ok(&["set-working-branch", "app", "main"]);
    verb(&ws, &["ensure", "--source", "app", "--code", "001"]);
    let unit = unit_path(&ws, "app", "001-x-plan-exec");
    std::fs::write(unit.join("a.txt"), "on branch\n").unwrap();
    commit_all(&unit, ws.home(), "on branch");
    git(&unit, ws.home(), &["checkout", "-q", "--detach"]);
    std::fs::write(unit.join("b.txt"), "detached\n").unwrap();
    commit_all(&unit, ws.home(), "detached work");
    let detached = head(&unit, ws.home());
    let (code, v) = verb(&ws, &["integrate", "--source", "app", "--code", "001"]);
    assert_eq!(
        (code, v["error"].as_str()),
        (2, Some("unit_not_committed")),
        "{v:#}"
    );
    assert!(
        v["hint"].as_str().unwrap().contains("aw/001-x-plan-exec"),
        "{v}"
    );
    let (code, v) = verb(&ws, &["release", "--source", "app", "--code", "001"]);
    assert_eq!(
        (code, v["error"].as_str()),
        (2, Some("unit_not_clean")),
        "{v:#}"
    );
    assert!(unit.exists());
    assert_eq!(
        head(&unit, ws.home()),
        detached,
        "the detached commit is still checked out"
    );
}

#[test]
fn integrations_at_once_take_turns_and_every_unit_lands() {
    let ws = workspace();
    identity(&ws);
    ws.ok(&["set-working-branch", "app", "main"]);
    let folders: Vec<String> = ["a-plan-exec", "b-plan-exec", "c-plan-exec"]
        .iter()
        .map(|n| {
            ws.create_session("exec", n, "x")["folder"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    for (i, folder) in folders.iter().enumerate() {
        verb(&ws, &["ensure", "--source", "app", "--code", folder]);
        let unit = unit_path(&ws, "app", folder);
        std::fs::write(unit.join(format!("task{i}.txt")), "done\n").unwrap();
        commit_all(&unit, ws.home(), &format!("task {i}"));
    }
    let children: Vec<_> = folders
        .iter()
        .map(|folder| {
            crate::support::process(ws.root(), ws.home())
                .args([
                    "worktree",
                    "integrate",
                    "--source",
                    "app",
                    "--code",
                    folder,
                    "--json",
                ])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        let v = crate::support::json_of(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{v:#}");
        assert_eq!(v["integrated"], true, "{v:#}");
        assert_eq!(v["released"], true, "{v:#}");
    }
    let app = ws.root().join("app");
    for i in 0..3 {
        assert!(app.join(format!("task{i}.txt")).exists(), "task {i} landed");
    }
    let log = git(&app, ws.home(), &["log", "--format=%s"]);
    let log = String::from_utf8_lossy(&log.stdout);
    for i in 0..3 {
        assert!(log.contains(&format!("task {i}")), "{log}");
    }
    assert_eq!(list(&ws, &[])["units"], json!([]));
}

#[test]
fn a_merge_git_stops_for_another_reason_is_undone_and_the_session_goes_on() {
    let ws = workspace();
    identity(&ws);
    ws.create_session("exec", "x-plan-exec", "x");
    ws.ok(&["set-working-branch", "app", "main"]);
    let app = ws.root().join("app");
    verb(&ws, &["ensure", "--source", "app", "--code", "001"]);
    let unit = unit_path(&ws, "app", "001-x-plan-exec");
    std::fs::write(unit.join("u.txt"), "unit\n").unwrap();
    commit_all(&unit, ws.home(), "unit");
    std::fs::write(app.join("m.txt"), "main\n").unwrap();
    commit_all(&app, ws.home(), "main");
    // A hook that refuses every merge commit.
    let hook = app.join(".git/hooks/pre-merge-commit");
    std::fs::write(&hook, "#!/bin/sh\necho 'no merges today' >&2\nexit 1\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let before = head(&app, ws.home());
    let (code, v) = verb(&ws, &["integrate", "--code", "001"]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["results"][0]["error"], "merge_failed", "{v:#}");
    assert_eq!(v["pending"], json!(["app"]));
    assert_eq!(head(&app, ws.home()), before);
    let status = git(&app, ws.home(), &["status", "--porcelain"]);
    assert!(status.stdout.is_empty(), "the checkout is as it was");
    assert!(!app.join(".git/MERGE_HEAD").exists());
    assert!(unit.exists(), "the unit is intact");
}

#[test]
fn a_conflict_left_by_one_integration_is_not_reported_as_anothers() {
    let ws = workspace();
    identity(&ws);
    ws.ok(&["set-working-branch", "app", "main"]);
    let folders: Vec<String> = ["a-plan-exec", "b-plan-exec", "c-plan-exec"]
        .iter()
        .map(|n| {
            ws.create_session("exec", n, "x")["folder"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    for folder in &folders {
        verb(&ws, &["ensure", "--source", "app", "--code", folder]);
        let unit = unit_path(&ws, "app", folder);
        std::fs::write(unit.join("f.txt"), format!("{folder}\n")).unwrap();
        commit_all(&unit, ws.home(), folder);
    }
    let app = ws.root().join("app");
    std::fs::write(app.join("f.txt"), "main moved\n").unwrap();
    commit_all(&app, ws.home(), "main moved");
    let children: Vec<_> = folders
        .iter()
        .map(|folder| {
            crate::support::process(ws.root(), ws.home())
                .args([
                    "worktree",
                    "integrate",
                    "--source",
                    "app",
                    "--code",
                    folder,
                    "--json",
                ])
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let outcomes: Vec<Value> = children
        .into_iter()
        .map(|c| crate::support::json_of(&c.wait_with_output().unwrap().stdout))
        .collect();
    let conflicted = outcomes
        .iter()
        .filter(|v| v["conflicted"] == json!(["f.txt"]))
        .count();
    let refused = outcomes
        .iter()
        .filter(|v| v["error"] == "checkout_dirty")
        .count();
    assert_eq!((conflicted, refused), (1, 2), "{outcomes:#?}");
}
