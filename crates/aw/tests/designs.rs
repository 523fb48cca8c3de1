//! `aw designs`, the plan-exec design gate, and the design graph of `aw status` / `aw resume`,
//! over packages made through the capability protocol itself.

use crate::support::Ws;
use serde_json::json;

/// A DESIGN.md with every required section.
fn design_md(title: &str) -> String {
    format!(
        "# {title}\n\n## Objective\n\nLet people pay.\n\n## Proposed design\n\nOne page, one button.\n\n## Validation\n\nA payment goes through.\n"
    )
}

/// Creates a package titled `title` with prepare → validate → apply; returns its identity.
pub fn create_design(ws: &Ws, title: &str) -> String {
    let title_input = format!("title={title}");
    let (code, a1) = ws.run(&[
        "capability",
        "prepare",
        "--capability",
        "design",
        "--operation",
        "create",
        "--input",
        &title_input,
        "--input",
        "sources=docs/req.md",
        "--input",
        "target=docs/designs",
        "--json",
    ]);
    assert_eq!(code, 0, "{a1:#}");
    let path = a1["semantic"]["allowed_destinations"][0]
        .as_str()
        .unwrap()
        .to_owned();
    let answer = json!({
        "version": 1, "operation": "design.create",
        "input_digest": a1["semantic"]["input_digest"], "state": "proposed",
        "artifacts": [{"path": path, "content": design_md(title)}],
    });
    let stdin = json!({"request": a1["request"], "answer": answer}).to_string();
    let (code, a2) = ws.run_with(
        &["capability", "validate", "--capability", "design", "--json"],
        Some(&stdin),
        &[],
    );
    assert_eq!(code, 0, "{a2:#}");
    let digest = a2["plan"]["approval_digest"].as_str().unwrap().to_owned();
    let stdin = json!({"request": a2["request"], "plan": a2["plan"]}).to_string();
    let (code, a3) = ws.run_with(
        &[
            "capability",
            "apply",
            "--capability",
            "design",
            "--approval",
            &digest,
            "--json",
        ],
        Some(&stdin),
        &[],
    );
    assert_eq!(code, 0, "{a3:#}");
    assert_eq!(a3["receipt"]["outcome"], "completed", "{a3:#}");
    let v = ws.ok(&["designs", "--json"]);
    v["packages"]
        .as_array()
        .unwrap()
        .last()
        .and_then(|p| p["id"].as_str())
        .unwrap()
        .to_owned()
}

fn plan(ws: &Ws, refs: &str) -> String {
    let path = "docs/plans/001-plan-checkout.md";
    ws.write(
        path,
        &format!("# Plan 001 — checkout\n\n> State: open\n\n## Design references\n\n{refs}\n\n## Tasks\n\n- [ ] T1 — build it\n"),
    );
    path.to_owned()
}

#[test]
fn packages_are_listed_and_shown_by_identity() {
    let ws = Ws::new();
    assert_eq!(ws.ok(&["designs", "--json"])["packages"], json!([]));
    let id = create_design(&ws, "Checkout");
    assert_eq!(id, "DES-001");
    let v = ws.ok(&["designs", "--json"]);
    assert_eq!(v["packages"][0]["ok"], true, "{v:#}");
    let one = ws.ok(&["designs", "--id", "DES-001", "--json"]);
    assert_eq!(one["package"]["id"], "DES-001");
    ws.fails(
        &["designs", "--id", "DES-404", "--json"],
        "DESIGN_PACKAGE_NOT_FOUND",
    );
    let (code, text) = ws.stdout(&["designs", "--format", "human"], None, &[]);
    assert_eq!(code, 0);
    assert!(text.starts_with("DES-001"), "{text}");
}

#[test]
fn the_plan_gate_passes_only_when_every_reference_resolves_validates_and_is_current() {
    let ws = Ws::new();
    create_design(&ws, "Checkout");
    let p = plan(&ws, "- DES-001");
    let v = ws.ok(&["designs", "--plan", &p, "--json"]);
    assert_eq!(v["gate"]["passed"], true, "{v:#}");
    let p = plan(&ws, "- DES-001@r2\n- DES-002");
    let v = ws.fails(&["designs", "--plan", &p, "--json"], "DESIGN_GATE_FAILED");
    let verdicts: Vec<&str> = v["data"]["gate"]["references"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["stale", "missing"]);
    let p = plan(&ws, "- DES-001@r1");
    let v = ws.fails(
        &["designs", "--plan", &p, "--require-approval", "--json"],
        "DESIGN_GATE_FAILED",
    );
    assert_eq!(v["data"]["gate"]["references"][0]["verdict"], "unapproved");
    ws.fails(
        &["designs", "--plan", "docs/plans/nope.md", "--json"],
        "DESIGN_PLAN_UNREADABLE",
    );
    ws.fails(&["designs", "--require-approval", "--json"], "ARGS_INVALID");
}

#[test]
fn status_and_resume_show_the_design_graph() {
    let ws = Ws::new();
    create_design(&ws, "Checkout");
    create_design(&ws, "Refunds");
    plan(&ws, "- DES-001\n- DES-009");
    let v = ws.ok(&["status", "--json"]);
    let d = &v["designs"];
    assert_eq!(d["packages"].as_array().unwrap().len(), 2, "{d:#}");
    assert_eq!(d["packages"][0]["maturity"], "outline", "{d:#}");
    assert_eq!(
        d["counts"],
        json!({"valid": 1, "stale": 0, "missing": 1, "orphaned": 1})
    );
    let (code, text) = ws.stdout(&["status", "--format", "human"], None, &[]);
    assert_eq!(code, 0);
    assert!(text.contains("Design references to fix (1):"), "{text}");
    assert!(
        text.contains("missing DES-009 in docs/plans/001-plan-checkout.md"),
        "{text}"
    );
    let r = ws.ok(&["resume", "docs/plans/001-plan-checkout.md", "--json"]);
    let next = r["proposal"]["next"].as_str().unwrap_or_default();
    assert!(next.starts_with("UNRESOLVABLE DESIGN DES-009"), "{r:#}");
    // The proposal lists the references that are not valid; a valid one is not there.
    let design = r["proposal"]["design"].as_array().expect("a design key");
    assert!(design.iter().all(|d| d["state"] != "valid"), "{r:#}");
    assert!(
        design
            .iter()
            .any(|d| d["state"] == "missing"
                && d["baseline"].as_str().unwrap().starts_with("DES-009")),
        "{r:#}"
    );
    // The detail lists each package with its revision and maturity; one that no longer
    // validates says so, and its maturity in JSON is what it attains now (outline).
    let (_, text) = ws.stdout(&["status", "--detail", "--format", "human"], None, &[]);
    assert!(text.contains("DES-001@r1 · outline"), "{text}");
    // With its source present a package reaches handoff; the source gone, the package fails
    // its reference check and attains outline, whatever its manifest records.
    ws.write("docs/req.md", "# Requirements\n");
    create_design(&ws, "Audit");
    let (_, text) = ws.stdout(&["status", "--detail", "--format", "human"], None, &[]);
    assert!(text.contains("DES-003@r1 · handoff"), "{text}");
    std::fs::remove_file(ws.root().join("docs/req.md")).unwrap();
    let (_, text) = ws.stdout(&["status", "--detail", "--format", "human"], None, &[]);
    assert!(text.contains("DES-003@r1 · does not validate"), "{text}");
    let v = ws.ok(&["status", "--json"]);
    let broken = &v["designs"]["packages"][2];
    assert_eq!(broken["id"], "DES-003", "{broken:#}");
    assert_eq!(broken["ok"], false, "{broken:#}");
    assert_eq!(broken["maturity"], "outline", "{broken:#}");
}

#[test]
fn a_missing_file_source_is_recorded_unavailable_and_keeps_the_package_at_outline() {
    let ws = Ws::new();
    create_design(&ws, "Checkout");
    let m: serde_json::Value =
        serde_json::from_str(&ws.read("docs/designs/001-design-checkout/design-manifest.json"))
            .unwrap();
    assert_eq!(m["sources"][0]["disposition"], "unavailable", "{m:#}");
    assert!(
        m["sources"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("docs/req.md")
    );
    assert_eq!(m["maturity"]["attained"], "outline");
    assert_eq!(ws.ok(&["designs", "--json"])["packages"][0]["ok"], true);
    // With the source present, the same design reaches handoff.
    let ws = Ws::new();
    ws.write("docs/req.md", "# Requirement\n");
    create_design(&ws, "Checkout");
    let m: serde_json::Value =
        serde_json::from_str(&ws.read("docs/designs/001-design-checkout/design-manifest.json"))
            .unwrap();
    assert_eq!(m["sources"][0]["disposition"], "used");
    assert_eq!(m["maturity"]["attained"], "handoff", "{m:#}");
}

#[test]
fn the_human_receipt_says_what_was_written_and_what_blocks_handoff() {
    let ws = Ws::new();
    create_design(&ws, "Checkout");
    let (code, text) = ws.stdout(
        &[
            "capability",
            "prepare",
            "--capability",
            "design",
            "--operation",
            "validate",
            "--input",
            "package=DES-001",
            "--format",
            "human",
        ],
        None,
        &[],
    );
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("\nmaturity: outline\n"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("blocks handoff: ") && l.contains("docs/req.md")),
        "{text}"
    );
}
