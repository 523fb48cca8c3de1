//! Reading a CHECKPOINT back: aw's own snapshot, the reference's (either language), or one a
//! loop maintains.

use crate::artifacts::{Progress, progress};
use crate::markdown::{self, Line, aliases};

/// A CHECKPOINT as `checkpoint-read` reports it (the reference's Spanish keys, in its order).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Fields {
    /// `Updated:` / `Actualizado:`.
    pub actualizado: Option<String>,
    /// `Progress:` / `Avance:`.
    pub avance: Option<String>,
    /// `## Completed`, else `## Last action` / `Lo último que hice`.
    pub ultimo: Option<String>,
    /// `## Pending / Next`, else `## Next step` / `Próximo paso`.
    pub proximo: Option<String>,
    /// `## Recent decisions` / `Decisiones recientes`.
    pub decisiones: Option<String>,
    /// `## Files touched (post-last-commit)`, else `## Files touched` (or the Spanish forms).
    pub archivos: Option<String>,
    /// `## Critical context to resume` / `Contexto crítico para retomar`.
    pub contexto: Option<String>,
    /// `## Refs`.
    pub refs: Option<String>,
}

/// Reads a CHECKPOINT written by aw, by the reference (either language) or by a loop.
pub fn parse(text: &str) -> Fields {
    let lines = markdown::scan(text);
    let sec = |titles: &[&str]| first_section(&lines, titles);
    let Progress {
        actualizado,
        ultimo,
        proximo,
    } = progress(&lines);
    Fields {
        actualizado,
        avance: header_value_in(&lines, aliases::PROGRESS),
        ultimo,
        proximo,
        decisiones: sec(aliases::RECENT_DECISIONS),
        archivos: sec(aliases::FILES_TOUCHED_POST).or_else(|| sec(aliases::FILES_TOUCHED)),
        contexto: sec(aliases::CRITICAL_CONTEXT),
        refs: sec(&["Refs"]),
    }
}

/// A key/value line, outside fences. Keys are tried in order.
pub(super) fn header_value(text: &str, keys: &[&str]) -> Option<String> {
    header_value_in(&markdown::scan(text), keys)
}

/// [`header_value`] over already scanned lines.
fn header_value_in(lines: &[Line<'_>], keys: &[&str]) -> Option<String> {
    markdown::value_in(lines.iter().filter(|l| !l.fenced).map(|l| l.text), keys)
}

fn first_section(lines: &[Line<'_>], titles: &[&str]) -> Option<String> {
    markdown::section_any(lines, titles)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkpoint::snapshot::sample as snapshot;
    use crate::checkpoint::template::render;

    const SPANISH: &str = "# Checkpoint — session001-dev-foo\r\n\r\n- **Actualizado:** 2026-01-03 10:00\r\n\
        - Avance: 40% (2/5)\r\n\r\n## Lo último que hice\r\nparser listo\r\n\r\n## Próximo paso\r\n\
        tabla\r\n\r\n## Decisiones recientes\r\n- DEC-002\r\n\r\n## Archivos tocados\r\n- a.ts\r\n\r\n\
        ## Contexto crítico para retomar\r\nnada\r\n\r\n## Refs\r\n- x\r\n";

    #[test]
    fn parse_our_own_snapshot() {
        let f = parse(&render(&snapshot()));
        assert_eq!(f.actualizado.as_deref(), Some("2026-03-01 10:30"));
        assert_eq!(f.avance.as_deref(), Some("40% (2 of 5 tasks done)"));
        assert!(f.ultimo.unwrap().starts_with("_[AI:"));
        assert!(f.proximo.unwrap().starts_with("_[AI:"));
        assert_eq!(f.decisiones.as_deref(), Some("- DEC-002: ESM: No CJS."));
        assert!(f.archivos.unwrap().starts_with("- src/a.rs"));
        assert!(f.contexto.unwrap().starts_with("_[AI:"));
        assert!(f.refs.unwrap().starts_with("- Origin: spec-refine-loop"));
    }

    #[test]
    fn parse_reference_spanish_with_crlf() {
        let f = parse(SPANISH);
        assert_eq!(f.actualizado.as_deref(), Some("2026-01-03 10:00"));
        assert_eq!(f.avance.as_deref(), Some("40% (2/5)"));
        assert_eq!(f.ultimo.as_deref(), Some("parser listo"));
        assert_eq!(f.proximo.as_deref(), Some("tabla"));
        assert_eq!(f.decisiones.as_deref(), Some("- DEC-002"));
        assert_eq!(f.archivos.as_deref(), Some("- a.ts"));
        assert_eq!(f.contexto.as_deref(), Some("nada"));
        assert_eq!(f.refs.as_deref(), Some("- x"));
    }

    #[test]
    fn loop_owned_headings_win() {
        let text = "# CHECKPOINT\n\n## Completed\n- F1 done\n\n## Pending / Next\n- F2\n\n\
                    ## Last action\nold\n\n```md\n## Next step\nfenced\n```\n";
        let f = parse(text);
        assert_eq!(f.ultimo.as_deref(), Some("- F1 done"));
        assert_eq!(f.proximo.as_deref(), Some("- F2"));
        let only_fenced = parse("```\n## Next step\nx\n```\nUpdated: 2026-01-01 10:00\n");
        assert_eq!(only_fenced.proximo, None);
        assert_eq!(only_fenced.actualizado.as_deref(), Some("2026-01-01 10:00"));
        assert_eq!(parse("```\nUpdated: 2026\n```\n").actualizado, None);
        assert_eq!(parse(""), Fields::default());
    }
}
