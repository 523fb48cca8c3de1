//! `aw family status`: the detection ladder over the five real member manifests, copied into a
//! temporary HOME's skill root, and hand-made edge cases.

use crate::support::{Ws, copy_tree, fixture_path};
use serde_json::Value;
use std::path::{Path, PathBuf};

const MEMBERS: [&str; 5] = [
    "agent-workflow-kit",
    "agent-workflow-memory",
    "agent-workflow-engine",
    "codex-cli-bridge",
    "antigravity-cli-bridge",
];

const ENVS: [&str; 5] = [
    "AGENT_WORKFLOW_KIT_DIR",
    "AGENT_WORKFLOW_MEMORY_DIR",
    "AGENT_WORKFLOW_ENGINE_DIR",
    "CODEX_CLI_BRIDGE_DIR",
    "ANTIGRAVITY_CLI_BRIDGE_DIR",
];

/// A workspace whose HOME is clean of the members' variables (an empty one counts as unset).
pub fn family_ws() -> Ws {
    ENVS.iter().fold(Ws::bare(), |ws, e| ws.with_env(e, ""))
}

/// The HOME skill root the members' `detect.installed.default` points at.
pub fn skills(ws: &Ws) -> PathBuf {
    ws.home().join(".claude/skills")
}

/// Copies the five real members into `root`.
pub fn install_all(root: &Path) {
    for m in MEMBERS {
        copy_tree(&fixture_path("family/members").join(m), &root.join(m));
    }
}

fn member<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["members"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {v:#}"))
}

fn set_json(path: &Path, edit: impl FnOnce(&mut Value)) {
    let mut v: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    edit(&mut v);
    std::fs::write(path, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
}

#[test]
fn the_five_real_members_are_ok_with_their_authoritative_versions() {
    let ws = family_ws();
    install_all(&skills(&ws));
    let v = ws.ok(&["family", "status", "--json"]);
    let names: Vec<&str> = v["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, MEMBERS);
    for (name, version, from) in [
        ("agent-workflow-kit", "7.1.0", "package.json"),
        ("agent-workflow-memory", "4.5.3", "package.json"),
        ("agent-workflow-engine", "3.1.0", "package.json"),
        ("codex-cli-bridge", "3.5.0", "SKILL.md metadata.version"),
        (
            "antigravity-cli-bridge",
            "5.3.0",
            "SKILL.md metadata.version",
        ),
    ] {
        let m = member(&v, name);
        assert_eq!(m["state"], "ok", "{m:#}");
        assert_eq!(m["reason"], Value::Null);
        assert_eq!(m["version"], version);
        assert_eq!(m["versionFrom"], from);
        assert_eq!(m["installed"]["via"], "default");
        // `~/` is HOME: the default names the copy we installed.
        assert_eq!(
            m["installed"]["path"],
            skills(&ws).join(name).display().to_string()
        );
        assert_eq!(m["copies"][0]["found"], "detect-installed");
        assert_eq!(m["copies"].as_array().unwrap().len(), 1);
    }
    let (code, text) = ws.text(&["family", "status", "--format", "human"]);
    assert_eq!(code, 0);
    assert!(
        text.contains("codex-cli-bridge")
            && text.contains("3.5.0 (from SKILL.md metadata.version)"),
        "{text}"
    );
}

#[test]
fn nothing_installed_is_not_installed_with_a_reason() {
    let ws = family_ws();
    let v = ws.ok(&["family", "status", "--json"]);
    for name in MEMBERS {
        let m = member(&v, name);
        assert_eq!(m["state"], "not-installed");
        assert!(m["reason"].as_str().unwrap().contains("SKILL.md"));
        assert_eq!(m["version"], Value::Null);
    }
}

#[test]
fn a_folder_without_the_marker_file_is_not_installed() {
    let ws = family_ws();
    let dir = skills(&ws).join("agent-workflow-engine");
    copy_tree(&fixture_path("family/members/agent-workflow-engine"), &dir);
    std::fs::remove_file(dir.join("SKILL.md")).unwrap();
    let v = ws.ok(&["family", "status", "--json"]);
    assert_eq!(
        member(&v, "agent-workflow-engine")["state"],
        "not-installed"
    );
}

#[test]
fn each_rung_of_the_ladder_with_the_first_error_as_reason() {
    let ws = family_ws();
    let root = skills(&ws);
    install_all(&root);
    // Unsupported schema.
    set_json(&root.join("agent-workflow-kit/capability.json"), |v| {
        v["schema"] = 2.into()
    });
    // Invalid: a manifest that is not JSON.
    std::fs::write(root.join("agent-workflow-memory/capability.json"), "{").unwrap();
    // Stub: available false (and foreign too: the stub rung comes first).
    set_json(&root.join("agent-workflow-engine/capability.json"), |v| {
        v["available"] = false.into();
        v["kind"] = "memory-substrate".into();
    });
    // Foreign: a valid manifest of another kind.
    set_json(&root.join("codex-cli-bridge/capability.json"), |v| {
        v["kind"] = "methodology-engine".into();
        v["roles"] = serde_json::json!({});
        v["provides"] = serde_json::json!(["plan"]);
        for k in [
            "settings",
            "modeCatalog",
            "networkHosts",
            "writableDirs",
            "posture",
        ] {
            v.as_object_mut().unwrap().remove(k);
        }
    });
    // Foreign by name: the antigravity folder holds the codex manifest (and its SKILL.md).
    let agy = root.join("antigravity-cli-bridge");
    std::fs::remove_dir_all(&agy).unwrap();
    copy_tree(&fixture_path("family/members/codex-cli-bridge"), &agy);

    let v = ws.ok(&["family", "status", "--json"]);
    let kit = member(&v, "agent-workflow-kit");
    assert_eq!(kit["state"], "unsupported");
    assert!(
        kit["reason"].as_str().unwrap().contains("schema"),
        "{kit:#}"
    );
    let memory = member(&v, "agent-workflow-memory");
    assert_eq!(memory["state"], "invalid");
    assert!(
        memory["reason"]
            .as_str()
            .unwrap()
            .contains("not valid JSON")
    );
    assert_eq!(memory["version"], Value::Null);
    assert_eq!(member(&v, "agent-workflow-engine")["state"], "stub");
    let codex = member(&v, "codex-cli-bridge");
    assert_eq!(codex["state"], "foreign", "{codex:#}");
    assert!(codex["reason"].as_str().unwrap().contains("kind"));
    let agy = member(&v, "antigravity-cli-bridge");
    assert_eq!(agy["state"], "foreign", "{agy:#}");
    assert!(
        agy["reason"]
            .as_str()
            .unwrap()
            .contains("\"codex-cli-bridge\"")
    );
    assert_eq!(agy["version"], Value::Null);
    let (_, text) = ws.text(&["family", "status", "--format", "human"]);
    assert!(text.contains("agent-workflow-engine    stub"), "{text}");
    assert!(text.contains("    reason: "), "{text}");
}

#[test]
fn an_invalid_manifest_reports_the_validators_first_error() {
    let ws = family_ws();
    let root = skills(&ws);
    install_all(&root);
    set_json(&root.join("codex-cli-bridge/capability.json"), |v| {
        v["version"] = "9.9.9".into();
        v["family"] = "other".into();
    });
    let v = ws.ok(&["family", "status", "--json"]);
    let m = member(&v, "codex-cli-bridge");
    assert_eq!(m["state"], "invalid");
    // `family` is checked before the version.
    assert!(
        m["reason"].as_str().unwrap().starts_with("`family`"),
        "{m:#}"
    );
}

#[test]
fn a_crlf_skill_md_has_no_version_so_a_bridge_is_invalid() {
    // The validator's frontmatter reader (which aw uses everywhere) finds no frontmatter in a
    // CRLF file; the kit's installer has a second, looser reader that would say 3.5.0.
    let ws = family_ws();
    let root = skills(&ws);
    install_all(&root);
    let md = root.join("codex-cli-bridge/SKILL.md");
    let text = std::fs::read_to_string(&md).unwrap().replace('\n', "\r\n");
    std::fs::write(&md, text).unwrap();
    let v = ws.ok(&["family", "status", "--json"]);
    let m = member(&v, "codex-cli-bridge");
    assert_eq!(m["state"], "invalid", "{m:#}");
    assert!(m["reason"].as_str().unwrap().contains("SKILL.md"), "{m:#}");
    assert_eq!(m["version"], Value::Null);
}

#[test]
fn the_env_variable_overrides_the_default_and_an_empty_one_does_not() {
    let ws = family_ws();
    let elsewhere = ws.root().join("vendor/engine");
    copy_tree(
        &fixture_path("family/members/agent-workflow-engine"),
        &elsewhere,
    );
    let env = elsewhere.display().to_string();
    let (code, v) = ws.run_env(
        &["family", "status", "--json"],
        &[("AGENT_WORKFLOW_ENGINE_DIR", env.as_str())],
    );
    assert_eq!(code, 0);
    let m = member(&v, "agent-workflow-engine");
    assert_eq!(m["installed"]["via"], "env");
    assert_eq!(m["installed"]["envValue"], env.as_str());
    assert_eq!(m["state"], "ok");
    assert_eq!(m["dir"], env.as_str());
    // A relative value reads against the current folder.
    let (_, v) = ws.run_env(
        &["family", "status", "--json"],
        &[("AGENT_WORKFLOW_ENGINE_DIR", "vendor/engine")],
    );
    assert_eq!(member(&v, "agent-workflow-engine")["dir"], env.as_str());
    // Empty: the default (`~/…`), which holds nothing.
    let v = ws.ok(&["family", "status", "--json"]);
    let m = member(&v, "agent-workflow-engine");
    assert_eq!(m["installed"]["via"], "default");
    assert_eq!(m["state"], "not-installed");
}

#[test]
fn a_copy_under_another_root_is_found_after_the_detect_installed_one() {
    let ws = family_ws();
    install_all(&skills(&ws));
    let extra = ws.root().join("extra");
    copy_tree(
        &fixture_path("family/members/codex-cli-bridge"),
        &extra.join("codex-cli-bridge"),
    );
    std::fs::write(extra.join("codex-cli-bridge/capability.json"), "[]").unwrap();
    let v = ws.ok(&["family", "status", "--root", "extra", "--json"]);
    let m = member(&v, "codex-cli-bridge");
    assert_eq!(m["state"], "ok");
    let copies = m["copies"].as_array().unwrap();
    assert_eq!(copies.len(), 2);
    assert_eq!(copies[1]["found"], "root");
    assert_eq!(copies[1]["state"], "invalid");
    // Alone, the extra root's copy is listed but never speaks for the member: the kit looks
    // only where detect.installed points.
    let ws2 = family_ws();
    copy_tree(&extra, &ws2.root().join("extra"));
    let v = ws2.ok(&["family", "status", "--root", "extra", "--json"]);
    let m = member(&v, "codex-cli-bridge");
    assert_eq!(m["state"], "not-installed");
    assert_eq!(m["copies"][0]["state"], "invalid");
    let (_, text) = ws2.text(&["family", "status", "--root", "extra", "--format", "human"]);
    assert!(
        text.contains("also: <WS>/extra/codex-cli-bridge invalid"),
        "{text}"
    );
}

#[test]
fn freshness_against_a_bundled_copy() {
    let ws = family_ws();
    install_all(&skills(&ws));
    let bundle = ws.root().join("bridges");
    for (name, version) in [
        ("codex-cli-bridge", "3.10.0"),
        ("antigravity-cli-bridge", "5.2.9"),
        ("agent-workflow-engine", "3.1.0"),
    ] {
        std::fs::create_dir_all(bundle.join(name)).unwrap();
        std::fs::write(
            bundle.join(name).join("capability.json"),
            format!("{{\"version\":\"{version}\"}}"),
        )
        .unwrap();
    }
    let v = ws.ok(&["family", "status", "--bundled", "bridges", "--json"]);
    let fresh = |n: &str| member(&v, n)["bundled"]["freshness"].clone();
    assert_eq!(fresh("codex-cli-bridge"), "behind");
    // Newer than the bundle is current, as in the kit.
    assert_eq!(fresh("antigravity-cli-bridge"), "current");
    // The kit bundles only bridges: no bundled answer for the others.
    assert_eq!(member(&v, "agent-workflow-engine")["bundled"], Value::Null);
    assert_eq!(member(&v, "agent-workflow-kit")["bundled"], Value::Null);
    assert_eq!(
        member(&v, "codex-cli-bridge")["bundled"]["version"],
        "3.10.0"
    );
    let (_, text) = ws.text(&[
        "family",
        "status",
        "--bundled",
        "bridges",
        "--format",
        "human",
    ]);
    assert!(text.contains("bundled: 3.10.0 (behind)"), "{text}");
    assert!(text.contains("next: refresh the installed copy"), "{text}");
    // Without --bundled there is no freshness.
    let v = ws.ok(&["family", "status", "--json"]);
    assert_eq!(member(&v, "codex-cli-bridge")["bundled"], Value::Null);
}

#[test]
fn deployment_markers_are_checked_in_the_project() {
    let ws = family_ws();
    install_all(&skills(&ws));
    ws.write("docs/ai/.workflow-version", "7.1.0\n");
    let v = ws.ok(&["family", "status", "--project", ".", "--json"]);
    let kit = &member(&v, "agent-workflow-kit")["deployed"];
    assert_eq!(kit["file"], "docs/ai/.workflow-version");
    assert_eq!(kit["present"], true);
    assert_eq!(
        member(&v, "agent-workflow-memory")["deployed"]["present"],
        false
    );
    // A member that does not deploy into projects has no marker to check.
    assert_eq!(member(&v, "codex-cli-bridge")["deployed"], Value::Null);
    let v = ws.ok(&["family", "status", "--json"]);
    assert_eq!(member(&v, "agent-workflow-kit")["deployed"], Value::Null);
}

#[test]
fn the_roster_mirrors_the_real_manifests_detect_blocks() {
    // The static table exists because detection must work before a member is installed; this
    // keeps it honest against the manifests.
    for m in aw_core::family::MEMBERS {
        let path = fixture_path("family/members")
            .join(m.name)
            .join("capability.json");
        let v: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        assert_eq!(v["name"], m.name);
        assert_eq!(v["kind"], m.kind);
        let i = &v["detect"]["installed"];
        assert_eq!(i["env"], m.env);
        assert_eq!(i["default"], m.default);
        assert_eq!(i["file"], m.file);
        assert_eq!(v["detect"]["deployed"]["file"].as_str(), m.deployed);
    }
}

#[test]
fn a_variable_naming_an_empty_place_is_not_installed_even_with_a_copy_elsewhere() {
    let ws = family_ws();
    install_all(&skills(&ws));
    let (_, v) = ws.run_env(
        &["family", "status", "--json"],
        &[("CODEX_CLI_BRIDGE_DIR", "~/nowhere")],
    );
    let m = member(&v, "codex-cli-bridge");
    assert_eq!(m["state"], "not-installed", "{m:#}");
    assert_eq!(
        m["reason"],
        "no SKILL.md at CODEX_CLI_BRIDGE_DIR=~/nowhere (taken as written)"
    );
    assert_eq!(
        m["copies"][0]["found"], "root",
        "the default copy is still listed"
    );
}

#[test]
fn a_bundled_copy_that_cannot_be_read_is_a_corrupt_bundle_not_a_missing_one() {
    let ws = family_ws();
    install_all(&skills(&ws));
    ws.write("b/antigravity-cli-bridge/capability.json", "{ not json");
    let v = ws.ok(&["family", "status", "--bundled", "b", "--json"]);
    let b = &member(&v, "antigravity-cli-bridge")["bundled"];
    assert_eq!(b["present"], true, "{b:#}");
    assert!(b["error"].is_string());
    assert_eq!(b["freshness"], "unknown");
    let (_, text) = ws.text(&["family", "status", "--bundled", "b", "--format", "human"]);
    assert!(text.contains("corrupt bundle"), "{text}");
}

#[test]
fn a_bridge_that_is_not_ok_is_not_compared_with_its_bundle() {
    let ws = family_ws();
    install_all(&skills(&ws));
    std::fs::write(skills(&ws).join("codex-cli-bridge/capability.json"), "[]").unwrap();
    ws.write(
        "b/codex-cli-bridge/capability.json",
        r#"{"version":"9.0.0"}"#,
    );
    let v = ws.ok(&["family", "status", "--bundled", "b", "--json"]);
    let m = member(&v, "codex-cli-bridge");
    assert_eq!(m["bundled"]["freshness"], "not-checked", "{m:#}");
    let (_, text) = ws.text(&["family", "status", "--format", "human"]);
    assert!(text.contains("next: `aw manifest validate"), "{text}");
}

#[cfg(unix)]
#[test]
fn a_marker_that_is_not_a_regular_file_never_blocks_or_counts() {
    let ws = family_ws();
    install_all(&skills(&ws));
    // A folder named SKILL.md is no install.
    let engine = skills(&ws).join("agent-workflow-engine/SKILL.md");
    std::fs::remove_file(&engine).unwrap();
    std::fs::create_dir(&engine).unwrap();
    // A SKILL.md linked to a FIFO, and a package.json that is a FIFO: read, they would block.
    let codex = skills(&ws).join("codex-cli-bridge/SKILL.md");
    let fifo = ws.root().join("fifo");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    std::fs::remove_file(&codex).unwrap();
    std::os::unix::fs::symlink(&fifo, &codex).unwrap();
    let memory = skills(&ws).join("agent-workflow-memory/package.json");
    std::fs::remove_file(&memory).unwrap();
    std::os::unix::fs::symlink(&fifo, &memory).unwrap();
    // A huge sparse manifest is refused unread, never allocated.
    let kit = skills(&ws).join("agent-workflow-kit/capability.json");
    std::fs::File::create(&kit)
        .unwrap()
        .set_len(1 << 40)
        .unwrap();
    let v = ws.ok(&["family", "status", "--json"]);
    assert_eq!(
        member(&v, "agent-workflow-engine")["state"],
        "not-installed"
    );
    assert_eq!(member(&v, "codex-cli-bridge")["state"], "not-installed");
    assert_eq!(member(&v, "agent-workflow-memory")["state"], "invalid");
    assert_eq!(member(&v, "agent-workflow-kit")["state"], "invalid");
}

#[test]
fn a_deployment_stamp_counts_only_with_something_in_it() {
    let ws = family_ws();
    install_all(&skills(&ws));
    ws.write("p/docs/ai/.workflow-version", "  7.1.0\n");
    ws.write("p/docs/ai/.memory-version", " \n");
    let v = ws.ok(&["family", "status", "--project", "p", "--json"]);
    let kit = &member(&v, "agent-workflow-kit")["deployed"];
    assert_eq!(
        (kit["present"].clone(), kit["stamp"].clone()),
        (true.into(), "7.1.0".into())
    );
    assert_eq!(
        member(&v, "agent-workflow-memory")["deployed"]["present"],
        false
    );
}

#[cfg(unix)]
#[test]
fn a_skill_folder_reached_through_two_roots_is_one_copy() {
    let ws = family_ws();
    install_all(&skills(&ws));
    std::fs::create_dir_all(ws.home().join(".agents")).unwrap();
    std::os::unix::fs::symlink(skills(&ws), ws.home().join(".agents/skills")).unwrap();
    let v = ws.ok(&["family", "status", "--json"]);
    let m = member(&v, "codex-cli-bridge");
    assert_eq!(m["copies"].as_array().unwrap().len(), 1, "{m:#}");
}

#[test]
fn a_named_folder_that_is_not_there_is_warned_about() {
    let ws = family_ws();
    let v = ws.ok(&[
        "family",
        "status",
        "--bundled",
        "nope",
        "--project",
        "gone",
        "--json",
    ]);
    assert_eq!(
        v["warnings"],
        serde_json::json!([
            "--bundled nope is not a folder",
            "--project gone is not a folder"
        ])
    );
    let (_, text) = ws.text(&["family", "status", "--root", "x", "--format", "human"]);
    assert!(
        text.starts_with("warning: --root x is not a folder\n"),
        "{text}"
    );
}
