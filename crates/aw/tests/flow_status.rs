//! `aw status` and `aw resume` show an active session's flow run (the flow engine's projection):
//! where it stopped and the exact next command.

use crate::support::Ws;
use serde_json::Value;

/// Runs `aw args…` and asserts success; returns stdout.
fn run(ws: &Ws, args: &[&str]) -> String {
    let (code, out) = ws.stdout(args, None, &[]);
    assert_eq!(code, 0, "{args:?}: {out}");
    out
}

#[test]
fn a_session_inside_a_flow_shows_its_boundary_and_next_command() {
    let ws = Ws::bare();
    run(&ws, &["workspace-init", "--source", "app:."]);
    run(
        &ws,
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
        &ws,
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

    let before: Value = serde_json::from_str(&run(&ws, &["status", "--json"])).unwrap();
    assert!(
        before["sessions"]["active"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["flow"].is_null())
    );

    run(
        &ws,
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

    let status: Value = serde_json::from_str(&run(&ws, &["status", "--json"])).unwrap();
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

    let human = run(&ws, &["status", "--format", "human"]);
    assert!(human.contains("Sessions in a flow (1)"), "{human}");
    assert!(
        human.contains("aw flow advance --session 001-copy-quick"),
        "{human}"
    );

    let resume: Value =
        serde_json::from_str(&run(&ws, &["resume", "--code", "001", "--json"])).unwrap();
    let text = resume.to_string();
    assert!(
        text.contains("aw flow advance --session 001-copy-quick"),
        "{text}"
    );
    assert!(text.contains("quick.entry-gate-signal"), "{text}");
}
