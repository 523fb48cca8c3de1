//! Crash safety: a mutating command killed with SIGKILL leaves every file either as it was or as
//! it should become, never torn, and the next command works (the OS releases the lock with the
//! dead process). `AW_TEST_STALL_MS` (a documented testing aid) parks the command between two
//! of its writes while it holds the lock, so the kill lands exactly there.

use crate::support::{Ws, wait_until};
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::Duration;

fn spawn(ws: &Ws, args: &[&str], env: &[(&str, &str)]) -> Child {
    let mut c = ws.process(args);
    c.stdout(Stdio::null()).stderr(Stdio::null());
    for (k, v) in env {
        c.env(k, v);
    }
    c.spawn().unwrap()
}

/// Waits for the stalled command to have written `p` (it then holds the lock and sleeps).
fn wait_for(p: &Path) {
    wait_until(&format!("{} appearing", p.display()), || p.exists());
}

fn no_temp_files(dir: &Path) {
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().into_string().unwrap();
        assert!(
            !name.starts_with(".aw-tmp"),
            "leftover {}",
            e.path().display()
        );
        if e.file_type().unwrap().is_dir() {
            no_temp_files(&e.path());
        }
    }
}

#[test]
fn close_killed_between_writes_leaves_old_or_new_and_recovers() {
    let ws = Ws::golden();
    let history_before = ws.read(".workflow/HISTORY.md");
    let dir = ws.sessions().join("session001-dev-foo");
    let mut child = spawn(
        &ws,
        &["session-close", "--code", "001"],
        &[("AW_TEST_STALL_MS", "20000")],
    );
    wait_for(&dir.join(".closed"));
    child.kill().unwrap();
    child.wait().unwrap();

    // Written before the stall: complete. After it: untouched.
    assert_eq!(
        std::fs::read_to_string(dir.join("CHECKPOINT.md")).unwrap(),
        "# CHECKPOINT\n"
    );
    assert_eq!(std::fs::read(dir.join(".closed")).unwrap(), b"");
    assert_eq!(ws.read(".workflow/HISTORY.md"), history_before);
    no_temp_files(ws.root());

    // The kill landed while the lock was held: the file still carries the dead holder's stamp
    // (a clean exit would have emptied it).
    let lock = ws.root().join(".workflow/.lock");
    let stamp: serde_json::Value = serde_json::from_str(&ws.read(".workflow/.lock")).unwrap();
    assert_eq!(stamp["pid"], child.id(), "the killed command held the lock");

    // The dead holder's lock is not held: with no wait allowed at all, a lock still held would
    // fail the next command with LOCK_BUSY; it runs, finishes the job and releases the lock.
    let (code, v) = ws.run_env(
        &["session-close", "--code", "001"],
        &[("AW_LOCK_WAIT_MS", "0")],
    );
    assert_eq!(code, 0, "the lock died with its holder: {v:#}");
    assert_eq!(std::fs::read_to_string(&lock).unwrap(), "", "released");
    assert_eq!(v["history"]["action"], "updated");
    assert!(
        ws.read(".workflow/HISTORY.md")
            .contains("| 001-dev-foo | 2026-01-01 | closed |")
    );
}

#[test]
fn create_killed_after_the_folder_keeps_a_whole_session() {
    let ws = Ws::new();
    let mut child = spawn(
        &ws,
        &[
            "session-create",
            "--type",
            "quick",
            "--name",
            "k-quick",
            "--objective",
            "o",
        ],
        &[("AW_TEST_STALL_MS", "20000"), ("AW_CONTEXT_ID", "conv-K")],
    );
    let folder = ws.sessions().join("001-k-quick");
    wait_for(&folder);
    child.kill().unwrap();
    child.wait().unwrap();
    let text = std::fs::read_to_string(folder.join("SESSION.md")).unwrap();
    assert!(text.starts_with("# Session — k-quick\n") && text.ends_with("- [ ]\n"));
    assert!(
        !ws.sessions().join(".bindings.json").exists(),
        "the binding write never started"
    );
    no_temp_files(ws.root());
    let v = ws.ok(&[
        "session-create",
        "--type",
        "quick",
        "--name",
        "next-quick",
        "--objective",
        "o",
    ]);
    assert_eq!(v["number"], "002");
    assert_eq!(ws.ok(&["sessions"])["total_count"], 2);
}

#[test]
fn history_killed_at_random_moments_is_never_torn() {
    let ws = Ws::new();
    ws.session("001-a", false);
    let row = |state: &str| {
        format!(
            "# Session History\n\n| Session | Date | State | Refs |\n|---------|------|-------|------|\n| 001-a | 2026-01-01 | {state} | — |\n"
        )
    };
    ws.ok(&[
        "history-update",
        "--code",
        "1",
        "--state",
        "active",
        "--date",
        "2026-01-01",
    ]);
    let allowed = [row("active"), row("closed")];
    for i in 0..40u64 {
        let state = if i % 2 == 0 { "closed" } else { "active" };
        let mut child = spawn(
            &ws,
            &[
                "history-update",
                "--code",
                "1",
                "--state",
                state,
                "--date",
                "2026-01-01",
            ],
            &[],
        );
        std::thread::sleep(Duration::from_micros((i * 337) % 6000));
        let _ = child.kill();
        child.wait().unwrap();
        let text = ws.read(".workflow/HISTORY.md");
        assert!(
            allowed.contains(&text),
            "torn history after kill {i}:\n{text}"
        );
    }
    // Temporary files of a killed write may remain only under their hidden prefix; the table is
    // whole and the next command works.
    let v = ws.ok(&[
        "history-update",
        "--code",
        "1",
        "--state",
        "closed",
        "--date",
        "2026-01-01",
    ]);
    assert!(v["action"] == "updated" || v["action"] == "unchanged");
    assert_eq!(ws.read(".workflow/HISTORY.md"), row("closed"));
}
