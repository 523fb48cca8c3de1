//! `aw family modes`: the mode catalog renderer over the real members and hand-written catalogs.

use crate::support::{Ws, copy_tree, fixture_path};

fn member(name: &str) -> String {
    fixture_path("family/members")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn codex_catalog_composes_forms_from_the_contract() {
    let ws = Ws::bare();
    let v = ws.ok(&["family", "modes", &member("codex-cli-bridge")]);
    assert_eq!(v["valid"], true);
    assert_eq!(v["catalog"]["state"], "present");
    let exec = &v["catalog"]["modes"][0];
    assert_eq!(exec["key"], "exec");
    assert_eq!(exec["kind"], "primary");
    assert_eq!(exec["role"], "execute");
    let form = &exec["forms"][0];
    assert_eq!(form["from"], "roles.execute.contract.invocations[0]");
    assert_eq!(form["text"], "codex-exec [--nonce <n>] <plan-file|->");
    assert_eq!(form["template"], true);
    assert_eq!(form["required"], serde_json::json!(["<plan-file|->"]));
    assert_eq!(exec["customHooks"], serde_json::json!(["CODEX_PROBE"]));
    let g = &exec["guardrails"][2];
    assert_eq!(g["enforcement"], "enforced");
    assert!(g["condition"].as_str().unwrap().contains("timeout"));
    // Every member with a catalog renders, and every form of it resolved.
    for name in ["codex-cli-bridge", "antigravity-cli-bridge"] {
        let v = ws.ok(&["family", "modes", &member(name)]);
        let modes = v["catalog"]["modes"].as_array().unwrap();
        assert!(!modes.is_empty(), "{name}");
        assert!(
            modes
                .iter()
                .all(|m| !m["forms"].as_array().unwrap().is_empty()),
            "{name}"
        );
    }
}

#[test]
fn members_without_the_block_predate_the_catalog() {
    let ws = Ws::bare();
    for name in [
        "agent-workflow-kit",
        "agent-workflow-engine",
        "agent-workflow-memory",
    ] {
        let v = ws.ok(&["family", "modes", &member(name)]);
        assert_eq!(v["catalog"]["state"], "absent", "{name}");
    }
    let (code, text) = ws.text(&[
        "family",
        "modes",
        &member("agent-workflow-kit"),
        "--format",
        "human",
    ]);
    assert_eq!(code, 0);
    assert_eq!(text, "no catalog — this member predates it\n");
}

const SMALL: &str = r#"{"family":"agent-workflow","schema":1,"name":"m","kind":"execution-backend",
"version":"1.0.0","provides":["review"],
"roles":{"review":{"cmd":"m-review","source":"bin/run.sh",
  "contract":{"invocations":["m-review <file>","m-review --all"],"continue":["m-review --again [<note>]"]}}},
"modeCatalog":[
 {"key":"one","kind":"primary","role":"review","purpose":"Review one file.","whenToUse":["a file"],
  "invocationRefs":[{"contractField":"invocations","index":0}],
  "operands":[{"slot":"<file>","required":true,"description":"the file"}],
  "guardrails":[{"value":"read-only","enforcement":"advisory","condition":"when asked","source":"docs"}],
  "customHooks":["M_DEBUG"]},
 {"key":"all","kind":"primary","role":"review","purpose":"Review all.","whenToUse":["everything"],
  "invocationRefs":[{"contractField":"invocations","index":1}]},
 {"key":"again","kind":"continuation","role":"review","purpose":"Again.","whenToUse":["more"],
  "invocationRefs":[{"contractField":"continue","index":0}],
  "operands":[{"slot":"[<note>]","required":false,"description":"a note"}]},
 {"key":"M_DEBUG","kind":"env-hook","parents":["one"],"purpose":"Debug.","whenToUse":["debugging"],
  "descriptor":"M_DEBUG=1 m-review <file>","operands":[{"slot":"<file>","required":true,"description":"f"}]}
]}"#;

fn small(ws: &Ws, manifest: &str) -> String {
    let d = ws.root().join("m");
    std::fs::create_dir_all(d.join("bin")).unwrap();
    std::fs::write(d.join("bin/run.sh"), "#!/bin/sh\n").unwrap();
    std::fs::write(
        d.join("SKILL.md"),
        "---\nname: m\nmetadata:\n  version: '1.0.0'\n---\n",
    )
    .unwrap();
    std::fs::write(d.join("capability.json"), manifest).unwrap();
    d.to_string_lossy().into_owned()
}

#[test]
fn unfilled_slots_make_templates_naming_required_operands() {
    let ws = Ws::bare();
    let dir = small(&ws, SMALL);
    let v = ws.ok(&["family", "modes", &dir]);
    assert_eq!(v["valid"], true, "{v:#}");
    let modes = &v["catalog"]["modes"];
    assert_eq!(modes[0]["forms"][0]["template"], true);
    assert_eq!(
        modes[0]["forms"][0]["required"],
        serde_json::json!(["<file>"])
    );
    // No slot: a ready command, not a template.
    assert_eq!(modes[1]["forms"][0]["template"], false);
    // Only optional slots: a template with nothing required.
    assert_eq!(modes[2]["forms"][0]["template"], true);
    assert_eq!(modes[2]["forms"][0]["required"], serde_json::json!([]));
    assert_eq!(modes[3]["forms"][0]["from"], "descriptor");
    assert_eq!(modes[3]["parents"], serde_json::json!(["one"]));
    let (_, text) = ws.text(&["family", "modes", &dir, "--format", "human"]);
    assert!(
        text.contains("m-review <file>  [template; required: <file>]\n"),
        "{text}"
    );
    assert!(text.contains("    m-review --all\n"), "{text}");
    assert!(
        text.contains("m-review --again [<note>]  [template]\n"),
        "{text}"
    );
    assert!(
        text.contains("- [advisory] read-only\n      only when: when asked\n"),
        "{text}"
    );
    assert!(text.contains("hooks: M_DEBUG\n"), "{text}");
    assert!(
        text.contains("M_DEBUG (env-hook, modifies one)\n"),
        "{text}"
    );
    assert!(!text.contains("warning"), "{text}");
}

#[test]
fn an_invalid_manifest_is_flagged_and_a_missing_one_fails() {
    let ws = Ws::bare();
    let dir = small(&ws, &SMALL.replace("\"index\":1", "\"index\":7"));
    let v = ws.ok(&["family", "modes", &dir]);
    assert_eq!(v["valid"], false);
    assert_eq!(v["catalog"]["modes"][1]["forms"], serde_json::json!([]));
    let (_, text) = ws.text(&["family", "modes", &dir, "--format", "human"]);
    assert!(
        text.starts_with("warning: this manifest does not validate"),
        "{text}"
    );

    let f = ws.failure(&["family", "modes", "nowhere"]);
    assert_eq!(f["error"]["code"], "FAMILY_MANIFEST_UNREADABLE");
    let dir = small(&ws, "[1]");
    let f = ws.failure(&["family", "modes", &dir]);
    assert_eq!(f["error"]["code"], "FAMILY_MANIFEST_MALFORMED");
}

#[test]
fn a_reference_that_names_no_form_is_shown_unresolved_never_as_a_command() {
    let ws = Ws::bare();
    let dir = ws.root().join("codex");
    copy_tree(&fixture_path("family/members/codex-cli-bridge"), &dir);
    let path = dir.join("capability.json");
    let mut m: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let first = &mut m["modeCatalog"][0]["invocationRefs"];
    first[0]["index"] = 99.into();
    first
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"contractField": "notes", "index": 0}));
    std::fs::write(&path, serde_json::to_vec(&m).unwrap()).unwrap();
    let d = dir.to_string_lossy().into_owned();
    let v = ws.ok(&["family", "modes", &d]);
    let mode = &v["catalog"]["modes"][0];
    let unresolved: Vec<&str> = mode["unresolved"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u.as_str().unwrap())
        .collect();
    assert_eq!(unresolved.len(), 2, "{mode:#}");
    assert!(unresolved[0].ends_with(".contract.invocations[99]"));
    assert!(unresolved[1].ends_with(".contract.notes[0]"));
    assert!(
        mode["forms"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["from"].as_str().unwrap().contains(".invocations[")),
        "{mode:#}"
    );
    let (_, text) = ws.text(&["family", "modes", &d, "--format", "human"]);
    assert!(text.contains("(unresolved: roles."), "{text}");
}

#[test]
fn a_manifest_string_cannot_add_a_line_to_the_human_view() {
    let ws = Ws::bare();
    let dir = ws.root().join("codex");
    copy_tree(&fixture_path("family/members/codex-cli-bridge"), &dir);
    let path = dir.join("capability.json");
    let mut m: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    m["modeCatalog"][0]["invocationRefs"][0]["contractField"] =
        "invocations\n  use when: FAKE".into();
    m["modeCatalog"][0]["purpose"] = "real\nnot when:\n    - FORGED".into();
    std::fs::write(&path, serde_json::to_vec(&m).unwrap()).unwrap();
    let d = dir.to_string_lossy().into_owned();
    let (_, text) = ws.text(&["family", "modes", &d, "--format", "human"]);
    assert!(
        !text
            .lines()
            .any(|l| l.trim_start().starts_with("use when: FAKE")),
        "{text}"
    );
    assert!(!text.lines().any(|l| l.trim() == "- FORGED"), "{text}");
}
