//! `SESSION.md`: the file `session-create` writes, and what listings read back from it (or from
//! a legacy `OBJECTIVE.md` / `OBJETIVO.md` / `REQUIREMENTS.md`), in English and in the
//! reference's Spanish.

use super::names::{SessionType, type_from_suffix};
use crate::markdown::{self, aliases};

/// What `session-create` puts in a new `SESSION.md`.
#[derive(Debug, Clone)]
pub struct NewSession<'a> {
    /// The raw `--name`, trimmed (the title shows it as typed).
    pub name: &'a str,
    /// `--objective`.
    pub objective: &'a str,
    /// The `--from` items, trimmed and non-empty; empty when none were given.
    pub origins: &'a [String],
    /// `--type`.
    pub declared: SessionType,
    /// The creation date, `YYYY-MM-DD`: the session's date from now on, whatever happens to
    /// the folder's mtime.
    pub start_date: &'a str,
}

/// The placeholder under `## Origin` when `--from` was not given.
pub const ORIGIN_PLACEHOLDER: &str = "<!-- Who opened this session and from where: the parent loop, the source document, the trigger. -->\n- ";

/// The seed under `## Success criteria`.
pub const CRITERIA_PLACEHOLDER: &str = "<!-- How we will know this session is done: checkable conditions, written before the work starts. Replace this comment when you fill them in. -->\n- [ ]";

/// Renders a new `SESSION.md`. `## Type` appears only when the name's flow suffix does not
/// already say the declared type.
pub fn render(s: &NewSession<'_>) -> String {
    let mut out = format!(
        "# Session — {}\n\nStart date: {}\n\n## Objective\n{}\n\n## Origin\n",
        s.name,
        s.start_date,
        s.objective.trim()
    );
    if s.origins.is_empty() {
        out.push_str(ORIGIN_PLACEHOLDER);
        out.push('\n');
    } else {
        for o in s.origins {
            out.push_str(&format!("- {o}\n"));
        }
    }
    if type_from_suffix(s.name) != Some(s.declared) {
        out.push_str(&format!("\n## Type\n{}\n", s.declared.as_str()));
    }
    out.push_str(&format!("\n## Success criteria\n{CRITERIA_PLACEHOLDER}\n"));
    out
}

/// Splits `--from` into trimmed, non-empty items.
pub fn split_origins(from: &str) -> Vec<String> {
    from.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// What a listing shows of a session, read from its descriptor file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Facts {
    /// `## Type`'s first line, lower-cased, else the type the name's suffix implies.
    pub kind: Option<String>,
    /// `Start date:` / `Fecha de inicio:`.
    pub date: Option<String>,
    /// The first line of the requirement, brief, question or description (≤ 100 characters),
    /// else the name with `-` read as spaces.
    pub summary: String,
    /// `Branch:` / `Rama:`.
    pub branch: Option<String>,
}

/// The longest summary, in characters.
pub const SUMMARY_CHARS: usize = 100;

/// Reads a session's facts. `name` is the identity name (the folder for current sessions, the
/// part after `sessionNNN-` for legacy ones); `text` is the descriptor file, if any.
pub fn facts(name: &str, text: Option<&str>) -> Facts {
    // The narrative block is a projection of the document: never read back as its content.
    let text = super::narrative::strip(text.unwrap_or(""));
    facts_in(name, &markdown::scan(&text))
}

/// [`facts`] of a descriptor already scanned into `lines` (no lines: no descriptor).
pub fn facts_in(name: &str, lines: &[markdown::Line<'_>]) -> Facts {
    let first_line = |body: Option<String>| {
        body.and_then(|b| markdown::first_nonblank_line(&b).map(str::to_owned))
    };
    let section = |titles: &[&str]| markdown::section_any(lines, titles);
    let kind = first_line(markdown::section_in(lines, "type"))
        .map(|t| t.to_lowercase())
        .or_else(|| type_from_suffix(name).map(|t| t.as_str().to_owned()));
    let summary = [
        aliases::REQUIREMENT,
        aliases::BRIEF,
        aliases::QUESTION,
        aliases::DESCRIPTION,
    ]
    .iter()
    .find_map(|group| first_line(section(group)))
    .map(|l| l.chars().take(SUMMARY_CHARS).collect())
    .unwrap_or_else(|| name.replace('-', " "));
    Facts {
        kind,
        date: markdown::value_in(lines.iter().map(|l| l.text), aliases::START_DATE),
        summary,
        branch: markdown::value_in(lines.iter().map(|l| l.text), aliases::BRANCH),
    }
}

/// The outline of a session document that `session-artifacts` reports: its title, how many
/// success (or acceptance) criteria it lists, and whether its origin is filled in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outline {
    /// The first level-1 heading.
    pub title: Option<String>,
    /// Checkbox lines under `## Success criteria` (else `## Acceptance criteria`), either
    /// language; a box with no text yet (the seed `- [ ]`) counts.
    pub criteria_count: usize,
    /// `## Origin` has a non-blank line (the placeholder comment counts, as in the reference).
    pub has_origin: bool,
}

/// Reads a session document's outline.
pub fn outline(text: &str) -> Outline {
    let text = super::narrative::strip(text);
    let lines = markdown::scan(&text);
    let title = lines.iter().find_map(|l| {
        l.heading
            .filter(|(level, _)| *level == 1)
            .map(|(_, t)| t.to_owned())
    });
    let criteria_count = [aliases::SUCCESS_CRITERIA, aliases::ACCEPTANCE]
        .iter()
        .find_map(|group| markdown::section_any(&lines, group))
        .map(|body| {
            body.lines()
                .filter(|l| crate::artifacts::is_criterion_line(l))
                .count()
        })
        .unwrap_or(0);
    let has_origin = markdown::section_any(&lines, aliases::ORIGIN)
        .is_some_and(|body| markdown::nonblank_lines(&body).next().is_some());
    Outline {
        title,
        criteria_count,
        has_origin,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outline_reads_both_languages() {
        let es =
            "# Objetivo — x\n\n## Origen\n\n## Criterios de aceptación\n- [ ] uno\n- [x] dos\n";
        assert_eq!(
            outline(es),
            Outline {
                title: Some("Objetivo — x".to_owned()),
                criteria_count: 2,
                has_origin: false
            }
        );
        let en = "intro\n# Session — y\n## Origin\n- loop\n## Success criteria\n- [ ] done when green\n## Acceptance criteria\n- [ ] a\n- [ ] b\n";
        let o = outline(en);
        assert_eq!(o.criteria_count, 1, "success criteria win over acceptance");
        // The seed of a new session is one criterion, as v21 and v22 count it; `[]` and a box
        // glued to its text count too, a box without a space after the marker does not.
        let seeded = "## Success criteria\n<!-- comment -->\n- [ ]\n";
        assert_eq!(outline(seeded).criteria_count, 1);
        let shapes = "## Success criteria\n- []\n  * [X]done\n-[ ] no\n- [y] no\n- [ ] yes\n";
        assert_eq!(outline(shapes).criteria_count, 3);
        assert!(o.has_origin);
        assert_eq!(o.title.as_deref(), Some("Session — y"));
    }

    #[test]
    fn the_narrative_block_is_not_read_as_the_document() {
        let text = "# Session — a\n\n## Objective\nx\n\n## Success criteria\n- [ ] one\n\n\
                    <!-- aw:recorrido -->\n## Recorrido\n\n- Branch: feat/b _(aplicado · SESSION.md)_\n\
                    - [ ] phantom\n\n<!-- /aw:recorrido -->\n";
        assert_eq!(facts("a", Some(text)).branch, None);
        assert_eq!(outline(text).criteria_count, 1);
    }

    #[test]
    fn renders_with_origin_items_and_type_when_suffix_differs() {
        let origins = split_origins("loop exec, docs/plan-004.md ,");
        let text = render(&NewSession {
            name: "session004-dev-nueva-tarea",
            objective: "Probar session-create del CLI TS",
            origins: &origins,
            declared: SessionType::Exec,
            start_date: "2026-01-05",
        });
        assert_eq!(
            text,
            "# Session — session004-dev-nueva-tarea\n\nStart date: 2026-01-05\n\n\
             ## Objective\nProbar session-create del CLI TS\n\n\
             ## Origin\n- loop exec\n- docs/plan-004.md\n\n## Type\nexec\n\n\
             ## Success criteria\n<!-- How we will know this session is done: checkable conditions, written before the work starts. Replace this comment when you fill them in. -->\n- [ ]\n"
        );
        let f = facts("session004-dev-nueva-tarea", Some(&text));
        assert_eq!(f.kind.as_deref(), Some("exec"));
        assert_eq!(f.date.as_deref(), Some("2026-01-05"));
    }

    #[test]
    fn suffix_type_omits_the_section_and_placeholder_origin() {
        let text = render(&NewSession {
            name: "login-spec-refine",
            objective: "x",
            origins: &[],
            declared: SessionType::Refine,
            start_date: "2026-01-05",
        });
        assert!(!text.contains("## Type"));
        assert!(text.contains(&format!("## Origin\n{ORIGIN_PLACEHOLDER}\n")));
        let f = facts("004-login-spec-refine", Some(&text));
        assert_eq!(f.kind.as_deref(), Some("refine"));
        assert_eq!(f.summary, "004 login spec refine");
    }

    #[test]
    fn spanish_legacy_descriptor() {
        let text = "# Objetivo — session001-dev-foo\n\nFecha de inicio: 2026-01-01\nRama: feat/x\n\n\
                    ## Requerimiento\n\nImplementar foo\n\n## Tipo\ndev\n";
        let f = facts("dev-foo", Some(text));
        assert_eq!(f.summary, "Implementar foo");
        assert_eq!(f.date.as_deref(), Some("2026-01-01"));
        assert_eq!(f.branch.as_deref(), Some("feat/x"));
        assert_eq!(f.kind, None, "## Tipo is not read");
        let q = facts("analyze-bar", Some("## Pregunta\n¿Por qué bar?\n"));
        assert_eq!(q.summary, "¿Por qué bar?");
        let long = format!("## Description\n{}\n", "é".repeat(150));
        assert_eq!(facts("x", Some(&long)).summary.chars().count(), 100);
        let order = "## Question\nq\n## Brief\nb\n";
        assert_eq!(facts("x", Some(order)).summary, "b");
        assert_eq!(facts("a-b", None).summary, "a b");
    }
}
