//! `aw workspace-init` end to end: scaffold, project block, `.gitignore`, multi-root settings,
//! idempotence, dry runs, refusals, and the lock.

use crate::support::{Ws, set_mtime};
use serde_json::{Value, json};
use std::os::unix::fs::MetadataExt;

/// An empty folder with a private home; a busy lock fails fast.
fn ws() -> Ws {
    Ws::bare().with_env("AW_LOCK_WAIT_MS", "100")
}

/// The block's timestamp replaced, for snapshots.
fn unstamped(text: &str) -> String {
    text.lines()
        .map(|l| {
            if l.starts_with("- Last activity: ") {
                "- Last activity: <NOW>".to_owned()
            } else {
                l.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn actions(v: &Value) -> Vec<String> {
    v["project_md"]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            format!(
                "{}={}",
                r["file"].as_str().unwrap(),
                r["action"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn first_init_creates_everything() {
    let w = ws();
    w.write("CLAUDE.md", "# My notes\n\nKeep this.\n");
    w.write("package.json", r#"{"dependencies":{"react":"18"}}"#);
    let v = w.ok(&[
        "workspace-init",
        "--source",
        "app:.:main",
        "--working-branch",
        "app:feature/login",
        "--qa-branch",
        "app:qa",
        "--project",
        "Billing front end",
    ]);
    insta::assert_json_snapshot!("first_init", w.scrub(&v));
    assert!(w.root().join(".workflow/sessions").is_dir());
    // The lock file stays (the reference deleted it): the OS lock lives on its inode.
    assert!(w.root().join(".workflow/.lock").is_file());
    assert_eq!(
        w.read(".workflow/skills.toml"),
        aw_core::project::skills_toml::template("workflow")
    );
    let claude = w.read("CLAUDE.md");
    assert!(claude.starts_with("# My notes\n\nKeep this.\n\n<!-- WORKFLOW-PROJECT-START -->\n"));
    insta::assert_snapshot!("first_init_block", unstamped(&claude));
    let agents = w.read("AGENTS.md");
    assert_eq!(format!("# My notes\n\nKeep this.\n\n{agents}"), claude);
    insta::assert_snapshot!("first_init_gitignore", w.read(".gitignore"));
    assert!(
        !w.root().join(".claude").exists(),
        "no external source, no settings"
    );
    assert!(!w.root().join(".workflow/HISTORY.md").exists());
    assert!(!w.root().join("docs").exists());
}

#[test]
fn second_init_reports_unchanged_and_changes_no_byte() {
    let w = ws();
    w.ok(&[
        "workspace-init",
        "--source",
        "app:.",
        "--source",
        "ext:../ext",
    ]);
    // Every file gets a modification time far in the past: a rewrite of any kind (in place or
    // by rename) would move it to the present, and a rename would also change the inode.
    let files = [
        "CLAUDE.md",
        "AGENTS.md",
        ".gitignore",
        ".claude/settings.local.json",
        ".codex/config.toml",
        ".workflow/skills.toml",
    ];
    let past = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000);
    for f in files {
        set_mtime(&w.root().join(f), past);
    }
    let stamp = |rel: &str| {
        let m = std::fs::metadata(w.root().join(rel)).unwrap();
        (rel.to_owned(), m.ino(), m.modified().unwrap())
    };
    let stamps: Vec<_> = files.iter().map(|f| stamp(f)).collect();
    assert!(stamps.iter().all(|(_, _, t)| *t == past));
    let before = w.tree();
    for args in [
        &["workspace-init"][..],
        &[
            "workspace-init",
            "--source",
            "app:.",
            "--source",
            "ext:../ext",
        ],
    ] {
        let v = w.ok(args);
        assert_eq!(
            actions(&v),
            ["CLAUDE.md=unchanged", "AGENTS.md=unchanged"],
            "{args:?}"
        );
        assert_eq!(v["skills_toml"], "exists");
        assert_eq!(v["gitignore"], "unchanged");
        assert_eq!(v["scaffold"]["created"], json!([]));
        assert_eq!(v["scaffold"]["pruned"], json!([]));
        assert_eq!(v["attach_multiroot"]["claude"]["action"], "unchanged");
        assert_eq!(v["attach_multiroot"]["codex"]["action"], "unchanged");
        assert!(v["project_md"].get("dropped_lines").is_none());
        assert_eq!(w.tree(), before, "{args:?}");
    }
    let after: Vec<_> = files.iter().map(|f| stamp(f)).collect();
    assert_eq!(after, stamps, "no file was rewritten");
}

#[test]
fn dry_run_writes_nothing_and_predicts_the_real_run() {
    let w = ws();
    w.write("CLAUDE.md", "mine\n");
    w.write("docs/plans/.gitkeep", "");
    let args = [
        "workspace-init",
        "--source",
        "app:.",
        "--source",
        "ext:../ext:main",
    ];
    let before = w.tree();
    let mut dry = w.ok(&[&args[..], &["--dry-run"]].concat());
    assert_eq!(w.tree(), before, "a dry run writes nothing");
    assert!(!w.root().join(".workflow").exists());
    assert_eq!(dry["dry_run"], true);
    let real = w.ok(&args);
    dry["dry_run"] = json!(false);
    assert_eq!(dry, real, "the dry run predicted the real run");

    // A changing re-run: the prediction matches again.
    w.ok(&["set-working-branch", "ext", "feat/x"]);
    let before = w.tree();
    let mut dry = w.ok(&["workspace-init", "--source", "app:.", "--dry-run"]);
    assert_eq!(w.tree(), before);
    let real = w.ok(&["workspace-init", "--source", "app:."]);
    dry["dry_run"] = json!(false);
    assert_eq!(dry, real);
    assert_eq!(actions(&real), ["CLAUDE.md=updated", "AGENTS.md=updated"]);
    assert_eq!(
        real["project_md"]["dropped_lines"],
        json!(["  - ext: feat/x"])
    );
}

#[test]
fn user_text_outside_the_markers_is_kept_byte_for_byte() {
    let w = ws();
    let before = "# Team notes\r\n\r\nWe use  tabs\there.\r\n\r\n";
    let after = "\r\n## After the block\r\n* odd  spacing  \r\n";
    let old_block = "<!-- WORKFLOW-PROJECT-START -->\r\n## Proyecto\r\n\r\nViejo\r\n\r\n## Fuentes\r\n\r\n| Alias | Path | Rama principal |\r\n|---|---|---|\r\n| app | . | main |\r\n<!-- WORKFLOW-PROJECT-END -->";
    w.write("CLAUDE.md", &format!("{before}{old_block}{after}"));
    let v = w.ok(&[
        "workspace-init",
        "--source",
        "app:.",
        "--source",
        "lib:libs/core",
    ]);
    assert_eq!(actions(&v), ["CLAUDE.md=updated", "AGENTS.md=created"]);
    let text = w.read("CLAUDE.md");
    assert!(text.starts_with(before), "{text:?}");
    assert!(
        text.ends_with(&format!("<!-- WORKFLOW-PROJECT-END -->{after}")),
        "{text:?}"
    );
    assert!(
        !text.replace("\r\n", "").contains('\n'),
        "a CRLF file stays CRLF"
    );
    assert!(
        text.contains("## Proyecto\r\n\r\nViejo\r\n"),
        "the description is kept, in the block's language"
    );
    assert!(text.contains("| lib | libs/core |  |"));
    assert_eq!(text.matches("PROJECT-START").count(), 1);
}

#[test]
fn init_targets_the_folder_it_is_given_and_never_walks_up() {
    let w = ws();
    let deep = w.root().join("sub/deep");
    std::fs::create_dir_all(&deep).unwrap();
    let v = w.ok_in(
        &deep,
        &[
            "workspace-init",
            "--workspace",
            "../..",
            "--source",
            "app:.",
        ],
    );
    assert_eq!(v["workspace"], w.root().to_str().unwrap());
    assert!(w.root().join(".workflow/sessions").is_dir());
    assert!(w.root().join("CLAUDE.md").is_file());
    assert_eq!(std::fs::read_dir(&deep).unwrap().count(), 0);

    // Without --workspace, init works in the current folder even inside a workspace.
    let v = w.ok_in(&deep, &["workspace-init", "--source", "deep:."]);
    assert_eq!(v["workspace"], deep.to_str().unwrap());
    assert!(deep.join(".workflow/sessions").is_dir());
    assert!(deep.join("AGENTS.md").is_file());
    assert!(!w.read("CLAUDE.md").contains("| deep |"));

    let v = w.failure(&[
        "workspace-init",
        "--workspace",
        "missing",
        "--source",
        "a:.",
    ]);
    assert_eq!(v["error"]["code"], "INVALID_INPUT");
    assert!(!w.root().join("missing").exists());
}

#[test]
fn invalid_namespace_is_an_args_invalid_envelope() {
    let w = ws();
    let v = w.failure(&["workspace-init", "--namespace", "Bad_NS", "--source", "a:."]);
    assert_eq!(v["error"]["code"], "ARGS_INVALID");
    let out = w
        .aw_in(w.root())
        .env("AW_NAMESPACE", "9nope")
        .args(["workspace-init", "--source", "a:."])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"]["code"], "ARGS_INVALID");
    assert!(w.tree().is_empty());
}

#[test]
fn a_busy_lock_fails_the_run_and_nothing_is_written() {
    let w = ws();
    w.write("CLAUDE.md", "mine\n");
    let held = aw_workspace::io::lock::WorkspaceLock::acquire(
        w.root(),
        &w.root().join(".workflow/.lock"),
        std::time::Duration::from_millis(10),
    )
    .unwrap();
    let before = w.tree();
    let v = w.failure(&["workspace-init", "--source", "app:."]);
    assert_eq!(v["error"]["code"], "WORKSPACE_INIT_FAILED");
    assert_eq!(v["error"]["details"]["cause"], "LOCK_BUSY");
    assert_eq!(v["error"]["details"]["pid"], std::process::id().to_string());
    assert_eq!(
        v["error"]["details"]["attach_multiroot"]["reason"],
        "project_md_failed"
    );
    assert_eq!(w.tree(), before);
    drop(held);
    w.ok(&["workspace-init", "--source", "app:."]);
}

#[test]
fn refused_inputs_write_nothing() {
    let w = ws();
    for (args, code) in [
        (&["workspace-init"][..], "INVALID_INPUT"),
        (&["workspace-init", "--source", "app"], "INVALID_INPUT"),
        (&["workspace-init", "--source", ":x"], "INVALID_INPUT"),
        (
            &["workspace-init", "--source", "app:C:foo"],
            "INVALID_INPUT",
        ),
        (&["workspace-init", "--source", "../up:x"], "INVALID_INPUT"),
        (
            &["workspace-init", "--source", "a:.", "--source", "a:b"],
            "INVALID_INPUT",
        ),
        (
            &[
                "workspace-init",
                "--source",
                "a:.",
                "--working-branch",
                "b:x",
            ],
            "INVALID_INPUT",
        ),
        (
            &["workspace-init", "--source", "a:.", "--qa-branch", "a"],
            "INVALID_INPUT",
        ),
        (
            &[
                "workspace-init",
                "--source",
                "a:.",
                "--main-branch",
                "bad..name",
            ],
            "INVALID_INPUT",
        ),
        (
            &[
                "workspace-init",
                "--source",
                "a:.",
                "--project",
                "## Sources",
            ],
            "INVALID_INPUT",
        ),
        (
            &["workspace-init", "--source", "a:.", "--frobnicate"],
            "UNKNOWN_FLAG",
        ),
    ] {
        let v = w.failure(args);
        assert_eq!(v["error"]["code"], code, "{args:?}: {v}");
        assert!(w.tree().is_empty(), "{args:?} left files behind");
    }
}

#[test]
fn reference_flag_spellings_work() {
    let w = ws();
    let v = w.ok(&[
        "workspace-init",
        "--fuente",
        "app:.:main",
        "--proyecto",
        "Legacy flags",
    ]);
    assert_eq!(v["sources"], 1);
    let block = w.read("AGENTS.md");
    assert!(block.contains("Legacy flags") && block.contains("| app | . | main |"));
    let v = w.ok(&["workspace-init", "--source=web:.", "--dry-run"]);
    assert_eq!(v["sources"], 1);
}

#[test]
fn legacy_qtc_markers_are_migrated_not_duplicated() {
    let w = ws();
    let legacy = "intro\n\n<!-- QTC-PROJECT-START -->\n## Proyecto\n\nAntiguo\n\n## Fuentes\n\n| Alias | Path | Rama principal |\n|---|---|---|\n| core | . | master |\n<!-- QTC-PROJECT-END -->\n\noutro\n";
    w.write("CLAUDE.md", legacy);
    let v = w.ok(&["workspace-init"]);
    assert_eq!(v["sources"], 1, "the legacy block's sources are reused");
    assert_eq!(v["project_md"]["results"][0]["action"], "updated");
    assert_eq!(
        v["project_md"]["results"][0]["migrated_from"],
        "QTC-PROJECT"
    );
    let text = w.read("CLAUDE.md");
    assert!(!text.contains("QTC-PROJECT"));
    assert_eq!(text.matches("<!-- WORKFLOW-PROJECT-START -->").count(), 1);
    assert!(text.starts_with("intro\n\n<!-- WORKFLOW-PROJECT-START -->\n## Proyecto\n\nAntiguo\n"));
    assert!(text.ends_with("<!-- WORKFLOW-PROJECT-END -->\n\noutro\n"));
    assert!(text.contains("| core | . | master |"));
    let again = w.ok(&["workspace-init"]);
    assert_eq!(
        actions(&again),
        ["CLAUDE.md=unchanged", "AGENTS.md=unchanged"]
    );
}

#[test]
fn re_init_prunes_branch_lines_of_removed_sources() {
    let w = ws();
    w.ok(&[
        "workspace-init",
        "--source",
        "api:.",
        "--source",
        "web:web",
        "--working-branch",
        "api:feat/a",
        "--working-branch",
        "web:feat/w",
        "--qa-branch",
        "web:qa",
    ]);
    let v = w.ok(&["workspace-init", "--source", "api:."]);
    assert_eq!(
        v["project_md"]["dropped_lines"],
        json!(["  - web: feat/w", "  - web: qa"])
    );
    assert_eq!(
        v["project_md"]["working_branches"],
        json!({"api": "feat/a"})
    );
    assert_eq!(v["project_md"]["qa_branches"], json!({}));
    let text = w.read("CLAUDE.md");
    assert!(!text.contains("web"), "{text}");
    assert!(!text.contains("QA branches"));
}

#[test]
fn legacy_scaffold_is_pruned_but_empty_category_folders_are_kept() {
    let w = ws();
    w.write("docs/plans/.gitkeep", "");
    w.write("docs/designs/.gitkeep", "");
    w.write("docs/designs/001-design-x.md", "# x\n");
    w.write(".workflow/sessions/.gitkeep", "");
    std::fs::create_dir_all(w.root().join("docs/specs")).unwrap();
    std::fs::create_dir_all(w.root().join("docs/research")).unwrap();
    std::fs::create_dir_all(w.root().join("docs/logs")).unwrap();
    let v = w.ok(&["workspace-init", "--source", "app:."]);
    let root = w.root().to_str().unwrap();
    let mut pruned: Vec<String> = v["scaffold"]["pruned"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().replace(root, "<WS>"))
        .collect();
    pruned.sort();
    assert_eq!(
        pruned,
        [
            "<WS>/.workflow/sessions/.gitkeep",
            "<WS>/docs/designs/.gitkeep",
            "<WS>/docs/logs",
            "<WS>/docs/plans",
        ]
    );
    assert_eq!(
        v["scaffold"]["existing"],
        json!([format!("{root}/.workflow/sessions")])
    );
    assert!(
        w.root().join("docs/specs").is_dir(),
        "an empty category folder is kept"
    );
    assert!(w.root().join("docs/research").is_dir());
    assert!(!w.root().join("docs/plans").exists());
    assert!(w.root().join("docs/designs/001-design-x.md").is_file());
    assert!(!w.root().join("docs/designs/.gitkeep").exists());
    assert!(!w.root().join("docs/logs").exists());
    assert!(!w.root().join(".workflow/sessions/.gitkeep").exists());
}

#[test]
fn gitignore_sections_merge_into_a_crlf_file() {
    let w = ws();
    w.write(".gitignore", "target/\r\n# agent-workflow runtime (machine-specific — do not commit)\r\n.workflow/sessions/\r\nmine.log\r\n\r\nlast\r\n");
    let v = w.ok(&[
        "workspace-init",
        "--source",
        "app:.",
        "--source",
        "ext:../ext",
    ]);
    assert_eq!(v["gitignore"], "updated");
    assert_eq!(
        w.read(".gitignore"),
        "target/\r\n# agent-workflow runtime (machine-specific — do not commit)\r\n.workflow/sessions/\r\nmine.log\r\n.workflow/.lock\r\n.workflow/processes.json\r\n.workflow/launch/\r\n.workflow/publish-journal.json\r\ndocs/logs/\r\n.aw-tmp-*\r\n\r\nlast\r\n\r\n# Multi-root visibility (machine-specific paths — do not commit)\r\n.claude/settings.local.json*\r\n.codex/config.toml*\r\n"
    );
}

#[test]
fn external_sources_are_attached_and_detached() {
    let w = ws();
    w.write(
        ".claude/settings.local.json",
        r#"{"model":"opus","permissions":{"allow":["Bash(ls)"],"additionalDirectories":["/kept/by/user"]}}"#,
    );
    let tmp = w.root().parent().unwrap().to_path_buf();
    std::fs::create_dir_all(tmp.join("ext")).unwrap();
    let v = w.ok(&[
        "workspace-init",
        "--source",
        "app:.",
        "--source",
        "ext:../ext",
        "--source",
        "inner:libs/x",
    ]);
    insta::assert_json_snapshot!("attach_multiroot", w.scrub(&v["attach_multiroot"]));
    let settings: Value = serde_json::from_str(&w.read(".claude/settings.local.json")).unwrap();
    assert_eq!(
        w.scrub(&settings),
        json!({"model":"opus","permissions":{"allow":["Bash(ls)"],"additionalDirectories":["/kept/by/user","../ext"]}})
    );
    assert_eq!(
        w.read(".codex/config.toml"),
        format!(
            "additional_writable_roots = [\"../ext\"]\n\n[sandbox_workspace_write]\nwritable_roots = [\"{}\"]\n\n[projects.\"{}\"]\ntrust_level = \"trusted\"\n",
            tmp.join("ext").display(),
            w.root().display()
        )
    );
    let v = w.ok(&["workspace-init", "--source", "app:."]);
    assert_eq!(
        w.scrub(&v["attach_multiroot"]),
        json!({
            "skipped": true,
            "reason": "no_external_sources",
            "detached_removed": ["<TMP>/ext"],
            "claude": {"file": ".claude/settings.local.json", "action": "updated", "added": [], "removed": ["<TMP>/ext"]},
            "codex": {"file": ".codex/config.toml", "action": "updated", "added": [], "removed": ["<TMP>/ext"]},
        })
    );
    // Codex keeps the (now empty) list and the workspace's trust entry.
    assert_eq!(
        w.read(".codex/config.toml"),
        format!(
            "[sandbox_workspace_write]\nwritable_roots = []\n\n[projects.\"{}\"]\ntrust_level = \"trusted\"\n",
            w.root().display()
        )
    );
    let settings: Value = serde_json::from_str(&w.read(".claude/settings.local.json")).unwrap();
    assert_eq!(
        settings["permissions"]["additionalDirectories"],
        json!(["/kept/by/user"])
    );
    assert_eq!(settings["model"], "opus");
}

#[test]
fn unreadable_settings_stop_the_run_before_any_write() {
    let w = ws();
    w.write(".claude/settings.local.json", "{ not json");
    let before = w.tree();
    let v = w.failure(&["workspace-init", "--source", "ext:../ext"]);
    assert_eq!(v["error"]["code"], "WORKSPACE_INIT_FAILED");
    assert_eq!(v["error"]["details"]["step"], "attach_multiroot");
    assert_eq!(w.tree(), before);
    // The same for Codex's file.
    std::fs::remove_file(w.root().join(".claude/settings.local.json")).unwrap();
    w.write(
        ".codex/config.toml",
        "[sandbox_workspace_write]\nwritable_roots = \"/x\"\n",
    );
    let before = w.tree();
    let v = w.failure(&["workspace-init", "--source", "ext:../ext"]);
    assert_eq!(v["error"]["code"], "WORKSPACE_INIT_FAILED");
    assert!(
        v["error"]["details"]["file"]
            .as_str()
            .unwrap()
            .ends_with(".codex/config.toml"),
        "{v:#}"
    );
    assert_eq!(w.tree(), before);
}

#[test]
fn a_custom_namespace_names_markers_folders_and_history() {
    let w = ws();
    let v = w.ok(&["workspace-init", "--namespace", "acme", "--source", "app:."]);
    assert_eq!(
        v["scaffold"]["created"],
        json!([format!("{}/.acme/sessions", w.root().display())])
    );
    let text = w.read("CLAUDE.md");
    assert!(text.starts_with("<!-- ACME-PROJECT-START -->\n"));
    assert!(text.contains("- History: `.acme/HISTORY.md`\n<!-- ACME-PROJECT-END -->"));
    assert!(
        w.read(".gitignore")
            .contains(".acme/sessions/\n.acme/.lock\n")
    );
    assert!(w.read(".acme/skills.toml").contains("~/.acme/skills.toml"));
    // The namespace is then detected from `.acme/sessions`.
    let v = w.ok(&["workspace-init"]);
    assert_eq!(actions(&v), ["CLAUDE.md=unchanged", "AGENTS.md=unchanged"]);
}

#[test]
fn human_projection_summarises_and_detail_lists() {
    let w = ws();
    let out = w
        .aw_in(w.root())
        .args(["workspace-init", "--source", "app:.", "--format", "human"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with(&format!("workspace-init · {}\n", w.root().display())),
        "{text}"
    );
    assert!(text.contains("Sources      1 (app)"), "{text}");
    assert!(text.contains("CLAUDE.md    created"), "{text}");
    let out = w
        .aw_in(w.root())
        .args(["workspace-init", "--dry-run", "--detail"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("dry run, nothing written"), "{text}");
    assert!(
        text.contains("\nAlready there\n  .workflow/sessions\n"),
        "{text}"
    );
}

#[test]
fn an_existing_skills_toml_is_kept_and_the_folder_names_the_project() {
    let w = ws();
    w.write(".workflow/skills.toml", "[skills]\ndesign = \"off\"\n");
    let v = w.ok(&["workspace-init", "--source", "app:."]);
    assert_eq!(v["skills_toml"], "exists");
    assert_eq!(
        w.read(".workflow/skills.toml"),
        "[skills]\ndesign = \"off\"\n"
    );
    assert!(
        w.read("CLAUDE.md").contains("## Project\n\nproj\n"),
        "the folder's name"
    );
    // An explicit description wins over the block's, which wins over the folder's name.
    w.ok(&["workspace-init", "--project", "Explicit"]);
    w.ok(&["workspace-init"]);
    assert!(w.read("AGENTS.md").contains("## Project\n\nExplicit\n"));
}

#[cfg(unix)]
#[test]
fn generated_launch_folders_move_from_docs_tools_to_the_state_folder() {
    use std::os::unix::fs::PermissionsExt;
    let w = ws();
    let generated = r#"{"mode":"server","_generated":{"sha256":"ab12"}}"#;
    // Generated: moved, the script still executable.
    w.write("docs/tools/api/launch.json", generated);
    w.write("docs/tools/api/run.sh", "#!/bin/sh\necho api\n");
    w.write("docs/tools/api/conf/env.txt", "A=1\n");
    let script = w.root().join("docs/tools/api/run.sh");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    // Generated, but the new place already has its launch.json: the old folder only goes.
    w.write("docs/tools/web/launch.json", generated);
    w.write("docs/tools/web/run.sh", "old\n");
    w.write(".workflow/launch/web/launch.json", "{\"new\":true}");
    // The user's own folder (no generated stamp) and a folder holding a link stay.
    w.write("docs/tools/mine/launch.json", r#"{"mode":"mine"}"#);
    w.write("docs/tools/linked/launch.json", generated);
    let outside = w.root().parent().unwrap().join("outside.txt");
    std::fs::write(&outside, "not the workspace's").unwrap();
    std::os::unix::fs::symlink(&outside, w.root().join("docs/tools/linked/out")).unwrap();

    let before = w.tree();
    let mut dry = w.ok(&["workspace-init", "--source", "app:.", "--dry-run"]);
    assert_eq!(w.tree(), before, "a dry run writes nothing");
    let real = w.ok(&["workspace-init", "--source", "app:."]);
    dry["dry_run"] = json!(false);
    assert_eq!(dry, real, "the dry run predicted the run");
    assert_eq!(
        real["legacy_launch"],
        json!([
            {"tool": "api", "from": "docs/tools/api", "to": ".workflow/launch/api", "action": "moved"},
            {"tool": "linked", "from": "docs/tools/linked", "to": ".workflow/launch/linked", "action": "kept"},
            {"tool": "web", "from": "docs/tools/web", "to": ".workflow/launch/web", "action": "removed"},
        ])
    );
    assert_eq!(w.read(".workflow/launch/api/launch.json"), generated);
    assert_eq!(w.read(".workflow/launch/api/conf/env.txt"), "A=1\n");
    let mode = std::fs::metadata(w.root().join(".workflow/launch/api/run.sh"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o111, 0o111, "the script stays executable");
    assert!(!w.root().join("docs/tools/api").exists());
    assert!(!w.root().join("docs/tools/web").exists());
    assert_eq!(w.read(".workflow/launch/web/launch.json"), "{\"new\":true}");
    assert!(!w.root().join(".workflow/launch/web/run.sh").exists());
    assert_eq!(w.read("docs/tools/mine/launch.json"), r#"{"mode":"mine"}"#);
    assert!(w.root().join("docs/tools/linked/launch.json").is_file());
    let again = w.ok(&["workspace-init"]);
    assert_eq!(
        again["legacy_launch"],
        json!([{"tool": "linked", "from": "docs/tools/linked", "to": ".workflow/launch/linked", "action": "kept"}])
    );
}

#[test]
fn replaced_files_keep_their_mode_and_new_ones_follow_the_umask() {
    let w = ws();
    w.write("CLAUDE.md", "# Notes\n");
    let mode = |rel: &str| std::fs::metadata(w.root().join(rel)).unwrap().mode() & 0o777;
    std::fs::set_permissions(
        w.root().join("CLAUDE.md"),
        std::os::unix::fs::PermissionsExt::from_mode(0o664),
    )
    .unwrap();
    // What a plain create gives here (0666 less this process's umask, which aw inherits).
    let plain = w.root().join("plain");
    std::fs::write(&plain, "").unwrap();
    let umask_mode = std::fs::metadata(&plain).unwrap().mode() & 0o777;
    w.ok(&["workspace-init", "--source", "app:.", "--project", "One"]);
    assert_eq!(mode("CLAUDE.md"), 0o664, "a replaced file keeps its mode");
    for created in ["AGENTS.md", ".gitignore", ".workflow/skills.toml"] {
        assert_eq!(mode(created), umask_mode, "{created} follows the umask");
    }
    std::fs::set_permissions(
        w.root().join("AGENTS.md"),
        std::os::unix::fs::PermissionsExt::from_mode(0o640),
    )
    .unwrap();
    w.ok(&["workspace-init", "--source", "app:.", "--project", "Two"]);
    assert!(w.read("AGENTS.md").contains("Two"));
    assert_eq!((mode("CLAUDE.md"), mode("AGENTS.md")), (0o664, 0o640));
}
