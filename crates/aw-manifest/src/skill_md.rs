//! The `metadata:` block of a SKILL.md frontmatter, read the one narrow way aw reads it.
//!
//! The frontmatter is `---\n` at byte 0 up to the first later `\n---` (so CRLF files never have
//! one). Inside it, the first line `metadata:` (trailing whitespace allowed) opens the block; its
//! children run until the first line that starts with a non-space, skipping blank lines. The
//! first child's indentation is the child indentation; a direct child is a line with exactly
//! that indentation. `metadata.version` and the capability descriptor locator are both read here.

use crate::js;

/// The frontmatter block (between the opening `---` and the closing one), or `None` when the
/// text has no closed frontmatter.
pub fn skill_md_frontmatter(text: &str) -> Option<&str> {
    let rest = text.strip_prefix("---\n")?;
    Some(&rest[..rest.find("\n---")?])
}

/// The scalar value of the first top-level `key:` line of the frontmatter (`name`, `version`),
/// read as [`skill_md_metadata`] reads a metadata child; `None` when absent or empty.
pub fn skill_md_field(text: &str, key: &str) -> Option<String> {
    skill_md_frontmatter(text)?
        .split('\n')
        .find_map(|line| scalar(line, key))
}

/// `value` of a `key: value` line, trimmed and without one pair of surrounding quotes.
fn scalar(line: &str, key: &str) -> Option<String> {
    let v = line.strip_prefix(key)?.strip_prefix(':')?;
    let v = v.trim_matches(js::is_js_space);
    let v = ['"', '\'']
        .iter()
        .find_map(|q| v.strip_prefix(*q)?.strip_suffix(*q))
        .unwrap_or(v);
    (!v.is_empty()).then(|| v.to_owned())
}

/// The direct children of `metadata:`, without their indentation, in order.
pub(crate) fn metadata_children(text: &str) -> Option<Vec<&str>> {
    let block = skill_md_frontmatter(text)?;
    let mut lines = block.split('\n');
    lines.find(|l| {
        l.strip_prefix("metadata:")
            .is_some_and(|tail| tail.chars().all(js::is_js_space))
    })?;
    let mut children = Vec::new();
    for line in lines {
        if line.chars().all(js::is_js_space) {
            continue;
        }
        if !line.starts_with(js::is_js_space) {
            break;
        }
        children.push(line);
    }
    let first = children.first()?;
    let indent = &first[..first.len() - first.trim_start_matches(js::is_js_space).len()];
    Some(
        children
            .iter()
            .filter_map(|line| line.strip_prefix(indent))
            .filter(|rest| !rest.starts_with(js::is_js_space))
            .collect(),
    )
}

/// The scalar value of the first direct child `key:` of `metadata:`, trimmed and without one
/// pair of surrounding quotes; `None` when there is no such child or its value is empty.
pub fn skill_md_metadata(text: &str, key: &str) -> Option<String> {
    metadata_children(text)?
        .into_iter()
        .find_map(|child| scalar(child, key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_direct_metadata_child() {
        let text = "---\nname: x\nmetadata:\n  version: '1.0.0'\n  workline-capability-descriptor: \"d.json#sha256=ab\"\n---\nbody\n";
        assert_eq!(
            skill_md_metadata(text, "workline-capability-descriptor").as_deref(),
            Some("d.json#sha256=ab")
        );
        assert_eq!(skill_md_metadata(text, "version").as_deref(), Some("1.0.0"));
        assert_eq!(skill_md_metadata(text, "missing"), None);
    }

    #[test]
    fn ignores_what_is_not_a_direct_child() {
        let nested = "---\nmetadata:\n  a:\n    key: v\n---\n";
        assert_eq!(skill_md_metadata(nested, "key"), None);
        let top = "---\nkey: v\nmetadata:\n  a: 1\n---\n";
        assert_eq!(skill_md_metadata(top, "key"), None);
        assert_eq!(
            skill_md_metadata("---\r\nmetadata:\r\n  key: v\r\n---\r\n", "key"),
            None
        );
        assert_eq!(
            skill_md_metadata("---\nmetadata:\n  key:\n---\n", "key"),
            None
        );
        // A longer key with the same prefix is another key.
        assert_eq!(
            skill_md_metadata("---\nmetadata:\n  keys: v\n---\n", "key"),
            None
        );
    }

    #[test]
    fn top_level_fields_and_the_closed_frontmatter() {
        let text = "---\nname: 'acme'\nmetadata:\n  name: inner\n  version: 2\nversion: \"1.0\"\n---\n# x\n";
        assert_eq!(skill_md_field(text, "name").as_deref(), Some("acme"));
        assert_eq!(skill_md_field(text, "version").as_deref(), Some("1.0"));
        assert_eq!(skill_md_field(text, "author"), None);
        assert!(skill_md_frontmatter("---\nname: a\n").is_none());
        assert!(skill_md_frontmatter("name: a\n---\n").is_none());
    }
}
