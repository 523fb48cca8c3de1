//! docs/PROTOCOL.md lists every intentional difference from the reference CLI under headings
//! "Differences from the reference …"; each listed difference names the test that pins it, as
//! `(test: <crate>/<path>.rs::<function>)`. This keeps the list honest: a difference nobody
//! tests is a promise nobody keeps.

use std::path::{Path, PathBuf};

/// The workspace's `crates/` folder.
fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Every bullet of every differences section: (section heading, bullet text joined into one
/// line).
fn differences(protocol: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut section: Option<String> = None;
    for line in protocol.lines() {
        if line.starts_with('#') {
            section = line
                .contains("Differences from the reference")
                .then(|| line.trim_start_matches('#').trim().to_owned());
            continue;
        }
        let Some(heading) = &section else { continue };
        if let Some(first) = line.strip_prefix("- ") {
            out.push((heading.clone(), first.to_owned()));
        } else if line.starts_with("  ")
            && !line.trim().is_empty()
            && let Some((_, text)) = out.last_mut()
        {
            text.push(' ');
            text.push_str(line.trim());
        }
    }
    out
}

/// The `crate/path.rs::function` references of a bullet.
fn test_refs(bullet: &str) -> Vec<(String, String)> {
    let mut refs = Vec::new();
    for part in bullet.split("(test").skip(1) {
        let inside = part.split(')').next().unwrap_or_default();
        for quoted in inside.split('`').skip(1).step_by(2) {
            if let Some((file, function)) = quoted.split_once("::") {
                refs.push((file.to_owned(), function.to_owned()));
            }
        }
    }
    refs
}

/// Whether `file` (under `crates/`) defines `function` as a test.
fn is_a_test(file: &str, function: &str) -> bool {
    let Ok(source) = std::fs::read_to_string(crates_dir().join(file)) else {
        return false;
    };
    let signature = format!("fn {function}(");
    let lines: Vec<&str> = source.lines().collect();
    lines.iter().enumerate().any(|(i, l)| {
        l.trim_start().starts_with(&signature)
            && lines[i.saturating_sub(3)..i]
                .iter()
                .any(|a| a.trim() == "#[test]")
    })
}

#[test]
fn every_listed_difference_names_a_test_that_exists() {
    let protocol = std::fs::read_to_string(crates_dir().join("../docs/PROTOCOL.md")).unwrap();
    let listed = differences(&protocol);
    let sections: std::collections::BTreeSet<&str> =
        listed.iter().map(|(s, _)| s.as_str()).collect();
    // The sections exist and are read (a renamed heading must not empty the check).
    assert!(
        sections.len() >= 6,
        "differences sections found: {sections:?}"
    );
    assert!(
        listed.len() >= 40,
        "only {} differences found",
        listed.len()
    );
    let mut problems = Vec::new();
    for (section, bullet) in &listed {
        let refs = test_refs(bullet);
        if refs.is_empty() {
            problems.push(format!("[{section}] names no test: {bullet}"));
        }
        for (file, function) in refs {
            if !is_a_test(&file, &function) {
                problems.push(format!(
                    "[{section}] names `{file}::{function}`, which is not a test: {bullet}"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_checker_reads_bullets_and_their_references() {
    let text = "## A\n- outside\n### Differences from the reference (x)\n\n- one, wrapped\n  here \
                (test: `aw/tests/a.rs::f`, `aw/tests/b.rs::g`)\n- two\n## B\n- not read\n";
    let listed = differences(text);
    assert_eq!(listed.len(), 2);
    assert_eq!(
        test_refs(&listed[0].1),
        vec![
            ("aw/tests/a.rs".to_owned(), "f".to_owned()),
            ("aw/tests/b.rs".to_owned(), "g".to_owned())
        ]
    );
    assert!(test_refs(&listed[1].1).is_empty());
    assert!(is_a_test(
        "aw/tests/protocol_differences.rs",
        "the_checker_reads_bullets_and_their_references"
    ));
    assert!(!is_a_test(
        "aw/tests/protocol_differences.rs",
        "differences"
    ));
}
