//! File names of numbered documents: `docs/specs/NNN-spec-<slug>.md`,
//! `docs/plans/PPP-plan-<slug>.md` and `docs/research/NNN-research-<slug>.md`, and the order the
//! inventory lists them in.
//!
//! The grammar is `^(\d{3,})-spec(?:-(.+))?\.md$` (and `plan`, `research`), case-insensitive. Numbers of any
//! width of at least three digits count (`1000-spec-x.md` is 1000; the reference's v21 could not
//! see it) and compare numerically.

use crate::vocab::correlative::Correlative;
use std::cmp::Ordering;
use std::collections::HashSet;

/// Which kind of document a folder holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DocKind {
    /// `docs/specs/NNN-spec-<slug>.md`.
    Spec,
    /// `docs/plans/PPP-plan-<slug>.md`.
    Plan,
    /// `docs/research/NNN-research-<slug>.md` (written by `aw persist`; the board does not read
    /// it).
    Research,
}

impl DocKind {
    /// Every kind, in the order `aw persist` lists folders: research, spec, plan (the order work
    /// usually matures in).
    pub const ALL: [DocKind; 3] = [DocKind::Research, DocKind::Spec, DocKind::Plan];

    /// The word after the number: `spec`, `plan` or `research`.
    pub fn word(self) -> &'static str {
        match self {
            DocKind::Spec => "spec",
            DocKind::Plan => "plan",
            DocKind::Research => "research",
        }
    }

    /// The kind a word names (`spec`, `plan`, `research`; exact, lower case).
    pub fn from_word(word: &str) -> Option<DocKind> {
        DocKind::ALL.into_iter().find(|k| k.word() == word)
    }

    /// The workspace-relative folder: `docs/specs`, `docs/plans` or `docs/research`.
    pub fn folder(self) -> &'static str {
        match self {
            DocKind::Spec => "docs/specs",
            DocKind::Plan => "docs/plans",
            DocKind::Research => "docs/research",
        }
    }

    /// The file name of document `number` (already padded) with `slug`:
    /// `<number>-<word>-<slug>.md`, the name [`parse_name`] reads back.
    pub fn file_name(self, number: &str, slug: &str) -> String {
        format!("{number}-{}-{slug}.md", self.word())
    }
}

/// What a document's file name says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocName {
    /// The number as written (`001`, `1000`).
    pub number: String,
    /// The number's value.
    pub correlative: Correlative,
    /// The slug as written after `-spec-` / `-plan-`; empty when the name has none.
    pub slug: String,
}

/// Reads a file name (one path component) against the grammar of `kind`.
pub fn parse_name(kind: DocKind, name: &str) -> Option<DocName> {
    let digits = name.bytes().take_while(u8::is_ascii_digit).count();
    if digits < 3 {
        return None;
    }
    let rest = &name[digits..];
    let word = kind.word();
    // `-spec` is ASCII, so byte slicing below stays on char boundaries once it matched.
    if rest.len() < word.len() + 1
        || !rest.as_bytes()[0].eq(&b'-')
        || !rest[1..].is_char_boundary(word.len())
        || !rest[1..1 + word.len()].eq_ignore_ascii_case(word)
    {
        return None;
    }
    let tail = &rest[1 + word.len()..];
    let slug = if tail.eq_ignore_ascii_case(".md") {
        ""
    } else {
        let inner = tail.strip_prefix('-')?;
        let cut = inner.len().checked_sub(3)?;
        if cut == 0 || !inner.is_char_boundary(cut) || !inner[cut..].eq_ignore_ascii_case(".md") {
            return None;
        }
        &inner[..cut]
    };
    Some(DocName {
        number: name[..digits].to_owned(),
        correlative: Correlative::from_digits(&name[..digits])?,
        slug: slug.to_owned(),
    })
}

/// Whether a spec file is a legacy `NNN-spec-…refined.md` copy.
pub fn is_refined_copy(file_name: &str) -> bool {
    file_name.len() >= "refined.md".len()
        && file_name.is_char_boundary(file_name.len() - "refined.md".len())
        && file_name[file_name.len() - "refined.md".len()..].eq_ignore_ascii_case("refined.md")
}

/// The inventory order: by number (numerically), then by file path in byte order.
pub fn inventory_order(a: (&Correlative, &str), b: (&Correlative, &str)) -> Ordering {
    a.0.cmp(b.0)
        .then_with(|| a.1.as_bytes().cmp(b.1.as_bytes()))
}

/// Drops legacy `…refined.md` specs whose number another (non-refined) spec also has: the
/// refined copy was superseded by the spec it was merged back into. `key` gives each item's file
/// name and number; the order is kept, and the items stay where they are.
pub fn drop_superseded_refined<T>(items: &mut Vec<T>, key: impl Fn(&T) -> (&str, &Correlative)) {
    // Most workspaces hold no refined copy at all.
    if !items.iter().any(|t| is_refined_copy(key(t).0)) {
        return;
    }
    let plain: HashSet<Correlative> = items
        .iter()
        .map(&key)
        .filter(|(file, _)| !is_refined_copy(file))
        .map(|(_, n)| n.clone())
        .collect();
    items.retain(|t| {
        let (file, n) = key(t);
        !is_refined_copy(file) || !plain.contains(n)
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    type Case = (DocKind, &'static str, Option<(String, String)>);

    fn name(kind: DocKind, s: &str) -> Option<(String, String)> {
        parse_name(kind, s).map(|n| (n.number, n.slug))
    }

    #[test]
    fn grammar_table() {
        let s = |n: &str, slug: &str| Some((n.to_owned(), slug.to_owned()));
        let cases: &[Case] = &[
            (DocKind::Spec, "001-spec-login.md", s("001", "login")),
            (DocKind::Spec, "001-spec.md", s("001", "")),
            (DocKind::Spec, "001-SPEC-Login.MD", s("001", "Login")),
            (DocKind::Spec, "1000-spec-big.md", s("1000", "big")),
            (DocKind::Spec, "001-spec-a.md.md", s("001", "a.md")),
            (DocKind::Spec, "001-spec-ñandú.md", s("001", "ñandú")),
            (DocKind::Spec, "01-spec-x.md", None),
            (DocKind::Spec, "001-spec-.md", None),
            (DocKind::Spec, "001-specx.md", None),
            (DocKind::Spec, "001-spec-x.txt", None),
            (DocKind::Spec, "001-plan-x.md", None),
            (DocKind::Spec, "001_spec-x.md", None),
            (DocKind::Spec, "001-spe", None),
            (DocKind::Spec, "001-", None),
            (DocKind::Spec, "", None),
            (DocKind::Spec, "001-sñec-x.md", None),
            (
                DocKind::Plan,
                "003-plan-login-otp.md",
                s("003", "login-otp"),
            ),
            (DocKind::Plan, "003-spec-login.md", None),
            (
                DocKind::Research,
                "002-research-cache.md",
                s("002", "cache"),
            ),
            (DocKind::Research, "002-spec-cache.md", None),
        ];
        for (kind, input, want) in cases {
            assert_eq!(&name(*kind, input), want, "{input}");
        }
    }

    #[test]
    fn every_kind_names_files_its_grammar_reads_back() {
        for kind in DocKind::ALL {
            assert_eq!(DocKind::from_word(kind.word()), Some(kind));
            let file = kind.file_name("1000", "login-otp");
            assert_eq!(name(kind, &file), Some(("1000".into(), "login-otp".into())));
            assert!(
                kind.folder().ends_with(&format!("{}s", kind.word())) || kind == DocKind::Research
            );
        }
        assert_eq!(DocKind::Research.folder(), "docs/research");
        assert_eq!(DocKind::from_word("Spec"), None);
    }

    #[test]
    fn refined_copies_yield_to_their_spec() {
        let named = |files: &[&str]| -> Vec<(String, DocName)> {
            files
                .iter()
                .map(|f| (f.to_string(), parse_name(DocKind::Spec, f).unwrap()))
                .collect()
        };
        fn key((f, n): &(String, DocName)) -> (&str, &Correlative) {
            (f.as_str(), &n.correlative)
        }
        let mut items = named(&[
            "001-spec-a.md",
            "001-spec-a-refined.md",
            "002-spec-b-refined.md",
        ]);
        drop_superseded_refined(&mut items, key);
        let kept: Vec<&str> = items.iter().map(|(f, _)| f.as_str()).collect();
        assert_eq!(kept, ["001-spec-a.md", "002-spec-b-refined.md"]);
        let mut plain = named(&["001-spec-a.md", "002-spec-b.md"]);
        drop_superseded_refined(&mut plain, key);
        assert_eq!(plain.len(), 2);
    }

    #[test]
    fn order_is_numeric_then_bytes() {
        let a = Correlative::from_digits("999").unwrap();
        let b = Correlative::from_digits("1000").unwrap();
        assert_eq!(inventory_order((&a, "z"), (&b, "a")), Ordering::Less);
        assert_eq!(inventory_order((&a, "B"), (&a, "a")), Ordering::Less);
    }
}
