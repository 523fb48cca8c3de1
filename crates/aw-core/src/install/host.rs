//! The host table: one row per place `aw self install` writes to (claude, codex, gemini,
//! opencode, and the shared `agents` folder, which is not a host). Install, uninstall,
//! detect-hosts, doctor and the docs all read these rows, so a new host is one row plus, when its
//! command format is new, one format writer in `render.rs`.

/// How a host wants the bundle's commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommandFormat {
    /// Markdown with the command's frontmatter kept whole (`description`, `argument-hint`,
    /// `allowed-tools`); `$ARGUMENTS` is native.
    ClaudeMarkdown,
    /// TOML with `description` and a multi-line `prompt`; `$ARGUMENTS` becomes `{{args}}`.
    GeminiToml,
    /// Markdown whose frontmatter is reduced to `description`; `$ARGUMENTS` is native.
    OpencodeMarkdown,
}

impl CommandFormat {
    /// The file extension of one command file.
    pub fn extension(self) -> &'static str {
        match self {
            CommandFormat::GeminiToml => "toml",
            CommandFormat::ClaudeMarkdown | CommandFormat::OpencodeMarkdown => "md",
        }
    }
}

/// A host's command folder and format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommandSurface {
    /// The folder, relative to HOME, holding one file per command.
    pub dir: &'static str,
    /// The format of each file.
    pub format: CommandFormat,
    /// How a person invokes a command there (`<n>` stands for the command's name).
    pub invoked_as: &'static str,
}

/// Where a host's hooks go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookArtifact {
    /// Merged, entry by entry, into a Claude-shaped `hooks` object of a JSON settings file
    /// (relative to HOME).
    Settings(&'static str),
    /// A generated plugin folder (relative to HOME): `.codex-plugin/plugin.json` and
    /// `hooks/hooks.json`, which the person enables in the host itself.
    Plugin(&'static str),
    /// A generated plugin module the host loads by itself from a folder of its own outside its
    /// root (OpenCode's global `plugins/` folder, under `.config/opencode`).
    Module {
        /// The module file, relative to HOME.
        path: &'static str,
        /// The folder it must stay under, relative to HOME.
        root: &'static str,
    },
    /// Not written; the reason.
    Unsupported(&'static str),
}

impl Host {
    /// The folders (relative to HOME) aw may write under on this host: its root, and the
    /// hook module's own root when it has one.
    pub fn roots(&self) -> Vec<&'static str> {
        let mut roots = vec![self.root];
        if let HookArtifact::Module { root, .. } = self.hooks {
            roots.push(root);
        }
        roots
    }

    /// The root a path relative to HOME lies under (the host's own root when none does).
    pub fn root_of(&self, rel: &str) -> &'static str {
        self.roots()
            .into_iter()
            .find(|r| {
                rel.strip_prefix(r)
                    .is_some_and(|rest| rest.starts_with('/'))
            })
            .unwrap_or(self.root)
    }
}

/// One row of the host table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Host {
    /// The target id (`--target`).
    pub id: &'static str,
    /// Whether `--target all` includes it (every real host; `agents` is a shared folder).
    pub is_host: bool,
    /// The host's own folder under HOME: its presence says the host is installed, and nothing
    /// is written outside it.
    pub root: &'static str,
    /// Its personal skill folder, relative to HOME (the `w` and `design` skills go there).
    pub skills_dir: &'static str,
    /// Its command folder and format, when it has one.
    pub commands: Option<CommandSurface>,
    /// Whether each command is also given as a synthesized `w-<n>` skill.
    pub command_skills: bool,
    /// Where its hooks go.
    pub hooks: HookArtifact,
    /// The host's own name(s) for its file-editing tools, as a hook matcher (never Claude's
    /// names copied).
    pub edit_matcher: Option<&'static str>,
    /// Hook events this host cannot carry, and why.
    pub missing_events: &'static [(&'static str, &'static str)],
}

/// Every row, in the order `--target all` installs them (agents last, and only when named).
pub const HOSTS: &[Host] = &[
    Host {
        id: "claude",
        is_host: true,
        root: ".claude",
        skills_dir: ".claude/skills",
        commands: Some(CommandSurface {
            dir: ".claude/commands/w",
            format: CommandFormat::ClaudeMarkdown,
            invoked_as: "/w:<n>",
        }),
        command_skills: false,
        hooks: HookArtifact::Settings(".claude/settings.json"),
        edit_matcher: Some("Edit|Write|MultiEdit|NotebookEdit"),
        missing_events: &[],
    },
    Host {
        id: "codex",
        is_host: true,
        root: ".codex",
        skills_dir: ".codex/skills",
        commands: None,
        command_skills: true,
        hooks: HookArtifact::Plugin(".codex/aw-hooks-plugin"),
        edit_matcher: Some("^apply_patch$"),
        missing_events: &[(
            "SessionEnd",
            "Codex has no session-end hook event; the checkpoint is written at compaction only",
        )],
    },
    Host {
        id: "gemini",
        is_host: true,
        root: ".gemini",
        skills_dir: ".gemini/skills",
        commands: Some(CommandSurface {
            dir: ".gemini/commands/w",
            format: CommandFormat::GeminiToml,
            invoked_as: "/w:<n>",
        }),
        command_skills: true,
        hooks: HookArtifact::Unsupported(
            "this version of aw does not write Gemini CLI hooks (its events and tool names differ from Claude's and are not mapped yet); the flows still check branches through `aw sources`",
        ),
        edit_matcher: None,
        missing_events: &[],
    },
    Host {
        id: "opencode",
        is_host: true,
        root: ".opencode",
        skills_dir: ".opencode/skills",
        commands: Some(CommandSurface {
            dir: ".opencode/command/w",
            format: CommandFormat::OpencodeMarkdown,
            invoked_as: "/w/<n>",
        }),
        command_skills: false,
        hooks: HookArtifact::Module {
            path: ".config/opencode/plugins/aw-hooks.js",
            root: ".config/opencode",
        },
        edit_matcher: Some("edit|write|patch|multiedit"),
        missing_events: &[
            (
                "PreCompact",
                "not bridged to OpenCode's plugin events in this version",
            ),
            (
                "PostCompact",
                "not bridged to OpenCode's plugin events in this version",
            ),
            (
                "SessionEnd",
                "not bridged to OpenCode's plugin events in this version",
            ),
        ],
    },
    Host {
        id: "agents",
        is_host: false,
        root: ".agents",
        skills_dir: ".agents/skills",
        commands: None,
        command_skills: false,
        hooks: HookArtifact::Unsupported("a shared skill folder, not a host: it runs no hooks"),
        edit_matcher: None,
        missing_events: &[],
    },
];

/// The row of `id`.
pub fn host(id: &str) -> Option<&'static Host> {
    HOSTS.iter().find(|h| h.id == id)
}

/// Every target id, for `--target`'s error message (`all` included).
pub fn target_ids() -> Vec<&'static str> {
    HOSTS
        .iter()
        .map(|h| h.id)
        .chain(std::iter::once("all"))
        .collect()
}

/// The rows a `--target` value names: `all` is every real host (never `agents`), the same set
/// for install and uninstall; `None` for an unknown value.
pub fn targets(value: &str) -> Option<Vec<&'static Host>> {
    if value == "all" {
        return Some(HOSTS.iter().filter(|h| h.is_host).collect());
    }
    host(value).map(|h| vec![h])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_is_every_host_and_never_the_shared_folder() {
        let ids: Vec<&str> = targets("all").unwrap().iter().map(|h| h.id).collect();
        assert_eq!(ids, ["claude", "codex", "gemini", "opencode"]);
        assert_eq!(targets("agents").unwrap()[0].id, "agents");
        assert!(targets("kimi").is_none());
    }

    #[test]
    fn every_row_writes_only_under_its_own_root() {
        for h in HOSTS {
            assert!(
                h.skills_dir.starts_with(&format!("{}/", h.root)),
                "{}",
                h.id
            );
            if let Some(c) = h.commands {
                assert!(c.dir.starts_with(&format!("{}/", h.root)), "{}", h.id);
            }
            match h.hooks {
                HookArtifact::Settings(p) | HookArtifact::Plugin(p) => {
                    assert!(p.starts_with(&format!("{}/", h.root)), "{}", h.id);
                    assert!(h.edit_matcher.is_some(), "{}", h.id);
                }
                HookArtifact::Module { path, root } => {
                    assert!(path.starts_with(&format!("{root}/")), "{}", h.id);
                    assert_eq!(h.root_of(path), root);
                    assert_eq!(h.root_of(h.skills_dir), h.root);
                }
                HookArtifact::Unsupported(why) => assert!(!why.is_empty()),
            }
        }
    }

    #[test]
    fn matchers_are_the_hosts_own_tool_names() {
        let claude = host("claude").unwrap().edit_matcher.unwrap();
        let codex = host("codex").unwrap().edit_matcher.unwrap();
        assert_ne!(claude, codex);
        assert!(!codex.contains("Edit"));
    }
}
