//! Whether a bridge's review wrapper is wired into a project, and whether the project has
//! acknowledged a sandbox recipe: the two facts that decide what the kit's sandbox-lane advice
//! covers and whether it has converged.
//!
//! The kit advises a member's hosts and dirs only when its review wrapper is wired: listed in
//! Claude Code's `sandbox.excludedCommands` (the project's `.claude/settings.json`), on PATH,
//! and allowed by a `Bash(<cmd> code:*)` permission rule (that file or `settings.local.json`). Counting every installed member
//! instead would give another fingerprint than the kit's, and an acknowledgement made with one
//! tool would not be recognised by the other.

use serde::Serialize;
use serde_json::Value;

/// The Claude Code settings files the kit reads, and what it reads from each: the sandbox
/// exclusions from the shared `settings.json` only, the permission rules and the legacy
/// acknowledgement from it and from `settings.local.json`.
pub const SETTINGS_FILES: [&str; 2] = ["settings.json", "settings.local.json"];

/// The wiring entries of the project's Claude Code settings files, merged in file order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClaudeWiring {
    /// Every string of `sandbox.excludedCommands` in `settings.json`.
    pub excluded: Vec<String>,
    /// Every string of `permissions.allow`.
    pub allow: Vec<String>,
    /// Every string `agentWorkflow.sandboxLaneAck` (the kit's older place for the
    /// acknowledgement).
    pub legacy_acks: Vec<String>,
}

impl ClaudeWiring {
    /// Adds the entries of one settings file (`name` is one of [`SETTINGS_FILES`]). `Err` when
    /// the text is not a JSON object; otherwise the list of entries of the wrong shape, which
    /// give nothing.
    pub fn add(&mut self, name: &str, text: &str) -> Result<Vec<String>, String> {
        let root: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let Some(root) = root.as_object() else {
            return Err("it is not a JSON object".to_owned());
        };
        let mut problems = Vec::new();
        fn strings(v: Option<&Value>, what: &str, problems: &mut Vec<String>) -> Vec<String> {
            match v {
                None => Vec::new(),
                Some(Value::Array(a)) => a
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect(),
                Some(_) => {
                    problems.push(format!("{what} is not a list"));
                    Vec::new()
                }
            }
        }
        fn object(v: Option<&Value>) -> Option<&serde_json::Map<String, Value>> {
            v.and_then(Value::as_object)
        }
        if name == SETTINGS_FILES[0] {
            let excluded = strings(
                object(root.get("sandbox")).and_then(|s| s.get("excludedCommands")),
                "sandbox.excludedCommands",
                &mut problems,
            );
            self.excluded.extend(excluded);
        }
        if root.get("permissions").is_some_and(|p| !p.is_object()) {
            problems.push("permissions is not an object".to_owned());
        }
        let allow = strings(
            object(root.get("permissions")).and_then(|p| p.get("allow")),
            "permissions.allow",
            &mut problems,
        );
        self.allow.extend(allow);
        if let Some(ack) = object(root.get("agentWorkflow"))
            .and_then(|a| a.get("sandboxLaneAck"))
            .and_then(Value::as_str)
        {
            self.legacy_acks.push(ack.to_owned());
        }
        Ok(problems)
    }
}

/// The three conditions of a wired review wrapper.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Wiring {
    /// Listed, by its bare name, in `sandbox.excludedCommands`.
    pub excluded: bool,
    /// An executable of that name is on PATH.
    pub on_path: bool,
    /// The permission rule `Bash(<cmd> code:*)` is there.
    pub allowed: bool,
}

impl Wiring {
    /// Whether all three hold.
    pub fn wired(self) -> bool {
        self.excluded && self.on_path && self.allowed
    }
}

/// Judges the wiring of the review wrapper `cmd`. The matches are exact, as the kit's: another
/// spelling of the rule may allow the call in Claude Code, but the kit does not count it, and a
/// recipe the kit does not give would carry a fingerprint it never acknowledges.
pub fn wiring(cmd: &str, settings: &ClaudeWiring, on_path: bool) -> Wiring {
    let rule = format!("Bash({cmd} code:*)");
    Wiring {
        excluded: settings.excluded.iter().any(|e| e == cmd),
        on_path,
        allowed: settings.allow.contains(&rule),
    }
}

/// What `docs/ai/acks.json` says of `fingerprint`: `Ok(true)` when its `sandboxLaneAck` is that
/// string; `Err` when the file is not a JSON object (the kit then gives no advice at all).
pub fn acknowledged(acks: &str, fingerprint: &str) -> Result<bool, String> {
    let root: Value = serde_json::from_str(acks).map_err(|e| e.to_string())?;
    let Some(root) = root.as_object() else {
        return Err("it is not a JSON object".to_owned());
    };
    Ok(root.get("sandboxLaneAck").and_then(Value::as_str) == Some(fingerprint))
}

/// Where the acknowledgements file lives in a project.
pub const ACKS_FILE: &str = "docs/ai/acks.json";

/// Whether a project acknowledges a recipe fingerprint, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ack {
    /// `None` when it cannot be known (the acknowledgements file is not usable).
    pub acknowledged: Option<bool>,
    /// The file that acknowledges it.
    pub source: Option<&'static str>,
    /// Why it cannot be known.
    pub error: Option<String>,
}

/// Which acknowledgement counts, as the kit decides: `docs/ai/acks.json` (`acks`: its text, or
/// why it cannot be used), then the older key of the Claude settings files (`legacy`). An acks
/// file that cannot be trusted leaves the answer unknown, with why.
pub fn acknowledgement(
    acks: Result<Option<String>, String>,
    legacy: &[String],
    fingerprint: &str,
) -> Ack {
    match acks.and_then(|t| t.map(|t| acknowledged(&t, fingerprint)).transpose()) {
        Err(why) => Ack {
            acknowledged: None,
            source: None,
            error: Some(format!("{ACKS_FILE} is not usable: {why}")),
        },
        Ok(Some(true)) => Ack {
            acknowledged: Some(true),
            source: Some(ACKS_FILE),
            error: None,
        },
        Ok(_) => {
            let by_settings = legacy.iter().any(|a| a == fingerprint);
            Ack {
                acknowledged: Some(by_settings),
                source: by_settings.then_some(".claude/settings"),
                error: None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(text: &str) -> ClaudeWiring {
        let mut w = ClaudeWiring::default();
        assert!(w.add("settings.json", text).unwrap().is_empty());
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
    fn only_the_kits_exact_spellings_count() {
        let s = settings(
            r#"{"sandbox":{"excludedCommands":["x *","x:*"," x "]},
                "permissions":{"allow":["Bash(x:*)","Bash(x *)","Bash(x code *)"]}}"#,
        );
        let w = wiring("x", &s, true);
        assert!(!w.excluded && !w.allowed);
    }

    #[test]
    fn exclusions_count_only_from_the_shared_settings_file() {
        let mut w = ClaudeWiring::default();
        let local = r#"{"sandbox":{"excludedCommands":["x"]},
                        "permissions":{"allow":["Bash(x code:*)"]},
                        "agentWorkflow":{"sandboxLaneAck":"abc"}}"#;
        assert!(w.add("settings.local.json", local).unwrap().is_empty());
        assert!(w.excluded.is_empty());
        assert_eq!(w.allow, ["Bash(x code:*)"]);
        assert_eq!(w.legacy_acks, ["abc"]);
    }

    #[test]
    fn a_broken_file_or_entry_says_why() {
        let mut w = ClaudeWiring::default();
        assert!(w.add("settings.json", "[1]").is_err());
        assert!(w.add("settings.json", "{").is_err());
        let problems = w
            .add("settings.json", r#"{"permissions":{"allow":"no"}}"#)
            .unwrap();
        assert_eq!(problems, ["permissions.allow is not a list"]);
        let problems = w.add("settings.json", r#"{"permissions":3}"#).unwrap();
        assert_eq!(problems, ["permissions is not an object"]);
    }

    #[test]
    fn the_acks_file_speaks_first_then_the_settings_and_a_broken_one_leaves_it_unknown() {
        let legacy = ["abc".to_owned()];
        let a = acknowledgement(
            Ok(Some(r#"{"sandboxLaneAck":"abc"}"#.into())),
            &legacy,
            "abc",
        );
        assert_eq!((a.acknowledged, a.source), (Some(true), Some(ACKS_FILE)));
        let a = acknowledgement(Ok(Some("{}".into())), &legacy, "abc");
        assert_eq!(
            (a.acknowledged, a.source),
            (Some(true), Some(".claude/settings"))
        );
        let a = acknowledgement(Ok(None), &[], "abc");
        assert_eq!((a.acknowledged, a.source), (Some(false), None));
        let a = acknowledgement(Err("a link".into()), &legacy, "abc");
        assert_eq!(a.acknowledged, None);
        assert_eq!(
            a.error.as_deref(),
            Some("docs/ai/acks.json is not usable: a link")
        );
    }

    #[test]
    fn acknowledgement_is_the_fingerprint_string() {
        assert_eq!(acknowledged(r#"{"sandboxLaneAck":"abc"}"#, "abc"), Ok(true));
        assert_eq!(
            acknowledged(r#"{"sandboxLaneAck":{"fingerprint":"abc"}}"#, "abc"),
            Ok(false)
        );
        assert_eq!(
            acknowledged(r#"{"sandboxLaneAck":"ABC"}"#, "abc"),
            Ok(false)
        );
        assert_eq!(acknowledged(r#"{"other":"abc"}"#, "abc"), Ok(false));
        assert!(acknowledged("not json", "abc").is_err());
        assert!(acknowledged("[]", "abc").is_err());
    }
}
