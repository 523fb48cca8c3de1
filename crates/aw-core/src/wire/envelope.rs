//! The failure envelope every command prints on a refusal:
//! `{"ok": false, "error": {"code", "message", "details"?}, "data": {…, "action"}}`.
//!
//! `data` carries the next action last, after the keys the reference put beside it for that
//! failure. Their order here is the order they have always been printed in when a failure
//! carries more than one (a refused target's `status` and `target` before its `candidates`; the
//! resolver's `candidates` before the reason a claim gives as `error`).

use crate::error_code::ErrorCode;
use crate::session::resolve::{Candidate, Refusal};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

/// The JSON of a failed command.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FailureEnvelope<'a> {
    /// Always `false`.
    pub ok: False,
    /// What failed.
    pub error: ErrorBody<'a>,
    /// What to do next, and the context the reference gave beside it.
    pub data: DataOut<'a>,
}

/// `data` of the envelope: the context, then the next action.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DataOut<'a> {
    /// The context some failures add.
    #[serde(flatten)]
    pub context: &'a FailureData,
    /// What to do next.
    pub action: &'a str,
}

/// The constant `false` of a failure's `ok`.
#[derive(Debug, Clone, Copy, Default)]
pub struct False;

impl Serialize for False {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bool(false)
    }
}

impl JsonSchema for False {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "False".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "const": false })
    }
}

/// `error` of the envelope.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ErrorBody<'a> {
    /// The stable UPPER_SNAKE code.
    pub code: ErrorCode,
    /// What went wrong.
    pub message: &'a str,
    /// Structured context (a busy lock's `pid`, a refused flag's `argument` and `valid_flags`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<&'a Value>,
}

/// The context some failures add to `data`, before the next action.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
pub struct FailureData {
    /// `resume`'s refused target: `invalid_target`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// `resume`'s refused target, as given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// The sessions a refused session reference might have meant.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candidates: Option<Vec<CandidateOut>>,
    /// The reason again (or the reference's token for it), where the reference gave it here.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// `next-number --claim --code`: the resolver's whole refusal of the owning session.
    #[serde(rename = "sessionError", skip_serializing_if = "Option::is_none")]
    pub session_error: Option<SessionError>,
    /// The code again, where the reference repeated it here.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<ErrorCode>,
    /// `session-artifacts`: the session of a legacy-format artifact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// `session-artifacts`: the legacy-format artifact's path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// `session-artifacts`: how to move a legacy-format artifact on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// `session-create`: the session types it takes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<Vec<String>>,
    /// `designs --plan`: the gate's whole verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gate: Option<crate::design::gate::Gate>,
    /// `capability validate`: every rule the descriptor breaks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failures: Option<Vec<crate::capability::validate::Failure>>,
    /// A refused flag (v22's key).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unknown_flags: Option<Vec<String>>,
    /// The flags the command takes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub valid_flags: Option<Vec<String>>,
    /// `visibility doctor` on drift: its whole report beside the action.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub report: Option<serde_json::Map<String, Value>>,
}

/// A session a refused reference might have meant.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CandidateOut {
    /// Its folder.
    pub folder: String,
    /// Its number as written, or `null`.
    pub code: Option<String>,
    /// `active` or `closed`.
    pub state: &'static str,
}

impl CandidateOut {
    /// The resolver's candidates as the envelope lists them.
    pub fn all(candidates: &[Candidate]) -> Vec<CandidateOut> {
        candidates
            .iter()
            .map(|c| CandidateOut {
                folder: c.folder.clone(),
                code: c.code.clone(),
                state: c.state.as_str(),
            })
            .collect()
    }
}

/// The resolver's refusal, whole, as `next-number` reports the session that would own a claim.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SessionError {
    /// Always `error`.
    #[schemars(extend("const" = "error"))]
    pub outcome: &'static str,
    /// The resolver's code.
    pub code: ErrorCode,
    /// Its message.
    pub message: String,
    /// The sessions it might have meant.
    pub candidates: Vec<CandidateOut>,
    /// Its next action.
    pub action: String,
}

impl SessionError {
    /// The refusal as reported.
    pub fn of(r: &Refusal) -> SessionError {
        SessionError {
            outcome: "error",
            code: r.kind.code(),
            message: r.message.clone(),
            candidates: CandidateOut::all(&r.candidates),
            action: r.action.clone(),
        }
    }
}
