//! `aw capability descriptor validate`: descriptor files and sealed skill folders.

use crate::support::Ws;
use aw_core::canonical::sha256_hex;
use aw_core::capability::builtin::DESIGN_DESCRIPTOR_JSON;
use serde_json::Value;

const KEY: &str = "workline-capability-descriptor";

/// A skill folder `skill/` whose SKILL.md carries `locator` and whose descriptor is `text`.
fn skill(ws: &Ws, locator: &str, text: &str) {
    ws.write(
        "skill/SKILL.md",
        &format!("---\nname: design\nmetadata:\n  version: '1.0.0'\n  {KEY}: \"{locator}\"\n---\n# Design\n"),
    );
    ws.write("skill/workline-capability.json", text);
}

fn sealed(text: &str) -> String {
    format!(
        "workline-capability.json#sha256={}",
        sha256_hex(text.as_bytes())
    )
}

fn broken() -> String {
    let mut d: Value = serde_json::from_str(DESIGN_DESCRIPTOR_JSON).unwrap();
    d["purpose"] = Value::from("  ");
    d["operations"][2]["exposure"] = serde_json::json!(["direct", "mail"]);
    d["floor"]["builtin"] = Value::Bool(false);
    serde_json::to_string_pretty(&d).unwrap()
}

#[test]
fn a_valid_descriptor_file_reports_its_name_and_operations() {
    let ws = Ws::new();
    ws.write("design.json", DESIGN_DESCRIPTOR_JSON);
    let v = ws.ok(&[
        "capability",
        "descriptor",
        "validate",
        "design.json",
        "--json",
    ]);
    assert_eq!(v["ok"], true);
    assert_eq!(v["descriptor"]["name"], "design");
    assert_eq!(
        v["descriptor"]["operations"],
        serde_json::json!(["create", "update", "validate", "render", "record"])
    );
}

#[test]
fn an_invalid_file_lists_every_failure_with_path_and_action() {
    let ws = Ws::new();
    ws.write("bad.json", &broken());
    let v = ws.fails(
        &["capability", "descriptor", "validate", "bad.json", "--json"],
        "CAPABILITY_FIELD_INVALID",
    );
    let failures = v["data"]["failures"].as_array().unwrap();
    let paths: Vec<&str> = failures
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["purpose", "operations[2].exposure", "floor.kind"]);
    assert_eq!(failures[1]["artifact"], "bad.json (validate)");
    assert!(
        failures
            .iter()
            .all(|f| !f["action"].as_str().unwrap().is_empty())
    );
}

#[test]
fn human_output_gives_one_line_per_failure() {
    let ws = Ws::new();
    ws.write("bad.json", &broken());
    let (code, text) = ws.text(&[
        "--format",
        "human",
        "capability",
        "descriptor",
        "validate",
        "bad.json",
    ]);
    assert_eq!(code, 1);
    assert!(text.contains("bad.json › purpose: "), "{text}");
    assert!(
        text.contains("bad.json (validate) › operations[2].exposure: "),
        "{text}"
    );
    assert_eq!(
        text.lines().filter(|l| l.contains(" → ")).count(),
        3,
        "{text}"
    );
}

#[test]
fn a_skill_folder_is_read_through_its_sealed_locator() {
    let ws = Ws::new();
    skill(&ws, &sealed(DESIGN_DESCRIPTOR_JSON), DESIGN_DESCRIPTOR_JSON);
    let v = ws.ok(&["capability", "descriptor", "validate", "skill", "--json"]);
    assert_eq!(v["descriptor"]["name"], "design");
}

#[test]
fn a_bad_locator_is_refused() {
    let ws = Ws::new();
    let digest = sha256_hex(DESIGN_DESCRIPTOR_JSON.as_bytes());
    for locator in [
        format!("../workline-capability.json#sha256={digest}"),
        format!("workline-capability.json#sha256={}", digest.to_uppercase()),
        "workline-capability.json".to_owned(),
    ] {
        skill(&ws, &locator, DESIGN_DESCRIPTOR_JSON);
        let v = ws.fails(
            &["capability", "descriptor", "validate", "skill", "--json"],
            "CAPABILITY_LOCATOR_INVALID",
        );
        assert_eq!(v["data"]["failures"][0]["artifact"], "skill/SKILL.md");
    }
}

#[test]
fn bytes_that_do_not_match_the_seal_are_refused_before_they_are_read_as_json() {
    let ws = Ws::new();
    // Sealed for the design descriptor, but the bytes are not even JSON: the digest speaks first.
    skill(&ws, &sealed(DESIGN_DESCRIPTOR_JSON), "{ not json");
    ws.fails(
        &["capability", "descriptor", "validate", "skill", "--json"],
        "CAPABILITY_DESCRIPTOR_DIGEST_MISMATCH",
    );
    // Sealed bytes that are not JSON.
    skill(&ws, &sealed("{ not json"), "{ not json");
    ws.fails(
        &["capability", "descriptor", "validate", "skill", "--json"],
        "CAPABILITY_DESCRIPTOR_NOT_JSON",
    );
    // Sealed JSON with an unknown version.
    let v2 =
        DESIGN_DESCRIPTOR_JSON.replacen("\"contract_version\": 1", "\"contract_version\": 2", 1);
    skill(&ws, &sealed(&v2), &v2);
    ws.fails(
        &["capability", "descriptor", "validate", "skill", "--json"],
        "CAPABILITY_CONTRACT_VERSION_UNSUPPORTED",
    );
}

#[test]
fn a_missing_file_is_an_io_error() {
    let ws = Ws::new();
    ws.fails(
        &[
            "capability",
            "descriptor",
            "validate",
            "nope.json",
            "--json",
        ],
        "IO_ERROR",
    );
}

#[test]
fn capability_help_lists_the_descriptor_group() {
    let ws = Ws::new();
    let (code, text) = ws.text(&["capability", "--help"]);
    assert_eq!(code, 0);
    assert!(text.contains("descriptor"), "{text}");
    let (code, text) = ws.text(&["capability", "descriptor", "validate", "--help"]);
    assert_eq!(code, 0);
    assert!(text.contains("sha256"), "{text}");
}

#[cfg(unix)]
#[test]
fn a_skill_folder_whose_descriptor_links_out_of_it_is_refused() {
    let ws = Ws::new();
    skill(&ws, &sealed(DESIGN_DESCRIPTOR_JSON), DESIGN_DESCRIPTOR_JSON);
    // The sealed bytes are right, but they live outside the folder: the link is refused
    // before anything is read through it.
    ws.write("elsewhere/d.json", DESIGN_DESCRIPTOR_JSON);
    let descriptor = ws.root().join("skill/workline-capability.json");
    std::fs::remove_file(&descriptor).unwrap();
    std::os::unix::fs::symlink(ws.root().join("elsewhere/d.json"), &descriptor).unwrap();
    let v = ws.fails(
        &["capability", "descriptor", "validate", "skill", "--json"],
        "CAPABILITY_DESCRIPTOR_NOT_CONFINED",
    );
    assert_eq!(
        v["data"]["failures"][0]["artifact"],
        "skill/workline-capability.json"
    );
    // So is a folder on the way that is a link out.
    let digest = sha256_hex(DESIGN_DESCRIPTOR_JSON.as_bytes());
    skill(
        &ws,
        &format!("sub/d.json#sha256={digest}"),
        DESIGN_DESCRIPTOR_JSON,
    );
    std::os::unix::fs::symlink(ws.root().join("elsewhere"), ws.root().join("skill/sub")).unwrap();
    ws.fails(
        &["capability", "descriptor", "validate", "skill", "--json"],
        "CAPABILITY_DESCRIPTOR_NOT_CONFINED",
    );
}

#[test]
fn a_skill_folder_without_its_sealed_descriptor_names_it_missing() {
    let ws = Ws::new();
    let digest = sha256_hex(DESIGN_DESCRIPTOR_JSON.as_bytes());
    skill(
        &ws,
        &format!("absent.json#sha256={digest}"),
        DESIGN_DESCRIPTOR_JSON,
    );
    let v = ws.fails(
        &["capability", "descriptor", "validate", "skill", "--json"],
        "CAPABILITY_DESCRIPTOR_MISSING",
    );
    assert_eq!(v["data"]["failures"][0]["artifact"], "skill/absent.json");
}
