//! `aw context-plan` and `aw context-budget`: the agent bundle's read-sets, and what they cost.

use crate::bundle::budget::{Activation, Check, Discovery, Guaranteed, Size, Verdict};
use crate::bundle::plan::{Available, Kind, Profile};
use schemars::JsonSchema;
use serde::Serialize;

/// The output of `aw context-plan`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContextPlan<'a> {
    /// The command planned.
    pub command: &'a str,
    /// `compact` or `safe`.
    pub profile: Profile,
    /// The observed signals, de-duplicated and sorted.
    pub signals: &'a [String],
    /// The signals this command reads a module for.
    pub available_signals: &'a [Available],
    /// What to read, in order.
    pub read_set: Vec<PlanEntry<'a>>,
    /// The sum of the entries' bytes.
    pub bytes: u64,
    /// Some listed file is missing, or a signal is undeclared.
    pub degraded: bool,
    /// What to tell the person once, when anything is off, or `null`.
    pub notice: Option<&'a str>,
    /// The receipt of what was loaded.
    pub receipt: Receipt<'a>,
    /// The signals no command declares.
    pub unknown_signals: &'a [String],
    /// The capabilities the host declared, trimmed, sorted, once each.
    pub capabilities: &'a [&'a str],
}

/// One document to read.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlanEntry<'a> {
    /// Bundle-relative path.
    pub path: &'a str,
    /// Where it is on disk, or `null` for the bundle built into aw.
    pub absolute: Option<String>,
    /// Its size (0 when missing).
    pub bytes: u64,
    /// `core` or `module`.
    pub kind: Kind,
    /// The signal that pulled a module in (`null` for core documents).
    pub signal: Option<&'a str>,
    /// The tree lacks it.
    pub missing: bool,
}

/// What a plan loaded, for the host's records.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Receipt<'a> {
    /// The command planned.
    pub command: &'a str,
    /// `compact` or `safe`.
    pub profile: Profile,
    /// The observed signals.
    pub signals: &'a [String],
    /// The capabilities the host declared.
    pub capabilities: &'a [&'a str],
    /// The paths loaded (the missing ones left out).
    pub loaded: Vec<&'a str>,
    /// Always 0.
    #[schemars(extend("const" = 0))]
    pub reference_hops: u64,
    /// The sum of the entries' bytes.
    pub bytes: u64,
    /// The token count: only an estimate.
    pub tokens: Tokens,
    /// Whether the plan fell back, and why.
    pub fallback: PlanFallback<'a>,
    /// The bundle folder, or `null` for the one built into aw.
    pub root: Option<&'a str>,
    /// `explicit` (a folder) or `packaged`.
    pub root_origin: &'static str,
    /// Always `local-only`.
    #[schemars(extend("const" = "local-only"))]
    pub telemetry: &'static str,
}

/// The token count of a plan: aw runs no tokenizer.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Tokens {
    /// Always `false`.
    #[schemars(extend("const" = false))]
    pub available: bool,
    /// Why.
    pub reason: &'static str,
    /// Bytes / 4, rounded up.
    pub estimate: u64,
    /// How the estimate is made.
    pub method: &'static str,
}

/// Whether a plan fell back to the safe profile.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlanFallback<'a> {
    /// It did.
    pub used: bool,
    /// Why, one line per cause.
    pub reasons: &'a [String],
}

/// The output of `aw context-budget`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContextBudget<'a> {
    /// The bundle folder, or `null` for the one built into aw.
    pub root: Option<&'a str>,
    /// `explicit` (a folder) or `packaged`.
    pub root_origin: &'static str,
    /// How tokens are estimated.
    pub tokens_estimate: &'static str,
    /// The tree's revision.
    pub revision: BudgetRevision<'a>,
    /// The whole bundle.
    pub bundle: &'a Size,
    /// The descriptions a host loads up front.
    pub discovery: &'a Discovery,
    /// Each command document.
    pub activation: &'a Activation,
    /// Each command's core read-set.
    pub guaranteed: &'a Guaranteed,
    /// The modules, each counted once.
    pub modules: &'a Size,
    /// `measured`, `ok` or `over-budget`.
    pub verdict: Verdict,
    /// How far a figure may grow over the baseline, in percent.
    pub headroom_percent: u64,
    /// The baseline judged against, or `null`.
    pub baseline: Option<Baseline<'a>>,
    /// Every figure judged.
    pub checks: &'a [Check],
    /// The figures over their ceiling.
    pub offenders: Vec<&'a Check>,
    /// The figures new since the baseline.
    pub new_rows: Vec<&'a Check>,
}

/// The bundle tree's revision.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BudgetRevision<'a> {
    /// The first 16 hex digits of a SHA-256 over its sorted `path:size` lines.
    pub digest: &'a str,
    /// How many files it has.
    pub files: u64,
    /// The version of aw that measured it.
    pub cli_version: &'static str,
}

/// The baseline a budget is judged against.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Baseline<'a> {
    /// Its file.
    pub path: String,
    /// Its `revision` object, as the file holds it.
    pub revision: &'a serde_json::Value,
    /// Whether its digest is the bundle's.
    pub same_revision: bool,
}

/// The `details` of a command that is not there: `CONTEXT_PLAN_UNKNOWN_COMMAND`, and the
/// `UNKNOWN_COMMAND` of `aw man`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnknownCommand {
    /// The name given.
    pub command: String,
    /// The commands there are, sorted (the bundle's, or the verbs of the command named).
    pub available_commands: Vec<String>,
}
