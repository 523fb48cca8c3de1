//! YAML-style frontmatter as the spec grammar reads it: the first line, trimmed, is exactly
//! `---`, and a later line, trimmed, exactly `---` closes the block. Only flat `key: value`
//! entries are read; nothing else of YAML is needed.

use crate::markdown::Line;

/// What a document's frontmatter looks like.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frontmatter<'a> {
    /// The document does not open with `---`.
    Absent,
    /// `---` opens a block that never closes.
    Unclosed,
    /// A closed block.
    Closed {
        /// The `key: value` entries, in order (keys and values trimmed, values without
        /// surrounding quotes).
        entries: Vec<(&'a str, &'a str)>,
        /// The index of the first line after the closing `---`.
        body: usize,
    },
}

impl<'a> Frontmatter<'a> {
    /// The value of the first entry whose key is exactly `key`.
    pub fn get(&self, key: &str) -> Option<&'a str> {
        match self {
            Frontmatter::Closed { entries, .. } => {
                entries.iter().find(|(k, _)| *k == key).map(|e| e.1)
            }
            _ => None,
        }
    }

    /// The index of the first line of the document proper (0 unless a block closed).
    pub fn body(&self) -> usize {
        match self {
            Frontmatter::Closed { body, .. } => *body,
            _ => 0,
        }
    }
}

/// Reads the frontmatter of scanned lines. A byte-order mark before the first `---` is ignored.
pub fn read<'a>(lines: &[Line<'a>]) -> Frontmatter<'a> {
    let Some(first) = lines.first() else {
        return Frontmatter::Absent;
    };
    if first.text.trim_start_matches('\u{feff}').trim() != "---" {
        return Frontmatter::Absent;
    }
    let Some(end) = lines[1..].iter().position(|l| l.text.trim() == "---") else {
        return Frontmatter::Unclosed;
    };
    let entries = lines[1..=end]
        .iter()
        .filter_map(|l| {
            let (k, v) = l.text.split_once(':')?;
            let k = k.trim();
            (!k.is_empty() && !k.starts_with('#')).then(|| (k, unquote(v.trim())))
        })
        .collect();
    Frontmatter::Closed {
        entries,
        body: end + 2,
    }
}

/// Strips one pair of matching surrounding quotes.
fn unquote(v: &str) -> &str {
    for q in ['"', '\''] {
        if v.len() >= 2 && v.starts_with(q) && v.ends_with(q) {
            return &v[1..v.len() - 1];
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::markdown::scan;

    #[test]
    fn closed_unclosed_absent() {
        let text = "---\r\nstatus: \"ready-for-plan\"\ndate: 2026-01-02\n# comment: no\n---\n# T\n";
        let lines = scan(text);
        let fm = read(&lines);
        assert_eq!(fm.get("status"), Some("ready-for-plan"));
        assert_eq!(fm.get("date"), Some("2026-01-02"));
        assert_eq!(fm.get("Status"), None);
        assert_eq!(fm.body(), 5);
        assert_eq!(read(&scan("---\nstatus: x\n# T\n")), Frontmatter::Unclosed);
        assert_eq!(read(&scan("# T\n---\n")), Frontmatter::Absent);
        assert_eq!(read(&scan("")), Frontmatter::Absent);
        assert_eq!(
            read(&scan("\u{feff}--- \nstatus: 'draft'\n ---\n")).get("status"),
            Some("draft")
        );
    }
}
