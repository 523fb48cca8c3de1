//! Every workspace command works from any subfolder of the workspace: it walks up to the
//! folder holding `.workflow/`, and writes nothing in the folder it was run from.

use crate::support::Ws;

#[test]
fn workspace_commands_walk_up_from_a_subfolder() {
    let ws = Ws::bare();
    let root = ws.root();
    ws.ok(&["workspace-init", "--source", "app:."]);
    let deep = root.join("src/deep");
    std::fs::create_dir_all(&deep).unwrap();

    let created = ws.ok_in(
        &deep,
        &[
            "session-create",
            "--type",
            "quick",
            "--name",
            "fix-quick",
            "--objective",
            "Fix it",
        ],
    );
    assert_eq!(created["folder"], "001-fix-quick");
    assert!(
        root.join(".workflow/sessions/001-fix-quick/SESSION.md")
            .is_file()
    );

    let listed = ws.ok_in(&deep, &["sessions"]);
    assert_eq!(listed["sessions"][0]["folder"], "001-fix-quick");
    ws.ok_in(&deep, &["session-artifacts", "--code", "001"]);
    ws.ok_in(&deep, &["session-resume", "--code", "001"]);
    ws.ok_in(&deep, &["checkpoint-write", "--code", "001"]);
    assert!(
        root.join(".workflow/sessions/001-fix-quick/CHECKPOINT.md")
            .is_file()
    );
    let read = ws.ok_in(&deep, &["checkpoint-read", "--code", "001"]);
    assert_eq!(read["session"], "001-fix-quick");
    ws.ok_in(&deep, &["resume-summary"]);
    ws.ok_in(
        &deep,
        &["history-update", "--code", "001", "--state", "active"],
    );
    assert!(root.join(".workflow/HISTORY.md").is_file());
    let next = ws.ok_in(&deep, &["next-number", "docs/specs", "--dry-run"]);
    assert_eq!(next["next"], "001");
    let block = ws.ok_in(&deep, &["project-md-upsert", "--read"]);
    assert_eq!(block["block"]["fuentes"][0]["alias"], "app");
    ws.ok_in(&deep, &["set-working-branch", "app", "feature/x"]);
    ws.ok_in(&deep, &["sources", "--no-git"]);
    let closed = ws.ok_in(&deep, &["session-close", "--code", "001"]);
    assert_eq!(closed["closed"], true);
    assert!(
        root.join(".workflow/sessions/001-fix-quick/.closed")
            .is_file()
    );

    let leftovers: Vec<_> = std::fs::read_dir(&deep).unwrap().collect();
    assert!(
        leftovers.is_empty(),
        "nothing is written where the command ran"
    );
    assert!(!root.join("src/.workflow").exists() && !deep.join(".workflow").exists());
}
