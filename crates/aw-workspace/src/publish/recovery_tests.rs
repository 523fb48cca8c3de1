//! All or nothing across a kill: how a plan's files are grouped into parts that each appear
//! with one rename, and how the journal of a publish of several parts is finished or undone by
//! the next command (a kill is simulated by stopping the writes where a kill would).

use super::write::{self, Part};
use super::*;
use aw_core::capability::journal::{Direction, Journal};
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

    // Any command that locates the workspace settles it first.
    settle(&w);
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

#[test]
fn a_journal_that_would_write_outside_the_documents_is_refused_and_kept() {
    let (dir, w, journal_path) = workspace();
    let root = dir.path();
    let bad = Journal::forward(
        vec![aw_core::capability::journal::JournalFile {
            path: ".git/hooks/pre-commit".into(),
            content: "#!/bin/sh\n".into(),
            previous: None,
        }],
        Vec::new(),
    );
    std::fs::write(&journal_path, bad.render()).unwrap();
    let e = recover(root, &journal_path).unwrap_err();
    assert_eq!(e.error.code, ErrorCode::PublishFailed);
    assert!(
        e.error.message.contains("hidden segment"),
        "{}",
        e.error.message
    );
    assert!(journal_path.exists());
    assert!(!root.join(".git").exists());
    // A reader goes on as if nothing were there; a publish refuses to write over it.
    settle(&w);
    assert!(!root.join(".git").exists());
    let e = publish(
        &w,
        &[art("docs/a.md", "a", false)],
        None,
        &[".".to_owned()],
        WAIT,
    )
    .unwrap_err();
    assert_eq!(e.error.code, ErrorCode::PublishFailed);
    assert!(!root.join("docs/a.md").exists());
}

#[test]
fn a_publish_of_several_parts_under_a_hidden_folder_is_refused_before_any_write() {
    let (dir, w, journal_path) = workspace();
    let root = dir.path();
    std::fs::create_dir_all(root.join("docs/.team")).unwrap();
    std::fs::create_dir_all(root.join("docs/specs")).unwrap();
    let artifacts = [
        art("docs/.team/a.md", "a", false),
        art("docs/specs/b.md", "b", false),
    ];
    let e = publish(&w, &artifacts, None, &[".".to_owned()], WAIT).unwrap_err();
    assert_eq!(e.error.code, ErrorCode::PublishFailed);
    assert_eq!(e.rollback, Rollback::NothingWritten);
    assert!(
        e.error.message.contains("hidden segment"),
        "{}",
        e.error.message
    );
    assert!(!root.join("docs/specs/b.md").exists() && !journal_path.exists());
    // One part needs no journal: a single file there is published as before.
    publish(&w, &artifacts[..1], None, &[".".to_owned()], WAIT).unwrap();
}
