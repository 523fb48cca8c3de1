//! Where the block sits in a file: its markers, finding it, and splicing a new block in.
//!
//! The block lives between `<!-- <NS>-PROJECT-START -->` and `<!-- <NS>-PROJECT-END -->`.
//! Files written by old releases carry `QTC-PROJECT` markers instead; those are read, and the
//! next write replaces them with the namespaced markers rather than appending a second block.

/// The legacy marker prefix.
const LEGACY: &str = "QTC";

/// The start marker for a namespace.
pub fn start_marker(ns: &str) -> String {
    format!("<!-- {}-PROJECT-START -->", ns.to_uppercase())
}

/// The end marker for a namespace.
pub fn end_marker(ns: &str) -> String {
    format!("<!-- {}-PROJECT-END -->", ns.to_uppercase())
}

/// Which markers a found block uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkerKind {
    /// `<NS>-PROJECT`.
    Namespaced,
    /// The legacy `QTC-PROJECT`.
    Legacy,
}

/// A block found in a text: byte range from the start marker through the end marker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Byte offset of the start marker.
    pub start: usize,
    /// Byte offset just past the end marker.
    pub end: usize,
    /// Byte offset just past the start marker (where the inner text begins).
    pub inner_start: usize,
    /// Byte offset of the end marker (where the inner text ends).
    pub inner_end: usize,
    /// The markers used.
    pub kind: MarkerKind,
}

impl Found {
    /// The text between the markers.
    pub fn inner<'a>(&self, text: &'a str) -> &'a str {
        &text[self.inner_start..self.inner_end]
    }
}

fn find_pair(text: &str, start: &str, end: &str, kind: MarkerKind) -> Option<Found> {
    let s = text.find(start)?;
    let inner_start = s + start.len();
    let e = inner_start + text[inner_start..].find(end)?;
    Some(Found {
        start: s,
        end: e + end.len(),
        inner_start,
        inner_end: e,
        kind,
    })
}

/// The first start marker and the first end marker after it: namespaced markers first, then the
/// legacy ones.
pub fn find(text: &str, ns: &str) -> Option<Found> {
    find_pair(
        text,
        &start_marker(ns),
        &end_marker(ns),
        MarkerKind::Namespaced,
    )
    .or_else(|| {
        find_pair(
            text,
            &start_marker(LEGACY),
            &end_marker(LEGACY),
            MarkerKind::Legacy,
        )
    })
}

/// What writing the block does to one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// The file did not exist.
    Created,
    /// The block was replaced with different bytes.
    Updated,
    /// The block already had these bytes.
    Unchanged,
    /// The file had no block; it was added at the end.
    Appended,
}

impl Action {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Created => "created",
            Action::Updated => "updated",
            Action::Unchanged => "unchanged",
            Action::Appended => "appended",
        }
    }
}

/// The line ending a file uses: CRLF when its first line ends with one.
pub fn eol_of(text: &str) -> &'static str {
    match text.find('\n') {
        Some(i) if i > 0 && text.as_bytes()[i - 1] == b'\r' => "\r\n",
        _ => "\n",
    }
}

/// Puts `block` (markers included, no trailing newline) into `current` (`None`: the file does
/// not exist). Returns the action and the new text (`None` when nothing changes). Text outside
/// the replaced range is kept byte for byte.
pub fn splice(
    current: Option<&str>,
    found: Option<&Found>,
    block: &str,
) -> (Action, Option<String>) {
    let Some(text) = current else {
        return (Action::Created, Some(format!("{block}\n")));
    };
    if let Some(f) = found {
        if &text[f.start..f.end] == block {
            return (Action::Unchanged, None);
        }
        let out = format!("{}{}{}", &text[..f.start], block, &text[f.end..]);
        return (Action::Updated, Some(out));
    }
    let eol = eol_of(text);
    let mut out = text.to_owned();
    if !out.is_empty() {
        if !out.ends_with('\n') {
            out.push_str(eol);
        }
        if !out.ends_with(&format!("{eol}{eol}")) && !out.ends_with("\n\n") {
            out.push_str(eol);
        }
    }
    out.push_str(block);
    out.push_str(eol);
    (Action::Appended, Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    const NEW: &str = "<!-- WORKFLOW-PROJECT-START -->\nnew\n<!-- WORKFLOW-PROJECT-END -->";

    #[test]
    fn markers_follow_the_namespace() {
        assert_eq!(start_marker("acme-2"), "<!-- ACME-2-PROJECT-START -->");
        assert_eq!(end_marker("workflow"), "<!-- WORKFLOW-PROJECT-END -->");
    }

    #[test]
    fn missing_file_is_created() {
        let (a, t) = splice(None, None, NEW);
        assert_eq!(a, Action::Created);
        assert_eq!(t.unwrap(), format!("{NEW}\n"));
    }

    #[test]
    fn existing_block_is_replaced_and_the_rest_kept() {
        let text = "# Mine\r\nkeep  \n<!-- WORKFLOW-PROJECT-START -->\nold\n<!-- WORKFLOW-PROJECT-END -->\ntail\n<!-- WORKFLOW-PROJECT-END -->";
        let f = find(text, "workflow").unwrap();
        assert_eq!(f.kind, MarkerKind::Namespaced);
        assert_eq!(f.inner(text), "\nold\n");
        let (a, t) = splice(Some(text), Some(&f), NEW);
        assert_eq!(a, Action::Updated);
        assert_eq!(
            t.unwrap(),
            format!("# Mine\r\nkeep  \n{NEW}\ntail\n<!-- WORKFLOW-PROJECT-END -->")
        );
        let again = format!("x\n{NEW}\n");
        let f = find(&again, "workflow").unwrap();
        assert_eq!(
            splice(Some(&again), Some(&f), NEW),
            (Action::Unchanged, None)
        );
    }

    #[test]
    fn legacy_markers_are_replaced_not_duplicated() {
        let text = "intro\n<!-- QTC-PROJECT-START -->\nold\n<!-- QTC-PROJECT-END -->\nafter\n";
        let f = find(text, "workflow").unwrap();
        assert_eq!(f.kind, MarkerKind::Legacy);
        let (a, t) = splice(Some(text), Some(&f), NEW);
        assert_eq!(a, Action::Updated);
        let t = t.unwrap();
        assert_eq!(t, format!("intro\n{NEW}\nafter\n"));
        assert!(!t.contains("QTC"));
        assert_eq!(t.matches("PROJECT-START").count(), 1);
    }

    #[test]
    fn namespaced_markers_win_over_legacy_ones() {
        let text = "<!-- QTC-PROJECT-START -->a<!-- QTC-PROJECT-END -->\n<!-- ACME-PROJECT-START -->b<!-- ACME-PROJECT-END -->";
        let f = find(text, "acme").unwrap();
        assert_eq!(f.inner(text), "b");
        assert_eq!(find("<!-- ACME-PROJECT-START --> no end", "acme"), None);
    }

    #[test]
    fn appending_separates_with_one_blank_line() {
        for (before, expect) in [
            ("", format!("{NEW}\n")),
            ("user", format!("user\n\n{NEW}\n")),
            ("user\n", format!("user\n\n{NEW}\n")),
            ("user\n\n", format!("user\n\n{NEW}\n")),
            ("user\r\n", format!("user\r\n\r\n{NEW}\r\n")),
        ] {
            let (a, t) = splice(Some(before), None, NEW);
            assert_eq!(a, Action::Appended);
            assert_eq!(t.unwrap(), expect, "{before:?}");
        }
    }
}
