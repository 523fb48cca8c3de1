//! How usable a checkpoint is to resume from: missing, a draft with placeholders left, stale, or
//! complete.

use super::read::header_value;
use crate::calendar::WallClock;
use crate::markdown::{self, PLACEHOLDER, aliases};

/// A checkpoint whose `Updated:` is older than this many seconds is stale.
pub const STALE_AFTER_SECONDS: i64 = 300;

/// How usable a session's checkpoint is to resume from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// No CHECKPOINT.md.
    Missing,
    /// A section still holds an unfilled `_[AI: …]_` placeholder.
    Draft,
    /// Filled in, but `Updated:` is more than [`STALE_AFTER_SECONDS`] old.
    Stale,
    /// Filled in and fresh (or with no parsable `Updated:`).
    Complete,
}

impl Status {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Missing => "missing",
            Status::Draft => "draft",
            Status::Stale => "stale",
            Status::Complete => "complete",
        }
    }
}

/// A checkpoint's status with the facts behind it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assessment {
    /// The classification.
    pub status: Status,
    /// The fields whose sections still hold a placeholder, in document order, once each.
    pub unfilled: Vec<&'static str>,
    /// Seconds since `Updated:` (never negative), when it parses.
    pub age_seconds: Option<i64>,
}

impl Assessment {
    /// Everything but a complete checkpoint needs the agent.
    pub fn needs_ai_action(&self) -> bool {
        self.status != Status::Complete
    }
}

/// Classifies a checkpoint (`None` when the file is missing) against the local time `now`.
pub fn assess(text: Option<&str>, now: WallClock) -> Assessment {
    let Some(text) = text else {
        return Assessment {
            status: Status::Missing,
            unfilled: Vec::new(),
            age_seconds: None,
        };
    };
    let unfilled = unfilled_placeholders(text);
    let age_seconds = header_value(text, aliases::UPDATED)
        .and_then(|v| WallClock::parse(&v))
        .map(|ts| (now.seconds() - ts.seconds()).max(0));
    let status = if !unfilled.is_empty() {
        Status::Draft
    } else if age_seconds.is_some_and(|a| a > STALE_AFTER_SECONDS) {
        Status::Stale
    } else {
        Status::Complete
    };
    Assessment {
        status,
        unfilled,
        age_seconds,
    }
}

/// The fields whose level-2 sections still contain [`PLACEHOLDER`] (outside fences).
pub fn unfilled_placeholders(text: &str) -> Vec<&'static str> {
    let mut found: Vec<&'static str> = Vec::new();
    let mut current: Option<&'static str> = None;
    let mut in_section = false;
    for line in markdown::scan(text) {
        if let Some((level, title)) = line.heading {
            if level <= 2 {
                in_section = level == 2;
                current = if in_section {
                    field_of(&markdown::fold(title))
                } else {
                    None
                };
            }
            continue;
        }
        if in_section
            && !line.fenced
            && line.text.contains(PLACEHOLDER)
            && let Some(f) = current
            && !found.contains(&f)
        {
            found.push(f);
        }
    }
    found
}

/// Which field a folded section title feeds, for the placeholder report.
fn field_of(h: &str) -> Option<&'static str> {
    let starts = |p: &str| h.starts_with(p);
    if h == "completed" || starts("last action") || starts("lo ultimo que hice") || h == "lo ultimo"
    {
        Some("ultimo")
    } else if starts("pending") || starts("next step") || starts("proximo paso") {
        Some("proximo")
    } else if starts("open questions") || starts("critical context") || starts("contexto critico") {
        Some("contexto")
    } else if starts("files touched") || starts("archivos tocados") {
        Some("archivos_proposito")
    } else if h == "refs" {
        Some("skills")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkpoint::read::parse;
    use crate::checkpoint::snapshot::sample as snapshot;
    use crate::checkpoint::template::render;

    fn at(s: &str) -> WallClock {
        WallClock::parse(s).unwrap()
    }

    #[test]
    fn status_classification() {
        let now = at("2026-03-01 10:30");
        assert_eq!(assess(None, now).status, Status::Missing);
        assert!(assess(None, now).needs_ai_action());

        let draft = assess(Some(&render(&snapshot())), now);
        assert_eq!(draft.status, Status::Draft);
        assert_eq!(
            draft.unfilled,
            [
                "ultimo",
                "proximo",
                "archivos_proposito",
                "contexto",
                "skills"
            ]
        );
        assert_eq!(draft.age_seconds, Some(0));

        let filled = "- Updated: 2026-03-01 10:25\n## Last action\ndone\n";
        let a = assess(Some(filled), now);
        assert_eq!((a.status, a.age_seconds), (Status::Complete, Some(300)));
        assert!(!a.needs_ai_action());
        let a = assess(Some(filled), at("2026-03-01 10:30:01"));
        assert_eq!(a.status, Status::Stale);
        let es = assess(Some("Actualizado: 2026-03-01 09:00:00\n"), now);
        assert_eq!((es.status, es.age_seconds), (Status::Stale, Some(5400)));
        let future = assess(Some("Updated: 2026-03-02 09:00\n"), now);
        assert_eq!(
            (future.status, future.age_seconds),
            (Status::Complete, Some(0))
        );
        // Both spellings present: the age is read from the same line `checkpoint-read` reports.
        let both = "- Updated: 2026-03-01 10:25\n- Actualizado: 2026-03-01 09:00\n";
        assert_eq!(parse(both).actualizado.as_deref(), Some("2026-03-01 10:25"));
        assert_eq!(assess(Some(both), now).age_seconds, Some(300));
        let undated = assess(Some("## Completed\n- x\n"), now);
        assert_eq!(
            (undated.status, undated.age_seconds),
            (Status::Complete, None)
        );
    }

    #[test]
    fn placeholders_map_to_fields_in_both_languages() {
        let text = "## Completado\n_[AI: x]_\n## Próximo paso\n_[AI: y]_\n## Pending / Next\n_[AI: z]_\n\
                    ## Archivos tocados (post-último-commit)\n_[AI: w]_\n```\n## Refs\n_[AI: fenced]_\n```\n\
                    # Top\n_[AI: outside]_\n";
        assert_eq!(
            unfilled_placeholders(text),
            ["proximo", "archivos_proposito"]
        );
        assert!(unfilled_placeholders("no marker").is_empty());
    }
}
