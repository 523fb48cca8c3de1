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

/// The aw version a file's marker names, when it carries one.
pub fn marker_version(text: &str) -> Option<&str> {
    let at = text.find(MARKER_TAG)? + MARKER_TAG.len();
    let rest = &text[at..];
    let end = rest
        .find(|c: char| c.is_whitespace() || c == '"')
        .unwrap_or(rest.len());
    let v = &rest[..end];
    (!v.is_empty()).then_some(v)
}

/// Whether `text` carries the marker.
pub fn is_marked(text: &str) -> bool {
    marker_version(text).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_of_the_marker_names_its_version() {
        for line in [markdown_marker("1.2.3"), hash_marker("1.2.3")] {
            assert_eq!(marker_version(&format!("a\n{line}\nb")), Some("1.2.3"));
        }
        let json = format!("{{\"description\": \"{}\"}}", marker_text("0.1.0"));
        assert_eq!(marker_version(&json), Some("0.1.0"));
        assert!(!is_marked("---\nname: w\n---\nmine\n"));
    }
}
