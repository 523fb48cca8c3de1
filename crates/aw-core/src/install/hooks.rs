//! aw's hooks: which `aw` command runs on which event, translated per host, and the entry-by-entry
//! merge into a Claude-shaped `hooks` object (`{event: [{matcher, hooks: [{type, command,
//! timeout}]}]}`), used for Claude Code's `settings.json` and Codex's plugin `hooks.json`.
//!
//! A handler is ours when it is exactly what aw writes: one of aw's commands, under the event aw
//! installs that command for, in a group with the matcher aw gives it on that host. The same
//! command under another event or another matcher (a person's own `SessionStart` hook running
//! `aw resume-summary`, their `Bash` group running `aw hook branch-check`) is theirs: never
//! replaced or removed.

use super::host::Host;
use crate::project::settings::SettingsError;
use serde_json::{Map, Value, json};

/// One of aw's hooks, in Claude's event vocabulary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OurHook {
    /// The event.
    pub event: &'static str,
    /// Whether it fires on a file-editing tool (its matcher is the host's edit matcher).
    pub on_edit: bool,
    /// The command the host runs.
    pub command: &'static str,
    /// Seconds the host waits.
    pub timeout: u64,
}

/// aw's hooks: the checkpoint before a compaction (exit 2 holds it when the session is
/// ambiguous), the checkpoint when the host closes, the resume summary after a compaction, and
/// the branch check before an edit (exit 2 blocks it).
pub const OUR_HOOKS: &[OurHook] = &[
    OurHook {
        event: "PreToolUse",
        on_edit: true,
        command: "aw hook branch-check",
        timeout: 15,
    },
    OurHook {
        event: "PreCompact",
        on_edit: false,
        command: "aw checkpoint-write --can-pause",
        timeout: 10,
    },
    OurHook {
        event: "PostCompact",
        on_edit: false,
        command: "aw resume-summary",
        timeout: 10,
    },
    OurHook {
        event: "SessionEnd",
        on_edit: false,
        command: "aw auto-compact-on-close",
        timeout: 10,
    },
];

/// The hooks `host` carries, as `(event, group)` in order: events the host lacks are left out,
/// and a tool hook is left out when the host has no edit matcher.
pub fn groups_for(host: &Host) -> Vec<(&'static str, Value)> {
    OUR_HOOKS
        .iter()
        .filter(|h| !host.missing_events.iter().any(|(e, _)| *e == h.event))
        .filter_map(|h| {
            let matcher = if h.on_edit { host.edit_matcher? } else { "" };
            Some((
                h.event,
                json!({
                    "matcher": matcher,
                    "hooks": [{ "type": "command", "command": h.command, "timeout": h.timeout }],
                }),
            ))
        })
        .collect()
}

/// What a merge or a removal does to a settings file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HookMerge {
    /// The new text (`None`: the file already says it; leave it).
    pub text: Option<String>,
    /// Events where an entry of ours was added or replaced.
    pub added: Vec<String>,
    /// Events where an entry of ours was taken out and none put back.
    pub removed: Vec<String>,
    /// Events already holding exactly our entry.
    pub present: Vec<String>,
}

fn parse(text: Option<&str>) -> Result<Map<String, Value>, SettingsError> {
    let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
        return Ok(Map::new());
    };
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(SettingsError::Shape("(the file)")),
        Err(e) => Err(SettingsError::NotJson(e.to_string())),
    }
}

/// What makes a handler aw's: `(event, matcher, command)`, read from the groups aw installs.
struct Ours(Vec<(String, String, String)>);

impl Ours {
    fn of(groups: &[(&str, Value)]) -> Self {
        let mut ids = Vec::new();
        for (event, group) in groups {
            let matcher = group["matcher"].as_str().unwrap_or_default();
            for h in group["hooks"].as_array().into_iter().flatten() {
                if let Some(command) = h["command"].as_str() {
                    ids.push(((*event).to_owned(), matcher.to_owned(), command.to_owned()));
                }
            }
        }
        Ours(ids)
    }

    /// Whether `handler`, in a group whose matcher is `matcher` under `event`, is aw's.
    fn handler(&self, event: &str, matcher: Option<&str>, handler: &Value) -> bool {
        let (Some(matcher), Some(command)) = (matcher, handler["command"].as_str()) else {
            return false;
        };
        self.0
            .iter()
            .any(|(e, m, c)| e == event && m == matcher && c == command)
    }

    fn in_group(&self, event: &str, g: &Value) -> bool {
        let matcher = g.get("matcher").and_then(Value::as_str);
        g.get("hooks")
            .and_then(Value::as_array)
            .is_some_and(|hs| hs.iter().any(|h| self.handler(event, matcher, h)))
    }

    /// The groups of an event array without our handlers; a group left with no handler goes.
    fn without(&self, event: &str, groups: &[Value]) -> Vec<Value> {
        groups
            .iter()
            .filter_map(|g| {
                if !self.in_group(event, g) {
                    return Some(g.clone());
                }
                let matcher = g.get("matcher").and_then(Value::as_str);
                let kept: Vec<Value> = g
                    .get("hooks")
                    .and_then(Value::as_array)
                    .map(|hs| {
                        hs.iter()
                            .filter(|h| !self.handler(event, matcher, h))
                            .cloned()
                            .collect()
                    })
                    .unwrap_or_default();
                if kept.is_empty() {
                    return None;
                }
                let mut g = g.clone();
                g["hooks"] = Value::Array(kept);
                Some(g)
            })
            .collect()
    }
}

fn hooks_object(root: &Map<String, Value>) -> Result<Map<String, Value>, SettingsError> {
    match root.get("hooks") {
        None => Ok(Map::new()),
        Some(Value::Object(m)) => {
            for v in m.values() {
                if !v.is_array() {
                    return Err(SettingsError::Shape("hooks.<event>"));
                }
            }
            Ok(m.clone())
        }
        Some(_) => Err(SettingsError::Shape("hooks")),
    }
}

fn finish(
    original: Map<String, Value>,
    mut root: Map<String, Value>,
    hooks: Map<String, Value>,
    mut merge: HookMerge,
) -> HookMerge {
    if hooks.is_empty() {
        root.remove("hooks");
    } else {
        root.insert("hooks".to_owned(), Value::Object(hooks));
    }
    if root != original {
        let text = serde_json::to_string_pretty(&Value::Object(root)).unwrap_or_default();
        merge.text = Some(format!("{text}\n"));
    }
    merge
}

/// Puts `groups` into the settings `text` (absent or blank: an empty object), entry by entry:
/// an event already holding exactly our entry is left alone; otherwise our handlers are taken
/// out of it and our entry appended after the user's. Every other key, and every handler of the
/// user's (aw's commands under another event or matcher included), stays in its place.
pub fn merge(text: Option<&str>, groups: &[(&str, Value)]) -> Result<HookMerge, SettingsError> {
    let original = parse(text)?;
    let mut hooks = hooks_object(&original)?;
    let mut out = HookMerge::default();
    let ours = Ours::of(groups);
    for (event, group) in groups {
        let current: Vec<Value> = hooks
            .get(*event)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let found: Vec<&Value> = current.iter().filter(|g| ours.in_group(event, g)).collect();
        if found.len() == 1 && found[0] == group {
            out.present.push((*event).to_owned());
            continue;
        }
        let mut next = ours.without(event, &current);
        next.push(group.clone());
        hooks.insert((*event).to_owned(), Value::Array(next));
        out.added.push((*event).to_owned());
    }
    Ok(finish(original.clone(), original, hooks, out))
}

fn strip(ours: &Ours, hooks: &mut Map<String, Value>, event: &str, out: &mut HookMerge) {
    let Some(current) = hooks.get(event).and_then(Value::as_array).cloned() else {
        return;
    };
    if !current.iter().any(|g| ours.in_group(event, g)) {
        return;
    }
    let next = ours.without(event, &current);
    if next.is_empty() {
        hooks.remove(event);
    } else {
        hooks.insert(event.to_owned(), Value::Array(next));
    }
    out.removed.push(event.to_owned());
}

/// Takes every handler of ours (as `groups`, the host's, say them) out of the settings `text`,
/// keeping the user's; an event left empty goes, and so does an empty `hooks`.
pub fn remove(text: Option<&str>, groups: &[(&str, Value)]) -> Result<HookMerge, SettingsError> {
    let original = parse(text)?;
    let mut hooks = hooks_object(&original)?;
    let mut out = HookMerge::default();
    let ours = Ours::of(groups);
    let events: Vec<String> = hooks.keys().cloned().collect();
    for event in events {
        strip(&ours, &mut hooks, &event, &mut out);
    }
    Ok(finish(original.clone(), original, hooks, out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::install::host::host;

    fn claude() -> Vec<(&'static str, Value)> {
        groups_for(host("claude").unwrap())
    }

    const USER: &str = r#"{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "my-guard" }] }
    ]
  },
  "theme": "dark"
}"#;

    #[test]
    fn install_keeps_the_users_keys_and_hooks_and_is_idempotent() {
        let m = merge(Some(USER), &claude()).unwrap();
        let text = m.text.unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["model", "hooks", "theme"]);
        let pre = v["hooks"]["PreToolUse"].as_array().unwrap();
        assert_eq!(pre.len(), 2);
        assert_eq!(pre[0]["hooks"][0]["command"], "my-guard");
        assert_eq!(pre[1]["hooks"][0]["command"], "aw hook branch-check");
        assert_eq!(pre[1]["matcher"], "Edit|Write|MultiEdit|NotebookEdit");
        assert_eq!(
            v["hooks"]["PreCompact"][0]["hooks"][0]["command"],
            "aw checkpoint-write --can-pause"
        );
        let again = merge(Some(&text), &claude()).unwrap();
        assert_eq!(again.text, None);
        assert_eq!(again.present.len(), 4);
    }

    #[test]
    fn removal_takes_out_only_ours() {
        let installed = merge(Some(USER), &claude()).unwrap().text.unwrap();
        let r = remove(Some(&installed), &claude()).unwrap();
        let v: Value = serde_json::from_str(&r.text.unwrap()).unwrap();
        let orig: Value = serde_json::from_str(USER).unwrap();
        assert_eq!(v, orig);
        assert_eq!(remove(Some(USER), &claude()).unwrap().text, None);
    }

    #[test]
    fn a_handler_of_ours_beside_the_users_in_one_group_goes_alone() {
        let mixed = r#"{"hooks":{"PreCompact":[{"matcher":"","hooks":[
            {"type":"command","command":"aw checkpoint-write --can-pause"},
            {"type":"command","command":"notify-me"}]}]}}"#;
        let v: Value =
            serde_json::from_str(&remove(Some(mixed), &claude()).unwrap().text.unwrap()).unwrap();
        assert_eq!(
            v["hooks"]["PreCompact"][0]["hooks"][0]["command"],
            "notify-me"
        );
        // Installing over it keeps the user's handler and adds our own entry.
        let m = merge(Some(mixed), &claude()).unwrap();
        let v: Value = serde_json::from_str(&m.text.unwrap()).unwrap();
        let pc = v["hooks"]["PreCompact"].as_array().unwrap();
        assert_eq!(pc.len(), 2);
        assert_eq!(pc[0]["hooks"].as_array().unwrap().len(), 1);
    }

    #[test]
    fn our_commands_under_another_event_or_matcher_are_the_persons() {
        let theirs = r#"{"hooks":{
            "SessionStart":[{"matcher":"","hooks":[{"type":"command","command":"aw resume-summary"}]}],
            "PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"aw hook branch-check"}]}]}}"#;
        let m = merge(Some(theirs), &claude()).unwrap();
        let v: Value = serde_json::from_str(m.text.as_deref().unwrap()).unwrap();
        assert_eq!(
            v["hooks"]["SessionStart"][0]["hooks"][0]["command"],
            "aw resume-summary"
        );
        let pre = v["hooks"]["PreToolUse"].as_array().unwrap();
        assert_eq!(pre.len(), 2, "ours added beside theirs: {pre:?}");
        assert_eq!(pre[0]["matcher"], "Bash");
        assert_eq!(pre[1]["matcher"], "Edit|Write|MultiEdit|NotebookEdit");
        let r = remove(m.text.as_deref(), &claude()).unwrap();
        let back: Value = serde_json::from_str(&r.text.unwrap()).unwrap();
        assert_eq!(back, serde_json::from_str::<Value>(theirs).unwrap());
        assert_eq!(remove(Some(theirs), &claude()).unwrap().text, None);
    }

    #[test]
    fn invalid_or_misshapen_settings_are_refused() {
        assert!(matches!(
            merge(Some("{ nope"), &claude()),
            Err(SettingsError::NotJson(_))
        ));
        assert!(matches!(
            merge(Some("[]"), &claude()),
            Err(SettingsError::Shape(_))
        ));
        assert!(matches!(
            merge(Some(r#"{"hooks": {"PreCompact": {}}}"#), &claude()),
            Err(SettingsError::Shape(_))
        ));
    }

    #[test]
    fn an_empty_file_gets_only_our_hooks() {
        let v: Value =
            serde_json::from_str(&merge(None, &claude()).unwrap().text.unwrap()).unwrap();
        let events: Vec<&String> = v["hooks"].as_object().unwrap().keys().collect();
        assert_eq!(
            events,
            ["PreToolUse", "PreCompact", "PostCompact", "SessionEnd"]
        );
    }

    #[test]
    fn codex_carries_no_session_end_and_its_own_edit_tool() {
        let g = groups_for(host("codex").unwrap());
        assert!(g.iter().all(|(e, _)| *e != "SessionEnd"));
        assert_eq!(g[0].1["matcher"], "^apply_patch$");
    }
}
