//! aw's hooks: which `aw` command runs on which event, translated per host, and the entry-by-entry
//! merge into a Claude-shaped `hooks` object (`{event: [{matcher, hooks: [{type, command,
//! timeout}]}]}`), used for Claude Code's `settings.json` and Codex's plugin `hooks.json`.
//!
//! A hook names aw by the absolute path of the binary that installed it (quoted for the shell
//! when it needs to be), so it runs whatever the host's `PATH` holds, and runs this program,
//! not another one named `aw`. A handler is aw's when it runs `aw` or an absolute path, then
//! one of aw's commands, under the event aw installs that command for, in a group whose
//! matcher reaches a tool aw's hook fires on (a lifecycle event: any matcher). With aw's exact
//! arguments it is aw's hook, tuned by the person however they like (timeout, matcher, keys,
//! their own handlers beside it: all kept). With words added after aw's command (or its
//! options taken off) it is an edited hook of aw's: the person's now, kept by install and
//! uninstall alike, and aw adds none beside it. The same command under another event or in a
//! group reaching none of the edit tools (a person's own `SessionStart` hook running
//! `aw resume-summary`, their `Bash` group running `aw hook branch-check`) is theirs: never
//! replaced or removed, and no stand-in for aw's.
//!
//! The reference's hooks (`agent-workflow <command>`) are recognised as the reference
//! recognises them: a group every command of which runs `agent-workflow`. Install takes out
//! those aw has an equivalent for (the same command under the same event), so nothing runs
//! twice; the others only when the reference is no longer on `PATH` (the shell says which). The
//! doctor names them.
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
    /// Events where an entry of ours was added, or where the program a handler of ours names
    /// was rewritten to the installing aw's (only the command's bytes change).
    pub added: Vec<String>,
    /// Events where a handler of ours was taken out and none put back (removal only).
    pub removed: Vec<String>,
    /// Events already holding a handler that runs aw's exact command: its timeout, its group's
    /// matcher and keys, and the person's handlers beside it are theirs and stay as they are.
    pub present: Vec<String>,
    /// Events holding an edited hook of aw's (aw's command with words of the person's added):
    /// it is the person's now, kept as it is, and aw adds none beside it.
    pub edited_kept: Vec<String>,
    /// Events where a second handler running aw's exact command for the same tools was taken
    /// out (it would have run twice; install only).
    pub duplicates_removed: Vec<String>,
    /// Events where the reference's entries were taken out (install only).
    pub reference_removed: Vec<String>,
    /// The reference's hooks that aw has no equivalent for, taken out because the reference is
    /// no longer on `PATH`: `(event, command)` (install only).
    pub reference_hooks_removed: Vec<(String, String)>,
    /// The reference's hooks that aw has no equivalent for, kept because the reference is on
    /// `PATH` (it still runs them): `(event, command)` (install only).
    pub reference_hooks_kept: Vec<(String, String)>,
    /// Whether the file is left holding nothing but an empty object (a removal that took out
    /// everything it held).
    pub emptied: bool,
}

/// The words naming one of aw's hook commands, without its options:
/// `checkpoint-write --can-pause` → `checkpoint-write`; `hook branch-check` stays.
fn command_name(args: &str) -> &str {
    args.find(" -").map_or(args, |i| &args[..i])
}

/// How the arguments of a handler (what follows the program) stand to one of aw's commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Runs {
    /// Exactly aw's arguments.
    Exact,
    /// aw's command as its leading words, then other words (or options taken off): the
    /// person's edit of aw's hook.
    Edited,
}

fn runs(rest: &str, args: &str) -> Option<Runs> {
    if rest == args {
        return Some(Runs::Exact);
    }
    let more = rest.strip_prefix(command_name(args))?;
    (more.is_empty() || more.starts_with(' ')).then_some(Runs::Edited)
}

/// The tools the host's edit matcher names, anchors taken off (`^apply_patch$` → `apply_patch`).
fn edit_tools(host: &Host) -> Vec<&'static str> {
    host.edit_matcher
        .map(|m| {
            m.split('|')
                .map(|t| t.trim_start_matches('^').trim_end_matches('$'))
                .collect()
        })
        .unwrap_or_default()
}

/// Whether `program` (the first word of a handler's command, unquoted) is aw: the bare word
/// `aw`, an absolute path whose last part is exactly `aw`, or exactly `installing` (the path of
/// the aw at work, whatever its name). `/usr/bin/logger` is not, nor `/`, nor `/é`.
pub fn is_aw_program(program: &str, installing: &str) -> bool {
    program == "aw"
        || (program.starts_with('/') && program.rsplit('/').next() == Some("aw"))
        || (!installing.is_empty() && program == installing)
}

/// When a group of aw's fires.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trigger {
    /// The tool hook: the edit tools its group's matcher reaches, a bit per tool.
    Tools(u64),
    /// A lifecycle event (`PreCompact`, `PostCompact`, `SessionEnd`): its matcher taken
    /// literally, `None` when it covers every trigger (missing, `""` or `*`).
    Literal(Option<String>),
}

impl Trigger {
    /// Whether the two fire for one same trigger: tool groups sharing a tool; lifecycle groups
    /// one of which covers every trigger, or with the same literal matcher (`manual` and `auto`,
    /// `clear` and `logout` never meet).
    pub fn overlaps(&self, other: &Trigger) -> bool {
        match (self, other) {
            (Trigger::Tools(a), Trigger::Tools(b)) => a & b != 0,
            (Trigger::Literal(None), Trigger::Literal(_))
            | (Trigger::Literal(_), Trigger::Literal(None)) => true,
            (Trigger::Literal(Some(a)), Trigger::Literal(Some(b))) => a == b,
            _ => false,
        }
    }
}

/// Which of `tools` a tool group's matcher reaches, one bit each, when aw can judge it: a
/// missing, empty or `*` matcher, or the host's own edit matcher (`own`), reaches every tool; a
/// plain `|`-separated list of names (ASCII letters, digits, `_`) the names it lists. Any other
/// matcher is a pattern for the host's own matcher language (JavaScript's, not Rust's): aw does
/// not guess what it reaches (`None`), and the group is the person's.
fn tool_reach(matcher: Option<&str>, tools: &[&str], own: Option<&str>) -> Option<u64> {
    let all = (0..tools.len()).fold(0u64, |acc, i| acc | 1 << i.min(63));
    let Some(m) = matcher.filter(|m| !m.is_empty() && *m != "*" && Some(*m) != own) else {
        return Some(all);
    };
    let names: Vec<&str> = m.split('|').collect();
    let plain = names
        .iter()
        .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'));
    plain.then(|| {
        tools.iter().enumerate().fold(0, |acc, (i, t)| {
            if names.contains(t) {
                acc | 1 << i.min(63)
            } else {
                acc
            }
        })
    })
}

/// A lifecycle group's trigger: its matcher taken literally.
fn literal(matcher: Option<&str>) -> Trigger {
    Trigger::Literal(
        matcher
            .filter(|m| !m.is_empty() && *m != "*")
            .map(str::to_owned),
    )
}

/// A group's matcher: `Some(None)` when it has none (it matches everything), `None` when it is
/// not a string or named twice (the group is the person's: aw does not guess which one the
/// host reads).
fn group_matcher(g: &Node) -> Option<Option<&str>> {
    match g.get_all("matcher").as_slice() {
        [] => Some(None),
        [m] => m.value.as_str().map(Some),
        _ => None,
    }
}

/// One handler that runs aw's command for its event.
#[derive(Debug)]
struct AwRun {
    /// Its place in its group's handlers.
    handler: usize,
    /// The program it names.
    program: String,
    /// Its whole command.
    command: String,
    kind: Runs,
    /// When its group fires.
    trigger: Trigger,
    /// Whether its group is an exact copy of the group aw writes for the event (aw's matcher,
    /// this one handler with aw's exact command for some aw, aw's timeout, no other key),
    /// whichever aw it names.
    copy: bool,
}

/// aw's hooks on one host, the edit tools of its tool hook, and the path of the aw at work.
struct Ids<'p> {
    hooks: Vec<(&'static OurHook, &'static str)>,
    tools: Vec<&'static str>,
    own_matcher: Option<&'static str>,
    program: &'p str,
}

/// Whether object `n` names one key twice (the host reads the last one, which aw does not
/// guess at: such a handler is the person's).
fn repeats_a_key(n: &Node) -> bool {
    let m = n.members();
    m.iter()
        .enumerate()
        .any(|(i, a)| m[..i].iter().any(|b| b.key == a.key))
}

/// Whether object `n` has exactly the keys `keys`, each once.
fn exactly(n: &Node, keys: &[&str]) -> bool {
    n.is_object() && n.members().len() == keys.len() && keys.iter().all(|k| n.get(k).is_some())
}

impl<'p> Ids<'p> {
    fn of(host: &Host, program: &'p str) -> Self {
        Ids {
            hooks: carried(host),
            tools: edit_tools(host),
            own_matcher: host.edit_matcher,
            program,
        }
    }

    fn hook(&self, event: &str) -> Option<&'static OurHook> {
        self.hooks
            .iter()
            .find(|(h, _)| h.event == event)
            .map(|(h, _)| *h)
    }

    /// The matcher aw writes for `hook`.
    fn matcher(&self, hook: &OurHook) -> &'static str {
        self.hooks
            .iter()
            .find(|(h, _)| h.event == hook.event)
            .map_or("", |(_, m)| m)
    }

    /// The program of a handler's command when it runs aw's exact or edited `args`.
    fn aw_command<'c>(&self, command: &'c str, args: &str) -> Option<(String, &'c str, Runs)> {
        let (program, rest) = split_command(command)?;
        if !is_aw_program(&program, self.program) {
            return None;
        }
        let kind = runs(rest, args)?;
        Some((program, rest, kind))
    }

    /// The program group `g` names when it is an exact copy of aw's group for `hook` (aw's
    /// matcher string, one handler of `type` `command` running aw's exact arguments with some
    /// aw, aw's timeout, and no other key anywhere).
    fn copy_of(&self, t: &str, hook: &OurHook, g: &Node) -> Option<String> {
        if !exactly(g, &["matcher", "hooks"]) || g.get("matcher")?.as_str()? != self.matcher(hook) {
            return None;
        }
        let [h] = g.get("hooks")?.elements() else {
            return None;
        };
        if !exactly(h, &["type", "command", "timeout"])
            || h.get("type")?.as_str()? != "command"
            || h.get("timeout")?.raw(t) != hook.timeout.to_string()
        {
            return None;
        }
        match self.aw_command(h.get("command")?.as_str()?, hook.args)? {
            (program, _, Runs::Exact) => Some(program),
            _ => None,
        }
    }

    /// The handlers of group `g` (under `event`) that run aw's command for that event, exactly
    /// or edited, with aw (see [`is_aw_program`]), naming no key twice (a handler that repeats
    /// `type` or any other key is the person's), in a group aw can judge: its `matcher` and
    /// `hooks` named once, and for the tool hook a matcher that reaches an edit tool by the
    /// rules of [`tool_reach`]. A `Bash` group running `aw hook branch-check` reaches no edit
    /// tool: the person's own use, not aw's hook; so is a group whose matcher is a pattern.
    fn runs_in(&self, t: &str, event: &str, g: &Node) -> Vec<AwRun> {
        let Some(hook) = self.hook(event) else {
            return Vec::new();
        };
        if g.get_all("hooks").len() != 1 {
            return Vec::new();
        }
        let Some(matcher) = group_matcher(g) else {
            return Vec::new();
        };
        let trigger = if hook.on_edit {
            match tool_reach(matcher, &self.tools, self.own_matcher) {
                Some(bits) if bits != 0 => Trigger::Tools(bits),
                _ => return Vec::new(),
            }
        } else {
            literal(matcher)
        };
        let copy = self.copy_of(t, hook, g).is_some();
        handlers(g)
            .iter()
            .enumerate()
            .filter_map(|(i, h)| {
                if repeats_a_key(h) {
                    return None;
                }
                let command = h.get("command")?.as_str()?;
                let (program, _, kind) = self.aw_command(command, hook.args)?;
                Some(AwRun {
                    handler: i,
                    program,
                    command: command.to_owned(),
                    kind,
                    trigger: trigger.clone(),
                    copy,
                })
            })
            .collect()
    }

    /// Whether the reference's group `g` under `event` runs only commands aw runs itself there
    /// (`agent-workflow checkpoint-write --can-pause` under `PreCompact`): aw's hook replaces it.
    fn reference_equivalent(&self, event: &str, g: &Node) -> bool {
        let Some(hook) = self.hook(event) else {
            return false;
        };
        reference_commands(g).iter().all(|c| {
            c.trim_start()
                .strip_prefix(REFERENCE_PROGRAM)
                .and_then(|r| r.strip_prefix(' '))
                .is_some_and(|r| runs(r.trim_start(), hook.args).is_some())
        })
    }
}

/// A group's handlers (its `hooks` array named once; none otherwise).
fn handlers(g: &Node) -> &[Node] {
    g.get("hooks").map(Node::elements).unwrap_or_default()
}

/// The commands of a group's handlers.
fn reference_commands(g: &Node) -> Vec<&str> {
    handlers(g)
        .iter()
        .filter_map(|h| h.get("command").and_then(Node::as_str))
        .collect()
}

/// Whether group `g` is the reference's: it holds commands, and every one runs
/// `agent-workflow` (its prompts go with them).
fn is_reference_group(g: &Node) -> bool {
    let commands = reference_commands(g);
    !commands.is_empty() && commands.iter().all(|c| is_reference_command(c))
}

/// `g`'s text with the handlers at `drop` taken out and the commands at `rewrite` replaced
/// (only the command string's bytes change): `None` when none of its handlers is left.
fn edit_group(
    d: &Doc<'_>,
    g: &Node,
    drop: &[usize],
    rewrite: &[(usize, String)],
) -> Option<String> {
    let t = d.text;
    let Some(list) = g.get("hooks").filter(|l| l.is_array()) else {
        return Some(g.raw(t).to_owned());
    };
    if drop.is_empty() && rewrite.is_empty() {
        return Some(g.raw(t).to_owned());
    }
    let keep: Vec<Option<String>> = list
        .elements()
        .iter()
        .enumerate()
        .map(|(i, h)| {
            if drop.contains(&i) {
                return None;
            }
            let new = rewrite.iter().find(|(at, _)| *at == i).map(|(_, c)| c);
            Some(match (new, h.get("command")) {
                (Some(c), Some(old)) => format!(
                    "{}{}{}",
                    &t[h.start..old.start],
                    serde_json::to_string(c).unwrap_or_default(),
                    &t[old.end..h.end]
                ),
                _ => h.raw(t).to_owned(),
            })
        })
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
/// out, those aw has no equivalent for only when the reference no longer runs) or removal
/// (ours taken out).
#[derive(Clone, Copy)]
enum Mode<'g> {
    Install {
        groups: &'g [(&'static str, Value)],
        reference_runs: bool,
    },
    Remove,
}

fn push_once(list: &mut Vec<String>, event: &str) {
    if !list.iter().any(|e| e == event) {
        list.push(event.to_owned());
    }
}

fn edit(
    text: Option<&str>,
    host: &Host,
    program: &str,
    mode: Mode<'_>,
) -> Result<HookMerge, SettingsError> {
    let mut out = HookMerge::default();
    let (ours, reference_runs) = match mode {
        Mode::Install {
            groups,
            reference_runs,
        } => (groups, reference_runs),
        Mode::Remove => (&[][..], false),
    };
    let install = matches!(mode, Mode::Install { .. });
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
    let ids = Ids::of(host, program);
    let t = d.text;
    let members = hooks.map(Node::members).unwrap_or_default();
    let mut member_items: Vec<Option<String>> = Vec::new();
    for m in members {
        let event = m.key.as_str();
        let our_group = ours.iter().find(|(e, _)| *e == event).map(|(_, g)| g);
        let groups = m.value.elements();
        let found: Vec<Vec<AwRun>> = groups.iter().map(|g| ids.runs_in(t, event, g)).collect();
        let has_ours = found.iter().any(|f| !f.is_empty());
        // Per group: `Some(whether aw has an equivalent)` for the reference's.
        let reference: Vec<Option<bool>> = groups
            .iter()
            .map(|g| (install && is_reference_group(g)).then(|| ids.reference_equivalent(event, g)))
            .collect();
        let has_reference = reference.iter().any(Option::is_some);
        if our_group.is_none() && !has_ours && !has_reference {
            member_items.push(Some(t[m.start..m.end()].to_owned()));
            continue;
        }
        if members.iter().filter(|x| x.key == event).count() > 1 {
            return Err(SettingsError::Duplicate(format!("hooks.{event}")));
        }
        // Which of aw's handlers stay. An edited one is the person's: always; so is an exact
        // one in a group the person tuned in any way, even when it fires for a trigger another
        // handler of aw's fires for too (the doctor names the two). On install, only an exact
        // copy of aw's own group goes, when another such copy comes before it (what an older aw
        // appended twice); an exact handler naming another program than the installing aw's
        // gets its command rewritten. On removal, no exact one stays.
        let expected = our_group.and_then(|g| g["hooks"][0]["command"].as_str());
        let mut drop: Vec<Vec<usize>> = vec![Vec::new(); groups.len()];
        let mut rewrite: Vec<Vec<(usize, String)>> = vec![Vec::new(); groups.len()];
        let (mut kept_exact, mut dropped_exact, mut rewrote, mut edited, mut kept_copy) =
            (false, false, false, false, false);
        for (gi, group_runs) in found.iter().enumerate() {
            for r in group_runs {
                match r.kind {
                    Runs::Edited => edited = true,
                    Runs::Exact if !install || (r.copy && kept_copy) => {
                        drop[gi].push(r.handler);
                        dropped_exact = true;
                    }
                    Runs::Exact => {
                        kept_copy |= r.copy;
                        kept_exact = true;
                        if let Some(want) = expected.filter(|w| *w != r.command) {
                            let same_program =
                                split_command(want).is_some_and(|(p, _)| p == r.program);
                            if !same_program {
                                rewrite[gi].push((r.handler, want.to_owned()));
                                rewrote = true;
                            }
                        }
                    }
                }
            }
        }
        let mut items = Vec::new();
        let mut took_reference = false;
        for (gi, g) in groups.iter().enumerate() {
            if let Some(equivalent) = reference[gi] {
                let named = || {
                    reference_commands(g)
                        .into_iter()
                        .map(|c| (event.to_owned(), c.to_owned()))
                        .collect::<Vec<_>>()
                };
                if !equivalent && reference_runs {
                    out.reference_hooks_kept.extend(named());
                    items.push(Some(g.raw(t).to_owned()));
                } else {
                    if !equivalent {
                        out.reference_hooks_removed.extend(named());
                    }
                    took_reference = true;
                    items.push(None);
                }
                continue;
            }
            items.push(edit_group(&d, g, &drop[gi], &rewrite[gi]));
        }
        let appended: Vec<AppendItem> = match our_group {
            Some(g) if !has_ours => vec![AppendItem::Element(g.clone())],
            _ => Vec::new(),
        };
        if !appended.is_empty() || rewrote {
            push_once(&mut out.added, event);
        } else if kept_exact {
            push_once(&mut out.present, event);
        }
        if edited {
            push_once(&mut out.edited_kept, event);
        }
        if dropped_exact {
            if install {
                push_once(&mut out.duplicates_removed, event);
            } else {
                push_once(&mut out.removed, event);
            }
        }
        if took_reference {
            push_once(&mut out.reference_removed, event);
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
/// by entry. An event holding a handler that runs aw's exact command (whatever path it names)
/// keeps it as the person tuned it (timeout, matcher, keys, their handlers beside it), the
/// program rewritten only when it is not the installing aw's; a second one for the same tools
/// goes. An event holding an edited hook of aw's keeps it and gets none of aw's beside it. Any
/// other event gets aw's entry appended after the person's. The reference's entries go when aw
/// has an equivalent for them, and the others too unless `reference_runs` (a program named
/// `agent-workflow` is on `PATH`: the person still uses the reference). Every other byte stays.
pub fn merge(
    text: Option<&str>,
    host: &Host,
    program: &str,
    groups: &[(&'static str, Value)],
    reference_runs: bool,
) -> Result<HookMerge, SettingsError> {
    edit(
        text,
        host,
        program,
        Mode::Install {
            groups,
            reference_runs,
        },
    )
}

/// Takes every handler running aw's exact command (whatever aw it names; `program` is the aw at
/// work) out of the settings `text`, keeping the person's and the edited hooks of aw's (theirs
/// now, `edited_kept`); an event left empty goes, and so does an empty `hooks`.
pub fn remove(text: Option<&str>, host: &Host, program: &str) -> Result<HookMerge, SettingsError> {
    edit(text, host, program, Mode::Remove)
}

/// Whether the settings `text` holds nothing but exact copies of aw's own groups naming exactly
/// `program`, the aw at work, whose path this run writes (`{"hooks": {<event>: [<aw's group>]}}`
/// and nothing else): then a copy of it holds nothing of the person's, and aw may change it
/// without a backup. Anything else (a key of the person's, a tuned timeout, another matcher, an
/// edited command, a handler of theirs, a bare `aw` or another aw's path, which install rewrites
/// and uninstall takes out) is worth a backup.
pub fn only_aws(text: &str, host: &Host, program: &str) -> bool {
    let Ok(d) = parsed(text) else {
        return false;
    };
    let ids = Ids::of(host, program);
    if !exactly(&d.root, &["hooks"]) {
        return false;
    }
    let Ok(Some(hooks)) = hooks_of(&d.root) else {
        return false;
    };
    hooks.members().iter().all(|m| {
        hooks.get(&m.key).is_some()
            && ids.hook(&m.key).is_some_and(|hook| {
                m.value
                    .elements()
                    .iter()
                    .all(|g| ids.copy_of(d.text, hook, g).as_deref() == Some(program))
            })
    })
}

/// One handler of aw's command (exact or edited) the survey found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SurveyRun {
    /// Its event.
    pub event: String,
    /// Its group's place in the event's list, from 1.
    pub entry: usize,
    /// Its group's matcher (`None`: none).
    pub matcher: Option<String>,
    /// Its command.
    pub command: String,
    /// The program it runs.
    pub program: String,
    /// Whether it runs aw's exact arguments (else an edited hook of aw's).
    pub exact: bool,
    /// When it fires.
    pub trigger: Trigger,
    /// Whether its group is an exact copy of aw's own (install takes out all but one).
    pub copy: bool,
}

/// Two of aw's handlers under one event that fire for one same trigger: the hook runs twice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overlap {
    /// The first, in the file's order.
    pub first: SurveyRun,
    /// The second.
    pub second: SurveyRun,
    /// Whether `aw self install` takes one out (both exact copies of aw's own group); else
    /// both are the person's, and only they can say which goes.
    pub install_removes: bool,
}

/// What a settings (or hooks) file holds, for the doctor.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HookSurvey {
    /// aw's handlers (aw's exact command): `(event, the program they run)`.
    pub ours: Vec<(String, String)>,
    /// Edited hooks of aw's (the person's now): `(event, command)`.
    pub edited: Vec<(String, String)>,
    /// Every handler running aw's command, exact or edited.
    pub runs: Vec<SurveyRun>,
    /// Events holding the reference's entries.
    pub reference: Vec<String>,
    /// Events where a reference entry runs a command aw runs there too.
    pub reference_doubled: Vec<String>,
}

impl HookSurvey {
    /// Every pair of aw's handlers (exact or edited) under one event that fire for one same
    /// trigger ([`Trigger::overlaps`]).
    pub fn overlaps(&self) -> Vec<Overlap> {
        let mut out = Vec::new();
        for (i, a) in self.runs.iter().enumerate() {
            for b in &self.runs[i + 1..] {
                if a.event == b.event && a.trigger.overlaps(&b.trigger) {
                    out.push(Overlap {
                        first: a.clone(),
                        second: b.clone(),
                        install_removes: a.copy && b.copy,
                    });
                }
            }
        }
        out
    }

    /// Events where aw's hook runs twice for one trigger: two of aw's handlers (exact or
    /// edited) whose groups overlap, or aw's beside the reference's equivalent.
    pub fn duplicates(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let overlapping: Vec<String> = self.overlaps().into_iter().map(|o| o.first.event).collect();
        let events = self
            .ours
            .iter()
            .map(|(e, _)| e)
            .chain(self.runs.iter().map(|r| &r.event));
        for event in events {
            if (overlapping.contains(event) || self.reference_doubled.contains(event))
                && !out.contains(event)
            {
                out.push(event.clone());
            }
        }
        out
    }

    /// The programs aw's hooks run, exact and edited ones alike, each once, in order.
    pub fn programs(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let all = self
            .ours
            .iter()
            .map(|(_, p)| p)
            .chain(self.runs.iter().map(|r| &r.program));
        for p in all {
            if !out.contains(p) {
                out.push(p.clone());
            }
        }
        out
    }
}

/// Reads whose hooks a Claude-shaped settings text holds; `program` is the aw at work.
pub fn survey(text: &str, host: &Host, program: &str) -> Result<HookSurvey, SettingsError> {
    let mut out = HookSurvey::default();
    if text.trim().is_empty() {
        return Ok(out);
    }
    let d = parsed(text)?;
    let ids = Ids::of(host, program);
    for m in hooks_of(&d.root)?.map(Node::members).unwrap_or_default() {
        for (gi, g) in m.value.elements().iter().enumerate() {
            for r in ids.runs_in(d.text, &m.key, g) {
                match r.kind {
                    Runs::Exact => out.ours.push((m.key.clone(), r.program.clone())),
                    Runs::Edited => out.edited.push((m.key.clone(), r.command.clone())),
                }
                out.runs.push(SurveyRun {
                    event: m.key.clone(),
                    entry: gi + 1,
                    matcher: g.get("matcher").and_then(Node::as_str).map(str::to_owned),
                    command: r.command,
                    program: r.program,
                    exact: r.kind == Runs::Exact,
                    trigger: r.trigger,
                    copy: r.copy,
                });
            }
            if is_reference_group(g) {
                push_once(&mut out.reference, &m.key);
                if ids.reference_equivalent(&m.key, g) {
                    push_once(&mut out.reference_doubled, &m.key);
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_branch_check_budget_ends_before_the_installed_hook_timeout() {
        use crate::project::branch_check::BUDGET;
        use std::time::Duration;
        let hook = OUR_HOOKS
            .iter()
            .find(|h| h.event == "PreToolUse" && h.on_edit)
            .unwrap();
        // Two seconds at least for the process to start and the host to read the answer.
        assert!(BUDGET + Duration::from_secs(2) <= Duration::from_secs(hook.timeout));
    }
    use crate::install::host::host;

    const AW: &str = "/opt/aw tools/bin/aw";

    fn claude() -> Vec<(&'static str, Value)> {
        groups_for(host("claude").unwrap(), AW)
    }

    fn survey_(text: &str, host: &Host) -> Result<HookSurvey, SettingsError> {
        super::survey(text, host, AW)
    }

    fn c() -> &'static Host {
        host("claude").unwrap()
    }

    fn merge(
        text: Option<&str>,
        groups: &[(&'static str, Value)],
    ) -> Result<HookMerge, SettingsError> {
        super::merge(text, c(), AW, groups, false)
    }

    fn remove(
        text: Option<&str>,
        _groups: &[(&'static str, Value)],
    ) -> Result<HookMerge, SettingsError> {
        super::remove(text, c(), AW)
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
    fn a_handler_of_ours_beside_the_persons_in_one_group_is_present_and_goes_alone() {
        let mixed = r#"{"hooks":{"PreCompact":[{"matcher":"","hooks":[
            {"type":"command","command":"aw checkpoint-write --can-pause"},
            {"type":"command","command":"notify-me"}]}]}}"#;
        let v: Value =
            serde_json::from_str(&remove(Some(mixed), &claude()).unwrap().text.unwrap()).unwrap();
        assert_eq!(
            v["hooks"]["PreCompact"][0]["hooks"][0]["command"],
            "notify-me"
        );
        // Installing over it keeps the group as the person made it (only the bare `aw` becomes
        // the installing aw's path) and adds no second entry.
        let m = merge(Some(mixed), &claude()).unwrap();
        let text = m.text.unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        let pc = v["hooks"]["PreCompact"].as_array().unwrap();
        assert_eq!(pc.len(), 1, "{text}");
        assert_eq!(pc[0]["hooks"].as_array().unwrap().len(), 2);
        assert_eq!(
            pc[0]["hooks"][0]["command"],
            "'/opt/aw tools/bin/aw' checkpoint-write --can-pause"
        );
        assert_eq!(pc[0]["hooks"][1]["command"], "notify-me");
    }

    /// aw's PreCompact hook as aw writes it, with `timeout` 99 and a key of the person's.
    fn tuned(program: &str) -> String {
        format!(
            "{{\n  \"hooks\": {{\n    \"PreCompact\": [\n      {{ \"matcher\": \"\", \"note\": \"mine\", \"hooks\": [{{ \"type\": \"command\", \"command\": {}, \"timeout\": 99, \"statusMessage\": \"saving\" }}, {{ \"type\": \"command\", \"command\": \"notify-me\" }}] }}\n    ]\n  }}\n}}\n",
            serde_json::to_string(&command(program, "checkpoint-write --can-pause")).unwrap()
        )
    }

    #[test]
    fn a_tuned_hook_of_ours_is_present_and_kept_byte_for_byte() {
        let text = tuned(AW);
        let m = merge(Some(&text), &claude()).unwrap();
        assert!(m.present.contains(&"PreCompact".to_owned()), "{m:?}");
        assert!(!m.added.contains(&"PreCompact".to_owned()), "{m:?}");
        let out = m.text.unwrap();
        let at = text.find("\"PreCompact\"").unwrap();
        let end = text[at..].find("\n    ]").unwrap() + at;
        assert!(
            out.contains(&text[at..end]),
            "the tuned group is kept whole: {out}"
        );
        assert_eq!(out.matches("checkpoint-write").count(), 1, "{out}");
        // Installed again: nothing changes.
        assert_eq!(merge(Some(&out), &claude()).unwrap().text, None);
    }

    #[test]
    fn a_tuned_hook_naming_an_old_path_gets_only_its_command_rewritten() {
        let old = tuned("/old/place/aw");
        let m = merge(Some(&old), &claude()).unwrap();
        assert!(m.added.contains(&"PreCompact".to_owned()), "{m:?}");
        let out = m.text.unwrap();
        let want = old.replace(
            "\"/old/place/aw checkpoint-write --can-pause\"",
            &serde_json::to_string(&command(AW, "checkpoint-write --can-pause")).unwrap(),
        );
        // Everything but the command string's bytes is as it was (aw's other events added after).
        let at = want.find("\"PreCompact\"").unwrap();
        let end = want[at..].find("\n    ]").unwrap() + at;
        assert!(out.contains(&want[at..end]), "{out}");
        assert!(out.contains("\"timeout\": 99"), "{out}");
    }

    #[test]
    fn an_edited_hook_of_ours_is_the_persons_kept_and_not_doubled() {
        let edited = r#"{"hooks": {"SessionEnd": [{"matcher": "", "hooks": [{"type": "command", "command": "/x/aw auto-compact-on-close --quiet", "timeout": 10}]}],
            "PreToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "aw hook branch-check --strict"}]}]}}"#;
        let m = merge(Some(edited), &claude()).unwrap();
        assert_eq!(m.edited_kept, ["SessionEnd", "PreToolUse"], "{m:?}");
        let out = m.text.unwrap();
        assert_eq!(out.matches("auto-compact-on-close").count(), 1, "{out}");
        assert_eq!(out.matches("branch-check").count(), 1, "{out}");
        assert!(
            out.starts_with(&edited[..edited.len() - 2]),
            "kept byte for byte: {out}"
        );
        let s = survey_(&out, c()).unwrap();
        assert_eq!(
            s.edited,
            [
                (
                    "SessionEnd".to_owned(),
                    "/x/aw auto-compact-on-close --quiet".to_owned()
                ),
                (
                    "PreToolUse".to_owned(),
                    "aw hook branch-check --strict".to_owned()
                )
            ]
        );
        assert!(s.duplicates().is_empty(), "{s:?}");
        // Removal leaves the edited hooks (the person's) and names them.
        let r = remove(Some(&out), &claude()).unwrap();
        assert_eq!(r.edited_kept, ["SessionEnd", "PreToolUse"]);
        assert_eq!(r.text.as_deref(), Some(edited));
        // An older install that doubled it: aw's exact entry beside the edited one. Only an
        // exact copy of aw's entry beside another such copy ever goes: this one stays (its
        // program rewritten), and the survey names the two for the person to choose.
        let doubled = edited.replacen(
            r#"{"matcher": "", "hooks": [{"type": "command", "command": "/x/aw auto-compact-on-close --quiet", "timeout": 10}]}"#,
            r#"{"matcher": "", "hooks": [{"type": "command", "command": "/x/aw auto-compact-on-close --quiet", "timeout": 10}]}, {"matcher": "", "hooks": [{"type": "command", "command": "/x/aw auto-compact-on-close", "timeout": 10}]}"#,
            1,
        );
        let s = survey_(&doubled, c()).unwrap();
        assert_eq!(s.duplicates(), ["SessionEnd"]);
        let o = s.overlaps();
        assert_eq!(o.len(), 1, "{o:?}");
        assert_eq!((o[0].first.entry, o[0].second.entry), (1, 2));
        assert!(!o[0].install_removes, "{o:?}");
        let m = merge(Some(&doubled), &claude()).unwrap();
        assert!(m.duplicates_removed.is_empty(), "{m:?}");
        let out = m.text.unwrap();
        assert_eq!(out.matches("auto-compact-on-close").count(), 2, "{out}");
        assert!(out.contains("auto-compact-on-close --quiet"), "{out}");
    }

    #[test]
    fn a_narrowed_tool_group_is_ours_tuned_and_a_bash_group_is_the_persons_own() {
        let narrowed = r#"{"hooks": {"PreToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "aw hook branch-check", "timeout": 30}]}]}}"#;
        let m = merge(Some(narrowed), &claude()).unwrap();
        assert_eq!(
            m.added.first().map(String::as_str),
            Some("PreToolUse"),
            "bare aw rewritten: {m:?}"
        );
        let out = m.text.unwrap();
        assert_eq!(out.matches("branch-check").count(), 1, "{out}");
        assert!(out.contains(r#"{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "'/opt/aw tools/bin/aw' hook branch-check", "timeout": 30}]}"#), "{out}");
        for (matcher, ours) in [
            ("Edit", true),
            ("*", true),
            ("", true),
            ("Bash", false),
            ("Bash|Read", false),
            // Patterns are the host's (JavaScript's) to read: the group is the person's.
            ("Notebook.*", false),
            ("^(?!Bash).*", false),
            ("(?i)edit", false),
            ("Edit||Write", false),
            ("(", false),
        ] {
            let text = narrowed.replace("Edit|Write", matcher);
            let s = survey_(&text, c()).unwrap();
            assert_eq!(s.ours.len(), usize::from(ours), "{matcher}");
        }
        // Two of aw's for disjoint tools run once each; for a shared tool, twice.
        let two = |a: &str, b: &str| {
            format!(
                r#"{{"hooks": {{"PreToolUse": [{{"matcher": "{a}", "hooks": [{{"type": "command", "command": "aw hook branch-check"}}]}}, {{"matcher": "{b}", "hooks": [{{"type": "command", "command": "aw hook branch-check --x"}}]}}]}}}}"#
            )
        };
        assert!(
            survey_(&two("Edit", "Write"), c())
                .unwrap()
                .duplicates()
                .is_empty()
        );
        assert_eq!(
            survey_(&two("Edit", "Edit|Write"), c())
                .unwrap()
                .duplicates(),
            ["PreToolUse"]
        );
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
        let s = survey_(&old, c()).unwrap();
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
        let mut s = survey_(v22, c()).unwrap();
        assert_eq!(s.reference, ["SessionStart", "PreCompact", "PostCompact"]);
        assert!(s.duplicates().is_empty());
        // The reference no longer on PATH: all of its entries go, those aw has no
        // equivalent for named.
        let m = merge(Some(v22), &claude()).unwrap();
        assert_eq!(
            m.reference_removed,
            ["SessionStart", "PreCompact", "PostCompact"]
        );
        assert_eq!(
            m.reference_hooks_removed,
            [(
                "SessionStart".to_owned(),
                "agent-workflow self namespace --pin workflow".to_owned()
            )]
        );
        // Still on PATH: the entry aw has no equivalent for stays, byte for byte.
        let kept = super::merge(Some(v22), c(), AW, &claude(), true).unwrap();
        assert_eq!(kept.reference_removed, ["PreCompact", "PostCompact"]);
        assert!(kept.reference_hooks_removed.is_empty());
        assert_eq!(kept.reference_hooks_kept.len(), 1);
        let kept_text = kept.text.unwrap();
        assert!(
            kept_text.contains(r#""SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "agent-workflow self namespace --pin workflow"}]}]"#),
            "{kept_text}"
        );
        assert!(survey_(&kept_text, c()).unwrap().duplicates().is_empty());
        let out = m.text.unwrap();
        let v: Value = serde_json::from_str(&out).unwrap();
        assert!(v["hooks"].get("SessionStart").is_none());
        assert_eq!(v["hooks"]["PreCompact"].as_array().unwrap().len(), 1);
        assert_eq!(v["hooks"]["PostCompact"].as_array().unwrap().len(), 1);
        assert_eq!(
            v["hooks"]["Stop"][0]["hooks"][1]["command"], "mine",
            "a mixed group is the person's"
        );
        s = survey_(&out, c()).unwrap();
        assert!(s.reference.is_empty());
        assert!(!both.contains("agent-workflow"));
        // Both installed side by side: the doctor sees each event that runs twice.
        let side = v22.replacen(
            r#""PreCompact": [{"#,
            r#""PreCompact": [{"matcher": "", "hooks": [{"type": "command", "command": "aw checkpoint-write --can-pause", "timeout": 10}]}, {"#,
            1,
        );
        assert_eq!(survey_(&side, c()).unwrap().duplicates(), ["PreCompact"]);
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

    /// A settings text with `groups` under `event` (each a JSON group text).
    fn under(event: &str, groups: &[&str]) -> String {
        format!(r#"{{"hooks": {{"{event}": [{}]}}}}"#, groups.join(", "))
    }

    #[test]
    fn only_an_exact_copy_of_aws_group_goes_and_partly_overlapping_tuned_hooks_stay() {
        // Two tuned branch checks sharing `Write`: the person's tuning, both kept.
        let pre = under(
            "PreToolUse",
            &[
                r#"{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "aw hook branch-check", "timeout": 15}]}"#,
                r#"{"matcher": "Write|MultiEdit|NotebookEdit", "hooks": [{"type": "command", "command": "aw hook branch-check", "timeout": 30}]}"#,
            ],
        );
        let m = merge(Some(&pre), &claude()).unwrap();
        assert!(m.duplicates_removed.is_empty(), "{m:?}");
        let out = m.text.unwrap();
        let v: Value = serde_json::from_str(&out).unwrap();
        let groups = v["hooks"]["PreToolUse"].as_array().unwrap();
        assert_eq!(groups.len(), 2, "{out}");
        assert_eq!(groups[1]["matcher"], "Write|MultiEdit|NotebookEdit");
        assert_eq!(groups[1]["hooks"][0]["timeout"], 30);
        let o = survey_(&out, c()).unwrap().overlaps();
        assert_eq!(o.len(), 1, "{o:?}");
        assert!(!o[0].install_removes);
        assert!(!only_aws(&out, c(), AW), "a backup is due");
        // PreCompact `manual` and `auto`: literal matchers that never meet.
        let compact = under(
            "PreCompact",
            &[
                r#"{"matcher": "manual", "hooks": [{"type": "command", "command": "aw checkpoint-write --can-pause"}]}"#,
                r#"{"matcher": "auto", "hooks": [{"type": "command", "command": "aw checkpoint-write --can-pause"}]}"#,
            ],
        );
        let m = merge(Some(&compact), &claude()).unwrap();
        assert!(m.duplicates_removed.is_empty(), "{m:?}");
        let out = m.text.unwrap();
        assert_eq!(out.matches("checkpoint-write").count(), 2, "{out}");
        assert!(survey_(&out, c()).unwrap().duplicates().is_empty());
        // Two exact copies of aw's own group: the second goes, and only then.
        let ours = serde_json::to_string(&claude()[1].1).unwrap();
        let twice = under("PreCompact", &[&ours, &ours]);
        let s = survey_(&twice, c()).unwrap();
        assert_eq!(s.duplicates(), ["PreCompact"]);
        assert!(s.overlaps()[0].install_removes);
        assert!(only_aws(&twice, c(), AW), "nothing of the person's");
        assert!(!only_aws(&compact, c(), AW), "matchers of the person's");
        let m = merge(Some(&twice), &claude()).unwrap();
        assert_eq!(m.duplicates_removed, ["PreCompact"]);
        let out = m.text.unwrap();
        assert_eq!(out.matches("checkpoint-write").count(), 1, "{out}");
        assert!(survey_(&out, c()).unwrap().duplicates().is_empty());
        // A copy with one more key is the person's: it stays.
        let keyed = ours.replacen(r#""matcher":"""#, r#""matcher":"","note":"x""#, 1);
        assert_ne!(keyed, ours);
        let both = under("PreCompact", &[&ours, &keyed]);
        let m = merge(Some(&both), &claude()).unwrap();
        assert!(m.duplicates_removed.is_empty(), "{m:?}");
        assert!(m.text.unwrap().starts_with(&both[..both.len() - 2]));
    }

    #[test]
    fn only_copies_naming_the_installing_aw_need_no_backup() {
        let other = r#"{"hooks":{"PreCompact":[{"matcher":"","hooks":[{"type":"command","command":"/opt/other/aw checkpoint-write --can-pause","timeout":10}]}]}}"#;
        assert!(
            !only_aws(other, c(), AW),
            "another aw's path is the person's"
        );
        assert!(!only_aws(other, c(), "aw"));
        assert!(only_aws(other, c(), "/opt/other/aw"));
        let bare = merge(None, &groups_for(c(), "aw")).unwrap().text.unwrap();
        assert!(!only_aws(&bare, c(), AW), "a bare `aw` is the person's");
        assert!(only_aws(&bare, c(), "aw"));
        let ours = merge(None, &claude()).unwrap().text.unwrap();
        assert!(only_aws(&ours, c(), AW));
    }

    #[test]
    fn a_program_is_aws_only_by_its_name_or_the_installing_path() {
        for (program, ours) in [
            ("aw", true),
            ("/usr/local/bin/aw", true),
            ("/aw", true),
            ("/opt/aw-9/bin/aw-9", false),
            ("/usr/bin/logger", false),
            ("/", false),
            ("/é", false),
            ("awx", false),
            ("/bin/aw/", false),
        ] {
            assert_eq!(is_aw_program(program, AW), ours, "{program}");
        }
        assert!(is_aw_program("/opt/aw-9/bin/aw-9", "/opt/aw-9/bin/aw-9"));
        let (quoted, _) = split_command("'/' auto-compact-on-close").unwrap();
        assert!(!is_aw_program(&quoted, AW));
        // The person's logger hooks: never rewritten, never taken out, no stand-in for aw's.
        let logger = r#"{"hooks": {"SessionEnd": [{"matcher": "", "hooks": [{"type": "command", "command": "/usr/bin/logger auto-compact-on-close"}]}], "PostCompact": [{"matcher": "", "hooks": [{"type": "command", "command": "/usr/bin/logger resume-summary --tag x"}]}]}}"#;
        let s = survey_(logger, c()).unwrap();
        assert!(s.ours.is_empty() && s.edited.is_empty(), "{s:?}");
        let m = merge(Some(logger), &claude()).unwrap();
        assert!(m.added.contains(&"SessionEnd".to_owned()), "{m:?}");
        assert!(m.added.contains(&"PostCompact".to_owned()), "{m:?}");
        assert!(m.edited_kept.is_empty(), "{m:?}");
        let out = m.text.unwrap();
        assert!(out.starts_with(r#"{"hooks": {"SessionEnd": [{"matcher": "", "hooks": [{"type": "command", "command": "/usr/bin/logger auto-compact-on-close"}]},{"#), "{out}");
        assert!(out.contains(r#"[{"matcher": "", "hooks": [{"type": "command", "command": "/usr/bin/logger resume-summary --tag x"}]},{"#), "{out}");
        assert_eq!(
            remove(Some(&out), &claude()).unwrap().text.as_deref(),
            Some(logger)
        );
        assert_eq!(remove(Some(logger), &claude()).unwrap().text, None);
    }

    #[test]
    fn lifecycle_matchers_are_literal_so_clear_and_logout_never_run_twice() {
        let end = under(
            "SessionEnd",
            &[
                r#"{"matcher": "clear", "hooks": [{"type": "command", "command": "aw auto-compact-on-close --quiet"}]}"#,
                r#"{"matcher": "logout", "hooks": [{"type": "command", "command": "aw auto-compact-on-close --verbose"}]}"#,
            ],
        );
        assert!(survey_(&end, c()).unwrap().duplicates().is_empty());
        let m = merge(Some(&end), &claude()).unwrap();
        assert_eq!(m.edited_kept, ["SessionEnd"]);
        assert!(m.text.unwrap().starts_with(&end[..end.len() - 2]));
        // An empty, absent or `*` matcher covers every trigger: it meets any other.
        for every in [r#""matcher": "", "#, "", r#""matcher": "*", "#] {
            let both = under(
                "SessionEnd",
                &[
                    &format!(
                        r#"{{{every}"hooks": [{{"type": "command", "command": "aw auto-compact-on-close --quiet"}}]}}"#
                    ),
                    r#"{"matcher": "logout", "hooks": [{"type": "command", "command": "aw auto-compact-on-close"}]}"#,
                ],
            );
            let s = survey_(&both, c()).unwrap();
            assert_eq!(s.duplicates(), ["SessionEnd"], "{both}");
            assert!(!s.overlaps()[0].install_removes);
        }
        assert!(
            Trigger::Literal(Some("clear".into()))
                .overlaps(&Trigger::Literal(Some("clear".into())))
        );
        assert!(
            !Trigger::Literal(Some("manual".into()))
                .overlaps(&Trigger::Literal(Some("auto".into())))
        );
    }

    #[test]
    fn a_group_naming_its_matcher_or_hooks_twice_is_the_persons() {
        for group in [
            r#"{"matcher": "Edit", "matcher": "Bash", "hooks": [{"type": "command", "command": "aw hook branch-check"}]}"#,
            r#"{"matcher": "Edit", "hooks": [{"type": "command", "command": "aw hook branch-check"}], "hooks": []}"#,
        ] {
            let text = under("PreToolUse", &[group]);
            let s = survey_(&text, c()).unwrap();
            assert!(s.ours.is_empty(), "{group}: {s:?}");
            let m = merge(Some(&text), &claude()).unwrap();
            assert_eq!(
                m.added,
                ["PreToolUse", "PreCompact", "PostCompact", "SessionEnd"],
                "{m:?}"
            );
            let out = m.text.unwrap();
            assert!(out.contains(group), "kept byte for byte: {out}");
            assert_eq!(
                remove(Some(&out), &claude()).unwrap().text.as_deref(),
                Some(text.as_str())
            );
            assert_eq!(remove(Some(&text), &claude()).unwrap().text, None);
        }
    }

    #[test]
    fn a_handler_naming_a_key_twice_is_the_persons() {
        for handler in [
            r#"{"type":"command","command":"aw checkpoint-write --can-pause","timeout":10,"type":"prompt"}"#,
            r#"{"type":"command","command":"aw checkpoint-write --can-pause","command":"aw checkpoint-write --can-pause","timeout":10}"#,
            r#"{"type":"command","command":"/old/aw checkpoint-write --can-pause","timeout":10,"timeout":10}"#,
        ] {
            let group = format!(r#"{{"matcher":"","hooks":[{handler}]}}"#);
            let text = under("PreCompact", &[&group]);
            let s = survey_(&text, c()).unwrap();
            assert!(s.ours.is_empty() && s.runs.is_empty(), "{handler}: {s:?}");
            assert!(!only_aws(&text, c(), AW), "{handler}");
            let m = merge(Some(&text), &claude()).unwrap();
            assert!(m.added.contains(&"PreCompact".to_owned()), "{m:?}");
            assert!(m.present.is_empty(), "{m:?}");
            let out = m.text.unwrap();
            assert!(out.contains(handler), "never rewritten: {out}");
            assert_eq!(
                remove(Some(&out), &claude()).unwrap().text.as_deref(),
                Some(text.as_str())
            );
            assert_eq!(remove(Some(&text), &claude()).unwrap().text, None);
        }
    }

    #[test]
    fn a_pattern_matcher_makes_the_group_the_persons_and_codexs_own_matcher_is_judged() {
        for pattern in ["^(?!Bash).*", "(?i)edit", "Edit.*"] {
            let text = under(
                "PreToolUse",
                &[&format!(
                    r#"{{"matcher": "{pattern}", "hooks": [{{"type": "command", "command": "aw hook branch-check"}}]}}"#
                )],
            );
            let s = survey_(&text, c()).unwrap();
            assert!(s.ours.is_empty() && s.duplicates().is_empty(), "{pattern}");
            assert_eq!(
                remove(Some(&text), &claude()).unwrap().text,
                None,
                "{pattern}"
            );
        }
        let codex = host("codex").unwrap();
        let g = groups_for(codex, AW);
        let text = merge(None, &g).unwrap().text.unwrap();
        let s = super::survey(&text, codex, AW).unwrap();
        assert_eq!(s.ours.len(), g.len(), "{s:?}");
        assert!(only_aws(&text, codex, AW));
    }
}
