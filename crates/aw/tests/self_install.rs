//! `aw self install | uninstall | detect-hosts | doctor` in a temporary HOME: per target the
//! files and their markers, idempotence, ownership (a person's own files are never touched),
//! the entry-by-entry hook merge into Claude Code's settings, backups, dry runs, and the design
//! wrapper validating with aw's own capability tooling.

use crate::support::{Ws, tree};
use serde_json::Value;
use std::path::Path;

const MARKER: &str = "aw:installed version=";

fn install(ws: &Ws, target: &str) -> Value {
    ws.ok(&["self", "install", "--target", target])
}

fn target<'a>(v: &'a Value, id: &str) -> &'a Value {
    v["targets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["target"] == id)
        .unwrap_or_else(|| panic!("no target {id}: {v:#}"))
}

fn read(home: &Path, rel: &str) -> String {
    std::fs::read_to_string(home.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Every file under `home/rel`, relative to HOME.
fn files_under(home: &Path, rel: &str) -> Vec<String> {
    let base = home.join(rel);
    if !base.exists() {
        return Vec::new();
    }
    tree(&base)
        .into_iter()
        .filter(|(_, v)| v.is_some())
        .map(|(k, _)| format!("{rel}/{k}"))
        .collect()
}

/// The hook command running `args` with the aw under test, named by its absolute path (the
/// binary itself: the test's PATH does not lead to it).
fn aw_command(args: &str) -> String {
    let path = crate::support::bin().canonicalize().unwrap();
    let path = path.to_str().unwrap();
    let plain = path
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"/._+-@%=:,".contains(&b));
    if plain {
        format!("{path} {args}")
    } else {
        format!("'{}' {args}", path.replace('\'', "'\\''"))
    }
}

fn commands() -> Vec<&'static str> {
    aw_bundle_commands()
}

/// The command names of the embedded bundle, read from the bundle's folder (the test does not
/// share the code under test).
fn aw_bundle_commands() -> Vec<&'static str> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../aw-bundle/bundle/commands");
    let mut names: Vec<&'static str> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter_map(|n| n.strip_suffix(".md").map(str::to_owned))
        .filter(|n| n != "README")
        .map(|n| &*Box::leak(n.into_boxed_str()))
        .collect();
    names.sort();
    names
}

/// Every text file aw wrote carries the marker (the descriptor, whose bytes are sealed, is
/// owned through its folder's SKILL.md).
fn assert_marked(home: &Path, rels: &[String]) {
    for rel in rels {
        if rel.ends_with("workline-capability.json") {
            continue;
        }
        assert!(read(home, rel).contains(MARKER), "{rel} has no marker");
    }
}

#[test]
fn claude_gets_skill_design_commands_and_hooks_with_markers() {
    let ws = Ws::bare();
    let home = ws.home();
    let v = install(&ws, "claude");
    let t = target(&v, "claude");
    assert_eq!(t["status"], "installed");
    assert_eq!(t["hooks"]["status"], "installed");
    let skill = read(home, ".claude/skills/w/SKILL.md");
    assert!(skill.starts_with("---\nname: w\n"), "{skill}");
    for c in commands() {
        let text = read(home, &format!(".claude/commands/w/{c}.md"));
        assert!(text.starts_with("---\ndescription:"), "{c}: {text}");
        assert!(
            text.contains("allowed-tools:"),
            "{c}: frontmatter kept whole"
        );
        assert!(text.contains("$ARGUMENTS"), "{c}");
    }
    let design = read(home, ".claude/skills/design/SKILL.md");
    assert!(design.contains("workline-capability-descriptor: \"workline-capability.json#sha256="));
    let mut all = files_under(home, ".claude/skills");
    all.extend(files_under(home, ".claude/commands"));
    assert_marked(home, &all);
    let settings: Value = serde_json::from_str(&read(home, ".claude/settings.json")).unwrap();
    for (event, args) in [
        ("PreCompact", "checkpoint-write --can-pause"),
        ("SessionEnd", "auto-compact-on-close"),
        ("PostCompact", "resume-summary"),
        ("PreToolUse", "hook branch-check"),
    ] {
        assert_eq!(
            settings["hooks"][event][0]["hooks"][0]["command"],
            aw_command(args),
            "{event}"
        );
    }
    assert!(!read(home, ".claude/settings.json").contains("agent-workflow"));
}

#[test]
fn a_second_install_changes_nothing_and_says_noop() {
    let ws = Ws::bare();
    install(&ws, "all");
    let before = tree(ws.home());
    let v = install(&ws, "all");
    for t in v["targets"].as_array().unwrap() {
        assert_eq!(t["status"], "noop", "{t:#}");
        assert!(
            t["files"]
                .as_array()
                .unwrap()
                .iter()
                .all(|f| f["action"] == "noop")
        );
    }
    assert_eq!(tree(ws.home()), before);
}

#[test]
fn the_claude_settings_merge_keeps_the_users_keys_and_hooks_and_backs_up_first() {
    let ws = Ws::bare();
    let home = ws.home();
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    let user = r#"{"model":"opus","hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"my-guard"}]}]},"theme":"dark"}"#;
    std::fs::write(home.join(".claude/settings.json"), user).unwrap();
    let v = install(&ws, "claude");
    let backup = target(&v, "claude")["hooks"]["backup"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(backup.contains("settings.json.bak."), "{backup}");
    assert_eq!(std::fs::read_to_string(&backup).unwrap(), user);
    let s: Value = serde_json::from_str(&read(home, ".claude/settings.json")).unwrap();
    assert_eq!(s["model"], "opus");
    assert_eq!(s["theme"], "dark");
    let pre = s["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(pre[0]["hooks"][0]["command"], "my-guard");
    assert_eq!(pre[1]["matcher"], "Edit|Write|MultiEdit|NotebookEdit");
    // Uninstall takes out only ours: the user's file comes back to what they wrote.
    let u = ws.ok(&["self", "uninstall", "--target", "claude"]);
    assert_eq!(target(&u, "claude")["hooks"]["status"], "removed");
    let after: Value = serde_json::from_str(&read(home, ".claude/settings.json")).unwrap();
    assert_eq!(after, serde_json::from_str::<Value>(user).unwrap());
}

#[test]
fn invalid_settings_json_refuses_and_writes_nothing() {
    let ws = Ws::bare();
    let home = ws.home();
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    std::fs::write(home.join(".claude/settings.json"), "{ not json").unwrap();
    let before = tree(home);
    ws.fails(
        &["self", "install", "--target", "claude"],
        "SETTINGS_INVALID_JSON",
    );
    assert_eq!(tree(home), before);
    // Without hooks the settings file is not read at all.
    ws.ok(&["self", "install", "--target", "claude", "--no-hooks"]);
}

#[test]
fn gemini_gets_toml_commands_and_one_w_skill_per_command() {
    let ws = Ws::bare();
    let home = ws.home();
    let v = install(&ws, "gemini");
    assert_eq!(target(&v, "gemini")["hooks"]["status"], "unsupported");
    assert!(read(home, ".gemini/skills/w/SKILL.md").starts_with("---\nname: w\n"));
    for c in commands() {
        let toml = read(home, &format!(".gemini/commands/w/{c}.toml"));
        assert!(toml.starts_with("# aw:installed version="), "{toml}");
        assert!(toml.contains("\ndescription = \"") && toml.contains("\nprompt = \"\"\"\n"));
        assert!(
            !toml.contains("$ARGUMENTS"),
            "{c}: $ARGUMENTS becomes {{{{args}}}}"
        );
        let skill = read(home, &format!(".gemini/skills/w-{c}/SKILL.md"));
        assert!(
            skill.starts_with(&format!("---\nname: w-{c}\ndescription: \"")),
            "{skill}"
        );
    }
    assert!(home.join(".gemini/skills/design/SKILL.md").is_file());
    let mut all = files_under(home, ".gemini/skills");
    all.extend(files_under(home, ".gemini/commands"));
    assert_marked(home, &all);
}

#[test]
fn codex_gets_w_skills_and_a_hook_plugin_to_enable() {
    let ws = Ws::bare();
    let home = ws.home();
    let v = install(&ws, "codex");
    let hooks = &target(&v, "codex")["hooks"];
    assert_eq!(hooks["status"], "generated");
    assert!(
        hooks["note"]
            .as_str()
            .unwrap()
            .contains("install this plugin")
    );
    let manifest: Value = serde_json::from_str(&read(
        home,
        ".codex/aw-hooks-plugin/.codex-plugin/plugin.json",
    ))
    .unwrap();
    assert_eq!(manifest["hooks"], "./hooks/hooks.json");
    let h: Value =
        serde_json::from_str(&read(home, ".codex/aw-hooks-plugin/hooks/hooks.json")).unwrap();
    assert_eq!(
        h["hooks"]["PreToolUse"][0]["matcher"], "^apply_patch$",
        "Codex's own tool name"
    );
    assert!(h["hooks"].get("SessionEnd").is_none());
    for c in commands() {
        assert!(home.join(format!(".codex/skills/w-{c}/SKILL.md")).is_file());
    }
    assert!(!home.join(".codex/commands").exists());
}

#[test]
fn opencode_and_agents_get_their_folders() {
    let ws = Ws::bare();
    let home = ws.home();
    install(&ws, "opencode");
    for c in commands() {
        let text = read(home, &format!(".opencode/command/w/{c}.md"));
        let head = text.split("\n---\n").next().unwrap();
        assert_eq!(
            head.lines().count(),
            2,
            "frontmatter reduced to description: {text}"
        );
    }
    let module = read(home, ".config/opencode/plugins/aw-hooks.js");
    assert!(module.starts_with("// aw:installed version="), "{module}");
    assert!(
        module.contains(r#"new Set(["edit", "write", "patch", "multiedit"])"#),
        "OpenCode's own tool names"
    );
    // The module is valid JavaScript where node is at hand (OpenCode loads it as a module).
    if std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok()
    {
        let copy = ws.root().join("aw-hooks.mjs");
        std::fs::write(&copy, &module).unwrap();
        let check = std::process::Command::new("node")
            .arg("--check")
            .arg(&copy)
            .output()
            .unwrap();
        assert!(
            check.status.success(),
            "{}",
            String::from_utf8_lossy(&check.stderr)
        );
    }
    let u = ws.ok(&["self", "uninstall", "--target", "opencode"]);
    assert_eq!(target(&u, "opencode")["hooks"]["status"], "removed");
    assert!(!home.join(".config/opencode/plugins/aw-hooks.js").exists());
    assert!(
        !home.join(".config").exists(),
        "the folders aw created for the module went with it"
    );
    install(&ws, "agents");
    assert!(home.join(".agents/skills/w/SKILL.md").is_file());
    assert!(home.join(".agents/skills/design/SKILL.md").is_file());
    assert!(!home.join(".agents/commands").exists());
}

#[test]
fn all_is_every_host_but_not_the_shared_agents_folder() {
    let ws = Ws::bare();
    let v = install(&ws, "all");
    let ids: Vec<&str> = v["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["target"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["claude", "codex", "gemini", "opencode"]);
    assert!(!ws.home().join(".agents").exists());
    let u = ws.ok(&["self", "uninstall", "--target", "all"]);
    assert_eq!(u["targets"].as_array().unwrap().len(), 4);
}

#[test]
fn a_foreign_skill_of_the_same_name_is_refused_and_force_moves_it_aside() {
    let ws = Ws::bare();
    let home = ws.home();
    let mine = home.join(".claude/skills/w/SKILL.md");
    std::fs::create_dir_all(mine.parent().unwrap()).unwrap();
    std::fs::write(
        &mine,
        "---\nname: w\ndescription: mine\n---\nMy own skill.\n",
    )
    .unwrap();
    let before = tree(home);
    let f = ws.fails(
        &["self", "install", "--target", "claude"],
        "INSTALL_CONFLICT_FOREIGN",
    );
    assert!(
        f["error"]["details"]["conflicts"][0]
            .as_str()
            .unwrap()
            .ends_with("skills/w/SKILL.md")
    );
    assert_eq!(tree(home), before, "a refusal writes nothing");
    let dry = ws.fails(
        &["self", "install", "--target", "claude", "--dry-run"],
        "INSTALL_CONFLICT_FOREIGN",
    );
    assert!(dry["data"]["action"].as_str().unwrap().contains("--force"));
    let v = ws.ok(&["self", "install", "--target", "claude", "--force"]);
    let moved = &target(&v, "claude")["moved_aside"][0];
    let to = moved["to"].as_str().unwrap();
    assert!(to.contains("skills/w.aw-backup-"), "{to}");
    assert_eq!(moved["kind"], "skill-folder");
    assert!(
        std::fs::read_to_string(Path::new(to).join("SKILL.md"))
            .unwrap()
            .contains("My own skill.")
    );
    assert!(std::fs::read_to_string(&mine).unwrap().contains(MARKER));
}

#[test]
fn uninstall_removes_only_marked_files_and_keeps_the_users() {
    let ws = Ws::bare();
    let home = ws.home();
    install(&ws, "all");
    let own_cmd = home.join(".claude/commands/w/mine.md");
    std::fs::write(&own_cmd, "my command\n").unwrap();
    let own_skill = home.join(".gemini/skills/w-mine/SKILL.md");
    std::fs::create_dir_all(own_skill.parent().unwrap()).unwrap();
    std::fs::write(&own_skill, "---\nname: w-mine\n---\n").unwrap();
    let dry = ws.ok(&["self", "uninstall", "--target", "all", "--dry-run"]);
    let before = tree(home);
    assert!(
        !target(&dry, "claude")["removed"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    assert_eq!(tree(home), before, "a dry run removes nothing");
    let v = ws.ok(&["self", "uninstall", "--target", "all"]);
    let kept = target(&v, "claude")["kept_foreign"].as_array().unwrap();
    assert!(
        kept.iter()
            .any(|k| k.as_str().unwrap().ends_with("commands/w/mine.md"))
    );
    assert_eq!(std::fs::read_to_string(&own_cmd).unwrap(), "my command\n");
    assert!(own_skill.is_file());
    for rel in [
        ".claude/skills",
        ".codex/skills",
        ".gemini/skills",
        ".opencode/skills",
    ] {
        let left = files_under(home, rel);
        assert!(left.iter().all(|f| f.contains("w-mine")), "{left:?}");
    }
    assert!(
        !home.join(".claude/skills/w").exists(),
        "emptied folders go"
    );
    assert!(!home.join(".codex/aw-hooks-plugin").exists());
    let again = ws.ok(&["self", "uninstall", "--target", "all"]);
    assert!(
        again["targets"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["status"] == "noop")
    );
}

#[test]
fn a_dry_run_lists_every_file_and_writes_nothing() {
    let ws = Ws::bare();
    let before = tree(ws.home());
    let v = ws.ok(&["self", "install", "--target", "all", "--dry-run"]);
    assert_eq!(tree(ws.home()), before);
    let claude = target(&v, "claude");
    assert_eq!(claude["status"], "dry-run");
    let files = claude["files"].as_array().unwrap();
    assert!(files.iter().all(|f| f["action"] == "create"));
    // Exactly what the real run then writes.
    let real = install(&ws, "claude");
    assert_eq!(&target(&real, "claude")["files"], &claude["files"]);
}

#[test]
fn skill_only_writes_the_skills_and_nothing_else() {
    let ws = Ws::bare();
    let home = ws.home();
    ws.ok(&["self", "install", "--target", "claude", "--skill-only"]);
    assert!(home.join(".claude/skills/w/SKILL.md").is_file());
    assert!(home.join(".claude/skills/design/SKILL.md").is_file());
    assert!(!home.join(".claude/commands").exists());
    assert!(!home.join(".claude/settings.json").exists());
}

#[test]
fn a_stale_file_of_an_older_install_is_removed_and_the_doctor_sees_it_first() {
    let ws = Ws::bare();
    let home = ws.home();
    install(&ws, "claude");
    let stale = home.join(".claude/commands/w/retired.md");
    std::fs::write(&stale, "<!-- aw:installed version=0.0.1 · old -->\nold\n").unwrap();
    let d = ws.ok(&["self", "doctor"]);
    let claude = d["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["id"] == "claude")
        .unwrap();
    assert_eq!(claude["verdict"], "outdated");
    assert!(claude["stale"][0].as_str().unwrap().ends_with("retired.md"));
    let v = install(&ws, "claude");
    assert!(
        target(&v, "claude")["removed_stale"][0]
            .as_str()
            .unwrap()
            .ends_with("retired.md")
    );
    assert!(!stale.exists());
    let d = ws.ok(&["self", "doctor"]);
    let claude = d["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["id"] == "claude")
        .unwrap();
    assert_eq!(claude["verdict"], "ok");
    assert_eq!(claude["installed_version"], env!("CARGO_PKG_VERSION"));
}

#[test]
fn detect_hosts_lists_the_host_folders_under_home() {
    let ws = Ws::bare();
    std::fs::create_dir_all(ws.home().join(".gemini")).unwrap();
    let v = ws.ok(&["self", "detect-hosts"]);
    assert_eq!(v["present"], serde_json::json!(["gemini"]));
    let d = ws.ok(&["self", "doctor"]);
    let gemini = d["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["id"] == "gemini")
        .unwrap();
    assert_eq!(gemini["verdict"], "not-installed");
}

#[test]
fn a_linked_skill_folder_leading_out_of_the_host_is_never_written_through() {
    let ws = Ws::bare();
    let home = ws.home();
    let outside = ws.root().join("elsewhere");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::create_dir_all(home.join(".claude/skills")).unwrap();
    std::os::unix::fs::symlink(&outside, home.join(".claude/skills/w")).unwrap();
    ws.fails(
        &["self", "install", "--target", "claude", "--no-hooks"],
        "INSTALL_PATH_UNSAFE",
    );
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
}

#[test]
fn the_installed_design_wrapper_is_ready_for_aws_own_capability_tooling() {
    let ws = Ws::new();
    install(&ws, "claude");
    install(&ws, "gemini");
    let dir = ws.home().join(".claude/skills/design");
    let v = ws.ok(&[
        "capability",
        "descriptor",
        "validate",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(v["descriptor"]["name"], "design");
    // Copies under several hosts' skill roots are byte-identical: one ready instance, and the
    // direct route finds its wrapper ours.
    let s = ws.ok(&["skills", "--host", "claude-code"]);
    let design = &s["capabilities"][0];
    assert_eq!(design["state"], "ready", "{design:#}");
    assert_eq!(
        design["exposures"]["direct"]["state"], "ready",
        "{design:#}"
    );
    let g = ws.ok(&["skills", "--host", "gemini"]);
    assert_eq!(
        g["capabilities"][0]["exposures"]["direct"]["state"],
        "ready"
    );
}

#[test]
fn a_file_where_aw_needs_a_folder_is_a_conflict_found_before_any_write() {
    let ws = Ws::bare();
    let home = ws.home();
    std::fs::create_dir_all(home.join(".claude/commands")).unwrap();
    std::fs::create_dir_all(home.join(".codex")).unwrap();
    // A file where the command folder should be, and one where the skills folder should be.
    std::fs::write(home.join(".claude/commands/w"), "not a folder").unwrap();
    std::fs::write(home.join(".codex/skills"), "not a folder either").unwrap();
    let before = tree(home);
    for dry in [true, false] {
        let mut args = vec!["self", "install", "--target", "all"];
        if dry {
            args.push("--dry-run");
        }
        let f = ws.fails(&args, "INSTALL_CONFLICT_FOREIGN");
        let conflicts: Vec<&str> = f["error"]["details"]["conflicts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        assert!(
            conflicts.iter().any(|c| c.ends_with(".claude/commands/w")),
            "{conflicts:?}"
        );
        assert!(
            conflicts.iter().any(|c| c.ends_with(".codex/skills")),
            "{conflicts:?}"
        );
        assert_eq!(tree(home), before, "no host was written (dry run: {dry})");
    }
    let v = ws.ok(&["self", "install", "--target", "all", "--force"]);
    let moved = target(&v, "codex")["moved_aside"][0]["to"]
        .as_str()
        .unwrap();
    assert!(moved.contains(".codex/skills.aw-backup-"), "{moved}");
    assert_eq!(
        std::fs::read_to_string(moved).unwrap(),
        "not a folder either"
    );
    assert!(home.join(".codex/skills/w/SKILL.md").is_file());
    assert!(home.join(".claude/commands/w").is_dir());
}

#[test]
fn a_skill_folder_of_someone_elses_without_skill_md_is_not_written_into() {
    let ws = Ws::bare();
    let home = ws.home();
    let notes = home.join(".gemini/skills/design/notes.md");
    std::fs::create_dir_all(notes.parent().unwrap()).unwrap();
    std::fs::write(&notes, "my design notes\n").unwrap();
    let f = ws.fails(
        &["self", "install", "--target", "gemini"],
        "INSTALL_CONFLICT_FOREIGN",
    );
    assert!(
        f["error"]["details"]["conflicts"][0]
            .as_str()
            .unwrap()
            .ends_with("design/SKILL.md")
    );
    assert!(!home.join(".gemini/skills/w").exists());
}

#[test]
fn force_installs_into_a_claimed_skill_folder_keeping_its_files() {
    let ws = Ws::bare();
    let home = ws.home();
    let notes = home.join(".gemini/skills/design/notes.md");
    std::fs::create_dir_all(notes.parent().unwrap()).unwrap();
    std::fs::write(&notes, "my design notes\n").unwrap();
    let v = ws.ok(&["self", "install", "--target", "gemini", "--force"]);
    assert_eq!(target(&v, "gemini")["moved_aside"], serde_json::json!([]));
    assert_eq!(
        std::fs::read_to_string(&notes).unwrap(),
        "my design notes\n"
    );
    assert!(home.join(".gemini/skills/design/SKILL.md").is_file());
}

#[test]
fn without_home_there_is_no_host_folder_to_write() {
    let ws = Ws::bare();
    for verb in [
        &["install", "--target", "claude"][..],
        &["doctor"][..],
        &["detect-hosts"][..],
    ] {
        let mut args = vec!["self"];
        args.extend_from_slice(verb);
        let out = ws.process(&args).env_remove("HOME").output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["error"]["code"], "HOME_UNSET", "{v:#}");
    }
}

#[test]
fn a_relative_home_is_refused_like_an_unset_one() {
    let ws = Ws::bare();
    for verb in [
        &["install", "--target", "claude"][..],
        &["uninstall", "--target", "claude"][..],
        &["doctor"][..],
        &["detect-hosts"][..],
    ] {
        let mut args = vec!["self"];
        args.extend_from_slice(verb);
        let out = ws.process(&args).env("HOME", "rel").output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["error"]["code"], "HOME_UNSET", "{v:#}");
        assert!(
            v["error"]["message"].as_str().unwrap().contains("absolute"),
            "{v:#}"
        );
    }
    assert!(!ws.root().join("rel").exists());
}

#[test]
fn an_unknown_target_is_refused_naming_the_valid_ones() {
    let ws = Ws::bare();
    let v = ws.fails(&["self", "install", "--target", "kimi"], "ARGS_INVALID");
    assert_eq!(v["error"]["details"]["argument"], "--target");
    assert!(
        v["data"]["action"]
            .as_str()
            .unwrap()
            .contains("claude, codex, gemini, opencode, agents, all")
    );
}

/// The host table drives the docs too: PROTOCOL.md's table of `aw self` has one row per host,
/// in the table's order, naming its skill folder, its command folder and its hook artifact.
#[test]
fn the_protocol_host_table_is_the_code_host_table() {
    use aw_core::install::host::{HOSTS, HookArtifact};
    let protocol = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/PROTOCOL.md"),
    )
    .unwrap();
    let section = &protocol[protocol.find("## Host installation").unwrap()..];
    let rows: Vec<&str> = section
        .lines()
        .skip_while(|l| !l.starts_with("| target |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .collect();
    let ids: Vec<&str> = HOSTS.iter().map(|h| h.id).collect();
    let documented: Vec<&str> = rows
        .iter()
        .map(|r| r.split('|').nth(1).unwrap().trim().trim_matches('`'))
        .collect();
    assert_eq!(documented, ids);
    for (host, row) in HOSTS.iter().zip(&rows) {
        let home = |rel: &str| format!("~/{rel}");
        assert!(row.contains(&home(host.skills_dir)), "{}: {row}", host.id);
        if let Some(c) = host.commands {
            assert!(row.contains(&home(c.dir)), "{}: {row}", host.id);
            assert!(row.contains(c.invoked_as), "{}: {row}", host.id);
        }
        match host.hooks {
            HookArtifact::Settings(p) | HookArtifact::Plugin(p) => {
                assert!(row.contains(&home(p)), "{}: {row}", host.id)
            }
            HookArtifact::Module { path, .. } => {
                assert!(row.contains(&home(path)), "{}: {row}", host.id)
            }
            HookArtifact::Unsupported(_) => {}
        }
    }
}

#[test]
fn the_settings_backup_is_never_more_open_than_the_settings_file() {
    use std::os::unix::fs::PermissionsExt;
    let ws = Ws::bare();
    let home = ws.home();
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    let settings = home.join(".claude/settings.json");
    std::fs::write(&settings, r#"{"env":{"API_TOKEN":"secret"}}"#).unwrap();
    std::fs::set_permissions(&settings, std::fs::Permissions::from_mode(0o600)).unwrap();
    let v = install(&ws, "claude");
    let backup = target(&v, "claude")["hooks"]["backup"]
        .as_str()
        .unwrap()
        .to_owned();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(Path::new(&backup)), 0o600, "{backup}");
    assert_eq!(mode(&settings), 0o600, "the rewritten file stays private");
    let u = ws.ok(&["self", "uninstall", "--target", "claude"]);
    let backup = target(&u, "claude")["hooks"]["backup"].as_str().unwrap();
    assert_eq!(mode(Path::new(backup)), 0o600, "{backup}");
}

#[test]
fn a_persons_skill_that_quotes_the_marker_is_theirs_and_kept() {
    let ws = Ws::bare();
    let home = ws.home();
    let notes = home.join(".gemini/skills/w-notes/SKILL.md");
    std::fs::create_dir_all(notes.parent().unwrap()).unwrap();
    let text = "---\nname: w-notes\ndescription: my notes on aw\n---\n# Notes\n\naw marks its files with `<!-- aw:installed version=0.1.0 · ... -->`.\n<!-- aw:installed version=0.1.0 -->\n";
    std::fs::write(&notes, text).unwrap();
    let v = install(&ws, "gemini");
    let t = target(&v, "gemini");
    assert_eq!(t["removed_stale"], serde_json::json!([]), "{t:#}");
    assert!(
        t["kept_foreign"]
            .as_array()
            .unwrap()
            .iter()
            .any(|k| k.as_str().unwrap().ends_with("w-notes/SKILL.md")),
        "{t:#}"
    );
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), text);
    let u = ws.ok(&["self", "uninstall", "--target", "gemini"]);
    let t = target(&u, "gemini");
    assert!(
        t["kept_foreign"]
            .as_array()
            .unwrap()
            .iter()
            .any(|k| k.as_str().unwrap().ends_with("w-notes/SKILL.md")),
        "{t:#}"
    );
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), text);
}

#[test]
fn a_persons_own_hooks_running_aws_commands_elsewhere_are_theirs() {
    let ws = Ws::bare();
    let home = ws.home();
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    let user = r#"{"hooks":{"SessionStart":[{"matcher":"","hooks":[{"type":"command","command":"aw resume-summary"}]}],"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"aw hook branch-check"}]}]}}"#;
    std::fs::write(home.join(".claude/settings.json"), user).unwrap();
    install(&ws, "claude");
    let s: Value = serde_json::from_str(&read(home, ".claude/settings.json")).unwrap();
    assert_eq!(
        s["hooks"]["SessionStart"][0]["hooks"][0]["command"],
        "aw resume-summary"
    );
    let pre = s["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(pre.len(), 2, "{pre:?}");
    assert_eq!(pre[0]["matcher"], "Bash");
    assert_eq!(pre[1]["matcher"], "Edit|Write|MultiEdit|NotebookEdit");
    ws.ok(&["self", "uninstall", "--target", "claude"]);
    let after: Value = serde_json::from_str(&read(home, ".claude/settings.json")).unwrap();
    assert_eq!(after, serde_json::from_str::<Value>(user).unwrap());
}

#[test]
fn uninstall_creates_no_host_folder() {
    let ws = Ws::bare();
    let home = ws.home();
    install(&ws, "opencode");
    std::fs::remove_dir_all(home.join(".opencode")).unwrap();
    let v = ws.ok(&["self", "uninstall", "--target", "all"]);
    assert_eq!(target(&v, "opencode")["hooks"]["status"], "removed");
    for root in [".opencode", ".claude", ".codex", ".gemini", ".agents"] {
        assert!(!home.join(root).exists(), "{root} was created");
    }
}

#[test]
fn a_linked_settings_file_inside_the_host_is_followed_and_one_leading_out_refused() {
    let ws = Ws::bare();
    let home = ws.home();
    std::fs::create_dir_all(home.join(".claude/dotfiles")).unwrap();
    let real = home.join(".claude/dotfiles/settings.json");
    let user = r#"{"model":"opus"}"#;
    std::fs::write(&real, user).unwrap();
    let link = home.join(".claude/settings.json");
    std::os::unix::fs::symlink("dotfiles/settings.json", &link).unwrap();
    let v = install(&ws, "claude");
    assert_eq!(target(&v, "claude")["hooks"]["status"], "installed");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link stays a link"
    );
    let s: Value = serde_json::from_str(&std::fs::read_to_string(&real).unwrap()).unwrap();
    assert_eq!(s["model"], "opus");
    assert!(
        s["hooks"]["PreCompact"].is_array(),
        "the target got the hooks"
    );
    ws.ok(&["self", "uninstall", "--target", "claude"]);
    let back: Value = serde_json::from_str(&std::fs::read_to_string(&real).unwrap()).unwrap();
    assert_eq!(back, serde_json::from_str::<Value>(user).unwrap());

    // A link out of the host's folder: refused with a true message, nothing written.
    let ws = Ws::bare();
    let home = ws.home();
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    let outside = ws.root().join("dotfiles-settings.json");
    std::fs::write(&outside, user).unwrap();
    std::os::unix::fs::symlink(&outside, home.join(".claude/settings.json")).unwrap();
    let before = tree(home);
    for args in [
        &["self", "install", "--target", "claude", "--dry-run"][..],
        &["self", "install", "--target", "claude"][..],
    ] {
        let f = ws.fails(args, "INSTALL_PATH_UNSAFE");
        let msg = f["error"]["message"].as_str().unwrap();
        assert!(
            msg.contains("symbolic link") && msg.contains("outside"),
            "{msg}"
        );
    }
    assert_eq!(tree(home), before);
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), user);
}

#[test]
fn uninstall_keeps_a_link_the_person_made_to_a_file_aw_created() {
    let ws = Ws::bare();
    let home = ws.home();
    install(&ws, "claude");
    // aw created the file; the person moves it into their dotfiles and links it back.
    std::fs::create_dir_all(home.join(".claude/dots")).unwrap();
    let real = home.join(".claude/dots/settings.json");
    let link = home.join(".claude/settings.json");
    std::fs::rename(&link, &real).unwrap();
    std::os::unix::fs::symlink("dots/settings.json", &link).unwrap();
    let v = ws.ok(&["self", "uninstall", "--target", "claude"]);
    let hooks = &target(&v, "claude")["hooks"];
    assert_eq!(hooks["file_removed"], false, "{v:#}");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link stays a link"
    );
    assert_eq!(
        std::fs::read_to_string(&real).unwrap(),
        "{}\n",
        "aw's hooks left the target"
    );
}

#[test]
fn a_fifo_in_place_of_the_settings_file_is_refused_as_unsafe_not_as_json() {
    let ws = Ws::bare();
    let home = ws.home();
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    let fifo = home.join(".claude/settings.json");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let f = ws.fails(
        &["self", "install", "--target", "claude"],
        "INSTALL_PATH_UNSAFE",
    );
    let msg = f["error"]["message"].as_str().unwrap();
    assert!(msg.contains("FIFO"), "{msg}");
    assert!(!home.join(".claude/skills").exists());
}

#[test]
fn a_linked_config_folder_leading_out_of_home_refuses_dry_run_and_run_alike() {
    let ws = Ws::bare();
    let home = ws.home();
    let dotfiles = ws.root().join("dotfiles-config");
    std::fs::create_dir_all(&dotfiles).unwrap();
    std::os::unix::fs::symlink(&dotfiles, home.join(".config")).unwrap();
    let before = tree(home);
    for args in [
        &["self", "install", "--target", "opencode", "--dry-run"][..],
        &["self", "install", "--target", "opencode"][..],
    ] {
        let f = ws.fails(args, "INSTALL_PATH_UNSAFE");
        assert!(
            f["data"]["action"]
                .as_str()
                .unwrap()
                .contains(".config/opencode"),
            "{f:#}"
        );
    }
    assert_eq!(tree(home), before);
    assert_eq!(std::fs::read_dir(&dotfiles).unwrap().count(), 0);
    // Once the folder exists (the person's choice, through their link), aw writes into it.
    std::fs::create_dir_all(dotfiles.join("opencode")).unwrap();
    install(&ws, "opencode");
    assert!(dotfiles.join("opencode/plugins/aw-hooks.js").is_file());
}

#[test]
fn the_doctor_names_the_next_command_and_skill_only_shows_no_commands_line() {
    let ws = Ws::bare();
    std::fs::create_dir_all(ws.home().join(".gemini")).unwrap();
    let (code, text) = ws.text(&["self", "doctor", "--format", "human"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("aw self install --target gemini"),
        "not-installed names the next command: {text}"
    );
    let (code, text) = ws.text(&[
        "self",
        "install",
        "--target",
        "claude",
        "--skill-only",
        "--format",
        "human",
    ]);
    assert_eq!(code, 0, "{text}");
    assert!(!text.contains("commands:"), "{text}");
    let v = ws.ok(&["self", "install", "--target", "claude", "--skill-only"]);
    assert_eq!(target(&v, "claude")["commands"], Value::Null);
    // An outdated host names it too.
    std::fs::write(
        ws.home().join(".claude/skills/w/retired.md"),
        "<!-- aw:installed version=0.0.1 · old -->\n",
    )
    .unwrap();
    let (_, text) = ws.text(&["self", "doctor", "--format", "human"]);
    assert!(text.contains("aw self install --target claude"), "{text}");
    let (_, text) = ws.text(&["self", "install", "--target", "claude", "--format", "human"]);
    assert!(text.contains("commands: /w:<n>"), "{text}");
}

#[test]
fn force_moves_a_persons_whole_skill_folder_aside_so_it_stays_whole() {
    let ws = Ws::bare();
    let home = ws.home();
    let mine = home.join(".claude/skills/design");
    std::fs::create_dir_all(mine.join("references")).unwrap();
    std::fs::write(
        mine.join("SKILL.md"),
        "---\nname: design\ndescription: my design skill\n---\nSee references/guide.md.\n",
    )
    .unwrap();
    std::fs::write(mine.join("references/guide.md"), "my guide\n").unwrap();
    let (_, text) = ws.text(&[
        "self",
        "install",
        "--target",
        "claude",
        "--force",
        "--dry-run",
        "--format",
        "human",
    ]);
    assert!(
        text.contains("your skill folder, whole, moved aside"),
        "{text}"
    );
    let v = ws.ok(&["self", "install", "--target", "claude", "--force"]);
    let t = target(&v, "claude");
    let moved = t["moved_aside"].as_array().unwrap();
    assert_eq!(moved.len(), 1, "{t:#}");
    assert_eq!(moved[0]["kind"], "skill-folder");
    let to = Path::new(moved[0]["to"].as_str().unwrap()).to_path_buf();
    assert!(
        to.to_string_lossy().contains("skills/design.aw-backup-"),
        "{}",
        to.display()
    );
    assert_eq!(t["kept_foreign"], serde_json::json!([]), "{t:#}");
    let (_, text) = ws.text(&["self", "install", "--target", "claude", "--format", "human"]);
    assert!(
        !text.contains("moved aside"),
        "a second run moves nothing: {text}"
    );
    assert!(
        std::fs::read_to_string(mine.join("SKILL.md"))
            .unwrap()
            .contains(MARKER)
    );
    assert!(
        !mine.join("references").exists(),
        "aw's folder holds only aw's files"
    );
    ws.ok(&["self", "uninstall", "--target", "claude"]);
    // The person's skill is whole where it was moved: SKILL.md and references together.
    assert!(
        std::fs::read_to_string(to.join("SKILL.md"))
            .unwrap()
            .contains("my design skill")
    );
    assert_eq!(
        std::fs::read_to_string(to.join("references/guide.md")).unwrap(),
        "my guide\n"
    );
    assert!(!mine.exists());
}

/// Runs the hook command `command` as a host does (`sh -c`), with a PATH holding no `aw`, in a
/// folder that is no workspace: (exit code, stderr).
fn run_hook(ws: &Ws, command: &str) -> (i32, String) {
    let mut c = std::process::Command::new("/bin/sh");
    crate::support::clean_env(&mut c, ws.home())
        .env("PATH", "/usr/bin:/bin")
        .current_dir(ws.root())
        .stdin(std::process::Stdio::null())
        .args(["-c", command]);
    let out = c.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn hook_command(home: &Path, event: &str) -> String {
    let settings: Value = serde_json::from_str(&read(home, ".claude/settings.json")).unwrap();
    settings["hooks"][event][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[test]
fn hooks_run_the_installing_aw_when_aw_is_not_on_the_hosts_path() {
    let ws = Ws::bare();
    let home = ws.home();
    let v = ws.ok(&["self", "install", "--target", "claude"]);
    let bin = crate::support::bin().canonicalize().unwrap();
    assert_eq!(
        target(&v, "claude")["hooks"]["program"],
        bin.to_str().unwrap()
    );
    let command = hook_command(home, "SessionEnd");
    assert_eq!(command, aw_command("auto-compact-on-close"));
    let (code, stderr) = run_hook(&ws, &command);
    assert_eq!(code, 0, "{command}: {stderr}");
    assert!(!stderr.contains("not found"), "{stderr}");
    // The codex plugin and the OpenCode module name it too.
    install(&ws, "codex");
    let plugin = read(home, ".codex/aw-hooks-plugin/hooks/hooks.json");
    assert!(
        plugin.contains(&aw_command("hook branch-check")),
        "{plugin}"
    );
    install(&ws, "opencode");
    let module = read(home, ".config/opencode/plugins/aw-hooks.js");
    assert!(
        module.contains(&format!(
            "const AW = {};",
            serde_json::to_string(bin.to_str().unwrap()).unwrap()
        )),
        "{module}"
    );
}

#[cfg(unix)]
#[test]
fn a_path_entry_with_a_blank_is_named_quoted_and_the_doctor_says_when_it_is_gone() {
    let ws = Ws::bare();
    let home = ws.home();
    // aw reached through a PATH folder whose name has a blank (a package manager's link: the
    // name that survives an upgrade is the link's, not the binary's).
    let tools = ws.root().join("my tools");
    std::fs::create_dir_all(&tools).unwrap();
    let link = tools.join("aw");
    std::os::unix::fs::symlink(crate::support::bin(), &link).unwrap();
    let path = format!("{}:/usr/bin:/bin", tools.display());
    let run = |args: &[&str]| -> Value {
        let mut c = std::process::Command::new(&link);
        crate::support::clean_env(&mut c, home)
            .env("PATH", &path)
            .current_dir(ws.root())
            .args(args);
        let out = c.output().unwrap();
        serde_json::from_slice(&out.stdout).unwrap()
    };
    run(&["self", "install", "--target", "claude"]);
    let command = hook_command(home, "PreCompact");
    assert_eq!(
        command,
        format!("'{}' checkpoint-write --can-pause", link.display())
    );
    let (code, stderr) = run_hook(&ws, &hook_command(home, "SessionEnd"));
    assert_eq!(code, 0, "{stderr}");
    let d = run(&["self", "doctor"]);
    let claude = &d["hosts"][0];
    assert_eq!(claude["verdict"], "ok", "{d:#}");
    assert_eq!(claude["hook_programs"], serde_json::json!([link]));
    // The link goes (aw moved or uninstalled): the doctor says the hooks run nothing.
    std::fs::remove_file(&link).unwrap();
    let d = ws.ok(&["self", "doctor"]);
    let claude = &d["hosts"][0];
    assert_eq!(claude["verdict"], "outdated", "{d:#}");
    assert_eq!(claude["hook_programs_missing"], serde_json::json!([link]));
    // Installing again with the aw at hand names it, and uninstall takes out the old entries
    // too, whichever path they name.
    let m = ws.ok(&["self", "install", "--target", "claude"]);
    assert_eq!(
        target(&m, "claude")["hooks"]["events_added"]
            .as_array()
            .unwrap()
            .len(),
        4
    );
    assert_eq!(
        hook_command(home, "PreCompact"),
        aw_command("checkpoint-write --can-pause")
    );
    // The file named another aw's path: install backed it up first, and that backup (named in
    // the record) is all uninstall leaves.
    let backup = target(&m, "claude")["hooks"]["backup"]
        .as_str()
        .expect("another aw's path is backed up")
        .to_owned();
    ws.ok(&["self", "uninstall", "--target", "claude"]);
    let left: Vec<String> = files_under(home, ".claude");
    assert_eq!(
        left,
        [
            ".claude/.aw-install.json".to_owned(),
            Path::new(&backup)
                .strip_prefix(home)
                .unwrap()
                .display()
                .to_string()
        ],
        "{left:?}"
    );
}

#[test]
fn a_file_the_person_edited_is_kept_and_force_moves_it_aside() {
    let ws = Ws::bare();
    let home = ws.home();
    install(&ws, "claude");
    let rel = ".claude/commands/w/quick.md";
    let edited = format!("{}\nMy own step: run the linter first.\n", read(home, rel));
    std::fs::write(home.join(rel), &edited).unwrap();
    // A stale file of aw's (a command this aw no longer has) that the person edited too.
    let stale = ".claude/commands/w/retired.md";
    let retired = read(home, ".claude/commands/w/status.md").replace("aw status", "aw retired");
    std::fs::write(home.join(stale), &retired).unwrap();
    let v = install(&ws, "claude");
    let t = target(&v, "claude");
    assert_eq!(read(home, rel), edited, "the edit is the person's now");
    let kept: Vec<&str> = t["kept_edited"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert!(kept.contains(&home.join(rel).to_str().unwrap()), "{t:#}");
    assert!(kept.contains(&home.join(stale).to_str().unwrap()), "{t:#}");
    assert!(home.join(stale).exists());
    let d = ws.ok(&["self", "doctor"]);
    let edited_list = d["hosts"][0]["edited"].as_array().unwrap();
    assert_eq!(edited_list.len(), 2, "{d:#}");
    assert_eq!(
        d["hosts"][0]["verdict"], "ok",
        "an edit of the person's is no fault"
    );
    // Uninstall keeps it too.
    let u = ws.ok(&["self", "uninstall", "--target", "claude", "--dry-run"]);
    assert_eq!(
        target(&u, "claude")["kept_edited"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    // --force moves it aside first, then writes aw's.
    let f = ws.ok(&["self", "install", "--target", "claude", "--force"]);
    let moved = target(&f, "claude")["moved_aside"].as_array().unwrap();
    assert_eq!(moved.len(), 1, "{f:#}");
    assert_eq!(moved[0]["kind"], "edited");
    assert_eq!(
        std::fs::read_to_string(moved[0]["to"].as_str().unwrap()).unwrap(),
        edited
    );
    assert!(!read(home, rel).contains("My own step"));
}

#[test]
fn install_then_uninstall_in_an_empty_home_leaves_it_empty() {
    let ws = Ws::bare();
    let home = ws.home();
    install(&ws, "all");
    install(&ws, "agents");
    let u = ws.ok(&["self", "uninstall", "--target", "all"]);
    assert!(
        target(&u, "claude")["removed_folders"]
            .as_array()
            .unwrap()
            .contains(&Value::from(home.join(".claude").to_str().unwrap()))
    );
    ws.ok(&["self", "uninstall", "--target", "agents"]);
    assert_eq!(tree(home), Default::default(), "nothing of aw's is left");
    let d = ws.ok(&["self", "doctor"]);
    for h in d["hosts"].as_array().unwrap() {
        assert_eq!(h["verdict"], "absent", "{h:#}");
    }
}

#[test]
fn uninstall_leaves_the_folders_that_were_there_before() {
    let ws = Ws::bare();
    let home = ws.home();
    std::fs::create_dir_all(home.join(".claude/skills")).unwrap();
    std::fs::create_dir_all(home.join(".config")).unwrap();
    std::fs::write(home.join(".claude/settings.json"), "{}\n").unwrap();
    install(&ws, "claude");
    install(&ws, "opencode");
    // A later install adds nothing to what aw created; a partial uninstall keeps the rest.
    install(&ws, "claude");
    ws.ok(&["self", "uninstall", "--target", "claude", "--skill-only"]);
    assert!(home.join(".claude/commands/w/quick.md").is_file());
    ws.ok(&["self", "uninstall", "--target", "all"]);
    let left: Vec<String> = tree(home).into_keys().collect();
    let settings_backups = left
        .iter()
        .filter(|k| k.starts_with(".claude/settings.json.bak."))
        .count();
    assert!(settings_backups >= 1);
    let mut rest: Vec<&str> = left
        .iter()
        .map(String::as_str)
        .filter(|k| !k.starts_with(".claude/settings.json.bak."))
        .collect();
    rest.sort();
    assert_eq!(
        rest,
        [
            ".claude",
            ".claude/.aw-install.json",
            ".claude/settings.json",
            ".claude/skills",
            ".config"
        ],
        "what the person had stays; what aw made went, but for its backups and the record naming them"
    );
    let record: Value = serde_json::from_str(&read(home, ".claude/.aw-install.json")).unwrap();
    assert_eq!(
        record["backups"].as_array().unwrap().len(),
        settings_backups,
        "{record:#}"
    );
    assert_eq!(read(home, ".claude/settings.json"), "{}\n");
}

#[test]
fn a_self_command_waits_for_the_host_folders_lock_and_gives_up_with_lock_busy() {
    let ws = Ws::bare();
    let home = ws.home();
    // Another `self` command holds the lock of ~/.claude.
    let held = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(home.join(".aw-self-lock.claude"))
        .unwrap();
    held.lock().unwrap();
    let wait = [("AW_LOCK_WAIT_MS", "50")];
    for args in [
        &["self", "install", "--target", "claude"][..],
        &["self", "uninstall", "--target", "all"][..],
        &["self", "doctor"][..],
    ] {
        let (code, v) = ws.run_env(args, &wait);
        assert_eq!(code, 1, "{args:?}: {v:#}");
        assert_eq!(v["error"]["code"], "LOCK_BUSY", "{v:#}");
    }
    assert!(!home.join(".claude").exists(), "nothing written meanwhile");
    // Another host's folder is free.
    ws.ok(&["self", "install", "--target", "gemini"]);
    held.unlock().unwrap();
    drop(held);
    install(&ws, "claude");
    let left: Vec<String> = tree(home)
        .into_keys()
        .filter(|k| k.starts_with(".aw-self-lock"))
        .collect();
    assert_eq!(
        left,
        Vec::<String>::new(),
        "the lock file goes with its last holder"
    );
}

#[test]
fn install_racing_uninstall_never_fails_midway() {
    let ws = Ws::bare();
    let run = |args: &'static [&'static str]| {
        let mut c = ws.process(args);
        c.stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .env("AW_LOCK_WAIT_MS", "60000");
        c.spawn().unwrap()
    };
    for _ in 0..6 {
        let a = run(&["self", "install", "--target", "all"]);
        let b = run(&["self", "uninstall", "--target", "all"]);
        let c = run(&["self", "install", "--target", "claude"]);
        for child in [a, b, c] {
            let out = child.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "{}\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    // Whatever order they ran in, the end state is whole: the doctor finds nothing half done.
    let d = ws.ok(&["self", "doctor"]);
    for h in d["hosts"].as_array().unwrap() {
        assert!(
            matches!(h["verdict"].as_str(), Some("ok" | "absent")),
            "{h:#}"
        );
    }
}

#[test]
fn the_settings_file_keeps_the_persons_bytes_and_a_repeated_key_is_refused() {
    let ws = Ws::bare();
    let home = ws.home();
    let user = "{\n  \"big\": 123456789012345678901234567890,\n  \"ratio\": 1.10,\n  \"hundred\": 1e2,\n  \"hooks\": {\n    \"Stop\": [{\"matcher\": \"\", \"hooks\": [{\"type\": \"command\", \"command\": \"first\"}]}],\n    \"Stop\": [{\"matcher\": \"\", \"hooks\": [{\"type\": \"command\", \"command\": \"second\"}]}]\n  }\n}\n";
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    std::fs::write(home.join(".claude/settings.json"), user).unwrap();
    install(&ws, "claude");
    let text = read(home, ".claude/settings.json");
    for kept in [
        "\"big\": 123456789012345678901234567890,",
        "\"ratio\": 1.10,",
        "\"hundred\": 1e2,",
        "\"command\": \"first\"",
        "\"command\": \"second\"",
    ] {
        assert!(text.contains(kept), "{kept} kept in {text}");
    }
    ws.ok(&["self", "uninstall", "--target", "claude"]);
    assert_eq!(read(home, ".claude/settings.json"), user, "byte for byte");
    // A repeated key aw would have to edit: which one the host reads is not aw's to guess.
    let twice =
        "{\"hooks\": {\"PreCompact\": [], \"PreCompact\": [{\"matcher\": \"\", \"hooks\": []}]}}\n";
    std::fs::write(home.join(".claude/settings.json"), twice).unwrap();
    let f = ws.fails(
        &["self", "install", "--target", "claude"],
        "SETTINGS_INVALID_JSON",
    );
    assert!(
        f["error"]["message"]
            .as_str()
            .unwrap()
            .contains("hooks.PreCompact"),
        "{f:#}"
    );
    assert_eq!(read(home, ".claude/settings.json"), twice);
}

/// The settings file's text with `from` replaced by `to` once (the test's own edit).
fn edit_settings(home: &Path, from: &str, to: &str) -> String {
    let text = read(home, ".claude/settings.json");
    assert!(text.contains(from), "{from} in {text}");
    let text = text.replacen(from, to, 1);
    std::fs::write(home.join(".claude/settings.json"), &text).unwrap();
    text
}

fn host_of<'a>(d: &'a Value, id: &str) -> &'a Value {
    d["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["id"] == id)
        .unwrap()
}

#[test]
fn a_hook_of_aws_the_person_tuned_is_present_and_kept_byte_for_byte_even_with_force() {
    let ws = Ws::bare();
    let home = ws.home();
    install(&ws, "claude");
    let pre_compact = aw_command("checkpoint-write --can-pause");
    // The timeout tuned, a key of the person's on aw's handler and on its group, the person's
    // own handler inside aw's group, and the tool hook's matcher narrowed to two edit tools.
    edit_settings(
        home,
        &format!(
            "\"command\": \"{pre_compact}\",\n            \"timeout\": 10\n          }}\n        ]"
        ),
        &format!(
            "\"command\": \"{pre_compact}\",\n            \"timeout\": 99,\n            \"statusMessage\": \"saving\"\n          }},\n          {{ \"type\": \"command\", \"command\": \"notify-me\" }}\n        ],\n        \"note\": \"mine\""
        ),
    );
    let tuned = edit_settings(
        home,
        "\"matcher\": \"Edit|Write|MultiEdit|NotebookEdit\"",
        "\"matcher\": \"Edit|Write\"",
    );
    for force in [false, true] {
        let mut args = vec!["self", "install", "--target", "claude"];
        if force {
            args.push("--force");
        }
        let v = ws.ok(&args);
        let h = &target(&v, "claude")["hooks"];
        assert_eq!(h["status"], "noop", "{h:#}");
        assert_eq!(
            h["events_present"],
            serde_json::json!(["PreToolUse", "PreCompact", "PostCompact", "SessionEnd"]),
            "{h:#}"
        );
        assert_eq!(h["events_added"], serde_json::json!([]));
        assert_eq!(read(home, ".claude/settings.json"), tuned, "byte for byte");
    }
    let c = host_of(&ws.ok(&["self", "doctor"]), "claude").clone();
    assert_eq!(c["verdict"], "ok", "{c:#}");
    assert_eq!(c["duplicate_hooks"], serde_json::json!([]));
    // An older aw's path: only the command string's bytes change, the timeout stays.
    let bin = crate::support::bin().canonicalize().unwrap();
    let bin = bin.to_str().unwrap().to_owned();
    let stale = tuned.replacen(
        &format!("\"{pre_compact}\""),
        "\"/old/place/aw checkpoint-write --can-pause\"",
        1,
    );
    std::fs::write(home.join(".claude/settings.json"), &stale).unwrap();
    let v = install(&ws, "claude");
    let h = &target(&v, "claude")["hooks"];
    assert_eq!(
        h["events_added"],
        serde_json::json!(["PreCompact"]),
        "{h:#}"
    );
    assert_eq!(read(home, ".claude/settings.json"), tuned, "{bin}");
}

#[test]
fn an_edited_hook_of_aws_is_kept_not_doubled_named_by_the_doctor_and_left_by_uninstall() {
    let ws = Ws::bare();
    let home = ws.home();
    install(&ws, "claude");
    let on_close = aw_command("auto-compact-on-close");
    let edited = edit_settings(
        home,
        &format!("\"{on_close}\""),
        &format!("\"{on_close} --quiet\""),
    );
    let v = install(&ws, "claude");
    let h = &target(&v, "claude")["hooks"];
    assert_eq!(h["edited_kept"], serde_json::json!(["SessionEnd"]), "{h:#}");
    assert_eq!(h["status"], "noop", "{h:#}");
    assert_eq!(read(home, ".claude/settings.json"), edited, "nothing added");
    let c = host_of(&ws.ok(&["self", "doctor"]), "claude").clone();
    assert_eq!(c["verdict"], "ok", "{c:#}");
    assert_eq!(
        c["edited_hooks"],
        serde_json::json!([{ "event": "SessionEnd", "command": format!("{on_close} --quiet") }])
    );
    assert_eq!(c["duplicate_hooks"], serde_json::json!([]));
    // What an older aw left: its own entry added beside the edited one, so it ran twice.
    let doubled = edit_settings(
        home,
        "\"SessionEnd\": [",
        &format!(
            "\"SessionEnd\": [\n      {{ \"matcher\": \"\", \"hooks\": [{{ \"type\": \"command\", \"command\": \"{on_close}\", \"timeout\": 10 }}] }},"
        ),
    );
    let d = ws.ok(&["self", "doctor"]);
    let c = host_of(&d, "claude");
    assert_eq!(
        c["duplicate_hooks"],
        serde_json::json!(["SessionEnd"]),
        "{c:#}"
    );
    assert_eq!(
        c["verdict"], "outdated",
        "a hook that runs twice is a fault"
    );
    assert_eq!(d["healthy"], false);
    let (_, text) = ws.stdout(&["self", "doctor", "--format", "human"], None, &[]);
    assert!(text.contains("SessionEnd runs twice"), "{text}");
    assert!(
        text.contains("edited hook (yours now, kept): SessionEnd"),
        "{text}"
    );
    // Both are the person's to choose from (aw's exact entry beside their edited one): the
    // doctor names the two; install takes neither out.
    let pair = &c["duplicate_entries"][0];
    assert_eq!(pair["fix"], "by-hand", "{c:#}");
    assert_eq!(pair["entries"][0]["entry"], 1);
    assert_eq!(pair["entries"][1]["entry"], 2);
    assert!(
        text.contains("remove one of them by hand")
            && text.contains("entry 1")
            && text.contains("entry 2"),
        "{text}"
    );
    let v = install(&ws, "claude");
    let h = &target(&v, "claude")["hooks"];
    assert_eq!(h["duplicates_removed"], serde_json::json!([]), "{h:#}");
    assert_eq!(
        read(home, ".claude/settings.json"),
        doubled,
        "nothing taken out"
    );
    // The person takes one out by hand.
    std::fs::write(home.join(".claude/settings.json"), &edited).unwrap();
    // Uninstall leaves the edited hook (the person's) and says so.
    let u = ws.ok(&["self", "uninstall", "--target", "claude"]);
    let h = &target(&u, "claude")["hooks"];
    assert_eq!(h["edited_kept"], serde_json::json!(["SessionEnd"]), "{h:#}");
    let left = read(home, ".claude/settings.json");
    assert!(left.contains(&format!("{on_close} --quiet")), "{left}");
    for gone in ["branch-check", "checkpoint-write", "resume-summary"] {
        assert!(!left.contains(gone), "{left}");
    }
}

#[test]
fn the_backup_reported_and_recorded_is_the_one_written_when_two_runs_share_a_second() {
    // The pinned clock: every run shares one second, so one epoch.
    let ws = Ws::bare().pinned_clock();
    let home = ws.home();
    let claude = home.join(".claude");
    std::fs::create_dir_all(&claude).unwrap();
    let first = "{\"model\": \"opus-1\"}\n";
    std::fs::write(claude.join("settings.json"), first).unwrap();
    let r = install(&ws, "claude");
    let one = target(&r, "claude")["hooks"]["backup"]
        .as_str()
        .expect("a backup")
        .to_owned();
    assert_eq!(std::fs::read_to_string(&one).unwrap(), first);
    let second = "{\"model\": \"opus-2\"}\n";
    std::fs::write(claude.join("settings.json"), second).unwrap();
    // A dry run names the name a run would choose now: the planned one is taken.
    let d = ws.ok(&["self", "install", "--target", "claude", "--dry-run"]);
    let planned = target(&d, "claude")["hooks"]["backup"]
        .as_str()
        .expect("a backup")
        .to_owned();
    assert_eq!(planned, format!("{one}.1"), "{d:#}");
    let r = install(&ws, "claude");
    let two = target(&r, "claude")["hooks"]["backup"]
        .as_str()
        .expect("a backup")
        .to_owned();
    assert_eq!(two, format!("{one}.1"), "{r:#}");
    assert_eq!(std::fs::read_to_string(&two).unwrap(), second);
    assert_eq!(std::fs::read_to_string(&one).unwrap(), first);
    let record: Value = serde_json::from_str(&read(home, ".claude/.aw-install.json")).unwrap();
    let rel = |p: &str| {
        Path::new(p)
            .strip_prefix(home)
            .unwrap()
            .display()
            .to_string()
    };
    assert_eq!(record["backups"], serde_json::json!([rel(&one), rel(&two)]));
    // Uninstall in the same second reports its own backup's name too.
    let third = read(home, ".claude/settings.json");
    let u = ws.ok(&["self", "uninstall", "--target", "claude"]);
    let three = target(&u, "claude")["hooks"]["backup"]
        .as_str()
        .expect("a backup")
        .to_owned();
    assert_eq!(three, format!("{one}.2"), "{u:#}");
    assert_eq!(std::fs::read_to_string(&three).unwrap(), third);
}

#[test]
fn settings_backups_are_bounded_to_the_newest_five_and_nothing_else_goes() {
    let ws = Ws::bare().pinned_clock();
    let home = ws.home();
    let claude = home.join(".claude");
    std::fs::create_dir_all(&claude).unwrap();
    // The person's own backups, and an older aw's, all of aw's name shape but named in no
    // record of aw's: never deleted.
    let theirs = [
        "settings.json.bak.1",
        "settings.json.bak.20240101",
        "settings.json.bak.1000000001",
        "settings.json.bak.1000000000.1",
        "settings.json.bak.mine",
    ];
    for name in theirs {
        std::fs::write(claude.join(name), format!("theirs {name}")).unwrap();
    }
    // A folder named like the newest backup of all: never deleted, and never counted.
    std::fs::create_dir_all(claude.join("settings.json.bak.9999999999")).unwrap();
    std::fs::create_dir_all(claude.join(".aw-backup-1000000000/skills/w")).unwrap();
    std::fs::write(
        claude.join(".aw-backup-1000000000/skills/w/SKILL.md"),
        "aside",
    )
    .unwrap();
    let change = |i: usize| {
        // Each run finds the person's file without aw's hooks: it changes it, backing it up.
        std::fs::write(
            claude.join("settings.json"),
            format!("{{\"model\": \"opus-{i}\"}}\n"),
        )
        .unwrap();
    };
    let mut removed: Vec<String> = Vec::new();
    for i in 0..7 {
        change(i);
        if i == 6 {
            // A dry run names what the run will delete, and deletes nothing.
            let d = ws.ok(&["self", "install", "--target", "claude", "--dry-run"]);
            let planned = target(&d, "claude")["backups_removed"].clone();
            assert_eq!(planned.as_array().unwrap().len(), 1, "{planned:#}");
            assert!(std::path::Path::new(planned[0].as_str().unwrap()).is_file());
            let v = install(&ws, "claude");
            assert_eq!(target(&v, "claude")["backups_removed"], planned);
            removed.extend(
                planned
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| p.as_str().unwrap().to_owned()),
            );
            continue;
        }
        let v = install(&ws, "claude");
        let t = target(&v, "claude");
        assert!(t["hooks"]["backup"].is_string(), "{t:#}");
        removed.extend(
            t["backups_removed"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap().to_owned()),
        );
    }
    let backups = |dir: &Path| -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .filter_map(|p| {
                let name = p.file_name()?.to_str()?.to_owned();
                name.starts_with("settings.json.bak.")
                    .then(|| (name, std::fs::read_to_string(&p).unwrap()))
            })
            .collect();
        out.sort();
        out
    };
    let left = backups(&claude);
    for name in theirs {
        assert_eq!(
            read(&claude, name),
            format!("theirs {name}"),
            "a backup aw did not write stays: {left:?}"
        );
    }
    let mut ours: Vec<&str> = left
        .iter()
        .map(|(_, c)| c.as_str())
        .filter(|c| !c.starts_with("theirs"))
        .collect();
    ours.sort_unstable();
    assert_eq!(
        ours,
        [
            "{\"model\": \"opus-2\"}\n",
            "{\"model\": \"opus-3\"}\n",
            "{\"model\": \"opus-4\"}\n",
            "{\"model\": \"opus-5\"}\n",
            "{\"model\": \"opus-6\"}\n",
        ],
        "the newest five of aw's: {left:?}"
    );
    assert_eq!(removed.len(), 2, "the two oldest of aw's: {removed:?}");
    let record: Value = serde_json::from_str(&read(home, ".claude/.aw-install.json")).unwrap();
    assert_eq!(
        record["backups"].as_array().unwrap().len(),
        5,
        "the deleted ones are no longer named: {record:#}"
    );
    assert!(
        claude.join("settings.json.bak.9999999999").is_dir(),
        "a folder is never deleted"
    );
    assert_eq!(
        read(home, ".claude/.aw-backup-1000000000/skills/w/SKILL.md"),
        "aside",
        "what install moved aside stays"
    );
    // An uninstall that backs up keeps the bound too.
    let u = ws.ok(&["self", "uninstall", "--target", "claude"]);
    assert_eq!(
        target(&u, "claude")["backups_removed"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        backups(&claude).len(),
        5 + theirs.len(),
        "five of aw's and every one of the person's"
    );
}

#[test]
fn a_persons_logger_hooks_running_aws_words_are_theirs_left_byte_for_byte() {
    let ws = Ws::bare();
    let home = ws.home();
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    let theirs = r#"{"hooks": {"SessionEnd": [{"matcher": "", "hooks": [{"type": "command", "command": "/usr/bin/logger auto-compact-on-close"}]}], "PostCompact": [{"matcher": "", "hooks": [{"type": "command", "command": "/usr/bin/logger resume-summary --tag x"}]}]}}"#;
    std::fs::write(home.join(".claude/settings.json"), theirs).unwrap();
    let v = install(&ws, "claude");
    let h = &target(&v, "claude")["hooks"];
    assert_eq!(h["edited_kept"], serde_json::json!([]), "{h:#}");
    let text = read(home, ".claude/settings.json");
    for kept in [
        r#"{"matcher": "", "hooks": [{"type": "command", "command": "/usr/bin/logger auto-compact-on-close"}]}"#,
        r#"{"matcher": "", "hooks": [{"type": "command", "command": "/usr/bin/logger resume-summary --tag x"}]}"#,
    ] {
        assert!(text.contains(kept), "{text}");
    }
    assert!(
        text.contains(&aw_command("auto-compact-on-close")),
        "{text}"
    );
    assert!(
        text.contains(&aw_command("resume-summary")),
        "aw's own PostCompact: {text}"
    );
    ws.ok(&["self", "uninstall", "--target", "claude"]);
    assert_eq!(read(home, ".claude/settings.json"), theirs);
}

#[test]
fn the_doctor_judges_literal_lifecycle_matchers_and_checks_edited_hooks_programs() {
    let ws = Ws::bare();
    let home = ws.home();
    install(&ws, "claude");
    let on_close = aw_command("auto-compact-on-close");
    let text = read(home, ".claude/settings.json");
    // SessionEnd: `clear` and `logout`, each edited; they never fire together.
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v["hooks"]["SessionEnd"] = serde_json::json!([
        { "matcher": "clear", "hooks": [{ "type": "command", "command": format!("{on_close} --quiet") }] },
        { "matcher": "logout", "hooks": [{ "type": "command", "command": format!("{on_close} --verbose") }] },
    ]);
    std::fs::write(home.join(".claude/settings.json"), v.to_string()).unwrap();
    let c = host_of(&ws.ok(&["self", "doctor"]), "claude").clone();
    assert_eq!(c["duplicate_hooks"], serde_json::json!([]), "{c:#}");
    assert_eq!(c["verdict"], "ok", "{c:#}");
    // An edited hook whose program is gone fails at every trigger: named, not ok.
    v["hooks"]["SessionEnd"] = serde_json::json!([
        { "matcher": "", "hooks": [{ "type": "command", "command": "/gone/bin/aw auto-compact-on-close --quiet" }] },
    ]);
    std::fs::write(home.join(".claude/settings.json"), v.to_string()).unwrap();
    let c = host_of(&ws.ok(&["self", "doctor"]), "claude").clone();
    assert_eq!(
        c["hook_programs_missing"],
        serde_json::json!(["/gone/bin/aw"]),
        "{c:#}"
    );
    assert_eq!(c["verdict"], "outdated", "{c:#}");
    let (_, human) = ws.stdout(&["self", "doctor", "--format", "human"], None, &[]);
    assert!(human.contains("change its program by hand"), "{human}");
}

#[test]
fn a_hook_naming_another_aw_is_backed_up_before_install_and_uninstall_change_it() {
    let ws = Ws::bare();
    let home = ws.home();
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    let theirs = r#"{"hooks":{"PreCompact":[{"matcher":"","hooks":[{"type":"command","command":"/opt/other/aw checkpoint-write --can-pause","timeout":10}]}]}}"#;
    std::fs::write(home.join(".claude/settings.json"), theirs).unwrap();
    let r = install(&ws, "claude");
    let h = &target(&r, "claude")["hooks"];
    let backup = h["backup"]
        .as_str()
        .unwrap_or_else(|| panic!("the person's /opt/other/aw path is backed up first: {h:#}"));
    assert_eq!(std::fs::read_to_string(backup).unwrap(), theirs);
    assert!(!read(home, ".claude/settings.json").contains("/opt/other/aw"));
    // The same file again, and uninstall: backed up before aw's entry goes.
    std::fs::write(home.join(".claude/settings.json"), theirs).unwrap();
    let r = ws.ok(&["self", "uninstall", "--target", "claude"]);
    let h = &target(&r, "claude")["hooks"];
    let backup = h["backup"]
        .as_str()
        .unwrap_or_else(|| panic!("uninstall backs it up too: {h:#}"));
    assert_eq!(std::fs::read_to_string(backup).unwrap(), theirs);
}

#[test]
fn a_handler_naming_a_key_twice_is_the_persons_never_rewritten_or_removed() {
    let ws = Ws::bare();
    let home = ws.home();
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    let handler = r#"{"type":"command","command":"aw checkpoint-write --can-pause","timeout":10,"type":"prompt"}"#;
    let theirs = format!(r#"{{"hooks":{{"PreCompact":[{{"matcher":"","hooks":[{handler}]}}]}}}}"#);
    std::fs::write(home.join(".claude/settings.json"), &theirs).unwrap();
    let r = install(&ws, "claude");
    let h = &target(&r, "claude")["hooks"];
    assert!(h["backup"].is_string(), "{h:#}");
    let after = read(home, ".claude/settings.json");
    assert!(after.contains(handler), "kept byte for byte: {after}");
    assert_eq!(
        after.matches("checkpoint-write").count(),
        2,
        "aw's own entry beside it: {after}"
    );
    ws.ok(&["self", "uninstall", "--target", "claude"]);
    assert_eq!(read(home, ".claude/settings.json"), theirs);
}

#[test]
fn install_takes_out_only_an_exact_copy_of_aws_entry_and_backs_up_first() {
    let ws = Ws::bare();
    let home = ws.home();
    install(&ws, "claude");
    // The person's partly overlapping branch checks and PreCompact `manual`/`auto`: theirs.
    let branch = aw_command("hook branch-check");
    let pause = aw_command("checkpoint-write --can-pause");
    let mut v: Value = serde_json::from_str(&read(home, ".claude/settings.json")).unwrap();
    v["model"] = serde_json::json!("opus");
    v["hooks"]["PreToolUse"] = serde_json::json!([
        { "matcher": "Edit|Write", "hooks": [{ "type": "command", "command": branch, "timeout": 15 }] },
        { "matcher": "Write|MultiEdit|NotebookEdit", "hooks": [{ "type": "command", "command": branch, "timeout": 30 }] },
    ]);
    v["hooks"]["PreCompact"] = serde_json::json!([
        { "matcher": "manual", "hooks": [{ "type": "command", "command": pause }] },
        { "matcher": "auto", "hooks": [{ "type": "command", "command": pause }] },
    ]);
    let theirs = serde_json::to_string_pretty(&v).unwrap();
    std::fs::write(home.join(".claude/settings.json"), &theirs).unwrap();
    let r = install(&ws, "claude");
    let h = &target(&r, "claude")["hooks"];
    assert_eq!(h["duplicates_removed"], serde_json::json!([]), "{h:#}");
    assert_eq!(h["status"], "noop", "{h:#}");
    assert_eq!(read(home, ".claude/settings.json"), theirs);
    let c = host_of(&ws.ok(&["self", "doctor"]), "claude").clone();
    assert_eq!(
        c["duplicate_hooks"],
        serde_json::json!(["PreToolUse"]),
        "{c:#}"
    );
    assert_eq!(c["duplicate_entries"][0]["fix"], "by-hand", "{c:#}");
    // Two exact copies of aw's own SessionEnd entry: the second goes, a backup first.
    let end = v["hooks"]["SessionEnd"][0].clone();
    v["hooks"]["SessionEnd"] = serde_json::json!([end, end]);
    let doubled = serde_json::to_string_pretty(&v).unwrap();
    std::fs::write(home.join(".claude/settings.json"), &doubled).unwrap();
    let r = install(&ws, "claude");
    let h = &target(&r, "claude")["hooks"];
    assert_eq!(
        h["duplicates_removed"],
        serde_json::json!(["SessionEnd"]),
        "{h:#}"
    );
    let backup = h["backup"].as_str().expect("a backup before any removal");
    assert_eq!(std::fs::read_to_string(backup).unwrap(), doubled);
    assert_eq!(
        read(home, ".claude/settings.json")
            .matches("auto-compact-on-close")
            .count(),
        1
    );
}

#[test]
fn a_group_naming_its_matcher_twice_is_the_persons_and_uninstall_leaves_it() {
    let ws = Ws::bare();
    let home = ws.home();
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    let theirs = r#"{"hooks": {"PreToolUse": [{"matcher": "Edit", "matcher": "Bash", "hooks": [{"type": "command", "command": "aw hook branch-check"}]}]}}"#;
    std::fs::write(home.join(".claude/settings.json"), theirs).unwrap();
    let v = install(&ws, "claude");
    let h = &target(&v, "claude")["hooks"];
    assert!(
        h["events_added"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e == "PreToolUse"),
        "aw's own beside it: {h:#}"
    );
    ws.ok(&["self", "uninstall", "--target", "claude"]);
    assert_eq!(read(home, ".claude/settings.json"), theirs);
}

/// aw does not arm the two advisory guards itself yet; a person who adds them by hand to Claude
/// Code's settings keeps them through install, a second install and uninstall, byte for byte.
#[test]
fn guards_added_by_hand_beside_aws_hooks_stay_through_install_and_uninstall() {
    let ws = Ws::bare();
    let home = ws.home();
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    let mine = r#"{"hooks":{"PreToolUse":[{"matcher":"mcp__.*__execute_sql","hooks":[{"type":"command","command":"aw hook sql-mutation-guard","timeout":10}]},{"matcher":"Bash","hooks":[{"type":"command","command":"aw hook git-commit-advisor","timeout":10}]}]}}"#;
    std::fs::write(home.join(".claude/settings.json"), mine).unwrap();
    let v = install(&ws, "claude");
    assert_eq!(target(&v, "claude")["hooks"]["status"], "installed");
    let s: Value = serde_json::from_str(&read(home, ".claude/settings.json")).unwrap();
    let pre = s["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(
        pre.len(),
        3,
        "aw's branch check beside the person's two guards: {pre:?}"
    );
    assert_eq!(pre[0]["hooks"][0]["command"], "aw hook sql-mutation-guard");
    assert_eq!(pre[1]["hooks"][0]["command"], "aw hook git-commit-advisor");
    assert!(
        pre[2]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .ends_with(" hook branch-check")
    );
    let again = install(&ws, "claude");
    assert_eq!(target(&again, "claude")["hooks"]["status"], "noop");
    ws.ok(&["self", "uninstall", "--target", "claude"]);
    assert_eq!(read(home, ".claude/settings.json"), mine);
}
