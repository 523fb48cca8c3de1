//! `aw status` and `aw resume` show an active session's flow run (the flow engine's projection):
//! where it stopped and the exact next command.

use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

fn aw(root: &Path, home: &Path) -> Command {
    let mut c = Command::cargo_bin("aw").unwrap();
    c.current_dir(root)
        .env("HOME", home)
        .env_remove("AW_NAMESPACE")
        .env_remove("AW_CONTEXT_ID")
        .write_stdin("");
    c
}

fn run(root: &Path, home: &Path, args: &[&str]) -> String {
    let out = aw(root, home).args(args).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_session_inside_a_flow_shows_its_boundary_and_next_command() {
    let ws = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let (root, h) = (ws.path(), home.path());
    run(root, h, &["workspace-init", "--source", "app:."]);
    run(
        root,
        h,
        &[
            "session-create",
            "--type",
            "quick",
            "--name",
            "copy-quick",
            "--objective",
            "Reword",
        ],
    );
    run(
        root,
        h,
        &[
            "session-create",
            "--type",
            "quick",
            "--name",
            "idle-quick",
            "--objective",
            "Nothing yet",
        ],
    );

    let before: Value = serde_json::from_str(&run(root, h, &["status", "--json"])).unwrap();
    assert!(
        before["sessions"]["active"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["flow"].is_null())
    );

    run(
        root,
        h,
        &[
            "flow",
            "advance",
            "--session",
            "001",
            "--flow",
            "quick",
            "--adopt",
            "--json",
        ],
    );

    let status: Value = serde_json::from_str(&run(root, h, &["status", "--json"])).unwrap();
    let active = status["sessions"]["active"].as_array().unwrap();
    let flow = &active
        .iter()
        .find(|s| s["folder"] == "001-copy-quick")
        .unwrap()["flow"];
    assert_eq!(flow["flow"], "quick");
    assert_eq!(flow["boundary"], "semantic");
    assert_eq!(flow["transition"], "quick.entry-gate-signal");
    assert_eq!(flow["command"], "aw flow advance --session 001-copy-quick");
    let idle = active
        .iter()
        .find(|s| s["folder"] == "002-idle-quick")
        .unwrap();
    assert!(
        idle["flow"].is_null(),
        "a session without a run has no flow"
    );

    let human = run(root, h, &["status", "--format", "human"]);
    assert!(human.contains("Sessions in a flow (1)"), "{human}");
    assert!(
        human.contains("aw flow advance --session 001-copy-quick"),
        "{human}"
    );

    let resume: Value =
        serde_json::from_str(&run(root, h, &["resume", "--code", "001", "--json"])).unwrap();
    let text = resume.to_string();
    assert!(
        text.contains("aw flow advance --session 001-copy-quick"),
        "{text}"
    );
    assert!(text.contains("quick.entry-gate-signal"), "{text}");
}
