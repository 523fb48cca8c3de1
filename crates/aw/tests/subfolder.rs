//! Every workspace command works from any subfolder of the workspace: it walks up to the
//! folder holding `.workflow/`, and writes nothing in the folder it was run from.

use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

fn aw(cwd: &Path, home: &Path) -> Command {
    let mut c = Command::cargo_bin("aw").unwrap();
    c.current_dir(cwd)
        .env("HOME", home)
        .env_remove("AW_NAMESPACE")
        .env_remove("AW_CONTEXT_ID")
        .write_stdin("");
    c
}

fn ok(cwd: &Path, home: &Path, args: &[&str]) -> Value {
    let out = aw(cwd, home).args(args).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

#[test]
fn workspace_commands_walk_up_from_a_subfolder() {
    let root = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let root = root.path();
    ok(root, home.path(), &["workspace-init", "--source", "app:."]);
    let deep = root.join("src/deep");
    std::fs::create_dir_all(&deep).unwrap();
    let h = home.path();

    let created = ok(
        &deep,
        h,
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

    let listed = ok(&deep, h, &["sessions"]);
    assert_eq!(listed["sessions"][0]["folder"], "001-fix-quick");
    ok(&deep, h, &["session-artifacts", "--code", "001"]);
    ok(&deep, h, &["session-resume", "--code", "001"]);
    ok(&deep, h, &["checkpoint-write", "--code", "001"]);
    assert!(
        root.join(".workflow/sessions/001-fix-quick/CHECKPOINT.md")
            .is_file()
    );
    let read = ok(&deep, h, &["checkpoint-read", "--code", "001"]);
    assert_eq!(read["session"], "001-fix-quick");
    ok(&deep, h, &["resume-summary"]);
    ok(
        &deep,
        h,
        &["history-update", "--code", "001", "--state", "active"],
    );
    assert!(root.join(".workflow/HISTORY.md").is_file());
    let next = ok(&deep, h, &["next-number", "docs/specs", "--dry-run"]);
    assert_eq!(next["next"], "001");
    let block = ok(&deep, h, &["project-md-upsert", "--read"]);
    assert_eq!(block["block"]["fuentes"][0]["alias"], "app");
    ok(&deep, h, &["set-working-branch", "app", "feature/x"]);
    ok(&deep, h, &["sources", "--no-git"]);
    let closed = ok(&deep, h, &["session-close", "--code", "001"]);
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
