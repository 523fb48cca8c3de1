//! The static registry table (`src/flow/registry/table.rs`) is generated from `registry.json`
//! here: the test fails when the checked-in table differs from what the JSON generates, and when
//! the table and the JSON parsed by serde are not the same registry. With
//! `AW_REGENERATE_REGISTRY=1` it writes the table instead of failing.

use aw_core::flow::registry::{Custody, REGISTRY_JSON, Registry};
use aw_core::vocab::flow::{Authority, EffectClass, Placement};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::fmt::{Debug, Write};

const TABLE_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/flow/registry/table.rs");

const HEADER: &str = "\
// @generated from registry.json by crates/aw-core/tests/flow_registry_table.rs: do not edit.
// Change the JSON, then run `AW_REGENERATE_REGISTRY=1 cargo test -p aw-core flow_registry_table`.

use super::{
    Action, Authorizes, Choice, Condition, Custody, Decision, Exclusion, Execution, Invocation,
    Limits, Proposes, Publishes, Realization, Registry, Threshold,
};
use crate::vocab::flow::{Authority, EffectClass, Placement};
use std::borrow::Cow::Borrowed as B;
";

/// The Rust text of the table for a registry document. Panics on a key the types do not know, as
/// the serde parse refuses it.
fn generate(json: &str) -> String {
    let doc: Value = serde_json::from_str(json).expect("registry.json is JSON");
    let doc = object(&doc, &["decisions", "docs_boundary", "command_exclusions"]);
    let decisions = doc["decisions"].as_array().expect("decisions is a list");
    let mut ids: Vec<(&str, usize)> = decisions
        .iter()
        .enumerate()
        .map(|(i, d)| (d["id"].as_str().expect("an id is text"), i))
        .collect();
    ids.sort();

    let mut out = String::from(HEADER);
    out.push_str("\npub(super) static REGISTRY: Registry = Registry {\n");
    out.push_str("    decisions: B(DECISIONS),\n    docs_boundary: B(&[\n");
    let boundary = doc["docs_boundary"]
        .as_object()
        .expect("docs_boundary is a map");
    let mut flows: Vec<_> = boundary.iter().collect();
    flows.sort_by_key(|(flow, _)| flow.as_str());
    for (flow, folders) in flows {
        writeln!(out, "        ({}, {}),", text(flow), texts(folders)).unwrap();
    }
    out.push_str("    ]),\n    command_exclusions: B(&[\n");
    for e in doc["command_exclusions"].as_array().expect("a list") {
        let e = object(e, &["command", "reason"]);
        writeln!(
            out,
            "        Exclusion {{ command: {}, reason: {} }},",
            text_of(&e["command"]),
            text_of(&e["reason"])
        )
        .unwrap();
    }
    out.push_str("    ]),\n    index: B(&[\n");
    for (id, at) in ids {
        writeln!(out, "        ({}, {at}),", text(id)).unwrap();
    }
    out.push_str("    ]),\n};\n\nstatic DECISIONS: &[Decision] = &[\n");
    for d in decisions {
        decision(&mut out, d);
    }
    out.push_str("];\n");
    out
}

fn decision(out: &mut String, d: &Value) {
    let d = object(
        d,
        &[
            "id",
            "scope",
            "title",
            "authority",
            "ownership",
            "document",
            "attribution",
            "effects",
            "signals",
            "action",
            "condition",
            "alternatives",
            "placement",
            "realized_by",
            "custody",
            "proposes",
            "scopes_sources",
            "publishes",
            "authorizes",
        ],
    );
    out.push_str("    Decision {\n");
    for key in ["id", "scope", "title"] {
        writeln!(out, "        {key}: {},", text_of(&d[key])).unwrap();
    }
    writeln!(
        out,
        "        authority: Authority::{},",
        variant::<Authority>(&d["authority"])
    )
    .unwrap();
    for key in ["ownership", "document"] {
        writeln!(out, "        {key}: {},", text_of(&d[key])).unwrap();
    }
    let field = |out: &mut String, key: &str, render: &dyn Fn(&Value) -> String| {
        let value = match d.get(key) {
            None | Some(Value::Null) => "None".to_owned(),
            Some(v) => format!("Some({})", render(v)),
        };
        writeln!(out, "        {key}: {value},").unwrap();
    };
    field(out, "attribution", &text_of);
    field(out, "effects", &|v| {
        list(v, |e| format!("EffectClass::{}", variant::<EffectClass>(e)))
    });
    field(out, "signals", &texts);
    field(out, "action", &action);
    field(out, "condition", &condition);
    field(out, "alternatives", &|v| list(v, choice));
    field(out, "placement", &|v| {
        format!("Placement::{}", variant::<Placement>(v))
    });
    field(out, "realized_by", &realization);
    field(out, "custody", &|v| {
        format!("Custody::{}", variant::<Custody>(v))
    });
    field(out, "proposes", &proposes);
    let scopes = d
        .get("scopes_sources")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    writeln!(out, "        scopes_sources: {scopes},").unwrap();
    field(out, "publishes", &|v| {
        let p = object(v, &["approve"]);
        format!("Publishes {{ approve: {} }}", text_of(&p["approve"]))
    });
    field(out, "authorizes", &|v| {
        let a = object(v, &["approve", "transition"]);
        format!(
            "Authorizes {{ approve: {}, transition: {} }}",
            text_of(&a["approve"]),
            text_of(&a["transition"])
        )
    });
    out.push_str("    },\n");
}

fn proposes(v: &Value) -> String {
    let p = object(v, &["destinations", "effects", "limits"]);
    let l = object(&p["limits"], &["maxArtifacts", "maxArtifactBytes"]);
    format!(
        "Proposes {{ destinations: {}, effects: {}, limits: Limits {{ max_artifacts: {}, \
         max_artifact_bytes: {} }} }}",
        texts(&p["destinations"]),
        list(&p["effects"], |e| format!(
            "EffectClass::{}",
            variant::<EffectClass>(e)
        )),
        l["maxArtifacts"].as_u64().expect("a count"),
        l["maxArtifactBytes"].as_u64().expect("a count"),
    )
}

fn execution(v: Option<&Value>) -> String {
    let Some(v) = v else {
        return "None".to_owned();
    };
    match v["kind"].as_str().expect("execution has a kind") {
        "internal" => {
            let e = object(v, &["kind", "operation", "dump"]);
            let dump = match e.get("dump") {
                None | Some(Value::Null) => "None".to_owned(),
                Some(d) => format!("Some({})", texts(d)),
            };
            format!(
                "Some(Execution::Internal {{ operation: {}, dump: {dump} }})",
                text_of(&e["operation"])
            )
        }
        "external" => {
            let e = object(v, &["kind", "reason"]);
            format!(
                "Some(Execution::External {{ reason: {} }})",
                text_of(&e["reason"])
            )
        }
        other => panic!("unknown execution kind '{other}'"),
    }
}

fn action(v: &Value) -> String {
    let a = object(
        v,
        &[
            "invocation",
            "execution",
            "evidence",
            "idempotent",
            "recovery",
        ],
    );
    let i = object(&a["invocation"], &["program", "args", "target", "input"]);
    let input = match &i["input"] {
        Value::Null => "None".to_owned(),
        v => format!("Some({})", text_of(v)),
    };
    format!(
        "Action {{ invocation: Invocation {{ program: {}, args: {}, target: {}, input: {input} }}, \
         execution: {}, evidence: {}, idempotent: {}, recovery: {} }}",
        text_of(&i["program"]),
        texts(&i["args"]),
        text_of(&i["target"]),
        execution(a.get("execution")),
        texts(&a["evidence"]),
        a["idempotent"].as_bool().expect("idempotent is a boolean"),
        text_of(&a["recovery"]),
    )
}

fn condition(v: &Value) -> String {
    let c = object(v, &["threshold", "otherwise"]);
    let t = object(&c["threshold"], &["observed", "of", "min"]);
    let of = match t.get("of") {
        None | Some(Value::Null) => "None".to_owned(),
        Some(v) => format!("Some({})", texts(v)),
    };
    format!(
        "Condition {{ threshold: Threshold {{ observed: {}, of: {of}, min: {} }}, otherwise: {} }}",
        text_of(&t["observed"]),
        t["min"].as_u64().expect("min is a count"),
        text_of(&c["otherwise"]),
    )
}

fn choice(v: &Value) -> String {
    let c = object(v, &["label", "consequence", "recommended"]);
    format!(
        "Choice {{ label: {}, consequence: {}, recommended: {} }}",
        text_of(&c["label"]),
        text_of(&c["consequence"]),
        c["recommended"]
            .as_bool()
            .expect("recommended is a boolean"),
    )
}

fn realization(v: &Value) -> String {
    let kind = v["kind"].as_str().expect("realized_by has a kind");
    match kind {
        "engine" => {
            let r = object(v, &["kind", "module", "symbol"]);
            format!(
                "Realization::Engine {{ module: {}, symbol: {} }}",
                text_of(&r["module"]),
                text_of(&r["symbol"])
            )
        }
        "transitions" => {
            let r = object(v, &["kind", "ids"]);
            format!("Realization::Transitions {{ ids: {} }}", texts(&r["ids"]))
        }
        other => panic!("unknown realization kind '{other}'"),
    }
}

/// An object whose keys are all among `known`.
fn object<'v>(v: &'v Value, known: &[&str]) -> &'v Map<String, Value> {
    let map = v.as_object().expect("an object");
    for key in map.keys() {
        assert!(known.contains(&key.as_str()), "unknown key '{key}'");
    }
    map
}

fn text(s: &str) -> String {
    format!("B({s:?})")
}

fn text_of(v: &Value) -> String {
    text(v.as_str().expect("a text"))
}

fn texts(v: &Value) -> String {
    list(v, text_of)
}

fn list(v: &Value, item: impl Fn(&Value) -> String) -> String {
    let items: Vec<String> = v.as_array().expect("a list").iter().map(item).collect();
    format!("B(&[{}])", items.join(", "))
}

/// The Rust variant name of a wire enum value.
fn variant<T: DeserializeOwned + Debug>(v: &Value) -> String {
    let parsed: T = serde_json::from_value(v.clone()).expect("a known enum value");
    format!("{parsed:?}")
}

#[test]
fn the_static_table_is_generated_from_the_json() {
    let generated = generate(REGISTRY_JSON);
    let on_disk = std::fs::read_to_string(TABLE_PATH).unwrap_or_default();
    if generated == on_disk {
        return;
    }
    if std::env::var_os("AW_REGENERATE_REGISTRY").is_some() {
        std::fs::write(TABLE_PATH, generated).expect("the table is writable");
        return;
    }
    panic!(
        "src/flow/registry/table.rs is not what registry.json generates: run \
         `AW_REGENERATE_REGISTRY=1 cargo test -p aw-core flow_registry_table`"
    );
}

#[test]
fn the_static_table_and_the_json_are_the_same_registry() {
    let parsed = Registry::parse(REGISTRY_JSON).expect("registry.json parses");
    assert_eq!(&parsed, Registry::get());
    for d in Registry::get().decisions.iter() {
        assert_eq!(
            Registry::get().decision(&d.id).map(|r| &r.id),
            Some(&d.id),
            "the index finds {}",
            d.id
        );
    }
    assert!(Registry::get().decision("quick.no-such-row").is_none());
}

#[test]
fn the_generator_refuses_a_key_the_types_do_not_know() {
    let bad = r#"{"decisions":[{"id":"a.b","scope":"a","title":"t","authority":"cli",
        "ownership":"cli-owned","document":"d","surprise":1}],"docs_boundary":{},
        "command_exclusions":[]}"#;
    assert!(std::panic::catch_unwind(|| generate(bad)).is_err());
    assert!(Registry::parse(bad).is_err());
}
