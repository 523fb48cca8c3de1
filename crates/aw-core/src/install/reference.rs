//! The reference's own install (Workline v22.4.2, `self install --target <t>` and
//! `self install-hooks`), recognised in aw's places so that aw's install replaces it instead of
//! running beside it (two `/w:` command sets, two branch checks before each edit), and the
//! doctor names what is left of it. Each test is the reference's own test of what it wrote,
//! never a guess from a name alone.
//!
//! What the reference writes on the hosts aw installs into: the `w` bundle folder, the `design`
//! wrapper and (codex, gemini) `w-<command>` skills in the host's skill folder; its command files
//! in the same command folders as aw's (18 commands, 8 of which aw does not have); its hooks
//! (`agent-workflow <command>`) in Claude Code's settings (recognised in [`super::hooks`]); for
//! OpenCode a module in `~/.config/opencode/plugin/` declared in `opencode.json`; and, outside
//! the host folders, a Codex plugin in `~/.agent-workflow/codex-plugin/` and Antigravity hooks in
//! `~/.agents/hooks.json`, which aw's install leaves alone and the doctor names.

use super::host::Host;
use super::marker::is_marked;
use crate::capability::wrapper::WRAPPER_MARKER;

/// The line every `w-<command>` skill the reference synthesizes carries.
pub const COMMAND_SKILL_MARK: &str =
    "Skill-as-command wrapper (installed by `aw self install-skill`)";

/// The words every command file and `w-<command>` skill of the reference's carries in its
/// host stamp ("… (`claude`, stamped at install)").
pub const HOST_STAMP: &str = "stamped at install)";

/// The first line of the reference's OpenCode hook module.
pub const MODULE_MARK: &str = "// agent-workflow (Workline) — generated plugin";

/// The reference's OpenCode module, relative to HOME.
pub const OPENCODE_MODULE: &str = ".config/opencode/plugin/agent-workflow.js";

/// The OpenCode configuration file the reference declares its module in, relative to HOME.
pub const OPENCODE_CONFIG: &str = ".config/opencode/opencode.json";

/// The commands of the reference's bundle (v22.4.2), by name.
pub const COMMANDS: &[&str] = &[
    "discard",
    "export-diagrams",
    "export-manuals",
    "export-reports",
    "export-scripts",
    "fix-git",
    "generate-launch",
    "persist",
    "plan-exec",
    "plan-new",
    "plan-refine",
    "quick",
    "reset",
    "resume",
    "spec-new",
    "spec-refine",
    "status",
    "workspace-init",
];

/// Whether the skill folder `name` (in a host's skill folder), whose `SKILL.md` reads
/// `skill_md`, is the reference's: its `w` bundle (frontmatter `name: w`, or `workflow` before
/// v19, with `harness/HARNESS.md` beside it), its `design` wrapper (the wrapper line), or one of
/// its `w-<command>` skills (the skill-as-command line). A file carrying aw's marker is aw's.
pub fn is_reference_skill(name: &str, skill_md: &str, has_harness: bool) -> bool {
    if is_marked(skill_md) {
        return false;
    }
    match name {
        "w" => {
            has_harness && frontmatter_name(skill_md).is_some_and(|n| n == "w" || n == "workflow")
        }
        "design" => skill_md.contains(WRAPPER_MARKER),
        n if n.starts_with("w-") => skill_md.contains(COMMAND_SKILL_MARK),
        _ => false,
    }
}

/// The `name:` of a SKILL.md's frontmatter, unquoted.
fn frontmatter_name(text: &str) -> Option<&str> {
    let body = text.strip_prefix("---")?;
    let end = body.find("\n---")?;
    body[..end].lines().find_map(|l| {
        let v = l.strip_prefix("name:")?.trim();
        Some(v.trim_matches(|c| c == '"' || c == '\''))
    })
}

/// Whether the file `file_name` of a host's `w` command folder is the reference's: one of its
/// commands, carrying its host stamp and not aw's marker.
pub fn is_reference_command(file_name: &str, text: &str) -> bool {
    let stem = file_name
        .strip_suffix(".md")
        .or_else(|| file_name.strip_suffix(".toml"))
        .unwrap_or_default();
    COMMANDS.contains(&stem) && text.contains(HOST_STAMP) && !is_marked(text)
}

/// Whether a module is the reference's OpenCode hook module.
pub fn is_reference_module(text: &str) -> bool {
    text.starts_with(MODULE_MARK)
}

/// Where the reference puts something of its own for `host` outside the host's folders, which
/// aw never writes to: `(path relative to HOME, what it is and what to do)`.
pub fn outside(host: &Host) -> &'static [(&'static str, &'static str)] {
    match host.id {
        "codex" => &[(
            ".agent-workflow/codex-plugin",
            "the reference's Codex hook plugin; if you added it to Codex, run `codex plugin uninstall agent-workflow`, then remove the folder",
        )],
        "gemini" => &[(
            ".agents/hooks.json",
            "the reference's Antigravity hooks (its `agent-workflow` entry); remove that entry, or run the reference's `self uninstall --with-hooks --target gemini`",
        )],
        _ => &[],
    }
}

/// Whether the text at an [`outside`] path still holds the reference's part: the Codex plugin's
/// descriptor names `agent-workflow`; the Antigravity hooks file has an `agent-workflow` key.
pub fn outside_holds_reference(rel: &str, text: &str) -> bool {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(text) else {
        return false;
    };
    if rel.ends_with("hooks.json") {
        v.get("agent-workflow").is_some()
    } else {
        v.get("name").and_then(|n| n.as_str()) == Some("agent-workflow")
    }
}

/// The file an [`outside`] entry is judged by (a plugin folder by its descriptor).
pub fn outside_probe(rel: &str) -> String {
    if rel.ends_with(".json") {
        rel.to_owned()
    } else {
        format!("{rel}/.codex-plugin/plugin.json")
    }
}

/// OpenCode's configuration `text` without the entry of its `plugin` list naming `module` (the
/// reference's module, by absolute path), edited as a document: the key goes too when that
/// entry was its only one. `None` when there is nothing to take out, or the text is not a JSON
/// object (it is then left as it is: a stale entry is better than a file rewritten blind).
pub fn undeclare_module(text: &str, module: &str) -> Option<String> {
    let d = aw_json::doc::parse(text).ok()?;
    let plugin = d.root.get("plugin").filter(|p| p.is_array())?;
    let items: Vec<Option<String>> = plugin
        .elements()
        .iter()
        .map(|e| (e.as_str() != Some(module)).then(|| e.raw(text).to_owned()))
        .collect();
    let new_list = d.splice(plugin, &items, &[])?;
    if items.iter().any(Option::is_some) {
        return Some(format!(
            "{}{new_list}{}",
            &text[..plugin.start],
            &text[plugin.end..]
        ));
    }
    let members: Vec<Option<String>> = d
        .root
        .members()
        .iter()
        .map(|m| (m.key != "plugin").then(|| text[m.start..m.end()].to_owned()))
        .collect();
    let root = d.splice(&d.root, &members, &[])?;
    Some(format!(
        "{}{root}{}",
        &text[..d.root.start],
        &text[d.root.end..]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::install::marker::markdown_marker;

    #[test]
    fn each_kind_of_the_references_files_is_told_by_its_own_mark() {
        let w = "---\nname: w\ndescription: >-\n  x\n---\n# w\n";
        assert!(is_reference_skill("w", w, true));
        assert!(
            !is_reference_skill("w", w, false),
            "no harness: not the bundle"
        );
        let ours = format!("---\nname: w\n---\n{}\n", markdown_marker("0.1.0"));
        assert!(!is_reference_skill("w", &ours, true));
        let design = format!("---\nname: design\n---\n> {WRAPPER_MARKER}. x\n");
        assert!(is_reference_skill("design", &design, false));
        let cmd = format!("---\nname: w-quick\n---\n> {COMMAND_SKILL_MARK}. x\n");
        assert!(is_reference_skill("w-quick", &cmd, false));
        assert!(!is_reference_skill(
            "w-mine",
            "---\nname: w-mine\n---\nmine\n",
            false
        ));
        let stamped = "---\ndescription: x\n---\n> **Structured-choice on this host (`claude`, stamped at install).**\n";
        assert!(is_reference_command("export-diagrams.md", stamped));
        assert!(is_reference_command("quick.toml", stamped));
        assert!(!is_reference_command("my-own.md", stamped));
        assert!(!is_reference_command(
            "quick.md",
            "---\ndescription: mine\n---\n"
        ));
        assert!(is_reference_module(&format!("{MODULE_MARK}\n// x\n")));
    }

    #[test]
    fn the_references_module_declaration_goes_and_nothing_else() {
        let config = "{\n  \"$schema\": \"x\",\n  \"plugin\": [\n    \"/h/.config/opencode/plugin/agent-workflow.js\",\n    \"mine\"\n  ]\n}\n";
        assert_eq!(
            undeclare_module(config, "/h/.config/opencode/plugin/agent-workflow.js").as_deref(),
            Some("{\n  \"$schema\": \"x\",\n  \"plugin\": [\n    \"mine\"\n  ]\n}\n")
        );
        let only = "{\"a\": 1.10, \"plugin\": [\"/m.js\"]}";
        assert_eq!(
            undeclare_module(only, "/m.js").as_deref(),
            Some("{\"a\": 1.10}")
        );
        assert_eq!(undeclare_module(only, "/other.js"), None);
        assert_eq!(undeclare_module("nope", "/m.js"), None);
    }

    #[test]
    fn outside_leftovers_are_named_only_while_they_hold_the_references_part() {
        assert!(outside_holds_reference(
            ".agents/hooks.json",
            r#"{"agent-workflow": {"PreToolUse": []}}"#
        ));
        assert!(!outside_holds_reference(
            ".agents/hooks.json",
            r#"{"mine": {}}"#
        ));
        assert!(outside_holds_reference(
            ".agent-workflow/codex-plugin/.codex-plugin/plugin.json",
            r#"{"name": "agent-workflow"}"#
        ));
        assert_eq!(
            outside_probe(".agent-workflow/codex-plugin"),
            ".agent-workflow/codex-plugin/.codex-plugin/plugin.json"
        );
    }
}
