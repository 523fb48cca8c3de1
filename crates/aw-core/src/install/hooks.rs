//! aw's hooks: which `aw` command runs on which event, translated per host, and the entry-by-entry
//! merge into a Claude-shaped `hooks` object (`{event: [{matcher, hooks: [{type, command,
//! timeout}]}]}`), used for Claude Code's `settings.json` and Codex's plugin `hooks.json`.
//!
//! A hook names aw by the absolute path of the binary that installed it (quoted for the shell
//! when it needs to be), so it runs whatever the host's `PATH` holds, and runs this program,
//! not another one named `aw`. A handler is ours when it is what aw writes, whichever path it
//! names: `aw` or an absolute path, then one of aw's commands, under the event aw installs that
//! command for, in a group with the matcher aw gives it on that host. The same command under
//! another event or another matcher (a person's own `SessionStart` hook running
//! `aw resume-summary`, their `Bash` group running `aw hook branch-check`) is theirs: never
//! replaced or removed.
//!
//! The reference's hooks (`agent-workflow <command>`) are recognised as the reference
//! recognises them: a group every command of which runs `agent-workflow`. Install takes them
//! out, so nothing runs twice; the doctor names them.
//!
//! The settings file is edited as a document ([`aw_json::doc`]): only the bytes of the entries
//! aw adds or takes out change; every number, blank, key order and key of the person's stays.

use super::host::Host;
use crate::project::settings::SettingsError;
use aw_json::doc::{self, AppendItem, Doc, Node};
use serde_json::{Map, Value, json};

/// One of aw's hooks, in Claude's event vocabulary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OurHook {
    /// The event.
    pub event: &'static str,
    /// Whether it fires on a file-editing tool (its matcher is the host's edit matcher).
    pub on_edit: bool,
    /// The arguments the host passes to aw.
    pub args: &'static str,
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
        args: "hook branch-check",
        timeout: 15,
    },
    OurHook {
        event: "PreCompact",
        on_edit: false,
        args: "checkpoint-write --can-pause",
        timeout: 10,
    },
    OurHook {
        event: "PostCompact",
        on_edit: false,
        args: "resume-summary",
        timeout: 10,
    },
    OurHook {
        event: "SessionEnd",
        on_edit: false,
        args: "auto-compact-on-close",
        timeout: 10,
    },
];

/// The reference's program name in the hooks it installs.
pub const REFERENCE_PROGRAM: &str = "agent-workflow";

/// `path` as one word of a POSIX shell command line: as it is when it holds only characters
/// no shell gives a meaning to, else in single quotes (a quote inside as `'\''`).
pub fn shell_word(path: &str) -> String {
    let plain = !path.is_empty()
        && path
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._+-@%=:,".contains(&b));
    if plain {
        path.to_owned()
    } else {
        format!("'{}'", path.replace('\'', "'\\''"))
    }
}

/// A hook command split into the program it runs (unquoted) and the rest, when its first word
/// is `aw` or an absolute path (quoted as [`shell_word`] quotes, or plain) followed by one blank.
pub fn split_command(command: &str) -> Option<(String, &str)> {
    let (program, rest) = if command.starts_with('\'') {
        let mut program = String::new();
        // `at` is at the opening quote of a quoted part.
        let mut at = 0;
        loop {
            let close = command[at + 1..].find('\'')? + at + 1;
            program.push_str(&command[at + 1..close]);
            at = close + 1;
            if command[at..].starts_with("\\''") {
                program.push('\'');
                at += 2;
                continue;
            }
            break;
        }
        (program, &command[at..])
    } else {
        let end = command.find(' ').unwrap_or(command.len());
        let word = &command[..end];
        if word.contains(['\'', '"', '\\', '$', '`']) {
            return None;
        }
        (word.to_owned(), &command[end..])
    };
    let rest = rest.strip_prefix(' ')?;
    (program == "aw" || program.starts_with('/')).then_some((program, rest))
}

/// The command line that runs `args` with the aw at `program`.
pub fn command(program: &str, args: &str) -> String {
    format!("{} {args}", shell_word(program))
}

/// Whether a hook command is the reference's: it runs `agent-workflow` (the reference's own
/// test of its entries).
pub fn is_reference_command(command: &str) -> bool {
    let c = command.trim_start();
    c == REFERENCE_PROGRAM || c.starts_with(&format!("{REFERENCE_PROGRAM} "))
}

/// aw's hooks `host` carries: events the host lacks are left out, and a tool hook is left out
/// when the host has no edit matcher. `(hook, matcher)`.
fn carried(host: &Host) -> Vec<(&'static OurHook, &'static str)> {
    OUR_HOOKS
        .iter()
        .filter(|h| !host.missing_events.iter().any(|(e, _)| *e == h.event))
        .filter_map(|h| {
            let matcher = if h.on_edit { host.edit_matcher? } else { "" };
            Some((h, matcher))
        })
        .collect()
}

/// The hooks `host` carries, running the aw at `program`, as `(event, group)` in order.
pub fn groups_for(host: &Host, program: &str) -> Vec<(&'static str, Value)> {
    carried(host)
        .into_iter()
        .map(|(h, matcher)| {
            (
                h.event,
                json!({
                    "matcher": matcher,
                    "hooks": [{ "type": "command", "command": command(program, h.args), "timeout": h.timeout }],
                }),
            )
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
    /// Events where the reference's entries were taken out (install only).
    pub reference_removed: Vec<String>,
    /// Whether the file is left holding nothing but an empty object (a removal that took out
    /// everything it held).
    pub emptied: bool,
}

/// Who aw's handlers are, on one host: `(event, matcher, args)`.
struct Ids(Vec<(&'static str, &'static str, &'static str)>);

impl Ids {
    fn of(host: &Host) -> Self {
        Ids(carried(host)
            .into_iter()
            .map(|(h, m)| (h.event, m, h.args))
            .collect())
    }

    /// The program of `handler` when it is aw's under `event`, in a group matching `matcher`.
    fn program(&self, event: &str, matcher: Option<&str>, handler: &Node) -> Option<String> {
        let matcher = matcher?;
        let (program, args) = split_command(handler.get("command")?.as_str()?)?;
        self.0
            .iter()
            .any(|(e, m, a)| *e == event && *m == matcher && *a == args)
            .then_some(program)
    }

    fn handler(&self, event: &str, matcher: Option<&str>, handler: &Node) -> bool {
        self.program(event, matcher, handler).is_some()
    }

    /// The programs of aw's handlers in group `g`.
    fn in_group(&self, event: &str, g: &Node) -> Vec<String> {
        let matcher = g.get("matcher").and_then(Node::as_str);
        handlers(g)
            .iter()
            .filter_map(|h| self.program(event, matcher, h))
            .collect()
    }
}

/// A group's handlers (its `hooks` array named once; none otherwise).
fn handlers(g: &Node) -> &[Node] {
    g.get("hooks").map(Node::elements).unwrap_or_default()
}

/// Whether group `g` is the reference's: it holds commands, and every one runs
/// `agent-workflow` (its prompts go with them).
fn is_reference_group(g: &Node) -> bool {
    let commands: Vec<&str> = handlers(g)
        .iter()
        .filter_map(|h| h.get("command").and_then(Node::as_str))
        .collect();
    !commands.is_empty() && commands.iter().all(|c| is_reference_command(c))
}

/// `g`'s text without aw's handlers: `None` when none of the person's is left.
fn without_ours(d: &Doc<'_>, ids: &Ids, event: &str, g: &Node) -> Option<String> {
    let t = d.text;
    let Some(list) = g.get("hooks").filter(|l| l.is_array()) else {
        return Some(g.raw(t).to_owned());
    };
    let matcher = g.get("matcher").and_then(Node::as_str);
    let keep: Vec<Option<String>> = list
        .elements()
        .iter()
        .map(|h| (!ids.handler(event, matcher, h)).then(|| h.raw(t).to_owned()))
        .collect();
    if keep.iter().all(Option::is_none) {
        return None;
    }
    Some(match d.splice(list, &keep, &[]) {
        None => g.raw(t).to_owned(),
        Some(new) => format!("{}{new}{}", &t[g.start..list.start], &t[list.end..g.end]),
    })
}

/// The parsed settings text, whose root must be an object.
fn parsed(text: &str) -> Result<Doc<'_>, SettingsError> {
    let d = doc::parse(text).map_err(SettingsError::NotJson)?;
    if !d.root.is_object() {
        return Err(SettingsError::Shape("(the file)"));
    }
    Ok(d)
}

fn hooks_of(root: &Node) -> Result<Option<&Node>, SettingsError> {
    let all = root.get_all("hooks");
    if all.len() > 1 {
        return Err(SettingsError::Duplicate("hooks".to_owned()));
    }
    let Some(h) = all.first().map(|m| &m.value) else {
        return Ok(None);
    };
    if !h.is_object() {
        return Err(SettingsError::Shape("hooks"));
    }
    if h.members().iter().any(|m| !m.value.is_array()) {
        return Err(SettingsError::Shape("hooks.<event>"));
    }
    Ok(Some(h))
}

/// What an edit of one host's hooks does: install (our groups put in, the reference's taken
/// out) or removal (ours taken out).
#[derive(Clone, Copy)]
enum Mode<'g> {
    Install(&'g [(&'static str, Value)]),
    Remove,
}

fn edit(text: Option<&str>, host: &Host, mode: Mode<'_>) -> Result<HookMerge, SettingsError> {
    let mut out = HookMerge::default();
    let ours = match mode {
        Mode::Install(g) => g,
        Mode::Remove => &[][..],
    };
    let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
        if ours.is_empty() {
            return Ok(out);
        }
        let mut events = Map::new();
        for (event, group) in ours {
            events.insert((*event).to_owned(), json!([group]));
            out.added.push((*event).to_owned());
        }
        let text = serde_json::to_string_pretty(&json!({ "hooks": events })).unwrap_or_default();
        out.text = Some(format!("{text}\n"));
        return Ok(out);
    };
    let d = parsed(text)?;
    let hooks = hooks_of(&d.root)?;
    let ids = Ids::of(host);
    let install = matches!(mode, Mode::Install(_));
    let t = d.text;
    let members = hooks.map(Node::members).unwrap_or_default();
    let mut member_items: Vec<Option<String>> = Vec::new();
    for m in members {
        let event = m.key.as_str();
        let our_group = ours.iter().find(|(e, _)| *e == event).map(|(_, g)| g);
        let groups = m.value.elements();
        let has_ours = groups.iter().any(|g| !ids.in_group(event, g).is_empty());
        let has_reference = install && groups.iter().any(is_reference_group);
        if our_group.is_none() && !has_ours && !has_reference {
            member_items.push(Some(t[m.start..m.end()].to_owned()));
            continue;
        }
        if members.iter().filter(|x| x.key == event).count() > 1 {
            return Err(SettingsError::Duplicate(format!("hooks.{event}")));
        }
        let found: Vec<&Node> = groups
            .iter()
            .filter(|g| !ids.in_group(event, g).is_empty())
            .collect();
        let present = our_group.is_some_and(|ours| {
            found.len() == 1
                && serde_json::from_str::<Value>(found[0].raw(t)).ok().as_ref() == Some(ours)
        });
        let mut items = Vec::new();
        let mut took_reference = false;
        for g in groups {
            if has_reference && is_reference_group(g) {
                took_reference = true;
                items.push(None);
            } else if present {
                items.push(Some(g.raw(t).to_owned()));
            } else {
                items.push(without_ours(&d, &ids, event, g));
            }
        }
        let appended: Vec<AppendItem> = match our_group {
            Some(g) if !present => vec![AppendItem::Element(g.clone())],
            _ => Vec::new(),
        };
        if present {
            out.present.push(event.to_owned());
        } else if our_group.is_some() {
            out.added.push(event.to_owned());
        } else if has_ours {
            out.removed.push(event.to_owned());
        }
        if took_reference {
            out.reference_removed.push(event.to_owned());
        }
        let emptied = appended.is_empty() && items.iter().all(Option::is_none);
        member_items.push(match d.splice(&m.value, &items, &appended) {
            None => Some(t[m.start..m.end()].to_owned()),
            Some(_) if emptied => None,
            Some(arr) => Some(format!("{}{arr}", &t[m.start..m.value.start])),
        });
    }
    let mut new_members: Vec<AppendItem> = Vec::new();
    for (event, group) in ours {
        if !members.iter().any(|m| m.key == *event) {
            new_members.push(AppendItem::Member((*event).to_owned(), json!([group])));
            out.added.push((*event).to_owned());
        }
    }
    // The root's members, with `hooks` edited, removed or added.
    let root_members = d.root.members();
    let mut root_items: Vec<Option<String>> = root_members
        .iter()
        .map(|m| Some(t[m.start..m.end()].to_owned()))
        .collect();
    let mut root_appended = Vec::new();
    match hooks {
        Some(h) => {
            if let Some(new) = d.splice(h, &member_items, &new_members) {
                let at = root_members
                    .iter()
                    .position(|m| m.key == "hooks")
                    .unwrap_or_default();
                let m = &root_members[at];
                root_items[at] =
                    if member_items.iter().all(Option::is_none) && new_members.is_empty() {
                        None
                    } else {
                        Some(format!("{}{new}", &t[m.start..h.start]))
                    };
            }
        }
        None if !new_members.is_empty() => {
            let mut events = Map::new();
            for (event, group) in ours {
                events.insert((*event).to_owned(), json!([group]));
            }
            root_appended.push(AppendItem::Member(
                "hooks".to_owned(),
                Value::Object(events),
            ));
        }
        None => {}
    }
    if let Some(root) = d.splice(&d.root, &root_items, &root_appended) {
        out.emptied = root_items.iter().all(Option::is_none) && root_appended.is_empty();
        out.text = Some(format!("{}{root}{}", &t[..d.root.start], &t[d.root.end..]));
    }
    Ok(out)
}

/// Puts aw's `groups` for `host` into the settings `text` (absent or blank: a new file), entry
/// by entry: an event already holding exactly our entry is left alone; otherwise our handlers
/// (whatever path they name) are taken out of it and our entry appended after the person's. The
/// reference's entries are taken out. Every other byte stays.
pub fn merge(
    text: Option<&str>,
    host: &Host,
    groups: &[(&'static str, Value)],
) -> Result<HookMerge, SettingsError> {
    edit(text, host, Mode::Install(groups))
}

/// Takes every handler of aw's (whatever path it names) out of the settings `text`, keeping the
/// person's; an event left empty goes, and so does an empty `hooks`.
pub fn remove(text: Option<&str>, host: &Host) -> Result<HookMerge, SettingsError> {
    edit(text, host, Mode::Remove)
}

/// What a settings (or hooks) file holds, for the doctor.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HookSurvey {
    /// aw's handlers: `(event, the program they run)`.
    pub ours: Vec<(String, String)>,
    /// Events holding the reference's entries.
    pub reference: Vec<String>,
}

impl HookSurvey {
    /// Events where aw's hook and the reference's both run (each would run twice).
    pub fn duplicates(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for (event, _) in &self.ours {
            let twice = self.reference.contains(event)
                || self.ours.iter().filter(|(e, _)| e == event).count() > 1;
            if twice && !out.contains(event) {
                out.push(event.clone());
            }
        }
        out
    }
}

/// Reads whose hooks a Claude-shaped settings text holds.
pub fn survey(text: &str, host: &Host) -> Result<HookSurvey, SettingsError> {
    let mut out = HookSurvey::default();
    if text.trim().is_empty() {
        return Ok(out);
    }
    let d = parsed(text)?;
    let ids = Ids::of(host);
    for m in hooks_of(&d.root)?.map(Node::members).unwrap_or_default() {
        for g in m.value.elements() {
            for program in ids.in_group(&m.key, g) {
                out.ours.push((m.key.clone(), program));
            }
            if is_reference_group(g) && !out.reference.contains(&m.key) {
                out.reference.push(m.key.clone());
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::install::host::host;

    const AW: &str = "/opt/aw tools/bin/aw";

    fn claude() -> Vec<(&'static str, Value)> {
        groups_for(host("claude").unwrap(), AW)
    }

    fn c() -> &'static Host {
        host("claude").unwrap()
    }

    fn merge(
        text: Option<&str>,
        groups: &[(&'static str, Value)],
    ) -> Result<HookMerge, SettingsError> {
        super::merge(text, c(), groups)
    }

    fn remove(
        text: Option<&str>,
        _groups: &[(&'static str, Value)],
    ) -> Result<HookMerge, SettingsError> {
        super::remove(text, c())
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
        assert_eq!(
            pre[1]["hooks"][0]["command"],
            "'/opt/aw tools/bin/aw' hook branch-check"
        );
        assert_eq!(pre[1]["matcher"], "Edit|Write|MultiEdit|NotebookEdit");
        assert_eq!(
            v["hooks"]["PreCompact"][0]["hooks"][0]["command"],
            "'/opt/aw tools/bin/aw' checkpoint-write --can-pause"
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
        let g = groups_for(host("codex").unwrap(), "aw");
        assert!(g.iter().all(|(e, _)| *e != "SessionEnd"));
        assert_eq!(g[0].1["matcher"], "^apply_patch$");
    }

    #[test]
    fn the_persons_numbers_spacing_and_keys_survive_byte_for_byte() {
        let text = "{\n    \"big\": 123456789012345678901234567890,\n    \"ratio\": 1.10,   \"sci\": 1e2,\n    \"hooks\": {\n        \"PreToolUse\": [\n            {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"mine\", \"timeout\": 5.0}]}\n        ]\n    },\n    \"tail\": \"\\u00e9\"\n}\n";
        let installed = merge(Some(text), &claude()).unwrap().text.unwrap();
        for kept in [
            "\"big\": 123456789012345678901234567890,",
            "\"ratio\": 1.10,   \"sci\": 1e2,",
            "{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"mine\", \"timeout\": 5.0}]}",
            "\"tail\": \"\\u00e9\"\n}\n",
        ] {
            assert!(installed.contains(kept), "{kept} in {installed}");
        }
        assert!(installed.contains("\n            {\n                \"matcher\": \"Edit|Write|MultiEdit|NotebookEdit\","), "{installed}");
        // Taking ours out again gives back the very bytes the person had.
        assert_eq!(
            remove(Some(&installed), &claude()).unwrap().text.as_deref(),
            Some(text)
        );
    }

    #[test]
    fn a_repeated_key_aw_would_edit_is_refused_and_one_elsewhere_kept() {
        let twice = r#"{"hooks": {"PreCompact": [{"matcher": "", "hooks": [{"type": "command", "command": "mine"}]}], "PreCompact": []}}"#;
        assert!(
            matches!(merge(Some(twice), &claude()), Err(SettingsError::Duplicate(k)) if k == "hooks.PreCompact")
        );
        let hooks_twice = r#"{"hooks": {}, "hooks": {}}"#;
        assert!(matches!(
            merge(Some(hooks_twice), &claude()),
            Err(SettingsError::Duplicate(_))
        ));
        let elsewhere = r#"{"env": {"A": "1", "A": "2"}, "hooks": {"Stop": [], "Stop": [1]}}"#;
        let out = merge(Some(elsewhere), &claude()).unwrap().text.unwrap();
        assert!(
            out.starts_with(r#"{"env": {"A": "1", "A": "2"}, "hooks": {"Stop": [], "Stop": [1],"#),
            "{out}"
        );
    }

    #[test]
    fn entries_naming_another_path_are_still_aws_and_are_replaced() {
        let old = merge(None, &groups_for(c(), "/old/place/aw"))
            .unwrap()
            .text
            .unwrap();
        let m = merge(Some(&old), &claude()).unwrap();
        assert_eq!(m.added.len(), 4, "{m:?}");
        let v: Value = serde_json::from_str(&m.text.unwrap()).unwrap();
        for (_, groups) in v["hooks"].as_object().unwrap() {
            assert_eq!(groups.as_array().unwrap().len(), 1, "{v:#}");
        }
        let bare = merge(None, &groups_for(c(), "aw")).unwrap().text.unwrap();
        assert!(remove(Some(&bare), &claude()).unwrap().emptied);
        let s = survey(&old, c()).unwrap();
        assert!(s.ours.iter().all(|(_, p)| p == "/old/place/aw"));
    }

    #[test]
    fn the_references_entries_are_taken_out_at_install_and_named_by_the_survey() {
        let v22 = r#"{"hooks": {
            "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "agent-workflow self namespace --pin workflow"}]}],
            "PreCompact": [{"matcher": "", "hooks": [{"type": "command", "command": "agent-workflow checkpoint-write --can-pause"}]}],
            "PostCompact": [{"matcher": "", "hooks": [{"type": "command", "command": "agent-workflow resume-summary"}, {"type": "prompt", "prompt": "x"}]}],
            "Stop": [{"matcher": "", "hooks": [{"type": "command", "command": "agent-workflow x"}, {"type": "command", "command": "mine"}]}]
        }}"#;
        let both = merge(None, &claude()).unwrap().text.unwrap();
        let mut s = survey(v22, c()).unwrap();
        assert_eq!(s.reference, ["SessionStart", "PreCompact", "PostCompact"]);
        assert!(s.duplicates().is_empty());
        let m = merge(Some(v22), &claude()).unwrap();
        assert_eq!(
            m.reference_removed,
            ["SessionStart", "PreCompact", "PostCompact"]
        );
        let out = m.text.unwrap();
        let v: Value = serde_json::from_str(&out).unwrap();
        assert!(v["hooks"].get("SessionStart").is_none());
        assert_eq!(v["hooks"]["PreCompact"].as_array().unwrap().len(), 1);
        assert_eq!(v["hooks"]["PostCompact"].as_array().unwrap().len(), 1);
        assert_eq!(
            v["hooks"]["Stop"][0]["hooks"][1]["command"], "mine",
            "a mixed group is the person's"
        );
        s = survey(&out, c()).unwrap();
        assert!(s.reference.is_empty());
        assert!(!both.contains("agent-workflow"));
        // Both installed side by side: the doctor sees each event that runs twice.
        let side = v22.replacen(
            r#""PreCompact": [{"#,
            r#""PreCompact": [{"matcher": "", "hooks": [{"type": "command", "command": "aw checkpoint-write --can-pause", "timeout": 10}]}, {"#,
            1,
        );
        assert_eq!(survey(&side, c()).unwrap().duplicates(), ["PreCompact"]);
    }

    #[test]
    fn a_path_is_quoted_for_the_shell_only_when_it_must_be_and_reads_back() {
        for path in [
            "/usr/local/bin/aw",
            "/opt/my tools/aw",
            "/it's/aw",
            "/a$b/`x`/aw",
        ] {
            let cmd = command(path, "resume-summary");
            let (program, args) = split_command(&cmd).unwrap();
            assert_eq!((program.as_str(), args), (path, "resume-summary"), "{cmd}");
        }
        assert_eq!(command("/usr/local/bin/aw", "x"), "/usr/local/bin/aw x");
        assert_eq!(command("/it's/aw", "x"), r"'/it'\''s/aw' x");
        assert_eq!(split_command("aw hook branch-check").unwrap().0, "aw");
        assert!(split_command("my-aw hook branch-check").is_none());
        assert!(split_command("agent-workflow hook branch-check").is_none());
    }
}
