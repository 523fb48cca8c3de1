//! All or nothing across a kill: how a plan's files are grouped into parts that each appear
//! with one rename, and how the journal of a publish of several parts is finished or undone by
//! the next command (a kill is simulated by stopping the writes where a kill would).

use super::write::{self, Part};
use super::*;
use aw_core::journal::{Direction, Journal};
use std::collections::BTreeMap;

const WAIT: Duration = Duration::from_millis(20);

fn art(path: &str, content: &str, overwrite: bool) -> Artifact {
    Artifact {
        path: path.to_owned(),
        content: content.to_owned(),
        overwrite: overwrite.then_some(true),
    }
}

/// A workspace (its state folder and lock made) and its journal's path.
fn workspace() -> (tempfile::TempDir, Workspace, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let w = Workspace::for_test(dir.path());
    drop(WorkspaceLock::of(&w, WAIT).unwrap());
    let journal = workspace_journal(&w);
    (dir, w, journal)
}

/// Every file under `root` but the lock, by relative path (temporary entries of ours included,
/// so a test sees one left behind).
fn files(root: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if path.is_dir() {
                out.insert(format!("{rel}/"), Vec::new());
                walk(root, &path, out);
            } else if !rel.ends_with(".lock") {
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

/// A persist of a spec and a plan into existing folders: two parts, so a journal.
fn spec_and_plan(root: &Path) -> Vec<Artifact> {
    std::fs::create_dir_all(root.join("docs/specs")).unwrap();
    std::fs::create_dir_all(root.join("docs/plans")).unwrap();
    vec![
        art("docs/specs/004-spec-otp.md", "# OTP\n", false),
        art("docs/plans/008-plan-otp.md", "# Plan OTP\n", false),
    ]
}

#[test]
fn a_new_package_is_one_part_and_files_in_several_folders_are_several() {
    let (dir, _, _) = workspace();
    let root = dir.path();
    let package = [
        art("docs/designs/001-design-a/DESIGN.md", "d", false),
        art("docs/designs/001-design-a/design-manifest.json", "m", false),
    ];
    // docs/ itself is missing: the whole tree from docs/ down appears with one rename.
    let plan = write::plan(root, &package).unwrap();
    assert!(
        matches!(&plan.parts[..], [Part::Folder { rel, files }] if rel == "docs" && files.len() == 2)
    );
    assert_eq!(
        plan.folders,
        ["docs", "docs/designs", "docs/designs/001-design-a"]
    );
    std::fs::create_dir_all(root.join("docs/designs")).unwrap();
    let plan = write::plan(root, &package).unwrap();
    assert!(
        matches!(&plan.parts[..], [Part::Folder { rel, .. }] if rel == "docs/designs/001-design-a")
    );
    let persist = spec_and_plan(root);
    assert_eq!(write::plan(root, &persist).unwrap().parts.len(), 2);
}

#[test]
fn a_package_is_assembled_aside_and_appears_whole() {
    let (dir, w, journal) = workspace();
    let root = dir.path();
    std::fs::create_dir_all(root.join("docs/designs")).unwrap();
    let package = [
        art("docs/designs/001-design-a/DESIGN.md", "d", false),
        art("docs/designs/001-design-a/design-manifest.json", "m", false),
    ];
    let out = publish(&w, &package, None, &[".".to_owned()], WAIT).unwrap();
    assert_eq!(out.created_dirs, ["docs/designs/001-design-a"]);
    let names: Vec<String> = std::fs::read_dir(root.join("docs/designs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        ["001-design-a"],
        "no temporary folder is left beside it"
    );
    assert!(!journal.exists(), "one part needs no journal");
}

#[test]
fn a_publish_killed_between_two_parts_is_finished_by_the_next_recovery() {
    let (dir, w, journal_path) = workspace();
    let root = dir.path();
    let artifacts = spec_and_plan(root);
    // The kill: the journal written, the first part in place, the second never started.
    let plan = write::plan(root, &artifacts).unwrap();
    journal::begin(root, &journal_path, &plan).unwrap();
    write::write_part(root, &plan, &plan.parts[0]).unwrap();
    assert!(root.join("docs/specs/004-spec-otp.md").exists());
    assert!(!root.join("docs/plans/008-plan-otp.md").exists());

    // A command that reads the documents settles it first, and says what it wrote.
    let settled = settle(&w).unwrap();
    assert_eq!(settled.written, ["docs/plans/008-plan-otp.md"]);
    assert!(
        settled
            .describe()
            .unwrap()
            .contains("finished: wrote docs/plans/008-plan-otp.md")
    );
    assert_eq!(
        std::fs::read(root.join("docs/plans/008-plan-otp.md")).unwrap(),
        b"# Plan OTP\n"
    );
    assert_eq!(
        std::fs::read(root.join("docs/specs/004-spec-otp.md")).unwrap(),
        b"# OTP\n"
    );
    assert!(!journal_path.exists());
    // Applied again, the same plan is complete and writes nothing.
    let again = publish(&w, &artifacts, None, &[".".to_owned()], WAIT).unwrap();
    assert!(again.already_published);
}

#[test]
fn the_next_publish_settles_an_interrupted_one_before_its_own_checks() {
    let (dir, w, journal_path) = workspace();
    let root = dir.path();
    let artifacts = spec_and_plan(root);
    let plan = write::plan(root, &artifacts).unwrap();
    journal::begin(root, &journal_path, &plan).unwrap();
    write::write_part(root, &plan, &plan.parts[0]).unwrap();
    // Another publish, of another file: the interrupted one is finished first, then this one.
    let out = publish(
        &w,
        &[art("docs/research/001-research-x.md", "x", false)],
        None,
        &[".".to_owned()],
        WAIT,
    )
    .unwrap();
    assert!(!out.already_published);
    assert!(!journal_path.exists());
    for a in &artifacts {
        assert_eq!(
            std::fs::read_to_string(root.join(&a.path)).unwrap(),
            a.content
        );
    }
}

#[test]
fn a_foreign_change_makes_the_recovery_undo_and_leave_the_rest_as_it_was() {
    let (dir, _, journal_path) = workspace();
    let root = dir.path();
    std::fs::create_dir_all(root.join("docs/designs/001-design-a")).unwrap();
    std::fs::write(root.join("docs/designs/001-design-a/DESIGN.md"), "r1").unwrap();
    std::fs::write(
        root.join("docs/designs/001-design-a/design-manifest.json"),
        "m1",
    )
    .unwrap();
    let update = [
        art(
            "docs/designs/001-design-a/revisions/DESIGN-r001.md",
            "r1",
            false,
        ),
        art("docs/designs/001-design-a/DESIGN.md", "r2", true),
        art("docs/designs/001-design-a/design-manifest.json", "m2", true),
    ];
    let plan = write::plan(root, &update).unwrap();
    journal::begin(root, &journal_path, &plan).unwrap();
    write::write_part(root, &plan, &plan.parts[0]).unwrap();
    write::write_part(root, &plan, &plan.parts[1]).unwrap();
    std::fs::write(
        root.join("docs/designs/001-design-a/design-manifest.json"),
        "edited",
    )
    .unwrap();
    recover(root, &journal_path).unwrap();
    assert!(!journal_path.exists());
    let pkg = root.join("docs/designs/001-design-a");
    assert_eq!(
        std::fs::read(pkg.join("DESIGN.md")).unwrap(),
        b"r1",
        "put back"
    );
    assert_eq!(
        std::fs::read(pkg.join("design-manifest.json")).unwrap(),
        b"edited",
        "theirs"
    );
    assert!(
        !pkg.join("revisions").exists(),
        "the archive and its folder are gone"
    );
}

#[test]
fn an_undo_killed_half_way_is_finished_as_an_undo() {
    let (dir, _, journal_path) = workspace();
    let root = dir.path();
    let artifacts = spec_and_plan(root);
    let before = files(root);
    let plan = write::plan(root, &artifacts).unwrap();
    let journal = journal::begin(root, &journal_path, &plan).unwrap();
    for part in &plan.parts {
        write::write_part(root, &plan, part).unwrap();
    }
    // The publish failed after its writes (say, its answer could not be given) and was killed
    // while undoing: the journal says back, one file is undone, the other is not.
    journal::mark_back(root, &journal_path, &journal);
    std::fs::remove_file(root.join("docs/plans/008-plan-otp.md")).unwrap();
    let on_disk: Journal =
        Journal::parse(&std::fs::read_to_string(&journal_path).unwrap()).unwrap();
    assert_eq!(on_disk.direction, Direction::Back);
    // Every file is as the plan wants it, or as it was: going forward would be possible, but
    // the journal says back, and back it goes.
    recover(root, &journal_path).unwrap();
    let mut after = files(root);
    after.remove(".workflow/");
    let mut want = before;
    want.remove(".workflow/");
    assert_eq!(after, want);
}

#[test]
fn a_failure_after_the_first_part_undoes_it_and_removes_the_journal() {
    let (dir, _, journal_path) = workspace();
    let root = dir.path();
    let artifacts = spec_and_plan(root);
    let before = files(root);
    let plan = write::plan(root, &artifacts).unwrap();
    // Another writer (not aw: aw would wait for the lock) takes the plan's name meanwhile.
    std::fs::write(root.join("docs/plans/008-plan-otp.md"), "someone else's").unwrap();
    let e = write_all(root, &journal_path, &plan).unwrap_err();
    assert_eq!(e.error.code, ErrorCode::PublishTargetExists);
    assert_eq!(e.rollback, Rollback::Complete);
    assert!(!journal_path.exists());
    let mut want = before;
    want.insert(
        "docs/plans/008-plan-otp.md".into(),
        b"someone else's".to_vec(),
    );
    assert_eq!(files(root), want);
}

use aw_core::journal::{JournalFile, MAX_JOURNAL_FILES};

/// Writes a journal of `files` (and `folders`) going `direction` at `path`, bound to `root` as
/// a publish there would bind it: what a forger on this machine could write.
fn forge(
    root: &Path,
    path: &Path,
    direction: Direction,
    files: Vec<JournalFile>,
    folders: Vec<String>,
) {
    let binding = journal::binding_of(root, path).unwrap();
    let mut j = Journal::forward(binding, files, folders);
    j.direction = direction;
    std::fs::write(path, j.render()).unwrap();
}

fn jf(path: &str, content: &str, previous: Option<&str>) -> JournalFile {
    JournalFile {
        path: path.to_owned(),
        content: content.to_owned(),
        previous: previous.map(|p| aw_core::journal::Previous::of(p.as_bytes())),
    }
}

/// Copies the tree at `from` to `to` (files and folders; no links in these tests).
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), dest).unwrap();
        }
    }
}

#[test]
fn a_journal_carried_into_another_copy_of_the_workspace_is_never_replayed() {
    let (dir, _, journal_path) = workspace();
    let root = dir.path();
    let artifacts = spec_and_plan(root);
    let plan = write::plan(root, &artifacts).unwrap();
    journal::begin(root, &journal_path, &plan).unwrap();
    write::write_part(root, &plan, &plan.parts[0]).unwrap();
    // A clone, or a copy, carries the journal along: another root, another state folder.
    let other = tempfile::tempdir().unwrap();
    copy_tree(root, other.path());
    let copied = other.path().join(".workflow").join(JOURNAL_FILE);
    let before = files(other.path());
    let e = recover(other.path(), &copied).unwrap_err();
    assert_eq!(e.error.code, ErrorCode::PublishFailed);
    assert!(
        e.error
            .message
            .contains("not written by a publish in this workspace"),
        "{}",
        e.error.message
    );
    assert!(e.error.action.contains("rm -- "), "{}", e.error.action);
    assert_eq!(
        files(other.path()),
        before,
        "nothing replayed, the journal kept"
    );
    // The same root path with the state folder made again is another copy too.
    let state = root.join(".workflow");
    let moved = root.join("state-aside");
    std::fs::rename(&state, &moved).unwrap();
    copy_tree(&moved, &state);
    let e = recover(root, &journal_path).unwrap_err();
    assert!(
        e.error.message.contains("another copy of this workspace"),
        "{}",
        e.error.message
    );
    assert!(!root.join("docs/plans/008-plan-otp.md").exists());
    // In the workspace that wrote it, it is finished.
    std::fs::remove_dir_all(&state).unwrap();
    std::fs::rename(&moved, &state).unwrap();
    recover(root, &journal_path).unwrap();
    assert!(root.join("docs/plans/008-plan-otp.md").exists());
}

#[test]
fn a_workspace_moved_after_the_kill_still_finishes_its_own_publish() {
    let parent = tempfile::tempdir().unwrap();
    let root = parent.path().join("ws");
    std::fs::create_dir(&root).unwrap();
    let w = Workspace::for_test(&root);
    drop(WorkspaceLock::of(&w, WAIT).unwrap());
    let journal_path = workspace_journal(&w);
    let artifacts = spec_and_plan(&root);
    let plan = write::plan(&root, &artifacts).unwrap();
    journal::begin(&root, &journal_path, &plan).unwrap();
    write::write_part(&root, &plan, &plan.parts[0]).unwrap();
    // Renamed (or reached through another mount): the same folders, another path.
    let moved = parent.path().join("ws-renamed");
    std::fs::rename(&root, &moved).unwrap();
    let journal_there = moved.join(".workflow").join(JOURNAL_FILE);
    recover(&moved, &journal_there).unwrap();
    assert!(moved.join("docs/plans/008-plan-otp.md").exists());
    assert!(!journal_there.exists());
}

#[test]
fn a_journal_naming_files_no_publish_writes_is_never_replayed() {
    let (dir, _, journal_path) = workspace();
    let root = dir.path();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("README.md"), "# Project\n").unwrap();
    std::fs::write(root.join("src/main.rs"), "fn main() {}\n").unwrap();
    std::fs::create_dir_all(root.join("docs/specs")).unwrap();
    let before = files(root);
    // Undone, it would delete the README; finished, it would rewrite the source.
    for (direction, file) in [
        (Direction::Back, jf("README.md", "# Project\n", None)),
        (
            Direction::Forward,
            jf(
                "src/main.rs",
                "fn main() { evil() }\n",
                Some("fn main() {}\n"),
            ),
        ),
        (Direction::Back, jf("docs/specs/notes.md", "x", None)),
    ] {
        forge(root, &journal_path, direction, vec![file], Vec::new());
        let e = recover(root, &journal_path).unwrap_err();
        assert_eq!(e.error.code, ErrorCode::PublishFailed);
        assert!(
            e.error
                .message
                .contains("is not what a publish of several files writes"),
            "{}",
            e.error.message
        );
        let mut now = files(root);
        now.remove(&format!(".workflow/{JOURNAL_FILE}"));
        assert_eq!(now, before);
    }
    // A folder it did not create with one of its files is not removed either.
    forge(
        root,
        &journal_path,
        Direction::Back,
        vec![jf("docs/specs/001-spec-a.md", "a", None)],
        vec!["src".to_owned()],
    );
    assert!(recover(root, &journal_path).is_err());
    assert!(root.join("src/main.rs").exists());
}

#[cfg(unix)]
#[test]
fn a_journal_never_follows_a_symbolic_link_even_one_inside_the_workspace() {
    let (dir, w, journal_path) = workspace();
    let root = dir.path();
    std::fs::create_dir_all(root.join(".claude")).unwrap();
    std::fs::create_dir_all(root.join("docs")).unwrap();
    std::os::unix::fs::symlink("../.claude", root.join("docs/notes")).unwrap();
    std::os::unix::fs::symlink("../.claude", root.join("docs/specs")).unwrap();
    let hook =
        r#"{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"touch pwned"}]}]}}"#;
    for path in [
        "docs/notes/settings.local.json",
        "docs/specs/001-spec-settings.md",
    ] {
        forge(
            root,
            &journal_path,
            Direction::Forward,
            vec![
                jf(path, hook, None),
                jf("docs/plans/001-plan-a.md", "a", None),
            ],
            Vec::new(),
        );
        let e = recover(root, &journal_path).unwrap_err();
        assert_eq!(e.error.code, ErrorCode::PublishFailed, "{path}");
        // A reader reports it, and writes nothing.
        assert!(matches!(settle(&w), Err(Unsettled::Kept(_))));
        assert_eq!(
            std::fs::read_dir(root.join(".claude")).unwrap().count(),
            0,
            "{path}"
        );
        assert!(!root.join("docs/plans").exists());
    }
}

#[cfg(unix)]
#[test]
fn a_publish_through_a_link_inside_the_workspace_journals_the_real_paths() {
    let (dir, w, journal_path) = workspace();
    let root = dir.path();
    std::fs::create_dir_all(root.join("shared/docs/specs")).unwrap();
    std::fs::create_dir_all(root.join("shared/docs/plans")).unwrap();
    std::os::unix::fs::symlink("shared/docs", root.join("docs")).unwrap();
    let artifacts = [
        art("docs/specs/004-spec-otp.md", "# OTP\n", false),
        art("docs/plans/008-plan-otp.md", "# Plan OTP\n", false),
    ];
    let plan = write::plan(root, &artifacts).unwrap();
    let journal = journal::begin(root, &journal_path, &plan).unwrap();
    assert_eq!(journal.files[0].path, "shared/docs/specs/004-spec-otp.md");
    write::write_part(root, &plan, &plan.parts[0]).unwrap();
    let settled = settle(&w).unwrap();
    assert_eq!(settled.written, ["shared/docs/plans/008-plan-otp.md"]);
    assert!(root.join("docs/plans/008-plan-otp.md").exists());
}

#[test]
fn an_update_in_a_hidden_design_root_is_journalled_and_recovered() {
    let (dir, w, journal_path) = workspace();
    let root = dir.path();
    let pkg = root.join("docs/designs/.drafts/001-design-a");
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::write(pkg.join("DESIGN.md"), "r1").unwrap();
    std::fs::write(pkg.join("design-manifest.json"), "m1").unwrap();
    let update = [
        art(
            "docs/designs/.drafts/001-design-a/revisions/DESIGN-r001.md",
            "r1",
            false,
        ),
        art("docs/designs/.drafts/001-design-a/DESIGN.md", "r2", true),
        art(
            "docs/designs/.drafts/001-design-a/design-manifest.json",
            "m2",
            true,
        ),
    ];
    let plan = write::plan(root, &update).unwrap();
    journal::begin(root, &journal_path, &plan).unwrap();
    write::write_part(root, &plan, &plan.parts[0]).unwrap();
    settle(&w).unwrap();
    assert_eq!(std::fs::read(pkg.join("DESIGN.md")).unwrap(), b"r2");
    assert_eq!(
        std::fs::read(pkg.join("design-manifest.json")).unwrap(),
        b"m2"
    );
    assert!(!journal_path.exists());
}

#[test]
fn a_journal_too_large_to_replay_is_neither_written_nor_read() {
    let (dir, w, journal_path) = workspace();
    let root = dir.path();
    std::fs::create_dir_all(root.join("docs/specs")).unwrap();
    // A plan that would need a journal of more files than a journal holds: refused whole.
    let many: Vec<Artifact> = (1..=MAX_JOURNAL_FILES + 1)
        .map(|n| art(&format!("docs/specs/{n:03}-spec-s{n}.md"), "s", false))
        .collect();
    let e = publish(&w, &many, None, &[".".to_owned()], WAIT).unwrap_err();
    assert_eq!(e.error.code, ErrorCode::PublishFailed);
    assert_eq!(e.rollback, Rollback::NothingWritten);
    assert!(
        std::fs::read_dir(root.join("docs/specs")).unwrap().count() == 0 && !journal_path.exists()
    );
    // A journal over the size bound is refused from its size alone.
    let f = std::fs::File::create(&journal_path).unwrap();
    f.set_len(aw_core::journal::MAX_JOURNAL_BYTES + 1).unwrap();
    let e = recover(root, &journal_path).unwrap_err();
    assert!(e.error.message.contains("more than"), "{}", e.error.message);
}

#[test]
fn recovery_reads_no_more_of_a_file_than_the_journal_holds() {
    let (dir, _, journal_path) = workspace();
    let root = dir.path();
    std::fs::create_dir_all(root.join("docs/specs")).unwrap();
    // Forty big files, each named by a journal that holds one byte for it.
    let names: Vec<String> = (1..=40)
        .map(|n| format!("docs/specs/{n:03}-spec-big{n}.md"))
        .collect();
    for name in &names {
        let f = std::fs::File::create(root.join(name)).unwrap();
        f.set_len(4 * 1024 * 1024).unwrap();
    }
    forge(
        root,
        &journal_path,
        Direction::Back,
        names.iter().map(|n| jf(n, "a", None)).collect(),
        Vec::new(),
    );
    write::BYTES_COMPARED.with(|c| c.set(0));
    recover(root, &journal_path).unwrap();
    assert_eq!(write::BYTES_COMPARED.with(std::cell::Cell::get), 0);
    assert!(!journal_path.exists(), "settled: nothing of it was there");
    for name in &names {
        assert_eq!(
            std::fs::metadata(root.join(name)).unwrap().len(),
            4 * 1024 * 1024
        );
    }
}
