//! Multi-root visibility: `aw visibility doctor` (whether the agent hosts' files list every
//! source outside the workspace, and nothing stale), `aw attach-multiroot` and
//! `aw detach-multiroot` (what changed in those files).

pub use super::multiroot::{Host, HostFile, Skipped};
use schemars::JsonSchema;
use serde::Serialize;

/// The output of `aw visibility doctor` (on drift, the same report without `action` is the
/// failure envelope's `data.report`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VisibilityDoctor<'a> {
    /// The workspace (canonical).
    pub workspace: String,
    /// Whether the project block was found.
    pub block_found: bool,
    /// Nothing to do.
    pub ok: bool,
    /// Every source of the block.
    pub sources: Vec<SourceSight<'a>>,
    /// Each host's verdict.
    pub hosts: DoctorHosts<'a>,
    /// Whether `.gitignore` keeps the hosts' files out of git.
    pub gitignore: GitignoreCheck<'a>,
    /// The first thing to do (or that there is nothing to do).
    pub action: &'a str,
}

/// One source and whether each host's file lists it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SourceSight<'a> {
    /// Its alias.
    pub alias: &'a str,
    /// Its path as declared.
    pub path: &'a str,
    /// Its folder, resolved.
    pub resolved_path: &'a str,
    /// Whether that folder exists.
    pub exists: bool,
    /// Whether it lies outside the workspace.
    pub external: bool,
    /// Whether Claude Code's file lists it (`null`: inside the workspace, or the file is
    /// invalid).
    pub claude: Option<bool>,
    /// Whether Codex's file lists it (`null`: inside the workspace, or the file is invalid).
    pub codex: Option<bool>,
}

/// The verdict of each host.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DoctorHosts<'a> {
    /// Claude Code's `.claude/settings.local.json`.
    pub claude: HostCheck<'a>,
    /// Codex's `.codex/config.toml`.
    pub codex: HostCheck<'a>,
    /// Warp and Oz: nothing to check.
    pub warp: Skipped<'a>,
}

/// One host's file, checked.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HostCheck<'a> {
    /// The file, relative to the workspace.
    pub file: &'a str,
    /// `ok`, `not_needed`, `missing`, `stale` or `invalid`.
    pub status: &'a str,
    /// Its entries, as written.
    pub listed: &'a [String],
    /// External source folders it does not list.
    pub missing: &'a [String],
    /// Entries whose folder is no source's.
    pub stale: &'a [String],
    /// What to do next, or `null`.
    pub action: Option<&'a str>,
    /// Codex only: whether its file marks the workspace trusted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trusted: Option<bool>,
}

/// The `.gitignore` check.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GitignoreCheck<'a> {
    /// `ok`, `missing` or `not_needed`.
    pub status: &'a str,
    /// The entries of its visibility section it lacks.
    pub missing: &'a [String],
}

/// The output of `aw attach-multiroot` and `aw detach-multiroot`: the reference's multi-root
/// object (`paths`, one entry per host, `detached_removed`) beside the run's facts.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Multiroot<'a> {
    /// Always `true`.
    #[schemars(extend("const" = true))]
    pub ok: bool,
    /// Whether this was a dry run (nothing written).
    pub dry_run: bool,
    /// The workspace (canonical).
    pub workspace: String,
    /// The folders attached or withdrawn, resolved, once each.
    pub paths: &'a [String],
    /// Claude Code's `.claude/settings.local.json`.
    pub claude: Host<'a>,
    /// Codex's `.codex/config.toml`.
    pub codex: Host<'a>,
    /// Warp and Oz: never written.
    pub warp: Skipped<'a>,
    /// Every folder some file loses, once each.
    pub detached_removed: Vec<String>,
    /// `attach-multiroot` only: what happens to `.gitignore` (`created`, `updated`,
    /// `unchanged`), or `null` when nothing is attached.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gitignore: Option<Option<&'a str>>,
    /// The command's name, for the human view.
    #[serde(skip)]
    #[schemars(skip)]
    pub command: &'a str,
}

/// The `error.details` of a refused `attach-multiroot`, `detach-multiroot` or
/// `visibility doctor`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged, deny_unknown_fields)]
pub enum VisibilityFailureDetails {
    /// The argument refused (`--global`).
    Argument {
        /// Its flag.
        argument: String,
    },
    /// The host's file that cannot be updated.
    File {
        /// The file.
        file: String,
    },
}
