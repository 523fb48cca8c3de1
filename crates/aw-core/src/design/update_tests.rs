use super::*;
use crate::capability::builtin::design_descriptor;
use crate::capability::handler::Handler;
use crate::capability::request::{CapabilityRequest, input_digest};
use crate::capability::test_support::{ID, direct, invocation};
use crate::design::index::DesignIndex;
use crate::design::test_support::{DOC, manifest_text, package};
use serde_json::Value;

fn request(inputs: &[(&str, &str)]) -> CapabilityRequest {
    let d = design_descriptor().unwrap();
    CapabilityRequest::first_attempt(&d, ID.to_owned(), invocation("update", direct(), inputs))
        .unwrap()
}

fn run(
    floor: &DesignFloor,
    verb: Verb,
    r: &CapabilityRequest,
    answer: Option<&Value>,
) -> HandlerResult {
    let d = design_descriptor().unwrap();
    floor.attempt(&HandlerCall {
        verb,
        request: r,
        operation: d.operation("update").unwrap(),
        answer,
    })
}

fn floor() -> DesignFloor {
    DesignFloor::new(
        true,
        Some(DesignIndex::from_tree(&[package(
            "001-design-signup",
            "DES-001",
        )])),
    )
}

fn code(result: HandlerResult) -> (ErrorCode, String) {
    match result {
        HandlerResult::Blocked(e) => (e.code, e.message),
        other => panic!("expected blocked, got {other:?}"),
    }
}

const DEST: &str = "docs/designs/001-design-signup/DESIGN.md";
const NEXT: &str = "# A design\n\n## Objective\n\nPay.\n\n## Proposed design\n\nTwo pages.\n\n## Validation\n\nA person pays.\n";

#[test]
fn prepare_asks_for_the_next_revision_of_the_package_s_design_md() {
    let r = request(&[("package", "DES-001"), ("base", "DES-001@r1")]);
    let HandlerResult::NeedsInput { semantic, .. } = run(&floor(), Verb::Prepare, &r, None) else {
        panic!("expected needs_input");
    };
    let s = semantic.unwrap();
    assert_eq!(s.allowed_destinations, [DEST]);
    assert!(s.contract.contains("revision 2 of DES-001"));
    assert_eq!(
        floor().allowed_destinations(&r),
        Ok(vec!["docs/designs/001-design-signup".to_owned()])
    );
}

#[test]
fn a_stale_or_foreign_base_and_an_unknown_package_are_refused_before_authoring() {
    let (c, m) = code(run(
        &floor(),
        Verb::Prepare,
        &request(&[("package", "DES-001"), ("base", "DES-001@r2")]),
        None,
    ));
    assert_eq!(c, ErrorCode::DesignBaseStale);
    assert!(m.contains("DES-001@r1"), "{m}");
    for bad in ["DES-002@r1", "DES-001", "DES-001@r01", "x", ""] {
        let (c, _) = code(run(
            &floor(),
            Verb::Prepare,
            &request(&[("package", "DES-001"), ("base", bad)]),
            None,
        ));
        assert_eq!(c, ErrorCode::DesignBaseInvalid, "{bad}");
    }
    let (c, _) = code(run(
        &floor(),
        Verb::Prepare,
        &request(&[("package", "DES-009"), ("base", "DES-009@r1")]),
        None,
    ));
    assert_eq!(c, ErrorCode::DesignPackageNotFound);
    let outside = DesignFloor::new(false, None);
    let (c, _) = code(run(
        &outside,
        Verb::Prepare,
        &request(&[("package", "DES-001"), ("base", "DES-001@r1")]),
        None,
    ));
    assert_eq!(c, ErrorCode::DesignWorkspaceAbsent);
}

#[test]
fn validate_plans_the_archive_the_new_document_and_the_manifest_against_a_base() {
    let r = request(&[("package", "DES-001"), ("base", "DES-001@r1")]);
    let answer = json!({
        "version": 1, "operation": "design.update", "input_digest": input_digest(&r.inputs),
        "state": "proposed", "artifacts": [{"path": DEST, "content": NEXT}]
    });
    let HandlerResult::Durable {
        artifacts,
        base,
        output,
    } = run(&floor(), Verb::Validate, &r, Some(&answer))
    else {
        panic!("expected durable");
    };
    let paths: Vec<(&str, Option<bool>)> = artifacts
        .iter()
        .map(|a| (a.path.as_str(), a.overwrite))
        .collect();
    assert_eq!(
        paths,
        [
            (
                "docs/designs/001-design-signup/revisions/DESIGN-r001.md",
                None
            ),
            (DEST, Some(true)),
            (
                "docs/designs/001-design-signup/design-manifest.json",
                Some(true)
            ),
        ]
    );
    assert_eq!(artifacts[0].content, DOC);
    assert_eq!(artifacts[1].content, NEXT);
    let manifest: Value = serde_json::from_str(&artifacts[2].content).unwrap();
    assert_eq!(manifest["revision"], 2);
    assert_eq!(manifest["history"][0]["path"], "revisions/DESIGN-r001.md");
    assert_eq!(manifest["history"][1]["path"], "DESIGN.md");
    assert_eq!(
        base,
        Some(Base {
            path: "docs/designs/001-design-signup/design-manifest.json".to_owned(),
            digest: base_digest(&manifest_text("DES-001")),
        })
    );
    assert_eq!(output.reference.unwrap().revision, Some(2));
    // Sources not given again: the package keeps its own.
    assert_eq!(manifest["sources"][0]["locator"], "docs/req.md");
}

#[test]
fn base_check_names_the_current_revision() {
    assert!(check_base("DES-001", "DES-001@r3", 3).is_ok());
    let e = check_base("DES-001", "DES-001@r2", 3).unwrap_err();
    assert_eq!(e.code, ErrorCode::DesignBaseStale);
    assert!(e.action.contains("--input base=DES-001@r3"));
}
