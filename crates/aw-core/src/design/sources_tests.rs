use super::*;
use serde_json::json;

fn source(disposition: Disposition, reason: Option<&str>, essential: bool) -> DesignSource {
    DesignSource {
        name: "brief".to_owned(),
        kind: SourceKind::Markdown,
        locator: "docs/brief.md".to_owned(),
        disposition,
        reason: reason.map(str::to_owned),
        derived: Vec::new(),
        sensitivity: Sensitivity::Public,
        essential,
    }
}

fn named(name: &str, locator: &str, kind: SourceKind) -> DesignSource {
    DesignSource {
        name: name.to_owned(),
        kind,
        locator: locator.to_owned(),
        ..source(Disposition::Used, None, true)
    }
}

#[test]
fn locators_classify_by_identity_scheme_and_extension() {
    let cases = [
        ("docs/req.md", SourceKind::Markdown),
        ("notes.txt", SourceKind::Markdown),
        ("screen.png", SourceKind::Image),
        ("contract.pdf", SourceKind::Pdf),
        ("brief.docx", SourceKind::Docx),
        ("deck.pptx", SourceKind::Pptx),
        ("DES-001", SourceKind::Package),
        ("DES-001@r2", SourceKind::Package),
        ("figma://file/abc", SourceKind::ProviderLocator),
        // Trimmed, and the extension is compared lowercased.
        ("  Mock.JPEG  ", SourceKind::Image),
        ("DES-1000", SourceKind::Package),
        // No dot: the whole locator is read as the extension, as the reference reads it.
        ("pdf", SourceKind::Pdf),
    ];
    for (locator, kind) in cases {
        assert_eq!(classify_source(locator), Some(kind), "{locator}");
    }
}

#[test]
fn out_of_catalog_and_blank_locators_classify_as_nothing() {
    for locator in [
        "design.sketch",
        "",
        "   ",
        "DES-01",
        "DES-0100",
        "DES-001@r0",
        "Figma://x",
        "notes",
    ] {
        assert_eq!(classify_source(locator), None, "{locator:?}");
    }
}

#[test]
fn the_dispositions_are_the_five_of_the_vocabulary_in_order() {
    let names: Vec<&str> = SOURCE_DISPOSITIONS.iter().map(|d| d.as_str()).collect();
    assert_eq!(
        names,
        ["used", "skipped", "unsupported", "unavailable", "redacted"]
    );
    assert_eq!(SOURCE_KINDS.len(), 8);
    for d in SOURCE_DISPOSITIONS {
        assert_eq!(serde_json::to_value(d).unwrap(), json!(d.as_str()));
    }
    for k in SOURCE_KINDS {
        assert_eq!(serde_json::to_value(k).unwrap(), json!(k.as_str()));
    }
}

#[test]
fn a_source_that_did_not_contribute_must_say_why() {
    for d in [
        Disposition::Skipped,
        Disposition::Unsupported,
        Disposition::Unavailable,
        Disposition::Redacted,
    ] {
        for reason in [None, Some("  ")] {
            let report = report_sources(&[source(d, reason, true)], "create");
            assert_eq!(
                report.failures.iter().map(|f| f.code).collect::<Vec<_>>(),
                [ErrorCode::DesignSourceWithoutReason],
                "{d:?}"
            );
            assert_eq!(report.failures[0].artifact, "create");
        }
    }
    assert!(
        report_sources(&[source(Disposition::Used, None, true)], "create")
            .failures
            .is_empty()
    );
}

#[test]
fn a_non_essential_source_must_say_why() {
    let report = report_sources(&[source(Disposition::Used, None, false)], "create");
    assert_eq!(
        report.failures.iter().map(|f| f.code).collect::<Vec<_>>(),
        [ErrorCode::DesignSourceOptionalWithoutReason]
    );
}

#[test]
fn a_skipped_source_with_its_reason_is_omitted_and_keeps_it() {
    let used = source(Disposition::Used, None, true);
    let skipped = source(Disposition::Skipped, Some("superseded by v2"), true);
    let report = report_sources(&[used, skipped], "create");
    assert!(report.failures.is_empty());
    assert_eq!(report.omitted.len(), 1);
    assert_eq!(report.omitted[0].disposition, Disposition::Skipped);
    assert_eq!(
        report.omitted[0].reason.as_deref(),
        Some("superseded by v2")
    );
    assert!(report.blocks_handoff, "the skipped source is essential");
}

#[test]
fn five_sources_report_the_two_omissions_and_keep_provenance() {
    let derived = |n: &str| vec![format!("section {n}")];
    let sources = vec![
        DesignSource {
            derived: derived("1"),
            ..named("brief", "docs/brief.md", SourceKind::Markdown)
        },
        DesignSource {
            derived: derived("2"),
            ..named("mock", "mock.png", SourceKind::Image)
        },
        DesignSource {
            derived: derived("3"),
            ..named("board", "figma://f/1", SourceKind::ProviderLocator)
        },
        DesignSource {
            disposition: Disposition::Unavailable,
            reason: Some("the file was not attached".to_owned()),
            ..named("contract", "contract.pdf", SourceKind::Pdf)
        },
        DesignSource {
            disposition: Disposition::Unsupported,
            reason: Some("a retired UI spec; there is no importer".to_owned()),
            essential: false,
            ..named("legacy", "003-SPEC-ALTA.md", SourceKind::Markdown)
        },
    ];
    let report = report_sources(&sources, "create");
    assert!(report.failures.is_empty());
    let omitted: Vec<&str> = report.omitted.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(omitted, ["contract", "legacy"]);
    assert!(report.omitted.iter().all(|s| s.reason.is_some()));
    assert_eq!(
        report
            .sources
            .iter()
            .filter(|s| !s.derived.is_empty())
            .count(),
        3
    );
    // The unavailable pdf is essential: handoff is blocked, with one gap naming it.
    assert!(report.blocks_handoff);
    let m = attained_maturity(Some(Maturity::Handoff), Maturity::Handoff, &report);
    assert_eq!(m.attained, Maturity::Outline);
    assert_eq!(m.gaps.len(), 1);
    assert!(m.gaps[0].contains("contract.pdf") && m.gaps[0].contains("unavailable"));
    assert!(m.gaps[0].contains("the file was not attached"));
}

#[test]
fn a_non_essential_omission_with_its_reason_does_not_block_handoff() {
    let legacy = DesignSource {
        disposition: Disposition::Unsupported,
        reason: Some("a retired UI spec; there is no importer".to_owned()),
        essential: false,
        ..named("legacy", "old.md", SourceKind::Markdown)
    };
    let report = report_sources(&[legacy], "create");
    assert!(report.failures.is_empty() && !report.blocks_handoff);
    let m = attained_maturity(Some(Maturity::Handoff), Maturity::Handoff, &report);
    assert_eq!(m.attained, Maturity::Handoff);
    assert!(m.gaps.is_empty());
}

#[test]
fn a_handoff_the_gate_does_not_back_is_outline_with_a_gap() {
    let clean = report_sources(&[], "create");
    let m = attained_maturity(Some(Maturity::Handoff), Maturity::Outline, &clean);
    assert_eq!(m.attained, Maturity::Outline);
    assert_eq!(m.gaps.len(), 1);
    assert!(m.gaps[0].contains("handoff"));
    // Nothing asked for, nothing missing: the gate's verdict, no gap.
    let m = attained_maturity(None, Maturity::Outline, &clean);
    assert_eq!((m.attained, m.gaps.len()), (Maturity::Outline, 0));
    let m = attained_maturity(Some(Maturity::Outline), Maturity::Handoff, &clean);
    assert_eq!((m.attained, m.gaps.len()), (Maturity::Handoff, 0));
}

#[test]
fn only_the_exact_words_request_a_maturity() {
    assert_eq!(
        Maturity::requested(Some(&json!("handoff"))),
        Some(Maturity::Handoff)
    );
    assert_eq!(
        Maturity::requested(Some(&json!("outline"))),
        Some(Maturity::Outline)
    );
    for v in [json!("Handoff"), json!(" handoff"), json!(1), json!(null)] {
        assert_eq!(Maturity::requested(Some(&v)), None, "{v}");
    }
    assert_eq!(Maturity::requested(None), None);
}

#[test]
fn the_sources_input_is_an_array_of_locators_or_one_string() {
    assert_eq!(
        declared_locators(Some(&json!(["a.md", 7, null, true]))),
        ["a.md", "7", "null", "true"]
    );
    // A comma is part of the one locator.
    assert_eq!(
        declared_locators(Some(&json!("a.md,b.png"))),
        ["a.md,b.png"]
    );
    assert!(declared_locators(Some(&json!({"a": 1}))).is_empty());
    assert!(declared_locators(None).is_empty());
}

#[test]
fn the_floor_uses_what_it_classifies_and_reports_the_rest_unsupported() {
    let used = floor_source("sources", "docs/req.md");
    assert_eq!(
        serde_json::to_value(&used).unwrap(),
        json!({
            "name": "sources", "kind": "markdown", "locator": "docs/req.md",
            "disposition": "used", "reason": null, "derived": [],
            "sensitivity": "public", "essential": true
        })
    );
    let other = floor_source("sources", "design.sketch");
    assert_eq!(other.kind, SourceKind::HostContext);
    assert_eq!(other.disposition, Disposition::Unsupported);
    assert!(other.reason.as_deref().unwrap().contains("design.sketch"));
    // Unsupported with its reason: no failure, but handoff is blocked.
    let report = report_sources(&[used, other], "create");
    assert!(report.failures.is_empty());
    assert!(report.blocks_handoff);
}

#[test]
fn nothing_is_copied_unless_approved_by_name() {
    let sources = vec![named("brief", "docs/brief.md", SourceKind::Markdown)];
    assert_eq!(plan_original_copy(&sources, &[], "create"), Ok(Vec::new()));
    let copied = plan_original_copy(&sources, &["brief"], "create").unwrap();
    assert_eq!(copied, sources);
}

#[test]
fn an_unknown_unused_or_sensitive_source_is_never_copied() {
    let sources = vec![
        named("brief", "docs/brief.md", SourceKind::Markdown),
        DesignSource {
            disposition: Disposition::Skipped,
            reason: Some("out of scope".to_owned()),
            ..named("old", "old.md", SourceKind::Markdown)
        },
        DesignSource {
            sensitivity: Sensitivity::Sensitive,
            ..named("payroll", "payroll.pdf", SourceKind::Pdf)
        },
    ];
    let code = |name: &str| plan_original_copy(&sources, &[name], "create").unwrap_err();
    let unknown = code("nope");
    assert_eq!(unknown.code, ErrorCode::DesignSourceCopyUnknown);
    assert!(unknown.action.contains("brief, old, payroll"));
    assert_eq!(code("old").code, ErrorCode::DesignSourceCopyUnused);
    assert_eq!(code("payroll").code, ErrorCode::DesignSourceCopySensitive);
    // The first refusal wins, even after an allowed name.
    assert_eq!(
        plan_original_copy(&sources, &["brief", "payroll"], "create")
            .unwrap_err()
            .code,
        ErrorCode::DesignSourceCopySensitive
    );
}
