//! `aw family links`: wrapper links planned, created and removed, never over what is not aw's.

use crate::support::{Ws, copy_tree, fixture_path};
use std::path::Path;

/// A workspace holding a copy of the codex member; returns it and the member's folder.
fn codex() -> (Ws, String) {
    let ws = Ws::bare();
    let dir = ws.root().join("codex-cli-bridge");
    copy_tree(&fixture_path("family/members/codex-cli-bridge"), &dir);
    (ws, dir.to_string_lossy().into_owned())
}

fn link_of(p: &Path) -> Option<std::path::PathBuf> {
    std::fs::read_link(p).ok()
}

#[test]
fn plan_apply_remove_round_trip_on_the_real_member() {
    let (ws, dir) = codex();
    let bin = ws.root().join("bin");
    let b = bin.to_string_lossy().into_owned();
    let plan = ws.ok(&["family", "links", &dir, "--bin-dir", &b]);
    assert_eq!(plan["mode"], "plan");
    assert_eq!(plan["links"][0]["cmd"], "codex-exec");
    assert_eq!(plan["links"][0]["action"], "create");
    assert!(!bin.exists(), "a plan writes nothing");

    let v = ws.ok(&["family", "links", &dir, "--bin-dir", &b, "--apply"]);
    assert_eq!(v["links"][1]["done"], true);
    assert_eq!(
        link_of(&bin.join("codex-review")).unwrap(),
        Path::new(&dir).join("bin/codex-review.sh")
    );
    let again = ws.ok(&["family", "links", &dir, "--bin-dir", &b, "--apply"]);
    assert_eq!(again["links"][0]["action"], "keep");

    // The default bin folder is ~/.local/bin.
    let v = ws.ok(&["family", "links", &dir]);
    assert_eq!(
        v["binDir"],
        ws.home().join(".local/bin").to_string_lossy().as_ref()
    );

    ws.ok(&["family", "links", &dir, "--bin-dir", &b, "--remove"]);
    assert!(std::fs::read_dir(&bin).unwrap().next().is_none());
}

#[test]
fn a_foreign_file_or_link_is_never_replaced_nor_removed() {
    let (ws, dir) = codex();
    let bin = ws.root().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(bin.join("codex-exec"), "mine\n").unwrap();
    std::os::unix::fs::symlink("/elsewhere", bin.join("codex-review")).unwrap();
    let b = bin.to_string_lossy().into_owned();
    let f = ws.failure(&["family", "links", &dir, "--bin-dir", &b, "--apply"]);
    assert_eq!(f["error"]["code"], "FAMILY_LINK_CONFLICT");
    assert_eq!(
        std::fs::read_to_string(bin.join("codex-exec")).unwrap(),
        "mine\n"
    );
    assert_eq!(
        link_of(&bin.join("codex-review")).unwrap(),
        Path::new("/elsewhere")
    );
    let v = ws.ok(&["family", "links", &dir, "--bin-dir", &b, "--remove"]);
    assert_eq!(v["links"][0]["found"], "foreign");
    assert_eq!(v["links"][0]["done"], false);
    assert!(bin.join("codex-exec").exists());
    assert!(link_of(&bin.join("codex-review")).is_some());
}

#[test]
fn a_symlinked_bin_folder_is_refused() {
    let (ws, dir) = codex();
    let real = ws.root().join("real");
    std::fs::create_dir_all(&real).unwrap();
    let bin = ws.root().join("bin");
    std::os::unix::fs::symlink(&real, &bin).unwrap();
    let f = ws.failure(&[
        "family",
        "links",
        &dir,
        "--bin-dir",
        bin.to_str().unwrap(),
        "--apply",
    ]);
    assert_eq!(f["error"]["code"], "FAMILY_BIN_DIR_UNSAFE");
    assert!(std::fs::read_dir(&real).unwrap().next().is_none());
}

#[test]
fn bad_roles_give_no_links() {
    let ws = Ws::bare();
    let cases = [
        (
            r#"{"roles":{"a":{"cmd":"../x","source":"x.sh"}}}"#,
            "bare command name",
        ),
        (
            r#"{"roles":{"a":{"cmd":"x","source":"../x.sh"}}}"#,
            "outside the skill folder",
        ),
        (
            r#"{"roles":{"a":{"cmd":"x","source":"a.sh"},"b":{"cmd":"x","source":"b.sh"}}}"#,
            "two sources",
        ),
        (r#"{"roles":{}}"#, "no role"),
    ];
    for (i, (manifest, says)) in cases.iter().enumerate() {
        let d = ws.root().join(format!("m{i}"));
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("capability.json"), manifest).unwrap();
        let f = ws.failure(&["family", "links", d.to_str().unwrap(), "--bin-dir", "bin"]);
        assert_eq!(f["error"]["code"], "FAMILY_LINKS_INVALID");
        assert!(
            f["error"]["message"].as_str().unwrap().contains(says),
            "{f:#}"
        );
    }
    assert!(!ws.root().join("bin").exists());
}
