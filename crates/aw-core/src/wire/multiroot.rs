//! What a change of multi-root visibility reports, one entry per host (the reference's keys):
//! shared by `workspace-init`'s `attach_multiroot` and `remove-source`.

use schemars::JsonSchema;
use serde::Serialize;

/// A host, or a step, left alone, and why.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Skipped<'a> {
    /// Always `true`.
    #[schemars(extend("const" = true))]
    pub skipped: bool,
    /// Why (`skipped_by_flag`, `no_project_setting`, …).
    pub reason: &'a str,
}

impl<'a> Skipped<'a> {
    /// Skipped for this reason.
    pub fn because(reason: &'a str) -> Skipped<'a> {
        Skipped {
            skipped: true,
            reason,
        }
    }
}

/// One host's file.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Host<'a> {
    /// The file, and what it gains and loses.
    File(HostFile<'a>),
    /// The command was told to leave it alone.
    Skipped(Skipped<'a>),
}

/// A host's file changed (or not).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HostFile<'a> {
    /// The file, relative to the workspace root.
    pub file: &'a str,
    /// `created`, `updated` or `unchanged`.
    pub action: &'a str,
    /// Folders it gains.
    pub added: &'a [String],
    /// Folders it loses.
    pub removed: &'a [String],
}

/// The reference's multi-root object.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Multiroot<'a> {
    /// The folders made visible.
    pub paths: &'a [String],
    /// Claude Code's settings.
    pub claude: Host<'a>,
    /// Codex's config.
    pub codex: Host<'a>,
    /// Warp (and its agent Oz): never written.
    pub warp: Skipped<'a>,
    /// The folders withdrawn.
    pub detached_removed: Vec<String>,
}
