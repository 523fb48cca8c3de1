//! The published `capability-descriptor.schema.json` (draft 2020-12) held to the rule-by-rule
//! validator, in tests only.
//!
//! The validator is the reference's behaviour and is the stricter of the two (non-blank text,
//! `default_operation` among the operations, the version ceiling, …). Checking the schema again
//! at run time, after the rules accepted a descriptor, only ever cross-checked the rules, and
//! cost the binary a JSON Schema engine; so the drift-guard tests below hold the two to the same
//! contract instead: the schema accepts every descriptor the rules accept (the built-in ones and
//! every mutation of the maximal one), and its closed objects, patterns and effect classes are
//! the rules' own.

use super::validate::Failure;
use crate::error_code::ErrorCode;
use jsonschema::Validator;
use serde_json::Value;
use std::sync::LazyLock;

/// The published schema's bytes.
pub const DESCRIPTOR_SCHEMA_JSON: &str = include_str!("descriptor.schema.json");

/// The compiled schema; `Err` carries why it did not compile (a test proves it does).
static COMPILED: LazyLock<Result<Validator, String>> = LazyLock::new(|| {
    let schema: Value = serde_json::from_str(DESCRIPTOR_SCHEMA_JSON).map_err(|e| e.to_string())?;
    jsonschema::draft202012::new(&schema).map_err(|e| e.to_string())
});

/// A JSON Pointer (`/operations/0/name`) in the validator's notation (`operations[0].name`).
fn dotted(pointer: &str) -> String {
    let mut out = String::new();
    for seg in pointer.split('/').skip(1) {
        let seg = seg.replace("~1", "/").replace("~0", "~");
        if !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(&format!("[{seg}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&seg);
        }
    }
    out
}

/// Every place `value` breaks the published schema.
pub fn schema_failures(value: &Value, artifact: &str) -> Vec<Failure> {
    let validator = match COMPILED.as_ref() {
        Ok(v) => v,
        Err(why) => {
            return vec![Failure {
                code: ErrorCode::CapabilityFieldInvalid,
                artifact: artifact.to_owned(),
                path: String::new(),
                message: format!("the built-in descriptor schema does not compile: {why}"),
                action: "report this as a bug in aw".to_owned(),
            }];
        }
    };
    validator
        .iter_errors(value)
        .map(|e| {
            let path = dotted(e.instance_path().as_str());
            Failure {
                code: ErrorCode::CapabilityFieldInvalid,
                artifact: artifact.to_owned(),
                message: format!("the descriptor schema refuses '{path}': {e}"),
                action: "make the field match workline.capability-descriptor/v1 (see capability-descriptor.schema.json)".to_owned(),
                path,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capability::grammar::FRAGMENTS;
    use crate::capability::validate::{ALLOWED_KEYS, check, effect_class_names, validate};
    use serde_json::json;
    use std::collections::BTreeSet;

    const MAXIMAL: &str = include_str!("testdata/descriptor-maximal.json");

    fn schema() -> Value {
        serde_json::from_str(DESCRIPTOR_SCHEMA_JSON).unwrap()
    }

    fn maximal() -> Value {
        serde_json::from_str(MAXIMAL).unwrap()
    }

    fn join(prefix: &str, key: &str) -> String {
        if prefix.is_empty() {
            key.to_owned()
        } else {
            format!("{prefix}.{key}")
        }
    }

    /// Every property path of the schema, and every closed object with its keys.
    fn walk(
        node: &Value,
        prefix: &str,
        paths: &mut BTreeSet<String>,
        closed: &mut Vec<(String, Vec<String>)>,
        patterns: &mut Vec<String>,
    ) {
        if let Some(p) = node.get("pattern").and_then(Value::as_str) {
            patterns.push(p.to_owned());
        }
        if let Some(props) = node.get("properties").and_then(Value::as_object) {
            if node.get("additionalProperties") == Some(&Value::Bool(false)) {
                closed.push((prefix.to_owned(), props.keys().cloned().collect()));
            }
            for (k, child) in props {
                let path = join(prefix, k);
                paths.insert(path.clone());
                walk(child, &path, paths, closed, patterns);
            }
        }
        if let Some(items) = node.get("items") {
            walk(items, &format!("{prefix}[]"), paths, closed, patterns);
        }
    }

    /// Property paths, closed objects with their keys, patterns.
    type Walked = (BTreeSet<String>, Vec<(String, Vec<String>)>, Vec<String>);

    fn walked() -> Walked {
        let (mut paths, mut closed, mut patterns) = (BTreeSet::new(), Vec::new(), Vec::new());
        walk(&schema(), "", &mut paths, &mut closed, &mut patterns);
        (paths, closed, patterns)
    }

    #[test]
    fn the_embedded_schema_compiles_and_accepts_the_valid_descriptors() {
        assert!(COMPILED.is_ok(), "{:?}", COMPILED.as_ref().err());
        assert_eq!(schema_failures(&maximal(), "x"), []);
        let design: Value =
            serde_json::from_str(crate::capability::builtin::DESIGN_DESCRIPTOR_JSON).unwrap();
        assert_eq!(schema_failures(&design, "x"), []);
    }

    #[test]
    fn schema_failures_carry_the_path() {
        let mut v = maximal();
        v["operations"][1]["effects"][0]["class"] = json!("teleport");
        let f = schema_failures(&v, "x");
        assert!(
            f.iter().any(|f| f.path == "operations[1].effects[0].class"),
            "{f:?}"
        );
    }

    // (a) Every property path the schema declares is read, and nothing else.
    #[test]
    fn the_validator_reads_exactly_the_schema_property_paths() {
        let (paths, _, _) = walked();
        let checked = check(&maximal(), "x");
        assert_eq!(checked.failures, []);
        assert!(paths.len() >= ALLOWED_KEYS[0].1.len());
        let unread: Vec<_> = paths.difference(&checked.touched).collect();
        assert!(unread.is_empty(), "declared but never read: {unread:?}");
        let undeclared: Vec<_> = checked.touched.difference(&paths).collect();
        assert!(
            undeclared.is_empty(),
            "read but not declared: {undeclared:?}"
        );
    }

    // (b) The validator's closed objects are the schema's.
    #[test]
    fn allowed_keys_equal_the_schema_closed_objects() {
        let (_, closed, _) = walked();
        let ours: Vec<(String, Vec<String>)> = ALLOWED_KEYS
            .iter()
            .map(|(p, keys)| (p.to_string(), keys.iter().map(|k| k.to_string()).collect()))
            .collect();
        assert_eq!(ours, closed);
    }

    // (c) Every required root key is required by the validator too.
    #[test]
    fn dropping_any_required_root_key_fails() {
        let required = schema()["required"].as_array().unwrap().clone();
        assert_eq!(required.len(), ALLOWED_KEYS[0].1.len());
        for key in required {
            let mut v = maximal();
            v.as_object_mut().unwrap().remove(key.as_str().unwrap());
            assert!(validate(&v, "x").is_err(), "{key} is not required");
        }
    }

    // (d) Every pattern is built from a grammar fragment.
    #[test]
    fn every_schema_pattern_embeds_a_grammar_fragment() {
        let (_, _, patterns) = walked();
        assert!(patterns.len() > 3);
        for p in patterns {
            assert!(FRAGMENTS.iter().any(|f| p.contains(f)), "{p}");
        }
    }

    // (e) One list of effect classes.
    #[test]
    fn the_schema_effect_classes_are_the_flow_engine_classes() {
        let e = &schema()["properties"]["operations"]["items"]["properties"]["effects"]["items"]["properties"]
            ["class"]["enum"];
        let theirs: BTreeSet<&str> = e
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        let ours: BTreeSet<&str> = effect_class_names().into_iter().collect();
        assert_eq!(theirs, ours);
    }

    // The schema never refuses what the rules accept, and never accepts what they refuse
    // unless a rule is one the schema cannot state.
    #[test]
    fn the_schema_layer_agrees_with_the_rules_on_mutations() {
        let mutations: Vec<(&str, Value)> = vec![
            ("/purpose", json!("  ")),
            ("/default_operation", json!("missing_op")),
            ("/compatibility/minimum_contract_version", json!(2)),
            ("/name", json!("Bad")),
            ("/exposure", json!([])),
            ("/operations/0/effects", json!([])),
            ("/floor/kind", json!("core")),
            ("/operations/1/exposure", json!(["direct", "direct"])),
            ("/compatibility/improves", json!(null)),
            ("/default_operation", json!(null)),
            ("/contract_version", json!(1.0)),
        ];
        for (pointer, value) in mutations {
            let mut v = maximal();
            *v.pointer_mut(pointer).unwrap() = value.clone();
            let rules_ok = check(&v, "x").failures.is_empty();
            let schema_ok = schema_failures(&v, "x").is_empty();
            assert!(
                !rules_ok || schema_ok,
                "{pointer}={value}: the schema refuses what the rules accept"
            );
            assert!(validate(&v, "x").is_ok() == rules_ok, "{pointer}={value}");
        }
    }
}
