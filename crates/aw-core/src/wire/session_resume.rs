//! `aw session-resume`: where a session stands, its narrative first.

use super::checkpoint::Checkpoint;
use crate::board::session_view::{checkpoint_view, session_view};
use crate::session::folder::SessionFolder;
use crate::session::narrative::Narrative;
use schemars::JsonSchema;
use serde::Serialize;

/// The output of `aw session-resume`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SessionResume<'a> {
    /// The session's number (`NNN`).
    pub code: &'a str,
    /// Its folder.
    pub folder: &'a str,
    /// The folder, workspace-relative.
    pub path: &'a str,
    /// `active` or `closed`.
    pub state: &'static str,
    /// What it did, what is next, each fact with its source.
    pub narrative: &'a Narrative,
    /// The objective's text (the reference's key), or `null`.
    pub objetivo: Option<&'a str>,
    /// The same text, under the reference's second key.
    pub objetivo_text: Option<&'a str>,
    /// Its checkpoint, or `null`.
    pub checkpoint: Option<Checkpoint<'a>>,
    /// Why the narrative block could not be refreshed on `--reopen`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub narrative_error: Option<String>,
    /// What the human view shows beside the narrative.
    #[serde(skip)]
    #[schemars(skip)]
    pub lines: ResumeLines,
}

/// The lines a person reads about a resumed session (not part of the JSON): the objective and
/// checkpoint lines the board shows.
#[derive(Debug, Clone, Default)]
pub struct ResumeLines {
    /// The session was reopened by this call.
    pub reopened: bool,
    /// The objective's first meaningful line, else the summary listings show.
    pub objective: Option<String>,
    /// The checkpoint's done and next lines, when it has a checkpoint.
    pub checkpoint: Option<(Option<String>, Option<String>)>,
}

impl ResumeLines {
    /// The lines of `folder`, from its descriptor's and checkpoint's text.
    pub fn of(
        folder: &SessionFolder,
        descriptor: Option<&str>,
        checkpoint: Option<&str>,
        reopened: bool,
    ) -> ResumeLines {
        ResumeLines {
            reopened,
            objective: descriptor.map(|text| {
                let view = session_view(folder, Some(text));
                view.objective.unwrap_or(view.summary)
            }),
            checkpoint: checkpoint
                .map(checkpoint_view)
                .map(|v| (v.completed, v.pending)),
        }
    }
}
