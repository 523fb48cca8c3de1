//! The publish journal as a repository, a copy or a forger could leave it, and who settles it:
//! a journal is replayed only in the workspace and on the machine whose publish wrote it, only
//! for the files a publish writes, never through a link; only the commands that read the
//! documents a publish writes settle it (and say so on stderr), the others never touch it; a
//! reader behind a live publish fails rather than show half of it.

use crate::persist as ps;
use crate::publish_crash::{JOURNAL, PLAN, SPEC, completed, kill, persist_plan, spawn, strs};
use crate::support::{Ws, git, wait_until};
use aw_core::journal::{Binding, Journal, JournalFile};
use serde_json::json;

const HOOK: &str =
    r#"{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"touch pwned"}]}]}}"#;

fn stderr_of(ws: &Ws, args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let out = ws.output_in(ws.root(), args, None, env);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A persist of a spec and a plan killed between its two documents: the spec and the journal
/// on disk, the plan not.
fn killed_between(ws: &Ws) -> (Vec<String>, String) {
    let (args, stdin) = persist_plan(
        ws,
        json!([
            ps::item("spec", "otp", "OTP"),
            ps::item("plan", "otp", "Plan OTP")
        ]),
    );
    let child = spawn(
        ws,
        &strs(&args),
        &stdin,
        &[
            ("AW_TEST_STALL_AT", "publish-unit"),
            ("AW_TEST_STALL_MS", "20000"),
        ],
    );
    wait_until("the spec", || ws.root().join(SPEC).exists());
    kill(child);
    assert!(ws.root().join(JOURNAL).exists() && !ws.root().join(PLAN).exists());
    (args, stdin)
}

#[cfg(unix)]
#[test]
fn a_journal_committed_to_a_repository_is_never_replayed_in_a_clone() {
    let repo = Ws::new();
    let root = repo.root();
    repo.write(".claude/keep", "");
    repo.write("docs/keep", "");
    std::os::unix::fs::symlink("../.claude", root.join("docs/notes")).unwrap();
    std::os::unix::fs::symlink("../.claude", root.join("docs/specs")).unwrap();
    // What a repository can commit: the first format (no binding), and the current one, bound
    // to the author's own folders.
    let v1 = json!({"version": 1, "direction": "forward", "folders": [],
        "files": [{"path": "docs/notes/settings.local.json", "content": HOOK, "previous": null}]});
    let v2 = Journal::forward(
        Binding {
            root: root.to_string_lossy().into_owned(),
            device: 1,
            inode: 2,
        },
        vec![JournalFile {
            path: "docs/specs/001-spec-settings.md".into(),
            content: HOOK.into(),
            previous: None,
        }],
        Vec::new(),
    );
    let clone = Ws::new();
    for text in [v1.to_string(), v2.render()] {
        repo.write(JOURNAL, &text);
        git(root, repo.home(), &["init", "-q"]);
        git(root, repo.home(), &["add", "-A", "-f"]);
        git(root, repo.home(), &["commit", "-q", "-m", "journal"]);
        std::fs::remove_dir_all(clone.root()).unwrap();
        std::fs::create_dir_all(clone.root()).unwrap();
        git(
            clone.root(),
            clone.home(),
            &["clone", "-q", root.to_str().unwrap(), "."],
        );
        let before = clone.tree();
        let (code, _, stderr) = stderr_of(&clone, &["status", "--json"], &[]);
        assert_eq!(code, 0);
        assert_eq!(clone.tree(), before, "nothing written: {stderr}");
        assert!(!clone.root().join(".claude/settings.local.json").exists());
        assert!(
            stderr.contains(JOURNAL) && stderr.contains("rm -- "),
            "the reader names the journal and how to remove it: {stderr}"
        );
        // Nor in the repository itself: its own journal names a path through a link.
        let (_, _, stderr) = stderr_of(&repo, &["status", "--json"], &[]);
        assert_eq!(
            std::fs::read_dir(root.join(".claude")).unwrap().count(),
            1,
            "{stderr}"
        );
        std::fs::remove_dir_all(root.join(".git")).unwrap();
    }
}

#[test]
fn a_reader_says_what_it_finished_and_the_other_commands_never_touch_a_journal() {
    let ws = ps::workspace();
    ws.create_session("quick", "otp", "Ship OTP");
    killed_between(&ws);
    // Hooks, sessions and the visibility doctor do not read the documents a publish writes:
    // they leave the journal, take no lock for it and write nothing.
    std::fs::remove_file(ws.root().join(".workflow/.lock")).unwrap();
    let before = ws.tree();
    for args in [
        &["visibility", "doctor", "--json"][..],
        &["sessions", "--json"][..],
        &["checkpoint-read", "--json"][..],
    ] {
        let _ = stderr_of(&ws, args, &[]);
        assert_eq!(ws.tree(), before, "{args:?} changed the workspace");
    }
    let out = ws.output_in(
        ws.root(),
        &["checkpoint-write", "--can-pause"],
        Some(r#"{"session_id":"none"}"#),
        &[],
    );
    let _ = out;
    assert!(ws.root().join(JOURNAL).exists() && !ws.root().join(PLAN).exists());
    // A reader of the documents finishes the publish first, and says so on stderr.
    let (code, _, stderr) = stderr_of(&ws, &["status", "--json"], &[]);
    assert_eq!(code, 0);
    assert!(
        stderr
            .contains("aw: an interrupted publish was finished: wrote docs/plans/008-plan-otp.md"),
        "{stderr}"
    );
    assert!(ws.root().join(PLAN).exists() && !ws.root().join(JOURNAL).exists());
    let (_, _, stderr) = stderr_of(&ws, &["status", "--json"], &[]);
    assert_eq!(stderr, "", "nothing left to settle");
}

#[test]
fn a_reader_behind_a_live_publish_fails_rather_than_show_half_of_it() {
    let ws = ps::workspace();
    let (args, stdin) = persist_plan(
        &ws,
        json!([
            ps::item("spec", "otp", "OTP"),
            ps::item("plan", "otp", "Plan OTP")
        ]),
    );
    // Another apply, prepared before the publish started.
    let (other_args, other_stdin) =
        persist_plan(&ws, json!([ps::item("research", "sso", "SSO research")]));
    let child = spawn(
        &ws,
        &strs(&args),
        &stdin,
        &[
            ("AW_TEST_STALL_AT", "publish-unit"),
            ("AW_TEST_STALL_MS", "20000"),
        ],
    );
    wait_until("the spec", || ws.root().join(SPEC).exists());
    for reader in [
        &["status", "--json"][..],
        &["next-number", "docs/plans", "--dry-run", "--json"][..],
        &["designs", "--json"][..],
    ] {
        let (code, stdout, _) = stderr_of(&ws, reader, &[("AW_LOCK_WAIT_MS", "200")]);
        assert_eq!(code, 1, "{reader:?}: {stdout}");
        let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(v["error"]["code"], "LOCK_BUSY", "{v:#}");
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("publish is being written"),
            "{v:#}"
        );
    }
    // An apply behind it answers its own blocked result, as behind any other lock holder.
    let out = ws.output_in(
        ws.root(),
        &strs(&other_args),
        Some(&other_stdin),
        &[("AW_LOCK_WAIT_MS", "200")],
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (
            out.status.code(),
            v["outcome"].as_str(),
            v["error"]["code"].as_str()
        ),
        (Some(0), Some("blocked"), Some("CAPABILITY_EFFECT_LOCKED")),
        "{v:#}"
    );
    kill(child);
    let status = ws.ok(&["status", "--json"]);
    let has = |kind: &str, file: &str| {
        status[kind]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["file"] == file)
    };
    assert!(has("specs", SPEC) && has("plans", PLAN), "{status:#}");
}

#[test]
fn an_unusable_journal_is_reported_by_readers_and_named_by_writers() {
    let ws = ps::workspace();
    let planned = ps::planned(&ws, json!([ps::item("research", "otp", "OTP research")]));
    ws.write(JOURNAL, "{\"not\": \"a journal\"}\n");
    let before = ws.tree();
    let (code, _, stderr) = stderr_of(&ws, &["status", "--json"], &[]);
    assert_eq!(code, 0);
    assert!(
        stderr.contains(&format!("the publish journal '{JOURNAL}'")) && stderr.contains("Next:"),
        "{stderr}"
    );
    assert_eq!(
        ws.tree(),
        before,
        "a reader writes nothing, not even the lock"
    );
    let stdin = json!({"plan": planned["plan"]}).to_string();
    let (_, applied) = ws.run_with(
        &[
            "persist",
            "apply",
            "--json",
            "--approval",
            &ps::digest(&planned),
        ],
        Some(&stdin),
        &[],
    );
    assert_eq!(applied["outcome"], "blocked", "{applied:#}");
    assert_eq!(applied["error"]["code"], "PUBLISH_FAILED");
    assert!(
        applied["error"]["message"]
            .as_str()
            .unwrap()
            .contains(JOURNAL),
        "{applied:#}"
    );
    let claim = ws.failure(&["next-number", "docs/specs", "--claim", "x", "--json"]);
    assert_eq!(claim["error"]["code"], "PUBLISH_FAILED", "{claim:#}");
    assert!(
        claim["error"]["message"]
            .as_str()
            .unwrap()
            .contains(JOURNAL),
        "{claim:#}"
    );
    let mut after = ws.tree();
    after.remove(".workflow/.lock");
    assert_eq!(after, before, "the writers wrote nothing but their lock");
}

#[test]
fn a_stall_release_names_no_file_a_test_did_not_make_for_it() {
    let ws = ps::workspace();
    ws.write("README.md", "# Project\n");
    let planned = ps::planned(&ws, json!([ps::item("research", "otp", "OTP research")]));
    let stdin = json!({"plan": planned["plan"]}).to_string();
    let readme = ws.root().join("README.md");
    let (_, applied) = ws.run_with(
        &[
            "persist",
            "apply",
            "--json",
            "--approval",
            &ps::digest(&planned),
        ],
        Some(&stdin),
        &[
            ("AW_TEST_STALL_MS", "150"),
            ("AW_TEST_STALL_RELEASE", readme.to_str().unwrap()),
        ],
    );
    assert!(completed(&applied), "{applied:#}");
    assert_eq!(ws.read("README.md"), "# Project\n");
}
