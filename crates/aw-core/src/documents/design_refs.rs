//! The design packages a spec or plan names: `DES-NNN` or `DES-NNN@rN`, under its level-2
//! `## Design references` section (the reference's Spanish `## Referencias de diseño` too).

use crate::markdown::{Line, scan};
use regex::Regex;
use serde::Serialize;
use std::sync::LazyLock;

static REFERENCE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"\bDES-((?:[0-9]{3}|[1-9][0-9]{3,}))(?:@r([1-9][0-9]{0,5}))?\b").ok()
});

/// A package a plan names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Reference {
    /// As written (`DES-001` or `DES-001@r2`).
    pub text: String,
    /// The identity.
    pub id: String,
    /// The pinned revision, if the plan pins one.
    pub revision: Option<u64>,
    /// The 1-based line of its first mention.
    pub line: usize,
}

/// The level-2 section a spec or plan lists its designs in (`## Design references`, or the
/// reference's Spanish `## Referencias de diseño`), folded.
const SECTION: &[&str] = &["design references", "referencias de diseno"];

/// Every distinct package reference of a document, in order of first mention: the references
/// in its `## Design references` section when it has one, else every one outside fenced code
/// (an example in a code block references nothing).
pub fn references(text: &str) -> Vec<Reference> {
    if !text.contains("DES-") {
        return Vec::new();
    }
    references_in(&scan(text))
}

/// [`references`] over lines already scanned.
pub fn references_in(lines: &[Line<'_>]) -> Vec<Reference> {
    let Some(re) = REFERENCE.as_ref() else {
        return Vec::new();
    };
    let section = lines.iter().position(|l| {
        l.heading
            .is_some_and(|(level, t)| level == 2 && is_section(t))
    });
    let range = match section {
        Some(start) => {
            let end = lines[start + 1..]
                .iter()
                .position(|l| l.heading.is_some_and(|(level, _)| level <= 2))
                .map_or(lines.len(), |n| start + 1 + n);
            start + 1..end
        }
        None => 0..lines.len(),
    };
    let mut out: Vec<Reference> = Vec::new();
    for (i, line) in lines.iter().enumerate().take(range.end).skip(range.start) {
        if line.fenced || !line.text.contains("DES-") {
            continue;
        }
        for c in re.captures_iter(line.text) {
            let text = c[0].to_owned();
            if out.iter().any(|r| r.text == text) {
                continue;
            }
            out.push(Reference {
                id: format!("DES-{}", &c[1]),
                revision: c.get(2).and_then(|m| m.as_str().parse().ok()),
                text,
                line: i + 1,
            });
        }
    }
    out
}

fn is_section(title: &str) -> bool {
    let t = crate::markdown::fold(title);
    SECTION.iter().any(|s| t.trim_end_matches([':', ' ']) == *s)
}
