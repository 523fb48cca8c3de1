//! `aw schema`: the JSON Schema of each typed output and of the failure envelope, and
//! `docs/schemas/`, which must be what `aw schema --all` writes. (Every JSON output the suite
//! reads is validated against these files by `support::wire`.)

use crate::support::Ws;
use std::collections::BTreeMap;
use std::path::Path;

fn docs_schemas() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/schemas")
}

fn files_of(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect()
}

#[test]
fn docs_schemas_are_what_the_types_generate() {
    let ws = Ws::bare();
    let out = ws.root().join("schemas");
    let written = ws.ok(&["schema", "--all", out.to_str().unwrap()]);
    let generated = files_of(&out);
    let kept = files_of(&docs_schemas());
    let names: Vec<&String> = generated.keys().collect();
    assert_eq!(
        names,
        kept.keys().collect::<Vec<_>>(),
        "docs/schemas/ holds other files than `aw schema --all` writes: run \
         `cargo run -- schema --all docs/schemas` (and remove what it no longer writes)"
    );
    for (name, bytes) in &generated {
        assert!(
            kept[name] == *bytes,
            "docs/schemas/{name} drifted from the types: run `cargo run -- schema --all docs/schemas`"
        );
    }
    assert_eq!(written["files"].as_array().unwrap().len(), generated.len());
}

#[test]
fn each_schema_is_printed_by_name_and_the_list_ends_with_the_envelope() {
    let ws = Ws::bare();
    let index = ws.ok(&["schema"]);
    let names: Vec<&str> = index["schemas"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert_eq!(names.last(), Some(&"error"));
    for name in ["next-number", "stack", "designs", "error"] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
        let printed = ws.ok(&["schema", name]);
        assert_eq!(
            printed["$schema"], "https://json-schema.org/draft/2020-12/schema",
            "{name}"
        );
        let kept: serde_json::Value = serde_json::from_slice(
            &std::fs::read(docs_schemas().join(format!("{name}.json"))).unwrap(),
        )
        .unwrap();
        assert_eq!(printed, kept, "{name}");
    }
}

#[test]
fn a_command_without_a_typed_output_is_refused_with_the_names_known() {
    let ws = Ws::bare();
    let v = ws.fails(&["schema", "hook"], "ARGS_INVALID");
    let action = v["data"]["action"].as_str().unwrap();
    assert!(
        action.contains("next-number") && action.contains("error"),
        "{action}"
    );
    ws.fails(&["schema", "stack", "--all", "x"], "ARGS_INVALID");
    assert!(
        !ws.root().join("x").exists(),
        "a refused --all writes nothing"
    );
}

#[test]
fn the_envelope_schema_refuses_what_is_not_an_envelope() {
    let schema: serde_json::Value =
        serde_json::from_slice(&std::fs::read(docs_schemas().join("error.json")).unwrap()).unwrap();
    let v = jsonschema::draft202012::new(&schema).unwrap();
    let good = serde_json::json!({
        "ok": false,
        "error": {"code": "ARGS_INVALID", "message": "m"},
        "data": {"action": "a"}
    });
    assert!(v.is_valid(&good));
    for bad in [
        serde_json::json!({"ok": true, "error": {"code": "ARGS_INVALID", "message": "m"}, "data": {"action": "a"}}),
        serde_json::json!({"ok": false, "error": {"code": "NOT_A_CODE", "message": "m"}, "data": {"action": "a"}}),
        serde_json::json!({"ok": false, "error": {"code": "ARGS_INVALID", "message": "m"}, "data": {}}),
    ] {
        assert!(!v.is_valid(&bad), "{bad}");
    }
}

/// `error.details` is typed: the envelope schema names each shape a failure's details can take,
/// and refuses what is none of them.
#[test]
fn the_envelope_schema_names_every_shape_of_details() {
    let schema: serde_json::Value =
        serde_json::from_slice(&std::fs::read(docs_schemas().join("error.json")).unwrap()).unwrap();
    let details = &schema["$defs"]["ErrorBody"]["properties"]["details"];
    let refs: Vec<&str> = details["anyOf"]
        .as_array()
        .expect("details is an anyOf, not an open schema")
        .iter()
        .filter_map(|s| s["$ref"].as_str())
        .collect();
    assert_eq!(refs, ["#/$defs/Details"], "{details}");
    let variants: Vec<&str> = schema["$defs"]["Details"]["anyOf"]
        .as_array()
        .expect("Details is an anyOf of its variants")
        .iter()
        .map(|s| s["$ref"].as_str().expect("each variant is a named shape"))
        .collect();
    assert_eq!(
        variants,
        [
            "#/$defs/ArgumentDetails",
            "#/$defs/LockHeld",
            "#/$defs/InitFailed",
            "#/$defs/VisibilityFailureDetails",
            "#/$defs/SelfFailureDetails",
            "#/$defs/UnknownSource",
            "#/$defs/UnknownCommand",
            "#/$defs/UnknownKeyDetails",
            "#/$defs/RetiredKeyDetails",
            "#/$defs/InvalidValueDetails",
        ]
    );
    let v = jsonschema::draft202012::new(&schema).unwrap();
    let with = |details: serde_json::Value| {
        serde_json::json!({
            "ok": false,
            "error": {"code": "LOCK_BUSY", "message": "m", "details": details},
            "data": {"action": "a"}
        })
    };
    assert!(v.is_valid(&with(serde_json::json!({"pid": "42"}))));
    assert!(v.is_valid(&with(
        serde_json::json!({"argument": "--x", "valid_flags": ["--help"]})
    )));
    // No shape takes a key it does not name, so an object that is none of them is refused.
    for bad in [
        serde_json::json!("42"),
        serde_json::json!(42),
        serde_json::json!(["a"]),
        serde_json::json!({"pid": 42}),
        serde_json::json!({"anything": "x", "key": 5}),
        serde_json::json!({"pid": "1", "extra": true}),
        serde_json::json!({"argument": "--x", "stray": 1}),
    ] {
        assert!(!v.is_valid(&with(bad.clone())), "{bad}");
    }
}

#[test]
fn next_number_output_keeps_its_claim_keys_as_null_when_nothing_is_claimed() {
    let ws = Ws::new();
    let v = ws.ok(&["next-number", "docs/specs", "--dry-run"]);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "directory",
            "exists",
            "created",
            "current_max",
            "next",
            "files",
            "claimed_path",
            "claimed_owner",
            "claim_reused"
        ]
    );
    assert!(v["claimed_path"].is_null() && v["claimed_owner"].is_null());
    assert_eq!(v["claim_reused"], false);
}

/// The recorded wire fails open on a run it has no digest for (a new test, an output that
/// depends on time), so a record that lost most of its lines would check almost nothing and
/// still pass: it must keep covering the suite.
#[test]
fn the_recorded_wire_still_covers_the_suite() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/wire/recorded.tsv");
    let text = std::fs::read_to_string(&path).unwrap();
    let runs = text.lines().filter(|l| !l.starts_with('#')).count();
    let tests: std::collections::BTreeSet<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split('\t').next())
        .collect();
    assert!(
        runs >= 1_500 && tests.len() >= 300,
        "{} holds {runs} runs of {} tests: record it again with scripts/wire-record.sh",
        path.display(),
        tests.len()
    );
}

/// A schema says what a command prints, not just its shape: no key it never prints, and the
/// constants it always prints as themselves.
#[test]
fn the_schemas_refuse_keys_and_values_the_commands_never_print() {
    let validator = |name: &str| {
        let schema: serde_json::Value = serde_json::from_slice(
            &std::fs::read(docs_schemas().join(format!("{name}.json"))).unwrap(),
        )
        .unwrap();
        jsonschema::draft202012::new(&schema).unwrap()
    };
    let ws = Ws::new();
    let mut printed = ws.ok(&["next-number", "docs/specs", "--dry-run"]);
    let next = validator("next-number");
    assert!(next.is_valid(&printed));
    printed["extra"] = serde_json::json!(1);
    assert!(!next.is_valid(&printed), "a key next-number never prints");
    let kept = serde_json::json!({
        "session": "001-a-quick",
        "checkpoint_path": "/p/CHECKPOINT.md",
        "skipped": true,
        "preserved": true,
        "reason": "kept"
    });
    let write = validator("checkpoint-write");
    assert!(write.is_valid(&kept));
    let mut not_skipped = kept.clone();
    not_skipped["skipped"] = serde_json::json!(false);
    assert!(
        !write.is_valid(&not_skipped),
        "a kept checkpoint is always skipped"
    );
    let missing = serde_json::json!({"session": "001-a-quick", "checkpoint": {}, "reason": "r"});
    assert!(
        !validator("checkpoint-read").is_valid(&missing),
        "a missing checkpoint is null"
    );
}
