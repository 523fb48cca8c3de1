//! The format writers: each turns a bundle document into the file one host reads, with the
//! ownership marker inserted where the format allows a comment. Plain text in, text out.

use super::marker::{hash_marker, markdown_marker};
use crate::capability::locator::METADATA_KEY;
use crate::capability::wrapper::WRAPPER_MARKER;
use crate::documents::frontmatter::{Frontmatter, read};
use crate::markdown::scan;

/// The token a bundle document may use for the installed bundle's folder; replaced with the
/// absolute path of the copy the host reads.
pub const ROOT_TOKEN: &str = "${CLAUDE_PLUGIN_ROOT}/skills/w";

/// A document split at its frontmatter: the block with its two `---` lines (empty when it has
/// none) and the body.
pub struct Split<'a> {
    /// The frontmatter lines, `---` included, each ending in `\n`; empty when absent.
    pub head: String,
    /// Everything after the closing `---`.
    pub body: &'a str,
    /// `description`, when the frontmatter has one.
    pub description: Option<&'a str>,
}

/// Where a frontmatter opening `text` ends (just past its closing line), when it has one that
/// closes: only the lines up to there are scanned, however long the body.
fn frontmatter_end(text: &str) -> Option<usize> {
    let mut lines = text.split_inclusive('\n');
    let first = lines.next()?;
    if first.trim_start_matches('\u{feff}').trim() != "---" {
        return None;
    }
    let mut at = first.len();
    for l in lines {
        at += l.len();
        if l.trim() == "---" {
            return Some(at);
        }
    }
    None
}

/// Splits `text` at its frontmatter.
pub fn split(text: &str) -> Split<'_> {
    let Some(end) = frontmatter_end(text) else {
        return Split {
            head: String::new(),
            body: text,
            description: None,
        };
    };
    let lines = scan(&text[..end]);
    let fm = read(&lines);
    match fm {
        Frontmatter::Closed { body, .. } => {
            let mut head = String::new();
            let mut offset = 0;
            for l in &lines[..body] {
                head.push_str(l.text.trim_end_matches('\r'));
                head.push('\n');
                offset += l.text.len() + 1;
            }
            let offset = offset.min(text.len());
            Split {
                head,
                body: &text[offset..],
                description: fm.get("description"),
            }
        }
        _ => Split {
            head: String::new(),
            body: text,
            description: None,
        },
    }
}

/// `text` with every `from` replaced by `to`: `str::replace`, with the search done by `memchr`'s
/// vectorised finder (every installed file is rendered on every install and doctor run, and most
/// hold no match at all: then the text is copied once).
fn replace(text: &str, from: &str, to: &str) -> String {
    let finder = memchr::memmem::Finder::new(from.as_bytes());
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for i in finder.find_iter(text.as_bytes()) {
        out.push_str(&text[at..i]);
        out.push_str(to);
        at = i + from.len();
    }
    out.push_str(&text[at..]);
    out
}

/// Rewrites the links a bundle document makes to its siblings one level up (`](../x)`), so they
/// still lead into the bundle from where the host keeps the file, and the root token.
fn relink(body: &str, up: &str, bundle_abs: &str) -> String {
    replace(
        &replace(body, "](../", &format!("]({up}")),
        ROOT_TOKEN,
        bundle_abs,
    )
}

/// A bundle Markdown file as installed in the `w` skill folder: the marker right after its
/// frontmatter (or first), the root token replaced.
pub fn bundle_markdown(text: &str, version: &str, bundle_abs: &str) -> String {
    let s = split(text);
    format!(
        "{}{}\n{}",
        s.head,
        markdown_marker(version),
        replace(s.body, ROOT_TOKEN, bundle_abs)
    )
}

/// A Claude command file: the frontmatter kept whole, the marker, the body; links lead to
/// `../../skills/w/` (the command folder is `commands/w/`).
pub fn claude_command(text: &str, version: &str, bundle_abs: &str) -> String {
    let s = split(text);
    format!(
        "{}{}\n{}",
        s.head,
        markdown_marker(version),
        relink(s.body, "../../skills/w/", bundle_abs)
    )
}

/// An OpenCode command file: the frontmatter reduced to `description`, the marker, the body.
pub fn opencode_command(text: &str, version: &str, bundle_abs: &str) -> String {
    let s = split(text);
    format!(
        "---\ndescription: {}\n---\n{}\n{}",
        yaml_string(s.description.unwrap_or_default()),
        markdown_marker(version),
        relink(s.body, "../../skills/w/", bundle_abs)
    )
}

/// A Gemini CLI command file: `description` and a multi-line `prompt` where `$ARGUMENTS` is
/// `{{args}}`; links are absolute (a prompt has no folder of its own).
pub fn gemini_command(text: &str, version: &str, bundle_abs: &str) -> String {
    let s = split(text);
    let body = replace(
        &relink(s.body, &format!("{bundle_abs}/"), bundle_abs),
        "$ARGUMENTS",
        "{{args}}",
    );
    let mut prompt = toml_multiline(body.trim_start_matches('\n'));
    if !prompt.ends_with('\n') {
        prompt.push('\n');
    }
    format!(
        "{}\ndescription = {}\nprompt = \"\"\"\n{prompt}\"\"\"\n",
        hash_marker(version),
        toml_basic(s.description.unwrap_or_default()),
    )
}

/// A synthesized `w-<name>` skill (hosts that invoke skills, not commands): frontmatter `name`
/// and `description`, the marker, a line saying where the bundle is and what the arguments
/// are, then the command's body with its links leading to `../w/`.
pub fn command_skill(name: &str, text: &str, version: &str, bundle_abs: &str) -> String {
    let s = split(text);
    format!(
        "---\nname: w-{name}\ndescription: {}\n---\n{}\n\n> The `{name}` command of the `w` skill (its bundle is `../w/`). The text the person gave with this request is `$ARGUMENTS`.\n\n{}",
        yaml_string(s.description.unwrap_or_default()),
        markdown_marker(version),
        relink(s.body.trim_start_matches('\n'), "../w/", bundle_abs)
    )
}

/// The design wrapper's SKILL.md (capability spec §11): `name: design`, the descriptor's purpose
/// and operations as the description, the sealed locator under `metadata`, the marker lines and
/// how to call the capability. The same bytes on every host, so copies under several skill
/// roots are one instance.
pub fn design_skill(purpose: &str, operations: &[&str], locator: &str, version: &str) -> String {
    let description = format!("{purpose}. Operations: {}.", operations.join(", "));
    format!(
        "---\nname: design\ndescription: {}\nmetadata:\n  {METADATA_KEY}: \"{locator}\"\n---\n{}\n\n\
> {WRAPPER_MARKER}. It is the direct entry to aw's `design` capability.\n\n\
# design\n\n\
Every operation ({}) goes through aw, never through hand-written files:\n\n\
1. `aw capability prepare --capability design --operation <op>` with the inputs; read the attempt it prints.\n\
2. When it answers `needs_input`, answer the question it asks and run `aw capability continue`; never reuse an old attempt.\n\
3. `aw capability validate`, then `aw capability apply` to write what the approved plan says.\n\n\
This route never creates or closes a spec, plan or quick session, never initialises a workspace, and never has an effect the descriptor (`workline-capability.json`, beside this file) does not declare. `aw capability --help` has the full protocol.\n",
        yaml_string(&description),
        markdown_marker(version),
        operations.join(", "),
    )
}

/// OpenCode's hook module: before one of the host's edit tools (`tools`, `|`-separated) runs,
/// it runs `aw hook branch-check` with a Claude-shaped payload on stdin (`tool_name`,
/// `tool_input.file_path`, `cwd`) and turns exit 2 into a thrown error, which blocks the edit.
/// Any other outcome (aw missing included) lets the edit go on. It runs the aw at `program`
/// (no shell: the path is a JavaScript string, whatever it holds).
pub fn opencode_plugin(tools: &str, version: &str, program: &str) -> String {
    let list: Vec<String> = tools.split('|').map(|t| format!("\"{t}\"")).collect();
    let program = serde_json::to_string(program).unwrap_or_else(|_| "\"aw\"".to_owned());
    OPENCODE_PLUGIN
        .replace("{MARKER}", &super::marker::marker_text(version))
        .replace("{TOOLS}", &list.join(", "))
        .replace("{AW}", &program)
}

/// The program an OpenCode hook module written by [`opencode_plugin`] runs.
pub fn opencode_plugin_program(module: &str) -> Option<String> {
    let line = module.lines().find_map(|l| l.strip_prefix(AW_LINE))?;
    serde_json::from_str(line.strip_suffix(';')?).ok()
}

const AW_LINE: &str = "const AW = ";

const OPENCODE_PLUGIN: &str = r#"// {MARKER}
import { spawnSync } from "node:child_process";

const AW = {AW};
const EDIT_TOOLS = new Set([{TOOLS}]);

export const AwHooks = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    if (!EDIT_TOOLS.has(input.tool)) return;
    const args = (output && output.args) || {};
    const payload = {
      hook_event_name: "PreToolUse",
      tool_name: input.tool,
      tool_input: { file_path: args.filePath ?? args.file_path ?? args.path },
      session_id: input.sessionID,
      cwd: directory,
    };
    const run = spawnSync(AW, ["hook", "branch-check"], {
      input: JSON.stringify(payload),
      cwd: directory,
      encoding: "utf8",
      timeout: 15000,
    });
    if (run.status === 2) {
      throw new Error((run.stderr || "aw hook branch-check blocked this edit").trim());
    }
  },
});
"#;

/// A YAML double-quoted scalar.
pub fn yaml_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A TOML basic (one-line) string.
pub fn toml_basic(s: &str) -> String {
    // YAML's double-quoted escapes (\\, \", \n, \t, \uXXXX) are TOML's basic-string ones.
    yaml_string(s)
}

/// The content of a TOML multi-line basic string: backslashes escaped, runs of quotes broken so
/// no `"""` closes it early, control characters other than newline and tab escaped.
fn toml_multiline(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut quotes = 0;
    for c in s.chars() {
        if c == '"' {
            quotes += 1;
            if quotes == 3 {
                out.push_str("\\\"");
                quotes = 0;
                continue;
            }
        } else {
            quotes = 0;
        }
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' | '\t' | '"' => out.push(c),
            '\r' => {}
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    // A quote right before the closing delimiter would read as part of it.
    if out.ends_with('"') {
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::install::marker::marker_version;

    const CMD: &str = "---\ndescription: Use when a \"small\" change is asked.\nargument-hint: \"[what]\"\nallowed-tools: [Bash, Read]\n---\n\nDo it with `aw flow`. See [the skill](../SKILL.md).\n\n$ARGUMENTS\n";

    #[test]
    fn claude_keeps_the_frontmatter_and_puts_the_marker_after_it() {
        let out = claude_command(CMD, "0.1.0", "/h/.claude/skills/w");
        assert!(out.starts_with("---\ndescription: Use when"));
        assert!(out.contains("allowed-tools: [Bash, Read]\n---\n<!-- aw:installed version=0.1.0"));
        assert!(out.contains("](../../skills/w/SKILL.md)"));
        assert!(out.contains("$ARGUMENTS"));
        assert_eq!(marker_version(&out).as_deref(), Some("0.1.0"));
    }

    #[test]
    fn gemini_toml_parses_with_args_and_the_marker() {
        let tricky = format!("{CMD}\nA \\ backslash and three quotes \"\"\" end\"");
        let out = gemini_command(&tricky, "0.1.0", "/h/.gemini/skills/w");
        let doc: toml_edit::DocumentMut = out.parse().unwrap();
        assert_eq!(
            doc["description"].as_str(),
            Some("Use when a \"small\" change is asked.")
        );
        let prompt = doc["prompt"].as_str().unwrap();
        assert!(prompt.contains("{{args}}") && !prompt.contains("$ARGUMENTS"));
        assert!(prompt.contains("A \\ backslash and three quotes \"\"\" end\""));
        assert!(prompt.contains("](/h/.gemini/skills/w/SKILL.md)"));
        assert_eq!(marker_version(&out).as_deref(), Some("0.1.0"));
    }

    #[test]
    fn opencode_reduces_the_frontmatter_to_the_description() {
        let out = opencode_command(CMD, "0.1.0", "/b");
        let s = split(&out);
        assert_eq!(s.head.lines().count(), 3, "{out}");
        assert!(s.head.contains("description: "));
        assert!(out.contains("$ARGUMENTS"));
    }

    #[test]
    fn a_command_skill_is_named_w_dash_and_links_to_the_bundle() {
        let out = command_skill("quick", CMD, "0.1.0", "/b");
        assert!(out.starts_with("---\nname: w-quick\ndescription: \"Use when"));
        assert!(out.contains("](../w/SKILL.md)"));
        assert!(out.contains("$ARGUMENTS"));
    }

    #[test]
    fn a_bundle_file_without_frontmatter_gets_the_marker_first() {
        let out = bundle_markdown("# Title\n", "0.1.0", "/b");
        assert!(out.starts_with("<!-- aw:installed"));
        assert!(out.ends_with("# Title\n"));
    }
}
