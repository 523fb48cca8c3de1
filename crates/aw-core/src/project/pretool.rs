//! What the two advisory PreToolUse guards (`aw hook sql-mutation-guard`, `aw hook
//! git-commit-advisor`) share: reading the host's payload as a JSON object, the bypass switch
//! the person sets in the environment, and the runtime settings file that turns the SQL guard on
//! (`~/.<ns>/agent-workflow/runtime.json`, the reference's file, read as it reads it).
//!
//! A guard must never break an agent's tool call: a payload that is empty, not JSON, too deep to
//! read or not an object is no call to judge, and the guard lets it through silently.

use serde_json::{Map, Value};

/// The payload as a JSON object, or `None` when it is empty, not JSON, nested past
/// [`aw_json::MAX_DEPTH`] or not an object (surrounding blanks ignored, as JavaScript's `trim`).
pub fn payload_object(text: &str) -> Option<Map<String, Value>> {
    let text = aw_json::js::js_trim(text);
    if text.is_empty() {
        return None;
    }
    match aw_json::parse_bounded::<Value>(text).ok()? {
        Value::Object(map) => Some(map),
        _ => None,
    }
}

/// Whether a bypass variable's value turns a guard off: `off`, in any case.
pub fn is_off(value: Option<&str>) -> bool {
    value.is_some_and(|v| v.to_lowercase() == "off")
}

/// The SQL guard's two patterns (regular-expression sources).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SqlPatterns {
    /// Matched against the whole tool name: the tools the guard looks at.
    pub tool_pattern: String,
    /// Applied to the tool name to name the server: its first group (else the whole match).
    pub server_pattern: String,
}

/// What the guards read of the runtime settings file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Runtime {
    /// `displayName`, when a non-empty string: the prefix of the guards' messages.
    pub display_name: Option<String>,
    /// `mcpGuards.sqlMutation`, when both patterns are strings: the SQL guard is on.
    pub sql: Option<SqlPatterns>,
}

/// The runtime settings from the file's text. `None` when the file is not usable as the
/// reference requires it (not a JSON object, or without non-blank string `packageName` and
/// `binName`): the reference then fails on every command, and the guards take it as no
/// settings at all.
pub fn parse_runtime(text: &str) -> Option<Runtime> {
    let map = payload_object(text)?;
    let named = |k: &str| {
        map.get(k)
            .and_then(Value::as_str)
            .is_some_and(|s| !aw_json::js::js_trim(s).is_empty())
    };
    if !named("packageName") || !named("binName") {
        return None;
    }
    let display_name = map
        .get("displayName")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_owned);
    let sql = map
        .get("mcpGuards")
        .and_then(Value::as_object)
        .and_then(|g| g.get("sqlMutation"))
        .and_then(Value::as_object)
        .and_then(|s| {
            Some(SqlPatterns {
                tool_pattern: s.get("toolPattern")?.as_str()?.to_owned(),
                server_pattern: s.get("serverPattern")?.as_str()?.to_owned(),
            })
        });
    Some(Runtime { display_name, sql })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_json_object_is_a_payload() {
        for text in [
            "", "   ", "null", "[1]", "\"x\"", "42", "{", "not json", "\u{feff}",
        ] {
            assert_eq!(payload_object(text), None, "{text:?}");
        }
        let deep = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
        assert_eq!(payload_object(&format!("{{\"a\":{deep}}}")), None);
        assert!(payload_object(" \n{\"tool_name\":\"Bash\"}\n").is_some());
    }

    #[test]
    fn off_is_any_case_and_nothing_else() {
        assert!(is_off(Some("off")) && is_off(Some("OFF")) && is_off(Some("Off")));
        assert!(!is_off(None) && !is_off(Some("")) && !is_off(Some("0")) && !is_off(Some(" off")));
    }

    #[test]
    fn the_runtime_needs_its_names_and_both_patterns_turn_the_guard_on() {
        assert_eq!(parse_runtime("{}"), None);
        assert_eq!(parse_runtime(r#"{"packageName":"p","binName":" "}"#), None);
        assert_eq!(parse_runtime("not json"), None);
        let off = parse_runtime(r#"{"packageName":"p","binName":"b","displayName":""}"#);
        assert_eq!(off, Some(Runtime::default()));
        let half =
            r#"{"packageName":"p","binName":"b","mcpGuards":{"sqlMutation":{"toolPattern":"x"}}}"#;
        assert_eq!(parse_runtime(half).and_then(|r| r.sql), None);
        let on = r#"{"packageName":"p","binName":"b","displayName":"Acme",
            "mcpGuards":{"sqlMutation":{"toolPattern":"^t$","serverPattern":"^(s)"}}}"#;
        let r = parse_runtime(on).unwrap();
        assert_eq!(r.display_name.as_deref(), Some("Acme"));
        assert_eq!(
            r.sql,
            Some(SqlPatterns {
                tool_pattern: "^t$".into(),
                server_pattern: "^(s)".into()
            })
        );
    }
}
