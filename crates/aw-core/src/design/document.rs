//! A package's `DESIGN.md` and the content gate it must pass (package format v1): the first line
//! is `# <title>`; the level-2 sections `## Objective`, `## Proposed design` and `## Validation`
//! are required and non-empty; `## Journey`, `## Decisions` and `## Open questions` are optional
//! and, when present, non-empty. Headings are read in English and in the reference's Spanish
//! (`## Objetivo`, `## Diseño propuesto`, `## Validación`, `## Recorrido`, `## Decisiones`,
//! `## Abiertos`), folded (case and accents), fence-aware: a `## ` line inside a code fence is
//! content, not a section. Other level-2 sections are the author's own and are left alone.
//!
//! The gate is one rule set used twice: when an answer is turned into a plan (an invalid
//! document is never published) and when `validate` judges a package on disk (its
//! `design-content` validation).

use super::failure::DesignFailure;
use crate::error_code::ErrorCode;
use crate::markdown::{fold_eq, scan};

/// One section the format knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SectionRule {
    /// The English heading aw writes in its contracts and documentation.
    pub name: &'static str,
    /// Every heading that names it, folded (lower case, no accents): English first.
    pub folded: &'static [&'static str],
    /// Whether every document must have it.
    pub required: bool,
}

/// `## Objective`: what the design is for.
pub const OBJECTIVE: SectionRule = SectionRule {
    name: "Objective",
    folded: &["objective", "objetivo"],
    required: true,
};
/// `## Proposed design`: the design itself.
pub const PROPOSED_DESIGN: SectionRule = SectionRule {
    name: "Proposed design",
    folded: &["proposed design", "diseno propuesto"],
    required: true,
};
/// `## Validation`: how to tell the design works.
pub const VALIDATION: SectionRule = SectionRule {
    name: "Validation",
    folded: &["validation", "validacion"],
    required: true,
};
/// `## Journey`: the path a person takes through it.
pub const JOURNEY: SectionRule = SectionRule {
    name: "Journey",
    folded: &["journey", "recorrido"],
    required: false,
};
/// `## Decisions`: what was decided, and why.
pub const DECISIONS: SectionRule = SectionRule {
    name: "Decisions",
    folded: &["decisions", "decisiones"],
    required: false,
};
/// `## Open questions`: what is still undecided (its presence keeps a package at `outline`).
pub const OPEN_QUESTIONS: SectionRule = SectionRule {
    name: "Open questions",
    folded: &["open questions", "abiertos"],
    required: false,
};

/// Every section of the format, in the order a document presents them.
pub const SECTIONS: [SectionRule; 6] = [
    OBJECTIVE,
    JOURNEY,
    PROPOSED_DESIGN,
    DECISIONS,
    VALIDATION,
    OPEN_QUESTIONS,
];

/// A known section as a document holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundSection {
    /// Which section.
    pub rule: SectionRule,
    /// Its body up to the next level-1 or level-2 heading, trimmed.
    pub body: String,
}

/// A `DESIGN.md` as read: its title line and its known sections, whether or not they pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DesignDocument {
    /// The text of the `# <title>` first line, when the first line is one.
    pub title: Option<String>,
    /// The known level-2 sections, in document order (a repeated one appears twice).
    pub sections: Vec<FoundSection>,
}

impl DesignDocument {
    /// Reads a document (a leading byte-order mark is ignored; CRLF reads as LF).
    pub fn read(text: &str) -> Self {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let lines = scan(text);
        let title = lines
            .first()
            .and_then(|l| l.heading)
            .filter(|(level, _)| *level == 1)
            .map(|(_, t)| t.trim().to_owned());
        let mut sections = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            let Some((2, heading)) = line.heading else {
                continue;
            };
            let Some(rule) = SECTIONS
                .iter()
                .find(|r| r.folded.iter().any(|f| fold_eq(heading, f)))
            else {
                continue;
            };
            let body: Vec<&str> = lines[i + 1..]
                .iter()
                .take_while(|l| l.heading.is_none_or(|(level, _)| level > 2))
                .map(|l| l.text)
                .collect();
            sections.push(FoundSection {
                rule: *rule,
                body: body.join("\n").trim().to_owned(),
            });
        }
        DesignDocument { title, sections }
    }

    /// The first body of `rule`'s section, when the document has it.
    pub fn section(&self, rule: SectionRule) -> Option<&str> {
        self.sections
            .iter()
            .find(|s| s.rule == rule)
            .map(|s| s.body.as_str())
    }

    /// Whether the document has an `## Open questions` section (empty or not).
    pub fn has_open_questions(&self) -> bool {
        self.section(OPEN_QUESTIONS).is_some()
    }
}

fn content(artifact: &str, message: String, action: String) -> DesignFailure {
    DesignFailure::new(ErrorCode::DesignContentInvalid, artifact, message, action)
}

/// The content gate: every rule `doc` breaks, in rule order (title, then each section of
/// [`SECTIONS`]), each a `DESIGN_CONTENT_INVALID` about `artifact`. Empty when it passes.
pub fn check_document(doc: &DesignDocument, artifact: &str) -> Vec<DesignFailure> {
    let mut failures = Vec::new();
    if doc.title.as_deref().is_none_or(str::is_empty) {
        failures.push(content(
            artifact,
            "the first line is not the title ('# <title>')".to_owned(),
            "start the document with '# ' and the design's title".to_owned(),
        ));
    }
    for rule in SECTIONS {
        let found: Vec<&FoundSection> = doc.sections.iter().filter(|s| s.rule == rule).collect();
        match found.as_slice() {
            [] if rule.required => failures.push(content(
                artifact,
                format!("the required section '## {}' is missing", rule.name),
                format!("add '## {}' with its content", rule.name),
            )),
            [] => {}
            [one] if one.body.is_empty() => failures.push(content(
                artifact,
                format!("the section '## {}' is empty", rule.name),
                if rule.required {
                    format!("write the '## {}' section", rule.name)
                } else {
                    format!(
                        "write the '## {}' section, or leave it out: an optional section is present only when it says something",
                        rule.name
                    )
                },
            )),
            [_] => {}
            _ => failures.push(content(
                artifact,
                format!("the section '## {}' appears {} times", rule.name, found.len()),
                format!("keep one '## {}' section", rule.name),
            )),
        }
    }
    failures
}

/// The contract's description of the document an agent authors (our English).
pub fn document_contract() -> String {
    let required: Vec<String> = SECTIONS
        .iter()
        .filter(|r| r.required)
        .map(|r| format!("'## {}'", r.name))
        .collect();
    let optional: Vec<String> = SECTIONS
        .iter()
        .filter(|r| !r.required)
        .map(|r| format!("'## {}'", r.name))
        .collect();
    format!(
        "DESIGN.md starts with '# <title>' and has the level-2 sections {} (required, not empty), and {} only when they have something to say. An '## Open questions' section keeps the design at 'outline' maturity.",
        required.join(", "),
        optional.join(", ")
    )
}

#[cfg(test)]
#[path = "document_tests.rs"]
mod tests;
