//! `aw self install` over the reference's own install (Workline v22, which installs the same
//! things in the same places), and the doctor beside it: the reference's files and hooks are
//! recognised by the marks it writes, replaced (kept aside where no host reads them), and named
//! while they are still there; which `aw` on PATH is which program.
//!
//! The reference's install is written here by hand, as small as its marks allow (the test never
//! runs the reference): its `w` bundle (`name: w` with `harness/HARNESS.md`), its design wrapper
//! and `w-<command>` skills (their wrapper lines), its command files (the host stamp), its
//! `agent-workflow` hooks, its OpenCode module and declaration.

use crate::support::{Ws, clean_env, tree};
use serde_json::Value;
use std::path::Path;

fn write(home: &Path, rel: &str, text: &str) {
    let p = home.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

const STAMP: &str = "> **Structured-choice on this host (`claude`, stamped at install).** Ask.\n";

/// The reference's Claude Code install: skills, commands (one aw has, one it lacks) and hooks.
fn reference_claude(home: &Path) {
    write(
        home,
        ".claude/skills/w/SKILL.md",
        "---\nname: w\ndescription: >-\n  Orientation skill.\n---\n# w\n",
    );
    write(home, ".claude/skills/w/harness/HARNESS.md", "# Harness\n");
    write(
        home,
        ".claude/skills/w/loops/quick-loop/LOOP.md",
        "# Loop\n",
    );
    write(
        home,
        ".claude/skills/design/SKILL.md",
        "---\nname: design\n---\n\n> Capability skill wrapper (installed by `aw self install-skill`). See the descriptor.\n",
    );
    write(
        home,
        ".claude/skills/design/workline-capability.json",
        "{}\n",
    );
    for name in ["quick", "export-diagrams"] {
        write(
            home,
            &format!(".claude/commands/w/{name}.md"),
            &format!("---\ndescription: {name}\n---\n\n{STAMP}\nRun it.\n"),
        );
    }
    write(
        home,
        ".claude/settings.json",
        r#"{
  "model": "opus",
  "hooks": {
    "SessionStart": [
      { "matcher": "startup|resume|clear", "hooks": [{ "type": "command", "command": "agent-workflow self namespace --pin workflow", "timeout": 5 }] }
    ],
    "PreToolUse": [
      { "matcher": "Edit|Write|MultiEdit|NotebookEdit", "hooks": [{ "type": "command", "command": "agent-workflow hook branch-check", "timeout": 15 }] },
      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "my-own-guard" }] }
    ],
    "PreCompact": [
      { "matcher": "", "hooks": [{ "type": "command", "command": "agent-workflow checkpoint-write --can-pause", "timeout": 10 }] }
    ],
    "PostCompact": [
      { "matcher": "", "hooks": [{ "type": "command", "command": "agent-workflow resume-summary", "timeout": 10 }, { "type": "prompt", "prompt": "Resume." }] }
    ]
  }
}
"#,
    );
}

fn target<'a>(v: &'a Value, id: &str) -> &'a Value {
    v["targets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["target"] == id)
        .unwrap()
}

fn host<'a>(v: &'a Value, id: &str) -> &'a Value {
    v["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == id)
        .unwrap()
}

/// Every file under `home/rel` whose text mentions `needle`.
fn files_mentioning(home: &Path, rel: &str, needle: &str) -> Vec<String> {
    tree(&home.join(rel))
        .into_iter()
        .filter(|(_, v)| {
            v.as_ref()
                .is_some_and(|b| String::from_utf8_lossy(b).contains(needle))
        })
        .map(|(k, _)| k)
        .collect()
}

/// A workspace whose runs see only `PATH` = one empty folder of its own, or, with
/// `reference`, one holding an executable `agent-workflow` (a stand-in: nothing runs it).
fn ws_with_path(reference: bool) -> Ws {
    let ws = Ws::bare();
    let bin = ws.root().join("path-bin");
    std::fs::create_dir_all(&bin).unwrap();
    if reference {
        let program = bin.join("agent-workflow");
        std::fs::write(&program, "#!/bin/sh\nexit 0\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    }
    let path = bin.to_str().unwrap().to_owned();
    ws.with_env("PATH", &path)
}

#[test]
fn install_over_the_references_install_replaces_it_and_keeps_it_aside() {
    // The reference is no longer on PATH: every hook of its goes.
    let ws = ws_with_path(false);
    let home = ws.home();
    reference_claude(home);
    let before = tree(home);
    // The doctor sees the reference's install, and aw not installed.
    let d = ws.ok(&["self", "doctor"]);
    let c = host(&d, "claude");
    assert_eq!(c["verdict"], "not-installed");
    let files: Vec<&str> = c["reference"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    for rel in [
        ".claude/skills/w",
        ".claude/skills/design",
        ".claude/commands/w/quick.md",
        ".claude/commands/w/export-diagrams.md",
    ] {
        assert!(
            files.contains(&home.join(rel).to_str().unwrap()),
            "{rel}: {c:#}"
        );
    }
    assert_eq!(
        c["reference"]["hooks"],
        serde_json::json!(["SessionStart", "PreToolUse", "PreCompact", "PostCompact"])
    );
    // No --force: the reference's files are not the person's, they are replaced.
    let v = ws.ok(&["self", "install", "--target", "claude"]);
    let t = target(&v, "claude");
    assert_eq!(t["status"], "installed");
    assert_eq!(
        t["hooks"]["reference_events_removed"],
        serde_json::json!(["SessionStart", "PreToolUse", "PreCompact", "PostCompact"])
    );
    // One of everything: aw's skill and commands only, no reference command aw lacks, no hook
    // of the reference's, the person's own hook kept.
    assert!(!home.join(".claude/commands/w/export-diagrams.md").exists());
    assert!(!home.join(".claude/skills/w/harness").exists());
    let settings = std::fs::read_to_string(home.join(".claude/settings.json")).unwrap();
    assert!(!settings.contains("agent-workflow"), "{settings}");
    assert!(settings.contains("my-own-guard"), "{settings}");
    let s: Value = serde_json::from_str(&settings).unwrap();
    for event in ["PreToolUse", "PreCompact"] {
        let ours = s["hooks"][event]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["hooks"][0]["command"].as_str().unwrap().contains("/aw "))
            .count();
        assert_eq!(ours, 1, "{event} runs once: {settings}");
    }
    // Kept aside, whole, where no host reads it: nothing of the reference's was lost.
    let moved: Vec<&Value> = t["moved_aside"].as_array().unwrap().iter().collect();
    assert!(moved.iter().all(|m| m["kind"] == "reference"), "{moved:?}");
    let aside = moved[0]["to"].as_str().unwrap();
    let aside_root = &aside[..aside.find("/.aw-backup-").unwrap() + 1];
    assert_eq!(aside_root, format!("{}/.claude/", home.display()));
    for (rel, bytes) in &before {
        let Some(bytes) = bytes else { continue };
        if rel == ".claude/settings.json" {
            continue;
        }
        let kept = moved.iter().any(|m| {
            let from = m["path"].as_str().unwrap();
            let to = m["to"].as_str().unwrap();
            let abs = home.join(rel);
            let abs = abs.to_str().unwrap();
            abs.strip_prefix(from).is_some_and(|rest| {
                std::fs::read(format!("{to}{rest}")).ok().as_ref() == Some(bytes)
            })
        });
        assert!(kept, "{rel} was kept aside as it was");
    }
    assert_eq!(
        files_mentioning(home, ".claude/skills", "stamped at install"),
        Vec::<String>::new()
    );
    // The doctor now finds aw's install only, current.
    let d = ws.ok(&["self", "doctor"]);
    let c = host(&d, "claude");
    assert_eq!(c["verdict"], "ok", "{c:#}");
    assert_eq!(c["reference"]["files"], serde_json::json!([]));
    assert_eq!(c["duplicate_hooks"], serde_json::json!([]));
}

#[test]
fn the_doctor_names_each_hook_that_runs_twice_beside_the_reference() {
    let ws = Ws::bare();
    let home = ws.home();
    ws.ok(&["self", "install", "--target", "claude"]);
    // The reference installed again afterwards (its own install-hooks adds its entries).
    let settings = std::fs::read_to_string(home.join(".claude/settings.json")).unwrap();
    let settings = settings.replacen(
        "\"PreCompact\": [",
        "\"PreCompact\": [\n      { \"matcher\": \"\", \"hooks\": [{ \"type\": \"command\", \"command\": \"agent-workflow checkpoint-write --can-pause\" }] },",
        1,
    );
    std::fs::write(home.join(".claude/settings.json"), &settings).unwrap();
    write(
        home,
        ".claude/commands/w/export-diagrams.md",
        &format!("---\ndescription: x\n---\n\n{STAMP}"),
    );
    let d = ws.ok(&["self", "doctor"]);
    let c = host(&d, "claude");
    assert_eq!(c["verdict"], "outdated", "{c:#}");
    assert_eq!(d["healthy"], false);
    assert_eq!(c["duplicate_hooks"], serde_json::json!(["PreCompact"]));
    assert_eq!(c["reference"]["hooks"], serde_json::json!(["PreCompact"]));
    assert_eq!(
        c["reference"]["files"],
        serde_json::json!([home.join(".claude/commands/w/export-diagrams.md")])
    );
    let (_, text) = ws.stdout(&["self", "doctor", "--format", "human"], None, &[]);
    assert!(text.contains("PreCompact runs twice"), "{text}");
    // The next install puts it right.
    ws.ok(&["self", "install", "--target", "claude"]);
    let c = host(&ws.ok(&["self", "doctor"]), "claude").clone();
    assert_eq!(c["verdict"], "ok", "{c:#}");
}

#[test]
fn the_references_opencode_module_is_replaced_and_undeclared() {
    let ws = Ws::bare();
    let home = ws.home();
    let module = home.join(".config/opencode/plugin/agent-workflow.js");
    write(
        home,
        ".config/opencode/plugin/agent-workflow.js",
        "// agent-workflow (Workline) — generated plugin\nexport const X = 1;\n",
    );
    let config = format!(
        "{{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"plugin\": [\n    \"{}\",\n    \"my-plugin\"\n  ]\n}}\n",
        module.display()
    );
    write(home, ".config/opencode/opencode.json", &config);
    let v = ws.ok(&["self", "install", "--target", "opencode"]);
    let t = target(&v, "opencode");
    assert!(!module.exists(), "the reference's module no longer loads");
    assert_eq!(
        std::fs::read_to_string(home.join(".config/opencode/opencode.json")).unwrap(),
        "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"plugin\": [\n    \"my-plugin\"\n  ]\n}\n",
        "only its declaration went"
    );
    let backup = t["reference"]["config"]["backup"].as_str().unwrap();
    assert_eq!(std::fs::read_to_string(backup).unwrap(), config);
    assert!(home.join(".config/opencode/plugins/aw-hooks.js").is_file());
    let d = ws.ok(&["self", "doctor"]);
    assert_eq!(host(&d, "opencode")["verdict"], "ok", "{d:#}");
}

#[cfg(unix)]
#[test]
fn the_doctor_says_which_aw_on_path_is_which_program() {
    use std::os::unix::fs::PermissionsExt;
    let ws = Ws::bare();
    let tools = ws.root().join("tools");
    let reference_bin = tools.join("reference/bin");
    let this_bin = tools.join("this/bin");
    std::fs::create_dir_all(&reference_bin).unwrap();
    std::fs::create_dir_all(&this_bin).unwrap();
    // The reference's `aw`, as npm installs it: a Node.js script.
    let script = reference_bin.join("aw");
    std::fs::write(&script, "#!/usr/bin/env node\nimport './main.js';\n").unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::os::unix::fs::symlink(crate::support::bin(), this_bin.join("aw")).unwrap();
    let path = format!(
        "{}:{}:/usr/bin:/bin",
        reference_bin.display(),
        this_bin.display()
    );
    let mut c = std::process::Command::new(crate::support::bin());
    clean_env(&mut c, ws.home())
        .env("PATH", &path)
        .args(["self", "doctor"]);
    let out = c.output().unwrap();
    let d: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(d["aw_on_path"], script.to_str().unwrap());
    assert_eq!(d["aw_on_path_is"], "reference");
    assert_eq!(d["aws_on_path"][1]["program"], "this-aw", "{d:#}");
    assert_eq!(
        d["healthy"], false,
        "the agent's `aw` would be the reference"
    );
}

/// The reference's `SessionStart` hook, which aw has no equivalent for.
const PIN: &str = "agent-workflow self namespace --pin workflow";

#[test]
fn a_reference_hook_aw_has_no_equivalent_for_stays_while_agent_workflow_is_on_path() {
    let ws = ws_with_path(true);
    let home = ws.home();
    reference_claude(home);
    let v = ws.ok(&["self", "install", "--target", "claude"]);
    let h = &target(&v, "claude")["hooks"];
    assert_eq!(
        h["reference_events_removed"],
        serde_json::json!(["PreToolUse", "PreCompact", "PostCompact"]),
        "those aw replaces go: {h:#}"
    );
    assert_eq!(
        h["reference_hooks_kept"],
        serde_json::json!([{ "event": "SessionStart", "command": PIN }])
    );
    assert_eq!(h["reference_hooks_removed"], serde_json::json!([]));
    let settings = std::fs::read_to_string(home.join(".claude/settings.json")).unwrap();
    assert!(
        settings.contains(&format!(
            "{{ \"matcher\": \"startup|resume|clear\", \"hooks\": [{{ \"type\": \"command\", \"command\": \"{PIN}\", \"timeout\": 5 }}] }}"
        )),
        "kept byte for byte: {settings}"
    );
    assert_eq!(settings.matches("agent-workflow").count(), 1, "{settings}");
    // The doctor still names it; it is no fault while the reference runs it.
    let d = ws.ok(&["self", "doctor"]);
    let c = host(&d, "claude");
    assert_eq!(
        c["reference"]["hooks"],
        serde_json::json!(["SessionStart"]),
        "{c:#}"
    );
    assert_eq!(c["duplicate_hooks"], serde_json::json!([]));
    assert_eq!(c["verdict"], "ok", "{c:#}");
    // A second install keeps it still.
    let v = ws.ok(&["self", "install", "--target", "claude"]);
    assert_eq!(target(&v, "claude")["hooks"]["status"], "noop");
}

#[test]
fn without_agent_workflow_on_path_a_reference_hook_aw_has_no_equivalent_for_goes_and_is_named() {
    let ws = ws_with_path(false);
    let home = ws.home();
    reference_claude(home);
    let v = ws.ok(&["self", "install", "--target", "claude"]);
    let h = &target(&v, "claude")["hooks"];
    assert_eq!(
        h["reference_hooks_removed"],
        serde_json::json!([{ "event": "SessionStart", "command": PIN }]),
        "{h:#}"
    );
    assert_eq!(h["reference_hooks_kept"], serde_json::json!([]));
    let settings = std::fs::read_to_string(home.join(".claude/settings.json")).unwrap();
    assert!(!settings.contains("agent-workflow"), "{settings}");
    let backup = h["backup"].as_str().unwrap();
    assert!(
        std::fs::read_to_string(backup).unwrap().contains(PIN),
        "the backup keeps what went"
    );
}
