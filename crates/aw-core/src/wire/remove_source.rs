//! `aw remove-source`: what taking a source out of the workspace changed, or would change with
//! `--dry-run` (the reference's keys, then aw's).

use super::multiroot::{Multiroot, Skipped};
use super::project_block::FileResult;
use schemars::JsonSchema;
use serde::Serialize;

/// The output of `aw remove-source`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RemoveSource<'a> {
    /// Always `true`.
    #[schemars(extend("const" = true))]
    pub ok: bool,
    /// Whether nothing was written.
    pub dry_run: bool,
    /// The workspace (absolute).
    pub workspace: String,
    /// The source's alias.
    pub alias: &'a str,
    /// Its path as declared.
    pub path: &'a str,
    /// The processes stopped: aw starts none, so always 0.
    #[serde(rename = "processesStopped")]
    #[schemars(extend("const" = 0))]
    pub processes_stopped: u64,
    /// The source removed.
    pub source: RemovedSource<'a>,
    /// The project block's write.
    pub project_md: Results,
    /// The lines the block no longer declares.
    pub dropped_lines: &'a [String],
    /// Its folder withdrawn from the hosts' settings, or why not.
    pub detach_multiroot: Detach<'a>,
    /// Its launch folder.
    pub launch: Launch,
}

/// The source removed.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RemovedSource<'a> {
    /// Its alias.
    pub alias: &'a str,
    /// Its path as declared.
    pub path: &'a str,
    /// The branch work started from, or `null`.
    pub main_branch: Option<&'a str>,
}

/// The files the block is written into.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Results {
    /// Each file.
    pub results: Vec<FileResult>,
}

/// The source's folder in the hosts' settings.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Detach<'a> {
    /// Withdrawn.
    Withdrawn(Multiroot<'a>),
    /// Left: `not_external` (inside the workspace) or `still_used` (another source has it).
    Skipped(Skipped<'a>),
}

/// The source's launch folder.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Launch {
    /// `.<ns>/launch/<alias>`, workspace-relative.
    pub path: String,
    /// What the run does with it.
    pub action: &'static str,
}

/// The `details` of an alias that names no source.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnknownSource {
    /// The alias asked for.
    pub alias: String,
    /// The block's aliases, in order.
    pub known: Vec<String>,
}
