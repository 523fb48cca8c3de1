use super::*;

/// Written by the reference v22.4.2: a quick session born with three declared inputs (one
/// absent), then a unit taken three times and a flow adopted.
const REFERENCE_UNITS: &str =
    include_str!("../../tests/fixtures/custody/reference-units-adopted.json");
/// Written by the reference: a `-plan-exec` session whose plan was derived from its name.
const REFERENCE_DERIVED: &str = include_str!("../../tests/fixtures/custody/reference-derived.json");
/// Written by the reference: a session born with no input.
const REFERENCE_EMPTY: &str = include_str!("../../tests/fixtures/custody/reference-empty.json");

#[test]
fn the_seal_of_reference_written_records_is_recomputed_exactly() {
    for text in [REFERENCE_UNITS, REFERENCE_DERIVED, REFERENCE_EMPTY] {
        let c = Custody::parse(text).unwrap();
        assert_eq!(seal(&c), c.digest);
        assert!(gaps(&c).is_empty(), "{:?}", gaps(&c));
        // And aw writes the same bytes back.
        assert_eq!(c.render(), text);
    }
}

#[test]
fn birth_reproduces_the_references_record_byte_for_byte() {
    let born = Custody::born(
        "001-login-plan-exec",
        "/tmp/cust/ws/.workflow/sessions/001-login-plan-exec",
        "2026-12-06",
        &[(
            "docs/plans/001-plan-login.md".to_owned(),
            Some("# Plan login\n\nhello ñ\n".to_owned()),
        )],
    );
    assert_eq!(born.render(), REFERENCE_DERIVED);
    let empty = Custody::born(
        "002-x-plan-exec",
        "/tmp/cust/ws/.workflow/sessions/002-x-plan-exec",
        "2026-12-06",
        &[],
    );
    assert_eq!(empty.render(), REFERENCE_EMPTY);
}

#[test]
fn appends_reproduce_the_references_record_and_reseal() {
    let reference = Custody::parse(REFERENCE_UNITS).unwrap();
    let mut c = Custody::born(
        "006-q-quick",
        &reference.subject_path,
        "2026-12-06",
        &[
            (
                "docs/specs/007-Spec-Auth.md".to_owned(),
                Some("s\n".to_owned()),
            ),
            ("docs/none.md".to_owned(), None),
            (
                "docs/plans/001-plan-login.md".to_owned(),
                Some("# Plan login\n\nhello ñ\n".to_owned()),
            ),
        ],
    );
    let unit = reference.sources[0].unit_path.clone().unwrap();
    let first = "c61f44fce008f1056a1a958f3c80228351bbddd1";
    let mut taken = UnitSource {
        alias: "app".to_owned(),
        path: ".".to_owned(),
        branch: Some("master".to_owned()),
        baseline_head: Some(first.to_owned()),
        unit_branch: "aw/006-q-quick".to_owned(),
        unit_path: unit,
        dirty_paths: vec!["zz.txt".to_owned()],
    };
    c.unit_taken(&taken, "2026-12-06");
    c.unit_taken(&taken, "2026-12-06");
    // A later call with a moved HEAD records the new HEAD in its effect and leaves the source's
    // baseline alone.
    taken.baseline_head = Some("366fced88d86ec1f390e919d4e72bb4f6f9d79b6".to_owned());
    taken.dirty_paths = vec!["other".to_owned()];
    c.unit_taken(&taken, "2026-12-06");
    assert_eq!(c.sources[0].baseline_head.as_deref(), Some(first));
    c.flow_adopted("quick", "2026-12-06");
    assert_eq!(c.render(), REFERENCE_UNITS);
}

#[test]
fn any_change_breaks_the_seal_and_each_gap_is_named() {
    let mut c = Custody::parse(REFERENCE_UNITS).unwrap();
    c.created = "2026-12-07".to_owned();
    assert_eq!(gaps(&c), vec![Gap::Digest]);
    c.reseal();
    assert!(gaps(&c).is_empty());
    c.version = 2;
    c.artifacts[0].before.digest = None;
    c.sources[0].baseline_head = None;
    c.reseal();
    assert_eq!(
        gaps(&c),
        vec![
            Gap::Version(2),
            Gap::InputWithoutDigest("docs/specs/007-Spec-Auth.md".to_owned()),
            Gap::UnitWithoutBaseline("app".to_owned()),
        ]
    );
    // An absent input needs no digest.
    let absent = Custody::born("001-x", "/w", "2026-01-01", &[("a.md".to_owned(), None)]);
    assert!(gaps(&absent).is_empty());
}

#[test]
fn the_seal_sorts_parents_artifacts_and_sources_but_not_effects() {
    let inputs = |order: &[usize]| {
        let all = [
            ("docs/specs/002-spec-b.md".to_owned(), Some("b".to_owned())),
            ("docs/plans/001-plan-a.md".to_owned(), Some("a".to_owned())),
        ];
        order.iter().map(|&i| all[i].clone()).collect::<Vec<_>>()
    };
    let a = Custody::born("001-x", "/w", "2026-01-01", &inputs(&[0, 1]));
    let b = Custody::born("001-x", "/w", "2026-01-01", &inputs(&[1, 0]));
    assert_ne!(a.render(), b.render());
    assert_eq!(a.digest, b.digest);
    let mut x = a.clone();
    x.flow_adopted("quick", "2026-01-01");
    x.flow_adopted("plan-exec", "2026-01-01");
    let mut y = a.clone();
    y.flow_adopted("plan-exec", "2026-01-01");
    y.flow_adopted("quick", "2026-01-01");
    assert_ne!(x.digest, y.digest);
    // The content counts through its digest.
    let mut z = a.clone();
    z.artifacts[0].before.content = Some("other".to_owned());
    assert_ne!(seal(&z), a.digest);
}

#[test]
fn parents_are_core_documents_directly_in_their_folder() {
    let p = |k: &str, n: &str| {
        Some(Parent {
            kind: k.to_owned(),
            key: n.to_owned(),
        })
    };
    // Observed with the reference.
    for (path, parent) in [
        ("docs/specs/009-SPEC.md", p("spec", "009")),
        ("docs/plans/0010-plan-z.md", p("plan", "0010")),
        ("docs/plans/010-Plan-z.md", p("plan", "010")),
        ("docs/plans/010-plan-.md", p("plan", "010")),
        ("docs/specs/1234-spec-a.md", p("spec", "1234")),
        ("docs/plans/010-plan-z.MD", None),
        ("docs/plans/010-plan.md.md", None),
        ("docs/specs/12-spec-a.md", None),
        ("DOCS/SPECS/007-spec-x.md", None),
        ("docs/specs/sub/008-spec-y.md", None),
        ("docs/plans/011-planx.md", None),
        ("docs/plans/011-spec-x.md", None),
        ("README.md", None),
    ] {
        assert_eq!(parent_of(path), parent, "{path}");
    }
    let c = Custody::born(
        "001-x",
        "/w",
        "2026-01-01",
        &[
            ("docs/specs/009-SPEC.md".to_owned(), None),
            ("docs/specs/009-spec-again.md".to_owned(), None),
        ],
    );
    assert_eq!(c.parents, vec![p("spec", "009").unwrap()]);
}

#[test]
fn each_unsafe_input_form_is_refused_and_duplicates_collapse() {
    for raw in [
        "", "  ", "a\\b", "/abs", "C:x", "./a", "a/../b", "a//b", "a/", "..",
    ] {
        let err = input_path(raw).unwrap_err();
        assert!(
            err.starts_with(&format!(
                "--input '{raw}' must be a workspace-relative path: it "
            )),
            "{err}"
        );
    }
    assert_eq!(input_path(" docs/a.md ").unwrap(), "docs/a.md");
    assert_eq!(
        declared_inputs(&[" a.md".to_owned(), "b.md".to_owned(), "a.md".to_owned()]).unwrap(),
        vec!["a.md", "b.md"]
    );
    assert!(declared_inputs(&["a.md".to_owned(), "../b".to_owned()]).is_err());
}

#[test]
fn the_name_says_which_document_to_derive() {
    let e = expected("login-plan-exec").unwrap();
    assert_eq!(
        (e.kind, e.dir, e.slug.as_str()),
        ("plan", "docs/plans", "login")
    );
    let e = expected("005-auth-spec-refine").unwrap();
    assert_eq!(
        (e.kind, e.dir, e.slug.as_str()),
        ("spec", "docs/specs", "auth")
    );
    assert_eq!(expected("auth-plan-new").unwrap().kind, "spec");
    assert_eq!(expected("auth-plan-refine").unwrap().kind, "plan");
    assert_eq!(expected("fix-quick"), None);
    assert_eq!(expected("research-thing"), None);
}

#[test]
fn one_match_derives_and_none_or_several_leave_a_note() {
    let names = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    let e = expected("auth-spec-refine").unwrap();
    let d = derive(
        &e,
        &names(&["007-Spec-Auth.md", "008-spec-other.md", "09-spec-auth.md"]),
    );
    assert_eq!(d.input.as_deref(), Some("docs/specs/007-Spec-Auth.md"));
    assert_eq!(d.note, None);

    let e = expected("x-plan-exec").unwrap();
    let d = derive(&e, &names(&["001-plan-login.md"]));
    assert_eq!(d.input, None);
    assert!(d.note.unwrap().contains("'docs/plans/NNN-plan-x.md'"));

    let e = expected("dup-plan-exec").unwrap();
    let d = derive(&e, &names(&["003-PLAN-dup.md", "002-plan-dup.md"]));
    assert_eq!(d.input, None);
    let note = d.note.unwrap();
    assert!(
        note.contains("2 documents (002-plan-dup.md, 003-PLAN-dup.md)"),
        "{note}"
    );
    assert!(note.contains("--input"), "{note}");
}

#[test]
fn publication_seals_inputs_and_outputs_once() {
    let mut c = Custody::born(
        "001-x",
        "/w",
        "2026-01-01",
        &[(
            "docs/specs/001-spec-a.md".to_owned(),
            Some("old".to_owned()),
        )],
    );
    let before = c.digest.clone();
    c.artifact_published(
        &[
            (
                "docs/specs/001-spec-a.md".to_owned(),
                Some("newer".to_owned()),
            ),
            (
                "docs/plans/002-plan-a.md".to_owned(),
                Some("prev".to_owned()),
            ),
            ("docs/plans/003-plan-b.md".to_owned(), None),
        ],
        "2026-01-02",
    );
    assert_ne!(c.digest, before);
    assert_eq!(c.digest, seal(&c));
    // The path sealed at birth keeps its birth baseline.
    assert_eq!(c.artifacts.len(), 3);
    assert_eq!(c.artifacts[0].before.content.as_deref(), Some("old"));
    assert_eq!(c.artifacts[1].role, Role::Input);
    assert_eq!(c.artifacts[1].before, Baseline::of_text("prev"));
    assert_eq!(c.artifacts[2].role, Role::Output);
    assert_eq!(c.artifacts[2].before, Baseline::absent());
    let e = c.effects.last().unwrap();
    assert_eq!(e.kind, EffectKind::ArtifactPublished);
    assert_eq!(e.paths.len(), 3);
    assert_eq!(e.at, "2026-01-02");
}

#[test]
fn integration_names_the_working_branch_ref() {
    let mut c = Custody::born("001-x", "/w", "2026-01-01", &[]);
    c.unit_integrated("app", Some("a1"), Some("b2"), "dev", "2026-01-02");
    let text = c.render();
    assert!(text.contains("\"kind\": \"unit_integrated\""));
    assert!(text.contains("\"ref\": \"refs/heads/dev\""));
    assert_eq!(c.digest, seal(&c));
}

#[test]
fn only_a_real_date_in_a_custody_object_counts() {
    assert_eq!(
        created(r#"{"version":1,"created":"2026-10-01","digest":"x"}"#),
        Some("2026-10-01".to_owned())
    );
    for text in [
        r#"{"created":"2026-02-31"}"#,
        r#"{"created":"2026-10-01T10:00:00Z"}"#,
        r#"{"created":20261001}"#,
        r#"["2026-10-01"]"#,
        "{not json",
        "",
    ] {
        assert_eq!(created(text), None, "{text}");
    }
}
