//! `aw workspace-init`: what making (or reconciling) a workspace did, or would do with
//! `--dry-run` (the reference's keys).

use super::multiroot::{Host, Multiroot};
use super::project_block::{BlockLanguage, FileResult};
use crate::project::model::BranchMap;
use schemars::JsonSchema;
use serde::Serialize;

/// The output of `aw workspace-init`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WorkspaceInit<'a> {
    /// Always `true`.
    #[schemars(extend("const" = true))]
    pub ok: bool,
    /// Whether nothing was written.
    pub dry_run: bool,
    /// The workspace (absolute).
    pub workspace: String,
    /// How many sources the block declares.
    pub sources: usize,
    /// The folders.
    pub scaffold: Scaffold,
    /// `created` or `exists`.
    pub skills_toml: &'static str,
    /// What happens to `.gitignore`.
    pub gitignore: &'static str,
    /// Generated launch folders moved from `docs/tools/`.
    pub legacy_launch: Vec<LegacyLaunch<'a>>,
    /// The project block's write.
    pub project_md: ProjectMd<'a>,
    /// Multi-root visibility.
    pub attach_multiroot: Attach<'a>,
    /// The sources the block declares (the human view lists them).
    #[serde(skip)]
    #[schemars(skip)]
    pub declared: Vec<DeclaredSource<'a>>,
}

/// A source the block declares.
#[derive(Debug, Clone)]
pub struct DeclaredSource<'a> {
    /// Its alias.
    pub alias: &'a str,
    /// Its path.
    pub path: &'a str,
    /// The branch work starts from.
    pub main_branch: Option<&'a str>,
}

/// The folders, absolute.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scaffold {
    /// Created.
    pub created: Vec<String>,
    /// Already there.
    pub existing: Vec<String>,
    /// Legacy scaffold files and folders removed.
    pub pruned: Vec<String>,
}

/// A generated launch folder of `docs/tools/`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LegacyLaunch<'a> {
    /// The folder's name.
    pub tool: &'a str,
    /// Where it is, workspace-relative.
    pub from: String,
    /// Where it goes, workspace-relative.
    pub to: String,
    /// What the run does with it.
    pub action: &'static str,
}

/// The project block's write.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProjectMd<'a> {
    /// Always `true`.
    #[schemars(extend("const" = true))]
    pub ok: bool,
    /// Always `init`.
    #[schemars(extend("const" = "init"))]
    pub action: &'static str,
    /// Always `init`.
    #[schemars(extend("const" = "init"))]
    pub mode: &'static str,
    /// The block's working branches.
    pub working_branches: &'a BranchMap,
    /// The block's QA branches.
    pub qa_branches: &'a BranchMap,
    /// Each file written.
    pub results: Vec<FileResult>,
    /// The lines the block no longer declares.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dropped_lines: Option<&'a [String]>,
    /// Why a new block is in Spanish.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_language: Option<BlockLanguage<'a>>,
}

/// Multi-root visibility: the hosts' files, or skipped when no source lies outside.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Attach<'a> {
    /// Some source lies outside the workspace.
    Attached(Multiroot<'a>),
    /// None does.
    Skipped(NoExternal<'a>),
}

/// No source lies outside the workspace; the folders of removed ones withdrawn, if any.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoExternal<'a> {
    /// Always `true`.
    #[schemars(extend("const" = true))]
    pub skipped: bool,
    /// Always `no_external_sources`.
    #[schemars(extend("const" = "no_external_sources"))]
    pub reason: &'static str,
    /// The folders withdrawn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detached_removed: Option<Vec<String>>,
    /// Claude Code's settings, when folders were withdrawn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claude: Option<Host<'a>>,
    /// Codex's config, when folders were withdrawn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub codex: Option<Host<'a>>,
}

/// The `details` of a failed `workspace-init` (`WORKSPACE_INIT_FAILED`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InitFailed {
    /// The step that failed (`project_md`, `attach_multiroot`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<&'static str>,
    /// The file that could not be updated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The cause.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cause: Option<InitCause>,
    /// The process holding the lock.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pid: Option<String>,
    /// The project block's write, when it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub project_md: Option<NotOk>,
    /// The multi-root step, when it was skipped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attach_multiroot: Option<super::multiroot::Skipped<'static>>,
}

/// Why `workspace-init` failed: an error code, or the error's text.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum InitCause {
    /// The lock was busy.
    Code(crate::error_code::ErrorCode),
    /// The write's error.
    Text(String),
}

/// `{"ok": false}`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct NotOk {
    /// Always `false`.
    pub ok: bool,
}
