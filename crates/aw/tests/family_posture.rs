//! `aw family posture`: the configured posture line from the backends' `posture` blocks.

use crate::family_status::{family_ws, install_all, skills};
use crate::support::{copy_tree, fixture_path};
use serde_json::Value;

const LINE: &str =
    "codex model=gpt-5.6-sol effort=xhigh tier=standard · agy model=Gemini 3.7 Flash (High)";

#[test]
fn the_real_bridges_give_the_line() {
    let ws = family_ws();
    install_all(&skills(&ws));
    let v = ws.ok(&["family", "posture", "--json"]);
    assert_eq!(v["line"], LINE);
    assert_eq!(v["backends"][0]["name"], "codex-cli-bridge");
    assert_eq!(v["backends"][0]["posture"]["effort"], "xhigh");
    assert_eq!(v["backends"][0]["posture"]["tier"], Value::Null);
    assert_eq!(v["backends"][1]["state"], "pinned");
    let (code, text) = ws.text(&["family", "posture", "--format", "human"]);
    assert_eq!(code, 0);
    assert_eq!(text, format!("{LINE}\n"));
}

#[test]
fn a_missing_backend_is_skipped_and_none_gives_no_line() {
    let ws = family_ws();
    let root = skills(&ws);
    copy_tree(
        &fixture_path("family/members/antigravity-cli-bridge"),
        &root.join("antigravity-cli-bridge"),
    );
    let v = ws.ok(&["family", "posture", "--json"]);
    assert_eq!(v["line"], "agy model=Gemini 3.7 Flash (High)");
    assert_eq!(v["backends"][0]["state"], "not-installed");
    let empty = family_ws();
    let v = empty.ok(&["family", "posture", "--json"]);
    assert_eq!(v["line"], Value::Null);
    let (_, text) = empty.text(&["family", "posture", "--format", "human"]);
    assert!(text.starts_with("no configured posture"), "{text}");
}

#[test]
fn a_malformed_bundled_posture_silences_the_line_and_says_why() {
    let ws = family_ws();
    let bundle = ws.root().join("bridges");
    for name in ["codex-cli-bridge", "antigravity-cli-bridge"] {
        copy_tree(
            &fixture_path("family/members").join(name),
            &bundle.join(name),
        );
    }
    let v = ws.ok(&["family", "posture", "--bundled", "bridges", "--json"]);
    assert_eq!(v["line"], LINE);
    // A posture key outside the closed vocabulary: the validator's rule, not a weaker one.
    let path = bundle.join("antigravity-cli-bridge/capability.json");
    let mut m: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    m["posture"]["temperature"] = 0.into();
    std::fs::write(&path, serde_json::to_vec(&m).unwrap()).unwrap();
    let v = ws.ok(&["family", "posture", "--bundled", "bridges", "--json"]);
    assert_eq!(v["line"], Value::Null);
    assert_eq!(v["backends"][1]["state"], "invalid");
    assert!(
        v["backends"][1]["errors"][0]
            .as_str()
            .unwrap()
            .contains("temperature"),
        "{v:#}"
    );
    // An unreadable bundled manifest silences it too.
    std::fs::remove_dir_all(bundle.join("antigravity-cli-bridge")).unwrap();
    let v = ws.ok(&["family", "posture", "--bundled", "bridges", "--json"]);
    assert_eq!(v["line"], Value::Null);
    assert_eq!(v["backends"][1]["state"], "unreadable");
}

#[test]
fn an_active_tier_setting_is_the_codex_tier_and_says_so() {
    let ws = family_ws()
        .without_env("XDG_CONFIG_HOME")
        .without_env("CODEX_SERVICE_TIER");
    install_all(&skills(&ws));
    // From the settings file (under HOME/.config without XDG_CONFIG_HOME).
    ws.ok(&[
        "family",
        "settings",
        "set",
        "CODEX_SERVICE_TIER",
        "priority",
    ]);
    let v = ws.ok(&["family", "posture", "--json"]);
    assert_eq!(
        v["line"],
        "codex model=gpt-5.6-sol effort=xhigh tier=priority (bridge-settings) · agy model=Gemini 3.7 Flash (High)"
    );
    // A variable set but empty makes the wrappers skip the file's line: no active tier.
    let (_, v) = ws.run_env(
        &["family", "posture", "--json"],
        &[("CODEX_SERVICE_TIER", "")],
    );
    assert_eq!(v["line"], LINE);
    // Unset again: the manifest's tier (standard) is back.
    ws.ok(&["family", "settings", "unset", "CODEX_SERVICE_TIER"]);
    assert_eq!(ws.ok(&["family", "posture", "--json"])["line"], LINE);
    // A value the kind refuses is not a tier.
    let bad = family_ws().with_env("CODEX_SERVICE_TIER", "turbo");
    install_all(&skills(&bad));
    assert_eq!(bad.ok(&["family", "posture", "--json"])["line"], LINE);
}

#[test]
fn a_malformed_installed_posture_silences_the_line_too() {
    let ws = family_ws();
    let root = skills(&ws);
    install_all(&root);
    // The copy is invalid because of its posture: it still speaks, and silences the line.
    let path = root.join("codex-cli-bridge/capability.json");
    let mut m: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    m["posture"]["colour"] = "red".into();
    std::fs::write(&path, serde_json::to_vec(&m).unwrap()).unwrap();
    let v = ws.ok(&["family", "posture", "--json"]);
    assert_eq!(v["line"], Value::Null, "{v:#}");
    assert_eq!(v["backends"][0]["state"], "invalid");
    assert_eq!(v["backends"][0]["ladder"], "invalid");
}

#[test]
fn an_installed_copy_invalid_for_another_reason_keeps_its_posture_and_says_so() {
    let ws = family_ws();
    let root = skills(&ws);
    install_all(&root);
    let skill = root.join("codex-cli-bridge/SKILL.md");
    let crlf = std::fs::read_to_string(&skill)
        .unwrap()
        .replace('\n', "\r\n");
    std::fs::write(&skill, crlf).unwrap();
    let v = ws.ok(&["family", "posture", "--json"]);
    assert_eq!(v["line"], LINE, "{v:#}");
    assert_eq!(v["backends"][0]["ladder"], "invalid");
    let (_, text) = ws.text(&["family", "posture", "--format", "human"]);
    assert!(text.contains("installed copy is invalid"), "{text}");
}

#[test]
fn a_posture_value_cannot_forge_a_line_in_the_human_view() {
    let ws = family_ws();
    let bundle = ws.root().join("bridges");
    for name in ["codex-cli-bridge", "antigravity-cli-bridge"] {
        copy_tree(
            &fixture_path("family/members").join(name),
            &bundle.join(name),
        );
    }
    let path = bundle.join("codex-cli-bridge/capability.json");
    let mut m: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    m["posture"]["model"] = "gpt\n    forged: line \u{202e}x".into();
    std::fs::write(&path, serde_json::to_vec(&m).unwrap()).unwrap();
    let (_, text) = ws.text(&[
        "family",
        "posture",
        "--bundled",
        "bridges",
        "--format",
        "human",
    ]);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(!text.contains('\u{202e}'));
}

#[test]
fn a_foreign_copy_is_no_posture_and_silences_nothing() {
    let ws = family_ws();
    install_all(&skills(&ws));
    let agy = skills(&ws).join("antigravity-cli-bridge");
    let (_, v) = ws.run_env(
        &["family", "posture", "--json"],
        &[("CODEX_CLI_BRIDGE_DIR", agy.to_str().unwrap())],
    );
    assert_eq!(v["line"], "agy model=Gemini 3.7 Flash (High)", "{v:#}");
    assert_eq!(v["backends"][0]["state"], "not-installed");
    assert_eq!(v["backends"][0]["ladder"], "foreign");
}
