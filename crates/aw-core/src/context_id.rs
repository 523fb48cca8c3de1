//! The conversation's context id: which host conversation is calling, so a session can be bound
//! to it (§7.3).
//!
//! Ordinary commands learn it from `AW_CONTEXT_ID`. Lifecycle hooks (PreCompact, PostCompact,
//! SessionEnd) also receive the host's JSON on stdin, whose `session_id` names the same
//! conversation; when both are present they must agree.

/// `AW_CONTEXT_ID` and the hook's `session_id` name different conversations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict;

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
pub fn reconcile(env: Option<&str>, hook: Option<&str>) -> Result<Option<String>, Conflict> {
    match (clean(env), clean(hook)) {
        (Some(e), Some(h)) if e != h => Err(Conflict),
        (Some(e), _) => Ok(Some(e)),
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
        assert_eq!(reconcile(None, None), Ok(None));
        assert_eq!(reconcile(Some(" a "), None), Ok(Some("a".into())));
        assert_eq!(reconcile(None, Some("b")), Ok(Some("b".into())));
        assert_eq!(reconcile(Some("a"), Some(" a")), Ok(Some("a".into())));
        assert_eq!(reconcile(Some("a"), Some("b")), Err(Conflict));
        assert_eq!(reconcile(Some("  "), Some("b")), Ok(Some("b".into())));
    }
}
