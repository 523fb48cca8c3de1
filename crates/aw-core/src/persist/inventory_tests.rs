use super::*;

fn entry(name: &str, text: Option<&str>) -> Entry {
    Entry {
        name: name.to_owned(),
        text: text.map(str::to_owned),
    }
}

fn specs() -> Vec<Entry> {
    vec![
        entry("010-spec-b.md", Some("# Spec B\n")),
        entry(
            "002-spec-a.md",
            Some("---\nstatus: draft\n---\n```\n# not this\n```\n#  Login  OTP \n"),
        ),
        entry("README.md", None),
        entry("011-dir", None),
        entry("003-spec-none.md", Some("no heading\n## Two\n")),
    ]
}

#[test]
fn documents_are_read_by_the_grammar_and_ordered_by_number() {
    let f = folder_of(DocKind::Spec, &specs());
    let files: Vec<&str> = f.documents.iter().map(|d| d.file.as_str()).collect();
    assert_eq!(
        files,
        ["002-spec-a.md", "003-spec-none.md", "010-spec-b.md"]
    );
    assert_eq!(f.documents[0].title.as_deref(), Some("Login  OTP"));
    assert_eq!(f.documents[0].slug, "a");
    assert_eq!(f.documents[1].title, None);
    // Every numbered entry counts for the next number, documents or not.
    assert_eq!(f.next, "012");
    assert_eq!(f.highest.padded(), "011");
    assert_eq!(f.numbered.len(), 4);
}

#[test]
fn an_empty_folder_starts_at_one() {
    let f = folder_of(DocKind::Research, &[]);
    assert_eq!((f.next.as_str(), f.folder), ("001", "docs/research"));
}

#[test]
fn titles_normalize_case_accents_and_blanks() {
    assert_eq!(normalized_title("  Login   ÓTP "), "login otp");
    assert_eq!(
        normalized_title("Login OTP"),
        normalized_title("login\totp")
    );
    assert_eq!(title_of("## two\n# One\n# Two"), Some("One".to_owned()));
    assert_eq!(title_of("#\n"), None);
}

#[test]
fn the_digest_moves_with_every_fact_the_answer_depends_on() {
    let listed = vec![(DocKind::Spec, specs()), (DocKind::Plan, vec![])];
    let all = build(&listed, &DocKind::ALL);
    assert_eq!(all.kinds, ["research", "spec", "plan"]);
    let base = all.digest();
    assert_eq!(
        build(
            &listed,
            &[
                DocKind::Plan,
                DocKind::Spec,
                DocKind::Research,
                DocKind::Spec
            ]
        )
        .digest(),
        base
    );
    // A retitled document, a new number, a narrower set of kinds: each is another inventory.
    let mut retitled = specs();
    retitled[0].text = Some("# Spec B2\n".to_owned());
    assert_ne!(
        build(&[(DocKind::Spec, retitled)], &DocKind::ALL).digest(),
        base
    );
    let mut claimed = specs();
    claimed.push(entry(
        "012-spec-x.md",
        Some("<!-- aw:reservation 004-x -->\n"),
    ));
    assert_ne!(
        build(&[(DocKind::Spec, claimed)], &DocKind::ALL).digest(),
        base
    );
    assert_ne!(build(&listed, &[DocKind::Spec]).digest(), base);
}
