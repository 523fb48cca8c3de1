use super::*;
use crate::capability::builtin::design_descriptor;
use crate::capability::descriptor::Descriptor;
use crate::capability::handler::{ClaimLineage, NumberClaim, PublishRoot, Verb};
use crate::capability::plan::Artifact;
use crate::capability::request::{CapabilityRequest, input_digest};
use crate::capability::test_support::{ID, direct, invocation};
use crate::design::manifest::{Revision, digest_of, first_manifest};
use crate::design::sources::floor_source;
use crate::design::test_support::{doc_digest, package, raw_package};
use serde_json::json;

fn descriptor() -> Descriptor {
    design_descriptor().unwrap()
}

fn request(operation: &str, target: Option<&str>, inputs: &[(&str, &str)]) -> CapabilityRequest {
    let mut inv = invocation(operation, direct(), inputs);
    inv.context.target = target.map(str::to_owned);
    CapabilityRequest::first_attempt(&descriptor(), ID.to_owned(), inv).unwrap()
}

fn run(
    floor: &DesignFloor,
    verb: Verb,
    request: &CapabilityRequest,
    answer: Option<&Value>,
) -> HandlerResult {
    let d = descriptor();
    let operation = d.operation(&request.operation).unwrap();
    floor.attempt(&HandlerCall {
        verb,
        request,
        operation,
        answer,
    })
}

fn in_workspace() -> DesignFloor {
    let broken = json!({"id": "DES-003", "title": "Broken", "revision": 0, "digest": doc_digest()});
    DesignFloor::new(
        true,
        Some(DesignIndex::from_tree(&[
            package("001-design-signup", "DES-001"),
            raw_package("003-design-broken", serde_json::to_vec(&broken).unwrap()),
        ])),
    )
}

fn blocked_code(result: &HandlerResult) -> ErrorCode {
    match result {
        HandlerResult::Blocked(e) => e.code,
        other => panic!("expected blocked, got {other:?}"),
    }
}

fn create_inputs() -> [(&'static str, &'static str); 3] {
    [
        ("title", "Sign-up"),
        ("sources", "docs/req.md"),
        ("target", "docs/designs"),
    ]
}

#[test]
fn validate_reports_a_found_package_complete_with_its_reference() {
    let r = request("validate", None, &[("package", " DES-001 ")]);
    let HandlerResult::Completed {
        output,
        validations,
    } = run(&in_workspace(), Verb::Prepare, &r, None)
    else {
        panic!("expected completed");
    };
    assert_eq!(
        validations,
        [
            ValidationOutcome {
                id: "design-manifest".to_owned(),
                passed: true,
                detail: None
            },
            ValidationOutcome {
                id: "design-content".to_owned(),
                passed: true,
                detail: None
            }
        ]
    );
    assert_eq!(output.completeness, Some(Completeness::Complete));
    assert_eq!(
        output.reference,
        Some(DurableReference {
            id: "DES-001".to_owned(),
            revision: Some(1),
            digest: doc_digest(),
            locator: "docs/designs/001-design-signup".to_owned(),
        })
    );
    assert_eq!(
        output.value.unwrap(),
        json!({
            "design": {
                "package": "DES-001",
                "baseline": {"revision": 1, "digest": doc_digest()},
                "path": "docs/designs/001-design-signup",
                "root": "workspace",
                "indexable": true,
                "maturity": {"requested": null, "attained": "handoff"},
                "sources": [{
                    "name": "sources", "kind": "markdown", "locator": "docs/req.md",
                    "disposition": "used", "reason": null, "derived": [],
                    "sensitivity": "public", "essential": true
                }],
                "renditions": []
            },
            "ok": true,
            "failures": [],
            "gaps": []
        })
    );
}

#[test]
fn validate_reports_content_failures_and_open_questions_as_maturity_gaps() {
    let mut dir = package("001-design-signup", "DES-001");
    if let crate::design::index::DirContents::Package(read) = &mut dir.contents {
        read.existing_sources.clear();
    }
    let floor = DesignFloor::new(true, Some(DesignIndex::from_tree(&[dir])));
    let r = request("validate", None, &[("package", "DES-001")]);
    let HandlerResult::Completed {
        output,
        validations,
    } = run(&floor, Verb::Prepare, &r, None)
    else {
        panic!("expected completed");
    };
    // The missing source fails the manifest's references; the document still passes.
    assert!(!validations[0].passed);
    assert!(
        validations[0]
            .detail
            .as_deref()
            .unwrap()
            .contains("DESIGN_REFERENCE_UNRESOLVED")
    );
    assert!(validations[1].passed);
    let value = output.value.unwrap();
    assert_eq!(value["ok"], false);
    assert_eq!(value["design"]["maturity"]["attained"], "outline");
    assert_eq!(value["gaps"].as_array().unwrap().len(), 1);
    // Still found and referenced: the manifest itself validates.
    assert!(output.reference.is_some());
}

#[test]
fn validate_reports_a_broken_package_it_can_match_instead_of_not_found() {
    let r = request("validate", None, &[("package", "DES-003")]);
    let HandlerResult::Completed {
        output,
        validations,
    } = run(&in_workspace(), Verb::Prepare, &r, None)
    else {
        panic!("expected completed");
    };
    assert!(!validations[0].passed);
    let detail = validations[0].detail.as_deref().unwrap();
    assert!(detail.starts_with("DESIGN_MANIFEST_INVALID: "), "{detail}");
    assert_eq!(output.reference, None);
    assert_eq!(output.completeness, Some(Completeness::Complete));
    let value = output.value.unwrap();
    assert_eq!(value["ok"], json!(false));
    assert_eq!(
        value["failures"][0]["code"],
        json!("DESIGN_MANIFEST_INVALID")
    );
    assert_eq!(value["design"]["package"], json!("DES-003"));
    assert_eq!(value["design"]["maturity"]["attained"], json!("outline"));
    assert_eq!(value["design"]["baseline"], json!(null));
}

#[test]
fn validate_without_a_match_is_not_found_and_names_aw_designs() {
    let r = request("validate", None, &[("package", "DES-002")]);
    let result = run(&in_workspace(), Verb::Prepare, &r, None);
    let HandlerResult::Blocked(e) = result else {
        panic!("expected blocked");
    };
    assert_eq!(e.code, ErrorCode::DesignPackageNotFound);
    assert!(e.message.contains("DES-002"));
    assert!(e.action.contains("aw designs"));
    // No index at all reads as an empty one.
    let bare = DesignFloor::new(true, None);
    assert_eq!(
        blocked_code(&run(&bare, Verb::Prepare, &r, None)),
        ErrorCode::DesignPackageNotFound
    );
}

#[test]
fn validate_asks_for_a_blank_package_and_needs_a_workspace() {
    let blank = request("validate", None, &[("package", "  ")]);
    match run(&in_workspace(), Verb::Prepare, &blank, None) {
        HandlerResult::NeedsInput {
            gaps,
            output,
            semantic,
        } => {
            assert_eq!(gaps, [PACKAGE_GAP]);
            assert!(output.is_none() && semantic.is_none());
        }
        other => panic!("expected needs_input, got {other:?}"),
    }
    let r = request("validate", None, &[("package", "DES-001")]);
    assert_eq!(
        blocked_code(&run(
            &DesignFloor::new(false, None),
            Verb::Prepare,
            &r,
            None
        )),
        ErrorCode::DesignWorkspaceAbsent
    );
}

const SIGN_UP: &str = "docs/designs/004-design-sign-up/DESIGN.md";

#[test]
fn an_authoring_prepare_publishes_the_contract_and_the_one_destination() {
    // The inputs of §3.6's worked example, whose digest PROTOCOL.md pins.
    let pinned = [
        ("title", "Alta"),
        ("sources", "docs/req.md"),
        ("target", "docs/designs"),
    ];
    let r = request("create", None, &pinned);
    let HandlerResult::NeedsInput {
        gaps,
        output,
        semantic,
    } = run(&in_workspace(), Verb::Prepare, &r, None)
    else {
        panic!("expected needs_input");
    };
    let semantic = semantic.unwrap();
    assert_eq!(semantic.operation, "design.create");
    // The digest the agent must quote.
    assert_eq!(
        semantic.input_digest,
        "11d6c64888e813457261ca1da43b4c29116f91f1a31f15db8b17262f98e32a7b"
    );
    // The next number after DES-001 and the broken DES-003's folder.
    let dest = "docs/designs/004-design-alta/DESIGN.md";
    assert_eq!(semantic.allowed_destinations, [dest]);
    assert_eq!(semantic.skeleton()["artifacts"][0]["path"], dest);
    assert_eq!(
        gaps,
        [
            semantic.contract.clone(),
            format!("allowed destinations: {dest}")
        ]
    );
    assert!(semantic.contract.starts_with("Author the FIRST revision"));
    assert!(semantic.contract.contains("## Proposed design"));
    assert!(output.is_none());
    // `continue` asks the same question; every contract is English.
    assert!(matches!(
        run(&in_workspace(), Verb::Continue, &r, None),
        HandlerResult::NeedsInput { .. }
    ));
    assert!(semantic.contract.is_ascii());
}

#[test]
fn the_root_comes_from_the_target_flag_else_the_target_input_and_numbers_from_its_listing() {
    let r = request("create", Some("docs/designs/team-a"), &create_inputs());
    let floor = in_workspace().with_listing(RootListing {
        root: "docs/designs/team-a".to_owned(),
        names: vec!["007-design-old".to_owned(), "notes.md".to_owned()],
    });
    let HandlerResult::NeedsInput { semantic, .. } = run(&floor, Verb::Prepare, &r, None) else {
        panic!("expected needs_input");
    };
    assert_eq!(
        semantic.unwrap().allowed_destinations,
        ["docs/designs/team-a/008-design-sign-up/DESIGN.md"]
    );
    assert_eq!(
        floor.allowed_destinations(&r),
        Ok(vec!["docs/designs/team-a".to_owned()])
    );
    // No flag: the `target` input is the root (the reference ignored it).
    let inputs = [
        ("title", "Sign-up"),
        ("sources", "docs/req.md"),
        ("target", "docs/mockups"),
    ];
    let r = request("create", None, &inputs);
    let HandlerResult::NeedsInput { semantic, .. } = run(&in_workspace(), Verb::Prepare, &r, None)
    else {
        panic!("expected needs_input");
    };
    // Not indexable: only its own listing counts (none given: the first number).
    assert_eq!(
        semantic.unwrap().allowed_destinations,
        ["docs/mockups/001-design-sign-up/DESIGN.md"]
    );
    assert_eq!(
        DesignFloor::listing_root(true, None, &r.inputs)
            .unwrap()
            .root(),
        "docs/mockups"
    );
}

#[test]
fn outside_a_workspace_an_explicit_root_is_published_into_and_a_missing_one_blocks() {
    let outside = DesignFloor::new(false, None);
    let r = request("create", Some("/elsewhere/my-designs"), &create_inputs());
    let HandlerResult::NeedsInput { gaps, semantic, .. } = run(&outside, Verb::Prepare, &r, None)
    else {
        panic!("expected needs_input");
    };
    // Paths are relative to the explicit root.
    assert_eq!(
        gaps[1],
        "allowed destinations: 001-design-sign-up/DESIGN.md"
    );
    assert!(semantic.unwrap().contract.contains("/elsewhere/my-designs"));
    assert_eq!(outside.allowed_destinations(&r), Ok(vec![".".to_owned()]));
    assert_eq!(
        outside.publish_root(&r),
        Ok(PublishRoot::Explicit("/elsewhere/my-designs".to_owned()))
    );
    let answer = answer_for(&r, "001-design-sign-up/DESIGN.md");
    let HandlerResult::Durable {
        artifacts, output, ..
    } = run(&outside, Verb::Validate, &r, Some(&answer))
    else {
        panic!("expected durable");
    };
    assert_eq!(artifacts[1].path, "001-design-sign-up/design-manifest.json");
    assert_eq!(
        output.reference.unwrap().locator,
        "/elsewhere/my-designs/001-design-sign-up"
    );
    assert_eq!(
        outside.claims(&r, &artifacts),
        [NumberClaim {
            dir: ".".to_owned(),
            number: "001".to_owned(),
            folder: "001-design-sign-up".to_owned(),
            lineage: Some(ClaimLineage {
                manifest: "design-manifest.json".to_owned(),
                id: "DES-001".to_owned(),
                digest: digest_of(artifacts[0].content.as_bytes()),
            }),
        }]
    );
    let none = request(
        "create",
        None,
        &[("title", "x"), ("sources", "a.md"), ("target", "")],
    );
    assert_eq!(
        blocked_code(&run(&outside, Verb::Prepare, &none, None)),
        ErrorCode::DesignOutputRootRequired
    );
    assert_eq!(
        outside.allowed_destinations(&none).unwrap_err().code,
        ErrorCode::DesignOutputRootRequired
    );
    // The same absolute root inside a workspace is unsafe.
    assert_eq!(
        blocked_code(&run(&in_workspace(), Verb::Prepare, &r, None)),
        ErrorCode::DesignOutputRootUnsafe
    );
    assert_eq!(
        in_workspace().publish_root(&r).unwrap_err().code,
        ErrorCode::DesignOutputRootUnsafe
    );
}

#[test]
fn an_out_of_catalog_source_still_asks_but_costs_the_handoff() {
    let inputs = [
        ("title", "Sign-up"),
        ("sources", "design.sketch"),
        ("target", "docs/designs"),
        ("maturity", "handoff"),
    ];
    let r = request("create", None, &inputs);
    assert!(matches!(
        run(&in_workspace(), Verb::Prepare, &r, None),
        HandlerResult::NeedsInput { .. }
    ));
    let answer = answer_for(&r, SIGN_UP);
    let HandlerResult::Durable { output, .. } =
        run(&in_workspace(), Verb::Validate, &r, Some(&answer))
    else {
        panic!("expected durable");
    };
    let value = output.value.unwrap();
    assert_eq!(
        value["design"]["maturity"],
        json!({"requested": "handoff", "attained": "outline"})
    );
    assert_eq!(
        value["design"]["sources"][0]["disposition"],
        json!("unsupported")
    );
    assert_eq!(value["gaps"].as_array().unwrap().len(), 1);
    assert!(value["gaps"][0].as_str().unwrap().contains("design.sketch"));
}

const AUTHORED: &str = "# Sign-up\n\n## Objective\n\nJoin.\n\n## Proposed design\n\nA form.\n\n## Validation\n\nA person joins.\n";

fn answer_with(r: &CapabilityRequest, artifacts: Value) -> Value {
    json!({
        "version": 1,
        "operation": format!("design.{}", r.operation),
        "input_digest": input_digest(&r.inputs),
        "state": "proposed",
        "artifacts": artifacts
    })
}

fn answer_for(r: &CapabilityRequest, path: &str) -> Value {
    answer_with(r, json!([{"path": path, "content": AUTHORED}]))
}

#[test]
fn validate_with_an_answer_is_a_durable_partial_result_with_the_derived_manifest() {
    let r = request("create", None, &create_inputs());
    let answer = answer_for(&r, &format!(" {SIGN_UP} "));
    let floor = in_workspace();
    let HandlerResult::Durable {
        artifacts,
        base,
        output,
    } = run(&floor, Verb::Validate, &r, Some(&answer))
    else {
        panic!("expected durable");
    };
    let sources = [floor_source("sources", "docs/req.md")];
    let manifest = first_manifest(
        "DES-004",
        Revision {
            doc: AUTHORED,
            sources: &sources,
            requested: None,
        },
    );
    assert_eq!(
        artifacts,
        [
            Artifact {
                path: SIGN_UP.to_owned(),
                content: AUTHORED.to_owned(),
                overwrite: None,
            },
            Artifact {
                path: "docs/designs/004-design-sign-up/design-manifest.json".to_owned(),
                content: manifest.to_text(),
                overwrite: None,
            }
        ]
    );
    assert_eq!(base, None);
    let digest = crate::design::manifest::digest_of(AUTHORED.as_bytes());
    assert_eq!(
        output.reference,
        Some(DurableReference {
            id: "DES-004".to_owned(),
            revision: Some(1),
            digest: digest.clone(),
            locator: "docs/designs/004-design-sign-up".to_owned()
        })
    );
    assert_eq!(output.completeness, Some(Completeness::Partial));
    assert_eq!(
        output.value.unwrap(),
        json!({
            "design": {
                "package": "DES-004",
                "baseline": {"revision": 1, "digest": digest},
                "path": "docs/designs/004-design-sign-up",
                "root": "workspace",
                "indexable": true,
                "maturity": {"requested": null, "attained": "handoff"},
                "sources": [{
                    "name": "sources", "kind": "markdown", "locator": "docs/req.md",
                    "disposition": "used", "reason": null, "derived": [],
                    "sensitivity": "public", "essential": true
                }],
                "renditions": []
            },
            "artifacts": [SIGN_UP, "docs/designs/004-design-sign-up/design-manifest.json"],
            "gaps": []
        })
    );
    assert_eq!(
        floor.claims(&r, &artifacts),
        [NumberClaim {
            dir: "docs/designs".to_owned(),
            number: "004".to_owned(),
            folder: "004-design-sign-up".to_owned(),
            lineage: Some(ClaimLineage {
                manifest: "design-manifest.json".to_owned(),
                id: "DES-004".to_owned(),
                digest: digest_of(artifacts[0].content.as_bytes()),
            }),
        }]
    );
}

#[test]
fn validate_without_an_answer_asks_for_it_and_a_bad_answer_blocks() {
    let r = request("create", None, &create_inputs());
    for missing in [None, Some(json!(null)), Some(json!("  "))] {
        let HandlerResult::NeedsInput { gaps, semantic, .. } =
            run(&in_workspace(), Verb::Validate, &r, missing.as_ref())
        else {
            panic!("expected needs_input");
        };
        assert_eq!(gaps, [ANSWER_GAP]);
        assert_eq!(semantic.unwrap().operation, "design.create");
    }
    let blocked = |answer: &Value| match run(&in_workspace(), Verb::Validate, &r, Some(answer)) {
        HandlerResult::Blocked(e) => e,
        other => panic!("expected blocked, got {other:?}"),
    };
    let e = blocked(&answer_for(&r, "docs/other/x.md"));
    assert_eq!(e.code, ErrorCode::SemanticPathRejected);
    assert!(e.message.contains(SIGN_UP), "{}", e.message);
    // Another number: refused, naming the path this request authors.
    let e = blocked(&answer_for(&r, "docs/designs/001-design-sign-up/DESIGN.md"));
    assert_eq!(e.code, ErrorCode::SemanticPathRejected);
    assert!(e.message.contains(SIGN_UP));
    // The manifest is aw's; so is any second file.
    let e = blocked(&answer_with(
        &r,
        json!([{"path": SIGN_UP, "content": AUTHORED},
               {"path": "docs/designs/004-design-sign-up/design-manifest.json", "content": "{}"}]),
    ));
    assert_eq!(e.code, ErrorCode::SemanticPathRejected);
    assert!(e.message.contains("design-manifest.json"));
    let e = blocked(&answer_with(
        &r,
        json!([{"path": SIGN_UP, "content": AUTHORED},
               {"path": "docs/designs/004-design-sign-up/notes.md", "content": "x"}]),
    ));
    assert_eq!(e.code, ErrorCode::SemanticPathRejected);
    // The content gate.
    let e = blocked(&answer_with(
        &r,
        json!([{"path": SIGN_UP, "content": "# Sign-up\n"}]),
    ));
    assert_eq!(e.code, ErrorCode::DesignContentInvalid);
    assert!(
        e.message.contains("'## Objective' is missing"),
        "{}",
        e.message
    );
    let mut stale = answer_for(&r, SIGN_UP);
    stale["input_digest"] = json!("0".repeat(64));
    assert_eq!(blocked(&stale).code, ErrorCode::SemanticStale);
}

#[test]
fn a_title_without_a_word_is_refused_and_a_blank_one_asked_for() {
    let r = request(
        "create",
        None,
        &[("title", "¿?"), ("sources", "a.md"), ("target", "")],
    );
    assert_eq!(
        blocked_code(&run(&in_workspace(), Verb::Prepare, &r, None)),
        ErrorCode::DesignTitleInvalid
    );
    let r = request(
        "create",
        None,
        &[("title", " "), ("sources", "a.md"), ("target", "")],
    );
    assert!(matches!(
        run(&in_workspace(), Verb::Prepare, &r, None),
        HandlerResult::NeedsInput { semantic: None, .. }
    ));
}

#[test]
fn an_explicit_root_inside_a_workspace_is_refused_by_every_stage() {
    let floor = DesignFloor::new(false, None).with_root_workspace("/work/proj".to_owned());
    let r = request("create", Some("/work/proj/docs/designs"), &create_inputs());
    let HandlerResult::Blocked(e) = run(&floor, Verb::Prepare, &r, None) else {
        panic!("expected blocked");
    };
    assert_eq!(e.code, ErrorCode::DesignOutputRootUnsafe);
    assert!(e.message.contains("/work/proj"), "{}", e.message);
    assert_eq!(
        floor.allowed_destinations(&r).unwrap_err().code,
        ErrorCode::DesignOutputRootUnsafe
    );
    // The root is still named (so apply outside a workspace is not mistaken for one that
    // needs a workspace); the destinations refuse it.
    assert_eq!(
        floor.publish_root(&r),
        Ok(PublishRoot::Explicit("/work/proj/docs/designs".to_owned()))
    );
}
