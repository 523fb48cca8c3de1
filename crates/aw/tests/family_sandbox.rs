//! `aw family sandbox`: the egress hosts, writable dirs and the kit-compatible fingerprint.

use crate::support::{Ws, copy_tree, fixture_path};

fn member(name: &str) -> String {
    fixture_path("family/members")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn real_members_give_the_kits_fingerprint() {
    let ws = Ws::bare();
    let v = ws.ok(&[
        "family",
        "sandbox",
        "--all",
        "--member",
        &member("codex-cli-bridge"),
        "--member",
        &member("antigravity-cli-bridge"),
        "--member",
        &member("agent-workflow-kit"),
    ]);
    // The value Node computes from the kit's recipe for these two members.
    assert_eq!(v["fingerprint"], "72a12b72349012b9");
    assert_eq!(v["hosts"][0], "chatgpt.com");
    assert_eq!(v["hosts"].as_array().unwrap().len(), 6);
    assert_eq!(
        v["dirs"],
        serde_json::json!(["~/.codex", "~/.gemini/antigravity-cli"])
    );
    // A member that declares neither block is not part of the recipe.
    assert_eq!(v["members"].as_array().unwrap().len(), 2);
    let (_, text) = ws.text(&[
        "family",
        "sandbox",
        "--all",
        "--member",
        &member("codex-cli-bridge"),
        "--format",
        "human",
    ]);
    assert_eq!(
        text,
        "egress hosts [chatgpt.com, *.chatgpt.com]; writable state dirs [~/.codex]\n\
         recipe fingerprint: 83eebbfc74e6ca63 (not acknowledged in docs/ai/acks.json)\n\
         from: codex-cli-bridge\n"
    );
}

#[test]
fn members_are_found_under_the_skill_roots() {
    let ws = Ws::bare();
    copy_tree(
        &fixture_path("family/members/codex-cli-bridge"),
        &ws.home().join(".claude/skills/codex-cli-bridge"),
    );
    let v = ws.ok(&["family", "sandbox", "--all"]);
    assert_eq!(v["fingerprint"], "83eebbfc74e6ca63");
    let empty = Ws::bare().ok(&["family", "sandbox", "--all"]);
    assert_eq!(empty["fingerprint"], serde_json::Value::Null);
}

fn with_dir(ws: &Ws, name: &str, hosts: &str, dirs: &str) -> String {
    let d = ws.root().join(name);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(
        d.join("capability.json"),
        format!(r#"{{"name":"{name}","networkHosts":{hosts},"writableDirs":{dirs}}}"#),
    )
    .unwrap();
    d.to_string_lossy().into_owned()
}

#[test]
fn env_overrides_resolve_as_the_wrappers_do() {
    let ws = Ws::bare();
    let a = with_dir(
        &ws,
        "a",
        r#"["x.com"]"#,
        r#"[{"env":"A_HOME","default":"~/.a"}]"#,
    );
    let home = ws.home().to_string_lossy().into_owned();
    let run = |value: &str| {
        let (code, v) = ws.run_env(
            &[
                "family",
                "sandbox",
                "--all",
                "--project",
                "/proj",
                "--member",
                &a,
            ],
            &[("A_HOME", value)],
        );
        assert_eq!(code, 0, "{v:#}");
        v
    };
    // Empty: the default, as written.
    let v = run("");
    assert_eq!(v["members"][0]["dirs"][0]["from"], "default");
    assert_eq!(v["dirs"][0], "~/.a");
    let plain = v["fingerprint"].clone();
    // `~user/…` is never expanded: it is relative to the project.
    assert_eq!(run("~other/state")["dirs"][0], "/proj/~other/state");
    assert_eq!(run("rel/../s")["dirs"][0], "/proj/s");
    assert_eq!(run("~/b")["dirs"][0], "~/b");
    // An absolute dir under HOME keys the fingerprint as its `~/` form.
    let v = run(&format!("{home}/.a"));
    assert_eq!(v["members"][0]["dirs"][0]["from"], "env");
    assert_eq!(v["dirs"][0], format!("{home}/.a"));
    assert_eq!(v["fingerprint"], plain);
}

#[test]
fn duplicate_hosts_are_listed_once_and_broken_members_are_skipped() {
    let ws = Ws::bare();
    let a = with_dir(
        &ws,
        "a",
        r#"["x.com","y.com"]"#,
        r#"[{"env":null,"default":"/s"}]"#,
    );
    let b = with_dir(
        &ws,
        "b",
        r#"["y.com","X.com","x.com"]"#,
        r#"[{"env":null,"default":"/s"}]"#,
    );
    let bad = ws.root().join("bad");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::write(bad.join("capability.json"), "nope").unwrap();
    let bad = bad.to_string_lossy().into_owned();
    let v = ws.ok(&[
        "family", "sandbox", "--all", "--member", &a, "--member", &b, "--member", &bad,
    ]);
    assert_eq!(v["hosts"], serde_json::json!(["x.com", "y.com", "X.com"]));
    assert_eq!(v["dirs"], serde_json::json!(["/s", "/s"]));
    assert_eq!(v["skipped"][0]["dir"], bad);
    // Node: the kit's recipe over hosts [x.com, y.com, X.com] and dirs [/s].
    assert_eq!(v["fingerprint"], "e07553833d2c8605");
}

/// A project with both real bridges installed under HOME, and a PATH of its own holding
/// executables named `cmds`.
#[cfg(unix)]
fn wired_project(cmds: &[&str]) -> Ws {
    use std::os::unix::fs::PermissionsExt;
    let ws = Ws::bare();
    for m in [
        "codex-cli-bridge",
        "antigravity-cli-bridge",
        "agent-workflow-kit",
    ] {
        copy_tree(
            &fixture_path("family/members").join(m),
            &ws.home().join(".claude/skills").join(m),
        );
    }
    let bin = ws.root().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for c in cmds {
        let p = bin.join(c);
        std::fs::write(&p, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let path = bin.to_string_lossy().into_owned();
    ws.with_env("PATH", &path)
}

#[cfg(unix)]
#[test]
fn only_members_whose_review_wrapper_is_wired_count_as_in_the_kit() {
    let ws = wired_project(&["codex-review", "agy-review"]);
    // Nothing wired yet: no advice, and each member says what it lacks.
    let v = ws.ok(&["family", "sandbox"]);
    assert_eq!(v["scope"], "wired");
    assert_eq!(v["fingerprint"], serde_json::Value::Null, "{v:#}");
    assert_eq!(v["members"][0]["wiring"]["onPath"], true);
    assert_eq!(v["members"][0]["wiring"]["excluded"], false);
    let (_, text) = ws.text(&["family", "sandbox", "--format", "human"]);
    assert!(text.contains("no review wrapper is wired"), "{text}");
    assert!(text.contains("--all"), "{text}");
    // codex-review wired through settings.json, agy-review only half wired in settings.local.json.
    ws.write(
        ".claude/settings.json",
        r#"{"sandbox":{"excludedCommands":["codex-review"]},
            "permissions":{"allow":["Bash(codex-review code:*)"]}}"#,
    );
    ws.write(
        ".claude/settings.local.json",
        r#"{"sandbox":{"excludedCommands":["agy-review"]}}"#,
    );
    let v = ws.ok(&["family", "sandbox"]);
    assert_eq!(v["fingerprint"], "83eebbfc74e6ca63", "{v:#}");
    assert_eq!(v["dirs"], serde_json::json!(["~/.codex"]));
    // The local file completes agy-review's wiring: both bridges, the kit's two-bridge value.
    ws.write(
        ".claude/settings.local.json",
        r#"{"sandbox":{"excludedCommands":["agy-review"]},
            "permissions":{"allow":["Bash(agy-review:*)"]}}"#,
    );
    let v = ws.ok(&["family", "sandbox"]);
    assert_eq!(v["fingerprint"], "72a12b72349012b9", "{v:#}");
}

#[cfg(unix)]
#[test]
fn a_wrapper_missing_from_path_is_not_wired() {
    let ws = wired_project(&["agy-review"]);
    ws.write(
        ".claude/settings.json",
        r#"{"sandbox":{"excludedCommands":["codex-review","agy-review"]},
            "permissions":{"allow":["Bash(codex-review code:*)","Bash(agy-review code:*)"]}}"#,
    );
    let v = ws.ok(&["family", "sandbox"]);
    let codex = v["members"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "codex-cli-bridge")
        .unwrap();
    assert_eq!(codex["counted"], false);
    assert_eq!(codex["wiring"]["onPath"], false);
    assert_eq!(v["dirs"], serde_json::json!(["~/.gemini/antigravity-cli"]));
}

#[cfg(unix)]
#[test]
fn the_acknowledged_fingerprint_is_recognised_and_a_broken_settings_file_is_named() {
    let ws = wired_project(&["codex-review"]);
    ws.write(
        ".claude/settings.json",
        r#"{"sandbox":{"excludedCommands":["codex-review"]},
            "permissions":{"allow":["Bash(codex-review code:*)"]}}"#,
    );
    ws.write(".claude/settings.local.json", "{ not json");
    let v = ws.ok(&["family", "sandbox"]);
    assert_eq!(v["acknowledged"], false);
    assert!(
        v["settingsSkipped"][0]["path"]
            .as_str()
            .unwrap()
            .ends_with("settings.local.json")
    );
    ws.write(
        "docs/ai/acks.json",
        r#"{"sandboxLaneAck":{"fingerprint":"83eebbfc74e6ca63"}}"#,
    );
    let v = ws.ok(&["family", "sandbox"]);
    assert_eq!(v["acknowledged"], true, "{v:#}");
    let (_, text) = ws.text(&["family", "sandbox", "--format", "human"]);
    assert!(text.contains("83eebbfc74e6ca63 (acknowledged"), "{text}");
    assert!(text.contains("unreadable Claude Code settings"), "{text}");
}
