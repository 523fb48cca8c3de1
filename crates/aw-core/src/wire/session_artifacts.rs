//! `aw session-artifacts`: a session's artifacts summarised (descriptor outline, task progress,
//! decisions, which other files exist, its SQL scripts), or, with `--dump`, the raw files of the
//! kinds asked for (the reference's keys).

use crate::artifacts::TasksSummary;
use crate::session::narrative::Narrative;
use schemars::JsonSchema;
use serde::Serialize;

/// The output of `aw session-artifacts`: the summary, or the dump.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum SessionArtifacts<'a> {
    /// Without `--dump`.
    Summary(ArtifactsSummary<'a>),
    /// With `--dump`.
    Dump(ArtifactsDump<'a>),
}

/// The session's summary.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArtifactsSummary<'a> {
    /// The session's folder.
    pub session: &'a str,
    /// Its folder: workspace-relative, absolute with `--verbose`.
    pub path: String,
    /// Its code (`NNN` for a legacy folder, else the folder name).
    pub code: String,
    /// `active` or `closed`.
    pub state: &'static str,
    /// What its files hold.
    pub artifacts: Artifacts<'a>,
    /// The descriptor's `Branch:` line (`""` with `--verbose` when it has none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch: Option<&'a str>,
    /// Whether the descriptor has a `Branch:` line (the view shows `branch` only then).
    #[serde(skip)]
    #[schemars(skip)]
    pub branch_declared: bool,
    /// What it did, what is next (left out with `--no-narrative`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub narrative: Option<&'a Narrative>,
}

/// What a session's files hold. A presence flag is left out when false, unless `--verbose`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Artifacts<'a> {
    /// The descriptor's outline, or `null` (none, or a legacy REQUIREMENTS descriptor).
    pub session: Option<Outline<'a>>,
    /// The TASKS counts, or `null` without a TASKS file.
    pub tasks: Option<&'a TasksSummary>,
    /// How many decisions the DECISIONS file records.
    pub decisiones_count: usize,
    /// A checkpoint exists.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checkpoint_present: Option<bool>,
    /// A CONCLUSIONS file exists.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conclusiones_present: Option<bool>,
    /// An ANALYSIS file exists.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub analysis_file_present: Option<bool>,
    /// A BACKLOG file exists.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backlog_present: Option<bool>,
    /// The `SCRIPTS.sql` bundle exists.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scripts_sql_present: Option<bool>,
    /// The SQL scripts counted (left out when none, unless `--verbose`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scripts: Option<ScriptTotals>,
}

/// The descriptor's outline.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Outline<'a> {
    /// Its first level-1 heading, or `null`.
    pub titulo: Option<&'a str>,
    /// How many success criteria it lists.
    pub criterios_count: usize,
    /// Whether its `## Origin` section has text.
    pub has_origen: bool,
}

/// The SQL scripts under `scripts/`, counted.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScriptTotals {
    /// Every script.
    pub total: usize,
    /// The scripts that move forward.
    pub forward: usize,
    /// The rollbacks.
    pub rollback: usize,
    /// Whether the `SCRIPTS.sql` bundle exists.
    pub has_bundle: bool,
}

/// The raw files of the kinds asked for, each under its kind, in the order asked.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArtifactsDump<'a> {
    /// The session's folder.
    pub session: &'a str,
    /// Its folder (absolute).
    pub path: String,
    /// Its code (`NNN` for a legacy folder, else the folder name).
    pub code: String,
    /// `active` or `closed`.
    pub state: &'static str,
    /// Each kind asked for.
    #[serde(flatten)]
    pub dumped: Dumped,
}

/// Each kind asked for with what it holds, as a JSON object in the order asked.
#[derive(Debug, Clone)]
pub struct Dumped(pub Vec<(&'static str, Dump)>);

/// What one kind holds.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Dump {
    /// A file kind: the file, or `null` when the session has none.
    File(Option<DumpedFile>),
    /// `scripts`: every SQL script.
    Scripts(Vec<DumpedScript>),
}

/// One file dumped.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DumpedFile {
    /// Its absolute path.
    pub path: String,
    /// Its text.
    pub content: String,
    /// Its size in bytes.
    pub size: usize,
}

/// One SQL script.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DumpedScript {
    /// Its path under `scripts/`, with `/` separators.
    pub name: String,
    /// Its absolute path.
    pub path: String,
    /// Its size in bytes.
    pub size: u64,
    /// Whether it is a rollback.
    pub is_rollback: bool,
}

/// The shape [`Dumped`] takes: every kind optional, in the order a bare `--dump` gives them.
#[derive(JsonSchema)]
#[allow(dead_code)]
#[serde(deny_unknown_fields)]
struct DumpedShape {
    /// The descriptor (SESSION.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    objetivo: Option<Option<DumpedFile>>,
    /// The DECISIONS file.
    #[serde(skip_serializing_if = "Option::is_none")]
    decisiones: Option<Option<DumpedFile>>,
    /// The CONCLUSIONS file.
    #[serde(skip_serializing_if = "Option::is_none")]
    conclusiones: Option<Option<DumpedFile>>,
    /// The TASKS file.
    #[serde(skip_serializing_if = "Option::is_none")]
    tasks: Option<Option<DumpedFile>>,
    /// The checkpoint.
    #[serde(skip_serializing_if = "Option::is_none")]
    checkpoint: Option<Option<DumpedFile>>,
    /// The BACKLOG file.
    #[serde(skip_serializing_if = "Option::is_none")]
    backlog: Option<Option<DumpedFile>>,
    /// The SQL scripts.
    #[serde(skip_serializing_if = "Option::is_none")]
    scripts: Option<Vec<DumpedScript>>,
}

impl Serialize for Dumped {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(kind, dump)| (*kind, dump)))
    }
}

impl JsonSchema for Dumped {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Dumped".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        DumpedShape::json_schema(generator)
    }
}
