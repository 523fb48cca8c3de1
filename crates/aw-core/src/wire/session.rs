//! `aw session-create` and `aw session-close`.

pub use crate::custody::InputsFrom;
use schemars::JsonSchema;
use serde::Serialize;

/// The output of `aw session-create`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SessionCreate<'a> {
    /// `research`, `refine`, `exec` or `quick`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The name as given.
    pub name: &'a str,
    /// The session's number, zero-padded.
    pub number: String,
    /// Its folder's name.
    pub folder: &'a str,
    /// The folder (absolute).
    pub path: String,
    /// Its SESSION.md (absolute).
    pub session_path: String,
    /// Its custody record, `.custody.json` (absolute).
    pub custody_path: String,
    /// The inputs sealed in the custody, workspace-relative.
    pub inputs: Vec<String>,
    /// Where the inputs came from: `declared` (`--input`), `derived` (from the name) or `none`.
    pub inputs_from: InputsFrom,
    /// Why no input was derived when the name expected a document (none or several matched).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inputs_note: Option<String>,
    /// `--from` as given, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub origin: Option<&'a str>,
    /// The session's file, workspace-relative (for the human view).
    #[serde(skip)]
    #[schemars(skip)]
    pub shown_path: String,
}

/// The output of `aw session-close`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SessionClose<'a> {
    /// The session's number.
    pub code: &'a str,
    /// Its folder.
    pub folder: &'a str,
    /// Always `true`.
    #[schemars(extend("const" = true))]
    pub closed: bool,
    /// Its CHECKPOINT.md (absolute).
    pub checkpoint_path: String,
    /// Where its backlog would be written (absolute).
    pub backlog_path: String,
    /// `--refs` as given, or `null`.
    pub refs: Option<&'a str>,
    /// How many conversation bindings to it were removed.
    pub bindings_invalidated: usize,
    /// The HISTORY row written, or `null` when it could not be (see `history_error`).
    pub history: Option<HistoryRow>,
    /// Why the HISTORY row could not be written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history_error: Option<&'a str>,
    /// The reservations released (slots it claimed and never used).
    pub reservations_released: &'a [String],
    /// Why the narrative block could not be refreshed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub narrative_error: Option<&'a str>,
}

/// The HISTORY row a close wrote.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HistoryRow {
    /// `added`, `updated` or `unchanged`.
    pub action: &'static str,
    /// Always `closed`.
    #[schemars(extend("const" = "closed"))]
    pub state: &'static str,
}

/// The output of `aw history-update`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HistoryUpdate<'a> {
    /// The session's number.
    pub code: &'a str,
    /// Always `null` (the reference's key; aw keeps no flow in the row).
    #[schemars(extend("const" = null))]
    pub flow: Option<&'a str>,
    /// `added`, `updated` or `unchanged`.
    pub action: &'static str,
    /// The state written.
    pub state: &'static str,
    /// The row's key in HISTORY.md (for the human view).
    #[serde(skip)]
    #[schemars(skip)]
    pub row_key: &'a str,
}
