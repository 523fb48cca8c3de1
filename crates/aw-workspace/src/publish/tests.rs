use super::*;
use crate::io::atomic;
use aw_core::capability::plan::base_digest;
use std::collections::BTreeMap;

const WAIT: Duration = Duration::from_millis(20);

/// The whole workspace as the one destination.
fn anywhere() -> Vec<String> {
    vec![".".to_owned()]
}

fn ws(dir: &tempfile::TempDir) -> Workspace {
    Workspace::for_test(dir.path())
}

fn art(path: &str, content: &str, overwrite: bool) -> Artifact {
    Artifact {
        path: path.to_owned(),
        content: content.to_owned(),
        overwrite: overwrite.then_some(true),
    }
}

/// What is at one path of a tree.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Entry {
    Dir,
    /// Bytes and permission bits.
    File(Vec<u8>, u32),
    Link(PathBuf),
    Other,
}

/// Every entry under `root`, by path relative to it; links are recorded, not followed.
fn tree(root: &Path) -> BTreeMap<String, Entry> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Entry>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            let entry = if meta.file_type().is_symlink() {
                Entry::Link(std::fs::read_link(&path).unwrap())
            } else if meta.is_dir() {
                walk(root, &path, out);
                Entry::Dir
            } else if meta.is_file() {
                Entry::File(std::fs::read(&path).unwrap(), mode(&meta))
            } else {
                Entry::Other
            };
            out.insert(rel, entry);
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

#[cfg(unix)]
fn mode(meta: &std::fs::Metadata) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o7777
}

#[cfg(not(unix))]
fn mode(_: &std::fs::Metadata) -> u32 {
    0
}

/// A workspace whose lock file already exists (taken and released once), so that a tree taken
/// before a publish and one taken after compare equal when the publish changed nothing.
fn workspace_with_lock() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    let w = ws(&dir);
    drop(WorkspaceLock::of(&w, WAIT).unwrap());
    (dir, w)
}

#[cfg(unix)]
fn make_fifo(path: &Path) {
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        path,
        rustix::fs::Mode::from_raw_mode(0o600),
    )
    .unwrap();
}

/// Runs `f` on another thread and fails the test if it has not answered within 20 s (a read
/// blocked on a FIFO never answers by itself).
fn answers<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(20))
        .expect("the publish is still waiting (on a FIFO?)")
}

fn code(r: std::result::Result<Published, PublishError>) -> (ErrorCode, PublishError) {
    let e = r.unwrap_err();
    (e.error.code, e)
}

#[test]
fn every_file_is_written_and_the_missing_folders_are_created_and_reported() {
    let (dir, w) = workspace_with_lock();
    let root = dir.path();
    std::fs::create_dir_all(root.join("docs/specs")).unwrap();
    std::fs::write(root.join("docs/specs/001-spec-old.md"), "old").unwrap();
    let artifacts = [
        art("docs/designs/001-design-a/DESIGN.md", "first", false),
        art(
            "docs/designs/001-design-a/revisions/DESIGN-r001.md",
            "second",
            false,
        ),
        art("docs/specs/001-spec-old.md", "replaced", true),
        art("docs/plans/001-plan-old.md", "é\n", false),
    ];
    let out = publish(&w, &artifacts, None, &anywhere(), WAIT).unwrap();
    assert_eq!(
        out.written,
        [
            "docs/designs/001-design-a/DESIGN.md",
            "docs/designs/001-design-a/revisions/DESIGN-r001.md",
            "docs/specs/001-spec-old.md",
            "docs/plans/001-plan-old.md"
        ]
    );
    assert_eq!(
        out.created_dirs,
        [
            "docs/designs",
            "docs/designs/001-design-a",
            "docs/designs/001-design-a/revisions",
            "docs/plans"
        ]
    );
    for a in &artifacts {
        assert_eq!(
            std::fs::read_to_string(root.join(&a.path)).unwrap(),
            a.content
        );
    }
    let leftovers: Vec<String> = tree(root)
        .into_keys()
        .filter(|p| p.contains(atomic::TEMP_PREFIX))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
    // The lock was released.
    WorkspaceLock::of(&w, Duration::ZERO).unwrap();
}

#[test]
fn an_existing_target_without_overwrite_is_found_before_the_first_write() {
    let (dir, w) = workspace_with_lock();
    let root = dir.path();
    std::fs::write(root.join("existing.md"), "theirs").unwrap();
    let before = tree(root);
    let artifacts = [
        art("new/deep/a.md", "a", false),
        art("other/b.md", "b", false),
        art("existing.md", "mine", false),
    ];
    let (c, e) = code(publish(&w, &artifacts, None, &anywhere(), WAIT));
    assert_eq!(c, ErrorCode::PublishTargetExists);
    assert!(
        e.error.message.contains("'existing.md' already exists"),
        "{}",
        e.error.message
    );
    assert_eq!(e.rollback, Rollback::NothingWritten);
    assert_eq!(e.reconciliation(), None);
    assert_eq!(e.next_action(), e.error.action);
    assert_eq!(tree(root), before, "the new files and folders are gone");
}

#[test]
fn a_folder_in_the_way_of_a_later_file_is_found_before_the_first_write() {
    let (dir, w) = workspace_with_lock();
    let root = dir.path();
    std::fs::write(root.join("keep.md"), "precious").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(root.join("keep.md"), std::fs::Permissions::from_mode(0o640))
            .unwrap();
    }
    std::fs::write(root.join("blocker"), "a file, not a folder").unwrap();
    let before = tree(root);
    let artifacts = [
        art("keep.md", "clobbered", true),
        art("a/b.md", "b", false),
        art("blocker/c.md", "c", false),
    ];
    let (c, e) = code(publish(&w, &artifacts, None, &anywhere(), WAIT));
    assert_eq!(c, ErrorCode::PublishFailed);
    assert!(
        e.error.message.contains("'blocker' is in the way"),
        "{}",
        e.error.message
    );
    assert_eq!(e.rollback, Rollback::NothingWritten);
    assert_eq!(tree(root), before);
}

/// The issue's done criterion: a publish that fails part-way leaves no file and no folder of its
/// own behind, and every file that was there byte for byte as it was. Each mechanism fails for
/// root too (CI runs as root, where a read-only folder stops nothing).
#[test]
fn a_publish_failing_mid_way_leaves_the_workspace_exactly_as_it_was() {
    let cases: [(&str, Vec<Artifact>, ErrorCode); 4] = [
        (
            "a parent that is a file that was already there",
            vec![
                art("e1.md", "new e1", true),
                art("n/deep/x.md", "x", false),
                art("plain/sub/y.md", "y", false),
                art("e2.md", "new e2", true),
            ],
            ErrorCode::PublishFailed,
        ),
        (
            "a parent that is a file this publish created",
            vec![
                art("e1.md", "new e1", true),
                art("n/x", "x", false),
                art("n/x/y.md", "y", false),
            ],
            ErrorCode::PublishFailed,
        ),
        (
            "a folder where a file is to be replaced",
            vec![
                art("e2.md", "new e2", true),
                art("n/a/b.md", "b", false),
                art("folder", "f", true),
            ],
            ErrorCode::PublishFailed,
        ),
        (
            "the same new path twice, the second time without overwrite",
            vec![
                art("e1.md", "new e1", true),
                art("n/dup.md", "one", false),
                art("n/dup.md", "two", true),
                art("n/dup.md", "three", false),
            ],
            ErrorCode::PublishTargetExists,
        ),
    ];
    for (name, artifacts, want) in cases {
        let (dir, w) = workspace_with_lock();
        let root = dir.path();
        std::fs::write(root.join("e1.md"), "e1 as it was").unwrap();
        std::fs::write(root.join("e2.md"), "e2 as it was").unwrap();
        std::fs::write(root.join("plain"), "a regular file").unwrap();
        std::fs::create_dir_all(root.join("folder/inside")).unwrap();
        let before = tree(root);
        let (c, e) = code(publish(&w, &artifacts, None, &anywhere(), WAIT));
        assert_eq!(c, want, "{name}: {}", e.error.message);
        assert_eq!(e.rollback, Rollback::NothingWritten, "{name}");
        assert_eq!(tree(root), before, "{name}");
        // The lock was released on the failing path too.
        WorkspaceLock::of(&w, Duration::ZERO).unwrap();
    }
}

#[cfg(unix)]
#[test]
fn a_linked_folder_leading_out_of_the_workspace_is_refused_before_any_write() {
    let (dir, w) = workspace_with_lock();
    let outside = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::os::unix::fs::symlink(outside.path(), root.join("docs")).unwrap();
    let before = tree(root);
    let artifacts = [
        art("fine.md", "inside", false),
        art("docs/designs/a.md", "escaped", false),
    ];
    let (c, e) = code(publish(&w, &artifacts, None, &anywhere(), WAIT));
    assert_eq!(c, ErrorCode::PathOutsideWorkspace);
    assert_eq!(e.rollback, Rollback::NothingWritten);
    assert_eq!(
        tree(root),
        before,
        "not even the first artifact was written"
    );
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
}

#[cfg(unix)]
#[test]
fn a_link_inside_the_destination_may_not_lead_elsewhere_in_the_workspace() {
    let (dir, w) = workspace_with_lock();
    let root = dir.path();
    let designs = vec!["docs/designs".to_owned()];
    std::fs::create_dir_all(root.join("docs/designs/real")).unwrap();
    std::fs::create_dir_all(root.join("elsewhere")).unwrap();
    std::os::unix::fs::symlink("../../elsewhere", root.join("docs/designs/out")).unwrap();
    std::os::unix::fs::symlink("real", root.join("docs/designs/alias")).unwrap();
    let before = tree(root);
    let artifacts = [
        art("docs/designs/fine.md", "inside", false),
        art("docs/designs/out/a.md", "moved", false),
    ];
    let (c, e) = code(publish(&w, &artifacts, None, &designs, WAIT));
    assert_eq!(c, ErrorCode::SemanticPathRejected);
    assert_eq!(e.rollback, Rollback::NothingWritten);
    assert_eq!(
        tree(root),
        before,
        "not even the first artifact was written"
    );
    // A link that stays inside the destination is followed; so is a destination that is itself
    // a link inside the workspace.
    publish(
        &w,
        &[art("docs/designs/alias/b.md", "b", false)],
        None,
        &designs,
        WAIT,
    )
    .unwrap();
    assert_eq!(
        std::fs::read(root.join("docs/designs/real/b.md")).unwrap(),
        b"b"
    );
    std::os::unix::fs::symlink("docs/designs/real", root.join("linked")).unwrap();
    let linked = vec!["linked".to_owned()];
    publish(&w, &[art("linked/c.md", "c", false)], None, &linked, WAIT).unwrap();
    assert!(root.join("docs/designs/real/c.md").exists());
    // No destination holding the path: nothing is written.
    let (c, _) = code(publish(
        &w,
        &[art("x.md", "x", false)],
        None,
        &designs,
        WAIT,
    ));
    assert_eq!(c, ErrorCode::SemanticPathRejected);
    assert!(!root.join("x.md").exists());
}

#[cfg(unix)]
#[test]
fn a_link_in_place_of_the_target_is_never_followed() {
    use std::os::unix::fs::symlink;
    let (dir, w) = workspace_with_lock();
    let outside = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(root.join("real.md"), "the real file").unwrap();
    std::fs::write(outside.path().join("theirs.md"), "outside").unwrap();
    symlink(root.join("real.md"), root.join("inside-link.md")).unwrap();
    symlink(outside.path().join("theirs.md"), root.join("out-link.md")).unwrap();
    symlink(root.join("missing.md"), root.join("dangling.md")).unwrap();
    let outside_before = tree(outside.path());
    let cases = [
        ("inside-link.md", ErrorCode::PublishFailed),
        ("out-link.md", ErrorCode::PathOutsideWorkspace),
        ("dangling.md", ErrorCode::PathOutsideWorkspace),
    ];
    for (path, want) in cases {
        for overwrite in [false, true] {
            let before = tree(root);
            let artifacts = [art("new.md", "n", false), art(path, "through", overwrite)];
            let (c, e) = code(publish(&w, &artifacts, None, &anywhere(), WAIT));
            assert_eq!(c, want, "{path} overwrite={overwrite}: {}", e.error.message);
            assert_eq!(tree(root), before, "{path} overwrite={overwrite}");
            assert_eq!(tree(outside.path()), outside_before);
        }
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_at_a_target_is_refused_without_waiting_on_it() {
    for overwrite in [false, true] {
        let (dir, w) = workspace_with_lock();
        let root = dir.path().to_path_buf();
        make_fifo(&root.join("pipe.md"));
        let before = tree(&root);
        let artifacts = vec![art("a/new.md", "n", false), art("pipe.md", "x", overwrite)];
        let r = answers(move || publish(&w, &artifacts, None, &anywhere(), WAIT));
        let (c, e) = code(r);
        assert_eq!(c, ErrorCode::PublishFailed, "{}", e.error.message);
        assert!(e.error.message.contains("'pipe.md'"), "{}", e.error.message);
        assert_eq!(
            e.rollback,
            Rollback::NothingWritten,
            "found before the first write"
        );
        assert_eq!(tree(&root), before);
    }
}

#[test]
fn a_lock_held_by_another_holder_is_capability_effect_locked() {
    let (dir, w) = workspace_with_lock();
    let held = WorkspaceLock::of(&w, WAIT).unwrap();
    let before = tree(dir.path());
    let (c, e) = code(publish(
        &w,
        &[art("a/b.md", "b", false)],
        None,
        &anywhere(),
        WAIT,
    ));
    assert_eq!(c, ErrorCode::CapabilityEffectLocked);
    assert!(e.error.message.contains(&std::process::id().to_string()));
    assert_eq!(e.rollback, Rollback::NothingWritten);
    assert_eq!(tree(dir.path()), before);
    drop(held);
    publish(&w, &[art("a/b.md", "b", false)], None, &anywhere(), WAIT).unwrap();
}

#[test]
fn an_unsafe_path_is_refused_before_anything_is_written_even_the_lock() {
    for bad in [
        "../escape.md",
        "/etc/passwd",
        "a/../../b.md",
        "a\\b.md",
        "a//b.md",
        "",
    ] {
        let dir = tempfile::tempdir().unwrap();
        let w = ws(&dir);
        let artifacts = [art("fine.md", "x", false), art(bad, "x", true)];
        let (c, e) = code(publish(&w, &artifacts, None, &anywhere(), WAIT));
        assert_eq!(c, ErrorCode::SemanticPathRejected, "{bad:?}");
        assert_eq!(e.rollback, Rollback::NothingWritten);
        assert!(tree(dir.path()).is_empty(), "{bad:?} wrote something");
    }
}

#[test]
fn the_base_is_checked_again_under_the_lock() {
    let (dir, w) = workspace_with_lock();
    let root = dir.path();
    std::fs::write(root.join("base.md"), "as prepared").unwrap();
    let base = Base {
        path: "base.md".to_owned(),
        digest: base_digest("as prepared"),
    };
    let artifacts = [art("out.md", "o", false)];
    std::fs::write(root.join("base.md"), "changed since").unwrap();
    let before = tree(root);
    let (c, e) = code(publish(&w, &artifacts, Some(&base), &anywhere(), WAIT));
    assert_eq!(c, ErrorCode::CapabilityBaseStale);
    assert_eq!(e.rollback, Rollback::NothingWritten);
    assert_eq!(tree(root), before);
    std::fs::remove_file(root.join("base.md")).unwrap();
    let (c, _) = code(publish(&w, &artifacts, Some(&base), &anywhere(), WAIT));
    assert_eq!(c, ErrorCode::CapabilityBaseGone);
    std::fs::write(root.join("base.md"), "as prepared").unwrap();
    publish(&w, &artifacts, Some(&base), &anywhere(), WAIT).unwrap();
    assert_eq!(std::fs::read_to_string(root.join("out.md")).unwrap(), "o");
}

#[test]
fn read_base_reads_text_and_says_when_the_file_is_gone() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir(root.join("d")).unwrap();
    std::fs::write(root.join("d/base.md"), b"caf\xe9 ok").unwrap();
    std::fs::write(root.join("file"), "x").unwrap();
    assert_eq!(
        read_base(root, "d/base.md").unwrap().as_deref(),
        Some("caf\u{fffd} ok")
    );
    assert_eq!(read_base(root, "d/missing.md").unwrap(), None);
    assert_eq!(read_base(root, "nowhere/x.md").unwrap(), None);
    assert_eq!(read_base(root, "file/x.md").unwrap(), None);
    assert_eq!(
        read_base(root, "../x").unwrap_err().code(),
        ErrorCode::SemanticPathRejected
    );
    assert_eq!(read_base(root, "d").unwrap_err().code(), ErrorCode::IoError);
}

#[cfg(unix)]
#[test]
fn read_base_refuses_a_fifo_without_waiting_and_a_link_out() {
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    make_fifo(&root.join("pipe.md"));
    std::fs::write(outside.path().join("secret"), "s").unwrap();
    std::os::unix::fs::symlink(outside.path().join("secret"), root.join("out.md")).unwrap();
    let r = root.clone();
    let fifo = answers(move || read_base(&r, "pipe.md").map_err(|e| e.code()));
    assert_eq!(fifo, Err(ErrorCode::IoError));
    assert_eq!(
        read_base(&root, "out.md").unwrap_err().code(),
        ErrorCode::PathOutsideWorkspace
    );
}

#[cfg(unix)]
#[test]
fn new_files_and_folders_follow_the_umask_like_a_plain_create() {
    let (dir, w) = workspace_with_lock();
    let root = dir.path();
    std::fs::write(root.join("plain-file"), "x").unwrap();
    std::fs::create_dir(root.join("plain-dir")).unwrap();
    let want_file = mode(&std::fs::metadata(root.join("plain-file")).unwrap());
    let want_dir = mode(&std::fs::metadata(root.join("plain-dir")).unwrap());
    publish(
        &w,
        &[art("made/new.md", "n", false)],
        None,
        &anywhere(),
        WAIT,
    )
    .unwrap();
    assert_eq!(
        mode(&std::fs::metadata(root.join("made/new.md")).unwrap()),
        want_file
    );
    assert_eq!(
        mode(&std::fs::metadata(root.join("made")).unwrap()),
        want_dir
    );
}

/// What a rollback cannot undo is named, path by path, in the next action.
#[test]
fn a_rollback_that_cannot_undo_everything_names_what_is_left() {
    use aw_core::journal::{JournalFile, Previous};
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // Someone put a file where the publish made a folder: it is theirs, not a folder of ours to
    // remove. A file holding someone else's bytes is not ours to undo, and one as it was needs
    // nothing.
    std::fs::write(root.join("was-dir"), "x").unwrap();
    std::fs::write(root.join("theirs.md"), "theirs").unwrap();
    std::fs::write(root.join("mine.md"), "mine").unwrap();
    let files = vec![
        JournalFile {
            path: "theirs.md".into(),
            content: "ours".into(),
            previous: None,
        },
        JournalFile {
            path: "mine.md".into(),
            content: "ours".into(),
            previous: Some(Previous::of(b"mine")),
        },
    ];
    let undone = write::undo(root, &files, &["was-dir".into()], None);
    assert!(!undone.changed());
    assert!(undone.left.is_empty(), "{:?}", undone.left);
    assert_eq!(std::fs::read(root.join("was-dir")).unwrap(), b"x");
    assert_eq!(std::fs::read(root.join("theirs.md")).unwrap(), b"theirs");
    assert_eq!(std::fs::read(root.join("mine.md")).unwrap(), b"mine");

    let left = vec![
        Leftover {
            path: "blocker/old.md".into(),
            kind: LeftoverKind::PreviousContentLost,
            why: "boom".into(),
        },
        Leftover {
            path: "was-file".into(),
            kind: LeftoverKind::NewFile,
            why: "boom".into(),
        },
        Leftover {
            path: "was-dir".into(),
            kind: LeftoverKind::NewFolder,
            why: "boom".into(),
        },
    ];
    let e = PublishError {
        error: failed("x", "boom".into()),
        rollback: Rollback::Incomplete(left),
    };
    let next = e.next_action();
    for p in ["'blocker/old.md'", "'was-file'", "'was-dir'"] {
        assert!(next.contains(p), "{next}");
    }
}

fn claim(dir: &str, number: &str, folder: &str) -> NumberClaim {
    NumberClaim {
        dir: dir.to_owned(),
        number: number.to_owned(),
        folder: folder.to_owned(),
        lineage: None,
    }
}

#[test]
fn a_claimed_number_taken_meanwhile_refuses_the_publish_before_any_write() {
    let dir = tempfile::tempdir().unwrap();
    let w = ws(&dir);
    std::fs::create_dir_all(dir.path().join("docs/designs/001-design-other")).unwrap();
    let before = tree(dir.path());
    let artifacts = [art("docs/designs/001-design-mine/DESIGN.md", "x", false)];
    let claims = [claim("docs/designs", "001", "001-design-mine")];
    let e = publish_in(
        PublishTarget::Workspace(&w),
        &artifacts,
        None,
        &anywhere(),
        &claims,
        WAIT,
    )
    .unwrap_err();
    assert_eq!(e.error.code, ErrorCode::DesignNumberTaken);
    assert!(e.error.message.contains("001-design-other"));
    assert_eq!(e.rollback, Rollback::NothingWritten);
    // The lock file aside, nothing changed.
    let after: BTreeMap<_, _> = tree(dir.path())
        .into_iter()
        .filter(|(p, _)| !p.starts_with(".workflow"))
        .collect();
    let before: BTreeMap<_, _> = before
        .into_iter()
        .filter(|(p, _)| !p.starts_with(".workflow"))
        .collect();
    assert_eq!(after, before);
    // Another number (or a folder that is not there yet) is free.
    let claims = [claim("docs/designs", "002", "002-design-mine")];
    let artifacts = [art("docs/designs/002-design-mine/DESIGN.md", "x", false)];
    publish_in(
        PublishTarget::Workspace(&w),
        &artifacts,
        None,
        &anywhere(),
        &claims,
        WAIT,
    )
    .unwrap();
    let claims = [claim("docs/new", "001", "001-design-a")];
    let artifacts = [art("docs/new/001-design-a/DESIGN.md", "x", false)];
    publish_in(
        PublishTarget::Workspace(&w),
        &artifacts,
        None,
        &anywhere(),
        &claims,
        WAIT,
    )
    .unwrap();
}

#[test]
fn an_explicit_root_is_created_locked_and_kept_as_the_boundary() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("out/designs");
    let artifacts = [art("001-design-a/DESIGN.md", "x", false)];
    let claims = [claim(".", "001", "001-design-a")];
    let out = publish_in(
        PublishTarget::Explicit(&root),
        &artifacts,
        None,
        &anywhere(),
        &claims,
        WAIT,
    )
    .unwrap();
    assert_eq!(out.written, ["001-design-a/DESIGN.md"]);
    assert_eq!(
        std::fs::read(root.join("001-design-a/DESIGN.md")).unwrap(),
        b"x"
    );
    assert!(root.join(EXPLICIT_LOCK_FILE).is_file());
    // The number is taken now.
    let e = publish_in(
        PublishTarget::Explicit(&root),
        &[art("001-design-b/DESIGN.md", "y", false)],
        None,
        &anywhere(),
        &[claim(".", "001", "001-design-b")],
        WAIT,
    )
    .unwrap_err();
    assert_eq!(e.error.code, ErrorCode::DesignNumberTaken);
    // Escaping the root is refused as text, and through a link on disk.
    let e = publish_in(
        PublishTarget::Explicit(&root),
        &[art("../escaped.md", "z", false)],
        None,
        &anywhere(),
        &[],
        WAIT,
    )
    .unwrap_err();
    assert_eq!(e.error.code, ErrorCode::SemanticPathRejected);
    #[cfg(unix)]
    {
        let outside = dir.path().join("elsewhere");
        std::fs::create_dir_all(&outside).unwrap();
        std::os::unix::fs::symlink(&outside, root.join("link")).unwrap();
        let e = publish_in(
            PublishTarget::Explicit(&root),
            &[art("link/x.md", "z", false)],
            None,
            &anywhere(),
            &[],
            WAIT,
        )
        .unwrap_err();
        assert_eq!(e.error.code, ErrorCode::PathOutsideWorkspace);
        assert!(!outside.join("x.md").exists());
    }
}

#[cfg(unix)]
#[test]
fn a_plan_already_published_byte_for_byte_is_a_success_that_writes_nothing() {
    use std::os::unix::fs::symlink;
    let (dir, w) = workspace_with_lock();
    let root = dir.path();
    let artifacts = [
        art(
            "docs/designs/a/renders/page.html",
            "<!doctype html>\n",
            false,
        ),
        art("docs/designs/a/reviews/r001.json", "{}\n", false),
    ];
    let first = publish(&w, &artifacts, None, &anywhere(), WAIT).unwrap();
    assert!(!first.already_published);
    let before = tree(root);
    let again = publish(&w, &artifacts, None, &anywhere(), WAIT).unwrap();
    assert_eq!(again, Published::nothing_written(Vec::new()));
    assert_eq!(tree(root), before, "nothing was written");

    // Partly there: the usual rules, so the present file is in the way and nothing changes.
    let partly = [
        art(
            "docs/designs/a/renders/page.html",
            "<!doctype html>\n",
            false,
        ),
        art("docs/designs/a/renders/other.html", "new", false),
    ];
    let (c, _) = code(publish(&w, &partly, None, &anywhere(), WAIT));
    assert_eq!(c, ErrorCode::PublishTargetExists);
    assert_eq!(tree(root), before);
    // Other bytes at the path are not "already published" either.
    let changed = [art(
        "docs/designs/a/reviews/r001.json",
        "{\"x\":1}\n",
        false,
    )];
    let (c, _) = code(publish(&w, &changed, None, &anywhere(), WAIT));
    assert_eq!(c, ErrorCode::PublishTargetExists);

    // A link holding the same bytes is never taken for the file: it is refused as before.
    std::fs::write(root.join("real.md"), "same").unwrap();
    symlink(root.join("real.md"), root.join("linked.md")).unwrap();
    let (c, _) = code(publish(
        &w,
        &[art("linked.md", "same", false)],
        None,
        &anywhere(),
        WAIT,
    ));
    assert_eq!(c, ErrorCode::PublishFailed);

    // The plan itself replaced its base, and took its numbers: applied again it is complete,
    // neither stale nor "number taken".
    let base = Base {
        path: "docs/designs/a/reviews/r001.json".to_owned(),
        digest: base_digest("something else"),
    };
    let again = publish(&w, &artifacts, Some(&base), &anywhere(), WAIT).unwrap();
    assert!(again.already_published);
    let claims = [claim("docs/designs", "001", "001-design-a")];
    std::fs::create_dir_all(root.join("docs/designs/001-design-a")).unwrap();
    let again = publish_in(
        PublishTarget::Workspace(&w),
        &artifacts,
        None,
        &anywhere(),
        &claims,
        WAIT,
    )
    .unwrap();
    assert!(again.already_published);
    std::fs::remove_dir(root.join("docs/designs/001-design-a")).unwrap();
    // The checks of where it writes still come first: a re-apply outside its destinations is
    // refused, not excused.
    let (c, _) = code(publish(
        &w,
        &artifacts,
        None,
        &["docs/designs/b".to_owned()],
        WAIT,
    ));
    assert_eq!(c, ErrorCode::SemanticPathRejected);
}

/// A create of `001-design-a` (its document and its manifest) and its claim, as the design
/// floor makes them.
fn create_a() -> (Vec<Artifact>, Vec<NumberClaim>) {
    let manifest = r#"{"id": "DES-001", "history": [{"revision": 1, "digest": "sha256:d1"}]}"#;
    let artifacts = vec![
        art("docs/designs/001-design-a/DESIGN.md", "# A\n", false),
        art(
            "docs/designs/001-design-a/design-manifest.json",
            manifest,
            false,
        ),
    ];
    let mut c = claim("docs/designs", "001", "001-design-a");
    c.lineage = Some(aw_core::capability::handler::ClaimLineage {
        manifest: "design-manifest.json".to_owned(),
        id: "DES-001".to_owned(),
        digest: "sha256:d1".to_owned(),
    });
    (artifacts, vec![c])
}

fn publish_create(
    w: &Workspace,
    artifacts: &[Artifact],
    claims: &[NumberClaim],
) -> std::result::Result<Published, PublishError> {
    publish_in(
        PublishTarget::Workspace(w),
        artifacts,
        None,
        &anywhere(),
        claims,
        WAIT,
    )
}

#[test]
fn a_package_a_kill_left_half_made_is_completed_by_the_same_plan() {
    let (artifacts, claims) = create_a();
    let pkg = "docs/designs/001-design-a";
    // What packages written file by file left behind when killed.
    let halves: [&[(&str, &str)]; 4] = [
        &[],
        &[(".aw-tmp-a1b2c3", "half a manifest")],
        &[("DESIGN.md", "# A\n")],
        &[("DESIGN.md", "# A\n"), (".aw-tmp-z9y8x7", "")],
    ];
    for half in halves {
        let (dir, w) = workspace_with_lock();
        let root = dir.path();
        std::fs::create_dir_all(root.join(pkg)).unwrap();
        for (name, text) in half {
            std::fs::write(root.join(pkg).join(name), text).unwrap();
        }
        let out = publish_create(&w, &artifacts, &claims).unwrap();
        assert!(!out.already_published, "{half:?}");
        let mut names: Vec<String> = std::fs::read_dir(root.join(pkg))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["DESIGN.md", "design-manifest.json"], "{half:?}");
        for a in &artifacts {
            assert_eq!(
                std::fs::read_to_string(root.join(&a.path)).unwrap(),
                a.content
            );
        }
        let beside: Vec<String> = std::fs::read_dir(root.join("docs/designs"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(beside, ["001-design-a"], "nothing left aside: {half:?}");
    }
}

#[test]
fn a_folder_with_the_plans_name_holding_anything_else_is_not_the_plans() {
    let (artifacts, claims) = create_a();
    let pkg = "docs/designs/001-design-a";
    for theirs in [[("DESIGN.md", "# Another A\n")], [("notes.md", "# A\n")]] {
        let (dir, w) = workspace_with_lock();
        let root = dir.path();
        std::fs::create_dir_all(root.join(pkg)).unwrap();
        for (name, text) in theirs {
            std::fs::write(root.join(pkg).join(name), text).unwrap();
        }
        let before = tree(&root.join("docs"));
        let e = publish_create(&w, &artifacts, &claims).unwrap_err();
        assert_eq!(e.error.code, ErrorCode::DesignNumberTaken, "{theirs:?}");
        assert!(
            e.error.message.contains("not this plan's package"),
            "{}",
            e.error.message
        );
        assert_eq!(tree(&root.join("docs")), before);
    }
}

#[test]
fn a_package_the_plan_made_that_moved_on_is_complete_and_untouched() {
    let (dir, w) = workspace_with_lock();
    let root = dir.path();
    let (artifacts, claims) = create_a();
    publish_create(&w, &artifacts, &claims).unwrap();
    // Updated since: revision 2, its manifest's history still records revision 1.
    let pkg = root.join("docs/designs/001-design-a");
    std::fs::write(pkg.join("DESIGN.md"), "# A, revised\n").unwrap();
    std::fs::write(
        pkg.join("design-manifest.json"),
        r#"{"id": "DES-001", "history": [{"revision": 1, "digest": "sha256:d1"}, {"revision": 2, "digest": "sha256:d2"}]}"#,
    )
    .unwrap();
    let before = tree(root);
    let out = publish_create(&w, &artifacts, &claims).unwrap();
    assert!(out.already_published);
    assert_eq!(
        out.changed_since,
        [
            "docs/designs/001-design-a/DESIGN.md",
            "docs/designs/001-design-a/design-manifest.json"
        ]
    );
    assert_eq!(tree(root), before, "nothing written");
}
