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
    pub details: Option<&'a Details>,
}

/// Declares [`Details`] with one variant per detail type, and `From<type> for Details` for each,
/// from one list.
macro_rules! details {
    ($($(#[doc = $doc:literal])* $variant:ident($ty:ty)),* $(,)?) => {
        /// `error.details`: the structured context of a failure, one shape per kind of refusal. Each
        /// variant prints as its own shape, with no tag.
        #[derive(Debug, Clone, Serialize, JsonSchema)]
        #[serde(untagged)]
        pub enum Details {
            $($(#[doc = $doc])* $variant($ty),)*
        }

        $(
            impl From<$ty> for Details {
                /// The details as this variant.
                fn from(d: $ty) -> Self {
                    Details::$variant(d)
                }
            }
        )*
    };
}

details!(
    /// A refused command line: the command, the argument or the flags at fault.
    Argument(super::arguments::ArgumentDetails),
    /// Another aw invocation holds the workspace lock.
    LockHeld(super::lock::LockHeld),
    /// A failed `workspace-init`.
    InitFailed(super::workspace_init::InitFailed),
    /// A refused `attach-multiroot`, `detach-multiroot` or `visibility doctor`.
    Visibility(super::visibility::VisibilityFailureDetails),
    /// A failed `aw self install | uninstall`.
    SelfCmd(super::self_cmd::SelfFailureDetails),
    /// An alias that names no source (`remove-source`).
    UnknownSource(super::remove_source::UnknownSource),
    /// A command that is not there (`context-plan --command`, `aw man`).
    UnknownCommand(super::context::UnknownCommand),
    /// An unknown settings key.
    UnknownKey(super::family::UnknownKeyDetails),
    /// A retired settings key.
    RetiredKey(super::family::RetiredKeyDetails),
    /// A value a settings key refuses.
    InvalidValue(super::family::InvalidValueDetails),
);

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::arguments::ArgumentDetails;
    use crate::wire::context::UnknownCommand;
    use crate::wire::family::{InvalidValueDetails, RetiredKeyDetails, UnknownKeyDetails};
    use crate::wire::lock::LockHeld;
    use crate::wire::multiroot::Skipped;
    use crate::wire::remove_source::UnknownSource;
    use crate::wire::self_cmd::SelfFailureDetails;
    use crate::wire::visibility::VisibilityFailureDetails;
    use crate::wire::workspace_init::{InitCause, InitFailed, NotOk};

    fn text(d: impl Into<Details>) -> String {
        serde_json::to_string(&d.into()).unwrap()
    }

    fn strings(s: &[&str]) -> Vec<String> {
        s.iter().map(|s| (*s).to_owned()).collect()
    }

    /// Each variant prints as its own shape, untagged, its keys in their order and the absent
    /// ones left out: a change here changes the wire.
    #[test]
    fn every_variant_keeps_its_exact_shape() {
        assert_eq!(text(LockHeld { pid: "42".into() }), r#"{"pid":"42"}"#);
        assert_eq!(
            text(ArgumentDetails {
                command: Some("flow".into()),
                help_hint: Some("aw flow --help".into()),
                available_commands: Some(strings(&["advance", "status"])),
                ..Default::default()
            }),
            r#"{"command":"flow","help_hint":"aw flow --help","available_commands":["advance","status"]}"#
        );
        assert_eq!(
            text(ArgumentDetails {
                argument: Some("--x".into()),
                valid_flags: Some(strings(&["--help"])),
                value: Some("v".into()),
                missing: Some(Vec::new()),
                ..Default::default()
            }),
            r#"{"argument":"--x","valid_flags":["--help"],"value":"v","missing":[]}"#
        );
        assert_eq!(text(ArgumentDetails::default()), "{}");
        assert_eq!(
            text(InitFailed {
                step: None,
                file: None,
                cause: Some(InitCause::Code(crate::error_code::ErrorCode::LockBusy)),
                pid: Some("7".into()),
                project_md: Some(NotOk { ok: false }),
                attach_multiroot: Some(Skipped::because("project_md_failed")),
            }),
            r#"{"cause":"LOCK_BUSY","pid":"7","project_md":{"ok":false},"attach_multiroot":{"skipped":true,"reason":"project_md_failed"}}"#
        );
        assert_eq!(
            text(InitFailed {
                step: Some("project_md"),
                file: Some("CLAUDE.md".into()),
                cause: Some(InitCause::Text("denied".into())),
                pid: None,
                project_md: None,
                attach_multiroot: None,
            }),
            r#"{"step":"project_md","file":"CLAUDE.md","cause":"denied"}"#
        );
        assert_eq!(
            text(VisibilityFailureDetails::Argument {
                argument: "--global".into()
            }),
            r#"{"argument":"--global"}"#
        );
        assert_eq!(
            text(VisibilityFailureDetails::File { file: "f".into() }),
            r#"{"file":"f"}"#
        );
        assert_eq!(
            text(SelfFailureDetails::Path { path: "p".into() }),
            r#"{"path":"p"}"#
        );
        assert_eq!(
            text(SelfFailureDetails::Conflicts {
                conflicts: strings(&["a", "b"])
            }),
            r#"{"conflicts":["a","b"]}"#
        );
        assert_eq!(
            text(UnknownSource {
                alias: "x".into(),
                known: strings(&["api"])
            }),
            r#"{"alias":"x","known":["api"]}"#
        );
        assert_eq!(
            text(UnknownCommand {
                command: "nope".into(),
                available_commands: strings(&["quick"])
            }),
            r#"{"command":"nope","available_commands":["quick"]}"#
        );
        assert_eq!(
            text(UnknownKeyDetails {
                key: "k".into(),
                known: Vec::new()
            }),
            r#"{"key":"k","known":[]}"#
        );
        assert_eq!(
            text(RetiredKeyDetails {
                key: "k".into(),
                retired: "why".into()
            }),
            r#"{"key":"k","retired":"why"}"#
        );
        assert_eq!(
            text(InvalidValueDetails {
                key: "k".into(),
                value: "v".into(),
                allowed: "on|off".into()
            }),
            r#"{"key":"k","value":"v","allowed":"on|off"}"#
        );
    }

    /// `details` sits after `message` and is left out, not `null`, when there is none.
    #[test]
    fn the_error_body_prints_details_last_or_not_at_all() {
        let lock = Details::from(LockHeld { pid: "1".into() });
        let with = ErrorBody {
            code: crate::error_code::ErrorCode::LockBusy,
            message: "m",
            details: Some(&lock),
        };
        assert_eq!(
            serde_json::to_string(&with).unwrap(),
            r#"{"code":"LOCK_BUSY","message":"m","details":{"pid":"1"}}"#
        );
        let without = ErrorBody {
            details: None,
            ..with
        };
        assert_eq!(
            serde_json::to_string(&without).unwrap(),
            r#"{"code":"LOCK_BUSY","message":"m"}"#
        );
    }
}
