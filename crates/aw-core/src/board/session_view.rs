//! What the board reads of a session folder: the descriptor's summary, objective, origin and
//! start date; the checkpoint's completed and pending work and its exclusions; the backlog's
//! deferred items.

use crate::artifacts;
use crate::calendar::{Moment, parse_declared};
use crate::documents::relation::links_a_document;
use crate::markdown::{self, aliases};
use crate::session::document;
use crate::session::folder::{SessionFolder, SessionState, identity, numeric_code};

/// A session as the board sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionView {
    /// The folder name.
    pub folder: String,
    /// Active or closed.
    pub state: SessionState,
    /// The session's code (`NNN` for legacy folders, else the folder name).
    pub code: String,
    /// The number the folder starts with (`^(?:session)?(\d+)-`), if any.
    pub number: Option<String>,
    /// The type (`## Type`, else the name's flow suffix).
    pub kind: Option<String>,
    /// The one-line summary.
    pub summary: String,
    /// The first line of `## Objective` / `## Objetivo`.
    pub objective: Option<String>,
    /// Whether `## Origin` links a spec or plan document.
    pub links_document: bool,
    /// `Start date:` / `Fecha de inicio:`.
    pub declared: Option<Moment>,
}

/// Reads a session's descriptor (`SESSION.md`, or a legacy objective file).
pub fn session_view(folder: &SessionFolder, descriptor: Option<&str>) -> SessionView {
    let id = identity(&folder.folder);
    // The narrative block is a projection of the document: never read back as its content.
    let text = crate::session::narrative::strip(descriptor.unwrap_or(""));
    let lines = markdown::scan(&text);
    let facts = document::facts_in(&id.name, &lines);
    let section = |titles: &[&str]| markdown::section_any(&lines, titles);
    SessionView {
        folder: folder.folder.clone(),
        state: folder.state,
        number: numeric_code(&folder.folder),
        code: id.code,
        kind: facts.kind,
        summary: facts.summary,
        objective: section(aliases::OBJECTIVE).as_deref().and_then(first_line),
        links_document: section(aliases::ORIGIN).is_some_and(|o| links_a_document(&o)),
        declared: facts.date.as_deref().and_then(parse_declared),
    }
}

/// What the board reads of a CHECKPOINT.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CheckpointView {
    /// The first line of `## Completed` (else the snapshot's `## Last action`).
    pub completed: Option<String>,
    /// The first fact `## Completed` lists (see [`crate::session::narrative::bullet_texts`]):
    /// a session with one is `reanudada`.
    pub first_result: Option<String>,
    /// The first line of `## Pending / Next` (else the snapshot's `## Next step`).
    pub pending: Option<String>,
    /// The items under `## Excluded` / `Excluido(s)`.
    pub excluded: Vec<String>,
    /// `Updated:` / `Actualizado:`.
    pub updated: Option<Moment>,
}

/// Reads a checkpoint.
pub fn checkpoint_view(text: &str) -> CheckpointView {
    // Scanned once for all three readings.
    let lines = markdown::scan(text);
    let p = crate::artifacts::progress(&lines);
    CheckpointView {
        completed: p.ultimo.as_deref().and_then(first_line),
        first_result: crate::session::narrative::bullet_texts(p.ultimo.as_deref())
            .next()
            .map(str::to_owned),
        pending: p.proximo.as_deref().and_then(first_line),
        excluded: artifacts::excluded_items_in(&lines),
        updated: p.actualizado.as_deref().and_then(parse_declared),
    }
}

/// The deferred items of a BACKLOG.
pub fn deferred(text: &str) -> Vec<String> {
    artifacts::deferred_items(text)
}

/// A section's first meaningful line, owned (see [`markdown::first_meaningful_line`]).
fn first_line(body: &str) -> Option<String> {
    markdown::first_meaningful_line(body).map(str::to_owned)
}

impl SessionView {
    /// Whether the session is active.
    pub fn is_active(&self) -> bool {
        self.state == SessionState::Active
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> SessionFolder {
        SessionFolder {
            folder: name.into(),
            state: SessionState::Active,
        }
    }

    #[test]
    fn reads_current_and_legacy_descriptors() {
        let text = "# Session — 004-login-quick\n\nStart date: 2026-03-01\n\n## Objective\nShip the OTP login\n\n\
                    ## Origin\n- quick-loop, docs/plans/003-plan-login.md\n";
        let v = session_view(&folder("004-login-quick"), Some(text));
        assert_eq!(v.objective.as_deref(), Some("Ship the OTP login"));
        assert!(v.links_document);
        assert_eq!(v.kind.as_deref(), Some("quick"));
        assert_eq!(v.number.as_deref(), Some("004"));
        assert_eq!(v.declared.unwrap().date(), "2026-03-01");
        let es = "# Objetivo — session001-dev-foo\nFecha de inicio: 2026-01-01\n## Objetivo\n\n- Arreglar foo\n## Origen\nconversación\n";
        let v = session_view(&folder("session001-dev-foo"), Some(es));
        assert_eq!(
            (v.code.as_str(), v.objective.as_deref()),
            ("001", Some("Arreglar foo"))
        );
        assert!(!v.links_document);
        let none = session_view(&folder("x"), None);
        assert_eq!((none.summary.as_str(), none.objective), ("x", None));
    }

    #[test]
    fn checkpoint_lines_skip_placeholders() {
        let cp = "# Checkpoint\n- Updated: 2026-03-01 10:30\n## Completed\n- F1 validated\n\
                  ## Pending / Next\n_[AI: next]_\n- F2 tests\n## Excluded (scope)\n- dark mode\n";
        let v = checkpoint_view(cp);
        assert_eq!(v.completed.as_deref(), Some("F1 validated"));
        assert_eq!(v.pending.as_deref(), Some("F2 tests"));
        assert_eq!(v.excluded, ["dark mode"]);
        assert!(v.updated.unwrap().precise);
        let es =
            "## Lo último que hice\nmigré el esquema\n## Próximo paso\nseguir\n## Excluidos\n- x\n";
        let v = checkpoint_view(es);
        assert_eq!(
            (v.completed.as_deref(), v.pending.as_deref()),
            (Some("migré el esquema"), Some("seguir"))
        );
        assert_eq!(checkpoint_view("# CHECKPOINT\n"), CheckpointView::default());
        assert_eq!(deferred("## Diferidos\n- later\n"), ["later"]);
    }
}
