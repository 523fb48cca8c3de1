use super::*;
use aw_core::canonical::sha256_hex;
use aw_core::error_code::ErrorCode;
use std::path::PathBuf;

const DOC: &str = "# Sign-up\n\n## Objective\n\nJoin.\n\n## Proposed design\n\nA form.\n\n## Validation\n\nA person joins.\n";

fn designs(ws: &Path) -> PathBuf {
    ws.join("docs/designs")
}

/// Writes a valid package claiming `id` at `docs/designs/<rel>`.
fn write_package(ws: &Path, rel: &str, id: &str) -> PathBuf {
    let dir = designs(ws).join(rel);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(DESIGN_DOC_FILE), DOC).unwrap();
    let digest = format!("sha256:{}", sha256_hex(DOC.as_bytes()));
    let manifest = serde_json::json!({
        "schema": "workline.design-manifest/v1",
        "id": id, "title": "Sign-up", "revision": 1, "digest": digest,
        "sources": [],
        "maturity": {"requested": null, "attained": "handoff", "gaps": []},
        "history": [{"revision": 1, "digest": digest, "path": "DESIGN.md"}],
    });
    std::fs::write(dir.join(MANIFEST_FILE), manifest.to_string()).unwrap();
    dir
}

fn paths(index: &DesignIndex) -> Vec<&str> {
    index.packages.iter().map(|p| p.path.as_str()).collect()
}

fn first_code(index: &DesignIndex, path: &str) -> ErrorCode {
    let entry = index.packages.iter().find(|p| p.path == path).unwrap();
    entry.failures[0].code
}

#[test]
fn a_workspace_without_docs_designs_has_an_empty_index() {
    let ws = tempfile::tempdir().unwrap();
    assert_eq!(read_index(ws.path()).unwrap(), DesignIndex::empty());
    std::fs::create_dir_all(ws.path().join("docs")).unwrap();
    std::fs::write(designs(ws.path()), "not a folder").unwrap();
    assert_eq!(read_index(ws.path()).unwrap(), DesignIndex::empty());
}

#[test]
fn nested_packages_are_found_without_descending_into_a_package() {
    let ws = tempfile::tempdir().unwrap();
    write_package(ws.path(), "001-design-signup", "DES-001");
    let team = write_package(ws.path(), "team-a/002-design-login", "DES-002");
    // A folder inside a package is the package's own business, never a package.
    write_package(ws.path(), "team-a/002-design-login/inner", "DES-009");
    std::fs::create_dir_all(designs(ws.path()).join("team-a/empty")).unwrap();
    let index = read_index(ws.path()).unwrap();
    assert_eq!(
        paths(&index),
        [
            "docs/designs/001-design-signup",
            "docs/designs/team-a/002-design-login",
            "docs/designs/team-a/empty"
        ]
    );
    assert!(index.packages[0].ok && index.packages[1].ok);
    assert_eq!(
        first_code(&index, "docs/designs/team-a/empty"),
        ErrorCode::DesignManifestMissing
    );
    assert_eq!(
        index.resolve("DES-002").unwrap().path,
        "docs/designs/team-a/002-design-login"
    );
    assert!(index.resolve("DES-009").is_none());
    // The DESIGN.md beside the manifest is read: changing it breaks the seal.
    std::fs::write(team.join(DESIGN_DOC_FILE), "# Sign-up\nchanged\n").unwrap();
    let index = read_index(ws.path()).unwrap();
    assert_eq!(
        first_code(&index, "docs/designs/team-a/002-design-login"),
        ErrorCode::DesignDigestMismatch
    );
}

/// A package being published is assembled under aw's temporary prefix and renamed into place
/// whole: a killed publish may leave that folder (manifest and all), and it is nobody's package.
#[test]
fn a_package_still_being_assembled_is_not_a_package() {
    let ws = tempfile::tempdir().unwrap();
    write_package(ws.path(), ".aw-tmp-k1ll3d", "DES-001");
    write_package(ws.path(), "team/003-design-a", "DES-003");
    write_package(ws.path(), "team/.aw-tmp-x9y8z7", "DES-002");
    let index = read_index(ws.path()).unwrap();
    assert_eq!(paths(&index), ["docs/designs/team/003-design-a"]);
}

#[test]
fn the_walk_stops_at_the_depth_cap_and_reports_where() {
    let ws = tempfile::tempdir().unwrap();
    // A package at the last level the walk reads is found…
    let deepest: Vec<&str> = std::iter::repeat_n("d", MAX_FOLDER_DEPTH - 1).collect();
    let at_cap = format!("{}/001-design-deep", deepest.join("/"));
    write_package(ws.path(), &at_cap, "DES-001");
    // …and a chain far deeper than the cap (deep enough to exhaust the stack if walked without
    // a bound) ends in one broken entry where the walk stopped.
    let chain: Vec<&str> = std::iter::repeat_n("x", 400).collect();
    std::fs::create_dir_all(designs(ws.path()).join(chain.join("/"))).unwrap();
    let index = read_index(ws.path()).unwrap();
    assert_eq!(index.packages.len(), 2, "{:?}", paths(&index));
    assert_eq!(
        index.resolve("DES-001").unwrap().path,
        format!("docs/designs/{at_cap}")
    );
    let stopped = format!("docs/designs/{}", chain[..MAX_FOLDER_DEPTH].join("/"));
    assert_eq!(
        first_code(&index, &stopped),
        ErrorCode::DesignManifestMissing
    );
    let entry = index.packages.iter().find(|p| p.path == stopped).unwrap();
    assert_eq!(entry.failures.len(), 1);
    assert!(
        entry.failures[0].message.contains("does not look deeper"),
        "{entry:?}"
    );
}

#[cfg(unix)]
#[test]
fn symbolic_links_are_never_followed() {
    let ws = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let foreign = write_package(outside.path(), "001-design-foreign", "DES-001");
    std::fs::create_dir_all(designs(ws.path())).unwrap();
    // A linked folder is skipped: no identity comes in from outside.
    std::os::unix::fs::symlink(&foreign, designs(ws.path()).join("001-design-linked")).unwrap();
    assert_eq!(read_index(ws.path()).unwrap(), DesignIndex::empty());
    // A linked manifest marks a package but is not read.
    let dir = designs(ws.path()).join("002-design-x");
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(foreign.join(MANIFEST_FILE), dir.join(MANIFEST_FILE)).unwrap();
    let index = read_index(ws.path()).unwrap();
    assert_eq!(
        first_code(&index, "docs/designs/002-design-x"),
        ErrorCode::DesignManifestUnreadable
    );
    // A linked docs/designs reads as no packages.
    let other = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(other.path().join("docs")).unwrap();
    std::os::unix::fs::symlink(designs(outside.path()), designs(other.path())).unwrap();
    assert_eq!(read_index(other.path()).unwrap(), DesignIndex::empty());
}

#[cfg(unix)]
#[test]
fn a_fifo_manifest_is_reported_and_never_waited_on() {
    let ws = tempfile::tempdir().unwrap();
    let dir = designs(ws.path()).join("003-design-fifo");
    std::fs::create_dir_all(&dir).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(dir.join(MANIFEST_FILE))
        .status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo runs");
    let root = ws.path().to_path_buf();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(read_index(&root));
    });
    // A blocked open never answers: the timeout is only a bound on a hang.
    let index = rx
        .recv_timeout(std::time::Duration::from_secs(20))
        .expect("reading the index does not wait on a FIFO")
        .unwrap();
    assert_eq!(
        first_code(&index, "docs/designs/003-design-fifo"),
        ErrorCode::DesignManifestUnreadable
    );
    assert!(
        index.packages[0].failures[0]
            .message
            .contains("regular file")
    );
}

#[test]
fn an_oversized_manifest_is_not_read() {
    let ws = tempfile::tempdir().unwrap();
    let dir = write_package(ws.path(), "004-design-big", "DES-004");
    let big = vec![b' '; usize::try_from(MAX_MANIFEST_BYTES).unwrap() + 1];
    std::fs::write(dir.join(MANIFEST_FILE), big).unwrap();
    let index = read_index(ws.path()).unwrap();
    let f = &index.packages[0].failures[0];
    assert_eq!(f.code, ErrorCode::DesignManifestUnreadable);
    assert!(f.message.contains("more than"));
}

#[test]
fn a_package_s_revisions_reviews_and_file_sources_are_read() {
    let ws = tempfile::tempdir().unwrap();
    let dir = write_package(ws.path(), "001-design-signup", "DES-001");
    std::fs::create_dir_all(dir.join("revisions")).unwrap();
    std::fs::write(dir.join("revisions/DESIGN-r001.md"), "old").unwrap();
    std::fs::create_dir_all(dir.join("reviews/nested")).unwrap();
    std::fs::write(
        dir.join("reviews/r001.json"),
        "{\"decision\": \"approved\"}",
    )
    .unwrap();
    std::fs::write(dir.join("reviews/notes.txt"), "not a review").unwrap();
    // Sources: one file that exists, one that does not, one provider locator.
    std::fs::create_dir_all(ws.path().join("docs")).unwrap();
    std::fs::write(ws.path().join("docs/req.md"), "r").unwrap();
    let source = |loc: &str, kind: &str| {
        serde_json::json!({"name": "sources", "kind": kind, "locator": loc,
            "disposition": "used", "reason": null, "derived": [],
            "sensitivity": "public", "essential": true})
    };
    let mut manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join(MANIFEST_FILE)).unwrap()).unwrap();
    manifest["sources"] = serde_json::json!([
        source("docs/req.md", "markdown"),
        source("docs/gone.md", "markdown"),
        source("figma://f", "provider_locator"),
    ]);
    std::fs::write(dir.join(MANIFEST_FILE), manifest.to_string()).unwrap();
    let index = read_index(ws.path()).unwrap();
    let e = &index.packages[0];
    assert_eq!(e.review_files.len(), 1);
    assert_eq!(e.review_files[0].name, "r001.json");
    assert_eq!(
        e.review_files[0].read,
        FileRead::Bytes(b"{\"decision\": \"approved\"}".to_vec())
    );
    assert_eq!(e.design_text.as_deref(), Some(DOC));
    // Only the missing file is an unresolved reference.
    assert!(!e.ok);
    assert_eq!(e.failures.len(), 1, "{:?}", e.failures);
    assert_eq!(e.failures[0].code, ErrorCode::DesignReferenceUnresolved);
    assert!(e.failures[0].message.contains("docs/gone.md"));
}

#[test]
fn an_output_root_is_listed_for_numbering() {
    let ws = tempfile::tempdir().unwrap();
    let root = OutputRoot::Workspace {
        root: "docs/designs".to_owned(),
        declared: false,
    };
    assert!(list_root(Some(ws.path()), &root).unwrap().names.is_empty());
    write_package(ws.path(), "003-design-a", "DES-003");
    std::fs::write(designs(ws.path()).join(".aw-tmp-x"), "").unwrap();
    let listing = list_root(Some(ws.path()), &root).unwrap();
    assert_eq!(listing.root, "docs/designs");
    assert_eq!(listing.names, ["003-design-a"]);
    let explicit = OutputRoot::Explicit {
        root: designs(ws.path()).to_string_lossy().into_owned(),
    };
    assert_eq!(list_root(None, &explicit).unwrap().names, ["003-design-a"]);
}
