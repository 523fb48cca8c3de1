//! The five family members and their `detect` data, mirrored from their manifests (a test in
//! aw's suite checks the mirror against the real manifests).

/// One family member as detection needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Member {
    /// The manifest `name` (also the skill folder's name).
    pub name: &'static str,
    /// The manifest `kind`.
    pub kind: &'static str,
    /// `detect.installed.env`: the variable that overrides the install folder.
    pub env: &'static str,
    /// `detect.installed.default`: the install folder when the variable is unset or empty.
    pub default: &'static str,
    /// `detect.installed.file`: the marker whose presence means "installed".
    pub file: &'static str,
    /// `detect.deployed.file`: the project-relative marker of a deployment, when the member
    /// deploys into projects.
    pub deployed: Option<&'static str>,
}

/// The `kind` of the family's bridges (execution backends), whose manifests declare settings,
/// sandbox needs and wrappers.
pub const BRIDGE_KIND: &str = "execution-backend";

/// The roster, in the family's order.
pub const MEMBERS: [Member; 5] = [
    Member {
        name: "agent-workflow-kit",
        kind: "composition-root",
        env: "AGENT_WORKFLOW_KIT_DIR",
        default: "~/.claude/skills/agent-workflow-kit",
        file: "SKILL.md",
        deployed: Some("docs/ai/.workflow-version"),
    },
    Member {
        name: "agent-workflow-memory",
        kind: "memory-substrate",
        env: "AGENT_WORKFLOW_MEMORY_DIR",
        default: "~/.claude/skills/agent-workflow-memory",
        file: "SKILL.md",
        deployed: Some("docs/ai/.memory-version"),
    },
    Member {
        name: "agent-workflow-engine",
        kind: "methodology-engine",
        env: "AGENT_WORKFLOW_ENGINE_DIR",
        default: "~/.claude/skills/agent-workflow-engine",
        file: "SKILL.md",
        deployed: None,
    },
    Member {
        name: "codex-cli-bridge",
        kind: "execution-backend",
        env: "CODEX_CLI_BRIDGE_DIR",
        default: "~/.claude/skills/codex-cli-bridge",
        file: "SKILL.md",
        deployed: None,
    },
    Member {
        name: "antigravity-cli-bridge",
        kind: "execution-backend",
        env: "ANTIGRAVITY_CLI_BRIDGE_DIR",
        default: "~/.claude/skills/antigravity-cli-bridge",
        file: "SKILL.md",
        deployed: None,
    },
];
