//! Markdown primitives shared by every document parser: fence-aware line scanning, headings,
//! sections, key/value lines, case and accent folding, and a section's first lines, in English
//! and in the reference's Spanish.
//!
//! CRLF text reads exactly like LF text: a trailing `\r` is dropped from every line.

mod first_line;
mod fold;
mod trim;

pub use first_line::{
    PLACEHOLDER, first_lines, first_meaningful_line, first_nonblank, first_nonblank_line,
    nonblank_lines, without_bullet,
};
use fold::folded_chars;
pub(crate) use fold::{ascii_fold_eq, fold_char};
pub use fold::{fold, fold_eq};
pub(crate) use trim::{ascii_space, trim_ascii_char};
pub use trim::{trim, trim_end, trim_start};

/// One scanned line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line<'a> {
    /// The line without its line ending.
    pub text: &'a str,
    /// Inside a fenced code block (fence markers included).
    pub fenced: bool,
    /// `(level, title)` when the line is an ATX heading outside any fence.
    pub heading: Option<(usize, &'a str)>,
}

/// Splits text into lines, flagging fenced lines and headings. A trimmed line starting with three
/// or more backticks or tildes opens a fence, which closes on a trimmed line made only of the same
/// character, at least as long. Headings are `#{1,6}`, whitespace, then text; indentation is
/// allowed.
pub fn scan(text: &str) -> Vec<Line<'_>> {
    // Documents average a few dozen bytes a line: starting near the final size spares the
    // repeated grow-and-copy that showed in profiles of large boards.
    let mut out = Vec::with_capacity(text.len() / 24 + 1);
    let mut fence: Option<(char, usize)> = None;
    // `memchr` finds the newlines several times faster than `str::split` on short lines, and
    // scanning is most of the cost of a large status board. `\n` is ASCII, so every cut is on a
    // char boundary; the last piece runs to the end, as `split` would give it.
    let newline = Newline::new();
    let bytes = text.as_bytes();
    let mut next = Some(0);
    while let Some(start) = next {
        let end = newline
            .find(&bytes[start..])
            .map_or(bytes.len(), |i| start + i);
        next = (end < bytes.len()).then_some(end + 1);
        let raw = &text[start..end];
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        // Most lines open with a plain ASCII char, neither whitespace nor `#`, a backtick or a
        // tilde: such a line is no heading and no fence marker, and it cannot close the open
        // fence (whose char it does not start with), so nothing needs trimming. An empty line
        // neither opens nor closes anything either.
        if line
            .as_bytes()
            .first()
            .is_none_or(|&b| b.is_ascii() && !ascii_space(b) && !matches!(b, b'#' | b'`' | b'~'))
        {
            out.push(Line {
                text: line,
                fenced: fence.is_some(),
                heading: None,
            });
            continue;
        }
        out.push(line_in(line, &mut fence, |_| true));
    }
    out
}

/// One line, given the fence open before it: a line of that fence (closing it when it should),
/// the opening line of a fence (when `may_open` accepts it), or a heading or plain line.
#[inline]
fn line_in<'a>(
    line: &'a str,
    fence: &mut Option<(char, usize)>,
    may_open: impl FnOnce((char, usize)) -> bool,
) -> Line<'a> {
    let trimmed = trim(line);
    if let Some(open) = *fence {
        if closes_fence(trimmed, open) {
            *fence = None;
        }
        return Line {
            text: line,
            fenced: true,
            heading: None,
        };
    }
    if let Some(open) = opens_fence(trimmed).filter(|f| may_open(*f)) {
        *fence = Some(open);
        return Line {
            text: line,
            fenced: true,
            heading: None,
        };
    }
    Line {
        text: line,
        fenced: false,
        heading: heading(trimmed),
    }
}

/// The fence a trimmed line opens: its character and run length (three or more backticks or
/// tildes).
#[inline]
fn opens_fence(trimmed: &str) -> Option<(char, usize)> {
    let ch @ ('`' | '~') = trimmed.chars().next()? else {
        return None;
    };
    let run = trimmed.chars().take_while(|c| *c == ch).count();
    (run >= 3).then_some((ch, run))
}

/// Whether a trimmed line closes the fence `open`: only its character, at least as long.
#[inline]
fn closes_fence(trimmed: &str, (ch, len): (char, usize)) -> bool {
    let run = trimmed.chars().take_while(|c| *c == ch).count();
    run >= len && run == trimmed.chars().count()
}

/// [`scan`] for a text whose own structure must survive being written back with more text
/// after it (the project block): a fence that never closes is no fence. Its opening line is
/// read as plain text and the lines after it as if it were not there, so an unclosed code fence
/// in a person's note cannot swallow the headings that follow it. Linear: a fence opens only
/// when a later line made only of its character is at least as long.
pub fn scan_closed(text: &str) -> Vec<Line<'_>> {
    let raw: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    // For each line, the longest run of backticks and of tildes that a line after it is made of.
    let mut longest_after = vec![(0usize, 0usize); raw.len() + 1];
    for (i, l) in raw.iter().enumerate().rev() {
        let (mut ticks, mut tildes) = longest_after[i + 1];
        let t = trim(l);
        let n = t.chars().count();
        if n > 0 && t.chars().all(|c| c == '`') {
            ticks = ticks.max(n);
        } else if n > 0 && t.chars().all(|c| c == '~') {
            tildes = tildes.max(n);
        }
        longest_after[i] = (ticks, tildes);
    }
    let mut fence: Option<(char, usize)> = None;
    raw.iter()
        .enumerate()
        .map(|(i, line)| {
            let closable = |(ch, len): (char, usize)| {
                let (ticks, tildes) = longest_after[i + 1];
                (if ch == '`' { ticks } else { tildes }) >= len
            };
            line_in(line, &mut fence, closable)
        })
        .collect()
}

/// Finds newlines, set up once per document: `memchr`'s one-shot search picks its
/// implementation and prepares its needle on every call, which on lines a few dozen bytes long
/// cost as much as the search.
struct Newline {
    #[cfg(target_arch = "x86_64")]
    avx2: Option<memchr::arch::x86_64::avx2::memchr::One>,
    any: memchr::arch::all::memchr::One,
}

impl Newline {
    fn new() -> Self {
        Newline {
            #[cfg(target_arch = "x86_64")]
            avx2: memchr::arch::x86_64::avx2::memchr::One::new(b'\n'),
            any: memchr::arch::all::memchr::One::new(b'\n'),
        }
    }

    /// The offset of the first newline in `haystack`.
    fn find(&self, haystack: &[u8]) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = &self.avx2 {
            return avx2.find(haystack);
        }
        self.any.find(haystack)
    }
}

/// The ATX heading a line is on its own (no fence around it): `(level, title)`.
pub fn heading_of(line: &str) -> Option<(usize, &str)> {
    heading(trim(line))
}

/// `^(#{1,6})\s+(\S.*)$` on a trimmed line.
fn heading(trimmed: &str) -> Option<(usize, &str)> {
    let level = trimmed.bytes().take_while(|b| *b == b'#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    let rest = &trimmed[level..];
    if !rest.starts_with(|c: char| c.is_whitespace()) {
        return None;
    }
    let title = trim_start(rest);
    (!title.is_empty()).then_some(title).map(|t| (level, t))
}

/// The body under the first heading whose folded title is one of `titles` (compared folded),
/// up to the next heading of the same or a higher level, trimmed. Fenced `#` lines neither open
/// nor close a section. Aliases are tried in order, so the first alias found wins.
pub fn section(text: &str, titles: &[&str]) -> Option<String> {
    section_any(&scan(text), titles)
}

/// [`section`] over already scanned lines (to scan a document once and read many sections),
/// trying each alias in order.
pub fn section_any(lines: &[Line<'_>], titles: &[&str]) -> Option<String> {
    // One pass over the headings instead of one per alias, and no folded copy of each alias:
    // the first alias (in `titles` order) that any heading matches wins, at its first heading.
    let mut best: Option<(usize, usize)> = None;
    for (i, l) in lines.iter().enumerate() {
        let Some((_, title)) = l.heading else {
            continue;
        };
        let limit = best.map_or(titles.len(), |(alias, _)| alias);
        if let Some(alias) = titles[..limit]
            .iter()
            .position(|t| folded_chars(trim(title)).eq(folded_chars(trim(t))))
        {
            best = Some((alias, i));
            if alias == 0 {
                break;
            }
        }
    }
    best.map(|(_, start)| section_body(lines, start))
}

/// One folded title's section over already scanned lines.
pub fn section_in(lines: &[Line<'_>], folded_title: &str) -> Option<String> {
    let start = lines.iter().position(|l| {
        l.heading
            .is_some_and(|(_, title)| fold_eq(title, folded_title))
    })?;
    Some(section_body(lines, start))
}

/// The body of the section whose heading is `lines[start]`: up to the next heading of the same or
/// a higher level, trimmed.
fn section_body(lines: &[Line<'_>], start: usize) -> String {
    let level = lines[start].heading.map(|(l, _)| l).unwrap_or(1);
    let body: Vec<&str> = lines[start + 1..]
        .iter()
        .take_while(|l| l.heading.is_none_or(|(lv, _)| lv > level))
        .map(|l| l.text)
        .collect();
    body.join("\n").trim().to_owned()
}

/// The value of the first `key: value` (or `key = value`) line, with optional list marker and
/// bold: `^\s*[-*]?\s*\*{0,2}KEY\*{0,2}\s*[:=]\s*(.+)$`, case-insensitive. Every alias is tried in
/// order.
pub fn value(text: &str, keys: &[&str]) -> Option<String> {
    value_in(text.split('\n'), keys)
}

/// [`value`] over lines already split (each may still end in `\r`).
pub fn value_in<'a>(lines: impl IntoIterator<Item = &'a str>, keys: &[&str]) -> Option<String> {
    // One pass over the lines instead of one per alias: the first alias (in `keys` order) that
    // any line gives a value for wins, with its first such line.
    let mut best: Option<(usize, &str)> = None;
    for raw in lines {
        let limit = best.map_or(keys.len(), |(alias, _)| alias);
        if limit == 0 {
            break;
        }
        let Some((name, v)) = key_value(raw) else {
            continue;
        };
        if let Some(alias) = keys[..limit]
            .iter()
            .position(|k| folded_chars(name).eq(folded_chars(k.trim())))
        {
            best = Some((alias, v));
        }
    }
    best.map(|(_, v)| v.to_owned())
}

/// A `key: value` line's key (as written, untrimmed ones refused) and non-empty value.
fn key_value(raw: &str) -> Option<(&str, &str)> {
    let line = raw.strip_suffix('\r').unwrap_or(raw);
    let mut rest = line.trim_start();
    if let Some(r) = rest.strip_prefix(['-', '*']) {
        // `*` could also open bold; only take it as a list marker when bold still fits.
        if !r.starts_with('*') || r.starts_with("**") {
            rest = r.trim_start();
        }
    }
    let rest = rest
        .strip_prefix("**")
        .or_else(|| rest.strip_prefix('*'))
        .unwrap_or(rest);
    let (name, after) = split_key(rest)?;
    let name = name.trim_end_matches('*').trim_end();
    if name.len() != name.trim().len() {
        return None;
    }
    // `**Key:** value` puts the closing bold after the colon; it is not part of the value.
    let v = after.trim().trim_start_matches('*').trim_start();
    (!v.is_empty()).then_some((name, v))
}

/// Splits at the first `:` or `=` (both ASCII, so the byte found is a char boundary).
fn split_key(s: &str) -> Option<(&str, &str)> {
    let i = s.bytes().position(|b| b == b':' || b == b'=')?;
    Some((&s[..i], &s[i + 1..]))
}

/// Bilingual heading and key groups: the reference's Spanish forms and our English ones.
pub mod aliases {
    /// `## Objective`.
    pub const OBJECTIVE: &[&str] = &["Objective", "Objetivo"];
    /// `## Origin`.
    pub const ORIGIN: &[&str] = &["Origin", "Origen"];
    /// `## Deferred`.
    pub const DEFERRED: &[&str] = &["Deferred", "Diferido", "Diferidos"];
    /// `## Excluded`.
    pub const EXCLUDED: &[&str] = &["Excluded", "Excluido", "Excluidos"];
    /// `Start date:`.
    pub const START_DATE: &[&str] = &["Start date", "Fecha de inicio"];
    /// `Branch:`.
    pub const BRANCH: &[&str] = &["Branch", "Rama"];
    /// `## Requirement`.
    pub const REQUIREMENT: &[&str] = &["Requirement", "Requerimiento"];
    /// `## Question`.
    pub const QUESTION: &[&str] = &["Question", "Pregunta"];
    /// `## Description`.
    pub const DESCRIPTION: &[&str] = &["Description", "Descripción"];
    /// `## Brief`.
    pub const BRIEF: &[&str] = &["Brief"];
    /// `## Last action`.
    pub const LAST_ACTION: &[&str] = &["Last action", "Lo último que hice"];
    /// `## Next step`.
    pub const NEXT_STEP: &[&str] = &["Next step", "Próximo paso"];
    /// `## Recent decisions`.
    pub const RECENT_DECISIONS: &[&str] = &["Recent decisions", "Decisiones recientes"];
    /// `## Files touched (post-last-commit)`.
    pub const FILES_TOUCHED_POST: &[&str] = &[
        "Files touched (post-last-commit)",
        "Archivos tocados (post-último-commit)",
    ];
    /// `## Files touched`.
    pub const FILES_TOUCHED: &[&str] = &["Files touched", "Archivos tocados"];
    /// `## Critical context to resume`.
    pub const CRITICAL_CONTEXT: &[&str] = &[
        "Critical context to resume",
        "Contexto crítico para retomar",
    ];
    /// `## Acceptance criteria`.
    pub const ACCEPTANCE: &[&str] = &[
        "Acceptance criteria",
        "Criterios de aceptación",
        "Aceptación",
    ];
    /// `## Success criteria`.
    pub const SUCCESS_CRITERIA: &[&str] = &["Success criteria", "Criterios de éxito"];
    /// `Updated:`.
    pub const UPDATED: &[&str] = &["Updated", "Actualizado"];
    /// `Progress:`.
    pub const PROGRESS: &[&str] = &["Progress", "Avance"];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unclosed_fence_is_plain_text_and_a_closed_one_a_fence() {
        let text = "a\n```\n## Inside\n```\n~~~~ unclosed\n## After\n~~~\n";
        let lines = scan_closed(text);
        let headings: Vec<&str> = lines
            .iter()
            .filter_map(|l| l.heading)
            .map(|h| h.1)
            .collect();
        assert_eq!(headings, ["After"]);
        assert!(lines[2].fenced && !lines[4].fenced && !lines[6].fenced);
        // With every fence closed it reads exactly as `scan`.
        let closed = "x\r\n```rust\r\n# no\r\n```\r\n## yes\r\n";
        assert_eq!(scan_closed(closed), scan(closed));
    }

    #[test]
    fn fences_hide_headings() {
        let text = "# A\n```md\n## Not\n```\n## B\r\nbody\n~~~~\n# x\n~~~\n~~~~\n## C";
        let heads: Vec<_> = scan(text).into_iter().filter_map(|l| l.heading).collect();
        assert_eq!(heads, vec![(1, "A"), (2, "B"), (2, "C")]);
    }

    #[test]
    fn lines_are_cut_exactly_like_str_split() {
        for text in [
            "",
            "\n",
            "a",
            "a\n",
            "a\r\nb",
            "\n\n",
            "é\nñ\r\n",
            "\r",
            "\u{b}# x\u{b}",
        ] {
            let got: Vec<&str> = scan(text).iter().map(|l| l.text).collect();
            let want: Vec<&str> = text
                .split('\n')
                .map(|l| l.strip_suffix('\r').unwrap_or(l))
                .collect();
            assert_eq!(got, want, "{text:?}");
        }
        assert_eq!(
            scan("\u{b}# x\u{b}")[0].heading,
            Some((1, "x")),
            "trimmed like `trim`"
        );
        assert_eq!(scan("\u{a0}# y")[0].heading, Some((1, "y")));
    }

    proptest::proptest! {
        /// Every line scans as the full path (trim, fence, heading) reads it: the first-byte
        /// shortcut (plain and empty lines) changes nothing.
        #[test]
        fn the_shortcut_agrees_with_the_full_path(
            text in "(```|~~~|#{1,2} |[ >*a#\t\u{a0}]|\r|\n){0,24}",
        ) {
            let mut fence: Option<(char, usize)> = None;
            let want: Vec<Line<'_>> = text
                .split('\n')
                .map(|raw| {
                    let line = raw.strip_suffix('\r').unwrap_or(raw);
                    let trimmed = line.trim();
                    if let Some((ch, len)) = fence {
                        let run = trimmed.chars().take_while(|c| *c == ch).count();
                        if run >= len && run == trimmed.chars().count() {
                            fence = None;
                        }
                        return Line { text: line, fenced: true, heading: None };
                    }
                    if let Some(ch @ ('`' | '~')) = trimmed.chars().next() {
                        let run = trimmed.chars().take_while(|c| *c == ch).count();
                        if run >= 3 {
                            fence = Some((ch, run));
                            return Line { text: line, fenced: true, heading: None };
                        }
                    }
                    Line { text: line, fenced: false, heading: heading(trimmed) }
                })
                .collect();
            proptest::prop_assert_eq!(scan(&text), want);
        }
    }

    #[test]
    fn headings_need_space_and_text() {
        assert_eq!(heading("#x"), None);
        assert_eq!(heading("#######  x"), None);
        assert_eq!(heading("### F1 — name"), Some((3, "F1 — name")));
        assert_eq!(heading("#"), None);
    }

    #[test]
    fn sections_stop_at_same_or_higher_level() {
        let text = "# T\n## Origin\n- a\n### sub\n- b\n## Next\nx";
        assert_eq!(section(text, aliases::ORIGIN).unwrap(), "- a\n### sub\n- b");
        let es = "## Próximo Paso\r\nseguir\r\n## Otro";
        assert_eq!(section(es, aliases::NEXT_STEP).unwrap(), "seguir");
        assert_eq!(section(text, &["Missing"]), None);
    }

    #[test]
    fn the_first_alias_wins_wherever_it_stands() {
        let lines = scan("## Objetivo\nes\n## Objective\nen\n## objective\nlater\n");
        assert_eq!(
            section_any(&lines, aliases::OBJECTIVE).as_deref(),
            Some("en")
        );
        assert_eq!(
            section_any(&lines, &["Missing", "OBJETIVO"]).as_deref(),
            Some("es")
        );
        assert_eq!(section_any(&lines, &["Missing"]), None);
        let text = "Rama: es\nBranch:\nBranch: en\nbranch: later\n";
        assert_eq!(value(text, aliases::BRANCH).as_deref(), Some("en"));
        assert_eq!(value(text, &["Missing", "rama"]).as_deref(), Some("es"));
    }

    #[test]
    fn key_values_in_both_languages() {
        let text = "intro\n- **Fecha de inicio:** 2026-01-01\nRama = main\n";
        assert_eq!(value(text, aliases::START_DATE).unwrap(), "2026-01-01");
        assert_eq!(value(text, aliases::BRANCH).unwrap(), "main");
        assert_eq!(
            value("* Updated: 2026-02-02 10:00", aliases::UPDATED).unwrap(),
            "2026-02-02 10:00"
        );
        assert_eq!(value("Updated:", aliases::UPDATED), None);
    }
}
