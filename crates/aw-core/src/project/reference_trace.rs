//! What says the reference CLI has been used on a workspace or a machine: files it writes and
//! aw never does. A new project block is written in the reference's Spanish when one is found
//! (see [`super::language::choose`]): the reference rewrites an English block from scratch, so a
//! teammate running it would otherwise wipe the sources an aw user declared.
//!
//! Only writes that are the reference's alone count; aw's own files (the shared `.gitignore`
//! header, session files and their custody records, reservation markers, the narrative block) do not, since aw writes
//! them too. The shell looks in these places, in this order, and reports each trace it finds:
//!
//! | where | trace |
//! |---|---|
//! | `.<ns>/processes.json` | the registry of processes the reference's launch scripts start |
//! | `.<ns>/skills.toml` | the reference's template, recognised by its first line |
//! | `~/.<ns>/logs/agent-workflow-<date>.log` | the reference's log of every command it ran |
//! | `~/.claude/settings.json` | a hook whose command is the reference's `agent-workflow …` |

use serde_json::Value;

/// The reference's process registry, in the state folder.
pub const PROCESSES: &str = "processes.json";
/// The first line of the skills.toml the reference seeds.
pub const SKILLS_HEADER: &str = "# agent-workflow — capability skill bindings";
/// The folder of the reference's logs, in `~/.<ns>/`.
pub const LOGS: &str = "logs";
/// The reference's program name: its log files and its hook commands start with it.
pub const PROGRAM: &str = "agent-workflow";

/// Whether a skills.toml text is the reference's template (by its first line).
pub fn is_reference_skills_toml(text: &str) -> bool {
    text.lines()
        .next()
        .is_some_and(|l| l.trim() == SKILLS_HEADER)
}

/// Whether a file name is one of the reference's daily logs (`agent-workflow-<date>.log`).
pub fn is_reference_log(name: &str) -> bool {
    name.strip_prefix(PROGRAM)
        .and_then(|r| r.strip_prefix('-'))
        .is_some_and(|r| r.ends_with(".log"))
}

/// Whether a Claude Code settings text has a hook the reference installed: a `command` under
/// `hooks` that is `agent-workflow` or starts with `agent-workflow ` (the reference's own
/// ownership rule). A text that is not JSON has none.
pub fn has_reference_hook(settings: &str) -> bool {
    fn any_command(v: &Value) -> bool {
        match v {
            Value::Object(m) => m.iter().any(|(k, v)| match (k.as_str(), v) {
                ("command", Value::String(c)) => {
                    let c = c.trim_start();
                    c == PROGRAM || c.starts_with(&format!("{PROGRAM} "))
                }
                _ => any_command(v),
            }),
            Value::Array(a) => a.iter().any(any_command),
            _ => false,
        }
    }
    serde_json::from_str::<Value>(settings)
        .ok()
        .and_then(|v| v.get("hooks").map(any_command))
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_references_own_writes_count() {
        assert!(is_reference_skills_toml(
            "# agent-workflow — capability skill bindings\n#\n[skills]\n"
        ));
        let ours = crate::project::skills_toml::template("workflow");
        assert!(!is_reference_skills_toml(&ours));
        assert!(is_reference_log("agent-workflow-2026-12-04.log"));
        assert!(!is_reference_log("agent-workflow.txt"));
        assert!(!is_reference_log("aw-2026-12-04.log"));
        let hooks = r#"{"hooks":{"PreToolUse":[{"matcher":"Edit","hooks":[{"type":"command","command":"agent-workflow hook branch-check"}]}]}}"#;
        assert!(has_reference_hook(hooks));
        let ours = r#"{"hooks":{"PreToolUse":[{"hooks":[{"command":"/usr/bin/aw hook branch-check"}]}]},"command":"agent-workflow x"}"#;
        assert!(!has_reference_hook(ours), "only commands under hooks");
        assert!(!has_reference_hook(
            r#"{"hooks":{"X":[{"command":"agent-workflowx"}]}}"#
        ));
        assert!(!has_reference_hook("{ not json"));
    }
}
