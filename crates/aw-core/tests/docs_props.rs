//! Properties of the document grammars on arbitrary input: nothing panics, CRLF reads like LF,
//! and scanning cuts lines exactly where `\n` is.

use aw_core::docs::plan::parse_plan;
use aw_core::docs::session_view::checkpoint_view;
use aw_core::docs::spec::parse_spec;
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

/// The plain statement of §12.1 that `scan` optimises: split on `\n`, drop a trailing `\r`,
/// trim, track fences, read ATX headings.
fn reference_scan(text: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    for raw in text.split('\n') {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let trimmed = line.trim();
        if let Some((ch, len)) = fence {
            let run = trimmed.chars().take_while(|c| *c == ch).count();
            if run >= len && run == trimmed.chars().count() {
                fence = None;
            }
            out.push(Line {
                text: line,
                fenced: true,
                heading: None,
            });
            continue;
        }
        if let Some(ch @ ('`' | '~')) = trimmed.chars().next() {
            let run = trimmed.chars().take_while(|c| *c == ch).count();
            if run >= 3 {
                fence = Some((ch, run));
                out.push(Line {
                    text: line,
                    fenced: true,
                    heading: None,
                });
                continue;
            }
        }
        let level = trimmed.bytes().take_while(|b| *b == b'#').count();
        let heading = if (1..=6).contains(&level)
            && trimmed[level..].starts_with(char::is_whitespace)
            && !trimmed[level..].trim_start().is_empty()
        {
            Some((level, trimmed[level..].trim_start()))
        } else {
            None
        };
        out.push(Line {
            text: line,
            fenced: false,
            heading,
        });
    }
    out
}

proptest! {
    #[test]
    fn scan_matches_its_plain_statement(text in doc(), noise in "[ \t\u{b}\u{a0}#`~\r\nx]{0,40}") {
        let t = format!("{noise}{text}{noise}");
        prop_assert_eq!(scan(&t), reference_scan(&t));
    }

    #[test]
    fn grammars_never_panic(text in doc()) {
        let _ = parse_plan(&text);
        let _ = parse_spec(&text);
        let _ = checkpoint_view(&text);
    }

    #[test]
    fn declared_dates_never_panic(s in "\\PC{0,24}", d in "[0-9]{4}-[0-9]{2}-[0-9]{2}[ T:0-9]{0,9}") {
        let _ = aw_core::docs::dates::parse_declared(&s);
        if let Some(m) = aw_core::docs::dates::parse_declared(&d) {
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
