//! The `design` capability's package format v1, end to end through `aw capability`: `create`
//! (prepare → validate → apply) writes `NNN-design-<slug>/DESIGN.md` and the manifest aw
//! derives; `validate` judges it; `update` archives a revision against a compare-and-swap base;
//! the refusals (an authored manifest, the content gate, a stale base, a number taken by a
//! concurrent create) write nothing; composed calls obey the caller table; an explicit root
//! outside any workspace is published into; `render` writes a projection aw makes itself (and
//! re-rendering is a no-op); `record` writes a review that opens the plan-exec approval gate.

use crate::support::Ws;
use aw_core::canonical::sha256_hex;
use serde_json::{Value, json};
use std::path::Path;

pub(crate) const DOC: &str = "# Checkout\n\n## Objective\n\nPay in one step.\n\n## Proposed design\n\nOne page with the cart and the card form.\n\n## Validation\n\nA person pays in under a minute.\n";
pub(crate) const DOC_2: &str = "# Checkout\n\n## Objective\n\nPay in one step.\n\n## Proposed design\n\nOne page; the card form remembers the last card.\n\n## Decisions\n\nNo account needed.\n\n## Validation\n\nA person pays in under a minute.\n";
pub(crate) const PKG: &str = "docs/designs/001-design-checkout";

fn digest(text: &str) -> String {
    format!("sha256:{}", sha256_hex(text.as_bytes()))
}

pub(crate) fn cap<'a>(verb: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec!["capability", verb, "--capability", "design", "--json"];
    v.extend_from_slice(extra);
    v
}

pub(crate) fn create_args<'a>(title: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "--operation",
        "create",
        "--input",
        title,
        "--input",
        "sources=docs/req.md",
        "--input",
        "target=docs/designs",
    ];
    v.extend_from_slice(extra);
    v
}

pub(crate) fn prepare_in(ws: &Ws, dir: &Path, args: &[&str]) -> Value {
    let (code, v) = ws.run_in(dir, &cap("prepare", args), None, &[]);
    assert_eq!(code, 0, "{v:#}");
    v
}

pub(crate) fn prepare(ws: &Ws, args: &[&str]) -> Value {
    prepare_in(ws, ws.root(), args)
}

/// The answer to an attempt's semantic request: `artifacts` as (path, content).
pub(crate) fn answer(attempt: &Value, artifacts: &[(&str, &str)]) -> Value {
    let s = &attempt["semantic"];
    json!({
        "version": 1, "operation": s["operation"], "input_digest": s["input_digest"],
        "state": "proposed",
        "artifacts": artifacts.iter().map(|(p, c)| json!({"path": p, "content": c})).collect::<Vec<_>>()
    })
}

pub(crate) fn validate_in(ws: &Ws, dir: &Path, attempt: &Value, answer: &Value) -> Value {
    let stdin = json!({"request": attempt["request"], "answer": answer}).to_string();
    let (code, v) = ws.run_in(dir, &cap("validate", &[]), Some(&stdin), &[]);
    assert_eq!(code, 0, "{v:#}");
    v
}

pub(crate) fn validate(ws: &Ws, attempt: &Value, answer: &Value) -> Value {
    validate_in(ws, ws.root(), attempt, answer)
}

fn apply_in(ws: &Ws, dir: &Path, planned: &Value) -> Value {
    let stdin = json!({"request": planned["request"], "plan": planned["plan"]}).to_string();
    let approval = planned["plan"]["approval_digest"].as_str().unwrap();
    let (code, v) = ws.run_in(
        dir,
        &cap("apply", &["--approval", approval]),
        Some(&stdin),
        &[],
    );
    assert_eq!(code, 0, "{v:#}");
    v
}

fn apply(ws: &Ws, planned: &Value) -> Value {
    apply_in(ws, ws.root(), planned)
}

fn code(attempt: &Value) -> &str {
    attempt["receipt"]["error"]["code"].as_str().unwrap_or("")
}

/// A workspace with the design's source, and DES-001 created from [`DOC`].
fn created() -> Ws {
    created_in(Ws::new())
}

/// [`created`], in `ws` (a workspace with a pinned clock, say).
fn created_in(ws: Ws) -> Ws {
    ws.write("docs/req.md", "# Requirements\n");
    let a1 = prepare(&ws, &create_args("title=Checkout", &[]));
    let a2 = validate(
        &ws,
        &a1,
        &answer(&a1, &[(&format!("{PKG}/DESIGN.md"), DOC)]),
    );
    let a3 = apply(&ws, &a2);
    assert_eq!(a3["receipt"]["outcome"], "completed", "{a3:#}");
    ws
}

fn design_validate(ws: &Ws, id: &str) -> Value {
    let package = format!("package={id}");
    prepare(ws, &["--operation", "validate", "--input", &package])
}

#[test]
fn create_writes_the_package_and_the_manifest_of_the_format() {
    let ws = Ws::new();
    ws.write("docs/req.md", "# Requirements\n");
    let a1 = prepare(
        &ws,
        &create_args("title=Checkout", &["--input", "maturity=handoff"]),
    );
    assert_eq!(a1["receipt"]["outcome"], "needs_input");
    let dest = format!("{PKG}/DESIGN.md");
    assert_eq!(a1["semantic"]["allowed_destinations"], json!([dest]));
    assert_eq!(
        a1["semantic"]["answer_skeleton"]["artifacts"][0]["path"],
        dest
    );
    assert!(
        a1["semantic"]["contract"]
            .as_str()
            .unwrap()
            .contains("## Proposed design")
    );

    let a2 = validate(&ws, &a1, &answer(&a1, &[(&dest, DOC)]));
    assert_eq!(a2["receipt"]["outcome"], "needs_input", "{a2:#}");
    let plan = &a2["plan"];
    let paths: Vec<&str> = plan["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        [dest.as_str(), &format!("{PKG}/design-manifest.json")]
    );
    assert_eq!(plan["requires_approval"], json!([]));
    let reference = &a2["output"]["reference"];
    assert_eq!(
        *reference,
        json!({"id": "DES-001", "revision": 1, "digest": digest(DOC), "locator": PKG})
    );
    assert_eq!(a2["output"]["value"]["design"]["package"], "DES-001");
    assert!(!ws.root().join(PKG).exists(), "validate writes nothing");

    let a3 = apply(&ws, &a2);
    assert_eq!(a3["receipt"]["outcome"], "completed", "{a3:#}");
    assert_eq!(ws.read(&dest), DOC);
    let text = ws.read(&format!("{PKG}/design-manifest.json"));
    let manifest: Value = serde_json::from_str(&text).unwrap();
    let keys: Vec<&str> = manifest
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "schema", "id", "title", "revision", "digest", "sources", "maturity", "history"
        ]
    );
    assert_eq!(
        manifest,
        json!({
            "schema": "workline.design-manifest/v1",
            "id": "DES-001",
            "title": "Checkout",
            "revision": 1,
            "digest": digest(DOC),
            "sources": [{"name": "sources", "kind": "markdown", "locator": "docs/req.md",
                         "disposition": "used", "reason": null, "derived": [],
                         "sensitivity": "public", "essential": true}],
            "maturity": {"requested": "handoff", "attained": "handoff", "gaps": []},
            "history": [{"revision": 1, "digest": digest(DOC), "path": "DESIGN.md"}]
        })
    );
    assert!(text.ends_with("}\n"));
    // Exactly the two files, in a folder of their own.
    let files: Vec<String> = ws
        .tree()
        .into_iter()
        .filter(|(p, bytes)| p.starts_with("docs/designs/") && bytes.is_some())
        .map(|(p, _)| p)
        .collect();
    assert_eq!(
        files,
        [
            format!("{PKG}/DESIGN.md"),
            format!("{PKG}/design-manifest.json")
        ]
    );

    // The next create numbers after it.
    let b1 = prepare(&ws, &create_args("title=Refunds", &[]));
    assert_eq!(
        b1["semantic"]["allowed_destinations"],
        json!(["docs/designs/002-design-refunds/DESIGN.md"])
    );
}

#[test]
fn validate_of_a_created_package_passes_both_checks_with_its_maturity() {
    let ws = created();
    let v = design_validate(&ws, "DES-001");
    assert_eq!(v["receipt"]["outcome"], "completed", "{v:#}");
    assert_eq!(
        v["receipt"]["validations"],
        json!([
            {"id": "design-manifest", "passed": true, "detail": null},
            {"id": "design-content", "passed": true, "detail": null}
        ])
    );
    assert_eq!(v["output"]["value"]["ok"], true);
    assert_eq!(
        v["output"]["value"]["design"]["maturity"],
        json!({"requested": null, "attained": "handoff"})
    );
    assert_eq!(v["output"]["value"]["gaps"], json!([]));
    assert_eq!(v["output"]["reference"]["revision"], 1);

    // A DESIGN.md edited by hand breaks the seal, and the source gone breaks a reference.
    ws.write(&format!("{PKG}/DESIGN.md"), "# Checkout\n");
    std::fs::remove_file(ws.root().join("docs/req.md")).unwrap();
    let v = design_validate(&ws, "DES-001");
    assert_eq!(v["receipt"]["outcome"], "completed");
    let checks = &v["receipt"]["validations"];
    assert_eq!(checks[0]["passed"], false);
    assert!(
        checks[0]["detail"]
            .as_str()
            .unwrap()
            .contains("DESIGN_DIGEST_MISMATCH")
    );
    assert_eq!(checks[1]["passed"], false);
    assert!(
        checks[1]["detail"]
            .as_str()
            .unwrap()
            .contains("DESIGN_CONTENT_INVALID")
    );
    assert_eq!(
        v["output"]["value"]["design"]["maturity"]["attained"],
        "outline"
    );
    assert!(!v["output"]["value"]["gaps"].as_array().unwrap().is_empty());
}

pub(crate) fn update_attempt(ws: &Ws, base: &str) -> Value {
    let base = format!("base={base}");
    prepare(
        ws,
        &[
            "--operation",
            "update",
            "--input",
            "package=DES-001",
            "--input",
            &base,
        ],
    )
}

#[test]
fn update_on_the_current_base_archives_the_revision_and_extends_the_history() {
    let ws = created();
    let u1 = update_attempt(&ws, "DES-001@r1");
    assert_eq!(u1["receipt"]["outcome"], "needs_input", "{u1:#}");
    let dest = format!("{PKG}/DESIGN.md");
    assert_eq!(u1["semantic"]["allowed_destinations"], json!([dest]));
    let u2 = validate(&ws, &u1, &answer(&u1, &[(&dest, DOC_2)]));
    assert_eq!(u2["receipt"]["outcome"], "needs_input", "{u2:#}");
    assert_eq!(u2["plan"]["requires_approval"], json!(["mutate_overwrite"]));
    assert_eq!(
        u2["plan"]["base"]["path"],
        format!("{PKG}/design-manifest.json")
    );
    let u3 = apply(&ws, &u2);
    assert_eq!(u3["receipt"]["outcome"], "completed", "{u3:#}");
    assert_eq!(
        u3["receipt"]["effects"]["applied"],
        json!(["local_additive", "mutate_overwrite"])
    );
    assert_eq!(ws.read(&format!("{PKG}/revisions/DESIGN-r001.md")), DOC);
    assert_eq!(ws.read(&dest), DOC_2);
    let manifest: Value =
        serde_json::from_str(&ws.read(&format!("{PKG}/design-manifest.json"))).unwrap();
    assert_eq!(manifest["revision"], 2);
    assert_eq!(manifest["digest"], digest(DOC_2));
    assert_eq!(
        manifest["history"],
        json!([
            {"revision": 1, "digest": digest(DOC), "path": "revisions/DESIGN-r001.md"},
            {"revision": 2, "digest": digest(DOC_2), "path": "DESIGN.md"}
        ])
    );
    let v = design_validate(&ws, "DES-001");
    assert_eq!(v["output"]["value"]["ok"], true, "{v:#}");
    assert_eq!(v["output"]["reference"]["revision"], 2);
}

#[test]
fn a_stale_base_is_refused_at_prepare_and_at_apply_and_writes_nothing() {
    let ws = created();
    // Two updates prepared on r1; the first one publishes r2.
    let first = update_attempt(&ws, "DES-001@r1");
    let second = update_attempt(&ws, "DES-001@r1");
    let dest = format!("{PKG}/DESIGN.md");
    let first = validate(&ws, &first, &answer(&first, &[(&dest, DOC_2)]));
    let second = validate(&ws, &second, &answer(&second, &[(&dest, DOC)]));
    assert_eq!(apply(&ws, &first)["receipt"]["outcome"], "completed");
    let before = ws.tree();
    // The second plan's base (the r1 manifest) is gone: refused under the lock.
    let late = apply(&ws, &second);
    assert_eq!(code(&late), "CAPABILITY_BASE_STALE", "{late:#}");
    // A new update on the old base is refused before anyone authors anything.
    let stale = update_attempt(&ws, "DES-001@r1");
    assert_eq!(stale["receipt"]["outcome"], "blocked");
    assert_eq!(code(&stale), "DESIGN_BASE_STALE");
    assert!(
        stale["receipt"]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("DES-001@r2")
    );
    assert_eq!(ws.tree(), before, "nothing written");
}

#[test]
fn an_answer_that_authors_the_manifest_or_breaks_the_content_gate_writes_nothing() {
    let ws = Ws::new();
    let a1 = prepare(&ws, &create_args("title=Checkout", &[]));
    let dest = format!("{PKG}/DESIGN.md");
    let manifest = format!("{PKG}/design-manifest.json");
    let before = ws.tree();
    let v = validate(&ws, &a1, &answer(&a1, &[(&dest, DOC), (&manifest, "{}")]));
    assert_eq!(v["receipt"]["outcome"], "blocked");
    assert_eq!(code(&v), "SEMANTIC_PATH_REJECTED");
    assert!(
        v["receipt"]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("design-manifest.json")
    );
    assert_eq!(v["plan"], Value::Null);
    // Another number than the one this request authors: refused, naming the expected path.
    let v = validate(
        &ws,
        &a1,
        &answer(&a1, &[("docs/designs/007-design-checkout/DESIGN.md", DOC)]),
    );
    assert_eq!(code(&v), "SEMANTIC_PATH_REJECTED");
    assert!(
        v["receipt"]["error"]["message"]
            .as_str()
            .unwrap()
            .contains(&dest)
    );
    // The content gate: a missing required section, an empty optional one.
    for bad in [
        "# Checkout\n\n## Objective\n\nPay.\n",
        &format!("{DOC}\n## Open questions\n\n"),
        "Checkout\n\n## Objective\n\nx\n\n## Proposed design\n\ny\n\n## Validation\n\nz\n",
    ] {
        let v = validate(&ws, &a1, &answer(&a1, &[(&dest, bad)]));
        assert_eq!(v["receipt"]["outcome"], "blocked", "{bad}");
        assert_eq!(code(&v), "DESIGN_CONTENT_INVALID", "{bad}");
        assert_eq!(v["plan"], Value::Null);
    }
    assert_eq!(ws.tree(), before, "nothing written");
}

#[test]
fn open_questions_keep_a_created_package_at_outline() {
    let ws = Ws::new();
    ws.write("docs/req.md", "# Requirements\n");
    let a1 = prepare(
        &ws,
        &create_args("title=Checkout", &["--input", "maturity=handoff"]),
    );
    let doc = format!("{DOC}\n## Open questions\n\n- Which cards?\n");
    let a2 = validate(
        &ws,
        &a1,
        &answer(&a1, &[(&format!("{PKG}/DESIGN.md"), &doc)]),
    );
    assert_eq!(
        a2["output"]["value"]["design"]["maturity"],
        json!({"requested": "handoff", "attained": "outline"})
    );
    assert_eq!(a2["output"]["value"]["gaps"].as_array().unwrap().len(), 2);
    apply(&ws, &a2);
    let v = design_validate(&ws, "DES-001");
    assert_eq!(v["output"]["value"]["ok"], true, "{v:#}");
    assert_eq!(
        v["output"]["value"]["design"]["maturity"]["attained"],
        "outline"
    );
}

#[test]
fn two_creates_prepared_at_once_publish_one_number_once() {
    let ws = Ws::new();
    let a = prepare(&ws, &create_args("title=Checkout", &[]));
    let b = prepare(&ws, &create_args("title=Refunds", &[]));
    let a = validate(
        &ws,
        &a,
        &answer(&a, &[("docs/designs/001-design-checkout/DESIGN.md", DOC)]),
    );
    let b = validate(
        &ws,
        &b,
        &answer(
            &b,
            &[(
                "docs/designs/001-design-refunds/DESIGN.md",
                &DOC.replace("# Checkout", "# Refunds"),
            )],
        ),
    );
    assert_eq!(apply(&ws, &a)["receipt"]["outcome"], "completed");
    let before = ws.tree();
    let late = apply(&ws, &b);
    assert_eq!(late["receipt"]["outcome"], "blocked");
    assert_eq!(code(&late), "DESIGN_NUMBER_TAKEN", "{late:#}");
    assert!(
        late["receipt"]["next_action"]
            .as_str()
            .unwrap()
            .contains("prepare and validate again")
    );
    assert_eq!(ws.tree(), before, "nothing half-written");
    assert!(!ws.root().join("docs/designs/001-design-refunds").exists());
    // Prepared again, it takes the next number.
    let b = prepare(&ws, &create_args("title=Refunds", &[]));
    assert_eq!(
        b["semantic"]["allowed_destinations"],
        json!(["docs/designs/002-design-refunds/DESIGN.md"])
    );
}

/// An agent retrying after a lost answer applies the same plan again: the package is there,
/// with the plan's bytes, so the apply is complete and writes nothing — never "number taken"
/// (which would have it prepare a duplicate package) nor "stale" for an update.
#[test]
fn the_same_create_or_update_applied_again_is_already_published() {
    let ws = Ws::new();
    ws.write("docs/req.md", "# Requirements\n");
    let a1 = prepare(&ws, &create_args("title=Checkout", &[]));
    let dest = format!("{PKG}/DESIGN.md");
    let a2 = validate(&ws, &a1, &answer(&a1, &[(&dest, DOC)]));
    assert_eq!(apply(&ws, &a2)["receipt"]["outcome"], "completed");
    let before = ws.tree();
    let again = apply(&ws, &a2);
    assert_eq!(again["receipt"]["outcome"], "completed", "{again:#}");
    assert_eq!(code(&again), "");
    assert_eq!(
        again["output"]["value"]["already_published"],
        json!([dest, format!("{PKG}/design-manifest.json")])
    );
    assert_eq!(again["output"]["value"]["written"], json!([]));
    assert!(
        again["receipt"]["next_action"]
            .as_str()
            .unwrap()
            .contains("already published")
    );
    assert_eq!(ws.tree(), before, "nothing written");

    let u1 = update_attempt(&ws, "DES-001@r1");
    let u2 = validate(&ws, &u1, &answer(&u1, &[(&dest, DOC_2)]));
    assert_eq!(apply(&ws, &u2)["receipt"]["outcome"], "completed");
    let before = ws.tree();
    let again = apply(&ws, &u2);
    assert_eq!(again["receipt"]["outcome"], "completed", "{again:#}");
    assert_eq!(again["output"]["value"]["written"], json!([]));
    assert_eq!(ws.tree(), before, "nothing written");
    let listed = ws.ok(&["designs", "--json"]);
    assert_eq!(
        listed["packages"].as_array().map(Vec::len),
        Some(1),
        "{listed:#}"
    );
    assert_eq!(listed["packages"][0]["ok"], true, "{listed:#}");
}

#[test]
fn a_create_applied_again_after_its_package_moved_on_is_complete_and_makes_no_second_package() {
    let ws = Ws::new();
    ws.write("docs/req.md", "# Requirements\n");
    let a1 = prepare(&ws, &create_args("title=Checkout", &[]));
    let dest = format!("{PKG}/DESIGN.md");
    let create = validate(&ws, &a1, &answer(&a1, &[(&dest, DOC)]));
    assert_eq!(apply(&ws, &create)["receipt"]["outcome"], "completed");
    let u1 = update_attempt(&ws, "DES-001@r1");
    let u2 = validate(&ws, &u1, &answer(&u1, &[(&dest, DOC_2)]));
    assert_eq!(apply(&ws, &u2)["receipt"]["outcome"], "completed");
    // An agent retries the create after a lost answer: the package it made is at r2 now.
    let before = ws.tree();
    let again = apply(&ws, &create);
    assert_eq!(again["receipt"]["outcome"], "completed", "{again:#}");
    assert_eq!(code(&again), "");
    assert_eq!(again["output"]["value"]["written"], json!([]));
    assert_eq!(
        again["output"]["value"]["changed_since"],
        json!([dest, format!("{PKG}/design-manifest.json")])
    );
    assert!(
        again["receipt"]["next_action"]
            .as_str()
            .unwrap()
            .contains("published before"),
        "{again:#}"
    );
    assert_eq!(ws.tree(), before, "nothing written");
    let listed = ws.ok(&["designs", "--json"]);
    assert_eq!(listed["packages"].as_array().map(Vec::len), Some(1));
}

#[test]
fn half_a_package_left_by_an_earlier_writer_is_completed_by_the_same_plan() {
    let ws = Ws::new();
    ws.write("docs/req.md", "# Requirements\n");
    let a1 = prepare(&ws, &create_args("title=Checkout", &[]));
    let dest = format!("{PKG}/DESIGN.md");
    let create = validate(&ws, &a1, &answer(&a1, &[(&dest, DOC)]));
    // What a writer that wrote file by file left when killed: an empty folder, a temporary
    // file, or the document without its manifest.
    for half in [
        &[][..],
        &[(".aw-tmp-q1w2e3", "{\"sch")][..],
        &[("DESIGN.md", DOC)][..],
    ] {
        let _ = std::fs::remove_dir_all(ws.root().join(PKG));
        std::fs::create_dir_all(ws.root().join(PKG)).unwrap();
        for (name, text) in half {
            ws.write(&format!("{PKG}/{name}"), text);
        }
        let listed = ws.ok(&["designs", "--json"]);
        assert!(
            listed["packages"].as_array().unwrap().is_empty()
                || listed["packages"][0]["ok"] == false,
            "{listed:#}"
        );
        let done = apply(&ws, &create);
        assert_eq!(
            done["receipt"]["outcome"], "completed",
            "{half:?}: {done:#}"
        );
        let listed = ws.ok(&["designs", "--json"]);
        assert_eq!(listed["packages"][0]["id"], "DES-001", "{listed:#}");
        assert_eq!(listed["packages"][0]["ok"], true, "{listed:#}");
        let names: Vec<String> = std::fs::read_dir(ws.root().join("docs/designs"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            ["001-design-checkout"],
            "no second package, nothing aside"
        );
    }
}

#[test]
fn a_package_in_a_hidden_design_root_can_be_updated() {
    let ws = Ws::new();
    ws.write("docs/req.md", "# Requirements\n");
    let pkg = "docs/designs/.drafts/001-design-checkout";
    let a1 = prepare(
        &ws,
        &[
            "--operation",
            "create",
            "--input",
            "title=Checkout",
            "--input",
            "sources=docs/req.md",
            "--input",
            "target=docs/designs/.drafts",
        ],
    );
    let dest = format!("{pkg}/DESIGN.md");
    let a2 = validate(&ws, &a1, &answer(&a1, &[(&dest, DOC)]));
    assert_eq!(apply(&ws, &a2)["receipt"]["outcome"], "completed", "{a2:#}");
    let u1 = update_attempt(&ws, "DES-001@r1");
    let u2 = validate(&ws, &u1, &answer(&u1, &[(&dest, DOC_2)]));
    let done = apply(&ws, &u2);
    assert_eq!(done["receipt"]["outcome"], "completed", "{done:#}");
    assert_eq!(ws.read(&dest), DOC_2);
    assert!(
        ws.root()
            .join(pkg)
            .join("revisions/DESIGN-r001.md")
            .is_file()
    );
}

#[test]
fn composed_calls_obey_the_caller_table() {
    let ws = Ws::new();
    let v = prepare(
        &ws,
        &create_args("title=Checkout", &["--flow", "spec-refine"]),
    );
    assert_eq!(v["receipt"]["outcome"], "needs_input", "{v:#}");
    assert_eq!(v["request"]["caller"]["route"], "compose");
    assert_eq!(
        v["semantic"]["allowed_destinations"],
        json!([format!("{PKG}/DESIGN.md")])
    );
    // The carried flow is kept through validate and apply.
    let v = validate(&ws, &v, &answer(&v, &[(&format!("{PKG}/DESIGN.md"), DOC)]));
    assert_eq!(v["request"]["caller"]["flow"], "spec-refine");
    assert_eq!(apply(&ws, &v)["receipt"]["outcome"], "completed");
    let (exit, v) = ws.run(&cap(
        "prepare",
        &create_args("title=Checkout", &["--flow", "plan-exec"]),
    ));
    assert_eq!(exit, 1);
    assert_eq!(v["error"]["code"], "CAPABILITY_COMPOSE_NOT_ALLOWED");
    let v = prepare(
        &ws,
        &[
            "--flow",
            "plan-exec",
            "--operation",
            "validate",
            "--input",
            "package=DES-001",
        ],
    );
    assert_eq!(v["receipt"]["outcome"], "completed", "{v:#}");
}

#[test]
fn outside_a_workspace_an_explicit_root_is_authored_end_to_end() {
    let ws = Ws::bare();
    let out = ws.root().parent().unwrap().join("designs-out");
    let target = out.to_str().unwrap().to_owned();
    let args = [
        "--operation",
        "create",
        "--target",
        &target,
        "--input",
        "title=Checkout",
        "--input",
        "sources=figma://file/abc",
        "--input",
        "target=",
    ];
    let a1 = prepare(&ws, &args);
    assert_eq!(a1["receipt"]["outcome"], "needs_input", "{a1:#}");
    assert_eq!(a1["request"]["context"]["workspace"], Value::Null);
    // Paths are relative to the explicit root.
    let dest = "001-design-checkout/DESIGN.md";
    assert_eq!(a1["semantic"]["allowed_destinations"], json!([dest]));
    let a2 = validate(&ws, &a1, &answer(&a1, &[(dest, DOC)]));
    assert_eq!(a2["receipt"]["outcome"], "needs_input", "{a2:#}");
    assert_eq!(
        a2["output"]["reference"]["locator"],
        format!("{target}/001-design-checkout")
    );
    assert_eq!(a2["output"]["value"]["design"]["root"], "explicit");
    // Applied from another folder: the root is absolute, so it is the same root.
    let elsewhere = ws.root().join("sub");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let a3 = apply_in(&ws, &elsewhere, &a2);
    assert_eq!(a3["receipt"]["outcome"], "completed", "{a3:#}");
    assert_eq!(
        std::fs::read_to_string(out.join(dest)).unwrap(),
        DOC,
        "the package is in the explicit root"
    );
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("001-design-checkout/design-manifest.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(manifest["id"], "DES-001");
    assert_eq!(manifest["sources"][0]["kind"], "provider_locator");
    assert!(!ws.root().join("001-design-checkout").exists());
    // The next create in that root takes the next number; the same plan again is complete and
    // writes nothing.
    let b1 = prepare(&ws, &args);
    assert_eq!(
        b1["semantic"]["allowed_destinations"],
        json!(["002-design-checkout/DESIGN.md"])
    );
    let again = apply(&ws, &a2);
    assert_eq!(again["receipt"]["outcome"], "completed", "{again:#}");
    assert_eq!(again["output"]["value"]["written"], json!([]));
    // A relative root outside a workspace would mean another folder at each stage.
    let v = prepare(
        &ws,
        &[
            "--operation",
            "create",
            "--target",
            "designs",
            "--input",
            "title=X",
            "--input",
            "sources=a.md",
            "--input",
            "target=",
        ],
    );
    assert_eq!(code(&v), "DESIGN_OUTPUT_ROOT_UNSAFE");
    // Without a root, still refused.
    let v = prepare(
        &ws,
        &[
            "--operation",
            "create",
            "--input",
            "title=X",
            "--input",
            "sources=a.md",
            "--input",
            "target=",
        ],
    );
    assert_eq!(code(&v), "DESIGN_OUTPUT_ROOT_REQUIRED");
}

fn render_args<'a>(profile: &'a str, package: &'a str) -> Vec<&'a str> {
    vec![
        "--operation",
        "render",
        "--input",
        package,
        "--input",
        profile,
    ]
}

fn paths_of(plan: &Value) -> Vec<String> {
    plan["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["path"].as_str().unwrap().to_owned())
        .collect()
}

fn sel(css: &str) -> scraper::Selector {
    scraper::Selector::parse(css).unwrap()
}

#[test]
fn render_portable_html_writes_a_self_contained_page_and_a_rerender_is_a_no_op() {
    let ws = created();
    let page = format!("{PKG}/renders/portable-html/DESIGN-r001.html");
    let a1 = prepare(
        &ws,
        &render_args("profile=portable-html", "package=DES-001"),
    );
    // No agent authors a projection: the first attempt is already the plan.
    assert_eq!(a1["receipt"]["outcome"], "needs_input", "{a1:#}");
    assert!(a1["semantic"].is_null());
    assert_eq!(paths_of(&a1["plan"]), [page.as_str()]);
    assert_eq!(a1["plan"]["artifacts"][0].get("overwrite"), None);
    // The descriptor declares network_external for every profile; aw still sends nothing.
    assert_eq!(a1["plan"]["requires_approval"], json!(["network_external"]));
    assert_eq!(a1["output"]["value"]["artifacts"], json!([page]));
    assert_eq!(a1["output"]["value"]["profile"], "portable-html");
    assert_eq!(a1["output"]["reference"]["locator"], page);
    assert!(!ws.root().join(format!("{PKG}/renders")).exists());

    let a2 = apply(&ws, &a1);
    assert_eq!(a2["receipt"]["outcome"], "completed", "{a2:#}");
    assert_eq!(a2["output"]["value"]["written"], json!([page]));
    let html = ws.read(&page);
    assert_eq!(
        a1["output"]["reference"]["digest"],
        digest(&html),
        "the reference proves the page"
    );
    assert!(html.starts_with("<!doctype html>"));
    let doc = scraper::Html::parse_document(&html);
    assert!(doc.errors.is_empty(), "parse errors: {:?}", doc.errors);
    let text = |css: &str| -> Vec<String> {
        doc.select(&sel(css))
            .map(|e| e.text().collect::<String>().trim().to_owned())
            .collect()
    };
    assert_eq!(text("title"), ["DES-001 r001 — Checkout"]);
    assert_eq!(text("h1"), ["Checkout"]);
    let h2 = text("h2");
    for section in [
        "Objective",
        "Proposed design",
        "Validation",
        "Sources",
        "Revision history",
        "Decision history",
    ] {
        assert!(h2.iter().any(|h| h == section), "{section} in {h2:?}");
    }
    assert!(html.contains("One page with the cart and the card form."));
    let sources = text("#sources td");
    assert!(sources.iter().any(|c| c == "docs/req.md"), "{sources:?}");
    assert!(sources.iter().any(|c| c == "used"), "{sources:?}");
    // Nothing that runs or fetches.
    for forbidden in ["script", "link", "img", "iframe", "object", "embed", "base"] {
        assert_eq!(doc.select(&sel(forbidden)).count(), 0, "<{forbidden}>");
    }
    for element in doc.select(&sel("*")) {
        for (name, value) in element.value().attrs() {
            assert_ne!(name, "src", "{value}");
            assert!(
                !value.contains("http:") && !value.contains("https:"),
                "{name}={value}"
            );
        }
    }
    assert!(!html.contains("url(") && !html.contains("@import"));

    // The same revision rendered again: the same plan, and an apply that writes nothing.
    let b1 = prepare(
        &ws,
        &render_args("profile=portable-html", "package=DES-001"),
    );
    assert_eq!(b1["plan"]["approval_digest"], a1["plan"]["approval_digest"]);
    let before = ws.tree();
    let b2 = apply(&ws, &b1);
    assert_eq!(b2["receipt"]["outcome"], "completed", "{b2:#}");
    assert_eq!(b2["output"]["value"]["written"], json!([]));
    assert_eq!(b2["output"]["value"]["already_published"], json!([page]));
    assert!(
        b2["receipt"]["next_action"]
            .as_str()
            .unwrap()
            .contains("already published")
    );
    assert_eq!(b2["receipt"]["effects"]["applied"], json!([]));
    assert_eq!(ws.tree(), before, "nothing was written");
    // The projection is never sealed: the package still validates, its manifest unchanged.
    let v = design_validate(&ws, "DES-001");
    assert_eq!(v["output"]["value"]["ok"], true, "{v:#}");
}

#[test]
fn render_for_another_profile_writes_a_handoff_bundle_with_digests() {
    let ws = created();
    // The --profile flag stands in for a blank profile input.
    let a1 = prepare(
        &ws,
        &[
            "--operation",
            "render",
            "--input",
            "package=DES-001",
            "--input",
            "profile=",
            "--profile",
            "figma",
        ],
    );
    let bundle_path = format!("{PKG}/renders/figma/bundle-r001.json");
    assert_eq!(paths_of(&a1["plan"]), [bundle_path.as_str()]);
    let a2 = apply(&ws, &a1);
    assert_eq!(a2["receipt"]["outcome"], "completed", "{a2:#}");
    let manifest = ws.read(&format!("{PKG}/design-manifest.json"));
    let bundle: Value = serde_json::from_str(&ws.read(&bundle_path)).unwrap();
    assert_eq!(
        bundle,
        json!({
            "schema": "workline.design-render-bundle/v1",
            "profile": "figma",
            "id": "DES-001",
            "revision": 1,
            "digest": digest(DOC),
            "artifacts": [
                {"path": "DESIGN.md", "digest": digest(DOC)},
                {"path": "design-manifest.json", "digest": digest(&manifest)}
            ],
            "note": "aw sends nothing; hand this bundle to figma"
        })
    );
}

#[test]
fn render_refuses_an_unknown_profile_and_a_missing_or_invalid_package() {
    let ws = created();
    let before = ws.tree();
    let a = prepare(&ws, &render_args("profile=figma-api", "package=DES-001"));
    assert_eq!(a["receipt"]["outcome"], "blocked");
    assert_eq!(code(&a), "DESIGN_ADAPTER_UNKNOWN");
    assert_eq!(
        a["receipt"]["next_action"],
        "the registered profiles are: claude-artifact, claude-design, figma, portable-html, stitch"
    );
    let a = prepare(
        &ws,
        &render_args("profile=portable-html", "package=DES-404"),
    );
    assert_eq!(code(&a), "DESIGN_PACKAGE_NOT_FOUND");
    assert_eq!(ws.tree(), before);
    // The source gone: the manifest still validates, the package does not.
    std::fs::remove_file(ws.root().join("docs/req.md")).unwrap();
    let a = prepare(
        &ws,
        &render_args("profile=portable-html", "package=DES-001"),
    );
    assert_eq!(code(&a), "DESIGN_REFERENCE_UNRESOLVED", "{a:#}");
    assert!(a["plan"].is_null());
    // DESIGN.md edited by hand: the seal is broken, no valid package has the identity.
    ws.write("docs/req.md", "# Requirements\n");
    ws.write(&format!("{PKG}/DESIGN.md"), DOC_2);
    let a = prepare(
        &ws,
        &render_args("profile=portable-html", "package=DES-001"),
    );
    assert_eq!(code(&a), "DESIGN_PACKAGE_NOT_FOUND", "{a:#}");
    assert!(!ws.root().join(format!("{PKG}/renders")).exists());
}

fn record_args<'a>(revision: &'a str, decision: &'a str) -> Vec<&'a str> {
    vec![
        "--operation",
        "record",
        "--input",
        "package=DES-001",
        "--input",
        revision,
        "--input",
        decision,
    ]
}

#[test]
fn record_writes_the_review_that_opens_the_approval_gate_and_a_second_replaces_it() {
    let ws = created_in(Ws::new().pinned_clock());
    let plan = "docs/plans/001-plan-checkout.md";
    ws.write(
        plan,
        "# Plan 001 — checkout\n\n> State: open\n\n## Design references\n\n- DES-001\n\n## Tasks\n\n- [ ] T1 — build it\n",
    );
    let gate = ["designs", "--plan", plan, "--require-approval", "--json"];
    ws.fails(&gate, "DESIGN_GATE_FAILED");

    let a1 = prepare(&ws, &record_args("revision=r1", "decision=approved"));
    assert_eq!(a1["receipt"]["outcome"], "needs_input", "{a1:#}");
    let review = format!("{PKG}/reviews/r001.json");
    assert_eq!(paths_of(&a1["plan"]), [review.as_str()]);
    assert_eq!(a1["plan"]["requires_approval"], json!(["mutate_overwrite"]));
    let a2 = apply(&ws, &a1);
    assert_eq!(a2["receipt"]["outcome"], "completed", "{a2:#}");
    assert_eq!(
        ws.read(&review),
        format!(
            "{{\n  \"schema\": \"workline.design-review/v1\",\n  \"id\": \"DES-001\",\n  \"revision\": 1,\n  \"digest\": \"{}\",\n  \"decision\": \"approved\",\n  \"note\": null,\n  \"recorded_at\": \"2026-03-10T09:15:00.000Z\"\n}}\n",
            digest(DOC)
        )
    );
    let v = ws.ok(&gate);
    assert_eq!(v["gate"]["passed"], true, "{v:#}");
    // The review is not part of the seal.
    assert_eq!(
        design_validate(&ws, "DES-001")["output"]["value"]["ok"],
        true
    );

    // A second decision on r1 (spelled N) replaces the first; the approval grants it.
    let b1 = prepare(&ws, &record_args("revision=1", "decision=rejected"));
    assert_eq!(b1["plan"]["artifacts"][0]["overwrite"], true, "{b1:#}");
    let b2 = apply(&ws, &b1);
    assert_eq!(b2["receipt"]["outcome"], "completed", "{b2:#}");
    assert_eq!(
        b2["receipt"]["effects"]["applied"],
        json!(["local_additive", "mutate_overwrite"])
    );
    assert!(ws.read(&review).contains("\"decision\": \"rejected\""));
    let v = ws.fails(&gate, "DESIGN_GATE_FAILED");
    assert_eq!(v["data"]["gate"]["references"][0]["verdict"], "unapproved");
}

#[test]
fn record_refuses_a_bad_decision_a_missing_revision_and_an_invalid_package() {
    let ws = created();
    let before = ws.tree();
    let a = prepare(&ws, &record_args("revision=r1", "decision=lgtm"));
    assert_eq!(code(&a), "DESIGN_DECISION_INVALID", "{a:#}");
    assert!(
        a["receipt"]["next_action"]
            .as_str()
            .unwrap()
            .contains("approved, rejected, changes-requested")
    );
    let a = prepare(&ws, &record_args("revision=r2", "decision=approved"));
    assert_eq!(code(&a), "DESIGN_REVISION_NOT_FOUND", "{a:#}");
    assert_eq!(ws.tree(), before);
    std::fs::remove_file(ws.root().join("docs/req.md")).unwrap();
    let a = prepare(&ws, &record_args("revision=r1", "decision=approved"));
    assert_eq!(code(&a), "DESIGN_REFERENCE_UNRESOLVED", "{a:#}");
    assert!(!ws.root().join(format!("{PKG}/reviews")).exists());
}

#[test]
fn an_explicit_root_inside_another_workspace_is_refused_at_every_stage() {
    let ws = Ws::bare();
    let base = ws.root().parent().unwrap().to_path_buf();
    let create_in = |root: &Path| {
        let target = root.to_str().unwrap().to_owned();
        prepare(
            &ws,
            &[
                "--operation",
                "create",
                "--target",
                &target,
                "--input",
                "title=Checkout",
                "--input",
                "sources=figma://file/abc",
                "--input",
                "target=",
            ],
        )
    };
    // A workspace elsewhere: its packages are numbered under its own lock, from inside it. A
    // fresh clone has `.workflow/` and no `sessions/` (git ignores it): still a workspace.
    let other = base.join("other");
    std::fs::create_dir_all(other.join(".workflow")).unwrap();
    let v = create_in(&other.join("docs/designs"));
    assert_eq!(code(&v), "DESIGN_OUTPUT_ROOT_UNSAFE", "{v:#}");
    assert!(
        v["receipt"]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("inside the workspace"),
        "{v:#}"
    );
    // Reached through a link, the same.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&other, base.join("via")).unwrap();
        let v = create_in(&base.join("via/designs"));
        assert_eq!(code(&v), "DESIGN_OUTPUT_ROOT_UNSAFE", "{v:#}");
    }
    // A plan prepared before the folder became a workspace is refused at apply, writing nothing.
    let later = base.join("later");
    let a1 = create_in(&later.join("designs"));
    assert_eq!(a1["receipt"]["outcome"], "needs_input", "{a1:#}");
    let dest = "001-design-checkout/DESIGN.md";
    let a2 = validate(&ws, &a1, &answer(&a1, &[(dest, DOC)]));
    assert_eq!(a2["receipt"]["outcome"], "needs_input", "{a2:#}");
    std::fs::create_dir_all(later.join(".workflow/sessions")).unwrap();
    let a3 = apply(&ws, &a2);
    assert_eq!(code(&a3), "DESIGN_OUTPUT_ROOT_UNSAFE", "{a3:#}");
    assert!(!later.join("designs").exists());
}

#[test]
fn a_package_source_nobody_published_is_recorded_unavailable_and_the_package_still_validates() {
    let ws = created();
    let create_from = |title: &str, source: &str, number: &str| {
        let title = format!("title={title}");
        let sources = format!("sources={source}");
        let a1 = prepare(
            &ws,
            &[
                "--operation",
                "create",
                "--input",
                &title,
                "--input",
                &sources,
                "--input",
                "target=docs/designs",
            ],
        );
        let slug = title["title=".len()..].to_lowercase();
        let folder = format!("docs/designs/{number}-design-{slug}");
        let a2 = validate(
            &ws,
            &a1,
            &answer(&a1, &[(&format!("{folder}/DESIGN.md"), DOC)]),
        );
        let a3 = apply(&ws, &a2);
        assert_eq!(a3["receipt"]["outcome"], "completed", "{a3:#}");
        let manifest: Value = serde_json::from_str(
            &std::fs::read_to_string(ws.root().join(folder).join("design-manifest.json")).unwrap(),
        )
        .unwrap();
        manifest
    };
    // DES-009 does not exist, and DES-001 never reached r5: neither contributed.
    for (title, source, number) in [("Login", "DES-009", "002"), ("Cart", "DES-001@r5", "003")] {
        let m = create_from(title, source, number);
        assert_eq!(m["sources"][0]["kind"], "package", "{m:#}");
        assert_eq!(m["sources"][0]["disposition"], "unavailable", "{m:#}");
        assert!(
            m["sources"][0]["reason"].as_str().unwrap().contains(source),
            "{m:#}"
        );
        assert_eq!(m["maturity"]["attained"], "outline", "{m:#}");
        let id = m["id"].as_str().unwrap();
        let v = design_validate(&ws, id);
        assert_eq!(v["output"]["value"]["ok"], true, "{v:#}");
    }
    // A package that exists, at a revision it has, is used.
    let m = create_from("Refund", "DES-001@r1", "004");
    assert_eq!(m["sources"][0]["disposition"], "used", "{m:#}");
    assert_eq!(m["maturity"]["attained"], "handoff", "{m:#}");
    // Its source gone, an update that keeps the package's own sources judges them again.
    std::fs::remove_dir_all(ws.root().join(PKG)).unwrap();
    let u1 = prepare(
        &ws,
        &[
            "--operation",
            "update",
            "--input",
            "package=DES-004",
            "--input",
            "base=DES-004@r1",
        ],
    );
    let dest = "docs/designs/004-design-refund/DESIGN.md";
    let u2 = validate(&ws, &u1, &answer(&u1, &[(dest, DOC_2)]));
    assert_eq!(apply(&ws, &u2)["receipt"]["outcome"], "completed");
    let m: Value =
        serde_json::from_str(&ws.read("docs/designs/004-design-refund/design-manifest.json"))
            .unwrap();
    assert_eq!(m["sources"][0]["disposition"], "unavailable", "{m:#}");
    assert_eq!(m["maturity"]["attained"], "outline", "{m:#}");
    assert_eq!(
        design_validate(&ws, "DES-004")["output"]["value"]["ok"],
        true
    );
}

#[test]
fn apply_outside_any_workspace_of_a_plan_made_in_one_needs_the_workspace() {
    let ws = Ws::new();
    ws.write("docs/req.md", "# Requirements\n");
    let a1 = prepare(&ws, &create_args("title=Checkout", &[]));
    let a2 = validate(
        &ws,
        &a1,
        &answer(&a1, &[(&format!("{PKG}/DESIGN.md"), DOC)]),
    );
    let elsewhere = tempfile::tempdir().unwrap();
    let stdin = json!({"request": a2["request"], "plan": a2["plan"]}).to_string();
    let approval = a2["plan"]["approval_digest"].as_str().unwrap();
    let (code, v) = ws.run_in(
        elsewhere.path(),
        &cap("apply", &["--approval", approval]),
        Some(&stdin),
        &[],
    );
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(v["error"]["code"], "CAPABILITY_WORKSPACE_REQUIRED", "{v:#}");
    assert!(!ws.root().join(PKG).exists());
}
