//! `aw attach-multiroot`, `aw detach-multiroot` and `aw visibility doctor` end to end: both
//! hosts' files, a user's settings kept, re-runs that change no byte, dry runs, skips, refusals,
//! and the doctor's verdicts.

use crate::support::Ws;
use serde_json::{Value, json};
use std::path::PathBuf;

/// An initialised workspace (one source inside it) with a busy lock failing fast, and the
/// temporary folder beside it where external folders go.
fn ws() -> (Ws, PathBuf) {
    let w = Ws::initialised().with_env("AW_LOCK_WAIT_MS", "100");
    let tmp = w.root().parent().unwrap().to_path_buf();
    for d in ["ext", "b", "c"] {
        std::fs::create_dir_all(tmp.join(d)).unwrap();
    }
    (w, tmp)
}

const USER_CODEX: &str = "# my Codex settings\nmodel = \"o3\" # the model I like\n\n[sandbox_workspace_write]\nnetwork_access = true # keep\nwritable_roots = [\"/mine\"]\n\n[mcp_servers.docs]\ncommand = \"npx\"\n";

#[test]
fn attach_writes_both_hosts_keeps_the_users_settings_and_a_rerun_changes_no_byte() {
    let (w, tmp) = ws();
    w.write(".codex/config.toml", USER_CODEX);
    w.write(
        ".claude/settings.local.json",
        r#"{"model":"opus","permissions":{"additionalDirectories":["/mine"]}}"#,
    );
    let args = [
        "attach-multiroot",
        "--path",
        "../ext",
        "--paths",
        "../b, ../c,",
        "--path",
        "../ext",
    ];
    let v = w.ok(&args);
    assert_eq!(
        w.scrub(&v),
        json!({
            "ok": true,
            "dry_run": false,
            "workspace": "<WS>",
            "paths": ["<TMP>/ext", "<TMP>/b", "<TMP>/c"],
            "claude": {"file": ".claude/settings.local.json", "action": "updated", "added": ["<TMP>/ext", "<TMP>/b", "<TMP>/c"], "removed": []},
            "codex": {"file": ".codex/config.toml", "action": "updated", "added": ["<TMP>/ext", "<TMP>/b", "<TMP>/c"], "removed": []},
            "warp": {"skipped": true, "reason": "no_project_setting"},
            "detached_removed": [],
            "gitignore": "updated",
        })
    );
    let t = tmp.display();
    assert_eq!(
        w.read(".codex/config.toml"),
        format!(
            "# my Codex settings\nmodel = \"o3\" # the model I like\nadditional_writable_roots = [\"../ext\", \"../b\", \"../c\"]\n\n[sandbox_workspace_write]\nnetwork_access = true # keep\nwritable_roots = [\"/mine\", \"{t}/ext\", \"{t}/b\", \"{t}/c\"]\n\n[mcp_servers.docs]\ncommand = \"npx\"\n\n[projects.\"{}\"]\ntrust_level = \"trusted\"\n",
            w.root().display()
        )
    );
    let claude: Value = serde_json::from_str(&w.read(".claude/settings.local.json")).unwrap();
    assert_eq!(claude["model"], "opus");
    // Claude's file gets the paths as typed, as the reference writes them; Codex's gets them
    // in both its own list (absolute, what Codex reads) and the reference's.
    assert_eq!(
        claude["permissions"]["additionalDirectories"],
        json!(["/mine", "../ext", "../b", "../c"])
    );
    assert!(
        w.read(".gitignore")
            .contains("\n.claude/settings.local.json*\n.codex/config.toml*\n")
    );

    let before = w.tree();
    let v = w.ok(&args);
    assert_eq!(v["claude"]["action"], "unchanged");
    assert_eq!(v["codex"]["action"], "unchanged");
    assert_eq!(v["gitignore"], "unchanged");
    assert_eq!(w.tree(), before, "a re-run changes no byte");

    // Detaching restores the user's Codex file, except the trust entry, which stays.
    let v = w.ok(&["detach-multiroot", "--paths", "../ext,../b,../c"]);
    assert_eq!(
        w.scrub(&v["detached_removed"]),
        json!(["<TMP>/ext", "<TMP>/b", "<TMP>/c"])
    );
    assert!(v.get("gitignore").is_none());
    let codex = w.read(".codex/config.toml");
    assert!(codex.starts_with(USER_CODEX), "{codex}");
    let claude: Value = serde_json::from_str(&w.read(".claude/settings.local.json")).unwrap();
    assert_eq!(
        claude,
        json!({"model":"opus","permissions":{"additionalDirectories":["/mine"]}})
    );
}

#[test]
fn from_sources_takes_the_external_sources_and_a_dry_run_predicts_the_run() {
    let (w, _) = ws();
    w.ok(&[
        "workspace-init",
        "--source",
        "app:app",
        "--source",
        "ext:../ext",
    ]);
    let v = w.ok(&["detach-multiroot", "--from-sources"]);
    assert_eq!(w.scrub(&v["paths"]), json!(["<TMP>/ext"]));
    assert_eq!(v["codex"]["removed"], v["paths"]);
    let before = w.tree();
    let mut dry = w.ok(&["attach-multiroot", "--from-sources", "--dry-run"]);
    assert_eq!(w.tree(), before, "a dry run writes nothing");
    assert_eq!(dry["dry_run"], true);
    let real = w.ok(&["attach-multiroot", "--from-sources"]);
    dry["dry_run"] = json!(false);
    assert_eq!(dry, real);
    assert_eq!(real["claude"]["action"], "updated");
    // Without external sources there is nothing to do, and nothing is written.
    let w2 = Ws::initialised();
    let before = w2.tree();
    let v = w2.ok(&["attach-multiroot", "--from-sources"]);
    assert_eq!(v["paths"], json!([]));
    assert_eq!(v["gitignore"], Value::Null);
    assert_eq!(w2.tree(), before);
}

#[test]
fn skip_flags_leave_hosts_alone() {
    let (w, _) = ws();
    let v = w.ok(&[
        "attach-multiroot",
        "--path",
        "../ext",
        "--skip-claude",
        "--skip-oz",
    ]);
    assert_eq!(
        v["claude"],
        json!({"skipped": true, "reason": "skipped_by_flag"})
    );
    assert_eq!(
        v["warp"],
        json!({"skipped": true, "reason": "skipped_by_flag"})
    );
    assert_eq!(v["codex"]["action"], "created");
    assert!(!w.root().join(".claude").exists());
    let v = w.ok(&[
        "detach-multiroot",
        "--path",
        "../ext",
        "--skip-codex",
        "--skip-warp",
    ]);
    assert_eq!(v["codex"]["reason"], "skipped_by_flag");
    assert_eq!(v["claude"]["action"], "unchanged", "there was no file");
    assert!(w.read(".codex/config.toml").contains("/ext\"]"));
}

#[test]
fn refusals_write_nothing() {
    let (w, _) = ws();
    let before = w.tree();
    for (args, code) in [
        (&["attach-multiroot"][..], "INVALID_INPUT"),
        (&["detach-multiroot", "--paths", " , "][..], "INVALID_INPUT"),
        (&["attach-multiroot", "--path", "a|b"][..], "INVALID_INPUT"),
        (
            &["attach-multiroot", "--path", "../ext", "--global"][..],
            "ARGS_INVALID",
        ),
        (&["visibility", "doctor", "--global"][..], "ARGS_INVALID"),
    ] {
        w.fails(args, code);
        assert_eq!(w.tree(), before, "{args:?}");
    }
    let v = w.fails(
        &["attach-multiroot", "--path", "../ext", "--global"],
        "ARGS_INVALID",
    );
    assert_eq!(v["error"]["details"]["argument"], "--global");
    w.write(".codex/config.toml", "model = \n");
    let before = w.tree();
    let v = w.fails(&["attach-multiroot", "--path", "../ext"], "INVALID_INPUT");
    assert!(
        v["error"]["details"]["file"]
            .as_str()
            .unwrap()
            .ends_with(".codex/config.toml")
    );
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not valid TOML")
    );
    assert_eq!(w.tree(), before, "Claude's file is not written either");
}

#[test]
fn attaching_in_a_plain_folder_leaves_no_state_folder() {
    let w = Ws::bare();
    w.ok(&["attach-multiroot", "--path", "/opt/shared"]);
    assert!(w.root().join(".codex/config.toml").is_file());
    assert!(w.root().join(".claude/settings.local.json").is_file());
    assert!(!w.root().join(".workflow").exists());
}

#[test]
fn doctor_reports_missing_stale_and_ok_without_writing() {
    let (w, _) = ws();
    w.ok(&[
        "workspace-init",
        "--source",
        "app:app",
        "--source",
        "ext:../ext",
        "--source",
        "gone:../gone",
    ]);
    let v = w.ok(&["visibility", "doctor"]);
    assert_eq!(v["ok"], true, "{v:#}");
    assert_eq!(v["hosts"]["claude"]["status"], "ok");
    assert_eq!(v["hosts"]["codex"]["status"], "ok");
    assert_eq!(v["hosts"]["codex"]["trusted"], true);
    assert_eq!(
        v["hosts"]["warp"],
        json!({"skipped": true, "reason": "no_project_setting"})
    );
    assert_eq!(v["gitignore"], json!({"status": "ok", "missing": []}));
    let sources = v["sources"].as_array().unwrap();
    assert_eq!(sources[0]["external"], false);
    assert_eq!(sources[0]["claude"], Value::Null);
    assert_eq!(sources[2]["exists"], false);
    assert_eq!(sources[2]["codex"], true);

    // A folder withdrawn by hand from Codex, and one added by hand to Claude Code.
    w.ok(&["detach-multiroot", "--path", "../gone", "--skip-claude"]);
    w.ok(&["attach-multiroot", "--path", "/stale/one", "--skip-codex"]);
    let before = w.tree();
    // Drift is exit 1 with the reference's code; the report is the envelope's data.
    let e = w.fails(&["visibility", "doctor"], "VISIBILITY_DRIFT");
    assert_eq!(w.tree(), before, "the doctor writes nothing");
    assert_eq!(
        e["error"]["message"],
        "Multi-root visibility has drifted: Claude Code's file lists folders no source has, Codex's file does not list every external source."
    );
    let v = &e["data"];
    assert_eq!(v["ok"], false);
    let claude = &v["hosts"]["claude"];
    assert_eq!(claude["status"], "stale");
    assert_eq!(claude["stale"], json!(["/stale/one"]));
    assert!(
        claude["action"]
            .as_str()
            .unwrap()
            .contains("detach-multiroot")
    );
    let codex = &v["hosts"]["codex"];
    assert_eq!(codex["status"], "missing");
    assert_eq!(w.scrub(&codex["missing"]), json!(["<TMP>/gone"]));
    assert_eq!(v["sources"][2]["codex"], false);
    assert_eq!(
        v["action"], claude["action"],
        "the first thing to do comes first"
    );

    // The section of .gitignore and an unreadable file.
    w.write(".gitignore", "target/\n");
    w.write(".claude/settings.local.json", "{ not json");
    let e = w.fails(&["visibility", "doctor"], "VISIBILITY_DRIFT");
    let v = &e["data"];
    assert_eq!(v["hosts"]["claude"]["status"], "invalid");
    assert_eq!(v["sources"][1]["claude"], Value::Null);
    assert_eq!(v["gitignore"]["status"], "missing");
    assert_eq!(
        v["gitignore"]["missing"],
        json!([".claude/settings.local.json*", ".codex/config.toml*"])
    );
}

#[test]
fn each_tools_files_satisfy_the_others_doctor() {
    // What the reference writes (workspace-spec: typed paths, in Claude's list and in a
    // top-level `additional_writable_roots`, a trust entry per path) is no drift to aw.
    let (w, _) = ws();
    w.ok(&["workspace-init", "--source", "ext:../ext"]);
    w.write(
        ".claude/settings.local.json",
        "{\n  \"permissions\": {\n    \"additionalDirectories\": [\n      \"../ext\"\n    ]\n  }\n}\n",
    );
    w.write(
        ".codex/config.toml",
        "additional_writable_roots = [\n  '../ext'\n]\n\n\n[projects.'../ext']\ntrust_level = \"trusted\"\n",
    );
    let v = w.ok(&["visibility", "doctor"]);
    assert_eq!(
        (
            &v["hosts"]["claude"]["status"],
            &v["hosts"]["codex"]["status"]
        ),
        (&json!("ok"), &json!("ok")),
        "{v:#}"
    );
    assert_eq!(v["hosts"]["codex"]["listed"], json!(["../ext"]));
    assert_eq!(
        v["hosts"]["codex"]["trusted"], false,
        "reported, not judged"
    );
    assert_eq!(
        (&v["sources"][0]["claude"], &v["sources"][0]["codex"]),
        (&json!(true), &json!(true))
    );
    // Attaching adds Codex's own list and the workspace's trust, keeps the reference's entries
    // and adds no second spelling of the folder.
    let before = w.read(".claude/settings.local.json");
    let a = w.ok(&["attach-multiroot", "--from-sources"]);
    assert_eq!(a["claude"]["action"], "unchanged");
    assert_eq!(w.read(".claude/settings.local.json"), before);
    let codex = w.read(".codex/config.toml");
    assert!(
        codex.starts_with("additional_writable_roots = [\n  '../ext'\n]\n"),
        "{codex}"
    );
    assert!(
        codex.contains("[projects.'../ext']\ntrust_level = \"trusted\"\n"),
        "{codex}"
    );
    assert!(
        codex.contains(&format!(
            "writable_roots = [\"{}\"]",
            w.root().parent().unwrap().join("ext").display()
        )),
        "{codex}"
    );
    // And what aw writes is what the reference's doctor reads: the typed paths, in the two
    // lists it reads.
    let w2 = Ws::bare();
    std::fs::create_dir_all(w2.root().parent().unwrap().join("ext")).unwrap();
    w2.ok(&["workspace-init", "--source", "ext:../ext/"]);
    let claude: Value = serde_json::from_str(&w2.read(".claude/settings.local.json")).unwrap();
    assert_eq!(
        claude["permissions"]["additionalDirectories"],
        json!(["../ext"])
    );
    assert!(
        w2.read(".codex/config.toml")
            .starts_with("additional_writable_roots = [\"../ext\"]\n"),
        "{}",
        w2.read(".codex/config.toml")
    );
    // Withdrawing the source takes every spelling away, and the reference's emptied list.
    w2.ok(&["detach-multiroot", "--from-sources"]);
    let claude: Value = serde_json::from_str(&w2.read(".claude/settings.local.json")).unwrap();
    assert_eq!(claude["permissions"]["additionalDirectories"], json!([]));
    assert!(
        !w2.read(".codex/config.toml")
            .contains("additional_writable_roots")
    );
    assert_eq!(
        w2.fails(&["visibility", "doctor"], "VISIBILITY_DRIFT")["data"]["hosts"]["claude"]["missing"],
        json!([w2.root().parent().unwrap().join("ext").to_str().unwrap()])
    );
    let (code, text) = w2.text(&["visibility", "doctor", "--format", "human"]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("Claude Code  missing"), "{text}");
}

#[test]
fn doctor_in_a_workspace_without_external_sources_and_its_human_view() {
    let w = Ws::initialised();
    let v = w.ok(&["visibility", "doctor"]);
    assert_eq!(v["ok"], true);
    assert_eq!(v["hosts"]["claude"]["status"], "not_needed");
    assert_eq!(v["hosts"]["codex"]["status"], "not_needed");
    assert_eq!(v["gitignore"]["status"], "not_needed");
    let (code, text) = w.text(&["visibility", "doctor", "--format", "human", "--detail"]);
    assert_eq!(code, 0);
    assert!(text.starts_with("visibility doctor · <WS>\n"), "{text}");
    assert!(text.contains("Codex        not_needed"), "{text}");
    assert!(text.contains("Warp / Oz"), "{text}");
    assert!(text.contains("\nNext: Nothing to do"), "{text}");
    assert!(text.contains("  app          <WS>/app  (inside)"), "{text}");
}

#[test]
fn the_new_commands_have_long_help() {
    let w = Ws::bare();
    for (args, phrase) in [
        (&["attach-multiroot", "--help"][..], "writable_roots"),
        (&["detach-multiroot", "--help"][..], "--from-sources"),
        (&["visibility", "doctor", "--help"][..], "stale"),
        (&["visibility", "--help"][..], "doctor"),
        (&["remove-source", "--help"][..], "never deleted"),
        (&["stack", "--help"][..], "pom.xml"),
    ] {
        let (code, text) = w.stdout(args, None, &[]);
        assert_eq!(code, 0, "{args:?}");
        assert!(text.contains(phrase), "{args:?}: {text}");
    }
}

#[test]
fn the_users_own_settings_are_never_widened() {
    let (w, tmp) = ws();
    let ext = tmp.join("ext");
    let ext = ext.to_str().unwrap();
    // Run from the home folder: its .codex/ and .claude/ are the user's settings for every project.
    let home = w.home().to_path_buf();
    std::fs::create_dir_all(home.join(".codex")).unwrap();
    std::fs::write(home.join(".codex/config.toml"), USER_CODEX).unwrap();
    let before = crate::support::tree(&home);
    let (code, v) = w.run_in(&home, &["attach-multiroot", "--path", ext], None, &[]);
    assert_eq!(
        (code, &v["error"]["code"]),
        (1, &json!("INVALID_INPUT")),
        "{v:#}"
    );
    assert_eq!(
        crate::support::tree(&home),
        before,
        "the home folder is untouched"
    );
    // CODEX_HOME naming the workspace's .codex makes that folder the user's too.
    let codex_home = w.root().join(".codex");
    std::fs::create_dir_all(&codex_home).unwrap();
    let env = [("CODEX_HOME", codex_home.to_str().unwrap())];
    let (code, v) = w.run_in(w.root(), &["attach-multiroot", "--path", ext], None, &env);
    assert_eq!(
        (code, &v["error"]["code"]),
        (1, &json!("INVALID_INPUT")),
        "{v:#}"
    );
    assert!(!codex_home.join("config.toml").exists());
    let (code, v) = w.run_in(
        w.root(),
        &["attach-multiroot", "--path", ext, "--skip-codex"],
        None,
        &env,
    );
    assert_eq!(code, 0, "{v:#}");
    assert!(w.root().join(".claude/settings.local.json").exists());
}

#[test]
fn attach_and_detach_show_each_host_the_gitignore_and_with_detail_the_folders() {
    let (w, tmp) = ws();
    let t = tmp.display();
    let (code, text) = w.text(&[
        "attach-multiroot",
        "--path",
        "../ext",
        "--paths",
        "../b",
        "--dry-run",
        "--format",
        "human",
    ]);
    assert_eq!(code, 0, "{text}");
    let first = text.lines().next().unwrap_or("");
    assert!(
        first.starts_with("attach-multiroot · dry run, nothing written · "),
        "{text}"
    );
    let (code, text) = w.text(&[
        "attach-multiroot",
        "--path",
        "../ext",
        "--paths",
        "../b",
        "--format",
        "human",
        "--detail",
    ]);
    assert_eq!(code, 0, "{text}");
    let rest: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(
        rest.join("\n"),
        format!(
            "  Folders      2\n  Claude Code  .claude/settings.local.json created (+2, -0)\n  \
             Codex        .codex/config.toml created (+2, -0)\n  Warp / Oz    nothing to write \
             (Warp and Oz have no per-project folder setting)\n  .gitignore   updated\n\nFolders\n  \
             {t}/ext\n  {t}/b"
        )
    );
    let (code, text) = w.text(&[
        "detach-multiroot",
        "--path",
        "../b",
        "--skip-oz",
        "--skip-claude",
        "--format",
        "human",
    ]);
    assert_eq!(code, 0, "{text}");
    let rest: Vec<&str> = text.lines().skip(1).collect();
    assert!(text.starts_with("detach-multiroot · "), "{text}");
    assert_eq!(
        rest.join("\n"),
        "  Folders      1\n  Claude Code  skipped\n  Codex        .codex/config.toml updated \
         (+0, -1)\n  Warp / Oz    skipped"
    );
}
