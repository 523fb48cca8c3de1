//! `aw next-number`: the correlative grammar (any width, `-`-bounded), folder containment,
//! and atomic claims with session-owned reservations.

use crate::support::Ws;
use serde_json::json;

#[test]
fn grammar_and_output_keys() {
    let ws = Ws::new();
    let dir = ws.root().join("docs/specs");
    std::fs::create_dir_all(dir.join("010-dir")).unwrap();
    for f in [
        "0005x.md",
        "001-spec-a.md",
        "003-spec-c.md",
        "001.md",
        "README.md",
        "a_b",
        "a-b",
        "A2",
    ] {
        std::fs::write(dir.join(f), "x").unwrap();
    }
    let v = ws.ok(&["next-number", "docs/specs"]);
    assert_eq!(
        v,
        json!({
            "directory": dir.to_string_lossy(),
            "exists": true,
            "created": false,
            "current_max": 10,
            "next": "011",
            "files": ["0005x.md", "001-spec-a.md", "001.md", "003-spec-c.md", "010-dir", "A2", "README.md", "a-b", "a_b"],
            "claimed_path": null,
            "claimed_owner": null,
            "claim_reused": false,
        }),
        "the reference's keys, the claim's empty when nothing is claimed"
    );
    std::fs::write(dir.join("1000-spec-x.md"), "x").unwrap();
    let v = ws.ok(&["next-number", "docs/specs"]);
    assert_eq!(
        (v["current_max"].clone(), v["next"].clone()),
        (json!(1000), json!("1001"))
    );
}

#[test]
fn creates_the_folder_unless_dry_run() {
    let ws = Ws::new();
    let v = ws.ok(&["next-number", "docs/plans", "--dry-run"]);
    assert_eq!(
        (v["exists"].clone(), v["created"].clone(), v["next"].clone()),
        (json!(false), json!(false), json!("001"))
    );
    assert!(!ws.root().join("docs/plans").exists());
    let v = ws.ok(&["next-number", "docs/plans"]);
    assert_eq!(
        (v["exists"].clone(), v["created"].clone()),
        (json!(false), json!(true))
    );
    assert!(ws.root().join("docs/plans").is_dir());
    assert_eq!(v["files"], json!([]));
}

#[test]
fn relative_folders_are_taken_from_the_workspace_root() {
    let ws = Ws::new();
    std::fs::create_dir_all(ws.root().join("src/deep")).unwrap();
    let out = ws
        .aw()
        .current_dir(ws.root().join("src/deep"))
        .args(["next-number", "docs/specs"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["directory"],
        ws.root().join("docs/specs").to_string_lossy().as_ref()
    );
    let abs = ws.root().join("docs/other");
    ws.ok(&["next-number", abs.to_str().unwrap()]);
    assert!(abs.is_dir());
}

#[test]
fn folders_outside_the_workspace_are_refused() {
    let ws = Ws::new();
    let outside = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(outside.path(), ws.root().join("link")).unwrap();
    for arg in [
        "../escape".to_owned(),
        "docs/../../escape".to_owned(),
        "/tmp".to_owned(),
        "link/specs".to_owned(),
        outside.path().to_string_lossy().into_owned(),
    ] {
        ws.fails(&["next-number", &arg], "INVALID_INPUT");
    }
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
    let v = ws.fails(&["next-number"], "INVALID_INPUT");
    assert_eq!(v["data"]["error"], v["error"]["message"]);
}

#[test]
fn claim_flag_rules() {
    let ws = Ws::new();
    ws.fails(
        &["next-number", "docs/specs", "--claim", "x.md", "--dry-run"],
        "INVALID_INPUT",
    );
    ws.fails(
        &["next-number", "docs/specs", "--code", "1"],
        "INVALID_INPUT",
    );
    for rest in ["a/b.md", "../x", "", ".hidden"] {
        ws.fails(
            &["next-number", "docs/specs", &format!("--claim={rest}")],
            "INVALID_INPUT",
        );
    }
    assert!(!ws.root().join("docs").exists());
}

#[test]
fn claims_create_reserve_and_reuse() {
    let ws = Ws::new();
    ws.session("004-owner-quick", false);
    let v = ws.ok(&["next-number", "docs/specs", "--claim", "spec-free.md"]);
    let free = ws.root().join("docs/specs/001-spec-free.md");
    assert_eq!(v["next"], "001");
    assert_eq!(v["claimed_path"], free.to_string_lossy().as_ref());
    assert_eq!(v["claimed_owner"], json!(null));
    assert_eq!(v["claim_reused"], false);
    assert_eq!(std::fs::read(&free).unwrap(), b"");
    let v = ws.ok(&[
        "next-number",
        "docs/specs",
        "--claim",
        "spec-login.md",
        "--code",
        "4",
    ]);
    assert_eq!(
        (v["next"].clone(), v["claimed_owner"].clone()),
        (json!("002"), json!("004-owner-quick"))
    );
    // The reference's (v22) marker, byte for byte: a v22 run re-claims and releases it.
    assert_eq!(
        ws.read("docs/specs/002-spec-login.md"),
        "<!-- aw:reserva 004-owner-quick -->\n"
    );
    let again = ws.ok(&[
        "next-number",
        "docs/specs",
        "--claim",
        "spec-login.md",
        "--code",
        "004-owner-quick",
    ]);
    assert_eq!(
        (again["next"].clone(), again["claim_reused"].clone()),
        (json!("002"), json!(true))
    );
    // The marker older aw releases wrote is still the same owner's.
    std::fs::write(
        ws.root().join("docs/specs/007-spec-old.md"),
        "<!-- aw:reservation 004-owner-quick -->\n",
    )
    .unwrap();
    let old = ws.ok(&[
        "next-number",
        "docs/specs",
        "--claim",
        "spec-old.md",
        "--code",
        "4",
    ]);
    assert_eq!(
        (old["next"].clone(), old["claim_reused"].clone()),
        (json!("007"), json!(true))
    );
}
