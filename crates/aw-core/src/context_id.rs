//! The conversation's context id: which host conversation is calling, so a session can be bound
//! to it (§7.3).
//!
//! Ordinary commands learn it from the environment: `AW_CONTEXT_ID`, else Claude Code's
//! `CLAUDE_CODE_SESSION_ID`, which every command an agent runs inside Claude Code carries and
//! whose value is the `session_id` Claude Code's hooks receive (the reference's v22 rule; the
//! other hosts' variables only say which host is running, not which conversation). Lifecycle
//! hooks (PreCompact, PostCompact, SessionEnd) also receive the host's JSON on stdin, whose
//! `session_id` names the same conversation; when both are present they must agree.

/// The variable aw's own callers set to name their conversation; it wins over the host's.
pub const AW_CONTEXT_ID: &str = "AW_CONTEXT_ID";

/// Claude Code's conversation id, exported to every command its agent runs.
pub const CLAUDE_CODE_SESSION_ID: &str = "CLAUDE_CODE_SESSION_ID";

/// The variables read for the context id, in precedence order.
pub const VARIABLES: [&str; 2] = [AW_CONTEXT_ID, CLAUDE_CODE_SESSION_ID];

/// A context id read from the environment, and the variable it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnvId {
    /// The id, trimmed and non-empty.
    pub id: String,
    /// The variable that gave it (one of [`VARIABLES`]).
    pub variable: &'static str,
}

/// The environment's context id: the first of [`VARIABLES`] that `lookup` gives a non-blank
/// value for.
pub fn from_variables(lookup: impl Fn(&str) -> Option<String>) -> Option<EnvId> {
    VARIABLES
        .iter()
        .find_map(|&variable| clean(lookup(variable).as_deref()).map(|id| EnvId { id, variable }))
}

/// The environment's context id and a hook's `session_id` name different conversations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    /// The variable the environment's id came from.
    pub variable: &'static str,
}

/// A context id as given: trimmed, `None` when blank.
pub fn clean(raw: Option<&str>) -> Option<String> {
    raw.map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

/// The `session_id` of a hook's stdin JSON: a non-blank string field of a JSON object. Anything
/// else (not JSON, not an object, a number) carries no context id.
pub fn hook_session_id(stdin: &str) -> Option<String> {
    let value: serde_json::Value =
        serde_json::from_str(stdin.trim_start_matches('\u{feff}')).ok()?;
    clean(value.as_object()?.get("session_id")?.as_str())
}

/// The context id of a lifecycle call: either source alone, or both when they agree.
pub fn reconcile(env: Option<&EnvId>, hook: Option<&str>) -> Result<Option<String>, Conflict> {
    match (env, clean(hook)) {
        (Some(e), Some(h)) if e.id != h => Err(Conflict {
            variable: e.variable,
        }),
        (Some(e), _) => Ok(Some(e.id.clone())),
        (None, h) => Ok(h),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hook_json_grammar() {
        assert_eq!(
            hook_session_id(r#"{"session_id":" abc ","hook_event_name":"PreCompact"}"#).as_deref(),
            Some("abc")
        );
        assert_eq!(
            hook_session_id("\u{feff}{\"session_id\":\"x\"}").as_deref(),
            Some("x")
        );
        for none in [
            "",
            "not json",
            "[]",
            r#"{"session_id":5}"#,
            r#"{"session_id":"  "}"#,
            r#"{"other":"x"}"#,
            r#""session_id""#,
        ] {
            assert_eq!(hook_session_id(none), None, "{none}");
        }
    }

    #[test]
    fn env_and_hook_must_agree() {
        let env = |id: &str| EnvId {
            id: id.to_owned(),
            variable: CLAUDE_CODE_SESSION_ID,
        };
        assert_eq!(reconcile(None, None), Ok(None));
        assert_eq!(reconcile(Some(&env("a")), None), Ok(Some("a".into())));
        assert_eq!(reconcile(None, Some("b")), Ok(Some("b".into())));
        assert_eq!(reconcile(Some(&env("a")), Some(" a")), Ok(Some("a".into())));
        assert_eq!(
            reconcile(Some(&env("a")), Some("b")),
            Err(Conflict {
                variable: CLAUDE_CODE_SESSION_ID
            })
        );
        assert_eq!(reconcile(None, Some("  ")), Ok(None));
    }

    #[test]
    fn aw_context_id_wins_over_the_hosts_variable() {
        let vars = |aw: Option<&'static str>, cc: Option<&'static str>| {
            move |name: &str| match name {
                AW_CONTEXT_ID => aw.map(str::to_owned),
                CLAUDE_CODE_SESSION_ID => cc.map(str::to_owned),
                _ => Some("never read".to_owned()),
            }
        };
        let got = |aw, cc| from_variables(vars(aw, cc)).map(|e| (e.id, e.variable));
        assert_eq!(got(None, None), None);
        assert_eq!(
            got(None, Some(" conv-A ")),
            Some(("conv-A".into(), CLAUDE_CODE_SESSION_ID))
        );
        assert_eq!(
            got(Some("mine"), Some("conv-A")),
            Some(("mine".into(), AW_CONTEXT_ID))
        );
        // A blank AW_CONTEXT_ID is absent: the host's id is used.
        assert_eq!(
            got(Some("  "), Some("conv-A")),
            Some(("conv-A".into(), CLAUDE_CODE_SESSION_ID))
        );
    }
}
