use super::*;

fn bound() -> Binding {
    Binding {
        root: "/home/me/project".to_owned(),
        device: 2049,
        inode: 131_072,
    }
}

fn file(path: &str, previous: Option<&[u8]>) -> JournalFile {
    JournalFile {
        path: path.to_owned(),
        content: "new".to_owned(),
        previous: previous.map(Previous::of),
    }
}

#[test]
fn a_journal_round_trips_with_its_binding_on_the_first_line() {
    let j = Journal::forward(
        bound(),
        vec![
            file("docs/specs/001-spec-a.md", None),
            file("docs/designs/001-design-a/DESIGN.md", Some(b"old")),
            file(
                "docs/designs/001-design-a/design-manifest.json",
                Some(&[0xff, 0x00, 0x41]),
            ),
        ],
        vec!["docs/specs".to_owned()],
    );
    let text = j.render();
    let first = text.lines().next().unwrap();
    assert_eq!(Journal::header(first).unwrap(), bound());
    let back = Journal::parse(&text).unwrap();
    assert_eq!(back, j);
    assert_eq!(
        back.files[2].previous,
        Some(Previous::Hex("ff0041".to_owned()))
    );
    assert_eq!(back.files[2].previous.as_ref().unwrap().byte_len(), Some(3));
    assert_eq!(
        back.files[2].previous.as_ref().unwrap().bytes().unwrap(),
        [0xff, 0x00, 0x41]
    );
    assert_eq!(back.backward().direction, Direction::Back);
}

#[test]
fn a_journal_of_another_version_or_shape_is_not_read() {
    // The single-object form of the first version of the format.
    let v1 = "{\n  \"version\": 1,\n  \"direction\": \"forward\",\n  \"files\": [],\n  \"folders\": []\n}\n";
    assert!(Journal::parse(v1).is_err());
    let mut text = Journal::forward(
        bound(),
        vec![file("docs/specs/001-spec-a.md", None)],
        vec![],
    )
    .render();
    text = text.replacen("\"version\":2", "\"version\":3", 1);
    assert!(Journal::parse(&text).unwrap_err().contains("version 3"));
    assert!(Journal::header("{\"version\":2}").is_err());
}

#[test]
fn a_journal_may_name_only_what_a_publish_of_several_files_writes() {
    for path in [
        "docs/specs/001-spec-a.md",
        "docs/plans/0012-plan-long-slug-2.md",
        "docs/research/001-research-x.md",
        "docs/designs/001-design-a/DESIGN.md",
        "docs/designs/001-design-a/design-manifest.json",
        "docs/designs/001-design-a/revisions/DESIGN-r001.md",
        "docs/designs/001-design-a/reviews/r001.json",
        "docs/designs/001-design-a/renders/portable-html/DESIGN-r001.html",
        // A hidden design root a person chose, and a grouping folder.
        "docs/designs/.drafts/001-design-a/DESIGN.md",
        "docs/designs/team/a/001-design-a/revisions/DESIGN-r002.md",
        // Where a link inside the workspace led the publish.
        "shared/docs/specs/001-spec-a.md",
    ] {
        assert_eq!(recoverable_path(path), None, "{path}");
    }
    for path in [
        // Hidden configuration, hooks, the state folder, the repository.
        ".claude/settings.local.json",
        "docs/notes/settings.local.json",
        ".workflow/skills.toml",
        ".git/hooks/pre-commit",
        "docs/designs/.git/001-design-a/DESIGN.md",
        ".claude/docs/specs/001-spec-a.md",
        // Any other file of the repository.
        "README.md",
        "src/main.rs",
        "docs/a.md",
        "docs/specs/notes.md",
        "docs/specs/sub/001-spec-a.md",
        // The reference's grammar is case-sensitive.
        "docs/specs/007-SPEC-otp.md",
        "docs/specs/007-spec-OTP.md",
        "docs/designs/001-design-a/notes.md",
        "docs/designs/001-design-a/revisions/.hidden",
        "docs/designs/DESIGN.md",
        // Not a safe relative path.
        "../out.md",
        "/etc/passwd",
        "docs//specs/001-spec-a.md",
    ] {
        assert!(recoverable_path(path).is_some(), "{path}");
        let j = Journal::forward(bound(), vec![file(path, None)], Vec::new());
        assert!(Journal::parse(&j.render()).is_err(), "{path}");
    }
}

#[test]
fn a_journal_may_remove_only_empty_docs_folders_that_held_its_files() {
    let files = vec![file("docs/specs/001-spec-a.md", None)];
    assert_eq!(recoverable_folder("docs", &files), None);
    assert_eq!(recoverable_folder("docs/specs", &files), None);
    for folder in [
        "src",
        ".git",
        "docs/plans",
        "docs/specs/001-spec-a.md",
        "../x",
    ] {
        assert!(recoverable_folder(folder, &files).is_some(), "{folder}");
    }
    let j = Journal::forward(bound(), files, vec!["src".to_owned()]);
    assert!(Journal::parse(&j.render()).is_err());
}

#[test]
fn a_journal_is_bounded_and_names_each_file_once() {
    let many: Vec<JournalFile> = (1..=MAX_JOURNAL_FILES + 1)
        .map(|n| file(&format!("docs/specs/{n:03}-spec-a{n}.md"), None))
        .collect();
    let j = Journal::forward(bound(), many, Vec::new());
    assert!(j.check().unwrap_err().contains("more than"));
    let twice = Journal::forward(
        bound(),
        vec![
            file("docs/specs/001-spec-a.md", None),
            file("docs/specs/001-spec-a.md", None),
        ],
        Vec::new(),
    );
    assert!(twice.check().unwrap_err().contains("twice"));
    let mut hex = Journal::forward(
        bound(),
        vec![file("docs/specs/001-spec-a.md", Some(b"x"))],
        Vec::new(),
    );
    hex.files[0].previous = Some(Previous::Hex("zz".to_owned()));
    assert!(Journal::parse(&hex.render()).is_err());
}

#[test]
fn recovery_finishes_what_is_untouched_and_undoes_what_someone_else_changed() {
    use FileState::*;
    let j = Journal::forward(
        bound(),
        vec![
            file("docs/specs/001-spec-a.md", None),
            file("docs/plans/001-plan-a.md", None),
        ],
        Vec::new(),
    );
    assert_eq!(j.recovery(&[Published, Published]), Recovery::Done);
    assert_eq!(j.recovery(&[Published, Before]), Recovery::Forward(vec![1]));
    assert_eq!(j.recovery(&[Before, Before]), Recovery::Forward(vec![0, 1]));
    assert_eq!(j.recovery(&[Published, Other]), Recovery::Back);
    // Once marked back, it is undone whatever the files hold.
    assert_eq!(
        j.backward().recovery(&[Published, Published]),
        Recovery::Back
    );
}
