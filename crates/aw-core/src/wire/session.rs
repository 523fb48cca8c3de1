//! `aw session-create` and `aw session-close`.

pub use crate::custody::InputsFrom;
use crate::isolation::integration::integrate_command;
use crate::isolation::units::{Inventory, OrphanReason, unit_branch};
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
    /// The session's units still holding work to merge (present only when there are some):
    /// closing never merges or removes a unit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending_integration: Option<Vec<PendingUnit>>,
    /// The command that reopens the session to integrate them (with `pending_integration`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reopen: Option<String>,
    /// Why the session's units could not be listed (never read as "nothing to integrate").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending_integration_error: Option<String>,
    /// The reservations released (slots it claimed and never used).
    pub reservations_released: &'a [String],
    /// Why the narrative block could not be refreshed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub narrative_error: Option<&'a str>,
}

/// A unit of a closed session that still holds work to merge.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PendingUnit {
    /// The source's alias.
    pub alias: String,
    /// The unit's branch.
    pub branch: String,
    /// The unit's folder.
    pub path: String,
    /// The command that merges it (after reopening the session).
    pub command: String,
}

impl PendingUnit {
    /// The units `folder` holds in `inv`, listed after it was closed: its live units and the
    /// ones orphaned only because it is closed (a unit whose folder is gone holds nothing).
    pub fn held(folder: &str, inv: &Inventory) -> Vec<PendingUnit> {
        let live = inv
            .units
            .iter()
            .filter(|u| u.session == folder)
            .map(|u| (u.alias.as_str(), u.branch.clone(), u.path.as_str()));
        let closed = inv
            .orphans
            .iter()
            .filter(|o| o.session == folder && o.reason == OrphanReason::SessionClosed)
            .map(|o| {
                (
                    o.alias.as_str(),
                    o.branch.clone().unwrap_or_else(|| unit_branch(folder)),
                    o.path.as_str(),
                )
            });
        live.chain(closed)
            .map(|(alias, branch, path)| PendingUnit {
                alias: alias.to_owned(),
                branch,
                path: path.to_owned(),
                command: integrate_command(alias, folder),
            })
            .collect()
    }
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
