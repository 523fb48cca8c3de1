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

#[cfg(unix)]
#[test]
fn a_bin_folder_linked_from_dotfiles_is_followed() {
    let (ws, dir) = codex();
    let real = ws.root().join("real");
    std::fs::create_dir_all(&real).unwrap();
    let bin = ws.root().join("bin");
    std::os::unix::fs::symlink(&real, &bin).unwrap();
    let b = bin.to_string_lossy().into_owned();
    ws.ok(&["family", "links", &dir, "--bin-dir", &b, "--apply"]);
    assert!(real.join("codex-review").symlink_metadata().is_ok());
    assert!(bin.symlink_metadata().unwrap().file_type().is_symlink());
}

#[cfg(unix)]
#[test]
fn a_source_that_is_missing_or_a_link_is_refused_before_any_link() {
    let (ws, dir) = codex();
    let bin = ws.root().join("bin");
    let b = bin.to_string_lossy().into_owned();
    std::fs::remove_file(Path::new(&dir).join("bin/codex-review.sh")).unwrap();
    let f = ws.failure(&["family", "links", &dir, "--bin-dir", &b, "--apply"]);
    assert_eq!(f["error"]["code"], "FAMILY_LINKS_INVALID");
    assert!(
        f["error"]["message"]
            .as_str()
            .unwrap()
            .contains("does not exist")
    );
    assert!(!bin.exists(), "not even the bin folder is made");
    // The dry run already says so.
    let plan = ws.ok(&["family", "links", &dir, "--bin-dir", &b]);
    let review = plan["links"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["cmd"] == "codex-review")
        .unwrap();
    assert!(
        review["problem"]
            .as_str()
            .unwrap()
            .contains("does not exist")
    );
    std::os::unix::fs::symlink("/bin/sh", Path::new(&dir).join("bin/codex-review.sh")).unwrap();
    let f = ws.failure(&["family", "links", &dir, "--bin-dir", &b, "--apply"]);
    assert!(
        f["error"]["message"]
            .as_str()
            .unwrap()
            .contains("symbolic link")
    );
}

#[cfg(unix)]
#[test]
fn a_linked_source_is_made_executable_as_its_read_bits_allow() {
    use std::os::unix::fs::PermissionsExt;
    let (ws, dir) = codex();
    let review = Path::new(&dir).join("bin/codex-review.sh");
    let exec = Path::new(&dir).join("bin/codex-exec.sh");
    std::fs::set_permissions(&review, std::fs::Permissions::from_mode(0o644)).unwrap();
    // A private source stays private: no read bit for others, so no execute bit either.
    std::fs::set_permissions(&exec, std::fs::Permissions::from_mode(0o600)).unwrap();
    let b = ws.root().join("bin").to_string_lossy().into_owned();
    ws.ok(&["family", "links", &dir, "--bin-dir", &b, "--apply"]);
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&review), 0o755);
    assert_eq!(mode(&exec), 0o700);
}

#[cfg(unix)]
#[test]
fn a_source_behind_a_linked_folder_that_leaves_the_skill_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let ws = Ws::bare();
    let outside = ws.root().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    let private = outside.join("private.txt");
    std::fs::write(&private, "s").unwrap();
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o600)).unwrap();
    let skill = ws.root().join("evil");
    std::fs::create_dir_all(&skill).unwrap();
    std::os::unix::fs::symlink("../outside", skill.join("bin")).unwrap();
    std::fs::write(
        skill.join("capability.json"),
        r#"{"schemaVersion":1,"name":"evil","roles":{"review":{"cmd":"evil-review","source":"bin/private.txt"}}}"#,
    )
    .unwrap();
    let bin = ws.root().join("bin1");
    let (s, b) = (skill.to_string_lossy(), bin.to_string_lossy());
    let f = ws.failure(&["family", "links", &s, "--bin-dir", &b, "--apply"]);
    assert_eq!(f["error"]["code"], "FAMILY_LINKS_INVALID");
    assert!(
        f["error"]["message"]
            .as_str()
            .unwrap()
            .contains("outside the skill folder")
    );
    assert_eq!(
        std::fs::metadata(&private).unwrap().permissions().mode() & 0o777,
        0o600
    );
    assert!(!bin.exists());
}

#[cfg(unix)]
#[test]
fn a_relative_link_through_a_linked_bin_folder_is_judged_where_it_really_points() {
    let (ws, dir) = codex();
    // The bin folder is a link into another tree; a relative link in it resolves from there.
    let deep = ws.root().join("real/deep/bin");
    std::fs::create_dir_all(&deep).unwrap();
    let lbin = ws.root().join("lbin");
    std::os::unix::fs::symlink(&deep, &lbin).unwrap();
    std::os::unix::fs::symlink(
        "../codex-cli-bridge/bin/codex-review.sh",
        deep.join("codex-review"),
    )
    .unwrap();
    let b = lbin.to_string_lossy().into_owned();
    let v = ws.ok(&["family", "links", &dir, "--bin-dir", &b, "--remove"]);
    let review = v["links"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["cmd"] == "codex-review")
        .unwrap();
    assert_eq!(review["found"], "foreign", "{v:#}");
    assert!(
        deep.join("codex-review").symlink_metadata().is_ok(),
        "left alone"
    );
}

#[cfg(unix)]
#[test]
fn a_relative_link_to_the_source_is_aws() {
    let (ws, dir) = codex();
    let bin = ws.root().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(
        "../codex-cli-bridge/bin/codex-review.sh",
        bin.join("codex-review"),
    )
    .unwrap();
    let b = bin.to_string_lossy().into_owned();
    let v = ws.ok(&["family", "links", &dir, "--bin-dir", &b]);
    let review = v["links"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["cmd"] == "codex-review")
        .unwrap();
    assert_eq!(review["found"], "ours", "{v:#}");
    let v = ws.ok(&["family", "links", &dir, "--bin-dir", &b, "--remove"]);
    assert!(
        v["links"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["done"] == true)
    );
    assert!(bin.join("codex-review").symlink_metadata().is_err());
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

#[cfg(unix)]
#[test]
fn a_source_hard_linked_to_a_file_outside_the_skill_is_refused_and_left_alone() {
    use std::os::unix::fs::PermissionsExt;
    let (ws, dir) = codex();
    let outside = ws.root().join("outside-secret.txt");
    std::fs::write(&outside, "s").unwrap();
    std::fs::set_permissions(&outside, std::fs::Permissions::from_mode(0o644)).unwrap();
    let review = Path::new(&dir).join("bin/codex-review.sh");
    std::fs::remove_file(&review).unwrap();
    std::fs::hard_link(&outside, &review).unwrap();
    let bin = ws.root().join("bin");
    let b = bin.to_string_lossy().into_owned();
    let f = ws.failure(&["family", "links", &dir, "--bin-dir", &b, "--apply"]);
    assert_eq!(f["error"]["code"], "FAMILY_LINKS_INVALID");
    let message = f["error"]["message"].as_str().unwrap();
    assert!(message.contains("2 hard links"), "{message}");
    let action = f["data"]["action"].as_str().unwrap();
    assert!(action.contains("copy"), "{action}");
    let mode = std::fs::metadata(&outside).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o644, "the file outside was not made executable");
    assert!(!bin.exists(), "nothing was written");
    // The plan says so before any --apply.
    let plan = ws.ok(&["family", "links", &dir, "--bin-dir", &b]);
    let row = plan["links"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["cmd"] == "codex-review")
        .unwrap();
    assert!(row["problem"].as_str().unwrap().contains("hard links"));
}
