//! The ownership marker every file `aw self install` writes carries, in a form valid for the
//! file's format: an HTML comment line in Markdown, a `#` comment line in TOML, the
//! `description` value of a generated JSON file. Install and uninstall touch only files that
//! carry it (or, for a descriptor, whose skill folder's SKILL.md does), and the doctor reads the
//! installing version from it.

/// The words that identify the marker, followed by `version=<aw version>`.
pub const MARKER_TAG: &str = "aw:installed version=";

/// What the marker says after the version.
const TAIL: &str =
    "written by `aw self install`; `aw self uninstall` removes it, edits are overwritten";

/// The marker's text for `version` (no comment syntax).
pub fn marker_text(version: &str) -> String {
    format!("{MARKER_TAG}{version} · {TAIL}")
}

/// The marker as a Markdown line (an HTML comment: hosts show it to no one).
pub fn markdown_marker(version: &str) -> String {
    format!("<!-- {} -->", marker_text(version))
}

/// The marker as a TOML (or shell) comment line.
pub fn hash_marker(version: &str) -> String {
    format!("# {}", marker_text(version))
}

/// The version a marker line names, when `line` is one of the marker's comment forms: the
/// Markdown comment, the `#` comment or the `//` comment (OpenCode's module), each whole.
fn line_version(line: &str, forms: &[(&str, &str)]) -> Option<String> {
    let line = line.trim_end_matches('\r');
    forms.iter().find_map(|(open, close)| {
        let rest = line.strip_prefix(open)?.strip_prefix(MARKER_TAG)?;
        if !line.ends_with(close) {
            return None;
        }
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '"')
            .unwrap_or(rest.len());
        let v = &rest[..end];
        (!v.is_empty()).then(|| v.to_owned())
    })
}

/// The version named by a generated JSON file's `description`, which ends with the marker text
/// as the writer puts it there.
fn json_version(text: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    let description = value.get("description")?.as_str()?;
    let at = description.find(MARKER_TAG)?;
    if at > 0 && !description[..at].ends_with(' ') {
        return None;
    }
    let rest = &description[at + MARKER_TAG.len()..];
    let version = rest.split_whitespace().next()?;
    (description[at..] == marker_text(version)).then(|| version.to_owned())
}

/// The aw version a file's marker names, when it carries one where aw's writers put it (the
/// exact inverse of them): in Markdown with a frontmatter, the HTML comment line right after
/// it; in a file without one, its first line (the HTML comment, a `#` comment opening a TOML
/// file, a `//` comment opening a JS module); in a JSON object, the end of its `description`.
/// The marker's words anywhere else (a person's skill quoting them) do not make a file aw's.
pub fn marker_version(text: &str) -> Option<String> {
    if text.trim_start().starts_with('{') {
        return json_version(text);
    }
    let split = super::render::split(text);
    let first = split.body.lines().next().unwrap_or_default();
    if split.head.is_empty() {
        line_version(first, &[("<!-- ", " -->"), ("# ", ""), ("// ", "")])
    } else {
        line_version(first, &[("<!-- ", " -->")])
    }
}

/// Whether `text` carries the marker at its place.
pub fn is_marked(text: &str) -> bool {
    marker_version(text).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_of_the_marker_names_its_version_at_its_place() {
        for line in [markdown_marker("1.2.3"), hash_marker("1.2.3")] {
            assert_eq!(
                marker_version(&format!("{line}\nb")).as_deref(),
                Some("1.2.3")
            );
        }
        let md = format!("---\nname: w\n---\n{}\n# w\n", markdown_marker("1.2.3"));
        assert_eq!(marker_version(&md).as_deref(), Some("1.2.3"));
        let js = format!("// {}\nimport x;\n", marker_text("1.2.3"));
        assert_eq!(marker_version(&js).as_deref(), Some("1.2.3"));
        let json = format!(
            "{{\"description\": \"aw's hooks. {}\"}}",
            marker_text("0.1.0")
        );
        assert_eq!(marker_version(&json).as_deref(), Some("0.1.0"));
        assert!(!is_marked("---\nname: w\n---\nmine\n"));
    }

    #[test]
    fn the_marker_words_elsewhere_do_not_make_a_file_ours() {
        let line = markdown_marker("1.2.3");
        // Quoted in a person's skill body, below the line after the frontmatter.
        assert!(!is_marked(&format!(
            "---\nname: w-notes\n---\n# Notes\naw writes `{line}`\n{line}\n"
        )));
        // A Markdown comment inside the frontmatter, or a `#` line after it.
        assert!(!is_marked(&format!(
            "---\nname: x\n# {}\n---\nbody\n",
            marker_text("1")
        )));
        assert!(!is_marked(&format!(
            "---\nname: x\n---\n{}\n",
            hash_marker("1")
        )));
        // Not on the first line of a file without frontmatter.
        assert!(!is_marked(&format!("a\n{}\n", hash_marker("1"))));
        // A marker line with more after its comment.
        assert!(!is_marked(&format!("{line} and mine\n")));
        // A JSON file mentioning it outside `description`, or not as the writer ends it.
        let other = format!("{{\"notes\": \"{}\"}}", marker_text("1"));
        assert!(!is_marked(&other));
        let mid = format!("{{\"description\": \"{} and mine\"}}", marker_text("1"));
        assert!(!is_marked(&mid));
    }
}
