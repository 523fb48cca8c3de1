//! Properties of the document grammars on arbitrary input: nothing panics, CRLF reads like LF,
//! and scanning cuts lines exactly where `\n` is.

use aw_core::board::session_view::checkpoint_view;
use aw_core::documents::plan::parse_plan;
use aw_core::documents::spec::parse_spec;
use aw_core::markdown::{Line, scan};
use proptest::prelude::*;

/// Text made of the pieces documents are made of, so the grammars' paths are actually walked.
fn doc() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("# Plan 001 — x\n".to_owned()),
        Just("## Tasks\n".to_owned()),
        Just("## Tareas:\n".to_owned()),
        Just("### F1 — a\n".to_owned()),
        Just("### F2: b\n".to_owned()),
        Just("> Estado: validada\n".to_owned()),
        Just("> State: done — 2026-01-01\n".to_owned()),
        Just("> Bloqueo: x\n".to_owned()),
        Just("- [x] t\n".to_owned()),
        Just("- [ ] t\n".to_owned()),
        Just("```\n".to_owned()),
        Just("~~~~\n".to_owned()),
        Just("---\nstatus: ready-for-plan\n---\n".to_owned()),
        Just("## Origin\n- docs/specs/001-spec-a.md\n".to_owned()),
        Just("> Derived from docs/specs/0012-spec-b.md.md\n".to_owned()),
        Just("## Execution batches\n- B1 · continuous · F1-F9999999\n".to_owned()),
        Just("## Open questions\n".to_owned()),
        Just("spec 001\n".to_owned()),
        "[^\n]{0,12}\n",
        "\\PC{0,8}",
    ];
    prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

/// An independent oracle for `scan`, written from the rule its doc comment states (not from its
/// code): lines are the pieces between `\n`s, less a trailing `\r`; "trimmed" is `str::trim`.
/// A trimmed line starting with three or more backticks or tildes opens a fence, which closes on
/// a trimmed line made only of the same character, at least as long; the fence lines and all
/// between are fenced. Outside fences a heading is `^(#{1,6})\s+(\S.*)$` on the trimmed line.
fn oracle_scan(text: &str) -> Vec<Line<'_>> {
    /// Where the reader is: in prose, or inside a fence opened by `width` × `marker`.
    enum State {
        Prose,
        Fence { marker: char, width: usize },
    }

    /// The fence a trimmed line opens: its character and the length of its leading run.
    fn opens(t: &str) -> Option<(char, usize)> {
        ['`', '~'].into_iter().find_map(|marker| {
            let width = t.len() - t.trim_start_matches(marker).len(); // both are one byte
            (width >= 3).then_some((marker, width))
        })
    }

    /// Whether a trimmed line closes the fence: only `marker`, at least `width` of them.
    fn closes(t: &str, marker: char, width: usize) -> bool {
        !t.is_empty() && t.chars().all(|c| c == marker) && t.chars().count() >= width
    }

    /// `^(#{1,6})\s+(\S.*)$` on a trimmed line.
    fn heading(t: &str) -> Option<(usize, &str)> {
        let level = t.len() - t.trim_start_matches('#').len();
        let after = &t[level..];
        let title = after.trim_start();
        let spaced = after.len() > title.len();
        ((1..=6).contains(&level) && spaced && !title.is_empty()).then_some((level, title))
    }

    let mut pieces = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find('\n') {
        pieces.push(&rest[..i]);
        rest = &rest[i + 1..];
    }
    pieces.push(rest);

    let mut state = State::Prose;
    let mut out = Vec::new();
    for piece in pieces {
        let line = piece.strip_suffix('\r').unwrap_or(piece);
        let t = line.trim();
        let fenced = match state {
            State::Fence { marker, width } => {
                if closes(t, marker, width) {
                    state = State::Prose;
                }
                true
            }
            State::Prose => match opens(t) {
                Some((marker, width)) => {
                    state = State::Fence { marker, width };
                    true
                }
                None => false,
            },
        };
        out.push(Line {
            text: line,
            fenced,
            heading: if fenced { None } else { heading(t) },
        });
    }
    out
}

/// The oracle on hand-checked cases, so that it is itself pinned down.
#[test]
fn the_oracle_follows_the_stated_rule() {
    let text = "# Top\r\n  ## Indented  \n#NoSpace\n####### Seven\n#\t Tab\n#   \n\
                ````md\n# in fence\n```\n~~~~\n`````  \n## After\n~~~\n```\n~~~~ x\n~~~~\n\
                ``not a fence\n### Last";
    let got: Vec<_> = oracle_scan(text)
        .into_iter()
        .map(|l| (l.text, l.fenced, l.heading))
        .collect();
    assert_eq!(
        got,
        [
            ("# Top", false, Some((1, "Top"))),
            ("  ## Indented  ", false, Some((2, "Indented"))),
            ("#NoSpace", false, None),
            ("####### Seven", false, None),
            ("#\t Tab", false, Some((1, "Tab"))),
            ("#   ", false, None),
            ("````md", true, None),
            ("# in fence", true, None),
            ("```", true, None),
            ("~~~~", true, None),
            ("`````  ", true, None),
            ("## After", false, Some((2, "After"))),
            ("~~~", true, None),
            ("```", true, None),
            ("~~~~ x", true, None),
            ("~~~~", true, None),
            ("``not a fence", false, None),
            ("### Last", false, Some((3, "Last"))),
        ]
    );
    assert_eq!(oracle_scan("").len(), 1, "empty text is one empty line");
    assert_eq!(
        oracle_scan("a\n").len(),
        2,
        "a final newline ends an empty line"
    );
}

proptest! {
    #[test]
    fn scan_matches_its_plain_statement(text in doc(), noise in "[ \t\u{b}\u{a0}#`~\r\nx]{0,40}") {
        let t = format!("{noise}{text}{noise}");
        prop_assert_eq!(scan(&t), oracle_scan(&t));
    }

    #[test]
    fn grammars_never_panic(text in doc()) {
        let _ = parse_plan(&text);
        let _ = parse_spec(&text);
        let _ = checkpoint_view(&text);
    }

    #[test]
    fn declared_dates_never_panic(s in "\\PC{0,24}", d in "[0-9]{4}-[0-9]{2}-[0-9]{2}[ T:0-9]{0,9}") {
        let _ = aw_core::calendar::parse_declared(&s);
        if let Some(m) = aw_core::calendar::parse_declared(&d) {
            prop_assert_eq!(m.date(), d[..10].to_owned());
        }
    }

    #[test]
    fn crlf_reads_like_lf(text in doc()) {
        let crlf = text.replace('\n', "\r\n");
        prop_assert_eq!(parse_plan(&crlf), parse_plan(&text));
        prop_assert_eq!(parse_spec(&crlf), parse_spec(&text));
    }

    #[test]
    fn scan_cuts_at_newlines(text in "\\PC{0,60}(\r?\n\\PC{0,20}){0,6}") {
        let got: Vec<&str> = scan(&text).iter().map(|l| l.text).collect();
        let want: Vec<&str> = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
        prop_assert_eq!(got, want);
    }
}
