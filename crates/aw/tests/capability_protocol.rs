//! `aw capability prepare | continue | validate | apply`: the protocol end to end in temporary
//! workspaces, with the tamper cases (edited plan, path escape, replayed approval, `off` between
//! validate and apply) and the hard failures.

use crate::support::Ws;
use aw_core::canonical::sha256_hex;
use serde_json::{Value, json};

/// The worked example's inputs (spec §3.6) and their input_digest.
const INPUTS: [&str; 6] = [
    "--input",
    "title=Alta",
    "--input",
    "sources=docs/req.md",
    "--input",
    "target=docs/designs",
];
const INPUT_DIGEST: &str = "11d6c64888e813457261ca1da43b4c29116f91f1a31f15db8b17262f98e32a7b";
/// The one file a `create` of the title `Alta` authors, first in a workspace without packages.
const NOTES: &str = "docs/designs/001-design-alta/DESIGN.md";
/// The manifest aw derives beside it.
const MANIFEST: &str = "docs/designs/001-design-alta/design-manifest.json";
/// A `DESIGN.md` that passes the content gate.
const DOC: &str = "# Alta\n\n## Objective\n\nSign up.\n\n## Proposed design\n\nOne form.\n\n## Validation\n\nA person signs up.\n";
/// Another one.
const DOC_B: &str = "# Alta\n\n## Objective\n\nSign up.\n\n## Proposed design\n\nTwo forms.\n\n## Validation\n\nA person signs up.\n";

fn cap<'a>(verb: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec!["capability", verb, "--capability", "design", "--json"];
    v.extend_from_slice(extra);
    v
}

fn prepare(ws: &Ws) -> Value {
    let mut args = cap("prepare", &["--operation", "create"]);
    args.extend_from_slice(&INPUTS);
    let (code, v) = ws.run(&args);
    assert_eq!(code, 0, "{v:#}");
    v
}

fn answer(digest: &str, artifacts: Value) -> Value {
    json!({"version": 1, "operation": "design.create", "input_digest": digest,
           "state": "proposed", "artifacts": artifacts})
}

fn validate(ws: &Ws, request: &Value, answer: &Value) -> (i32, Value) {
    let stdin = json!({"request": request, "answer": answer}).to_string();
    ws.run_with(&cap("validate", &[]), Some(&stdin), &[])
}

/// prepare → validate with a one-file answer: the attempt carrying the plan.
fn planned(ws: &Ws) -> Value {
    let a1 = prepare(ws);
    let (code, a2) = validate(
        ws,
        &a1["request"],
        &answer(INPUT_DIGEST, json!([{"path": NOTES, "content": DOC}])),
    );
    assert_eq!(code, 0, "{a2:#}");
    a2
}

fn apply(ws: &Ws, request: &Value, plan: &Value, approval: &str) -> (i32, Value) {
    let stdin = json!({"request": request, "plan": plan}).to_string();
    ws.run_with(&cap("apply", &["--approval", approval]), Some(&stdin), &[])
}

fn error_code(attempt: &Value) -> &str {
    attempt["receipt"]["error"]["code"].as_str().unwrap_or("")
}

#[test]
fn prepare_asks_the_agent_to_author_and_shows_the_digest_to_quote() {
    let ws = Ws::new();
    let a = prepare(&ws);
    let keys: Vec<&str> = a.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "request",
            "receipt",
            "output",
            "resolution",
            "pin",
            "persistence",
            "plan",
            "semantic"
        ]
    );
    let r = &a["receipt"];
    assert_eq!(r["outcome"], "needs_input");
    assert_eq!(r["floor"], true);
    assert_eq!(r["attempt"], 1);
    assert_eq!(r["gaps"].as_array().unwrap().len(), 2);
    assert!(r["gaps"][1].as_str().unwrap().contains("docs/designs"));
    assert_eq!(a["semantic"]["input_digest"], INPUT_DIGEST);
    assert_eq!(
        a["semantic"]["answer_skeleton"]["input_digest"],
        INPUT_DIGEST
    );
    assert!(r["next_action"].as_str().unwrap().contains(INPUT_DIGEST));
    assert_eq!(a["request"].as_object().unwrap().len(), 14);
    assert_eq!(a["persistence"], "none");
    assert_eq!(a["plan"], Value::Null);
    assert!(
        ws.tree().keys().all(|p| !p.starts_with("docs/")),
        "prepare writes nothing"
    );
}

#[test]
fn an_authoring_operation_runs_prepare_validate_apply_end_to_end() {
    let ws = Ws::new();
    let a1 = prepare(&ws);
    let (code, a2) = validate(
        &ws,
        &a1["request"],
        &answer(INPUT_DIGEST, json!([{"path": NOTES, "content": DOC}])),
    );
    assert_eq!(code, 0, "{a2:#}");
    // The validate attempt continues the invocation (quirk 2, fixed).
    assert_eq!(
        a2["request"]["invocation_id"],
        a1["request"]["invocation_id"]
    );
    assert_eq!(a2["request"]["attempt"], 2);
    assert_eq!(
        a2["request"]["parent_request_digest"],
        a1["request"]["request_digest"]
    );
    assert_eq!(a2["receipt"]["outcome"], "needs_input");
    assert_eq!(a2["receipt"]["output"]["completeness"], "partial");
    let plan = &a2["plan"];
    assert_eq!(
        plan["preview"][0],
        json!({"path": NOTES, "bytes": DOC.len(), "overwrite": false})
    );
    assert_eq!(plan["preview"][1]["path"], MANIFEST);
    assert_eq!(plan["preview"].as_array().unwrap().len(), 2);
    assert_eq!(plan["requires_approval"], json!([]));
    let digest = plan["approval_digest"].as_str().unwrap();
    assert!(
        a2["receipt"]["next_action"]
            .as_str()
            .unwrap()
            .contains(digest)
    );
    assert!(!ws.root().join(NOTES).exists(), "validate writes nothing");

    let (code, a3) = apply(&ws, &a2["request"], plan, digest);
    assert_eq!(code, 0, "{a3:#}");
    assert_eq!(a3["receipt"]["outcome"], "completed", "{a3:#}");
    assert_eq!(a3["output"]["value"]["written"], json!([NOTES, MANIFEST]));
    assert_eq!(
        a3["receipt"]["effects"]["applied"],
        json!(["local_additive"])
    );
    assert_eq!(a3["persistence"], "registry");
    assert_eq!(ws.read(NOTES), DOC);

    // The same plan again (a retry after a lost answer): its own package has the number, so it
    // is already published, not "taken".
    let (code, again) = apply(&ws, &a2["request"], plan, digest);
    assert_eq!(code, 0);
    assert_eq!(again["receipt"]["outcome"], "completed", "{again:#}");
    assert_eq!(
        again["output"]["value"]["already_published"],
        json!([NOTES, MANIFEST])
    );
    assert_eq!(again["receipt"]["effects"]["applied"], json!([]));
    assert_eq!(ws.read(NOTES), DOC);
}

#[test]
fn apply_refuses_a_wrong_digest_and_needs_request_plan_and_approval() {
    let ws = Ws::new();
    let a2 = planned(&ws);
    let (code, a) = apply(&ws, &a2["request"], &a2["plan"], &"0".repeat(64));
    assert_eq!(code, 0);
    assert_eq!(error_code(&a), "CAPABILITY_APPROVAL_MISMATCH");
    let stdin = json!({"request": a2["request"], "plan": a2["plan"]}).to_string();
    let (code, v) = ws.run_with(&cap("apply", &[]), Some(&stdin), &[]);
    assert_eq!(code, 1);
    assert_eq!(v["error"]["code"], "CAPABILITY_APPLY_INCOMPLETE");
    assert!(!ws.root().join(NOTES).exists());
}

#[test]
fn an_edited_plan_is_refused_even_with_its_original_digest() {
    let ws = Ws::new();
    let a2 = planned(&ws);
    let digest = a2["plan"]["approval_digest"].as_str().unwrap().to_owned();
    let mut plan = a2["plan"].clone();
    plan["artifacts"][0]["content"] = json!("rm -rf /\n");
    let (code, a) = apply(&ws, &a2["request"], &plan, &digest);
    assert_eq!(code, 0);
    assert_eq!(error_code(&a), "CAPABILITY_APPROVAL_MISMATCH", "{a:#}");
    assert!(!ws.root().join(NOTES).exists());
}

/// The approval digest an attacker can compute for any artifacts (the algorithm is public).
fn forged_digest(input_digest: &str, artifacts: &[(&str, &str)]) -> String {
    let arts: Vec<Value> = artifacts
        .iter()
        .map(|(p, c)| {
            json!({"path": p, "content_digest": aw_core::canonical::semantic_digest(&json!(c))})
        })
        .collect();
    aw_core::canonical::semantic_digest(
        &json!({"operation": "design.create", "input_digest": input_digest, "artifacts": arts}),
    )
}

#[test]
fn a_plan_resealed_with_an_escaping_path_is_refused_at_apply() {
    let ws = Ws::new();
    let a2 = planned(&ws);
    let sid = a2["request"]["semantic_inputs_digest"].as_str().unwrap();
    for path in [
        "../escaped.md",
        "docs/other/x.md",
        "/tmp/abs.md",
        "docs/designs-evil/x.md",
    ] {
        let mut plan = a2["plan"].clone();
        plan["artifacts"] = json!([{"path": path, "content": "x"}]);
        plan["preview"] = json!([{"path": path, "bytes": 1, "overwrite": false}]);
        let digest = forged_digest(sid, &[(path, "x")]);
        plan["approval_digest"] = json!(digest);
        let (code, a) = apply(&ws, &a2["request"], &plan, &digest);
        assert_eq!(code, 0, "{path}: {a:#}");
        assert_eq!(error_code(&a), "SEMANTIC_PATH_REJECTED", "{path}: {a:#}");
    }
    assert!(!ws.root().parent().unwrap().join("escaped.md").exists());
    assert!(!ws.root().join("docs/other").exists());
}

#[cfg(unix)]
#[test]
fn a_destination_that_links_out_of_the_workspace_is_refused_and_nothing_lands_outside() {
    let ws = Ws::new();
    let a2 = planned(&ws);
    let outside = ws.home().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::create_dir_all(ws.root().join("docs")).unwrap();
    std::os::unix::fs::symlink(&outside, ws.root().join("docs/designs")).unwrap();
    let digest = a2["plan"]["approval_digest"].as_str().unwrap();
    let (code, a) = apply(&ws, &a2["request"], &a2["plan"], digest);
    assert_eq!(code, 0, "{a:#}");
    assert_eq!(a["receipt"]["outcome"], "blocked", "{a:#}");
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
}

#[test]
fn an_approval_cannot_be_replayed_on_another_plan() {
    let ws = Ws::new();
    let first = planned(&ws);
    let a1 = prepare(&ws);
    let (_, second) = validate(
        &ws,
        &a1["request"],
        &answer(INPUT_DIGEST, json!([{"path": NOTES, "content": DOC_B}])),
    );
    let old = first["plan"]["approval_digest"].as_str().unwrap();
    let (code, a) = apply(&ws, &second["request"], &second["plan"], old);
    assert_eq!(code, 0);
    assert_eq!(error_code(&a), "CAPABILITY_APPROVAL_MISMATCH");
    // Nor may a plan travel with another attempt's request.
    let new = second["plan"]["approval_digest"].as_str().unwrap();
    let (_, a) = apply(&ws, &first["request"], &second["plan"], new);
    assert_eq!(error_code(&a), "CAPABILITY_APPROVAL_MISMATCH");
    assert!(!ws.root().join(NOTES).exists());
}

#[test]
fn turning_the_capability_off_between_validate_and_apply_blocks_the_apply() {
    let ws = Ws::new();
    let a2 = planned(&ws);
    ws.write(".workflow/skills.toml", "[skills]\ndesign = \"off\"\n");
    let digest = a2["plan"]["approval_digest"].as_str().unwrap();
    let (code, a) = apply(&ws, &a2["request"], &a2["plan"], digest);
    assert_eq!(code, 0);
    assert_eq!(error_code(&a), "CAPABILITY_OPERATION_OFF", "{a:#}");
    assert!(!ws.root().join(NOTES).exists());
}

#[test]
fn validate_refuses_a_repeated_flag_that_differs_from_the_carried_request() {
    let ws = Ws::new();
    let a1 = prepare(&ws);
    let stdin = json!({"request": a1["request"], "answer": null}).to_string();
    let mut args = cap("validate", &["--input", "title=Other"]);
    let (code, v) = ws.run_with(&args, Some(&stdin), &[]);
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(v["error"]["code"], "ARGS_INVALID");
    args = cap("validate", &["--operation", "update"]);
    let (code, _) = ws.run_with(&args, Some(&stdin), &[]);
    assert_eq!(code, 1);
    // The same value repeated is accepted, and a missing answer is a question, not a refusal.
    args = cap(
        "validate",
        &["--input", "title=Alta", "--operation", "create"],
    );
    let (code, v) = ws.run_with(&args, Some(&stdin), &[]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["receipt"]["outcome"], "needs_input");
    assert_eq!(v["semantic"]["input_digest"], INPUT_DIGEST);
}

#[test]
fn a_stale_or_misdirected_answer_is_blocked_and_writes_nothing() {
    let ws = Ws::new();
    let a1 = prepare(&ws);
    let (code, v) = validate(
        &ws,
        &a1["request"],
        &answer("0", json!([{"path": NOTES, "content": "x"}])),
    );
    assert_eq!(code, 0);
    assert_eq!(error_code(&v), "SEMANTIC_STALE");
    let (_, v) = validate(
        &ws,
        &a1["request"],
        &answer(INPUT_DIGEST, json!([{"path": "README.md", "content": "x"}])),
    );
    assert_eq!(error_code(&v), "SEMANTIC_PATH_REJECTED");
    assert_eq!(v["plan"], Value::Null);
}

#[test]
fn continue_builds_the_next_attempt_and_refuses_an_edited_parent() {
    let ws = Ws::new();
    let a1 = prepare(&ws);
    let stdin = json!({"parent": a1["request"]}).to_string();
    let mut args = cap("continue", &[]);
    args.extend_from_slice(&INPUTS);
    let (code, a2) = ws.run_with(&args, Some(&stdin), &[]);
    assert_eq!(code, 0, "{a2:#}");
    assert_eq!(a2["request"]["attempt"], 2);
    assert_eq!(a2["request"]["operation"], "create");
    assert_eq!(
        a2["request"]["parent_request_digest"],
        a1["request"]["request_digest"]
    );
    let mut parent = a1["request"].clone();
    parent["inputs"][0]["value"] = json!("Baja");
    let stdin = json!({"parent": parent}).to_string();
    let (code, v) = ws.run_with(&args, Some(&stdin), &[]);
    assert_eq!(code, 1);
    assert_eq!(v["error"]["code"], "CAPABILITY_PARENT_ALTERED");
}

#[test]
fn a_pin_whose_skill_is_gone_blocks_the_attempt() {
    let ws = Ws::new();
    let a1 = prepare(&ws);
    let mut pin = a1["pin"].clone();
    pin["floor"] = json!(false);
    pin["instances"] = json!([{"name": "figma-design", "digest": "a".repeat(64), "order": 1}]);
    let stdin = json!({"parent": a1["request"], "pin": pin}).to_string();
    let mut args = cap("continue", &[]);
    args.extend_from_slice(&INPUTS);
    let (code, v) = ws.run_with(&args, Some(&stdin), &[]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(error_code(&v), "CAPABILITY_SELECTION_CHANGED");
}

#[test]
fn stdin_must_carry_one_json_object() {
    let ws = Ws::new();
    for (stdin, code) in [
        ("", "ARGS_INVALID"),
        ("  \n", "ARGS_INVALID"),
        ("[1]", "ARGS_INVALID"),
        ("{", "ARGS_INVALID"),
    ] {
        let (exit, v) = ws.run_with(
            &cap("validate", &["--operation", "create"]),
            Some(stdin),
            &[],
        );
        assert_eq!(exit, 1, "{stdin:?}");
        assert_eq!(v["error"]["code"], code);
        assert!(v["data"]["action"].as_str().is_some_and(|a| !a.is_empty()));
    }
}

#[test]
fn retired_and_unknown_capabilities_are_hard_failures() {
    let ws = Ws::new();
    for (name, code) in [
        ("ui-design", "CAPABILITY_NAME_RETIRED"),
        ("UI-Spec", "CAPABILITY_NAME_RETIRED"),
        ("figma", "CAPABILITY_UNKNOWN"),
    ] {
        let (exit, v) = ws.run(&["capability", "prepare", "--capability", name, "--json"]);
        assert_eq!(exit, 1);
        assert_eq!(v["error"]["code"], code, "{name}");
        assert!(v["data"]["action"].as_str().unwrap().contains("design"));
    }
    let (exit, v) = ws.run(&["capability", "prepare", "--json"]);
    assert_eq!(exit, 1);
    assert_eq!(v["error"]["code"], "ARGS_INVALID");
    assert!(v["error"]["message"].as_str().unwrap().contains("design"));
}

#[test]
fn the_compose_route_obeys_the_caller_table() {
    let ws = Ws::new();
    let (exit, v) = ws.run(&cap(
        "prepare",
        &["--flow", "quick", "--operation", "create"],
    ));
    assert_eq!(exit, 1);
    assert_eq!(v["error"]["code"], "CAPABILITY_COMPOSE_NOT_ALLOWED");
    let (exit, v) = ws.run(&cap("prepare", &["--flow", "quick"]));
    assert_eq!(exit, 1);
    assert_eq!(v["error"]["code"], "CAPABILITY_COMPOSE_OPERATION_MISSING");
    let (exit, v) = ws.run(&cap(
        "prepare",
        &["--flow", "nope", "--operation", "validate"],
    ));
    assert_eq!(exit, 1);
    assert_eq!(v["error"]["code"], "ARGS_INVALID");
    // Checked before the name: a composing flow is refused even for a retired name.
    let (_, v) = ws.run(&[
        "capability",
        "prepare",
        "--capability",
        "ui-design",
        "--flow",
        "quick",
        "--operation",
        "create",
        "--json",
    ]);
    assert_eq!(v["error"]["code"], "CAPABILITY_COMPOSE_NOT_ALLOWED");
    let (exit, v) = ws.run(&cap(
        "prepare",
        &[
            "--flow",
            "plan-exec",
            "--operation",
            "validate",
            "--input",
            "package=DES-001",
        ],
    ));
    assert_eq!(exit, 0, "{v:#}");
    assert_eq!(v["request"]["caller"]["route"], "compose");
    assert_eq!(v["request"]["caller"]["flow"], "plan-exec");
}

#[test]
fn sensitive_sources_is_a_plain_boolean_flag() {
    let ws = Ws::new();
    let (code, v) = ws.run(&[
        "capability",
        "prepare",
        "--sensitive-sources",
        "--capability",
        "design",
        "--operation",
        "validate",
        "--input",
        "package=DES-001",
        "--json",
    ]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["request"]["policy"]["sensitive_sources"], true);
}

/// A design package (format v1, no sources), written as `docs/PROTOCOL.md` describes it.
fn package(ws: &Ws, folder: &str, id: &str) {
    let body = "# Checkout\n\n## Objective\n\nPay.\n\n## Proposed design\n\nOne page.\n\n## Validation\n\nA person pays.\n";
    ws.write(&format!("docs/designs/{folder}/DESIGN.md"), body);
    let digest = format!("sha256:{}", sha256_hex(body.as_bytes()));
    let manifest = json!({
        "schema": "workline.design-manifest/v1",
        "id": id, "title": "Checkout", "revision": 1, "digest": digest,
        "sources": [],
        "maturity": {"requested": null, "attained": "handoff", "gaps": []},
        "history": [{"revision": 1, "digest": digest, "path": "DESIGN.md"}],
    });
    ws.write(
        &format!("docs/designs/{folder}/design-manifest.json"),
        &manifest.to_string(),
    );
}

#[test]
fn design_validate_runs_end_to_end_and_survives_off() {
    let ws = Ws::new();
    package(&ws, "001-design-checkout", "DES-001");
    let args = cap(
        "prepare",
        &["--operation", "validate", "--input", "package=DES-001"],
    );
    let (code, v) = ws.run(&args);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["receipt"]["outcome"], "completed", "{v:#}");
    assert_eq!(v["receipt"]["output"]["completeness"], "complete");
    assert_eq!(v["receipt"]["validations"][0]["id"], "design-manifest");
    assert_eq!(v["receipt"]["validations"][0]["passed"], true);
    assert_eq!(v["output"]["reference"]["id"], "DES-001");
    assert_eq!(v["persistence"], "registry");

    ws.write(".workflow/skills.toml", "[skills]\ndesign = \"off\"\n");
    let (code, v) = ws.run(&args);
    assert_eq!(code, 0);
    assert_eq!(
        v["receipt"]["outcome"], "completed",
        "validate survives off: {v:#}"
    );
    assert_eq!(v["resolution"]["state"], "disabled");

    let (code, v) = ws.run(&cap(
        "prepare",
        &[
            "--operation",
            "create",
            "--input",
            "title=x",
            "--input",
            "sources=a.md",
            "--input",
            "target=docs/designs",
        ],
    ));
    assert_eq!(code, 0);
    assert_eq!(error_code(&v), "CAPABILITY_OPERATION_OFF");
}

#[test]
fn design_validate_of_a_missing_package_is_blocked_not_a_failure() {
    let ws = Ws::new();
    let (code, v) = ws.run(&cap(
        "prepare",
        &["--operation", "validate", "--input", "package=DES-404"],
    ));
    assert_eq!(code, 0);
    assert_eq!(v["receipt"]["outcome"], "blocked");
    assert_eq!(error_code(&v), "DESIGN_PACKAGE_NOT_FOUND");
    assert!(
        v["receipt"]["next_action"]
            .as_str()
            .unwrap()
            .contains("aw designs")
    );
}

#[test]
fn the_human_view_renders_the_receipt_line_by_line() {
    let ws = Ws::new();
    let mut args = vec![
        "capability",
        "prepare",
        "--capability",
        "design",
        "--operation",
        "create",
        "--format",
        "human",
    ];
    args.extend_from_slice(&INPUTS);
    let (code, text) = ws.stdout(&args, None, &[]);
    assert_eq!(code, 0, "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "design.create — needs_input (attempt 1)");
    assert!(lines.contains(&"ran the built-in floor"));
    assert!(lines.iter().any(|l| l.starts_with("missing: ")));
    assert!(lines.last().unwrap().starts_with("next: "));
}

#[test]
fn prepare_in_a_subfolder_finds_the_workspace_above() {
    let ws = Ws::new();
    package(&ws, "001-design-checkout", "DES-001");
    let deep = ws.root().join("src/deep");
    std::fs::create_dir_all(&deep).unwrap();
    let (code, v) = ws.run_in(
        &deep,
        &cap(
            "prepare",
            &["--operation", "validate", "--input", "package=DES-001"],
        ),
        None,
        &[],
    );
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(
        v["request"]["context"]["workspace"],
        ws.root().to_str().unwrap()
    );
    assert_eq!(v["receipt"]["outcome"], "completed", "{v:#}");
    assert_eq!(v["output"]["reference"]["id"], "DES-001");
    // Authoring from the subfolder lands under the workspace's docs/designs, not the subfolder's.
    let mut args = cap("prepare", &["--operation", "create"]);
    args.extend_from_slice(&INPUTS);
    let (code, v) = ws.run_in(&deep, &args, None, &[]);
    assert_eq!(code, 0, "{v:#}");
    // The next number after the package DES-001.
    assert_eq!(
        v["semantic"]["allowed_destinations"],
        json!(["docs/designs/002-design-alta/DESIGN.md"])
    );
    assert_eq!(
        std::fs::read_dir(&deep).unwrap().count(),
        0,
        "nothing written here"
    );
}

#[test]
fn host_names_the_caller_and_an_unknown_host_is_refused() {
    let ws = Ws::new();
    let args = |host: Option<&'static str>| {
        let mut a = cap(
            "prepare",
            &["--operation", "validate", "--input", "package=DES-001"],
        );
        if let Some(h) = host {
            a.extend_from_slice(&["--host", h]);
        }
        a
    };
    let (code, v) = ws.run_with(&args(None), None, &[("CLAUDECODE", "1")]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["request"]["caller"]["host"], "claude-code");
    // The flag wins over the environment's markers.
    let (code, v) = ws.run_with(&args(Some("codex")), None, &[("CLAUDECODE", "1")]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["request"]["caller"]["host"], "codex");
    let (code, v) = ws.run(&args(Some("emacs")));
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(v["error"]["code"], "ARGS_INVALID");
    assert!(v["error"]["message"].as_str().unwrap().contains("emacs"));
    assert!(v["data"]["action"].as_str().unwrap().contains("codex"));
}

#[test]
fn a_hard_failure_in_the_human_view_shows_the_code_and_the_action() {
    let ws = Ws::new();
    let (code, text) = ws.stdout(
        &[
            "capability",
            "prepare",
            "--capability",
            "figma",
            "--format",
            "human",
        ],
        None,
        &[],
    );
    assert_eq!(code, 1, "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "✗ CAPABILITY_UNKNOWN", "{text}");
    assert!(lines[1].contains("'figma'"), "{text}");
    assert_eq!(lines[2], "", "{text}");
    assert_eq!(lines[3], "Next: use one of: design", "{text}");
}

#[test]
fn an_unknown_verb_is_unknown_command_naming_the_verbs() {
    let ws = Ws::new();
    let (code, v) = ws.run(&["capability", "publish", "--capability", "design", "--json"]);
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(v["error"]["code"], "UNKNOWN_COMMAND");
    let action = v["data"]["action"].as_str().unwrap();
    for verb in ["prepare", "continue", "validate", "apply"] {
        assert!(action.contains(verb), "{action}");
    }
}

#[test]
fn apply_refuses_a_request_edited_after_aw_issued_it() {
    let ws = Ws::new();
    let a2 = planned(&ws);
    let digest = a2["plan"]["approval_digest"].as_str().unwrap().to_owned();
    // A field edited, both digests left as issued.
    let mut request = a2["request"].clone();
    request["context"]["target"] = json!(".workflow");
    let (code, a) = apply(&ws, &request, &a2["plan"], &digest);
    assert_eq!(code, 0, "{a:#}");
    assert_eq!(error_code(&a), "CAPABILITY_APPROVAL_MISMATCH", "{a:#}");
    // The same edit with request_digest recomputed (it is public), and a plan and approval made
    // to match: semantic_inputs_digest still describes the original target.
    let mut body = request.clone();
    let map = body.as_object_mut().unwrap();
    map.remove("request_digest");
    map.remove("semantic_inputs_digest");
    let resealed = aw_core::canonical::semantic_digest(&body);
    request["request_digest"] = json!(resealed);
    let mut plan = a2["plan"].clone();
    plan["request_digest"] = json!(resealed);
    let path = ".workflow/skills.toml";
    let content = "[skills]\ndesign = \"off\"\n";
    let sid = request["semantic_inputs_digest"].as_str().unwrap();
    let forged = forged_digest(sid, &[(path, content)]);
    plan["artifacts"] = json!([{"path": path, "content": content}]);
    plan["preview"] = json!([{"path": path, "bytes": content.len(), "overwrite": false}]);
    plan["approval_digest"] = json!(forged);
    let (code, a) = apply(&ws, &request, &plan, &forged);
    assert_eq!(code, 0, "{a:#}");
    assert_eq!(error_code(&a), "CAPABILITY_APPROVAL_MISMATCH", "{a:#}");
    assert!(!ws.root().join(path).exists());
    assert!(!ws.root().join(NOTES).exists());
}

#[test]
fn a_plan_cannot_grant_itself_a_class_its_operation_does_not_plan() {
    let ws = Ws::new();
    let a2 = planned(&ws);
    let digest = a2["plan"]["approval_digest"].as_str().unwrap();
    // `requires_approval` is not sealed; listing `destructive` there must not make the approval
    // grant it (design.create plans read_only and local_additive only).
    let mut plan = a2["plan"].clone();
    plan["requires_approval"] = json!(["destructive"]);
    let (code, a) = apply(&ws, &a2["request"], &plan, digest);
    assert_eq!(code, 0, "{a:#}");
    assert_eq!(a["receipt"]["outcome"], "blocked");
    assert_eq!(error_code(&a), "CAPABILITY_APPROVAL_MISSING", "{a:#}");
    assert!(
        a["receipt"]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("destructive")
    );
    assert!(!ws.root().join(NOTES).exists());
}

#[test]
fn apply_refuses_a_plan_for_an_operation_that_writes_nothing() {
    let ws = Ws::new();
    package(&ws, "001-design-checkout", "DES-001");
    // `off` leaves design.validate running: a plan forged for it must not write either.
    ws.write(".workflow/skills.toml", "[skills]\ndesign = \"off\"\n");
    let (code, v) = ws.run(&cap(
        "prepare",
        &["--operation", "validate", "--input", "package=DES-001"],
    ));
    assert_eq!(code, 0, "{v:#}");
    let request = &v["request"];
    let sid = request["semantic_inputs_digest"].as_str().unwrap();
    let path = "docs/designs/planted.md";
    let arts = vec![
        json!({"path": path, "content_digest": aw_core::canonical::semantic_digest(&json!("x"))}),
    ];
    let digest = aw_core::canonical::semantic_digest(
        &json!({"operation": "design.validate", "input_digest": sid, "artifacts": arts}),
    );
    let plan = json!({
        "capability": "design", "operation": "validate",
        "request_digest": request["request_digest"], "semantic_inputs_digest": sid,
        "artifacts": [{"path": path, "content": "x"}],
        "preview": [{"path": path, "bytes": 1, "overwrite": false}],
        "approval_digest": digest, "requires_approval": [], "base": null,
    });
    let (code, a) = apply(&ws, request, &plan, &digest);
    assert_eq!(code, 0, "{a:#}");
    assert_eq!(error_code(&a), "CAPABILITY_EFFECT_NOT_DURABLE", "{a:#}");
    assert!(!ws.root().join(path).exists());
}

#[test]
fn a_destination_in_the_git_folder_is_refused_and_leaves_no_folder() {
    let ws = Ws::new();
    let mut args = cap(
        "prepare",
        &["--operation", "create", "--target", ".git/hooks"],
    );
    args.extend_from_slice(&INPUTS);
    let (code, a1) = ws.run(&args);
    assert_eq!(code, 0, "{a1:#}");
    assert_eq!(error_code(&a1), "SEMANTIC_PATH_REJECTED", "{a1:#}");
    // A plan forged for that request is refused at apply, before any folder is made.
    let path = ".git/hooks/pre-commit";
    let content = "#!/bin/sh\n";
    let sid = a1["request"]["semantic_inputs_digest"].as_str().unwrap();
    let digest = forged_digest(sid, &[(path, content)]);
    let plan = json!({
        "capability": "design", "operation": "create",
        "request_digest": a1["request"]["request_digest"],
        "semantic_inputs_digest": sid,
        "artifacts": [{"path": path, "content": content}],
        "preview": [{"path": path, "bytes": content.len(), "overwrite": false}],
        "approval_digest": digest, "requires_approval": [], "base": null,
    });
    let (code, a) = apply(&ws, &a1["request"], &plan, &digest);
    assert_eq!(code, 0, "{a:#}");
    assert_eq!(error_code(&a), "SEMANTIC_PATH_REJECTED", "{a:#}");
    assert!(
        !ws.root().join(".git").exists(),
        "no .git folder left behind"
    );
}

#[test]
fn stdin_is_read_within_its_bounds() {
    let ws = Ws::new();
    let a1 = prepare(&ws);
    let stdin = json!({"parent": a1["request"]}).to_string();
    let mut args = cap("continue", &[]);
    args.extend_from_slice(&INPUTS);
    let (code, v) = ws.run_with(&args, Some(&stdin), &[("AW_ANSWER_MAX_BYTES", "64")]);
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(v["error"]["code"], "FLOW_ANSWER_TOO_LARGE");
    // A leading byte-order mark is dropped, as for a flow answer.
    let (code, v) = ws.run_with(&args, Some(&format!("\u{feff}{stdin}")), &[]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["request"]["attempt"], 2);
}

/// A plan whose artifacts are replaced by `artifacts` (path, content, overwrite), with its
/// preview and approval digest recomputed the way anyone can (the algorithm is public).
fn forged_plan(a2: &Value, artifacts: &[(&str, &str, bool)]) -> (Value, String) {
    let sid = a2["request"]["semantic_inputs_digest"].as_str().unwrap();
    let pairs: Vec<(&str, &str)> = artifacts.iter().map(|(p, c, _)| (*p, *c)).collect();
    let digest = forged_digest(sid, &pairs);
    let mut plan = a2["plan"].clone();
    plan["artifacts"] = artifacts
        .iter()
        .map(|(p, c, o)| {
            if *o {
                json!({"path": p, "content": c, "overwrite": true})
            } else {
                json!({"path": p, "content": c})
            }
        })
        .collect();
    plan["preview"] = artifacts
        .iter()
        .map(|(p, c, o)| json!({"path": p, "bytes": c.len(), "overwrite": o}))
        .collect();
    plan["approval_digest"] = json!(digest);
    (plan, digest)
}

#[test]
fn an_overwrite_flag_added_to_a_create_plan_never_replaces_a_file() {
    // The approval digest does not cover `overwrite` (the reference's digest), so the flag could
    // be flipped after a person approved the files. `create` plans no `mutate_overwrite`: an
    // artifact allowed to replace a file is an effect the operation never planned.
    let ws = Ws::new();
    let a2 = planned(&ws);
    ws.write("docs/designs/keep.md", "original\n");
    let (plan, digest) = forged_plan(&a2, &[("docs/designs/keep.md", "PWNED", true)]);
    let (code, a) = apply(&ws, &a2["request"], &plan, &digest);
    assert_eq!(code, 0, "{a:#}");
    assert_eq!(error_code(&a), "CAPABILITY_EFFECT_UNPLANNED", "{a:#}");
    assert_eq!(ws.read("docs/designs/keep.md"), "original\n");
}

#[cfg(unix)]
#[test]
fn a_link_inside_the_destination_cannot_carry_a_write_elsewhere_in_the_workspace() {
    // The approved path reads `docs/designs/wf/x.json`; a link there that leads to `.workflow`
    // (inside the workspace, outside the destination) must not put the file in aw's own state.
    let ws = Ws::new();
    let a2 = planned(&ws);
    std::fs::create_dir_all(ws.root().join("docs/designs")).unwrap();
    std::os::unix::fs::symlink("../../.workflow", ws.root().join("docs/designs/wf")).unwrap();
    let (plan, digest) = forged_plan(&a2, &[("docs/designs/wf/x.json", "{}", false)]);
    let (code, a) = apply(&ws, &a2["request"], &plan, &digest);
    assert_eq!(code, 0, "{a:#}");
    assert_eq!(a["receipt"]["outcome"], "blocked", "{a:#}");
    assert_eq!(error_code(&a), "SEMANTIC_PATH_REJECTED", "{a:#}");
    assert!(!ws.root().join(".workflow/x.json").exists());
    // A link that stays inside the destination is still followed.
    std::fs::create_dir_all(ws.root().join("docs/designs/real")).unwrap();
    std::os::unix::fs::symlink("real", ws.root().join("docs/designs/alias")).unwrap();
    let (plan, digest) = forged_plan(&a2, &[("docs/designs/alias/y.md", "y", false)]);
    let (_, a) = apply(&ws, &a2["request"], &plan, &digest);
    assert_eq!(a["receipt"]["outcome"], "completed", "{a:#}");
    assert_eq!(ws.read("docs/designs/real/y.md"), "y");
}

#[test]
fn a_path_with_a_control_character_or_absurd_depth_is_rejected_before_any_write() {
    let ws = Ws::new();
    let a1 = prepare(&ws);
    let deep = format!("docs/designs/{}x.md", "a/".repeat(3000));
    for path in [
        "docs/designs/a\nb.md",
        "docs/designs/a\u{0}b",
        deep.as_str(),
    ] {
        let (code, v) = validate(
            &ws,
            &a1["request"],
            &answer(INPUT_DIGEST, json!([{"path": path, "content": "x"}])),
        );
        assert_eq!(code, 0, "{v:#}");
        assert_eq!(error_code(&v), "SEMANTIC_PATH_REJECTED", "{path:?}: {v:#}");
    }
    // The same paths in a forged plan are refused at apply, before the lock is even taken.
    let a2 = planned(&ws);
    for path in ["docs/designs/a\nb.md", deep.as_str()] {
        let (plan, digest) = forged_plan(&a2, &[(path, "x", false)]);
        let (code, a) = apply(&ws, &a2["request"], &plan, &digest);
        assert_eq!(code, 0, "{a:#}");
        assert_eq!(error_code(&a), "SEMANTIC_PATH_REJECTED", "{a:#}");
    }
    assert!(!ws.root().join("docs").exists());
}

#[test]
fn validate_keeps_the_carried_host_and_refuses_a_different_one() {
    let ws = Ws::new();
    let a1 = prepare(&ws);
    assert_eq!(a1["request"]["caller"]["host"], "unknown");
    let stdin = json!({"request": a1["request"], "answer": null}).to_string();
    let (code, v) = ws.run_with(&cap("validate", &["--host", "codex"]), Some(&stdin), &[]);
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(v["error"]["code"], "ARGS_INVALID");
    // A host detected from the environment does not rewrite the carried caller either.
    let (code, v) = ws.run_with(&cap("validate", &[]), Some(&stdin), &[("CLAUDECODE", "1")]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["request"]["caller"]["host"], "unknown", "{v:#}");
}

#[test]
fn apply_refuses_a_request_whose_semantic_inputs_digest_was_swapped() {
    let ws = Ws::new();
    let a2 = planned(&ws);
    let mut request = a2["request"].clone();
    request["semantic_inputs_digest"] = json!("0".repeat(64));
    // The plan and its seal, rebuilt around the swapped digest (request_digest does not cover it).
    let (mut plan, _) = forged_plan(&a2, &[(NOTES, DOC, false)]);
    let digest = forged_digest(&"0".repeat(64), &[(NOTES, DOC)]);
    plan["semantic_inputs_digest"] = request["semantic_inputs_digest"].clone();
    plan["approval_digest"] = json!(digest);
    let (code, a) = apply(&ws, &request, &plan, &digest);
    assert_eq!(code, 0, "{a:#}");
    assert_eq!(error_code(&a), "CAPABILITY_APPROVAL_MISMATCH", "{a:#}");
    assert!(!ws.root().join(NOTES).exists());
}

#[test]
fn a_plan_applies_only_in_the_workspace_it_was_prepared_in() {
    let ws = Ws::new();
    let a2 = planned(&ws);
    let other = Ws::new();
    let digest = a2["plan"]["approval_digest"].as_str().unwrap();
    let (code, a) = apply(&other, &a2["request"], &a2["plan"], digest);
    assert_eq!(code, 0, "{a:#}");
    assert_eq!(error_code(&a), "CAPABILITY_APPROVAL_MISMATCH", "{a:#}");
    assert!(!other.root().join(NOTES).exists());
    assert!(!ws.root().join(NOTES).exists());
}

/// `request` with its request_digest recomputed after an edit (the algorithm is public).
fn resealed(mut request: Value) -> Value {
    let mut body = request.clone();
    let map = body.as_object_mut().unwrap();
    map.remove("request_digest");
    map.remove("semantic_inputs_digest");
    request["request_digest"] = json!(aw_core::canonical::semantic_digest(&body));
    request
}

#[test]
fn a_carried_request_cannot_skip_the_caller_table() {
    let ws = Ws::new();
    let a1 = prepare(&ws);
    let mut request = a1["request"].clone();
    request["caller"]["route"] = json!("compose");
    request["caller"]["flow"] = json!("quick");
    let request = resealed(request);
    let (code, v) = validate(
        &ws,
        &request,
        &answer(INPUT_DIGEST, json!([{"path": NOTES, "content": "x"}])),
    );
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(v["error"]["code"], "CAPABILITY_COMPOSE_NOT_ALLOWED");
    let mut request = a1["request"].clone();
    request["caller"]["route"] = json!("compose");
    request["caller"]["flow"] = json!("nope");
    let (code, v) = validate(&ws, &resealed(request), &Value::Null);
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(v["error"]["code"], "ARGS_INVALID");
}

#[test]
fn the_workspace_state_folder_is_never_a_destination() {
    let ws = Ws::new();
    let mut args = cap(
        "prepare",
        &["--operation", "create", "--target", ".workflow"],
    );
    args.extend_from_slice(&INPUTS);
    let (code, a1) = ws.run(&args);
    assert_eq!(code, 0, "{a1:#}");
    assert_eq!(error_code(&a1), "SEMANTIC_PATH_REJECTED", "{a1:#}");
    // A plan forged for that request (its digests are public) is refused at apply too.
    let path = ".workflow/skills.toml";
    let content = "[skills]\ndesign = \"off\"\n";
    let sid = a1["request"]["semantic_inputs_digest"].as_str().unwrap();
    let digest = forged_digest(sid, &[(path, content)]);
    let plan = json!({
        "capability": "design", "operation": "create",
        "request_digest": a1["request"]["request_digest"],
        "semantic_inputs_digest": sid,
        "artifacts": [{"path": path, "content": content}],
        "preview": [{"path": path, "bytes": content.len(), "overwrite": false}],
        "approval_digest": digest, "requires_approval": [], "base": null,
    });
    let (code, a) = apply(&ws, &a1["request"], &plan, &digest);
    assert_eq!(code, 0, "{a:#}");
    assert_eq!(error_code(&a), "SEMANTIC_PATH_REJECTED", "{a:#}");
    assert!(!ws.root().join(path).exists());
}

#[test]
fn the_human_view_of_a_plan_shows_what_approving_would_write() {
    let ws = Ws::new();
    let a1 = prepare(&ws);
    let stdin = json!({
        "request": a1["request"],
        "answer": answer(INPUT_DIGEST, json!([{"path": NOTES, "content": DOC}])),
    })
    .to_string();
    let (code, text) = ws.stdout(
        &[
            "capability",
            "validate",
            "--capability",
            "design",
            "--format",
            "human",
        ],
        Some(&stdin),
        &[],
    );
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("\nplan (approval_digest "), "{text}");
    assert!(
        text.contains(&format!("\n  + {NOTES} ({} bytes)", DOC.len())),
        "{text}"
    );
}

#[test]
fn a_blocked_apply_says_nothing_was_applied_and_what_to_do() {
    let ws = Ws::new();
    let a2 = planned(&ws);
    ws.write(NOTES, "already here\n");
    let digest = a2["plan"]["approval_digest"].as_str().unwrap();
    let (_, a) = apply(&ws, &a2["request"], &a2["plan"], digest);
    // Someone took the package's folder meanwhile: its number is no longer free.
    assert_eq!(error_code(&a), "DESIGN_NUMBER_TAKEN");
    let next = a["receipt"]["next_action"].as_str().unwrap();
    let rest = next.strip_prefix("no effect was applied; ").expect(next);
    assert!(
        rest.chars().next().is_some_and(char::is_lowercase),
        "{next}"
    );
    assert_eq!(ws.read(NOTES), "already here\n");
}
