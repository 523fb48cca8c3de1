//! `aw remove-source <alias>` end to end: the block (both files), the branch lines, the hosts'
//! settings, the launch folder, and what is never touched.

use crate::support::Ws;
use serde_json::json;

fn ws() -> Ws {
    let w = Ws::bare().with_env("AW_LOCK_WAIT_MS", "100");
    let tmp = w.root().parent().unwrap().to_path_buf();
    std::fs::create_dir_all(tmp.join("ext")).unwrap();
    std::fs::write(tmp.join("ext/keep.txt"), "the source's own file").unwrap();
    std::fs::create_dir_all(w.root().join("app")).unwrap();
    w.ok(&[
        "workspace-init",
        "--source",
        "app:app",
        "--source",
        "ext:../ext:main",
        "--working-branch",
        "ext:feat/x",
        "--qa-branch",
        "ext:qa",
        "--working-branch",
        "app:feat/a",
    ]);
    w
}

#[test]
fn removes_the_row_branch_lines_multiroot_entries_and_launch_folder() {
    let w = ws();
    w.write(".workflow/launch/ext/run.sh", "echo hi\n");
    w.write(".workflow/launch/ext/logs/today.log", "x\n");
    w.write(".workflow/launch/app/run.sh", "echo app\n");
    // The reference stopped the source's processes from this file; aw runs none and leaves it.
    let processes = r#"{"ext":{"pid":1}}"#;
    w.write(".workflow/processes.json", processes);
    let v = w.ok(&["remove-source", "ext"]);
    assert_eq!(w.read(".workflow/processes.json"), processes);
    assert_eq!(
        w.scrub(&v),
        json!({
            "ok": true,
            "dry_run": false,
            "workspace": "<WS>",
            "alias": "ext",
            "path": "../ext",
            "processesStopped": 0,
            "source": {"alias": "ext", "path": "../ext", "main_branch": "main"},
            "project_md": {"results": [
                {"file": "CLAUDE.md", "path": "CLAUDE.md", "action": "updated"},
                {"file": "AGENTS.md", "path": "AGENTS.md", "action": "updated"},
            ]},
            "dropped_lines": ["  - ext: feat/x", "  - ext: qa"],
            "detach_multiroot": {
                "paths": ["<TMP>/ext"],
                "claude": {"file": ".claude/settings.local.json", "action": "updated", "added": [], "removed": ["<TMP>/ext"]},
                "codex": {"file": ".codex/config.toml", "action": "updated", "added": [], "removed": ["<TMP>/ext"]},
                "warp": {"skipped": true, "reason": "no_project_setting"},
                "detached_removed": ["<TMP>/ext"],
            },
            "launch": {"path": ".workflow/launch/ext", "action": "removed"},
        })
    );
    for file in ["CLAUDE.md", "AGENTS.md"] {
        let text = w.read(file);
        assert!(!text.contains("ext"), "{file}: {text}");
        assert!(text.contains("| app | app |"), "{file}: {text}");
        assert!(text.contains("  - app: feat/a"), "{file}: {text}");
    }
    assert!(!w.read(".codex/config.toml").contains("/ext"));
    assert!(!w.read(".claude/settings.local.json").contains("/ext"));
    assert!(!w.root().join(".workflow/launch/ext").exists());
    assert!(w.root().join(".workflow/launch/app/run.sh").is_file());
    let tmp = w.root().parent().unwrap();
    assert_eq!(
        std::fs::read_to_string(tmp.join("ext/keep.txt")).unwrap(),
        "the source's own file",
        "the source's folder is never touched"
    );
    // The alias is gone now.
    let v = w.fails(&["remove-source", "ext"], "INVALID_INPUT");
    assert_eq!(
        v["error"]["details"],
        json!({"alias": "ext", "known": ["app"]})
    );
}

#[test]
fn an_unknown_alias_names_the_known_ones_and_writes_nothing() {
    let w = ws();
    let before = w.tree();
    let v = w.fails(&["remove-source", "nope"], "INVALID_INPUT");
    assert_eq!(
        v["error"]["details"],
        json!({"alias": "nope", "known": ["app", "ext"]})
    );
    assert!(
        v["data"]["action"].as_str().unwrap().contains("app, ext"),
        "{v:#}"
    );
    for args in [&["remove-source"][..], &["remove-source", "../x"][..]] {
        w.fails(args, "INVALID_INPUT");
    }
    assert_eq!(w.tree(), before);
    let bare = Ws::bare();
    bare.fails(&["remove-source", "app"], "INVALID_INPUT");
    assert!(bare.tree().is_empty(), "a refusal leaves no state folder");
}

#[test]
fn a_dry_run_predicts_the_run_and_inside_or_shared_folders_stay_listed() {
    let w = ws();
    w.ok(&[
        "workspace-init",
        "--source",
        "app:app",
        "--source",
        "ext:../ext",
        "--source",
        "twin:../ext",
    ]);
    let before = w.tree();
    let mut dry = w.ok(&["remove-source", "twin", "--dry-run"]);
    assert_eq!(w.tree(), before, "a dry run writes nothing");
    let real = w.ok(&["remove-source", "twin"]);
    dry["dry_run"] = json!(false);
    assert_eq!(dry, real);
    assert_eq!(
        real["detach_multiroot"],
        json!({"skipped": true, "reason": "still_used"})
    );
    assert_eq!(real["launch"]["action"], "absent");
    assert!(w.read(".codex/config.toml").contains("/ext\"]"));
    let v = w.ok(&["remove-source", "app"]);
    assert_eq!(
        v["detach_multiroot"],
        json!({"skipped": true, "reason": "not_external"})
    );
    assert!(w.root().join("app").is_dir());
    let (code, text) = w.text(&["remove-source", "ext", "--format", "human"]);
    assert_eq!(code, 0);
    assert!(text.starts_with("remove-source · ext\n"), "{text}");
    assert!(text.contains("CLAUDE.md    updated"), "{text}");
    assert!(
        text.contains("Folder       ../ext (left as it is)"),
        "{text}"
    );
    // The block is left with no source: the workspace's own folder stands for one.
    let v = w.ok(&["sources", "--no-git"]);
    assert_eq!(v["count"], 1);
    assert_eq!(v["sources"][0]["implicit"], true);
}

#[cfg(unix)]
#[test]
fn a_launch_folder_holding_a_link_is_kept() {
    let w = ws();
    w.write(".workflow/launch/ext/run.sh", "echo hi\n");
    std::os::unix::fs::symlink("/etc", w.root().join(".workflow/launch/ext/out")).unwrap();
    let v = w.ok(&["remove-source", "ext"]);
    assert_eq!(v["launch"]["action"], "kept");
    assert!(w.root().join(".workflow/launch/ext/run.sh").is_file());
}
