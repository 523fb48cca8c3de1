//! Whether a bridge's review wrapper is wired into a project, and whether the project has
//! acknowledged a sandbox recipe: the two facts that decide what the kit's sandbox-lane advice
//! covers and whether it has converged.
//!
//! The kit advises a member's hosts and dirs only when its review wrapper is wired: listed in
//! Claude Code's `sandbox.excludedCommands`, on PATH, and allowed by a `Bash(<cmd> code:*)`
//! permission rule in the project's `.claude/settings*.json`. Counting every installed member
//! instead would give another fingerprint than the kit's, and an acknowledgement made with one
//! tool would not be recognised by the other.

use serde::Serialize;
use serde_json::Value;

/// The wiring entries of the project's Claude Code settings files, merged in file order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClaudeWiring {
    /// Every string of `sandbox.excludedCommands`.
    pub excluded: Vec<String>,
    /// Every string of `permissions.allow`.
    pub allow: Vec<String>,
}

impl ClaudeWiring {
    /// Adds the entries of one settings file's text; `Err` when it is not a JSON object.
    pub fn add(&mut self, text: &str) -> Result<(), String> {
        let root: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let Some(root) = root.as_object() else {
            return Err("it is not a JSON object".to_owned());
        };
        let strings = |v: Option<&Value>| -> Vec<String> {
            v.and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default()
        };
        self.excluded.extend(strings(
            root.get("sandbox").and_then(|s| s.get("excludedCommands")),
        ));
        self.allow.extend(strings(
            root.get("permissions").and_then(|p| p.get("allow")),
        ));
        Ok(())
    }
}

/// The three conditions of a wired review wrapper.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Wiring {
    /// Listed in `sandbox.excludedCommands`.
    pub excluded: bool,
    /// An executable of that name is on PATH.
    pub on_path: bool,
    /// A `permissions.allow` rule covers `<cmd> code …`.
    pub allowed: bool,
}

impl Wiring {
    /// Whether all three hold.
    pub fn wired(self) -> bool {
        self.excluded && self.on_path && self.allowed
    }
}

/// Judges the wiring of the review wrapper `cmd`.
pub fn wiring(cmd: &str, settings: &ClaudeWiring, on_path: bool) -> Wiring {
    Wiring {
        excluded: settings.excluded.iter().any(|e| excludes(e, cmd)),
        on_path,
        allowed: settings.allow.iter().any(|r| allows_review(r, cmd)),
    }
}

/// Whether an `excludedCommands` entry names `cmd`: the command itself, or a pattern whose
/// command word is `cmd` (`cmd *`, `cmd:*`).
fn excludes(entry: &str, cmd: &str) -> bool {
    let entry = entry.trim();
    entry == cmd
        || entry
            .strip_prefix(cmd)
            .is_some_and(|rest| rest.starts_with([' ', ':']))
}

/// Whether a permission rule allows `<cmd> code …`: `Bash(<cmd> code:*)` as the kit writes it,
/// or a wider rule over every use of the command (`Bash(<cmd>:*)`, `Bash(<cmd> *)`,
/// `Bash(<cmd> code *)`).
fn allows_review(rule: &str, cmd: &str) -> bool {
    let Some(inner) = rule
        .trim()
        .strip_prefix("Bash(")
        .and_then(|r| r.strip_suffix(')'))
    else {
        return false;
    };
    let Some(rest) = inner.strip_prefix(cmd) else {
        return false;
    };
    matches!(rest, ":*" | " *" | " code:*" | " code *")
}

/// Whether `docs/ai/acks.json`'s text acknowledges `fingerprint` under `sandboxLaneAck`: the
/// fingerprint itself, an object whose `fingerprint` is it, or a list holding either.
pub fn acknowledged(acks: &str, fingerprint: &str) -> bool {
    fn holds(v: &Value, fp: &str) -> bool {
        match v {
            Value::String(s) => s == fp,
            Value::Object(o) => o.get("fingerprint").and_then(Value::as_str) == Some(fp),
            Value::Array(a) => a.iter().any(|x| holds(x, fp)),
            _ => false,
        }
    }
    serde_json::from_str::<Value>(acks)
        .ok()
        .and_then(|v| v.get("sandboxLaneAck").map(|a| holds(a, fingerprint)))
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(text: &str) -> ClaudeWiring {
        let mut w = ClaudeWiring::default();
        w.add(text).unwrap();
        w
    }

    #[test]
    fn wired_needs_all_three_conditions() {
        let s = settings(
            r#"{"sandbox":{"excludedCommands":["codex-review"]},
                "permissions":{"allow":["Bash(codex-review code:*)"]}}"#,
        );
        assert!(wiring("codex-review", &s, true).wired());
        assert!(!wiring("codex-review", &s, false).wired(), "not on PATH");
        assert!(!wiring("agy-review", &s, true).wired(), "another wrapper");
        let only_allowed = settings(r#"{"permissions":{"allow":["Bash(codex-review code:*)"]}}"#);
        assert!(!wiring("codex-review", &only_allowed, true).wired());
        let only_excluded = settings(r#"{"sandbox":{"excludedCommands":["codex-review"]}}"#);
        assert!(!wiring("codex-review", &only_excluded, true).wired());
    }

    #[test]
    fn the_rules_that_cover_a_review_call() {
        for rule in ["Bash(x code:*)", "Bash(x:*)", "Bash(x *)", "Bash(x code *)"] {
            assert!(allows_review(rule, "x"), "{rule}");
        }
        for rule in [
            "Bash(x)",
            "Bash(x exec:*)",
            "Bash(xy code:*)",
            "Read(x code:*)",
            "Bash(x code:*",
        ] {
            assert!(!allows_review(rule, "x"), "{rule}");
        }
        assert!(excludes("x", "x") && excludes("x *", "x") && excludes("x:*", "x"));
        assert!(!excludes("xy", "x") && !excludes("y x", "x"));
    }

    #[test]
    fn settings_files_merge_and_a_broken_one_says_why() {
        let mut w = settings(r#"{"sandbox":{"excludedCommands":["a",3]}}"#);
        w.add(r#"{"sandbox":{"excludedCommands":["b"]},"permissions":{"allow":"no"}}"#)
            .unwrap();
        assert_eq!(w.excluded, ["a", "b"]);
        assert!(w.allow.is_empty());
        assert!(w.add("[1]").is_err());
        assert!(w.add("{").is_err());
    }

    #[test]
    fn acknowledgement_forms() {
        assert!(acknowledged(r#"{"sandboxLaneAck":"abc"}"#, "abc"));
        assert!(acknowledged(
            r#"{"sandboxLaneAck":{"fingerprint":"abc","at":"2026-01-01"}}"#,
            "abc"
        ));
        assert!(acknowledged(
            r#"{"sandboxLaneAck":[{"fingerprint":"old"},"abc"]}"#,
            "abc"
        ));
        assert!(!acknowledged(r#"{"sandboxLaneAck":"old"}"#, "abc"));
        assert!(!acknowledged(r#"{"other":"abc"}"#, "abc"));
        assert!(!acknowledged("not json", "abc"));
    }
}
