//! Discarded items (§10.5): what sessions deferred (BACKLOG `## Deferred`) or excluded
//! (CHECKPOINT `## Excluded`), so nothing set aside is forgotten.

use super::board_input::SessionInput;
use super::status::dated;
use crate::calendar::WallClock;
use serde::Serialize;

/// One deferred or excluded item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct DiscardedEntry {
    /// The session's code.
    pub source: String,
    /// The workspace-relative path of the session folder whose BACKLOG or CHECKPOINT lists it
    /// (`.<ns>/sessions/<folder>`), as the reference gives it.
    pub source_path: String,
    /// `deferred` (BACKLOG) or `excluded` (CHECKPOINT).
    pub kind: &'static str,
    /// The item's text.
    pub text: String,
    /// `YYYY-MM-DD` of the file (a checkpoint's `Updated:` when it has one).
    pub date: Option<String>,
    /// How long ago, in English.
    pub relative: Option<String>,
}

/// The discarded items of every session (active and closed), in session order: deferred items
/// first, then excluded ones.
pub fn discarded(sessions: &[SessionInput], now: &WallClock) -> Vec<DiscardedEntry> {
    let mut out = Vec::new();
    for s in sessions {
        if let Some(b) = &s.backlog {
            let (date, relative) = dated(None, b.modified, now);
            for text in &b.facts {
                out.push(DiscardedEntry {
                    source: s.view.code.clone(),
                    source_path: s.path.clone(),
                    kind: "deferred",
                    text: text.clone(),
                    date: date.clone(),
                    relative: relative.clone(),
                });
            }
        }
        if let Some(c) = &s.checkpoint {
            let (date, relative) = dated(c.facts.updated, c.modified, now);
            for text in &c.facts.excluded {
                out.push(DiscardedEntry {
                    source: s.view.code.clone(),
                    source_path: s.path.clone(),
                    kind: "excluded",
                    text: text.clone(),
                    date: date.clone(),
                    relative: relative.clone(),
                });
            }
        }
    }
    out
}
