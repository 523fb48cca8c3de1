//! One case per `modeCatalog` check: each case puts a small catalog into an otherwise valid
//! manifest and asserts the result class and the exact, ordered list of rule ids it yields, so a
//! rule that stops firing (or fires once too often) fails here.

use aw_manifest::memory::MemoryFiles;
use aw_manifest::{Class, validate};
use serde_json::{Map, Value, json};

/// A key whose value removes that key from the entry it is merged into.
const DROP: &str = "__drop__";

/// A valid manifest around `catalog`; `roles_patch` is merged into `roles` (per role, per key).
fn manifest(catalog: Option<Value>, roles_patch: Value) -> Value {
    let mut roles = json!({
        "review": {
            "cmd": "x-review",
            "source": "bin/run.sh",
            "modes": ["code", "plan"],
            "contract": {
                "invocations": ["x-review code <file>", "x-review plan", "x-review code again"],
                "continue": ["x-review continue", "x-review resume <id>"]
            }
        },
        "probe": { "cmd": "x-run", "source": "bin/run.sh" }
    });
    if let (Some(roles), Some(patch)) = (roles.as_object_mut(), roles_patch.as_object()) {
        for (role, fields) in patch {
            let slot = roles.entry(role.clone()).or_insert_with(|| json!({}));
            *slot = merge(slot.clone(), fields.clone());
        }
    }
    let mut m = json!({
        "family": "agent-workflow",
        "schema": 1,
        "name": "x",
        "kind": "execution-backend",
        "version": "1.0.0",
        "provides": ["review", "probe"],
        "roles": roles
    });
    if let (Some(obj), Some(catalog)) = (m.as_object_mut(), catalog) {
        obj.insert("modeCatalog".to_owned(), catalog);
    }
    m
}

/// `base` with the keys of `patch` set (or removed, for [`DROP`]).
fn merge(base: Value, patch: Value) -> Value {
    let mut obj: Map<String, Value> = base.as_object().cloned().unwrap_or_default();
    for (k, v) in patch.as_object().cloned().unwrap_or_default() {
        if v == json!(DROP) {
            obj.remove(&k);
        } else {
            obj.insert(k, v);
        }
    }
    Value::Object(obj)
}

fn files() -> MemoryFiles {
    MemoryFiles::new().with("bin/run.sh", "#!/bin/sh\n").with(
        "SKILL.md",
        "---\nname: x\nmetadata:\n  version: '1.0.0'\n---\n",
    )
}

fn run(m: &Value) -> (Class, Vec<&'static str>) {
    let bytes = serde_json::to_vec(m).expect("serialisable");
    let report = validate(Some(&bytes), "/skill", &files());
    (report.class, report.errors.iter().map(|f| f.rule).collect())
}

/// A contract-free primary (the raw mode) on the `probe` role.
fn raw(extra: Value) -> Value {
    merge(
        json!({
            "key": "raw",
            "kind": "primary",
            "role": "probe",
            "purpose": "ask anything",
            "whenToUse": ["a one-off question"],
            "descriptor": "x-run"
        }),
        extra,
    )
}

/// A contract-backed primary on `review`, referencing the slot-free `invocations[1]`.
fn main_mode(extra: Value) -> Value {
    merge(
        json!({
            "key": "main",
            "kind": "primary",
            "role": "review",
            "submode": "plan",
            "purpose": "review a plan",
            "whenToUse": ["a plan is ready"],
            "invocationRefs": [{ "contractField": "invocations", "index": 1 }]
        }),
        extra,
    )
}

/// A continuation on `review`, referencing the slot-free `continue[0]`.
fn cont(extra: Value) -> Value {
    merge(
        json!({
            "key": "more",
            "kind": "continuation",
            "role": "review",
            "purpose": "continue a review",
            "whenToUse": ["a review stopped early"],
            "invocationRefs": [{ "contractField": "continue", "index": 0 }]
        }),
        extra,
    )
}

/// An env-hook modifying `raw` (which must list it back in `customHooks`).
fn hook(extra: Value) -> Value {
    merge(
        json!({
            "key": "X_HOOK",
            "kind": "env-hook",
            "parents": ["raw"],
            "purpose": "run quietly",
            "whenToUse": ["logs are noisy"],
            "descriptor": "X_HOOK=1 x-run"
        }),
        extra,
    )
}

/// `raw` listing `X_HOOK`, plus the hook: the smallest linked pair.
fn linked_pair() -> Vec<Value> {
    vec![raw(json!({ "customHooks": ["X_HOOK"] })), hook(json!({}))]
}

struct Case {
    name: &'static str,
    catalog: Option<Value>,
    roles: Value,
    want: &'static [&'static str],
}

fn case(name: &'static str, catalog: Value, want: &'static [&'static str]) -> Case {
    Case {
        name,
        catalog: Some(catalog),
        roles: json!({}),
        want,
    }
}

fn with_roles(mut c: Case, roles: Value) -> Case {
    c.roles = roles;
    c
}

fn cases() -> Vec<Case> {
    let long = "x".repeat(201);
    let long_key = format!("A{}", "b".repeat(200));
    vec![
        // --- valid shapes ---------------------------------------------------------------
        Case {
            name: "no catalog",
            catalog: None,
            roles: json!({}),
            want: &[],
        },
        case(
            "every kind, valid",
            json!([
                main_mode(json!({})),
                cont(json!({})),
                raw(json!({ "customHooks": ["X_HOOK"] })),
                hook(json!({})),
                main_mode(json!({
                    "key": "code",
                    "submode": "code",
                    "whenNotTo": ["the plan is not written"],
                    "invocationRefs": [{ "contractField": "invocations", "index": 0 }],
                    "operands": [{ "slot": "<file>", "required": true, "description": "the file" }],
                    "guardrails": [
                        { "value": "read-only", "enforcement": "enforced", "source": "bin/run.sh" },
                        { "value": "short", "enforcement": "advisory", "condition": "by default",
                          "source": "SKILL.md" }
                    ]
                }))
            ]),
            &[],
        ),
        case(
            "forward parent reference resolves",
            json!([hook(json!({})), raw(json!({ "customHooks": ["X_HOOK"] }))]),
            &[],
        ),
        case(
            "raw mode may name itself",
            json!([raw(json!({ "customHooks": ["raw"] }))]),
            &[],
        ),
        case(
            "index 1.0 is an integer",
            json!([main_mode(json!({
                "invocationRefs": [{ "contractField": "invocations", "index": 1.0 }]
            }))]),
            &[],
        ),
        case(
            "whitespace-only text passes",
            json!([raw(json!({ "purpose": "   " }))]),
            &[],
        ),
        case(
            "exactly 200 UTF-16 units with an emoji passes",
            json!([raw(json!({ "purpose": format!("{}😀", "x".repeat(198)) }))]),
            &[],
        ),
        with_roles(
            case(
                "array contract counts as contract-free",
                json!([raw(json!({ "role": "review", "submode": "code" }))]),
                &[],
            ),
            json!({ "review": { "contract": ["x-review code"] } }),
        ),
        // --- C1, C2, E1 -----------------------------------------------------------------
        case("C1 object", json!({}), &["catalog.not-array"]),
        case("C1 null is present", json!(null), &["catalog.not-array"]),
        case("C2 empty", json!([]), &["catalog.empty"]),
        case(
            "E1 entry not an object",
            json!([5, raw(json!({}))]),
            &["catalog.entry-not-object"],
        ),
        // --- key and kind ---------------------------------------------------------------
        case(
            "E2 key not a token",
            json!([raw(json!({ "key": "9raw" }))]),
            &["catalog.key-token"],
        ),
        case(
            "E2 key missing",
            json!([raw(json!({ "key": DROP }))]),
            &["catalog.key-token"],
        ),
        case(
            "E3 key over the cap",
            json!([raw(json!({ "key": long_key }))]),
            &["catalog.line-too-long"],
        ),
        case(
            "E4 duplicate key",
            json!([raw(json!({})), raw(json!({}))]),
            &["catalog.key-duplicate"],
        ),
        case(
            "E5 env-hook key not UPPER_SNAKE",
            json!([
                raw(json!({ "customHooks": ["x_hook"] })),
                hook(json!({ "key": "x_hook" }))
            ]),
            &["catalog.hook-key-env"],
        ),
        case(
            "E6 unknown kind stops the entry",
            json!([raw(json!({ "kind": "mode", "purpose": 5, "role": "nope" }))]),
            &["catalog.kind"],
        ),
        case(
            "E2 and E6 on one entry",
            json!([raw(json!({ "key": 5, "kind": DROP }))]),
            &["catalog.key-token", "catalog.kind"],
        ),
        // --- one-line texts and lists ---------------------------------------------------
        case(
            "O1 purpose missing",
            json!([raw(json!({ "purpose": DROP }))]),
            &["catalog.line-required"],
        ),
        case(
            "O2 purpose with a newline",
            json!([raw(json!({ "purpose": "a\nb" }))]),
            &["catalog.line-control"],
        ),
        case(
            "O2 purpose with DEL",
            json!([raw(json!({ "purpose": "a\u{7f}" }))]),
            &["catalog.line-control"],
        ),
        case(
            "O3 purpose over the cap",
            json!([raw(json!({ "purpose": long }))]),
            &["catalog.line-too-long"],
        ),
        case(
            "O3 emoji counts two units (201)",
            json!([raw(json!({ "purpose": format!("{}😀", "x".repeat(199)) }))]),
            &["catalog.line-too-long"],
        ),
        case(
            "E7 whenToUse missing",
            json!([raw(json!({ "whenToUse": DROP }))]),
            &["catalog.list-required"],
        ),
        case(
            "E7 whenToUse empty",
            json!([raw(json!({ "whenToUse": [] }))]),
            &["catalog.list-required"],
        ),
        case(
            "E7 whenNotTo null is present",
            json!([raw(json!({ "whenNotTo": null }))]),
            &["catalog.list-required"],
        ),
        case(
            "list items are one-line",
            json!([raw(
                json!({ "whenToUse": ["ok", "", 3], "whenNotTo": ["a\tb"] })
            )]),
            &[
                "catalog.line-required",
                "catalog.line-required",
                "catalog.line-control",
            ],
        ),
        // --- env-hook linkage -----------------------------------------------------------
        case(
            "H1 env-hook with a role",
            json!([
                raw(json!({ "customHooks": ["X_HOOK"] })),
                hook(json!({ "role": "probe" }))
            ]),
            &["catalog.hook-role"],
        ),
        case(
            "H2 env-hook without parents",
            json!([raw(json!({})), hook(json!({ "parents": DROP }))]),
            &["catalog.hook-parents-required"],
        ),
        case(
            "H2 env-hook with empty parents",
            json!([raw(json!({})), hook(json!({ "parents": [] }))]),
            &["catalog.hook-parents-required"],
        ),
        case(
            "H3 unknown parents",
            json!([raw(json!({})), hook(json!({ "parents": ["nope", 5, ""] }))]),
            &[
                "catalog.hook-parent-unknown",
                "catalog.hook-parent-unknown",
                "catalog.hook-parent-unknown",
            ],
        ),
        case(
            "H4 doubled self-parent reports twice",
            json!([
                raw(json!({})),
                hook(json!({ "parents": ["X_HOOK", "X_HOOK"] }))
            ]),
            &["catalog.hook-parent-self", "catalog.hook-parent-self"],
        ),
        case(
            "H5 duplicate parent",
            json!([
                raw(json!({ "customHooks": ["X_HOOK"] })),
                hook(json!({ "parents": ["raw", "raw"] }))
            ]),
            &["catalog.hook-parent-duplicate"],
        ),
        case(
            "H6 parent is a hook",
            json!([
                raw(json!({ "customHooks": ["X_HOOK"] })),
                hook(json!({})),
                hook(json!({ "key": "Y_HOOK", "parents": ["X_HOOK"] }))
            ]),
            &["catalog.hook-parent-hook"],
        ),
        case(
            "H7 parent does not list the hook back",
            json!([raw(json!({})), hook(json!({}))]),
            &["catalog.hook-parent-unlinked"],
        ),
        // --- role linkage ---------------------------------------------------------------
        case(
            "L1 parents on a primary (null is present)",
            json!([raw(json!({ "parents": null }))]),
            &["catalog.parents-not-hook"],
        ),
        case(
            "L2 role missing",
            json!([raw(json!({ "role": DROP }))]),
            &["catalog.role-required"],
        ),
        case(
            "L3 role not in roles",
            json!([raw(json!({ "role": "plan" }))]),
            &["catalog.role-unknown"],
        ),
        case(
            "L3 __proto__ is no own role",
            json!([raw(json!({ "role": "__proto__" }))]),
            &["catalog.role-unknown"],
        ),
        case(
            "L3 toString is no own role",
            json!([raw(json!({ "role": "toString" }))]),
            &["catalog.role-unknown"],
        ),
        case(
            "L3 role not a string",
            json!([raw(json!({ "role": null }))]),
            &["catalog.role-unknown"],
        ),
        // --- submode --------------------------------------------------------------------
        case(
            "M1 submode empty",
            json!([main_mode(json!({ "submode": "" }))]),
            &["catalog.submode-type"],
        ),
        case(
            "M1 submode null",
            json!([main_mode(json!({ "submode": null }))]),
            &["catalog.submode-type"],
        ),
        case(
            "M2 submode on a continuation",
            json!([cont(json!({ "submode": "code" }))]),
            &["catalog.submode-not-primary"],
        ),
        case(
            "M3 submode on a role without modes",
            json!([raw(json!({ "submode": "code" }))]),
            &["catalog.submode-no-modes"],
        ),
        case(
            "M4 submode not among the modes",
            json!([main_mode(json!({ "submode": "nope" }))]),
            &["catalog.submode-unknown"],
        ),
        case(
            "M5 submode missing on a primary whose role has modes",
            json!([main_mode(json!({ "submode": DROP }))]),
            &["catalog.submode-required"],
        ),
        // --- contract backing and forms -------------------------------------------------
        case(
            "K1 continuation on a contract-free role",
            json!([cont(json!({
                "role": "probe", "invocationRefs": DROP, "descriptor": "x-run again"
            }))]),
            &["catalog.continuation-contract"],
        ),
        with_roles(
            case(
                "K1 array contract is contract-free",
                json!([cont(
                    json!({ "invocationRefs": DROP, "descriptor": "x-review again" })
                )]),
                &["catalog.continuation-contract"],
            ),
            json!({ "review": { "contract": ["x-review continue"] } }),
        ),
        case(
            "K2 descriptor on a contract-backed entry",
            json!([main_mode(json!({ "descriptor": "x-review plan" }))]),
            &["catalog.descriptor-on-contract"],
        ),
        case(
            "K3 invocationRefs missing",
            json!([main_mode(json!({ "invocationRefs": DROP }))]),
            &["catalog.refs-required"],
        ),
        case(
            "K3 invocationRefs empty",
            json!([main_mode(json!({ "invocationRefs": [] }))]),
            &["catalog.refs-required"],
        ),
        case(
            "K4 ref not an object",
            json!([main_mode(json!({ "invocationRefs": ["invocations[1]"] }))]),
            &["catalog.ref-not-object"],
        ),
        case(
            "K5 unknown contract field",
            json!([main_mode(json!({
                "invocationRefs": [{ "contractField": "grounding", "index": 0 }]
            }))]),
            &["catalog.ref-field"],
        ),
        case(
            "K6 primary referencing continue",
            json!([main_mode(json!({
                "invocationRefs": [{ "contractField": "continue", "index": 0 }]
            }))]),
            &["catalog.ref-field-kind"],
        ),
        case(
            "K6 continuation referencing invocations",
            json!([cont(json!({
                "invocationRefs": [{ "contractField": "invocations", "index": 1 }]
            }))]),
            &["catalog.ref-field-kind"],
        ),
        case(
            "K7 bad indices",
            json!([main_mode(json!({
                "invocationRefs": [
                    { "contractField": "invocations", "index": -1 },
                    { "contractField": "invocations", "index": "1" },
                    { "contractField": "invocations", "index": 1.5 },
                    { "contractField": "invocations", "index": 9_007_199_254_740_992u64 },
                    { "contractField": "invocations" }
                ]
            }))]),
            &[
                "catalog.ref-index",
                "catalog.ref-index",
                "catalog.ref-index",
                "catalog.ref-index",
                "catalog.ref-index",
            ],
        ),
        case(
            "K8 index out of range",
            json!([main_mode(json!({
                "invocationRefs": [{ "contractField": "invocations", "index": 99 }]
            }))]),
            &["catalog.ref-unresolved"],
        ),
        with_roles(
            case(
                "K9 referenced forms must be one line",
                json!([
                    main_mode(json!({
                        "invocationRefs": [
                            { "contractField": "invocations", "index": 0 },
                            { "contractField": "invocations", "index": 1 }
                        ]
                    })),
                    main_mode(
                        json!({ "key": "main2", "submode": "code", "invocationRefs": [
                        { "contractField": "invocations", "index": 2 }
                    ] })
                    )
                ]),
                &["catalog.line-control", "catalog.line-too-long"],
            ),
            json!({ "review": { "contract": {
                "invocations": ["x-review code\nbad", "x-review plan", "y".repeat(201)],
                "continue": []
            } } }),
        ),
        case(
            "K10 a form claimed by two entries",
            json!([main_mode(json!({})), main_mode(json!({ "key": "again" }))]),
            &["catalog.ref-duplicate"],
        ),
        case(
            "K10 the same ref twice in one entry",
            json!([main_mode(json!({
                "invocationRefs": [
                    { "contractField": "invocations", "index": 1 },
                    { "contractField": "invocations", "index": 1.0 }
                ]
            }))]),
            &["catalog.ref-duplicate"],
        ),
        case(
            "K11 invocationRefs on a contract-free entry",
            json!([raw(json!({ "invocationRefs": [] }))]),
            &["catalog.refs-on-contract-free"],
        ),
        case(
            "K11 invocationRefs on an env-hook",
            json!([
                raw(json!({ "customHooks": ["X_HOOK"] })),
                hook(json!({ "invocationRefs": null }))
            ]),
            &["catalog.refs-on-contract-free"],
        ),
        case(
            "K12 descriptor missing",
            json!([raw(json!({ "descriptor": DROP }))]),
            &["catalog.descriptor-required"],
        ),
        case(
            "K12 descriptor missing on an unbound role",
            json!([raw(json!({ "role": "nope", "descriptor": DROP }))]),
            &["catalog.role-unknown", "catalog.descriptor-required"],
        ),
        case(
            "descriptor one-line; no forms means no operand checks",
            json!([raw(json!({
                "descriptor": "x-run\t<prompt>",
                "operands": [{ "slot": "<other>", "required": true, "description": "d" }]
            }))]),
            &["catalog.line-control"],
        ),
        // --- operands -------------------------------------------------------------------
        case(
            "Q1 rendered slots without operands",
            json!([raw(json!({ "descriptor": "x-run <prompt>" }))]),
            &["catalog.operands-required"],
        ),
        case(
            "Q2 operands empty",
            json!([raw(json!({ "operands": [] }))]),
            &["catalog.operands-type"],
        ),
        case(
            "Q2 operands null is present",
            json!([raw(json!({ "operands": null }))]),
            &["catalog.operands-type"],
        ),
        case(
            "Q3 operand not an object",
            json!([raw(json!({
                "descriptor": "x-run <p>",
                "operands": [5, { "slot": "<p>", "required": false, "description": "d" }]
            }))]),
            &["catalog.operand-not-object"],
        ),
        case(
            "Q4 required not a boolean",
            json!([raw(json!({
                "descriptor": "x-run <p>",
                "operands": [{ "slot": "<p>", "required": "yes", "description": "d" }]
            }))]),
            &["catalog.operand-required-type"],
        ),
        case(
            "Q5 duplicate slot",
            json!([raw(json!({
                "descriptor": "x-run <p>",
                "operands": [
                    { "slot": "<p>", "required": true, "description": "d" },
                    { "slot": "<p>", "required": true, "description": "d" }
                ]
            }))]),
            &["catalog.operand-duplicate"],
        ),
        case(
            "Q6 slot not rendered",
            json!([raw(json!({
                "descriptor": "x-run <p>",
                "operands": [
                    { "slot": "<p>", "required": true, "description": "d" },
                    { "slot": "[q]", "required": false, "description": "d" }
                ]
            }))]),
            &["catalog.operand-unrendered"],
        ),
        case(
            "Q7 rendered slot not declared",
            json!([raw(json!({
                "descriptor": "x-run @<p> [q <r>]",
                "operands": [{ "slot": "@<p>", "required": true, "description": "d" }]
            }))]),
            &["catalog.operand-missing"],
        ),
        case(
            "bad slot ends the op before Q5/Q6; Q7 still counts it missing",
            json!([raw(json!({
                "descriptor": "x-run <p>",
                "operands": [{ "slot": "", "required": 1 }]
            }))]),
            &[
                "catalog.line-required",
                "catalog.operand-required-type",
                "catalog.line-required",
                "catalog.operand-missing",
            ],
        ),
        case(
            "operands over a contract form",
            json!([main_mode(json!({
                "submode": "code",
                "invocationRefs": [{ "contractField": "invocations", "index": 0 }]
            }))]),
            &["catalog.operands-required"],
        ),
        // --- guardrails -----------------------------------------------------------------
        case(
            "U1 guardrails not an array",
            json!([raw(json!({ "guardrails": { "value": "x" } }))]),
            &["catalog.guardrails-type"],
        ),
        case(
            "U1 guardrails empty",
            json!([raw(json!({ "guardrails": [] }))]),
            &["catalog.guardrails-type"],
        ),
        case(
            "U2 guardrail not an object",
            json!([raw(json!({ "guardrails": ["read-only"] }))]),
            &["catalog.guardrail-not-object"],
        ),
        case(
            "U3 enforcement is case-sensitive",
            json!([raw(json!({ "guardrails": [
                { "value": "v", "enforcement": "Enforced", "source": "s" }
            ] }))]),
            &["catalog.guardrail-enforcement"],
        ),
        case(
            "guardrail lines: value, null condition, source",
            json!([raw(json!({ "guardrails": [
                { "enforcement": "advisory", "condition": null, "source": "" }
            ] }))]),
            &[
                "catalog.line-required",
                "catalog.line-required",
                "catalog.line-required",
            ],
        ),
        // --- customHooks ----------------------------------------------------------------
        case(
            "X1 customHooks empty",
            json!([raw(json!({ "customHooks": [] }))]),
            &["catalog.hooks-type"],
        ),
        case(
            "X1 customHooks a string",
            json!([raw(json!({ "customHooks": "X_HOOK" }))]),
            &["catalog.hooks-type"],
        ),
        case(
            "X2 unknown hook",
            json!([raw(json!({ "customHooks": ["NOPE", 7] }))]),
            &["catalog.hook-unknown", "catalog.hook-unknown"],
        ),
        case(
            "X3 duplicate hook",
            json!([
                raw(json!({ "customHooks": ["X_HOOK", "X_HOOK"] })),
                hook(json!({}))
            ]),
            &["catalog.hook-duplicate"],
        ),
        case(
            "X4 self hook on a contract-backed primary",
            json!([main_mode(json!({ "customHooks": ["main"] }))]),
            &["catalog.hook-self"],
        ),
        case(
            "X4 self hook on a continuation",
            json!([cont(json!({ "customHooks": ["more"] }))]),
            &["catalog.hook-self"],
        ),
        case(
            "X5 hook names a primary",
            json!([raw(json!({})), main_mode(json!({ "customHooks": ["raw"] }))]),
            &["catalog.hook-not-env-hook"],
        ),
        case(
            "X6 hook does not list the entry as a parent",
            json!([
                linked_pair()[0].clone(),
                linked_pair()[1].clone(),
                main_mode(json!({ "customHooks": ["X_HOOK"] }))
            ]),
            &["catalog.hook-unlinked"],
        ),
        case(
            "H7 and X6 both fire on a one-sided link each way",
            json!([
                raw(json!({ "customHooks": ["Y_HOOK"] })),
                hook(json!({})),
                hook(json!({ "key": "Y_HOOK", "parents": ["main"] })),
                main_mode(json!({}))
            ]),
            &[
                "catalog.hook-unlinked",
                "catalog.hook-parent-unlinked",
                "catalog.hook-parent-unlinked",
            ],
        ),
    ]
}

#[test]
fn every_catalog_rule_fires_exactly_as_expected() {
    let mut failures = Vec::new();
    for c in cases() {
        let m = manifest(c.catalog.clone(), c.roles.clone());
        let (class, rules) = run(&m);
        let want_class = if c.want.is_empty() {
            Class::Valid
        } else {
            Class::Invalid
        };
        if class != want_class || rules != c.want {
            failures.push(format!(
                "{}: got {class:?} {rules:?}, want {want_class:?} {:?}",
                c.name, c.want
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_catalog_rule_id_is_covered() {
    let all = [
        "catalog.not-array",
        "catalog.empty",
        "catalog.line-required",
        "catalog.line-control",
        "catalog.line-too-long",
        "catalog.list-required",
        "catalog.entry-not-object",
        "catalog.key-token",
        "catalog.key-duplicate",
        "catalog.hook-key-env",
        "catalog.kind",
        "catalog.hook-role",
        "catalog.hook-parents-required",
        "catalog.hook-parent-unknown",
        "catalog.hook-parent-self",
        "catalog.hook-parent-duplicate",
        "catalog.hook-parent-hook",
        "catalog.hook-parent-unlinked",
        "catalog.parents-not-hook",
        "catalog.role-required",
        "catalog.role-unknown",
        "catalog.submode-type",
        "catalog.submode-not-primary",
        "catalog.submode-no-modes",
        "catalog.submode-unknown",
        "catalog.submode-required",
        "catalog.continuation-contract",
        "catalog.descriptor-on-contract",
        "catalog.refs-required",
        "catalog.ref-not-object",
        "catalog.ref-field",
        "catalog.ref-field-kind",
        "catalog.ref-index",
        "catalog.ref-unresolved",
        "catalog.ref-duplicate",
        "catalog.refs-on-contract-free",
        "catalog.descriptor-required",
        "catalog.operands-required",
        "catalog.operands-type",
        "catalog.operand-not-object",
        "catalog.operand-required-type",
        "catalog.operand-duplicate",
        "catalog.operand-unrendered",
        "catalog.operand-missing",
        "catalog.guardrails-type",
        "catalog.guardrail-not-object",
        "catalog.guardrail-enforcement",
        "catalog.hooks-type",
        "catalog.hook-unknown",
        "catalog.hook-duplicate",
        "catalog.hook-self",
        "catalog.hook-not-env-hook",
        "catalog.hook-unlinked",
    ];
    let cases = cases();
    for id in all {
        assert!(
            cases.iter().any(|c| c.want.contains(&id)),
            "no case exercises {id}"
        );
    }
}

#[test]
fn messages_name_the_path_and_stay_on_one_line() {
    let m = manifest(
        Some(json!([
            raw(json!({ "purpose": "a\nb", "customHooks": ["line\nbreak"] })),
            main_mode(json!({ "role": "bad\nrole" }))
        ])),
        json!({}),
    );
    let bytes = serde_json::to_vec(&m).expect("serialisable");
    let report = validate(Some(&bytes), "/skill", &files());
    assert!(!report.errors.is_empty());
    for f in &report.errors {
        assert!(
            f.message.starts_with(&format!("`{}` ", f.path)),
            "{}",
            f.message
        );
        assert!(!f.message.contains('\n'), "{}", f.message);
    }
    let paths: Vec<&str> = report.errors.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "modeCatalog[0].purpose",
            "modeCatalog[0].customHooks[0]",
            "modeCatalog[1].role",
            "modeCatalog[1].submode",
            "modeCatalog[1].invocationRefs",
            "modeCatalog[1].descriptor",
        ]
    );
}

#[test]
fn garbage_entries_never_panic() {
    let junk = json!([
        null, true, 1e300, "x", [], {},
        { "key": {}, "kind": "env-hook", "parents": [null, [], {}], "customHooks": [{}] },
        { "key": "k", "kind": "primary", "role": "review", "submode": [],
          "invocationRefs": [null, {}, { "contractField": "invocations", "index": -0.0 },
                             { "contractField": "invocations", "index": 1e20 }],
          "operands": [null, { "slot": {} }], "guardrails": [null, {}], "customHooks": [null] },
        { "key": "c", "kind": "continuation", "role": "probe", "customHooks": ["c", "k"] }
    ]);
    let m = manifest(
        Some(junk),
        json!({ "review": { "modes": "code", "contract": { "invocations": {} } } }),
    );
    let (class, rules) = run(&m);
    assert_eq!(class, Class::Invalid);
    assert!(rules.iter().all(|r| r.starts_with("catalog.")), "{rules:?}");
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    /// Keys and strings drawn mostly from the catalog's own vocabulary, so random entries reach
    /// the deep checks instead of stopping at the first shape error.
    fn word() -> impl Strategy<Value = String> {
        prop_oneof![
            prop::sample::select(vec![
                "key",
                "kind",
                "role",
                "parents",
                "submode",
                "purpose",
                "whenToUse",
                "whenNotTo",
                "descriptor",
                "invocationRefs",
                "contractField",
                "index",
                "operands",
                "slot",
                "required",
                "description",
                "guardrails",
                "value",
                "enforcement",
                "condition",
                "source",
                "customHooks",
                "primary",
                "continuation",
                "env-hook",
                "review",
                "probe",
                "code",
                "plan",
                "invocations",
                "continue",
                "raw",
                "X_HOOK",
                "<p>",
                "x-run <p> [q]",
                "advisory",
                "enforced",
                "__proto__",
                "😀",
                "a\nb",
            ])
            .prop_map(str::to_owned),
            ".{0,8}",
        ]
    }

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (-3i64..5).prop_map(|n| json!(n)),
            any::<f64>().prop_map(|f| json!(f)),
            word().prop_map(Value::String),
        ];
        leaf.prop_recursive(5, 64, 8, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::vec((word(), inner), 0..8)
                    .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn random_catalogs_never_panic(catalog in prop::collection::vec(value(), 0..6)) {
            let m = manifest(Some(Value::Array(catalog)), json!({}));
            let (class, rules) = run(&m);
            prop_assert_eq!(class == Class::Valid, rules.is_empty());
        }
    }
}
