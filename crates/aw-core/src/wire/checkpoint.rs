//! `aw checkpoint-read` and the checkpoint `aw session-resume` reports: a parsed CHECKPOINT.md
//! with the reference's Spanish keys, then its raw text.

use super::envelope::CandidateOut;
use crate::checkpoint::read::{Fields, parse};
use schemars::JsonSchema;
use serde::Serialize;

/// A parsed CHECKPOINT.md: its path, the fields with the reference's Spanish keys, its text.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Checkpoint<'a> {
    /// The file.
    pub path: &'a str,
    /// What the file says, field by field.
    #[serde(flatten)]
    pub fields: Fields,
    /// The whole text.
    pub raw: &'a str,
}

impl<'a> Checkpoint<'a> {
    /// The checkpoint at `path` whose text is `raw`.
    pub fn of(path: &'a str, raw: &'a str) -> Checkpoint<'a> {
        Checkpoint {
            path,
            fields: parse(raw),
            raw,
        }
    }
}

/// The output of `aw checkpoint-read`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum CheckpointRead<'a> {
    /// The session has a checkpoint.
    Found {
        /// The session's folder.
        session: &'a str,
        /// The checkpoint.
        checkpoint: Checkpoint<'a>,
    },
    /// It has none: `checkpoint` is `null` and `reason` says why.
    Missing {
        /// The session's folder.
        session: &'a str,
        /// Always `null`.
        #[schemars(extend("const" = null))]
        checkpoint: Option<Checkpoint<'a>>,
        /// Why there is none.
        reason: &'a str,
    },
}

/// Said whenever an existing checkpoint was kept.
pub const PRESERVED_REASON: &str =
    "CHECKPOINT.md holds written content, so it was kept; pass --force to regenerate it.";

/// A checkpoint that was written.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Written<'a> {
    /// The session's folder.
    pub session: &'a str,
    /// The file.
    pub checkpoint_path: &'a str,
    /// How many lines it has.
    pub lines_written: usize,
    /// Closed tasks over all tasks, in percent, or `null` when there are none.
    pub progress_pct: Option<u32>,
    /// Open tasks.
    pub tasks_open: usize,
    /// Closed tasks.
    pub tasks_closed: usize,
    /// Uncommitted files.
    pub files_touched_count: usize,
    /// Why the narrative block could not be refreshed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub narrative_error: Option<&'a str>,
}

/// A checkpoint that holds written content, so it was kept.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Kept<'a> {
    /// The session's folder.
    pub session: &'a str,
    /// The file.
    pub checkpoint_path: &'a str,
    /// Always `true`.
    #[schemars(extend("const" = true))]
    pub skipped: bool,
    /// Always `true`.
    #[schemars(extend("const" = true))]
    pub preserved: bool,
    /// Why it was kept (always the same sentence).
    pub reason: &'static str,
}

impl<'a> Kept<'a> {
    /// The checkpoint of `session` at `path`, kept.
    pub fn of(session: &'a str, checkpoint_path: &'a str) -> Kept<'a> {
        Kept {
            session,
            checkpoint_path,
            skipped: true,
            preserved: true,
            reason: PRESERVED_REASON,
        }
    }
}

/// No session could be settled on: nothing written, continuity degraded.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Degraded<'a> {
    /// Always `true`.
    #[schemars(extend("const" = true))]
    pub skipped: bool,
    /// Why, in the resolver's words.
    pub reason: &'a str,
    /// Always `degraded`.
    #[schemars(extend("const" = "degraded"))]
    pub continuity: &'static str,
    /// Always `null`.
    #[schemars(extend("const" = null))]
    pub primary_session: Option<&'a str>,
    /// The active sessions.
    pub active_sessions: &'a [String],
    /// The sessions it might have meant.
    pub candidates: &'a [CandidateOut],
    /// What to do next.
    pub action: &'a str,
}

/// The output of `aw checkpoint-write`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum CheckpointWrite<'a> {
    /// Written.
    Written(Written<'a>),
    /// Kept.
    Kept(Kept<'a>),
    /// No session.
    Degraded(Degraded<'a>),
}

/// The output of `aw auto-compact-on-close`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum AutoCompactOnClose<'a> {
    /// The session's checkpoint, written, kept or failed.
    Session {
        /// One entry.
        checkpoints_written: [OnCloseEntry<'a>; 1],
    },
    /// No session could be settled on.
    Degraded {
        /// Always empty.
        checkpoints_written: [OnCloseEntry<'a>; 0],
        /// Always `degraded`.
        #[schemars(extend("const" = "degraded"))]
        continuity: &'static str,
        /// Always `null`.
        #[schemars(extend("const" = null))]
        primary_session: Option<&'a str>,
        /// The sessions it might have meant.
        candidates: &'a [CandidateOut],
        /// What to do next.
        action: &'a str,
        /// Why no session was settled on (for the human view only).
        #[serde(skip)]
        #[schemars(skip)]
        reason: &'a str,
        /// The active sessions (for the human view only).
        #[serde(skip)]
        #[schemars(skip)]
        active_sessions: &'a [String],
    },
}

/// What happened to the closing session's checkpoint.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum OnCloseEntry<'a> {
    /// Written.
    Written {
        /// The session's folder.
        session: &'a str,
        /// The file.
        checkpoint_path: &'a str,
        /// Closed tasks over all tasks, in percent, or `null`.
        progress_pct: Option<u32>,
    },
    /// Kept.
    Kept(Kept<'a>),
    /// Not written.
    Failed {
        /// The session's folder.
        session: &'a str,
        /// `<CODE>: <message>`.
        error: String,
    },
}

/// The output of `aw resume-summary`: where this conversation's session stands after a
/// compaction. The checkpoint keys are there when a session was settled on; `candidates` and
/// `action` when none was.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResumeSummary<'a> {
    /// The active sessions.
    pub active_sessions: &'a [String],
    /// The session settled on, or `null`.
    pub primary_session: Option<String>,
    /// Its number, or `null`.
    pub primary_session_code: Option<String>,
    /// Whether it has a CHECKPOINT.md.
    pub checkpoint_present: bool,
    /// The checkpoint's path (`null` when there is none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checkpoint_path: Option<Option<String>>,
    /// `complete`, `stale`, `partial`, `missing`, ….
    pub checkpoint_status: &'static str,
    /// Seconds since its `Updated:` line (`null` when that does not parse).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checkpoint_age_seconds: Option<Option<i64>>,
    /// The fields that still hold a placeholder.
    pub unfilled_placeholders: Vec<&'static str>,
    /// Whether the agent has something to do before going on.
    pub needs_ai_action: bool,
    /// `ok`, or `degraded` when no session could be settled on.
    pub continuity: &'static str,
    /// The checkpoint at a glance, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<Glance>,
    /// The sessions it might have meant (no session settled on).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candidates: Option<Vec<CandidateOut>>,
    /// What to do next (no session settled on).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// With `--include-recent-closed`: sessions closed lately that concluded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recent_closed_with_artifacts: Option<Vec<RecentClosed<'a>>>,
    /// Why no session was settled on, when continuity is degraded (for the human view only).
    #[serde(skip)]
    #[schemars(skip)]
    pub degraded_reason: Option<String>,
    /// The days `recent_closed_with_artifacts` looks back (for the human view only).
    #[serde(skip)]
    #[schemars(skip)]
    pub recent_days: u64,
}

/// A checkpoint at a glance.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Glance {
    /// `Updated:`.
    pub actualizado: Option<String>,
    /// `Progress:`.
    pub avance: Option<String>,
    /// The first lines of the next step.
    pub proximo: Option<Vec<String>>,
}

/// A session closed lately that concluded.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecentClosed<'a> {
    /// Its code.
    pub code: &'a str,
    /// Its folder.
    pub folder: &'a str,
    /// Seconds since it was closed.
    pub closed_age_seconds: u64,
    /// Always `true`.
    #[schemars(extend("const" = true))]
    pub complete: bool,
    /// `CONCLUSIONS` or `ANALYSIS-FILE`.
    pub artifact_signal: &'static str,
}
