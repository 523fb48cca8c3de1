//! `aw session-resume`: where a session stands, its narrative first.

use super::checkpoint::Checkpoint;
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
}
