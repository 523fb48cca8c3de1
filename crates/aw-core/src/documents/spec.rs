//! A spec as aw reads it (§9.1): its maturity, its open questions and its declared date.
//!
//! Maturity comes from the frontmatter's `status:` (`draft`, `refining`, `ready-for-plan`). A
//! spec with no frontmatter at all is a legacy spec: it is `ready-for-plan` when it has a
//! `## Refinement decisions` or `## Q&A traceability` section, otherwise `draft`.

use super::frontmatter::{self, Frontmatter};
use super::preamble;
use crate::calendar::{Moment, parse_declared};
use crate::markdown::{self, Line};
use crate::vocab::titles::is_one_of;
use serde::Serialize;

/// How far a spec has been refined.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Maturity {
    /// Written, not refined.
    Draft,
    /// Being refined.
    Refining,
    /// Refined: a plan can be derived from it.
    ReadyForPlan,
}

impl Maturity {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Maturity::Draft => "draft",
            Maturity::Refining => "refining",
            Maturity::ReadyForPlan => "ready-for-plan",
        }
    }

    /// A frontmatter value, compared lower-cased; anything unknown reads as draft.
    pub fn from_value(v: &str) -> Self {
        match v.trim().to_ascii_lowercase().as_str() {
            "refining" => Maturity::Refining,
            "ready-for-plan" => Maturity::ReadyForPlan,
            _ => Maturity::Draft,
        }
    }
}

/// What aw reads of a spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecFacts {
    /// Maturity.
    pub status: Maturity,
    /// Whether the maturity came from the legacy section rule (no frontmatter at all).
    pub legacy: bool,
    /// Open questions still listed.
    pub open_questions: usize,
    /// The spec's own date (frontmatter `date:`, else a `Date:` / `Fecha:` preamble line).
    pub declared: Option<Moment>,
    /// The design packages it references (`crate::documents::design_refs::references`).
    pub design_refs: Vec<crate::documents::design_refs::Reference>,
}

/// Headings that show a legacy spec went through refinement.
const REFINED_SECTIONS: &[&str] = &[
    "refinement decisions",
    "q&a traceability",
    "decisiones de refinamiento",
    "trazabilidad de preguntas",
];

/// `## Open questions` and its Spanish form.
const OPEN_QUESTIONS: &[&str] = &["open questions", "preguntas abiertas"];

/// A first line that says there is nothing open.
const NOTHING_OPEN: &[&str] = &[
    "none", "ninguna", "ninguno", "n/a", "—", "-", "nothing", "nada",
];

/// Reads a spec.
pub fn parse_spec(text: &str) -> SpecFacts {
    let lines = markdown::scan(text);
    let fm = frontmatter::read(&lines);
    let (status, legacy) = match &fm {
        Frontmatter::Closed { .. } => (
            fm.get("status")
                .map_or(Maturity::Draft, Maturity::from_value),
            false,
        ),
        Frontmatter::Unclosed => (Maturity::Draft, false),
        Frontmatter::Absent => {
            let refined = lines.iter().any(|l| {
                l.heading
                    .is_some_and(|(_, t)| is_one_of(t, REFINED_SECTIONS))
            });
            let m = if refined {
                Maturity::ReadyForPlan
            } else {
                Maturity::Draft
            };
            (m, true)
        }
    };
    let declared = fm
        .get("date")
        .and_then(parse_declared)
        .or_else(|| preamble::declared_date(&lines, preamble::find(&lines, fm.body())));
    SpecFacts {
        status,
        legacy,
        open_questions: open_questions(&lines),
        declared,
        design_refs: if text.contains("DES-") {
            crate::documents::design_refs::references_in(&lines)
        } else {
            Vec::new()
        },
    }
}

/// The body lines of the first heading whose loose title is one of `titles`, up to the next
/// heading of the same or a higher level.
pub fn section_lines<'a, 'b>(lines: &'b [Line<'a>], titles: &[&str]) -> Option<&'b [Line<'a>]> {
    let start = lines
        .iter()
        .position(|l| l.heading.is_some_and(|(_, t)| is_one_of(t, titles)))?;
    let level = lines[start].heading.map_or(1, |(l, _)| l);
    let body = &lines[start + 1..];
    let len = body
        .iter()
        .position(|l| l.heading.is_some_and(|(lv, _)| lv <= level))
        .unwrap_or(body.len());
    Some(&body[..len])
}

/// Counts the open questions: 0 when the section is missing or empty or its first line says
/// there are none; otherwise its `-` / `*` bullets, or 1 for a question written as prose.
fn open_questions(lines: &[Line<'_>]) -> usize {
    let Some(body) = section_lines(lines, OPEN_QUESTIONS) else {
        return 0;
    };
    let Some(first) = markdown::first_nonblank(body.iter().map(|l| l.text)) else {
        return 0;
    };
    let bare = markdown::without_bullet(first)
        .trim()
        .trim_end_matches('.')
        .trim()
        .trim_matches('_')
        .to_lowercase();
    if NOTHING_OPEN.contains(&bare.as_str()) {
        return 0;
    }
    let bullets = body
        .iter()
        .filter(|l| {
            let t = l.text.trim_start();
            t.starts_with("- ") || t.starts_with("* ")
        })
        .count();
    bullets.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(text: &str) -> (&'static str, bool) {
        let f = parse_spec(text);
        (f.status.as_str(), f.legacy)
    }

    #[test]
    fn maturity_table() {
        let cases: &[(&str, (&str, bool))] = &[
            ("---\nstatus: draft\n---\n# Spec", ("draft", false)),
            ("---\nstatus: refining\n---\n", ("refining", false)),
            (
                "---\nstatus: ready-for-plan\n---\n",
                ("ready-for-plan", false),
            ),
            (
                "---\nstatus: \"Ready-For-Plan\"\n---\n",
                ("ready-for-plan", false),
            ),
            ("---\r\nstatus: 'refining'\r\n---\r\n", ("refining", false)),
            ("---\nstatus: done\n---\n", ("draft", false)),
            ("---\nstatus:\n---\n", ("draft", false)),
            ("---\nStatus: ready-for-plan\n---\n", ("draft", false)),
            (
                "---\ntitle: x\n---\n## Refinement decisions\n",
                ("draft", false),
            ),
            (
                "---\nstatus: ready-for-plan\n# never closed\n",
                ("draft", false),
            ),
            (
                "# Spec 001\n## Refinement decisions (v2):\n- a\n",
                ("ready-for-plan", true),
            ),
            (
                "# Spec 001\n## Q&A traceability\n",
                ("ready-for-plan", true),
            ),
            (
                "# Spec 001\n## Decisiones de refinamiento\n",
                ("ready-for-plan", true),
            ),
            (
                "# Spec 001\n```\n## Refinement decisions\n```\n",
                ("draft", true),
            ),
            ("# Spec 001\n## Requirement\n", ("draft", true)),
            ("", ("draft", true)),
        ];
        for (text, want) in cases {
            assert_eq!(status(text), *want, "{text:?}");
        }
    }

    #[test]
    fn open_questions_table() {
        let q = |body: &str| {
            parse_spec(&format!(
                "# S\n## Open questions\n{body}\n## Next\n- not a question\n"
            ))
            .open_questions
        };
        assert_eq!(q("- a?\n- b?\n* c?"), 3);
        assert_eq!(q("None."), 0);
        assert_eq!(q("- Ninguna"), 0);
        assert_eq!(q("\n\n_none_"), 0);
        assert_eq!(q("n/a"), 0);
        assert_eq!(q("—"), 0);
        assert_eq!(q("-"), 0);
        assert_eq!(q("Should we cache?"), 1);
        assert_eq!(q(""), 0);
        assert_eq!(q("Some prose\n- one\n  - nested"), 2);
        assert_eq!(
            parse_spec("# S\n## Open questions (2):\n- a\n").open_questions,
            1
        );
        assert_eq!(
            parse_spec("# S\n## Preguntas abiertas\n- a\n- b\n").open_questions,
            2
        );
        assert_eq!(parse_spec("# S\n").open_questions, 0);
    }

    #[test]
    fn declared_dates() {
        let f = parse_spec("---\nstatus: draft\ndate: 2026-01-02\n---\n# S\n");
        assert_eq!(f.declared.unwrap().date(), "2026-01-02");
        let f = parse_spec("# Spec 001 — x\n> Fecha: 2025-12-31\n## Requirement\n");
        assert_eq!(f.declared.unwrap().date(), "2025-12-31");
        assert_eq!(parse_spec("# S\n## R\nDate: 2026-01-01\n").declared, None);
    }
}
