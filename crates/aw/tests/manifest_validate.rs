//! `aw manifest validate`: the drop-in contract of the family's validator (arguments, text
//! layout, exit codes) and its JSON model.

use crate::support::Ws;
use serde_json::Value;
use std::path::Path;

const VALID: &str = r#"{"family":"agent-workflow","schema":1,"name":"good","kind":"execution-backend",
"version":"1.0.0","provides":["review"],"roles":{"review":{"cmd":"good","source":"bin/run.sh"}}}"#;

fn skill(root: &Path, name: &str, manifest: &str) {
    let d = root.join(name);
    std::fs::create_dir_all(d.join("bin")).unwrap();
    std::fs::write(d.join("bin/run.sh"), "#!/bin/sh\n").unwrap();
    std::fs::write(
        d.join("SKILL.md"),
        "---\nname: x\nmetadata:\n  version: '1.0.0'\n---\n",
    )
    .unwrap();
    std::fs::write(d.join("capability.json"), manifest).unwrap();
}

/// An empty folder holding three skills: valid, invalid, and of a future schema.
fn family() -> Ws {
    let dir = Ws::bare();
    skill(dir.root(), "good", VALID);
    skill(
        dir.root(),
        "bad",
        &VALID
            .replace("bin/run.sh", "../escape.sh")
            .replace("\"good\",\"kind\"", "\"bad\",\"kind\""),
    );
    skill(
        dir.root(),
        "future",
        &VALID.replace("\"schema\":1", "\"schema\":2"),
    );
    dir
}

#[test]
fn no_folder_is_a_usage_error_on_stderr_with_exit_2() {
    let dir = Ws::bare();
    for args in [
        &["manifest", "validate"][..],
        &["manifest", "validate", "--strict"],
    ] {
        let out = dir.aw().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(out.stdout.is_empty());
        assert!(
            String::from_utf8(out.stderr)
                .unwrap()
                .starts_with("usage: ")
        );
    }
}

#[test]
fn text_report_layout_and_exit_codes() {
    let dir = family();
    let out = dir
        .aw()
        .args([
            "manifest",
            "validate",
            "good",
            "bad",
            "future",
            "good/",
            "good/capability.json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "normal mode always exits 0");
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "[VALID] good (good)");
    assert_eq!(lines[1], "[INVALID] bad (bad)");
    assert!(
        lines[2].starts_with("    - `roles.review.source` "),
        "{}",
        lines[2]
    );
    assert_eq!(lines[3], "[UNSUPPORTED] future (good)");
    assert!(lines[4].starts_with("    - `schema` "));
    assert_eq!(
        lines[5], "[VALID] good/ (good)",
        "the argument is shown as typed"
    );
    assert_eq!(
        lines[6], "[INVALID] good/capability.json",
        "a file is not a folder"
    );
    assert!(lines[7].contains("was not found"));
    assert_eq!(lines.len(), 8);

    let strict = dir
        .aw()
        .args(["manifest", "validate", "--strict", "good", "bad"])
        .output()
        .unwrap();
    assert_eq!(strict.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(strict.stdout).unwrap(),
        String::from_utf8(
            dir.aw()
                .args(["manifest", "validate", "good", "bad"])
                .output()
                .unwrap()
                .stdout
        )
        .unwrap(),
        "--strict changes only the exit code"
    );
    let ok = dir
        .aw()
        .args(["manifest", "validate", "--strict", "good", "--strict"])
        .output()
        .unwrap();
    assert_eq!(ok.status.code(), Some(0), "repeated --strict is accepted");
    let unsupported = dir
        .aw()
        .args(["manifest", "validate", "--strict", "future"])
        .output()
        .unwrap();
    assert_eq!(unsupported.status.code(), Some(1));
}

#[test]
fn text_is_the_default_even_when_piped_and_json_on_request() {
    let dir = family();
    let out = dir
        .aw()
        .args(["manifest", "validate", "--json", "bad", "good"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let r = &v["results"][0];
    assert_eq!(r["arg"], "bad");
    assert_eq!(r["class"], "invalid");
    assert_eq!(r["name"], "bad");
    assert_eq!(r["kind"], "execution-backend");
    assert_eq!(r["available"], true);
    assert!(Path::new(r["path"].as_str().unwrap()).is_absolute());
    assert_eq!(r["errors"][0]["path"], "roles.review.source");
    assert_eq!(r["errors"][0]["rule"], "path.traversal");
    assert_eq!(v["results"][1]["class"], "valid");
    assert_eq!(v["results"][1]["errors"], serde_json::json!([]));
}

#[test]
fn unreadable_skill_md_is_an_error_not_a_crash() {
    // The reference dies on a SKILL.md it cannot read; we report it and go on.
    let dir = family();
    std::fs::remove_file(dir.root().join("good/SKILL.md")).unwrap();
    std::fs::create_dir(dir.root().join("good/SKILL.md")).unwrap();
    let out = dir
        .aw()
        .args(["manifest", "validate", "good", "future"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("[INVALID] good (good)\n    - `version` "),
        "{text}"
    );
    assert_eq!(
        text.lines().count(),
        4,
        "the next folder is still validated: {text}"
    );
}

#[test]
fn name_header_follows_js_string_rules() {
    let dir = Ws::bare();
    for (folder, name, header) in [
        ("a", "[\"x\",\"y\"]", "[INVALID] a (x,y)"),
        ("b", "0", "[INVALID] b"),
        ("c", "\"\"", "[INVALID] c"),
        ("d", "[]", "[INVALID] d ()"),
        ("e", "{\"k\":1}", "[INVALID] e ([object Object])"),
        ("f", "5", "[INVALID] f (5)"),
    ] {
        skill(
            dir.root(),
            folder,
            &VALID.replace("\"good\",\"kind\"", &format!("{name},\"kind\"")),
        );
        let out = dir
            .aw()
            .args(["manifest", "validate", folder])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(text.lines().next().unwrap(), header);
    }
}

#[test]
fn a_trailing_slash_on_a_file_path_does_not_exist() {
    // POSIX, as the reference sees it: `bin/run.sh/` names a folder, and there is none.
    let dir = Ws::bare();
    skill(
        dir.root(),
        "slash",
        &VALID.replace("\"bin/run.sh\"", "\"bin/run.sh/\""),
    );
    skill(
        dir.root(),
        "folder",
        &VALID.replace("\"bin/run.sh\"", "\"bin/\""),
    );
    let out = dir
        .aw()
        .args(["manifest", "validate", "--json", "slash", "folder"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["results"][0]["class"], "invalid");
    assert_eq!(v["results"][0]["errors"][0]["rule"], "path.missing");
    assert_eq!(v["results"][1]["class"], "valid", "{v}");
}

#[test]
fn piped_text_carries_no_control_character_from_a_path_or_a_name_and_json_escapes_them() {
    let dir = Ws::bare();
    // A folder whose own name carries an escape sequence and a bell, holding a skill whose name
    // carries a colour sequence and a line break; and a missing folder whose name does (the
    // "not found" message quotes it).
    let evil_dir = "ev\u{1b}[2Jil\u{7}";
    skill(
        dir.root(),
        evil_dir,
        &VALID.replace("\"name\":\"good\"", "\"name\":\"go\\u001b[31mod\\nx\""),
    );
    let missing = "gone\u{1b}]0;title\u{7}\u{202e}";
    let out = dir
        .aw()
        .args(["manifest", "validate", evil_dir, missing])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        !text
            .chars()
            .any(|c| (c.is_control() && c != '\n') || c == '\u{202e}'),
        "{text:?}"
    );
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "[VALID] ev[2Jil (go[31modx)", "{text:?}");
    assert_eq!(lines[1], "[INVALID] gone]0;title");
    assert!(lines[2].contains("was not found") && lines[2].ends_with("gone]0;title"));
    assert_eq!(lines.len(), 3, "{text:?}");
    // The JSON model keeps the exact text, escaped.
    let out = dir
        .aw()
        .args([
            "manifest", "validate", "--format", "json", evil_dir, missing,
        ])
        .output()
        .unwrap();
    assert!(!out.stdout.contains(&0x1b) && !out.stdout.contains(&0x07));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["results"][0]["arg"], evil_dir);
    assert_eq!(v["results"][0]["name"], "go\u{1b}[31mod\nx");
    assert_eq!(v["results"][1]["arg"], missing);
}
