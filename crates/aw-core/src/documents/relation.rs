//! Which spec a plan derives from (§9.2, item 6), and how sure we are.
//!
//! Three levels of evidence, tried in order; the first level that names any spec decides, and
//! levels never merge:
//! 1. `derived-from`: spec paths (`docs/specs/NNN-spec….md`) on preamble lines that say "derived
//!    from" (or the Spanish "derivado de");
//! 2. `origin-path`: spec paths inside `## Origin` / `## Origen`;
//! 3. `spec-reference`: `spec NNN` inside that section. A bare number never counts.
//!
//! One number found in the inventory resolves; one number missing from it is unknown
//! (`spec-not-found`); several numbers at the winning level are ambiguous.

use super::preamble::{self, Preamble};
use super::spec::section_lines;
use crate::markdown::Line;
use crate::vocab::correlative::Correlative;
use crate::vocab::titles::contains_ascii_ci;
use serde::Serialize;

/// How a plan names its spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Evidence {
    /// A spec path on a "derived from" preamble line.
    DerivedFrom,
    /// A spec path inside `## Origin`.
    OriginPath,
    /// `spec NNN` inside `## Origin`.
    SpecReference,
}

impl Evidence {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Evidence::DerivedFrom => "derived-from",
            Evidence::OriginPath => "origin-path",
            Evidence::SpecReference => "spec-reference",
        }
    }
}

/// The spec numbers a plan names at its strongest level of evidence.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Clues {
    /// The winning level and its distinct numbers (first appearance first); `None` when the plan
    /// names no spec.
    pub level: Option<(Evidence, Vec<Correlative>)>,
}

/// What a plan's spec relation resolved to: `status` names the variant, its fields follow.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum SpecRelation {
    /// Exactly one spec, present in the workspace.
    Resolved {
        /// The spec's number as its file writes it.
        number: String,
        /// The spec's workspace-relative path.
        file: String,
        /// How the plan named it.
        evidence: Evidence,
    },
    /// No usable evidence (`no-evidence`), or one number with no such spec (`spec-not-found`).
    Unknown {
        /// `no-evidence` or `spec-not-found`.
        reason: &'static str,
    },
    /// Several specs named at the same level.
    Ambiguous {
        /// The numbers, zero-padded to three digits, in numeric order.
        numbers: Vec<String>,
        /// The level they were found at.
        evidence: Evidence,
    },
}

impl SpecRelation {
    /// The resolved spec's number, if any.
    pub fn resolved(&self) -> Option<&str> {
        match self {
            SpecRelation::Resolved { number, .. } => Some(number),
            _ => None,
        }
    }
}

/// The folded titles of the origin section.
const ORIGIN_TITLES: &[&str] = &["origin", "origen"];
/// Phrases that mark a preamble line as naming the plan's source.
const DERIVED_PHRASES: &[&str] = &["derived from", "derivado de", "derivada de", "deriva de"];

/// Finds the plan's spec clues.
pub fn clues(lines: &[Line<'_>], pre: Preamble) -> Clues {
    let mut derived = Vec::new();
    for line in preamble::lines(lines, pre) {
        if DERIVED_PHRASES
            .iter()
            .any(|p| contains_ascii_ci(line.text, p))
        {
            doc_paths(line.text, "specs", "spec", &mut derived);
        }
    }
    if !derived.is_empty() {
        return level(Evidence::DerivedFrom, derived);
    }
    let Some(origin) = section_lines(lines, ORIGIN_TITLES) else {
        return Clues::default();
    };
    let mut paths = Vec::new();
    for line in origin {
        doc_paths(line.text, "specs", "spec", &mut paths);
    }
    if !paths.is_empty() {
        return level(Evidence::OriginPath, paths);
    }
    let mut refs = Vec::new();
    for line in origin {
        spec_references(line.text, &mut refs);
    }
    if !refs.is_empty() {
        return level(Evidence::SpecReference, refs);
    }
    Clues::default()
}

/// The one spec path a plan's preamble names on its "derived from" lines, when it names
/// exactly one (the same path written twice counts once) and the plan's relation declares one
/// spec: the spec whose bytes a publication seals into the plan's `> Baseline:` line. Only the
/// English phrase counts here, as in the reference's seal (the relation reads the Spanish ones
/// too).
pub fn derived_spec_path<'t>(lines: &[Line<'t>], pre: Preamble) -> Option<&'t str> {
    let mut found: Vec<&'t str> = Vec::new();
    for line in preamble::lines(lines, pre) {
        if contains_ascii_ci(line.text, "derived from") {
            for (_, path) in doc_path_matches(line.text, "specs", "spec") {
                if !found.contains(&path) {
                    found.push(path);
                }
            }
        }
    }
    let declared = matches!(&clues(lines, pre).level, Some((_, numbers)) if numbers.len() == 1);
    match found.as_slice() {
        [one] if declared => Some(one),
        _ => None,
    }
}

fn level(evidence: Evidence, found: Vec<Correlative>) -> Clues {
    // A plan names one or two specs: a linear look-back is cheaper than hashing each number.
    let mut distinct: Vec<Correlative> = Vec::with_capacity(found.len());
    for n in found {
        if !distinct.contains(&n) {
            distinct.push(n);
        }
    }
    Clues {
        level: Some((evidence, distinct)),
    }
}

/// Resolves clues against the spec inventory: `lookup` gives the number as written and the
/// file of the first spec with a number.
pub fn resolve<'a>(
    clues: &Clues,
    lookup: impl Fn(&Correlative) -> Option<(&'a str, &'a str)>,
) -> SpecRelation {
    match &clues.level {
        None => SpecRelation::Unknown {
            reason: "no-evidence",
        },
        Some((evidence, numbers)) if numbers.len() == 1 => match lookup(&numbers[0]) {
            Some((number, file)) => SpecRelation::Resolved {
                number: number.to_owned(),
                file: file.to_owned(),
                evidence: *evidence,
            },
            None => SpecRelation::Unknown {
                reason: "spec-not-found",
            },
        },
        Some((evidence, numbers)) => {
            let mut sorted = numbers.clone();
            sorted.sort();
            SpecRelation::Ambiguous {
                numbers: sorted.iter().map(Correlative::padded).collect(),
                evidence: *evidence,
            }
        }
    }
}

/// Collects the numbers of `docs/<folder>/NNN-<word>….md` paths in `text`: at least three
/// digits, then `-<word>`, then a run without whitespace, backticks, `)`, `"` or `'` that
/// contains `.md` (the path ends at its last `.md`).
pub fn doc_paths(text: &str, folder: &str, word: &str, out: &mut Vec<Correlative>) {
    out.extend(
        doc_path_matches(text, folder, word)
            .into_iter()
            .map(|(n, _)| n),
    );
}

/// The same paths as [`doc_paths`], each with its text (from `docs/` to its last `.md`).
pub fn doc_path_matches<'t>(
    text: &'t str,
    folder: &str,
    word: &str,
) -> Vec<(Correlative, &'t str)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(start) = after_prefix(text.as_bytes(), from, folder.as_bytes()) {
        from = start;
        // `start` follows an ASCII `/`: a char boundary.
        let rest = &text[start..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits < 3 {
            continue;
        }
        let after = &rest[digits..];
        let Some(tail) = after
            .strip_prefix('-')
            .filter(|t| t.len() >= word.len() && t.is_char_boundary(word.len()))
            .filter(|t| t[..word.len()].eq(word))
            .map(|t| &t[word.len()..])
        else {
            continue;
        };
        let run_len = tail
            .find(|c: char| c.is_whitespace() || matches!(c, '`' | ')' | '"' | '\''))
            .unwrap_or(tail.len());
        let run = &tail.as_bytes()[..run_len];
        if let Some(last) = run.windows(3).rposition(|w| w == b".md")
            && let Some(n) = Correlative::from_digits(&rest[..digits])
        {
            // The path starts at `docs/`, 6 + folder bytes before `start`.
            let begin = start - 6 - folder.len();
            let end = start + digits + 1 + word.len() + last + 3;
            out.push((n, &text[begin..end]));
        }
    }
    out
}

/// The offset just past the first `docs/<folder>/` at or after `from`. Candidates are found by
/// their `d` with `memchr` and checked in place: no pattern is built and no substring searcher
/// is set up, which on the short lines of a plan cost more than the search.
fn after_prefix(bytes: &[u8], from: usize, folder: &[u8]) -> Option<usize> {
    let mut i = from;
    while let Some(j) = memchr::memchr(b'd', bytes.get(i..)?) {
        let at = i + j;
        let rest = &bytes[at..];
        if let Some(r) = rest.strip_prefix(b"docs/")
            && let Some(r) = r.strip_prefix(folder)
            && r.first() == Some(&b'/')
        {
            return Some(at + 6 + folder.len());
        }
        i = at + 1;
    }
    None
}

/// Whether `text` links any spec or plan document (`docs/specs/NNN-spec….md`,
/// `docs/plans/NNN-plan….md`).
pub fn links_a_document(text: &str) -> bool {
    let mut found = Vec::new();
    doc_paths(text, "specs", "spec", &mut found);
    doc_paths(text, "plans", "plan", &mut found);
    !found.is_empty()
}

/// Collects `\bspec\s+(\d{3,})\b` (case-insensitive).
fn spec_references(text: &str, out: &mut Vec<Correlative>) {
    let bytes = text.as_bytes();
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut i = 0;
    while i + 4 <= bytes.len() {
        if bytes[i..i + 4].eq_ignore_ascii_case(b"spec") && (i == 0 || !is_word(bytes[i - 1])) {
            let mut j = i + 4;
            let ws_start = j;
            while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                j += 1;
            }
            let d_start = j;
            while j < bytes.len() && bytes[j].is_ascii_digit() {
                j += 1;
            }
            if j > ws_start
                && d_start > ws_start
                && j - d_start >= 3
                && (j == bytes.len() || !is_word(bytes[j]))
                && let Some(n) = Correlative::from_digits(&text[d_start..j])
            {
                out.push(n);
            }
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::documents::preamble::find;
    use crate::markdown::scan;

    fn rel(text: &str) -> SpecRelation {
        let lines = scan(text);
        let c = clues(&lines, find(&lines, 0));
        resolve(&c, |n| match n.padded().as_str() {
            "001" => Some(("001", "docs/specs/001-spec-a.md")),
            "002" => Some(("002", "docs/specs/002-spec-b.md")),
            "1000" => Some(("1000", "docs/specs/1000-spec-big.md")),
            _ => None,
        })
    }

    fn resolved(n: &str, file: &str, e: Evidence) -> SpecRelation {
        SpecRelation::Resolved {
            number: n.into(),
            file: file.into(),
            evidence: e,
        }
    }

    #[test]
    fn evidence_levels_table() {
        use Evidence::*;
        let a = "docs/specs/001-spec-a.md";
        let cases: Vec<(String, SpecRelation)> = vec![
            (
                format!("# Plan\n> Derived from {a} · generated by plan-new-loop\n## Origin\n- docs/specs/002-spec-b.md\n"),
                resolved("001", a, DerivedFrom),
            ),
            (
                format!("# Plan\n> Derivado de `{a}`\n"),
                resolved("001", a, DerivedFrom),
            ),
            (
                "# Plan\n> Derived from docs/specs/003-spec-c.md\n## Origin\n- docs/specs/001-spec-a.md\n".into(),
                SpecRelation::Unknown { reason: "spec-not-found" },
            ),
            (
                format!("# Plan\n> See {a}\n## Origin\n- (docs/specs/002-spec-b.md)\n"),
                resolved("002", "docs/specs/002-spec-b.md", OriginPath),
            ),
            (
                "# Plan\n## Origen\nspec 001 and SPEC 001.\n".into(),
                resolved("001", a, SpecReference),
            ),
            (
                "# Plan\n## Origin\n- docs/specs/001-spec-a.md\n- spec 002\n".into(),
                resolved("001", a, OriginPath),
            ),
            (
                "# Plan\n## Origin\nspec 001, spec 002\n".into(),
                SpecRelation::Ambiguous { numbers: vec!["001".into(), "002".into()], evidence: SpecReference },
            ),
            (
                "# Plan\n> Derived from docs/specs/002-spec-b.md and docs/specs/001-spec-a.md\n".into(),
                SpecRelation::Ambiguous { numbers: vec!["001".into(), "002".into()], evidence: DerivedFrom },
            ),
            (
                "# Plan\n## Origin\nfrom 001, aspec 001, spec 01, spec 0012x, spec001\n".into(),
                SpecRelation::Unknown { reason: "no-evidence" },
            ),
            (
                "# Plan\n## Origin\ndocs/specs/001-spec-a.txt docs/specs/01-spec-a.md docs/specs/001-plan-a.md\n".into(),
                SpecRelation::Unknown { reason: "no-evidence" },
            ),
            (
                "# Plan\n## Origin\n- docs/specs/1000-spec-big.md\n".into(),
                resolved("1000", "docs/specs/1000-spec-big.md", OriginPath),
            ),
            (
                "# Plan\n## Origin\n- docs/specs/0001-spec-a.md\n".into(),
                resolved("001", a, OriginPath),
            ),
            (
                "# Plan\n> Derived from nothing in particular\n".into(),
                SpecRelation::Unknown { reason: "no-evidence" },
            ),
            ("".into(), SpecRelation::Unknown { reason: "no-evidence" }),
        ];
        for (text, want) in cases {
            assert_eq!(rel(&text), want, "{text}");
        }
    }

    #[test]
    fn paths_end_at_their_last_md() {
        let mut v = Vec::new();
        doc_paths(
            "[x](docs/specs/004-spec-x.md.bak) docs/specs/005-spec-y.md",
            "specs",
            "spec",
            &mut v,
        );
        let got: Vec<_> = v.iter().map(Correlative::padded).collect();
        assert_eq!(got, ["004", "005"]);
        assert!(links_a_document("from docs/plans/007-plan-z.md"));
        assert!(!links_a_document("from docs/plans/007-plan-z"));
        assert!(!links_a_document("ñ docs/specs/"));
    }

    /// `doc_paths` as first written: a `format!`ed prefix found with `str::find`.
    fn doc_paths_by_find(text: &str, folder: &str, word: &str) -> Vec<Correlative> {
        let mut out = Vec::new();
        let prefix = format!("docs/{folder}/");
        let mut from = 0;
        while let Some(i) = text[from..].find(&prefix) {
            let start = from + i + prefix.len();
            from = start;
            let rest = &text[start..];
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            if digits < 3 {
                continue;
            }
            let Some(tail) = rest[digits..]
                .strip_prefix('-')
                .filter(|t| t.len() >= word.len() && t.is_char_boundary(word.len()))
                .filter(|t| t[..word.len()].eq(word))
                .map(|t| &t[word.len()..])
            else {
                continue;
            };
            let run_len = tail
                .find(|c: char| c.is_whitespace() || matches!(c, '`' | ')' | '"' | '\''))
                .unwrap_or(tail.len());
            if tail[..run_len].contains(".md")
                && let Some(n) = Correlative::from_digits(&rest[..digits])
            {
                out.push(n);
            }
        }
        out
    }

    proptest::proptest! {
        /// The byte-wise prefix search finds exactly the paths `str::find` found.
        #[test]
        fn doc_paths_agree_with_str_find(
            parts in proptest::collection::vec(
                "docs/specs/|docs/plans/|docs/|dd|0012|123|-spec|-plan|\\.md|\\.m|[ `)é\u{a0}x]",
                0..12,
            ),
        ) {
            let text = parts.concat();
            for (folder, word) in [("specs", "spec"), ("plans", "plan")] {
                let mut got = Vec::new();
                doc_paths(&text, folder, word, &mut got);
                proptest::prop_assert_eq!(got, doc_paths_by_find(&text, folder, word));
            }
        }
    }

    #[test]
    fn wire_shapes() {
        let r = serde_json::to_value(resolved("001", "f", Evidence::OriginPath)).unwrap();
        assert_eq!(
            r,
            serde_json::json!({"status":"resolved","number":"001","file":"f","evidence":"origin-path"})
        );
        let u = serde_json::to_value(SpecRelation::Unknown {
            reason: "no-evidence",
        })
        .unwrap();
        assert_eq!(
            u,
            serde_json::json!({"status":"unknown","reason":"no-evidence"})
        );
    }
}
