//! Properties of the manifest validator over arbitrary input: it never panics, its output is
//! deterministic, and its class agrees with its errors.

use aw_manifest::{Class, memory::MemoryFiles, validate};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        "\\PC{0,12}".prop_map(Value::String),
        prop::sample::select(vec![
            "review",
            "execute",
            "primary",
            "env-hook",
            "continuation",
            "{{x}}",
            "/abs",
            "../up",
            "~/home",
            "5m",
            "0s",
            "A_KEY",
            "",
            "bin/run.sh",
            "invocations",
            "continue",
        ])
        .prop_map(|s| Value::String(s.to_owned())),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop::sample::select(vec![
                        "key",
                        "kind",
                        "role",
                        "cmd",
                        "source",
                        "template",
                        "default",
                        "env",
                        "parents",
                        "customHooks",
                        "invocationRefs",
                        "operands",
                        "descriptor",
                        "contract",
                        "modes",
                        "submode",
                        "slot",
                        "index",
                        "contractField",
                        "0",
                        "10",
                    ]),
                    inner
                ),
                0..6
            )
            .prop_map(|kv| Value::Object(
                kv.into_iter()
                    .map(|(k, v)| (k.to_owned(), v))
                    .collect::<Map<_, _>>()
            )),
        ]
    })
}

fn base() -> Value {
    json!({
        "family": "agent-workflow", "schema": 1, "name": "p", "kind": "execution-backend",
        "version": "1.0.0", "provides": ["review"],
        "roles": { "review": { "cmd": "p", "source": "bin/run.sh", "modes": ["a"],
                   "contract": { "invocations": ["p <x>"], "continue": ["p c"] } } }
    })
}

fn files() -> MemoryFiles {
    MemoryFiles::new()
        .with("bin/run.sh", "x")
        .with("SKILL.md", "---\nmetadata:\n  version: '1.0.0'\n---\n")
}

const FIELDS: &[&str] = &[
    "family",
    "schema",
    "name",
    "kind",
    "version",
    "available",
    "provides",
    "roles",
    "detect",
    "settings",
    "networkHosts",
    "writableDirs",
    "modeCatalog",
    "posture",
    "cost",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn never_panics_on_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let r = validate(Some(&bytes), "/s", &files());
        prop_assert_eq!(r.class == Class::Valid, r.errors.is_empty());
    }

    #[test]
    fn never_panics_and_is_deterministic_on_mutated_manifests(
        edits in prop::collection::vec((prop::sample::select(FIELDS), arb_json()), 1..5)
    ) {
        let mut m = base();
        for (field, value) in edits {
            m[field] = value;
        }
        let bytes = serde_json::to_vec(&m).unwrap();
        let a = validate(Some(&bytes), "/s", &files());
        let b = validate(Some(&bytes), "/s", &files());
        prop_assert_eq!(&a, &b);
        match a.class {
            Class::Valid => prop_assert!(a.errors.is_empty()),
            Class::Invalid => prop_assert!(!a.errors.is_empty()),
            Class::Unsupported => prop_assert_eq!(a.errors.len(), 1),
        }
        for e in &a.errors {
            prop_assert!(e.message.starts_with('`'), "message names the field first: {}", e.message);
            prop_assert!(!e.message.contains('\n'), "one line: {}", e.message);
        }
    }

    #[test]
    fn arbitrary_json_roots_never_panic(v in arb_json()) {
        let bytes = serde_json::to_vec(&v).unwrap();
        let _ = validate(Some(&bytes), "/s", &files());
    }
}

#[test]
fn deep_nesting_is_bounded_not_a_crash() {
    let deep = format!("{}{}", "[".repeat(500), "]".repeat(500));
    let m = format!(
        r#"{{"family":"agent-workflow","schema":1,"name":"d","kind":"execution-backend","version":"1.0.0","provides":[],"roles":{{}},"x":{deep}}}"#
    );
    let r = validate(Some(m.as_bytes()), "/s", &files());
    assert_eq!(r.class, Class::Valid, "{:?}", r.errors);
    let too_deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let r = validate(Some(too_deep.as_bytes()), "/s", &files());
    assert_eq!(r.class, Class::Invalid);
    assert_eq!(r.errors[0].rule, "gate.malformed-json");
}

#[test]
fn malformed_json_is_one_error_carrying_the_parsers_own_reason() {
    let text = r#"{"family": "agent-workflow",}"#;
    let r = validate(Some(text.as_bytes()), "/s", &files());
    assert_eq!(r.class, Class::Invalid);
    assert_eq!(r.errors.len(), 1);
    assert_eq!(r.errors[0].rule, "gate.malformed-json");
    // Our words up to the colon, then serde_json's reason (V8's differs, and varies by version).
    let why = serde_json::from_str::<serde_json::Value>(text)
        .unwrap_err()
        .to_string();
    assert!(
        r.errors[0]
            .message
            .ends_with(&format!("is not valid JSON: {why}")),
        "{}",
        r.errors[0].message
    );
}
