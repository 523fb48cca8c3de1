use super::*;
use crate::design::sources::{Disposition, floor_source};

const DOC: &str = "# T\n## Objective\na\n## Proposed design\nb\n## Validation\nc\n";

#[test]
fn a_complete_package_reaches_handoff_without_gaps() {
    let m = intrinsic_maturity(
        Some(Maturity::Handoff),
        &[floor_source("sources", "docs/a.md")],
        &DesignDocument::read(DOC),
    );
    assert_eq!(m.attained, Maturity::Handoff);
    assert!(m.gaps.is_empty());
    assert_eq!(m.requested, Some(Maturity::Handoff));
}

#[test]
fn open_questions_keep_a_package_at_outline_with_their_gap() {
    let doc = DesignDocument::read(&format!("{DOC}## Open questions\n- which?\n"));
    let m = intrinsic_maturity(None, &[], &doc);
    assert_eq!(m.attained, Maturity::Outline);
    assert_eq!(m.gaps, [OPEN_QUESTIONS_GAP]);
    // Asked for handoff: the reason, then the gap saying the request was not met.
    let m = intrinsic_maturity(Some(Maturity::Handoff), &[], &doc);
    assert_eq!(m.gaps.len(), 2);
    assert_eq!(m.gaps[0], OPEN_QUESTIONS_GAP);
    assert!(m.gaps[1].contains("'handoff' was requested"));
}

#[test]
fn an_essential_source_left_out_blocks_handoff_fail_closed() {
    let unsupported = floor_source("sources", "notes.xyz");
    assert_eq!(unsupported.disposition, Disposition::Unsupported);
    let m = intrinsic_maturity(None, &[unsupported], &DesignDocument::read(DOC));
    assert_eq!(m.attained, Maturity::Outline);
    assert_eq!(m.gaps.len(), 1);
    assert!(m.gaps[0].contains("notes.xyz"), "{:?}", m.gaps);
}

#[test]
fn every_reason_is_one_gap() {
    let m = package_maturity(None, &[], vec!["a".into(), "b".into()]);
    assert_eq!(m.attained, Maturity::Outline);
    assert_eq!(m.gaps, ["a", "b"]);
}
