//! `aw persist prepare | validate | apply` end to end in temporary workspaces: the happy path,
//! each refusal (duplicate, stale answer, edited plan, escaping path), the hard failures, and the
//! numbering under concurrency (two plans made against one inventory, two applies racing).

use crate::support::Ws;
use aw_core::capability::plan::{DurablePlan, preview_of, resealed};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// A workspace with two specs (001, 003) and one plan (007).
pub(crate) fn workspace() -> Ws {
    let ws = Ws::new();
    ws.write(
        "docs/specs/001-spec-login.md",
        "---\nstatus: draft\n---\n# Login\n",
    );
    ws.write("docs/specs/003-spec-cache.md", "# Cache layer\n");
    ws.write("docs/plans/007-plan-login.md", "# Plan login\n");
    ws
}

pub(crate) fn prepare(ws: &Ws, kinds: &[&str]) -> Value {
    let mut args = vec!["persist", "prepare", "--json"];
    for k in kinds {
        args.extend(["--kind", k]);
    }
    let (code, v) = ws.run(&args);
    assert_eq!(code, 0, "{v:#}");
    v
}

pub(crate) fn item(kind: &str, slug: &str, title: &str) -> Value {
    json!({"kind": kind, "slug": slug, "title": title,
           "content": format!("# {title}\n\nDrafted from the conversation.\n")})
}

pub(crate) fn answer(digest: &Value, items: Value) -> Value {
    json!({"version": 1, "operation": "persist", "input_digest": digest, "state": "proposed",
           "items": items})
}

pub(crate) fn validate(ws: &Ws, kinds: &[&str], answer: &Value) -> (i32, Value) {
    let mut args = vec!["persist", "validate", "--json"];
    for k in kinds {
        args.extend(["--kind", k]);
    }
    ws.run_with(&args, Some(&json!({"answer": answer}).to_string()), &[])
}

/// prepare → validate with `items`: the validate result, which must carry a plan.
pub(crate) fn planned(ws: &Ws, items: Value) -> Value {
    let p1 = prepare(ws, &[]);
    let (code, p2) = validate(ws, &[], &answer(&p1["semantic"]["input_digest"], items));
    assert_eq!(code, 0, "{p2:#}");
    assert_eq!(p2["outcome"], "needs_input", "{p2:#}");
    p2
}

fn apply(ws: &Ws, plan: &Value, approval: &str) -> (i32, Value) {
    let stdin = json!({"plan": plan}).to_string();
    ws.run_with(
        &["persist", "apply", "--json", "--approval", approval],
        Some(&stdin),
        &[],
    )
}

pub(crate) fn digest(result: &Value) -> String {
    result["plan"]["approval_digest"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn docs(ws: &Ws) -> BTreeMap<String, Option<Vec<u8>>> {
    ws.tree()
        .into_iter()
        .filter(|(k, _)| k.starts_with("docs"))
        .collect()
}

fn assert_blocked(result: &Value, code: &str) {
    assert_eq!(result["outcome"], "blocked", "{result:#}");
    assert_eq!(result["error"]["code"], code, "{result:#}");
}

#[test]
fn prepare_prints_the_inventory_the_request_and_the_validate_command() {
    let ws = workspace();
    let p1 = prepare(&ws, &[]);
    assert_eq!(p1["stage"], "prepare");
    assert_eq!(p1["outcome"], "needs_input");
    let folders = p1["inventory"]["folders"].as_array().unwrap();
    let shape: Vec<(&str, &str, usize)> = folders
        .iter()
        .map(|f| {
            (
                f["folder"].as_str().unwrap(),
                f["next"].as_str().unwrap(),
                f["documents"].as_array().unwrap().len(),
            )
        })
        .collect();
    assert_eq!(
        shape,
        [
            ("docs/research", "001", 0),
            ("docs/specs", "004", 2),
            ("docs/plans", "008", 1)
        ]
    );
    assert_eq!(
        folders[1]["documents"][0],
        json!({"file": "001-spec-login.md", "number": "001", "kind": "spec", "slug": "login", "title": "Login"})
    );
    let semantic = &p1["semantic"];
    assert_eq!(semantic["operation"], "persist");
    assert_eq!(
        semantic["allowed_destinations"],
        json!(["docs/research", "docs/specs", "docs/plans"])
    );
    assert_eq!(
        semantic["answer_skeleton"]["input_digest"],
        semantic["input_digest"]
    );
    assert!(
        p1["next_action"]
            .as_str()
            .unwrap()
            .contains("'aw persist validate'")
    );
    let narrowed = prepare(&ws, &["plan", "spec"]);
    assert_eq!(narrowed["inventory"]["kinds"], json!(["spec", "plan"]));
    assert!(
        narrowed["next_action"]
            .as_str()
            .unwrap()
            .contains("'aw persist validate --kind spec --kind plan'")
    );
    // Prepare writes nothing, not even the folders it lists.
    assert!(!ws.root().join("docs/research").exists());
    let (code, text) = ws.text(&["persist", "prepare", "--format", "human"]);
    assert_eq!(code, 0);
    assert!(
        text.contains("docs/specs (next 004): 2 documents"),
        "{text}"
    );
    assert!(text.contains("  003 cache — Cache layer"), "{text}");
}

#[test]
fn one_spec_and_one_plan_are_numbered_and_written() {
    let ws = workspace();
    let p2 = planned(
        &ws,
        json!([
            item("spec", "otp-login", "OTP login"),
            item("plan", "otp-login", "Plan: OTP login")
        ]),
    );
    let paths: Vec<&str> = p2["plan"]["preview"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        [
            "docs/specs/004-spec-otp-login.md",
            "docs/plans/008-plan-otp-login.md"
        ]
    );
    let d = digest(&p2);
    assert!(
        p2["next_action"]
            .as_str()
            .unwrap()
            .contains(&format!("--approval {d}"))
    );
    // Validate writes nothing.
    assert!(!ws.root().join("docs/specs/004-spec-otp-login.md").exists());
    let (code, p3) = apply(&ws, &p2["plan"], &d);
    assert_eq!(code, 0, "{p3:#}");
    assert_eq!(p3["outcome"], "completed", "{p3:#}");
    assert_eq!(p3["written"], json!(paths));
    assert_eq!(
        ws.read("docs/specs/004-spec-otp-login.md"),
        "# OTP login\n\nDrafted from the conversation.\n"
    );
    assert!(
        ws.read("docs/plans/008-plan-otp-login.md")
            .starts_with("# Plan: OTP login\n")
    );
    // The next persist sees them: the numbers move on.
    let again = prepare(&ws, &[]);
    assert_eq!(again["inventory"]["folders"][1]["next"], "005");
    // Research goes to its own folder, created on demand, numbered from 001.
    let r = planned(
        &ws,
        json!([
            item("research", "vendors", "Vendors"),
            item("research", "costs", "Costs")
        ]),
    );
    let (code, r3) = apply(&ws, &r["plan"], &digest(&r));
    assert_eq!(code, 0);
    assert_eq!(
        r3["written"],
        json!([
            "docs/research/001-research-vendors.md",
            "docs/research/002-research-costs.md"
        ])
    );
}

/// An agent that lost apply's answer applies the same plan again: complete, nothing written,
/// never its own numbers reported taken.
#[test]
fn the_same_plan_applied_again_is_complete_and_writes_nothing() {
    let ws = workspace();
    let p2 = planned(
        &ws,
        json!([
            item("spec", "otp-login", "OTP login"),
            item("plan", "otp-login", "Plan: OTP login")
        ]),
    );
    let d = digest(&p2);
    let (_, first) = apply(&ws, &p2["plan"], &d);
    assert_eq!(first["outcome"], "completed", "{first:#}");
    let before = ws.tree();
    let (code, again) = apply(&ws, &p2["plan"], &d);
    assert_eq!(code, 0, "{again:#}");
    assert_eq!(again["outcome"], "completed", "{again:#}");
    assert_eq!(again["error"], Value::Null);
    assert_eq!(again["written"], json!([]));
    let next = again["next_action"].as_str().unwrap();
    assert!(next.contains("already applied"), "{next}");
    assert!(next.contains("docs/plans/008-plan-otp-login.md"), "{next}");
    assert_eq!(ws.tree(), before, "nothing written");
    // A plan only partly in place is not excused: its number is taken by its own spec, and the
    // other document differs.
    std::fs::write(
        ws.root().join("docs/plans/008-plan-otp-login.md"),
        "edited\n",
    )
    .unwrap();
    let (_, partly) = apply(&ws, &p2["plan"], &d);
    assert_blocked(&partly, "PERSIST_NUMBER_TAKEN");
}

/// The reference's agents pipe their answer bare, in the reference's shape (`decisions` and one
/// artifact), to validate and again to apply: aw reads both, numbers the document itself, and
/// applies the plan the approved digest names.
#[test]
fn the_reference_answer_piped_bare_is_validated_and_applied() {
    let ws = workspace();
    let p1 = prepare(&ws, &[]);
    let raw = json!({
        "version": 1, "operation": "persist",
        "input_digest": p1["semantic"]["input_digest"], "state": "proposed",
        "decisions": {"category": "spec", "slug": "otp-login", "mode": "new"},
        "artifacts": [{"path": "docs/specs/002-spec-otp-login.md",
                       "content": "# OTP login\n\nDrafted from the conversation.\n"}]
    })
    .to_string();
    let (code, p2) = ws.run_with(&["persist", "validate", "--json"], Some(&raw), &[]);
    assert_eq!(code, 0, "{p2:#}");
    assert_eq!(p2["outcome"], "needs_input", "{p2:#}");
    assert_eq!(
        p2["plan"]["preview"][0]["path"], "docs/specs/004-spec-otp-login.md",
        "aw numbers it: the answer's 002 was a suggestion"
    );
    let d = digest(&p2);
    let next = p2["next_action"].as_str().unwrap();
    assert!(
        next.contains(&format!(
            "pipe the same answer to 'aw persist apply --approval {d}'"
        )),
        "{next}"
    );
    // The same answer wrapped is read the same way.
    let wrapped = json!({"answer": serde_json::from_str::<Value>(&raw).unwrap()}).to_string();
    let (_, w2) = ws.run_with(&["persist", "validate", "--json"], Some(&wrapped), &[]);
    assert_eq!(digest(&w2), d);
    // A wrong approval writes nothing.
    let (_, wrong) = ws.run_with(
        &["persist", "apply", "--json", "--approval", "0000"],
        Some(&raw),
        &[],
    );
    assert_blocked(&wrong, "CAPABILITY_APPROVAL_MISMATCH");
    let (code, p3) = ws.run_with(
        &["persist", "apply", "--json", "--approval", &d],
        Some(&raw),
        &[],
    );
    assert_eq!(code, 0, "{p3:#}");
    assert_eq!(p3["outcome"], "completed", "{p3:#}");
    assert_eq!(p3["written"], json!(["docs/specs/004-spec-otp-login.md"]));
    assert_eq!(
        ws.read("docs/specs/004-spec-otp-login.md"),
        "# OTP login\n\nDrafted from the conversation.\n"
    );
    // The inventory moved, but the same answer again is recognised: its document is in place
    // with exactly its text, and the plan it gave is the approved one. Complete, nothing
    // written (the reference answers SEMANTIC_STALE).
    let before = ws.tree();
    let (_, again) = ws.run_with(
        &["persist", "apply", "--json", "--approval", &d],
        Some(&raw),
        &[],
    );
    assert_eq!(again["outcome"], "completed", "{again:#}");
    assert_eq!(again["written"], json!([]));
    assert!(
        again["next_action"]
            .as_str()
            .unwrap()
            .contains("already applied (nothing was written); its documents are docs/specs/004-spec-otp-login.md"),
        "{again:#}"
    );
    assert_eq!(ws.tree(), before);
    // Once a person edited it, it is no longer recognisable: stale, and the action says what
    // that can mean.
    ws.write(
        "docs/specs/004-spec-otp-login.md",
        "# OTP login\n\nEdited.\n",
    );
    let (_, edited) = ws.run_with(
        &["persist", "apply", "--json", "--approval", &d],
        Some(&raw),
        &[],
    );
    assert_blocked(&edited, "SEMANTIC_STALE");
    assert!(
        edited["next_action"]
            .as_str()
            .unwrap()
            .contains("if this answer was applied before"),
        "{edited:#}"
    );
    // Replacing a document is not something aw's persist does.
    let p1 = prepare(&ws, &[]);
    let update = json!({
        "version": 1, "operation": "persist",
        "input_digest": p1["semantic"]["input_digest"], "state": "proposed",
        "decisions": {"category": "spec", "slug": "cache", "mode": "update",
                      "target": "docs/specs/003-spec-cache.md", "target_digest": "x"},
        "artifacts": [{"path": "docs/specs/003-spec-cache.md", "content": "# Cache\n"}]
    })
    .to_string();
    let (_, refused) = ws.run_with(&["persist", "validate", "--json"], Some(&update), &[]);
    assert_blocked(&refused, "SEMANTIC_RESPONSE_INVALID");
    assert!(
        refused["next_action"]
            .as_str()
            .unwrap()
            .starts_with("edit 'docs/specs/003-spec-cache.md' in place"),
        "{refused:#}"
    );
}

#[test]
fn a_plan_applied_again_completes_what_a_kill_left_and_names_its_own_edited_document() {
    let ws = workspace();
    let planned = planned(
        &ws,
        json!([item("spec", "otp", "OTP"), item("plan", "otp", "Plan OTP")]),
    );
    let d = digest(&planned);
    let (_, first) = apply(&ws, &planned["plan"], &d);
    assert_eq!(first["outcome"], "completed", "{first:#}");
    let spec = "docs/specs/004-spec-otp.md";
    let plan = "docs/plans/008-plan-otp.md";
    // What a writer that wrote one document at a time left when killed: the spec, not the
    // plan. Applied again, the plan completes it.
    let text = ws.read(plan);
    std::fs::remove_file(ws.root().join(plan)).unwrap();
    let (_, again) = apply(&ws, &planned["plan"], &d);
    assert_eq!(again["outcome"], "completed", "{again:#}");
    assert_eq!(again["written"], json!([plan]));
    assert_eq!(ws.read(plan), text);
    // A person edits the spec: the plan applied again cannot tell that edit from another
    // plan's document, and says both, writing nothing.
    ws.write(spec, "# OTP\n\nEdited by a person.\n");
    let before = ws.tree();
    let (_, edited) = apply(&ws, &planned["plan"], &d);
    assert_blocked(&edited, "PERSIST_NUMBER_TAKEN");
    let message = edited["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("'docs/specs/004-spec-otp.md' is there already, with other text"),
        "{message}"
    );
    assert!(!message.contains("after the plan was made"), "{message}");
    assert!(
        edited["next_action"]
            .as_str()
            .unwrap()
            .contains("if this plan was applied before, nothing is left to do"),
        "{edited:#}"
    );
    assert_eq!(ws.tree(), before);
}

#[test]
fn an_unknown_kind_is_refused_whatever_stdin_carries() {
    let ws = workspace();
    let planned = planned(&ws, json!([item("research", "otp", "OTP research")]));
    let stdin = json!({"plan": planned["plan"]}).to_string();
    let before = ws.tree();
    let (code, v) = ws.run_with(
        &[
            "persist",
            "apply",
            "--json",
            "--kind",
            "bogus",
            "--approval",
            &digest(&planned),
        ],
        Some(&stdin),
        &[],
    );
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(v["error"]["code"], "ARGS_INVALID", "{v:#}");
    assert_eq!(ws.tree(), before);
}

#[test]
fn a_duplicate_of_an_existing_document_is_refused_naming_it() {
    let ws = workspace();
    let before = docs(&ws);
    let p1 = prepare(&ws, &[]);
    let digest = &p1["semantic"]["input_digest"];
    for items in [
        json!([item("spec", "login", "Sign in")]),
        json!([item("spec", "caching", "cache  LAYER")]),
    ] {
        let (code, v) = validate(&ws, &[], &answer(digest, items));
        assert_eq!(code, 0, "{v:#}");
        assert_blocked(&v, "PERSIST_DUPLICATE");
        assert!(v["plan"].is_null());
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains("docs/specs/"), "{message}");
    }
    let (_, twins) = validate(
        &ws,
        &[],
        &answer(
            digest,
            json!([item("plan", "otp", "A"), item("plan", "otp", "B")]),
        ),
    );
    assert_blocked(&twins, "PERSIST_DUPLICATE");
    assert_eq!(docs(&ws), before);
}

#[test]
fn an_answer_drafted_against_an_older_inventory_is_stale() {
    let ws = workspace();
    let p1 = prepare(&ws, &[]);
    let a = answer(
        &p1["semantic"]["input_digest"],
        json!([item("spec", "otp", "OTP")]),
    );
    ws.write("docs/specs/004-spec-sso.md", "# SSO\n");
    let (code, v) = validate(&ws, &[], &a);
    assert_eq!(code, 0);
    assert_blocked(&v, "SEMANTIC_STALE");
    // Validate asked for other kinds than prepare did: another inventory, so stale too.
    let narrow = prepare(&ws, &["spec"]);
    let a = answer(
        &narrow["semantic"]["input_digest"],
        json!([item("spec", "otp", "OTP")]),
    );
    assert_blocked(&validate(&ws, &[], &a).1, "SEMANTIC_STALE");
    assert_eq!(validate(&ws, &["spec"], &a).1["outcome"], "needs_input");
    // A kind prepare did not ask for is not in the contract.
    let a = answer(
        &narrow["semantic"]["input_digest"],
        json!([item("plan", "otp", "OTP")]),
    );
    assert_blocked(&validate(&ws, &["spec"], &a).1, "SEMANTIC_RESPONSE_INVALID");
}

#[test]
fn an_edited_plan_or_a_wrong_approval_is_refused_and_nothing_is_written() {
    let ws = workspace();
    let p2 = planned(&ws, json!([item("spec", "otp", "OTP")]));
    let before = docs(&ws);
    let mut edited = p2["plan"].clone();
    edited["artifacts"][0]["content"] = json!("# OTP\n\nSomething nobody approved.\n");
    let (code, v) = apply(&ws, &edited, &digest(&p2));
    assert_eq!(code, 0, "{v:#}");
    assert_blocked(&v, "CAPABILITY_APPROVAL_MISMATCH");
    assert!(
        v["next_action"]
            .as_str()
            .unwrap()
            .starts_with("nothing was written")
    );
    assert_blocked(
        &apply(&ws, &p2["plan"], &"0".repeat(64)).1,
        "CAPABILITY_APPROVAL_MISMATCH",
    );
    assert_eq!(docs(&ws), before);
}

/// The plan with its one artifact moved to `path`, re-sealed as anyone can (the approval digest
/// is a public checksum): what a forged plan looks like.
fn forged(plan: &Value, path: &str) -> (Value, String) {
    let mut p: DurablePlan = serde_json::from_value(plan.clone()).unwrap();
    p.artifacts[0].path = path.to_owned();
    p.preview = preview_of(&p.artifacts);
    p.approval_digest = resealed(&p);
    let d = p.approval_digest.clone();
    (serde_json::to_value(p).unwrap(), d)
}

#[test]
fn a_resealed_plan_whose_path_escapes_or_is_not_a_document_name_is_refused() {
    let ws = workspace();
    let p2 = planned(&ws, json!([item("spec", "otp", "OTP")]));
    let before = docs(&ws);
    for path in [
        "../escaped.md",
        "docs/specs/../../escaped.md",
        "/tmp/004-spec-otp.md",
        ".workflow/004-spec-otp.md",
        "docs/designs/004-spec-otp.md",
        "docs/specs/sub/004-spec-otp.md",
        "docs/specs/notes.md",
        "docs/plans/004-spec-otp.md",
    ] {
        let (plan, d) = forged(&p2["plan"], path);
        let (code, v) = apply(&ws, &plan, &d);
        assert_eq!(code, 0, "{path}: {v:#}");
        assert_blocked(&v, "SEMANTIC_PATH_REJECTED");
    }
    // Re-sealed to reuse a number below the folder's highest (the gap at 002).
    let (plan, d) = forged(&p2["plan"], "docs/specs/002-spec-otp.md");
    assert_blocked(&apply(&ws, &plan, &d).1, "PERSIST_NUMBER_TAKEN");
    assert_eq!(docs(&ws), before);
    assert!(!ws.root().join(".workflow/004-spec-otp.md").exists());
    assert!(!ws.root().parent().unwrap().join("escaped.md").exists());
}

#[test]
fn a_missing_plan_approval_or_answer_fails_the_command() {
    let ws = workspace();
    let p2 = planned(&ws, json!([item("spec", "otp", "OTP")]));
    let stdin = json!({"plan": p2["plan"]}).to_string();
    let (code, v) = ws.run_with(&["persist", "apply", "--json"], Some(&stdin), &[]);
    assert_eq!(
        (code, &v["error"]["code"]),
        (1, &json!("ARGS_INVALID")),
        "{v:#}"
    );
    let (code, v) = ws.run_with(
        &["persist", "apply", "--json", "--approval", &digest(&p2)],
        Some("{}"),
        &[],
    );
    assert_eq!(
        (code, &v["error"]["code"]),
        (1, &json!("ARGS_INVALID")),
        "{v:#}"
    );
    let (code, v) = ws.run_with(&["persist", "validate", "--json"], Some("not json"), &[]);
    assert_eq!(
        (code, &v["error"]["code"]),
        (1, &json!("ARGS_INVALID")),
        "{v:#}"
    );
    let (code, v) = ws.run_with(
        &["persist", "validate", "--json"],
        Some("{\"answer\": null}"),
        &[],
    );
    assert_eq!(
        (code, &v["error"]["code"]),
        (1, &json!("ARGS_INVALID")),
        "{v:#}"
    );
    ws.fails(&["persist", "prepare", "--kind", "design"], "ARGS_INVALID");
    assert!(!ws.root().join("docs/specs/004-spec-otp.md").exists());
}

#[test]
fn two_plans_made_against_one_inventory_cannot_both_take_a_number() {
    let ws = workspace();
    let p1 = prepare(&ws, &[]);
    let digest_in = &p1["semantic"]["input_digest"];
    let (_, a) = validate(
        &ws,
        &[],
        &answer(
            digest_in,
            json!([item("spec", "otp", "OTP"), item("spec", "sso", "SSO")]),
        ),
    );
    let (_, b) = validate(
        &ws,
        &[],
        &answer(digest_in, json!([item("spec", "mfa", "MFA")])),
    );
    assert_eq!(
        a["plan"]["preview"][0]["path"],
        "docs/specs/004-spec-otp.md"
    );
    assert_eq!(
        b["plan"]["preview"][0]["path"],
        "docs/specs/004-spec-mfa.md"
    );
    let (_, ra) = apply(&ws, &a["plan"], &digest(&a));
    assert_eq!(ra["outcome"], "completed", "{ra:#}");
    let after_a = docs(&ws);
    let (code, rb) = apply(&ws, &b["plan"], &digest(&b));
    assert_eq!(code, 0);
    assert_blocked(&rb, "PERSIST_NUMBER_TAKEN");
    assert!(
        rb["error"]["message"]
            .as_str()
            .unwrap()
            .contains("004-spec-otp.md"),
        "{rb:#}"
    );
    assert_eq!(docs(&ws), after_a, "the refused apply wrote nothing");
    // A slot claimed with next-number between validate and apply takes the number too.
    let p1 = prepare(&ws, &[]);
    let (_, c) = validate(
        &ws,
        &[],
        &answer(
            &p1["semantic"]["input_digest"],
            json!([item("spec", "mfa", "MFA")]),
        ),
    );
    ws.ok(&["next-number", "docs/specs", "--claim", "spec-other.md"]);
    assert_blocked(
        &apply(&ws, &c["plan"], &digest(&c)).1,
        "PERSIST_NUMBER_TAKEN",
    );
    assert!(!ws.root().join("docs/specs/006-spec-mfa.md").exists());
}

#[test]
fn two_applies_racing_for_one_number_write_one_whole_plan_and_nothing_of_the_other() {
    let ws = workspace();
    let p1 = prepare(&ws, &[]);
    let digest_in = &p1["semantic"]["input_digest"];
    let plans: Vec<Value> = ["otp", "mfa"]
        .iter()
        .map(|slug| {
            let items = json!([
                item("spec", slug, &slug.to_uppercase()),
                item("plan", slug, &format!("Plan {slug}"))
            ]);
            validate(&ws, &[], &answer(digest_in, items)).1
        })
        .collect();
    // Each apply lingers under the lock between its check and its writes, so the two overlap.
    let results: Vec<Value> = std::thread::scope(|s| {
        let handles: Vec<_> = plans
            .iter()
            .map(|p| {
                let ws = &ws;
                s.spawn(move || {
                    let stdin = json!({"plan": p["plan"]}).to_string();
                    ws.run_with(
                        &["persist", "apply", "--json", "--approval", &digest(p)],
                        Some(&stdin),
                        &[("AW_TEST_STALL_MS", "300"), ("AW_LOCK_WAIT_MS", "20000")],
                    )
                    .1
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let outcomes: Vec<&str> = results
        .iter()
        .map(|r| r["outcome"].as_str().unwrap())
        .collect();
    let won = outcomes
        .iter()
        .position(|o| *o == "completed")
        .expect("one apply completes");
    let lost = 1 - won;
    assert_blocked(&results[lost], "PERSIST_NUMBER_TAKEN");
    let specs: Vec<String> = std::fs::read_dir(ws.root().join("docs/specs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("004"))
        .collect();
    let plans_written: Vec<String> = std::fs::read_dir(ws.root().join("docs/plans"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("008"))
        .collect();
    let slug = ["otp", "mfa"][won];
    assert_eq!(specs, [format!("004-spec-{slug}.md")]);
    assert_eq!(plans_written, [format!("008-plan-{slug}.md")]);
    assert!(
        ws.read(&format!("docs/specs/004-spec-{slug}.md"))
            .ends_with("Drafted from the conversation.\n")
    );
}

#[cfg(unix)]
#[test]
fn a_docs_folder_that_links_out_of_the_workspace_receives_nothing() {
    let ws = Ws::new();
    let outside = ws.home().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::create_dir_all(ws.root().join("docs")).unwrap();
    std::os::unix::fs::symlink(&outside, ws.root().join("docs/research")).unwrap();
    let p2 = planned(&ws, json!([item("research", "vendors", "Vendors")]));
    let (code, v) = apply(&ws, &p2["plan"], &digest(&p2));
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["outcome"], "blocked", "{v:#}");
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
}
