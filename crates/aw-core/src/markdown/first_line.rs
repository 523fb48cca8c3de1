//! The first line(s) of a section body: the non-blank ones as written, or the first one that
//! says something (not a list marker on its own, not an unfilled template placeholder).

/// The marker every unfilled template placeholder starts with (`_[AI: …]_`).
pub const PLACEHOLDER: &str = "_[AI:";

/// The non-blank lines of `body`, in order, each without its line ending and otherwise as
/// written (indentation kept).
pub fn nonblank_lines(body: &str) -> impl Iterator<Item = &str> {
    body.lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.trim().is_empty())
}

/// The first `limit` non-blank lines of `body`, as written (how `resume-summary` quotes the next
/// step).
pub fn first_lines(body: &str, limit: usize) -> Vec<String> {
    nonblank_lines(body)
        .take(limit)
        .map(str::to_owned)
        .collect()
}

/// The first line with text among `lines`, trimmed.
pub fn first_nonblank<'a>(lines: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    lines.into_iter().map(str::trim).find(|l| !l.is_empty())
}

/// The first non-blank line of `body`, trimmed.
pub fn first_nonblank_line(body: &str) -> Option<&str> {
    first_nonblank(body.lines())
}

/// A trimmed line without its `- ` or `* ` bullet (unchanged when it has none).
pub fn without_bullet(line: &str) -> &str {
    line.strip_prefix("- ")
        .or_else(|| line.strip_prefix("* "))
        .unwrap_or(line)
}

/// The first meaningful line of a section body, trimmed and without its bullet: a bare bullet
/// (`-`, `*`), an empty checkbox (`- [ ]`), an unfilled `_[AI: …]_` placeholder and a
/// whole-line HTML comment (a template's hint) say nothing and are skipped.
pub fn first_meaningful_line(body: &str) -> Option<&str> {
    body.lines()
        .map(|l| without_bullet(l.trim()).trim())
        .filter(|t| !t.is_empty() && !matches!(*t, "-" | "*" | "[ ]" | "- [ ]"))
        .find(|t| !is_placeholder(t))
}

/// A template placeholder: an unfilled `_[AI: …]_` or a whole-line HTML comment.
fn is_placeholder(line: &str) -> bool {
    line.contains(PLACEHOLDER) || (line.starts_with("<!--") && line.ends_with("-->"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_lines_skip_blanks() {
        assert_eq!(first_lines("a\n\n b\r\nc\nd", 3), ["a", " b", "c"]);
        assert!(first_lines("  \n", 3).is_empty());
        assert_eq!(nonblank_lines("\n\t\n  x \r\n").next(), Some("  x "));
    }

    #[test]
    fn first_nonblank_is_trimmed() {
        assert_eq!(
            first_nonblank_line("\n \n  two words \nthree"),
            Some("two words")
        );
        assert_eq!(first_nonblank_line(" \r\n\t"), None);
        assert_eq!(first_nonblank(["", " x "]), Some("x"));
        assert_eq!(first_nonblank_line("- [ ] task"), Some("- [ ] task"));
    }

    #[test]
    fn meaningful_lines_skip_template_leftovers() {
        let body = "\n- \n*\n<!-- Who opened this session -->\n_[AI: fill me]_\n- - [ ]\n  -   the real origin  \nnext";
        assert_eq!(first_meaningful_line(body), Some("the real origin"));
        assert_eq!(first_meaningful_line("* starred"), Some("starred"));
        assert_eq!(first_meaningful_line("- - [ ]\nx"), Some("x"));
        assert_eq!(
            first_meaningful_line("- [ ]\n* [ ]\n- [x] done"),
            Some("[x] done")
        );
        assert_eq!(first_meaningful_line("<!-- a --> b"), Some("<!-- a --> b"));
        assert_eq!(first_meaningful_line("-\n<!-- hint -->\n"), None);
        assert_eq!(first_meaningful_line(""), None);
        assert_eq!(without_bullet("-x"), "-x");
    }
}
