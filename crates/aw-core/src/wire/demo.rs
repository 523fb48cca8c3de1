//! `aw demo --format json`: every step the demo ran, each with what the command printed.
//!
//! The demo quotes the commands it runs: a step's `output` is that command's own JSON (its
//! schema is the command's), or its text when it printed text.

use super::manifest_validate::ManifestValidate;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

/// The output of `aw demo --format json`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Demo<'a> {
    /// The example folder when `--keep` kept it, else `null`.
    pub kept: Option<String>,
    /// The example skill family, validated.
    pub manifests: ManifestValidate<'a>,
    /// The workspace steps.
    pub steps: Vec<DemoCommand<'a>>,
    /// The `quick` journey.
    pub journey: DemoJourney<'a>,
    /// The `plan-exec` journey.
    pub plan_exec: DemoJourney<'a>,
    /// The design handshake.
    pub design: DemoDesign<'a>,
    /// aw installed into the example's Claude Code home, and what an agent reads from it.
    pub host: Vec<DemoCommand<'a>>,
    /// The status board, last.
    pub board: DemoCommand<'a>,
}

/// One command the demo ran.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DemoCommand<'a> {
    /// The command line as a user would type it.
    pub command: &'a str,
    /// Its exit code.
    pub exit: u8,
    /// What it printed: its JSON, or its text as a string.
    pub output: Value,
}

/// A journey: the session created, then each boundary met.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DemoJourney<'a> {
    /// `session-create`.
    pub session: DemoCommand<'a>,
    /// Each boundary met, in order.
    pub boundaries: Vec<DemoBoundary<'a>>,
}

/// One boundary met by a scripted journey.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DemoBoundary<'a> {
    /// The boundary kind.
    pub kind: &'a str,
    /// The transition (empty when final).
    pub transition: &'a str,
    /// The directive's next action.
    pub next_action: &'a str,
}

/// The design handshake.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DemoDesign<'a> {
    /// Each capability step.
    pub steps: Vec<DemoCommand<'a>>,
    /// `aw designs`.
    pub packages: DemoCommand<'a>,
}
