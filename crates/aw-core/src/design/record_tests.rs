use super::*;
use crate::design::review::{Decision, parse_review};
use crate::design::test_support::{
    design_request, doc_digest, floor_over, manifest_text, package, prepare, raw_package,
    with_reviews,
};

const PKG: &str = "docs/designs/001-design-signup";
const AT: &str = "2026-03-10T09:15:00.000Z";

fn floor() -> DesignFloor {
    floor_over(&[package("001-design-signup", "DES-001")]).with_now(AT.to_owned())
}

fn record(floor: &DesignFloor, revision: &str, decision: &str) -> HandlerResult {
    prepare(
        floor,
        &design_request(
            "record",
            &[
                ("package", "DES-001"),
                ("revision", revision),
                ("decision", decision),
            ],
            None,
        ),
    )
}

fn blocked(result: HandlerResult) -> CapabilityError {
    match result {
        HandlerResult::Blocked(e) => e,
        other => panic!("expected blocked, got {other:?}"),
    }
}

#[test]
fn a_revision_is_written_r_n_or_n_from_one() {
    assert_eq!(parse_revision("r1"), Some(1));
    assert_eq!(parse_revision("1"), Some(1));
    assert_eq!(parse_revision("r001"), Some(1));
    assert_eq!(parse_revision("12"), Some(12));
    for bad in ["", "r", "r0", "0", "R1", "r-1", "1.0", "DES-001@r1", "r 1"] {
        assert_eq!(parse_revision(bad), None, "{bad}");
    }
}

#[test]
fn a_decision_is_the_review_file_of_that_revision_stamped_with_the_shells_clock() {
    let HandlerResult::Durable {
        artifacts,
        base,
        output,
    } = record(&floor(), "r1", "approved")
    else {
        panic!("expected a durable plan");
    };
    assert!(base.is_none());
    let path = format!("{PKG}/reviews/r001.json");
    assert_eq!(artifacts.len(), 1);
    assert_eq!(artifacts[0].path, path);
    assert_eq!(artifacts[0].overwrite, None, "no review of r1 yet");
    let expected = format!(
        "{{\n  \"schema\": \"workline.design-review/v1\",\n  \"id\": \"DES-001\",\n  \"revision\": 1,\n  \"digest\": \"{}\",\n  \"decision\": \"approved\",\n  \"note\": null,\n  \"recorded_at\": \"{AT}\"\n}}\n",
        doc_digest()
    );
    assert_eq!(artifacts[0].content, expected);
    let review = parse_review(artifacts[0].content.as_bytes(), &path).unwrap();
    assert_eq!(review.decision, Decision::Approved);
    assert_eq!(output.completeness, Some(Completeness::Partial));
    let reference = output.reference.unwrap();
    assert_eq!(
        (
            reference.id.as_str(),
            reference.revision,
            reference.locator.as_str()
        ),
        ("DES-001", Some(1), path.as_str())
    );
    assert_eq!(reference.digest, digest_of(expected.as_bytes()));
    let value = output.value.unwrap();
    assert_eq!(value["review"]["decision"], "approved");
    assert_eq!(value["review"]["replaces"], false);
    assert_eq!(value["design"]["package"], "DES-001");
    assert_eq!(value["design"]["renditions"], json!([]));
    // `N` names the same revision as `rN`.
    let HandlerResult::Durable { artifacts: n, .. } = record(&floor(), "1", "approved") else {
        panic!("expected a durable plan");
    };
    assert_eq!(n, artifacts);
}

#[test]
fn a_second_decision_on_a_revision_replaces_the_first() {
    let earlier = review_json("DES-001", 1, &doc_digest(), Decision::Rejected, None, AT);
    let floor = floor_over(&[with_reviews(
        package("001-design-signup", "DES-001"),
        &[("r001.json", &earlier)],
    )])
    .with_now(AT.to_owned());
    let HandlerResult::Durable {
        artifacts, output, ..
    } = record(&floor, "r1", "changes-requested")
    else {
        panic!("expected a durable plan");
    };
    assert_eq!(artifacts[0].overwrite, Some(true));
    assert!(artifacts[0].content.contains("\"changes-requested\""));
    assert_eq!(output.value.unwrap()["review"]["replaces"], true);
}

#[test]
fn a_bad_decision_a_missing_revision_and_an_invalid_package_are_refused() {
    let e = blocked(record(&floor(), "r1", "lgtm"));
    assert_eq!(e.code, ErrorCode::DesignDecisionInvalid);
    assert!(e.action.contains("approved, rejected, changes-requested"));
    for revision in ["r2", "7"] {
        let e = blocked(record(&floor(), revision, "approved"));
        assert_eq!(e.code, ErrorCode::DesignRevisionNotFound, "{revision}");
        assert!(e.message.contains("has no revision"), "{}", e.message);
        assert!(e.action.contains("--input revision=r1"), "{}", e.action);
    }
    let e = blocked(record(&floor(), "latest", "approved"));
    assert_eq!(e.code, ErrorCode::DesignRevisionNotFound);
    assert!(e.message.contains("'latest' is not a revision"));
    // A valid manifest whose file source is gone: the package does not validate.
    let invalid = floor_over(&[raw_package(
        "001-design-signup",
        manifest_text("DES-001").into_bytes(),
    )])
    .with_now(AT.to_owned());
    let e = blocked(record(&invalid, "r1", "approved"));
    assert_eq!(e.code, ErrorCode::DesignReferenceUnresolved);
    let empty = floor_over(&[]).with_now(AT.to_owned());
    assert_eq!(
        blocked(record(&empty, "r1", "approved")).code,
        ErrorCode::DesignPackageNotFound
    );
    // A blank revision is asked for; a floor without a clock is a bug, not a guess.
    assert!(matches!(
        record(&floor(), " ", "approved"),
        HandlerResult::NeedsInput { semantic: None, .. }
    ));
    let clockless = floor_over(&[package("001-design-signup", "DES-001")]);
    assert_eq!(
        blocked(record(&clockless, "r1", "approved")).code,
        ErrorCode::Internal
    );
}

#[test]
fn the_destination_is_the_packages_reviews_folder() {
    assert_eq!(
        destinations(&floor(), "DES-001").unwrap(),
        [format!("{PKG}/reviews")]
    );
}
