//! What a write of the project block reports, as the commands that write it share it
//! (`workspace-init`, `remove-source`, `project-md-upsert`).

use crate::project::model::BranchMap;
use schemars::JsonSchema;
use serde::Serialize;

/// One file the block is written into.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FileResult {
    /// `CLAUDE.md` or `AGENTS.md`.
    pub file: &'static str,
    /// The same name (the reference's second key).
    pub path: &'static str,
    /// `created`, `updated` or `unchanged`.
    pub action: &'static str,
    /// `QTC-PROJECT` when the write replaced those legacy markers.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(extend("const" = "QTC-PROJECT"))]
    pub migrated_from: Option<&'static str>,
}

impl FileResult {
    /// A file written, with whether it held the legacy markers.
    pub fn new(file: &'static str, action: &'static str, migrated: bool) -> FileResult {
        FileResult {
            file,
            path: file,
            action,
            migrated_from: migrated.then_some("QTC-PROJECT"),
        }
    }
}

/// Why a new block was written in the reference's Spanish.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BlockLanguage<'a> {
    /// Always `es`.
    #[schemars(extend("const" = "es"))]
    pub language: &'static str,
    /// Always `reference_in_use`.
    #[schemars(extend("const" = "reference_in_use"))]
    pub reason: &'static str,
    /// The traces of the reference CLI found.
    pub traces: &'a [String],
}

impl<'a> BlockLanguage<'a> {
    /// The language chosen for these traces.
    pub fn of(traces: &'a [String]) -> BlockLanguage<'a> {
        BlockLanguage {
            language: "es",
            reason: "reference_in_use",
            traces,
        }
    }
}

/// What a write of the project block reports: compact (`ok`, `action`), or with `--verbose` the
/// block's branches and each file. `dropped_lines` is there whenever the write left a line out.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BlockWrite<'a> {
    /// Always `true`.
    #[schemars(extend("const" = true))]
    pub ok: bool,
    /// Always `init`.
    #[schemars(extend("const" = "init"))]
    pub action: &'static str,
    /// With `--verbose`: always `init`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<&'static str>,
    /// With `--verbose`: the block's working branches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub working_branches: Option<&'a BranchMap>,
    /// With `--verbose`: the block's QA branches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qa_branches: Option<&'a BranchMap>,
    /// With `--verbose`: each file written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub results: Option<Vec<FileResult>>,
    /// The lines the block no longer declares.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dropped_lines: Option<&'a [String]>,
    /// Why a new block is in Spanish.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_language: Option<BlockLanguage<'a>>,
}

/// The output of `aw set-working-branch` and `aw set-qa-branch`: the block write's report.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct BranchSet<'a> {
    /// The write, as every block write reports it.
    #[serde(flatten)]
    pub write: BlockWrite<'a>,
    /// The alias whose branch was set (for the human view).
    #[serde(skip)]
    #[schemars(skip)]
    pub alias: &'a str,
    /// The branch set (for the human view).
    #[serde(skip)]
    #[schemars(skip)]
    pub branch: &'a str,
    /// `working branch` or `QA branch` (for the human view).
    #[serde(skip)]
    #[schemars(skip)]
    pub list: &'static str,
    /// Each file written, whatever `--verbose` says (for the human view).
    #[serde(skip)]
    #[schemars(skip)]
    pub files: Vec<FileResult>,
}
