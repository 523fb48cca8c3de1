use super::*;

const VALID: &str = "# Checkout\n\n## Objective\n\nPay in one step.\n\n## Proposed design\n\nOne page.\n\n## Validation\n\nA person pays.\n";

fn codes(text: &str) -> Vec<String> {
    check_document(&DesignDocument::read(text), "DESIGN.md")
        .into_iter()
        .map(|f| {
            assert_eq!(f.code, ErrorCode::DesignContentInvalid);
            f.message
        })
        .collect()
}

#[test]
fn a_document_with_the_three_required_sections_passes() {
    let doc = DesignDocument::read(VALID);
    assert_eq!(doc.title.as_deref(), Some("Checkout"));
    assert_eq!(doc.section(OBJECTIVE), Some("Pay in one step."));
    assert!(check_document(&doc, "x").is_empty());
    assert!(!doc.has_open_questions());
}

#[test]
fn spanish_headings_read_as_the_same_sections() {
    let es =
        "# Alta\n## Objetivo\nx\n## Diseño propuesto\ny\n## Validación\nz\n## Abiertos\n- ¿cuál?\n";
    let doc = DesignDocument::read(es);
    assert!(check_document(&doc, "x").is_empty());
    assert_eq!(doc.section(PROPOSED_DESIGN), Some("y"));
    assert!(doc.has_open_questions());
}

#[test]
fn the_title_must_be_the_first_line() {
    let m = codes(&format!("\n{VALID}"));
    assert_eq!(m.len(), 1);
    assert!(m[0].contains("title"), "{m:?}");
    assert_eq!(
        codes(&VALID.replacen("# Checkout", "## Checkout", 1)).len(),
        1
    );
    assert!(
        codes(&format!("\u{feff}{VALID}")).is_empty(),
        "a BOM is ignored"
    );
}

#[test]
fn a_missing_or_empty_required_section_fails_each_on_its_own() {
    let text = "# T\n## Objective\n\n## Proposed design\nx\n";
    let m = codes(text);
    assert_eq!(m.len(), 2, "{m:?}");
    assert!(m[0].contains("'## Objective' is empty"));
    assert!(m[1].contains("'## Validation' is missing"));
}

#[test]
fn an_optional_section_is_present_only_when_it_says_something() {
    let m = codes(&format!("{VALID}## Decisions\n\n"));
    assert_eq!(m.len(), 1);
    assert!(m[0].contains("Decisions"));
    assert!(codes(&format!("{VALID}## Decisions\nUse cards.\n")).is_empty());
}

#[test]
fn a_heading_inside_a_fence_is_content_and_sections_stop_at_level_two() {
    let text =
        "# T\n## Objective\n```\n## Validation\n```\n### Detail\nmore\n## Proposed design\nx\n";
    let doc = DesignDocument::read(text);
    assert_eq!(
        doc.section(OBJECTIVE),
        Some("```\n## Validation\n```\n### Detail\nmore")
    );
    assert_eq!(doc.section(VALIDATION), None);
}

#[test]
fn a_repeated_section_is_refused_and_unknown_sections_are_left_alone() {
    let m = codes(&format!("{VALID}## Objective\nagain\n## Notes\nmine\n"));
    assert_eq!(m.len(), 1);
    assert!(m[0].contains("appears 2 times"));
}

#[test]
fn the_contract_names_every_section_in_english() {
    let c = document_contract();
    for rule in SECTIONS {
        assert!(c.contains(rule.name), "{c}");
    }
}
