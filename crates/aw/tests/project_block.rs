//! The project-block commands end to end: `project-md-upsert --read | --init`,
//! `set-working-branch`, `set-qa-branch` and `sources`.

use crate::support::{Ws, git};
use serde_json::{Value, json};

/// The reference's golden fixture block (case 5): Spanish headings, a legacy `Mode:` line.
const GOLDEN_CLAUDE: &str = "# Sample workspace\n\n<!-- WORKFLOW-PROJECT-START -->\n## Proyecto\n\nMode: single-repo\nSample project used by the golden cases.\n\n## Fuentes\n\n| Alias | Path | Rama principal |\n|---|---|---|\n| sample | . | main |\n\n## Stack\n\n_Stack sin detectar._\n\n## Status\n\n- Ramas de trabajo actuales:\n  - sample: main\n- Ramas QA actuales:\n  - sample: desarrollo\n- Última actividad: 2026-01-03 — fixture\n- Histórico: `.workflow/HISTORY.md`\n<!-- WORKFLOW-PROJECT-END -->\n";

/// A workspace (`.workflow/sessions/` exists) with a private home; a busy lock fails fast.
fn ws() -> Ws {
    Ws::new().with_env("AW_LOCK_WAIT_MS", "100")
}

#[test]
fn read_matches_the_reference_golden_case() {
    let w = ws();
    w.write("CLAUDE.md", GOLDEN_CLAUDE);
    let v = w.ok(&["project-md-upsert", "--read"]);
    assert_eq!(
        v,
        json!({
            "block": {
                "proyecto": "Sample project used by the golden cases.",
                "fuentes": [{"alias": "sample", "path": ".", "main_branch": "main"}],
                "stack": {},
                "default_branches": {},
                "working_branches": {"sample": "main"},
                "qa_branches": {"sample": "desarrollo"},
                "last_activity": "2026-01-03 — fixture",
            },
            "files": ["CLAUDE.md", "AGENTS.md"],
        })
    );
    let v = w.ok(&["project-md-upsert", "--read", "--verbose"]);
    assert_eq!(v["cache_used"], false);
    // Reads walk up from a subfolder, and never write.
    let sub = w.root().join("src/deep");
    std::fs::create_dir_all(&sub).unwrap();
    let out = w.output_in(&sub, &["project-md-upsert", "--read"], None, &[]);
    let from_sub: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        from_sub["block"]["proyecto"],
        "Sample project used by the golden cases."
    );
    assert_eq!(w.read("CLAUDE.md"), GOLDEN_CLAUDE);
    assert!(!w.root().join("AGENTS.md").exists());
}

#[test]
fn read_without_a_block_is_null() {
    let w = ws();
    w.write("CLAUDE.md", "# nothing here\n");
    assert_eq!(
        w.ok(&["project-md-upsert", "--read"]),
        json!({"block": null, "files": ["CLAUDE.md", "AGENTS.md"]})
    );
}

#[test]
fn operations_are_required_and_exclusive() {
    let w = ws();
    for args in [
        &["project-md-upsert"][..],
        &["project-md-upsert", "--read", "--init"],
        &["project-md-upsert", "--read", "--source", "a:."],
    ] {
        assert_eq!(
            w.failure(args)["error"]["code"],
            "INVALID_INPUT",
            "{args:?}"
        );
    }
}

#[test]
fn init_merges_sources_and_branches_into_the_block() {
    let w = ws();
    w.write("CLAUDE.md", GOLDEN_CLAUDE);
    let v = w.ok(&[
        "project-md-upsert",
        "--init",
        "--fuente",
        "api:../api",
        "--working-branch",
        "api:feat/x",
        "--main-branch",
        "trunk",
    ]);
    assert_eq!(v, json!({"ok": true, "action": "init"}));
    let read = w.ok(&["project-md-upsert", "--read"]);
    assert_eq!(
        read["block"]["fuentes"],
        json!([
            {"alias": "sample", "path": ".", "main_branch": "main"},
            {"alias": "api", "path": "../api", "main_branch": "trunk"},
        ])
    );
    assert_eq!(
        read["block"]["working_branches"],
        json!({"sample": "main", "api": "feat/x"})
    );
    assert_eq!(
        read["block"]["qa_branches"],
        json!({"sample": "desarrollo"})
    );
    assert_eq!(
        read["block"]["proyecto"],
        "Sample project used by the golden cases."
    );
    let claude = w.read("CLAUDE.md");
    assert!(
        claude.starts_with("# Sample workspace\n\n<!-- WORKFLOW-PROJECT-START -->\n## Project\n")
    );
    assert!(!claude.contains("Mode:"));
    assert!(
        w.read("AGENTS.md")
            .starts_with("<!-- WORKFLOW-PROJECT-START -->")
    );
    let v = w.ok(&["project-md-upsert", "--init", "--verbose"]);
    assert_eq!(v["mode"], "init");
    assert_eq!(
        v["results"],
        json!([
            {"file": "CLAUDE.md", "path": "CLAUDE.md", "action": "unchanged"},
            {"file": "AGENTS.md", "path": "AGENTS.md", "action": "unchanged"},
        ])
    );
}

#[test]
fn set_branch_commands_upsert_one_alias() {
    let w = ws();
    w.write("CLAUDE.md", GOLDEN_CLAUDE);
    let v = w.ok(&["set-working-branch", "sample", "feature/login", "--verbose"]);
    assert_eq!(v["working_branches"], json!({"sample": "feature/login"}));
    let v = w.ok(&["set-qa-branch", "other", "qa"]);
    assert_eq!(v, json!({"ok": true, "action": "init"}));
    let read = w.ok(&["project-md-upsert", "--read"]);
    assert_eq!(
        read["block"]["working_branches"],
        json!({"sample": "feature/login"})
    );
    assert_eq!(
        read["block"]["qa_branches"],
        json!({"sample": "desarrollo", "other": "qa"})
    );
    let text = w.read("CLAUDE.md");
    assert!(text.contains("- Working branches:\n  - sample: feature/login\n- QA branches:\n  - sample: desarrollo\n  - other: qa\n"), "{text}");
}

#[test]
fn set_branch_refusals_write_nothing() {
    let w = ws();
    for args in [
        &["set-working-branch"][..],
        &["set-working-branch", "sample"],
        &["set-qa-branch", "sample", "bad branch"],
        &["set-qa-branch", "../x", "qa"],
        &["set-working-branch", "sample", "main"],
    ] {
        assert_eq!(
            w.failure(args)["error"]["code"],
            "INVALID_INPUT",
            "{args:?}"
        );
    }
    assert!(
        !w.root().join("CLAUDE.md").exists(),
        "no block, nothing written"
    );
    assert!(!w.root().join("AGENTS.md").exists());
    let held = aw_workspace::lock::WorkspaceLock::acquire(
        w.root(),
        &w.root().join(".workflow/.lock"),
        std::time::Duration::from_millis(10),
    )
    .unwrap();
    w.write("CLAUDE.md", GOLDEN_CLAUDE);
    assert_eq!(
        w.failure(&["set-working-branch", "sample", "x"])["error"]["code"],
        "LOCK_BUSY"
    );
    assert_eq!(w.read("CLAUDE.md"), GOLDEN_CLAUDE);
    drop(held);
}

#[test]
fn sources_lists_the_block_with_git_state_per_source() {
    let w = ws();
    let ext = w.root().parent().unwrap().join("ext");
    std::fs::create_dir_all(&ext).unwrap();
    w.ok(&[
        "workspace-init",
        "--source",
        "app:.:main",
        "--source",
        "ext:../ext:main",
        "--source",
        "gone:../gone",
        "--working-branch",
        "ext:feat/e",
    ]);
    let v = w.ok(&["sources", "--no-git"]);
    assert_eq!(v["count"], 3);
    assert_eq!(v["block_found"], true);
    let app = &v["sources"][0];
    assert_eq!(app["resolved_path"], w.root().to_str().unwrap());
    assert_eq!(app["expected_branch"], "main");
    assert_eq!(app["git"], Value::Null);
    assert_eq!(v["sources"][1]["expected_branch"], "feat/e");
    assert_eq!(v["sources"][2]["exists"], false);

    let v = w.ok(&["sources", "--scope", "ext,gone"]);
    assert_eq!(v["count"], 2);
    assert_eq!(v["sources"][1]["git"], json!({"error": "missing_folder"}));
    // git is required here (CI has it): without it this fails, it never skips.
    git(&ext, w.home(), &["--version"]);
    assert_eq!(v["sources"][0]["git"], json!({"error": "not_a_repository"}));
    git(&ext, w.home(), &["init", "-q", "-b", "feat/e"]);
    std::fs::write(ext.join("a.txt"), "a").unwrap();
    git(&ext, w.home(), &["add", "a.txt"]);
    git(&ext, w.home(), &["commit", "-q", "-m", "a"]);
    let v = w.ok(&["sources", "--scope", "ext"]);
    assert_eq!(
        v["sources"][0]["git"],
        json!({"branch": "feat/e", "dirty": false})
    );
    assert_eq!(v["sources"][0]["on_expected_branch"], true);
    std::fs::write(ext.join("b.txt"), "b").unwrap();
    let v = w.ok(&["sources", "--scope", "ext"]);
    assert_eq!(
        v["sources"][0]["git"],
        json!({"branch": "feat/e", "dirty": true})
    );
    let out = w.output_in(
        w.root(),
        &["sources", "--no-git", "--format", "human"],
        None,
        &[],
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("3 source(s)\n"), "{text}");
    assert_eq!(
        w.failure(&["sources", "--scope", "nope"])["error"]["code"],
        "INVALID_INPUT"
    );
}

#[test]
fn sources_without_a_block_is_an_empty_list() {
    let w = ws();
    assert_eq!(
        w.ok(&["sources"]),
        json!({"workspace": w.root().to_str().unwrap(), "block_found": false, "count": 0, "sources": []})
    );
}
