//! `aw status` and `aw resume` on fixture workspaces written in English and in the reference's
//! Spanish, snapshot-tested in both projections; plus a multi-megabyte board read whole through
//! a pipe.
//!
//! Runs are pinned: `AW_TEST_NOW` fixes "now", `TZ=UTC` fixes the local zone, and every fixture
//! file gets the same modification time, so dates and relative dates are stable.

use crate::support::{FIXTURE_MTIME, NOW, Ws, bin, clean_env, json_of, set_mtime};
use serde_json::Value;
use std::path::Path;
use std::time::SystemTime;

/// A copy of `tests/fixtures/<name>` with pinned file times, run on the pinned clock.
fn fixture(name: &str) -> Ws {
    pinned(Ws::fixture(name))
}

/// An empty workspace, run on the pinned clock.
fn empty() -> Ws {
    pinned(Ws::new())
}

fn pinned(ws: Ws) -> Ws {
    ws.pinned_clock().with_env("NO_COLOR", "1")
}

/// Runs `aw args…`: (exit code, JSON stdout with the workspace path masked).
fn json(ws: &Ws, args: &[&str]) -> (i32, Value) {
    let (code, text) = ws.text(args);
    (code, json_of(text))
}

#[test]
fn status_english_json() {
    let ws = fixture("status-en");
    let (code, out) = ws.text(&["status", "--json"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("status_en_json", out);
}

#[test]
fn status_english_human() {
    let ws = fixture("status-en");
    let (code, out) = ws.text(&["status", "--format", "human"]);
    assert_eq!(code, 0);
    assert!(!out.contains('\u{1b}'), "no colour when piped");
    insta::assert_snapshot!("status_en_human", out);
    let (_, detail) = ws.text(&["status", "--detail"]);
    insta::assert_snapshot!("status_en_human_detail", detail);
}

#[test]
fn status_spanish_json_and_human() {
    let ws = fixture("status-es");
    let (code, out) = ws.text(&["status"]);
    assert_eq!(code, 0, "piped without flags: JSON");
    insta::assert_snapshot!("status_es_json", out);
    let (_, human) = ws.text(&["status", "--detail"]);
    insta::assert_snapshot!("status_es_human_detail", human);
}

#[test]
fn crlf_documents_read_like_lf() {
    let lf = fixture("status-en");
    let crlf = fixture("status-en");
    for (rel, text) in crlf.tree() {
        if let Some(text) = text.filter(|_| rel.ends_with(".md")) {
            let crlf_text = String::from_utf8(text).unwrap().replace('\n', "\r\n");
            let f = crlf.root().join(rel);
            std::fs::write(&f, crlf_text).unwrap();
            set_mtime(&f, SystemTime::UNIX_EPOCH + FIXTURE_MTIME);
        }
    }
    let (_, a) = json(&lf, &["status", "--json"]);
    let (_, b) = json(&crlf, &["status", "--json"]);
    assert_eq!(a, b);
}

#[test]
fn resume_walks_the_pipeline() {
    let ws = fixture("status-en");
    let (code, out) = ws.text(&["resume", "--json"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("resume_en_pipeline_json", out);
    let (_, human) = ws.text(&["resume", "--format", "human"]);
    insta::assert_snapshot!("resume_en_pipeline_human", human);
}

#[test]
fn resume_targets() {
    let ws = fixture("status-en");
    let (code, v) = json(&ws, &["resume", "001"]);
    assert_eq!(code, 0);
    assert_eq!(v["status"], "candidates", "spec 001 and plan 001");
    assert_eq!(v["candidates"].as_array().unwrap().len(), 2);
    let (_, out) = ws.text(&["resume", "001", "--json"]);
    insta::assert_snapshot!("resume_en_number_candidates", out);
    let (_, v) = json(&ws, &["resume", "docs/plans/001-plan-login-otp.md"]);
    assert_eq!(
        (v["status"].as_str(), v["via"].as_str()),
        (Some("proposal"), Some("explicit"))
    );
    assert_eq!(
        v["proposal"]["next"],
        "BLOCKED F2 — waiting for the mail provider's sandbox"
    );
    // Every step executed, but no seal says which spec text the plan was derived from: v22
    // says that first (board_v22.rs covers a sealed plan).
    let (_, v) = json(&ws, &["resume", "./docs/plans/003-plan-notifications.md"]);
    assert!(
        v["proposal"]["next"]
            .as_str()
            .unwrap()
            .starts_with("NO BASELINE SEAL — "),
        "{v}"
    );
    let abs = ws.root().join("docs/specs/1000-spec-wide-number.md");
    let (_, v) = json(&ws, &["resume", abs.to_str().unwrap()]);
    assert_eq!(v["proposal"]["number"], "1000");
    let (_, v) = json(&ws, &["resume", "1000"]);
    assert_eq!(v["proposal"]["kind"], "spec-unrefined");
    let (_, v) = json(&ws, &["resume", "5"]);
    assert_eq!(v["status"], "candidates", "5 is 005: a spec and a plan");
    let (_, v) = json(&ws, &["resume", "docs/specs/003-spec-export-csv.md"]);
    assert_eq!(
        v["proposal"]["command"],
        "/w:plan-new docs/specs/003-spec-export-csv.md"
    );
    assert_eq!(v["proposal"]["next"], "derive its plan");
}

#[test]
fn resume_refusals() {
    let ws = fixture("status-en");
    let (code, v) = json(&ws, &["resume", "login-otp"]);
    assert_eq!(code, 1, "slugs never match");
    assert_eq!(v["error"]["code"], "RESUME_TARGET_INVALID");
    assert_eq!(
        (v["data"]["status"].as_str(), v["data"]["target"].as_str()),
        (Some("invalid_target"), Some("login-otp")),
        "the reference's data beside the error"
    );
    let (code, v) = json(&ws, &["resume", "001", "--code", "1"]);
    assert_eq!(code, 1);
    assert_eq!(v["error"]["code"], "ARGS_INVALID");
    let (code, v) = json(&ws, &["resume", "--code", "9"]);
    assert_eq!(code, 1);
    assert_eq!(v["error"]["code"], "RESUME_TARGET_INVALID");
    assert_eq!(v["data"]["candidates"].as_array().unwrap().len(), 4);
    assert_eq!(
        (v["data"]["status"].as_str(), v["data"]["target"].as_str()),
        (Some("invalid_target"), Some("9"))
    );
    let (code, v) = json(&ws, &["resume", "--json", "--detail"]);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("ARGS_INVALID"))
    );
}

#[test]
fn resume_sessions() {
    let ws = fixture("status-en");
    let (_, out) = ws.text(&["resume", "--code", "2", "--format", "human", "--detail"]);
    insta::assert_snapshot!("resume_en_session_human", out);
    let (_, v) = json(&ws, &["resume", "--code", "2"]);
    assert_eq!(
        (
            v["proposal"]["kind"].as_str(),
            v["proposal"]["file"].as_str(),
            v["proposal"]["number"].as_str()
        ),
        (
            Some("session"),
            Some("002-cleanup-quick"),
            Some("002-cleanup-quick")
        ),
        "a session is a session (v22: no checkpoint-orphan items); the folder as file and number"
    );
    let (code, v) = json(&ws, &["resume", "--code", "003"]);
    assert_eq!(code, 0, "closed sessions can be resumed");
    assert_eq!(v["proposal"]["kind"], "session", "outside the pipeline");
    // Where it stands, by the narrative's phase rule (v22 §5.6).
    assert_eq!(
        v["proposal"]["progress"],
        "session closed, no progress recorded"
    );
    assert_eq!(
        v["proposal"]["command"],
        "aw session-resume --code 003-refunds-spec-refine --reopen"
    );
    let es = fixture("status-es");
    let (_, out) = es.text(&["resume", "--code", "1", "--json"]);
    insta::assert_snapshot!("resume_es_session_json", out);
}

#[test]
fn empty_and_uninitialised_workspaces() {
    let ws = empty();
    let (code, v) = json(&ws, &["status", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(v["counts"]["pending"], 0);
    assert_eq!(v["workspace"]["initialized"], true);
    let (_, v) = json(&ws, &["resume"]);
    assert_eq!(v["status"], "idle");
    let bare = pinned(Ws::bare());
    let (code, v) = json(&bare, &["status", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(v["workspace"]["initialized"], false);
    let (_, human) = bare.text(&["status", "--format", "human"]);
    assert!(human.contains("aw workspace-init"), "{human}");
}

#[test]
fn unreadable_and_odd_files_never_fail_the_board() {
    let ws = empty();
    let specs = ws.root().join("docs/specs");
    std::fs::create_dir_all(specs.join("004-spec-a-folder.md")).unwrap();
    std::fs::write(
        specs.join("001-spec-bin.md"),
        [0xff, 0xfe, b'#', b'\n', 0x80],
    )
    .unwrap();
    std::fs::write(specs.join("notes.md"), "# not a spec\n").unwrap();
    std::fs::write(specs.join("002-spec-empty.md"), "").unwrap();
    std::fs::write(
        ws.root().join("docs/specs/003-spec-deep.md"),
        format!("{}\n{}", "> ".repeat(10_000), "#".repeat(100_000)),
    )
    .unwrap();
    // FIFOs named like documents must be skipped, never opened (opening one waits for a writer).
    let session = ws.root().join(".workflow/sessions/001-fifo-quick");
    std::fs::create_dir_all(&session).unwrap();
    for fifo in [
        specs.join("005-spec-fifo.md"),
        session.join("CHECKPOINT.md"),
    ] {
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()) || !cfg!(unix), "mkfifo");
    }
    let (code, v) = json(&ws, &["status", "--json"]);
    assert_eq!(code, 0);
    let files: Vec<&str> = v["specs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["file"].as_str().unwrap())
        .collect();
    assert_eq!(
        files,
        [
            "docs/specs/001-spec-bin.md",
            "docs/specs/002-spec-empty.md",
            "docs/specs/003-spec-deep.md"
        ]
    );
}

/// The reference truncated piped JSON at 64 KiB; a multi-megabyte board must arrive whole.
#[test]
fn a_multi_megabyte_board_goes_through_a_pipe_whole() {
    let ws = empty();
    let plans = ws.root().join("docs/plans");
    std::fs::create_dir_all(&plans).unwrap();
    let reason = "waiting on the upstream team to ship the new ledger API ".repeat(6);
    for n in 1..=500 {
        let mut text = format!("# Plan {n:03} — big\n\n> State: open\n\n## Tasks\n\n");
        for f in 1..=10 {
            text.push_str(&format!(
                "### F{f} — phase {f}\n> State: blocked\n> Blocker: {reason}\n- [ ] T{f}.1 — task\n\n"
            ));
        }
        std::fs::write(plans.join(format!("{n:03}-plan-big-{n}.md")), text).unwrap();
    }
    // Straight through a pipe…
    let out = ws.process(&["status", "--json"]).output().unwrap();
    assert!(out.status.success());
    assert!(
        out.stdout.len() > 2 * 1024 * 1024,
        "{} bytes",
        out.stdout.len()
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["plans"].as_array().unwrap().len(), 500);
    assert_eq!(
        v["plans"][499]["blocked_phases"].as_array().unwrap().len(),
        10
    );
    // …and through a shell pipeline, the way scripts use it.
    let mut sh = std::process::Command::new("sh");
    clean_env(&mut sh, ws.home())
        .env("AW_TEST_NOW", NOW)
        .env("TZ", "UTC")
        .arg("-c")
        .arg(format!("'{}' status --json | cat", bin().display()))
        .current_dir(ws.root());
    let piped = sh.output().unwrap();
    assert_eq!(piped.stdout, out.stdout);
}

#[test]
fn status_and_resume_walk_up_from_a_subfolder() {
    let ws = fixture("status-en");
    let deep = ws.root().join("src/deep");
    std::fs::create_dir_all(&deep).unwrap();
    let out = ws.aw_in(&deep).args(["status", "--json"]).output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let root = ws.root().canonicalize().unwrap();
    assert_eq!(
        Path::new(v["workspace"]["path"].as_str().unwrap())
            .canonicalize()
            .unwrap(),
        root
    );
    assert_eq!(v["counts"]["plans"], 6);
    let out = ws
        .aw_in(&deep)
        .args(["resume", "docs/plans/002-plan-billing.md", "--json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["proposal"]["next"], "nothing left: the plan is done");
    assert_eq!(
        std::fs::read_dir(&deep).unwrap().count(),
        0,
        "nothing written"
    );
}

/// A FIFO carrying the name of a session's descriptor or run state is no file: every read-only
/// view finishes without waiting on it (before, `sessions` waited on a FIFO `SESSION.md`, and
/// `status` and `resume` on a FIFO `.flow-run.json`, for a writer that never came).
#[cfg(unix)]
#[test]
fn fifos_named_like_a_descriptor_or_run_state_never_hang_a_read() {
    let ws = empty();
    ws.ok(&[
        "session-create",
        "--type",
        "quick",
        "--name",
        "run-quick",
        "--objective",
        "x",
    ]);
    let sessions = ws.root().join(".workflow/sessions");
    let fifo_descriptor = sessions.join("002-fifo-quick");
    std::fs::create_dir_all(&fifo_descriptor).unwrap();
    for fifo in [
        fifo_descriptor.join("SESSION.md"),
        sessions.join("001-run-quick/.flow-run.json"),
    ] {
        make_fifo(&fifo);
    }
    for args in [
        &["status", "--json"][..],
        &["resume", "--json"],
        &["sessions", "--json", "--state", "all"],
        &["status", "--format", "human", "--detail"],
    ] {
        let status = finishes(&ws, args);
        assert!(status.success(), "aw {args:?}: {status:?}");
    }
}

/// Puts a FIFO at `path` (the test fails if it cannot).
#[cfg(unix)]
fn make_fifo(path: &Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo {path:?}");
}

/// Runs `aw args…` and returns how it ended; fails the test if it is still waiting after 20 s
/// (a read blocked on a FIFO never ends by itself).
#[cfg(unix)]
fn finishes(ws: &Ws, args: &[&str]) -> std::process::ExitStatus {
    let mut child = ws
        .process(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("aw {args:?} waited on a FIFO");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// A FIFO in place of the history, the project file or a document being claimed is refused
/// (an error naming the file), never waited on while the workspace lock is held.
#[cfg(unix)]
#[test]
fn fifos_in_place_of_workspace_files_are_refused_not_waited_on() {
    let ws = empty();
    ws.ok(&[
        "session-create",
        "--type",
        "quick",
        "--name",
        "a-quick",
        "--objective",
        "x",
    ]);
    let fifo = |path: std::path::PathBuf| {
        let _ = std::fs::remove_file(&path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        make_fifo(&path);
    };
    fifo(ws.root().join(".workflow/HISTORY.md"));
    for args in [
        &["sessions", "--json"][..],
        &["session-close", "--code", "001"],
    ] {
        finishes(&ws, args);
    }
    fifo(ws.root().join("CLAUDE.md"));
    finishes(&ws, &["workspace-init", "--source", "app:.", "--json"]);
    fifo(ws.root().join("docs/specs/001-spec-x.md"));
    finishes(
        &ws,
        &[
            "next-number",
            "docs/specs",
            "--claim",
            "spec-x.md",
            "--code",
            "001",
        ],
    );
}

/// A system that refuses the board's worker threads (a process limit) gets the board all the
/// same, read by fewer threads: before, the refused spawn was a panic and no JSON.
#[cfg(target_os = "linux")]
#[test]
fn a_board_is_read_whole_when_no_thread_can_be_started() {
    use std::os::unix::fs::PermissionsExt;
    use std::process::Command;
    // World-readable, so the unprivileged user the limit binds can read it.
    let dir = tempfile::Builder::new()
        .prefix("aw-nproc")
        .permissions(std::fs::Permissions::from_mode(0o755))
        .tempdir()
        .unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("docs/specs")).unwrap();
    std::fs::create_dir_all(root.join("docs/plans")).unwrap();
    std::fs::create_dir_all(root.join("home")).unwrap();
    for n in 1..=40 {
        std::fs::write(
            root.join(format!("docs/specs/{n:03}-spec-s{n}.md")),
            "---\nstatus: draft\n---\n# Spec\n",
        )
        .unwrap();
        std::fs::write(
            root.join(format!("docs/plans/{n:03}-plan-s{n}.md")),
            "# Plan\n> State: open\n## Tasks\n### F1 — a\n> State: pending\n- [ ] T1\n",
        )
        .unwrap();
    }
    let uid = Command::new("id").arg("-u").output().unwrap();
    let is_root = String::from_utf8_lossy(&uid.stdout).trim() == "0";
    // The limit does not bind root: the command then runs as `nobody`. Either way RLIMIT_NPROC
    // of 1 leaves no room for another thread.
    let mut c = if is_root {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "bash"]);
        c
    } else {
        Command::new("bash")
    };
    c.arg("-c")
        .arg(r#"ulimit -u 1 && exec "$0" status --json"#)
        .arg(bin());
    clean_env(&mut c, &root.join("home"));
    let out = c
        .current_dir(root)
        .env("AW_TEST_NOW", NOW)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{:?}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json_of(&out.stdout);
    assert_eq!(v["specs"].as_array().unwrap().len(), 40);
    assert_eq!(v["plans"].as_array().unwrap().len(), 40);
}
