//! The preamble of a document, and the `> Key: value` lines documents declare things with.
//!
//! The preamble is every line before the first section: the lines before the first heading that
//! follows a leading level-1 title, or before the first heading when the document does not open
//! with a level-1 title. Frontmatter lines are not part of it. Fenced lines never declare
//! anything.

use crate::calendar::{Moment, parse_declared};
use crate::markdown::{Line, trim, trim_ascii_char, trim_start};
use crate::vocab::titles::folds_to;
use std::borrow::Cow;

/// Keys of a declared document date.
pub const DATE_KEYS: &[&str] = &["date", "fecha"];

/// The preamble's line range, given the index where the document proper starts (after any
/// frontmatter). The level-1 title line itself is skipped by [`lines`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preamble {
    /// First line.
    pub start: usize,
    /// The level-1 title's line, when the document opens with one.
    pub title: Option<usize>,
    /// One past the last line.
    pub end: usize,
}

/// Finds the preamble of scanned lines.
pub fn find(lines: &[Line<'_>], start: usize) -> Preamble {
    let start = start.min(lines.len());
    let heading_after = |from: usize| {
        lines[from..]
            .iter()
            .position(|l| l.heading.is_some())
            .map_or(lines.len(), |i| i + from)
    };
    let first = heading_after(start);
    match lines.get(first).and_then(|l| l.heading) {
        Some((1, _)) => Preamble {
            start,
            title: Some(first),
            end: heading_after(first + 1),
        },
        _ => Preamble {
            start,
            title: None,
            end: first,
        },
    }
}

/// The preamble's lines that may declare something: not the title, not fenced.
pub fn lines<'a, 'b>(lines: &'b [Line<'a>], p: Preamble) -> impl Iterator<Item = &'b Line<'a>> {
    lines[p.start..p.end]
        .iter()
        .enumerate()
        .filter(move |(i, l)| Some(p.start + i) != p.title && !l.fenced)
        .map(|(_, l)| l)
}

/// A `key: value` line: optional `>` quote markers, an optional `-`/`*` list marker, bold
/// markers anywhere (`> **Estado:** open`). Returns the key and the value, both trimmed.
pub fn key_value(line: &str) -> Option<(&str, Cow<'_, str>)> {
    let rest = unquote(line).1;
    let rest = crate::markdown::without_bullet(rest);
    // `:` is ASCII: the byte found is a char boundary. (`memchr`: a date is looked for on every
    // preamble line, and the long `Derived from …` lines have no colon.)
    let colon = memchr::memchr(b':', rest.as_bytes())?;
    let (key, value) = (&rest[..colon], &rest[colon + 1..]);
    let key = trim(trim_ascii_char(trim(key), b'*'));
    if key.is_empty() {
        return None;
    }
    // Most values have no `*`, so the two-byte search rarely runs.
    let value = if value.bytes().any(|b| b == b'*') && value.contains("**") {
        Cow::Owned(value.replace("**", "").trim().to_owned())
    } else {
        Cow::Borrowed(trim(value))
    };
    Some((key, value))
}

/// Splits leading `>` quote markers off a line: whether there were any, and the rest, trimmed.
fn unquote(line: &str) -> (bool, &str) {
    let mut rest = trim(line);
    let mut quoted = false;
    while let Some(r) = rest.strip_prefix('>') {
        quoted = true;
        rest = trim_start(r);
    }
    (quoted, rest)
}

/// The value of a blockquote line `> Key: value` whose folded key is one of `keys` (already
/// folded). Lines that are not quoted never match: prose that happens to say "Estado:" is not a
/// declaration.
pub fn quoted_value<'a>(line: &'a str, keys: &[&str]) -> Option<Cow<'a, str>> {
    let (key, value) = quoted(line)?;
    is_key(key, keys).then_some(value)
}

/// The key and value of a blockquote `> Key: value` line (see [`key_value`]); `None` for a line
/// that is not quoted.
// Always inlined: phase blocks ask this of every line, and most are settled by their first byte.
#[inline(always)]
pub fn quoted(line: &str) -> Option<(&str, Cow<'_, str>)> {
    // Most lines start with their text: a first byte that is neither `>` nor whitespace settles
    // it without trimming.
    match line.as_bytes().first() {
        Some(b'>') => {}
        Some(b) if b.is_ascii() && !crate::markdown::ascii_space(*b) => return None,
        _ if !trim_start(line).starts_with('>') => return None,
        _ => {}
    }
    key_value(line)
}

/// Whether a key folds to one of `keys` (already folded).
pub fn is_key(key: &str, keys: &[&str]) -> bool {
    keys.iter().any(|k| folds_to(key, k))
}

/// The first `Date:` / `Fecha:` line of the preamble (quoted or not) that holds a valid date.
pub fn declared_date(all: &[Line<'_>], p: Preamble) -> Option<Moment> {
    lines(all, p).find_map(|l| {
        let (key, value) = key_value(l.text)?;
        if !DATE_KEYS.iter().any(|k| folds_to(key, k)) {
            return None;
        }
        parse_declared(&value)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::markdown::scan;

    #[test]
    fn preamble_after_a_title_or_before_the_first_heading() {
        let doc = scan("# Plan 003 — x\n\n> Estado: open\n## Origin\n> Estado: done\n");
        let p = find(&doc, 0);
        assert_eq!((p.title, p.end), (Some(0), 3));
        let texts: Vec<_> = lines(&doc, p).map(|l| l.text).collect();
        assert_eq!(texts, ["", "> Estado: open"]);
        let no_title = scan("> Estado: open\n## Origin\n");
        assert_eq!(
            find(&no_title, 0),
            Preamble {
                start: 0,
                title: None,
                end: 1
            }
        );
        let fenced = scan("# T\n```\n> Estado: done\n```\n## A\n");
        assert_eq!(
            lines(&fenced, find(&fenced, 0))
                .filter(|l| l.text.contains("Estado"))
                .count(),
            0
        );
        let empty = scan("");
        assert_eq!(find(&empty, 5).end, 1);
    }

    #[test]
    fn quoted_key_values() {
        let keys = &["estado", "state"];
        assert_eq!(
            quoted_value("> **Estado:** open", keys).as_deref(),
            Some("open")
        );
        assert_eq!(quoted_value(">State: Done ", keys).as_deref(), Some("Done"));
        assert_eq!(
            quoted_value("> ESTADO: x **y**", keys).as_deref(),
            Some("x y")
        );
        assert_eq!(quoted_value("Estado: open", keys), None);
        assert_eq!(quoted_value("> Cierre: x", keys), None);
        assert_eq!(quoted_value("> Estado:", keys).as_deref(), Some(""));
        assert_eq!(
            key_value("- **Fecha:** 2026-01-02")
                .map(|kv| kv.1)
                .as_deref(),
            Some("2026-01-02")
        );
    }

    #[test]
    fn dates_in_the_preamble() {
        let doc = scan("# T\n> Derived from x\n> Date: 2026-02-03\n## A\nDate: 2026-09-09\n");
        let p = find(&doc, 0);
        assert_eq!(declared_date(&doc, p).unwrap().date(), "2026-02-03");
        let es = scan("# T\nFecha: mañana\n- Fecha: 2026-01-01 10:00\n");
        let d = declared_date(&es, find(&es, 0)).unwrap();
        assert!(d.precise);
    }
}
