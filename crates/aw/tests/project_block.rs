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
        claude.starts_with("# Sample workspace\n\n<!-- WORKFLOW-PROJECT-START -->\n## Proyecto\n"),
        "the reference's Spanish block stays Spanish"
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
    // As in the reference, an alias that is no source may be set; the block then carries a
    // record it cannot honour, which the next read leaves out and the next write reports.
    let v = w.ok(&["set-qa-branch", "other", "qa"]);
    assert_eq!(v, json!({"ok": true, "action": "init"}));
    let text = w.read("CLAUDE.md");
    assert!(text.contains("- Ramas de trabajo actuales:\n  - sample: feature/login\n- Ramas QA actuales:\n  - sample: desarrollo\n  - other: qa\n"), "{text}");
    let read = w.ok(&["project-md-upsert", "--read"]);
    assert_eq!(
        read["block"]["working_branches"],
        json!({"sample": "feature/login"})
    );
    assert_eq!(
        read["block"]["qa_branches"],
        json!({"sample": "desarrollo"})
    );
    assert_eq!(read["block"]["dropped_lines"], json!(["  - other: qa"]));
    let v = w.ok(&["set-working-branch", "sample", "feature/next"]);
    assert_eq!(
        v,
        json!({"ok": true, "action": "init", "dropped_lines": ["  - other: qa"]})
    );
    assert!(!w.read("CLAUDE.md").contains("other"));
}

/// A Spanish block with a person's lines in every place §5.8 of the v22 spec lists, and the
/// places where the reference loses them.
const NOTES_BLOCK: &str = "<!-- WORKFLOW-PROJECT-START -->\nintro line before the first heading\n## Proyecto\n\nBilling\nsecond paragraph line\n\n## Fuentes\n\n| Alias | Path | Rama principal |\n|---|---|---|\n| app | . | main |\n| broken |\nnote under the table\n\n## Stack\n\n- Lenguaje: Java\n- Editor: vim\n# Stack notes\nunder a level-1 heading\n\n## Status\n\nstatus note\n- Ramas por defecto:\n  - principal: main\n  - weird: x\n- Ramas de trabajo actuales:\n  - app: feature/a\n  - ghost: feature\n- ghost2: flush left\nnote after working\n- Ramas QA actuales:\n  - app: qa\n- Última actividad: 2026-01-01 10:00\nafter activity\n- Histórico: `.workflow/HISTORY.md`\nafter history\n\n## Notes\n\nmy note\n  indented\n\nsecond paragraph\n<!-- WORKFLOW-PROJECT-END -->\n";

/// [`NOTES_BLOCK`] after a write that sets `app`'s working branch to `branch`: every person's
/// line in place, the two records no longer declared left out.
fn notes_after(branch: &str, qa: &str, project: &str) -> String {
    format!(
        "<!-- WORKFLOW-PROJECT-START -->\nintro line before the first heading\n\n## Proyecto\n\n{project}\nsecond paragraph line\n\n## Fuentes\n\n| Alias | Path | Rama principal |\n|---|---|---|\n| app | . | main |\n| broken |\nnote under the table\n\n## Stack\n\n- Lenguaje: Java\n- Editor: vim\n# Stack notes\nunder a level-1 heading\n\n## Status\n\nstatus note\n- Ramas por defecto:\n  - principal: main\n- Ramas de trabajo actuales:\n  - app: {branch}\n- ghost2: flush left\nnote after working\n- Ramas QA actuales:\n  - app: {qa}\n- Última actividad: 2026-05-04 12:34\nafter activity\n- Histórico: `.workflow/HISTORY.md`\nafter history\n\n## Notes\n\nmy note\n  indented\n\nsecond paragraph\n<!-- WORKFLOW-PROJECT-END -->\n"
    )
}

/// The block text of a file, its last-activity stamp pinned (the clock is the run's).
fn block_of(w: &Ws, file: &str) -> String {
    let text = w.read(file);
    let start = text.find("<!-- WORKFLOW-PROJECT-START").unwrap();
    text[start..]
        .lines()
        .map(|l| {
            if l.starts_with("- Última actividad:") || l.starts_with("- Last activity:") {
                let (label, _) = l.split_once(':').unwrap();
                format!("{label}: 2026-05-04 12:34")
            } else {
                l.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

#[test]
fn every_block_write_keeps_a_persons_lines_in_place() {
    let dropped = json!(["  - weird: x", "  - ghost: feature"]);
    let cases: [(&[&str], String); 4] = [
        (
            &["set-working-branch", "app", "feature/y"],
            notes_after("feature/y", "qa", "Billing"),
        ),
        (
            &["set-qa-branch", "app", "qa2"],
            notes_after("feature/a", "qa2", "Billing"),
        ),
        (
            &["project-md-upsert", "--init", "--proyecto", "Renamed"],
            notes_after("feature/a", "qa", "Renamed"),
        ),
        (
            &["workspace-init"],
            notes_after("feature/a", "qa", "Billing"),
        ),
    ];
    for (args, expect) in cases {
        let w = Ws::bare();
        w.write(
            "CLAUDE.md",
            &format!("# Mine\n\n{NOTES_BLOCK}after the block\n"),
        );
        w.write("AGENTS.md", NOTES_BLOCK);
        let v = w.ok(args);
        let reported = if args[0] == "workspace-init" {
            &v["project_md"]["dropped_lines"]
        } else {
            &v["dropped_lines"]
        };
        assert_eq!(reported, &dropped, "{args:?}");
        assert_eq!(
            block_of(&w, "CLAUDE.md"),
            format!("{expect}after the block\n"),
            "{args:?}"
        );
        assert_eq!(block_of(&w, "AGENTS.md"), expect, "{args:?}");
        assert!(w.read("CLAUDE.md").starts_with("# Mine\n\n<!--"));
        // Nothing more is dropped, and a second write changes nothing but the stamp.
        let again = w.ok(args);
        let again = if args[0] == "workspace-init" {
            &again["project_md"]
        } else {
            &again
        };
        assert!(again.get("dropped_lines").is_none(), "{args:?}: {again}");
        assert_eq!(block_of(&w, "AGENTS.md"), expect, "{args:?}");
    }
}

#[test]
fn an_english_block_keeps_a_persons_section_and_notes() {
    let w = Ws::initialised();
    let text = w.read("CLAUDE.md");
    let text = text
        .replace(
            "## Stack\n",
            "## Decisions\n\nWe ship on Fridays.\n\n## Stack\n",
        )
        .replace("\n## Status\n\n", "\n## Status\n\nRemember the freeze.\n");
    w.write("CLAUDE.md", &text);
    w.ok(&["set-working-branch", "app", "feature/y"]);
    for file in ["CLAUDE.md", "AGENTS.md"] {
        let after = w.read(file);
        assert!(
            after.contains(
                "## Status\n\nRemember the freeze.\n- Working branches:\n  - app: feature/y\n"
            ),
            "{file}: {after}"
        );
        assert!(after.contains("- History: `.workflow/HISTORY.md`\n\n## Decisions\n\nWe ship on Fridays.\n<!-- WORKFLOW-PROJECT-END -->"), "{file}: {after}");
    }
    let read = w.ok(&["project-md-upsert", "--read"]);
    assert_eq!(
        read["block"]["preserved_lines"],
        json!([
            {"slot": "status:start", "text": "Remember the freeze."},
            {"slot": "trailing", "text": "## Decisions"},
            {"slot": "trailing", "text": ""},
            {"slot": "trailing", "text": "We ship on Fridays."},
        ])
    );
}

#[test]
fn a_note_left_in_one_file_reaches_both() {
    let w = Ws::initialised();
    let agents = w.read("AGENTS.md").replace(
        "<!-- WORKFLOW-PROJECT-END -->",
        "\n## Codex notes\n\nonly here\n<!-- WORKFLOW-PROJECT-END -->",
    );
    w.write("AGENTS.md", &agents);
    let claude = w.read("CLAUDE.md").replace(
        "<!-- WORKFLOW-PROJECT-END -->",
        "\n## Claude notes\n\n- same\n- same\n<!-- WORKFLOW-PROJECT-END -->",
    );
    w.write("CLAUDE.md", &claude);
    w.ok(&["set-qa-branch", "app", "qa"]);
    for file in ["CLAUDE.md", "AGENTS.md"] {
        assert!(
            w.read(file).contains("\n## Claude notes\n\n- same\n- same\n\n## Codex notes\n\nonly here\n<!-- WORKFLOW-PROJECT-END -->"),
            "{file}: {}",
            w.read(file)
        );
    }
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
    let held = aw_workspace::io::lock::WorkspaceLock::acquire(
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

fn keys(v: &Value) -> Vec<&str> {
    v.as_object().unwrap().keys().map(String::as_str).collect()
}

#[test]
fn sources_speaks_the_reference_model() {
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
        "--qa-branch",
        "ext:qa",
    ]);
    let v = w.ok(&["sources", "--no-git"]);
    assert_eq!(
        keys(&v),
        [
            "sources",
            "working_branches_from_status",
            "cross_source_consistent",
            "divergent_sources",
            "workspace",
            "block_found",
            "count"
        ]
    );
    assert_eq!(v["working_branches_from_status"], json!({"ext": "feat/e"}));
    assert_eq!(v["count"], 3);
    let app = &v["sources"][0];
    assert_eq!(
        keys(app),
        [
            "alias",
            "path",
            "main_branch",
            "expected_work_branch",
            "expected_origin",
            "resolved_path",
            "exists",
            "qa_branch"
        ],
        "--no-git: the reference's four keys, then ours"
    );
    assert_eq!(app["resolved_path"], w.root().to_str().unwrap());
    assert_eq!(
        app["expected_work_branch"],
        Value::Null,
        "the main branch is not an expectation"
    );
    assert_eq!(app["expected_origin"], "none");
    assert_eq!(v["sources"][1]["expected_work_branch"], "feat/e");
    assert_eq!(v["sources"][1]["expected_origin"], "working_branch");
    assert_eq!(v["sources"][1]["qa_branch"], "qa");
    assert_eq!(v["sources"][2]["exists"], false);

    let v = w.ok(&["sources", "--scope", "ext,gone"]);
    assert_eq!(v["count"], 2);
    let gone = &v["sources"][1];
    assert_eq!(gone["error"], "Path does not exist: ../gone");
    assert_eq!(gone["error_kind"], "missing_folder");
    assert_eq!(
        (
            &gone["current_branch"],
            &gone["match"],
            &gone["dirty"],
            &gone["is_repo"]
        ),
        (&Value::Null, &Value::Null, &Value::Null, &json!(false))
    );
    // git is required here (CI has it): without it this fails, it never skips.
    git(&ext, w.home(), &["--version"]);
    assert_eq!(v["sources"][0]["error"], "Not a git repository");
    assert_eq!(v["cross_source_consistent"], true, "no repository diverges");
    git(&ext, w.home(), &["init", "-q", "-b", "feat/e"]);
    std::fs::write(ext.join("a.txt"), "a").unwrap();
    git(&ext, w.home(), &["add", "a.txt"]);
    git(&ext, w.home(), &["commit", "-q", "-m", "a"]);
    let v = w.ok(&["sources", "--scope", "ext"]);
    let e = &v["sources"][0];
    assert_eq!(
        keys(e),
        [
            "alias",
            "path",
            "main_branch",
            "expected_work_branch",
            "current_branch",
            "match",
            "dirty",
            "expected_origin",
            "resolved_path",
            "exists",
            "qa_branch"
        ],
        "a clean repository: no changed_files, is_repo or error (the reference's compact form)"
    );
    assert_eq!(
        (&e["current_branch"], &e["match"], &e["dirty"]),
        (&json!("feat/e"), &json!(true), &json!(false))
    );
    std::fs::write(ext.join("a.txt"), "changed").unwrap();
    std::fs::write(ext.join("b.txt"), "b").unwrap();
    std::fs::write(ext.join("ñandú.txt"), "c").unwrap();
    let v = w.ok(&["sources", "--scope", "ext"]);
    assert_eq!(v["sources"][0]["dirty"], true);
    assert_eq!(
        v["sources"][0]["changed_files"],
        json!(["a.txt", "b.txt", "ñandú.txt"]),
        "every path whole, the first one included, in UTF-8 (not git's quoted octal)"
    );
    let v = w.ok(&["sources", "--scope", "ext", "--verbose"]);
    let e = &v["sources"][0];
    assert_eq!((&e["is_repo"], &e["error"]), (&json!(true), &Value::Null));
    assert_eq!(
        (&v["session_code"], &v["scope"]),
        (&json!(""), &json!(["ext"]))
    );

    git(&ext, w.home(), &["checkout", "-q", "-b", "other"]);
    let v = w.ok(&["sources"]);
    assert_eq!(v["sources"][1]["match"], false);
    // As in the reference, consistency is about repositories on different branches, not about
    // expectations: one readable repository is always consistent.
    assert_eq!(v["cross_source_consistent"], true);
    assert_eq!(v["divergent_sources"], json!([]));
    git(w.root(), w.home(), &["init", "-q", "-b", "main"]);
    let v = w.ok(&["sources"]);
    assert_eq!(v["cross_source_consistent"], false);
    assert_eq!(
        v["divergent_sources"],
        json!([
            {"alias": "app", "current": "main", "expected": null},
            {"alias": "ext", "current": "other", "expected": "feat/e"},
        ])
    );
    git(&ext, w.home(), &["checkout", "-q", "-b", "main"]);
    let v = w.ok(&["sources"]);
    assert_eq!(v["sources"][1]["match"], false);
    assert_eq!(
        (&v["cross_source_consistent"], &v["divergent_sources"]),
        (&json!(true), &json!([])),
        "both on main: consistent, though ext is not where it is expected"
    );
    git(&ext, w.home(), &["checkout", "-q", "other"]);

    let out = w.output_in(w.root(), &["sources", "--format", "human"], None, &[]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("3 source(s)\n"), "{text}");
    assert!(
        text.contains("on other (not the expected branch), 3 uncommitted file(s)"),
        "{text}"
    );
    assert!(text.contains("Not on their expected branch: ext"), "{text}");
    assert!(
        text.contains("The sources are on different branches: app on main, ext on other"),
        "{text}"
    );
    assert_eq!(
        w.failure(&["sources", "--scope", "nope"])["error"]["code"],
        "INVALID_INPUT"
    );
}

#[test]
fn sources_expects_what_a_session_declares() {
    let w = ws();
    let ext = w.root().parent().unwrap().join("ext2");
    std::fs::create_dir_all(&ext).unwrap();
    git(&ext, w.home(), &["init", "-q", "-b", "feat/s"]);
    w.ok(&[
        "workspace-init",
        "--source",
        "ext:../ext2:main",
        "--source",
        "app:.:main",
        "--working-branch",
        "ext:feat/e",
        "--working-branch",
        "app:feat/app",
    ]);
    let dir = w.session("004-fix-quick", false);
    std::fs::write(
        dir.join("SESSION.md"),
        "# Session — fix\n\nBranch: ext:feat/s\n\n## Objective\nFix\n",
    )
    .unwrap();
    let v = w.ok(&["sources", "--no-git"]);
    assert_eq!(v["sources"][0]["expected_work_branch"], "feat/e");
    assert!(v.get("session_code").is_none());
    for flag in ["--session", "--code"] {
        let v = w.ok(&["sources", flag, "4"]);
        assert_eq!(v["session_code"], "4");
        let e = &v["sources"][0];
        assert_eq!(
            (
                &e["expected_work_branch"],
                &e["expected_origin"],
                &e["match"]
            ),
            (&json!("feat/s"), &json!("session"), &json!(true)),
            "{flag}"
        );
        assert_eq!(
            v["sources"][1]["expected_work_branch"], "feat/app",
            "a source the session does not name keeps the block's working branch"
        );
        assert_eq!(
            v["working_branches_from_status"],
            json!({"ext": "feat/e", "app": "feat/app"})
        );
    }
    w.ok(&["sources", "--session", "4", "--code", "4"]);
    assert_eq!(
        w.failure(&["sources", "--session", "4", "--code", "5"])["error"]["code"],
        "ARGS_INVALID"
    );
    assert_eq!(
        w.failure(&["sources", "--session", "9"])["error"]["code"],
        "SESSION_NOT_FOUND"
    );
}

#[test]
fn a_workspace_without_sources_reports_its_own_folder() {
    // A workspace made without `--source` (here: by session-create) still has a repository
    // whose branch a flow's branch step must be able to read.
    let w = ws();
    git(w.root(), w.home(), &["init", "-q", "-b", "trunk"]);
    let v = w.ok(&["sources", "--no-git"]);
    assert_eq!(
        v,
        json!({
            "sources": [{
                "alias": "proj",
                "path": ".",
                "main_branch": null,
                "expected_work_branch": null,
                "expected_origin": "none",
                "resolved_path": w.root().to_str().unwrap(),
                "exists": true,
                "qa_branch": null,
                "implicit": true,
            }],
            "working_branches_from_status": {},
            "cross_source_consistent": true,
            "divergent_sources": [],
            "workspace": w.root().to_str().unwrap(),
            "block_found": false,
            "count": 1
        })
    );
    let v = w.ok(&["sources", "--verbose"]);
    assert!(v.get("error").is_none(), "{v}");
    let s = &v["sources"][0];
    assert_eq!(
        (&s["current_branch"], &s["match"], &s["is_repo"]),
        (&json!("trunk"), &Value::Null, &json!(true))
    );
    // A session's `Branch:` line is an expectation for it, as for any source.
    let folder = w.create_session("quick", "fix", "Fix it")["folder"]
        .as_str()
        .unwrap()
        .to_owned();
    let session_md = format!(".workflow/sessions/{folder}/SESSION.md");
    let text = w.read(&session_md);
    w.write(
        &session_md,
        &text.replacen("\n## Objective", "Branch: feat/x\n\n## Objective", 1),
    );
    let v = w.ok(&["sources", "--code", &folder]);
    assert_eq!(
        (
            &v["sources"][0]["expected_work_branch"],
            &v["sources"][0]["match"]
        ),
        (&json!("feat/x"), &json!(false))
    );
    // A block without sources is the same; its scope names the implicit alias.
    w.write(
        "CLAUDE.md",
        "<!-- WORKFLOW-PROJECT-START -->\n## Project\n\nP\n<!-- WORKFLOW-PROJECT-END -->\n",
    );
    let v = w.ok(&["sources", "--scope", "proj", "--no-git"]);
    assert_eq!((&v["block_found"], &v["count"]), (&json!(true), &json!(1)));
    let (code, text) = w.text(&["sources", "--format", "human", "--no-git"]);
    assert_eq!(code, 0);
    assert!(
        text.contains("the workspace's own folder stands for one"),
        "{text}"
    );
}

#[test]
fn a_new_block_is_english_unless_spanish_is_configured() {
    // English by default.
    let en = Ws::bare();
    en.ok(&["workspace-init", "--source", "app:.:main"]);
    assert!(en.read("CLAUDE.md").contains("## Project\n"));
    // AW_DOC_LANGUAGE=es: the reference's Spanish form, which reads back to the same model.
    let es = Ws::bare().with_env("AW_DOC_LANGUAGE", "es");
    es.ok(&["workspace-init", "--source", "app:.:main"]);
    for file in ["CLAUDE.md", "AGENTS.md"] {
        let text = es.read(file);
        assert!(
            text.contains("## Proyecto\n")
                && text.contains("## Fuentes\n\n| Alias | Path | Rama principal |\n|---|---|---|\n| app | . | main |\n")
                && text.contains("- Última actividad: ")
                && text.contains("- Histórico: `.workflow/HISTORY.md`"),
            "{file}: {text}"
        );
    }
    let read = |w: &Ws| {
        let mut b = w.ok(&["project-md-upsert", "--read"])["block"].clone();
        b["last_activity"] = Value::Null;
        b["proyecto"] = Value::Null;
        b
    };
    assert_eq!(read(&es), read(&en));
    // The setting in skills.toml does the same; the variable wins over it.
    let with_setting = |env: &[(&str, &str)]| {
        let w = Ws::bare();
        std::fs::create_dir_all(w.root().join(".workflow")).unwrap();
        w.write(
            ".workflow/skills.toml",
            "[skills]\n\n[workspace]\ndoc_language = \"es\"\n",
        );
        let (code, v) = w.run_env(&["workspace-init", "--source", "app:.:main"], env);
        assert_eq!(code, 0, "{v}");
        w.read("CLAUDE.md")
    };
    assert!(with_setting(&[]).contains("## Fuentes\n"));
    assert!(with_setting(&[("AW_DOC_LANGUAGE", "en")]).contains("## Sources\n"));
    // A value that is neither en nor es is refused, and nothing is written.
    let bad = Ws::bare().with_env("AW_DOC_LANGUAGE", "fr");
    let v = bad.failure(&["workspace-init", "--source", "app:.:main"]);
    assert_eq!(v["error"]["code"], "INVALID_INPUT");
    assert!(!bad.root().join("CLAUDE.md").exists());
}

#[test]
fn a_new_block_is_spanish_where_the_reference_is_used() {
    // Each of the reference's own traces, alone, makes a new block Spanish and says why.
    type Plant = fn(&Ws);
    let cases: [(Plant, &str); 4] = [
        (
            |w| w.write(".workflow/processes.json", "{}"),
            ".workflow/processes.json",
        ),
        (
            |w| {
                w.write(
                    ".workflow/skills.toml",
                    "# agent-workflow — capability skill bindings\n#\n[skills]\n",
                )
            },
            ".workflow/skills.toml",
        ),
        (
            |w| {
                std::fs::write(
                    std::fs::create_dir_all(w.home().join(".workflow/logs"))
                        .map(|()| {
                            w.home()
                                .join(".workflow/logs/agent-workflow-2026-05-04.log")
                        })
                        .unwrap(),
                    "x",
                )
                .unwrap()
            },
            "~/.workflow/logs/agent-workflow-2026-05-04.log",
        ),
        (
            |w| {
                std::fs::create_dir_all(w.home().join(".claude")).unwrap();
                std::fs::write(
                    w.home().join(".claude/settings.json"),
                    r#"{"hooks":{"PreCompact":[{"hooks":[{"type":"command","command":"agent-workflow checkpoint-write --can-pause"}]}]}}"#,
                )
                .unwrap();
            },
            "~/.claude/settings.json",
        ),
    ];
    for (plant, trace) in cases {
        let w = Ws::bare();
        plant(&w);
        let v = w.ok(&["workspace-init", "--source", "app:."]);
        assert_eq!(
            v["project_md"]["block_language"],
            json!({"language": "es", "reason": "reference_in_use", "traces": [trace]}),
            "{trace}"
        );
        for file in ["CLAUDE.md", "AGENTS.md"] {
            assert!(w.read(file).contains("## Fuentes\n"), "{trace}: {file}");
        }
        // Once the block exists it keeps its language, and nothing more is said.
        let again = w.ok(&["set-working-branch", "app", "feature/x"]);
        assert!(again.get("block_language").is_none(), "{again}");
        // A language someone configured wins over the traces.
        let en = Ws::bare().with_env("AW_DOC_LANGUAGE", "en");
        plant(&en);
        let v = en.ok(&["workspace-init", "--source", "app:."]);
        assert!(v["project_md"].get("block_language").is_none(), "{trace}");
        assert!(en.read("CLAUDE.md").contains("## Sources\n"), "{trace}");
    }
    // project-md-upsert --init writing the first block says it too, in both views.
    let w = Ws::new();
    w.write(".workflow/processes.json", "{}");
    let v = w.ok(&["project-md-upsert", "--init", "--source", "app:."]);
    assert_eq!(
        v["block_language"]["traces"],
        json!([".workflow/processes.json"])
    );
    let w = Ws::new();
    w.write(".workflow/processes.json", "{}");
    let (code, text) = w.text(&[
        "project-md-upsert",
        "--init",
        "--source",
        "app:.",
        "--format",
        "human",
    ]);
    assert_eq!(code, 0);
    assert!(
        text.contains("Language     es: the reference CLI is used here (.workflow/processes.json)"),
        "{text}"
    );
    // No trace: English, and nothing said. A session's custody is no trace: aw writes it too.
    let w = Ws::bare();
    w.write(".workflow/sessions/001-fix/.custody.json", "{}");
    let v = w.ok(&["workspace-init", "--source", "app:."]);
    assert!(v["project_md"].get("block_language").is_none());
    assert!(w.read("CLAUDE.md").contains("## Sources\n"));
}

#[test]
fn an_edited_block_keeps_its_language() {
    // The reference's Spanish block stays Spanish, whatever is configured.
    let w = ws().with_env("AW_DOC_LANGUAGE", "en");
    w.write("CLAUDE.md", GOLDEN_CLAUDE);
    w.ok(&["set-working-branch", "sample", "feat/x"]);
    let text = w.read("CLAUDE.md");
    assert!(
        text.contains("## Proyecto\n")
            && text.contains("- Ramas de trabajo actuales:\n  - sample: feat/x\n"),
        "{text}"
    );
    assert!(
        w.read("AGENTS.md").contains("## Fuentes\n"),
        "a file without a block takes the language of the block that was read"
    );
    // An English block stays English.
    let e = ws().with_env("AW_DOC_LANGUAGE", "es");
    e.write(
        "CLAUDE.md",
        "<!-- WORKFLOW-PROJECT-START -->\n## Project\n\nP\n\n## Sources\n\n| Alias | Path | Main branch |\n|---|---|---|\n| app | . | main |\n<!-- WORKFLOW-PROJECT-END -->\n",
    );
    e.ok(&["set-qa-branch", "app", "qa"]);
    let text = e.read("CLAUDE.md");
    assert!(
        text.contains("## Sources\n") && text.contains("- QA branches:\n  - app: qa\n"),
        "{text}"
    );
}
