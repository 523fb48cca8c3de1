//! The two `.gitignore` sections aw owns, and how missing entries are merged into a file without
//! touching the user's lines.

/// Header of the runtime section (an identifier shared with the reference CLI; keep verbatim).
pub const RUNTIME_HEADER: &str = "# agent-workflow runtime (machine-specific — do not commit)";
/// Header of the multi-root visibility section (an identifier; keep verbatim).
pub const VISIBILITY_HEADER: &str =
    "# Multi-root visibility (machine-specific paths — do not commit)";

/// Entries of the runtime section.
pub fn runtime_entries(ns: &str) -> Vec<String> {
    vec![
        format!(".{ns}/sessions/"),
        format!(".{ns}/.lock"),
        format!(".{ns}/processes.json"),
        format!(".{ns}/launch/"),
        // An interrupted publish's journal belongs to this machine's workspace; committed, it
        // would travel to every clone (where aw refuses to replay it, and says so).
        format!(".{ns}/publish-journal.json"),
        "docs/logs/".to_owned(),
        // The temporary files aw writes through (a killed write can leave one behind).
        ".aw-tmp-*".to_owned(),
    ]
}

/// Entries of the visibility section.
pub fn visibility_entries() -> Vec<String> {
    vec![
        ".claude/settings.local.json*".to_owned(),
        ".codex/config.toml*".to_owned(),
    ]
}

/// The entries no line of `text` carries (a line counts when, trimmed, it equals the entry).
pub fn missing_entries<'e>(text: &str, entries: &'e [String]) -> Vec<&'e String> {
    let present: Vec<&str> = text.split('\n').map(str::trim).collect();
    entries
        .iter()
        .filter(|e| !present.contains(&e.trim()))
        .collect()
}

/// Merges a section into `.gitignore` text; `None` when every entry is already there.
///
/// An entry counts as present when any line of the file, trimmed, equals it. Missing entries go
/// after the last consecutive non-empty line following the header when the header exists;
/// otherwise the section is appended after one blank line. The file's line ending (CRLF or LF)
/// is kept.
pub fn merge(text: &str, header: &str, entries: &[String]) -> Option<String> {
    let missing = missing_entries(text, entries);
    if missing.is_empty() {
        return None;
    }
    let eol = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    if let Some(h) = lines.iter().position(|l| l.trim() == header) {
        let mut last = h;
        while lines.get(last + 1).is_some_and(|l| !l.trim().is_empty()) {
            last += 1;
        }
        let mut out = String::with_capacity(text.len() + 64);
        for l in &lines[..=last] {
            out.push_str(l);
        }
        if !out.ends_with('\n') {
            out.push_str(eol);
        }
        for e in &missing {
            out.push_str(e);
            out.push_str(eol);
        }
        for l in &lines[last + 1..] {
            out.push_str(l);
        }
        return Some(out);
    }
    let body = text.trim_end();
    let mut out = String::new();
    if !body.is_empty() {
        out.push_str(body);
        out.push_str(eol);
        out.push_str(eol);
    }
    out.push_str(header);
    out.push_str(eol);
    for e in &missing {
        out.push_str(e);
        out.push_str(eol);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rt() -> Vec<String> {
        runtime_entries("workflow")
    }

    #[test]
    fn empty_file_gets_just_the_section() {
        assert_eq!(
            merge("", RUNTIME_HEADER, &rt()).unwrap(),
            format!(
                "{RUNTIME_HEADER}\n.workflow/sessions/\n.workflow/.lock\n.workflow/processes.json\n.workflow/launch/\n.workflow/publish-journal.json\ndocs/logs/\n.aw-tmp-*\n"
            )
        );
    }

    #[test]
    fn missing_header_appends_after_one_blank_line() {
        let out = merge("target/\n\n\n", RUNTIME_HEADER, &rt()).unwrap();
        assert!(out.starts_with(&format!(
            "target/\n\n{RUNTIME_HEADER}\n.workflow/sessions/\n"
        )));
        assert!(out.ends_with("docs/logs/\n.aw-tmp-*\n"));
    }

    #[test]
    fn present_entries_are_not_repeated_and_full_sections_are_left_alone() {
        let text = format!("  .workflow/.lock  \n{RUNTIME_HEADER}\n.workflow/sessions/\n");
        let out = merge(&text, RUNTIME_HEADER, &rt()).unwrap();
        assert_eq!(out.matches(".workflow/.lock").count(), 1);
        assert_eq!(merge(&out, RUNTIME_HEADER, &rt()), None);
    }

    #[test]
    fn header_present_inserts_after_its_run_of_lines() {
        let text = format!("a\n{RUNTIME_HEADER}\n.workflow/sessions/\nmine\n\nother\n");
        let out = merge(&text, RUNTIME_HEADER, &rt()).unwrap();
        assert_eq!(
            out,
            format!(
                "a\n{RUNTIME_HEADER}\n.workflow/sessions/\nmine\n.workflow/.lock\n.workflow/processes.json\n.workflow/launch/\n.workflow/publish-journal.json\ndocs/logs/\n.aw-tmp-*\n\nother\n"
            )
        );
    }

    #[test]
    fn crlf_is_kept() {
        let text = format!("a\r\n{RUNTIME_HEADER}\r\n.workflow/sessions/");
        let out = merge(&text, RUNTIME_HEADER, &rt()).unwrap();
        assert_eq!(
            out,
            format!(
                "a\r\n{RUNTIME_HEADER}\r\n.workflow/sessions/\r\n.workflow/.lock\r\n.workflow/processes.json\r\n.workflow/launch/\r\n.workflow/publish-journal.json\r\ndocs/logs/\r\n.aw-tmp-*\r\n"
            )
        );
        let appended = merge("x\r\n", VISIBILITY_HEADER, &visibility_entries()).unwrap();
        assert_eq!(
            appended,
            format!(
                "x\r\n\r\n{VISIBILITY_HEADER}\r\n.claude/settings.local.json*\r\n.codex/config.toml*\r\n"
            )
        );
        assert!(!appended.replace("\r\n", "").contains('\n'));
    }

    proptest::proptest! {
        #[test]
        fn merging_is_idempotent_and_keeps_user_lines(text in "([a-z./# *]{0,12}(\n|\r\n)?){0,8}") {
            let merged = merge(&text, RUNTIME_HEADER, &rt()).unwrap_or_else(|| text.clone());
            proptest::prop_assert_eq!(merge(&merged, RUNTIME_HEADER, &rt()), None);
            for line in text.lines().map(str::trim_end).filter(|l| !l.trim().is_empty()) {
                proptest::prop_assert!(merged.contains(line));
            }
        }
    }
}
