use super::*;
use crate::capability::plan::resealed;
use crate::persist::answer::Item;
use crate::persist::inventory::{Entry, build as inventory_of};

fn entry(name: &str, text: &str) -> Entry {
    Entry {
        name: name.into(),
        text: Some(text.into()),
    }
}

fn inventory() -> Inventory {
    inventory_of(
        &[
            (
                DocKind::Spec,
                vec![
                    entry("001-spec-login.md", "# Login\n"),
                    entry("003-spec-cache.md", "# Cache Layer\n"),
                ],
            ),
            (
                DocKind::Plan,
                vec![entry("007-plan-login.md", "# Plan login\n")],
            ),
        ],
        &DocKind::ALL,
    )
}

fn item(kind: DocKind, slug: &str, title: &str) -> Item {
    Item {
        kind,
        slug: slug.into(),
        title: title.into(),
        content: format!("# {title}\n\nBody.\n"),
    }
}

fn code<T: std::fmt::Debug>(r: CapabilityResult<T>) -> ErrorCode {
    r.unwrap_err().code
}

#[test]
fn numbers_are_each_folders_next_then_consecutive() {
    let inv = inventory();
    let items = [
        item(DocKind::Spec, "otp", "OTP"),
        item(DocKind::Plan, "otp", "Plan OTP"),
        item(DocKind::Spec, "sso", "SSO"),
        item(DocKind::Research, "vendors", "Vendors"),
    ];
    assert_eq!(
        assign(&items, &inv),
        [
            "docs/specs/004-spec-otp.md",
            "docs/plans/008-plan-otp.md",
            "docs/specs/005-spec-sso.md",
            "docs/research/001-research-vendors.md",
        ]
    );
}

#[test]
fn the_plan_is_sealed_with_the_protocols_digest() {
    let inv = inventory();
    let plan = build(&[item(DocKind::Spec, "otp", "OTP")], &inv).unwrap();
    assert_eq!(
        (plan.capability.as_str(), plan.operation.as_str()),
        ("aw", "persist")
    );
    assert_eq!(plan.semantic_inputs_digest, inv.digest());
    assert_eq!(plan.request_digest, inv.digest());
    assert_eq!(
        plan.approval_digest,
        approval_digest("aw", "persist", &inv.digest(), &plan.artifacts)
    );
    assert_eq!(plan.preview[0].path, "docs/specs/004-spec-otp.md");
    assert!(plan.requires_approval.is_empty() && plan.base.is_none());
    let planned = check_carried(&plan, &plan.approval_digest).unwrap();
    assert_eq!(planned[0].number.padded(), "004");
    assert_eq!(planned[0].title.as_deref(), Some("OTP"));
    check_fresh(&planned, &inv).unwrap();
}

#[test]
fn duplicates_of_existing_documents_are_refused_by_slug_or_title() {
    let inv = inventory();
    let refused = |items: &[Item]| build(items, &inv).unwrap_err();
    let by_slug = refused(&[item(DocKind::Spec, "login", "Something else")]);
    assert_eq!(by_slug.code, ErrorCode::PersistDuplicate);
    assert!(
        by_slug.message.contains("docs/specs/001-spec-login.md"),
        "{}",
        by_slug.message
    );
    let by_title = refused(&[item(DocKind::Spec, "caching", "cache   LAYER")]);
    assert!(by_title.message.contains("003-spec-cache.md"));
    // Another kind's document with that slug is no duplicate: a plan follows its spec's slug.
    assert!(build(&[item(DocKind::Research, "login", "Login")], &inv).is_ok());
    assert!(build(&[item(DocKind::Plan, "cache", "Plan cache")], &inv).is_ok());
}

#[test]
fn two_items_of_one_kind_may_not_share_a_slug_or_title() {
    let inv = inventory();
    let same_slug = [
        item(DocKind::Spec, "otp", "A"),
        item(DocKind::Spec, "otp", "B"),
    ];
    assert_eq!(code(build(&same_slug, &inv)), ErrorCode::PersistDuplicate);
    let same_title = [
        item(DocKind::Spec, "a", "Same"),
        item(DocKind::Spec, "b", "same"),
    ];
    assert_eq!(code(build(&same_title, &inv)), ErrorCode::PersistDuplicate);
    let across = [
        item(DocKind::Spec, "otp", "OTP"),
        item(DocKind::Plan, "otp", "OTP"),
    ];
    assert!(build(&across, &inv).is_ok());
}

#[test]
fn an_edited_or_foreign_plan_is_refused() {
    let inv = inventory();
    let plan = build(&[item(DocKind::Spec, "otp", "OTP")], &inv).unwrap();
    let digest = plan.approval_digest.clone();
    let mut edited = plan.clone();
    edited.artifacts[0].content.push_str("more\n");
    assert_eq!(
        code(check_carried(&edited, &digest)),
        ErrorCode::CapabilityApprovalMismatch
    );
    assert_eq!(
        code(check_carried(&plan, &"0".repeat(64))),
        ErrorCode::CapabilityApprovalMismatch
    );
    let mut hidden = plan.clone();
    hidden.preview.clear();
    assert_eq!(
        code(check_carried(&hidden, &digest)),
        ErrorCode::CapabilityApprovalMismatch
    );
    // Re-sealed by hand with another operation, or switched to overwrite: not a persist plan.
    let mut foreign = plan.clone();
    foreign.capability = "design".into();
    foreign.approval_digest = resealed(&foreign);
    assert_eq!(
        code(check_carried(&foreign, &foreign.approval_digest)),
        ErrorCode::CapabilityApprovalMismatch
    );
    let mut clobber = plan.clone();
    clobber.artifacts[0].overwrite = Some(true);
    clobber.preview = preview_of(&clobber.artifacts);
    assert_eq!(
        code(check_carried(&clobber, &digest)),
        ErrorCode::CapabilityApprovalMismatch
    );
}

/// A plan re-sealed by hand (the approval digest is a checksum anyone can compute) with one
/// artifact path replaced.
fn resealed_with(path: &str) -> (DurablePlan, String) {
    let mut plan = build(&[item(DocKind::Spec, "otp", "OTP")], &inventory()).unwrap();
    plan.artifacts[0].path = path.into();
    plan.preview = preview_of(&plan.artifacts);
    plan.approval_digest = resealed(&plan);
    let d = plan.approval_digest.clone();
    (plan, d)
}

#[test]
fn every_path_must_be_a_document_name_in_its_folder() {
    for path in [
        "docs/specs/../../etc/004-spec-x.md",
        "/tmp/004-spec-x.md",
        "docs/designs/004-spec-x.md",
        "docs/specs/sub/004-spec-x.md",
        "docs/specs/004-plan-x.md",
        "docs/specs/004-spec-X.md",
        "docs/specs/4-spec-x.md",
        "docs/specs/0004-spec-x.md",
        "docs/specs/notes.md",
        "docs/specs",
        ".workflow/004-spec-x.md",
    ] {
        let (plan, d) = resealed_with(path);
        assert_eq!(
            code(check_carried(&plan, &d)),
            ErrorCode::SemanticPathRejected,
            "{path}"
        );
    }
    let (plan, d) = resealed_with("docs/research/009-research-otp.md");
    assert!(check_carried(&plan, &d).is_ok());
}

#[test]
fn a_number_given_twice_in_a_plan_is_refused() {
    let inv = inventory();
    let mut plan = build(
        &[item(DocKind::Spec, "a", "A"), item(DocKind::Spec, "b", "B")],
        &inv,
    )
    .unwrap();
    plan.artifacts[1].path = "docs/specs/004-spec-b.md".into();
    plan.preview = preview_of(&plan.artifacts);
    plan.approval_digest = resealed(&plan);
    let d = plan.approval_digest.clone();
    assert_eq!(
        code(check_carried(&plan, &d)),
        ErrorCode::PersistNumberTaken
    );
}

#[test]
fn under_the_lock_a_taken_or_reused_number_and_a_new_duplicate_are_refused() {
    let inv = inventory();
    let plan = build(&[item(DocKind::Spec, "otp", "OTP")], &inv).unwrap();
    let planned = check_carried(&plan, &plan.approval_digest).unwrap();
    // Another persist (or a next-number claim) took 004 meanwhile.
    let taken = inventory_of(
        &[(
            DocKind::Spec,
            vec![
                entry("001-spec-login.md", "# Login\n"),
                entry("004-spec-sso.md", "# SSO\n"),
            ],
        )],
        &DocKind::ALL,
    );
    let e = check_fresh(&planned, &taken).unwrap_err();
    assert_eq!(e.code, ErrorCode::PersistNumberTaken);
    assert!(e.message.contains("004-spec-sso.md"));
    // Something numbered higher appeared: 004 would now fill a gap below it.
    let above = inventory_of(
        &[(DocKind::Spec, vec![entry("009-notes", "")])],
        &DocKind::ALL,
    );
    assert_eq!(
        code(check_fresh(&planned, &above)),
        ErrorCode::PersistNumberTaken
    );
    // The numbers are free but a document with that slug landed under another number.
    let dup = inventory_of(
        &[(DocKind::Spec, vec![entry("002-spec-otp.md", "# Other\n")])],
        &DocKind::ALL,
    );
    assert_eq!(
        code(check_fresh(&planned, &dup)),
        ErrorCode::PersistDuplicate
    );
    // A folder emptied meanwhile leaves the number free: a gap is harmless.
    let emptied = inventory_of(&[], &DocKind::ALL);
    assert!(check_fresh(&planned, &emptied).is_ok());
}
