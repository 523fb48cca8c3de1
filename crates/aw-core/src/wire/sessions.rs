//! `aw sessions`: the sessions of the workspace, with the reference's keys in its order.

use schemars::JsonSchema;
use serde::Serialize;

/// The output of `aw sessions`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Listing {
    /// The sessions shown (by `--state`, `--all`, `--verbose`).
    pub sessions: Vec<Entry>,
    /// Active sessions in the workspace.
    pub active_count: usize,
    /// Closed sessions in the workspace.
    pub closed_count: usize,
    /// All sessions in the workspace.
    pub total_count: usize,
    /// The number the next session will get.
    pub next_correlative: String,
    /// With `--include-legacy`: the (always empty) list the reference reported.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legacy: Option<Vec<Entry>>,
    /// With `--verbose`: whether HISTORY.md exists.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history_exists: Option<bool>,
}

/// One session.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// Its number.
    pub code: String,
    /// Its name (the folder without the number).
    pub name: String,
    /// Its folder.
    pub folder: String,
    /// The folder, workspace-relative (absolute with `--verbose`).
    pub path: String,
    /// `active` or `closed`.
    pub state: &'static str,
    /// Its type, when the session says.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// The day it started.
    pub date: String,
    /// Its objective's first line.
    pub summary: String,
    /// Its `Branch:` line, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
}
