use super::*;
use crate::design::index::DesignIndex;
use crate::design::manifest::digest_of;
use crate::design::review::review_json;
use crate::design::test_support::{
    design_request, doc_digest, floor_over, manifest_text, package, prepare, raw_package,
    with_reviews,
};
use serde_json::json;

const PKG: &str = "docs/designs/001-design-signup";
const AT: &str = "2026-03-10T09:15:00.000Z";

fn floor() -> DesignFloor {
    floor_over(&[package("001-design-signup", "DES-001")])
}

fn render(floor: &DesignFloor, inputs: &[(&str, &str)], flag: Option<&str>) -> HandlerResult {
    prepare(floor, &design_request("render", inputs, flag))
}

fn durable(result: HandlerResult) -> (Vec<Artifact>, OperationOutput) {
    match result {
        HandlerResult::Durable {
            artifacts,
            base,
            output,
        } => {
            assert!(base.is_none(), "a render has no base");
            (artifacts, output)
        }
        other => panic!("expected a durable plan, got {other:?}"),
    }
}

fn blocked(result: HandlerResult) -> CapabilityError {
    match result {
        HandlerResult::Blocked(e) => e,
        other => panic!("expected blocked, got {other:?}"),
    }
}

#[test]
fn the_profile_input_wins_and_the_flag_stands_in_for_a_blank_one() {
    let both = design_request(
        "render",
        &[("package", "DES-001"), ("profile", " figma ")],
        Some("stitch"),
    );
    assert_eq!(requested_profile(&both), "figma");
    let blank = design_request(
        "render",
        &[("package", "DES-001"), ("profile", "")],
        Some("stitch"),
    );
    assert_eq!(requested_profile(&blank), "stitch");
    let none = design_request("render", &[("package", "DES-001"), ("profile", "")], None);
    assert_eq!(requested_profile(&none), "");
    // The flag reaches the plan: a bundle for stitch.
    let (artifacts, _) = durable(render(
        &floor(),
        &[("package", "DES-001"), ("profile", "")],
        Some("stitch"),
    ));
    assert_eq!(
        artifacts[0].path,
        format!("{PKG}/renders/stitch/bundle-r001.json")
    );
}

#[test]
fn an_unknown_or_missing_profile_is_refused_listing_the_registered_ones() {
    for (profile, said) in [("figma-api", "'figma-api'"), ("", "no renderer")] {
        let e = blocked(render(
            &floor(),
            &[("package", "DES-001"), ("profile", profile)],
            None,
        ));
        assert_eq!(e.code, ErrorCode::DesignAdapterUnknown);
        assert!(e.message.contains(said), "{}", e.message);
        assert_eq!(
            e.action,
            "the registered profiles are: claude-artifact, claude-design, figma, portable-html, stitch"
        );
    }
    for profile in ADAPTERS {
        let (artifacts, _) = durable(render(
            &floor(),
            &[("package", "DES-001"), ("profile", profile)],
            None,
        ));
        assert_eq!(artifacts.len(), 1, "{profile}");
        assert!(
            artifacts[0]
                .path
                .starts_with(&format!("{PKG}/renders/{profile}/")),
            "{profile}"
        );
    }
}

#[test]
fn portable_html_is_the_page_of_the_current_revision_made_by_aw() {
    let approved = review_json(
        "DES-001",
        1,
        &doc_digest(),
        crate::design::review::Decision::Approved,
        None,
        AT,
    );
    let floor = floor_over(&[with_reviews(
        package("001-design-signup", "DES-001"),
        &[("r001.json", &approved)],
    )]);
    let (artifacts, output) = durable(render(
        &floor,
        &[("package", "DES-001"), ("profile", "portable-html")],
        None,
    ));
    let path = format!("{PKG}/renders/portable-html/DESIGN-r001.html");
    assert_eq!(artifacts[0].path, path);
    assert_eq!(artifacts[0].overwrite, None, "a projection is a new file");
    let html = &artifacts[0].content;
    assert!(html.starts_with("<!doctype html>"));
    assert!(html.contains("<h2>Objective</h2>") && html.contains("Pay in one step."));
    assert!(html.contains(&doc_digest()));
    assert!(html.contains("docs/req.md"), "the sources table");
    assert!(html.contains("<strong>is approved</strong>"), "the review");
    // The same view gives the same bytes: a re-render proposes exactly this file again.
    let (again, _) = durable(render(
        &floor,
        &[("package", "DES-001"), ("profile", "portable-html")],
        None,
    ));
    assert_eq!(again, artifacts);
    assert_eq!(output.completeness, Some(Completeness::Partial));
    assert_eq!(
        output.reference,
        Some(DurableReference {
            id: "DES-001".to_owned(),
            revision: Some(1),
            digest: digest_of(html.as_bytes()),
            locator: path.clone(),
        })
    );
    let value = output.value.unwrap();
    assert_eq!(value["profile"], "portable-html");
    assert_eq!(value["artifacts"], json!([path]));
    assert_eq!(value["design"]["package"], "DES-001");
    assert_eq!(value["design"]["path"], PKG);
    assert_eq!(value["design"]["renditions"], json!([path]));
    assert_eq!(
        value["design"]["baseline"],
        json!({"revision": 1, "digest": doc_digest()})
    );
}

#[test]
fn another_profile_gets_a_bundle_naming_the_document_and_the_manifest_with_digests() {
    let (artifacts, _) = durable(render(
        &floor(),
        &[("package", "DES-001"), ("profile", "figma")],
        None,
    ));
    assert_eq!(
        artifacts[0].path,
        format!("{PKG}/renders/figma/bundle-r001.json")
    );
    let text = &artifacts[0].content;
    assert!(text.ends_with("}\n"));
    let bundle: Value = serde_json::from_str(text).unwrap();
    assert_eq!(
        bundle,
        json!({
            "schema": "workline.design-render-bundle/v1",
            "profile": "figma",
            "id": "DES-001",
            "revision": 1,
            "digest": doc_digest(),
            "artifacts": [
                {"path": "DESIGN.md", "digest": doc_digest()},
                {"path": "design-manifest.json",
                 "digest": digest_of(manifest_text("DES-001").as_bytes())},
            ],
            "note": "aw sends nothing; hand this bundle to figma",
        })
    );
}

#[test]
fn a_package_that_is_missing_broken_or_invalid_is_not_rendered() {
    let inputs = |id| [("package", id), ("profile", "portable-html")];
    // No such identity, and a package whose manifest does not validate.
    let broken = json!({"id": "DES-003", "title": "Broken", "revision": 0});
    let floor = floor_over(&[
        package("001-design-signup", "DES-001"),
        raw_package("003-design-broken", serde_json::to_vec(&broken).unwrap()),
    ]);
    for id in ["DES-002", "DES-003"] {
        let e = blocked(render(&floor, &inputs(id), None));
        assert_eq!(e.code, ErrorCode::DesignPackageNotFound, "{id}");
        assert!(e.message.contains(id));
    }
    // A valid manifest whose file source is gone: the package does not validate.
    let floor = floor_over(&[raw_package(
        "001-design-signup",
        manifest_text("DES-001").into_bytes(),
    )]);
    let e = blocked(render(&floor, &inputs("DES-001"), None));
    assert_eq!(e.code, ErrorCode::DesignReferenceUnresolved);
    assert!(e.message.contains("does not validate"), "{}", e.message);
    assert!(e.action.contains("--operation validate"));
    // No workspace, and a blank package.
    let outside = DesignFloor::new(false, None);
    let e = blocked(render(&outside, &inputs("DES-001"), None));
    assert_eq!(e.code, ErrorCode::DesignWorkspaceAbsent);
    assert!(matches!(
        render(&floor, &inputs(" "), None),
        HandlerResult::NeedsInput { semantic: None, .. }
    ));
}

#[test]
fn the_destination_is_the_packages_renders_folder() {
    assert_eq!(
        destinations(&floor(), "DES-001").unwrap(),
        [format!("{PKG}/renders")]
    );
    let e = destinations(
        &DesignFloor::new(true, Some(DesignIndex::empty())),
        "DES-001",
    )
    .unwrap_err();
    assert_eq!(e.code, ErrorCode::DesignPackageNotFound);
}
