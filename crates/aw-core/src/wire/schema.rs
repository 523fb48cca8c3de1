//! The JSON Schema (draft 2020-12) of each typed output and of the failure envelope, generated
//! from the types themselves (`aw schema`, `docs/schemas/`).

use schemars::{JsonSchema, Schema};

/// A command whose output is typed, and how to get its schema.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    /// The command's words (`next-number`, `designs`).
    pub command: &'static str,
    /// Its output's schema.
    pub schema: fn() -> Schema,
}

/// The schema of what `T` serialises to: a field is required unless it is skipped when empty
/// (`skip_serializing_if`), so a key that is always printed, even as `null`, is required.
fn schema_of<T: JsonSchema>() -> Schema {
    schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator()
        .into_root_schema_for::<T>()
}

/// The name the failure envelope goes by (`aw schema error`, `docs/schemas/error.json`).
pub const ERROR: &str = "error";

/// Every typed command, by its words, sorted.
pub const ENTRIES: &[Entry] = &[
    Entry {
        command: "attach-multiroot",
        schema: schema_of::<super::visibility::Multiroot<'static>>,
    },
    Entry {
        command: "auto-compact-on-close",
        schema: schema_of::<super::checkpoint::AutoCompactOnClose<'static>>,
    },
    Entry {
        command: "capability-apply",
        schema: schema_of::<crate::capability::dispatch::Attempt>,
    },
    Entry {
        command: "capability-continue",
        schema: schema_of::<crate::capability::dispatch::Attempt>,
    },
    Entry {
        command: "capability-descriptor",
        schema: schema_of::<super::capability_descriptor::DescriptorValid<'static>>,
    },
    Entry {
        command: "capability-prepare",
        schema: schema_of::<crate::capability::dispatch::Attempt>,
    },
    Entry {
        command: "capability-validate",
        schema: schema_of::<crate::capability::dispatch::Attempt>,
    },
    Entry {
        command: "check-branch",
        schema: schema_of::<super::check_branch::CheckBranchOutput<'static>>,
    },
    Entry {
        command: "checkpoint-read",
        schema: schema_of::<super::checkpoint::CheckpointRead<'static>>,
    },
    Entry {
        command: "checkpoint-write",
        schema: schema_of::<super::checkpoint::CheckpointWrite<'static>>,
    },
    Entry {
        command: "completions",
        schema: schema_of::<super::shell::Completions>,
    },
    Entry {
        command: "context-budget",
        schema: schema_of::<super::context::ContextBudget<'static>>,
    },
    Entry {
        command: "context-plan",
        schema: schema_of::<super::context::ContextPlan<'static>>,
    },
    Entry {
        command: "demo",
        schema: schema_of::<super::demo::Demo<'static>>,
    },
    Entry {
        command: "designs",
        schema: schema_of::<super::designs::Designs<'static>>,
    },
    Entry {
        command: "detach-multiroot",
        schema: schema_of::<super::visibility::Multiroot<'static>>,
    },
    Entry {
        command: "family-links",
        schema: schema_of::<super::family::FamilyLinks>,
    },
    Entry {
        command: "family-modes",
        schema: schema_of::<super::family::FamilyModes<serde_json::Value>>,
    },
    Entry {
        command: "family-posture",
        schema: schema_of::<super::family::FamilyPosture>,
    },
    Entry {
        command: "family-sandbox",
        schema: schema_of::<super::family::FamilySandbox>,
    },
    Entry {
        command: "family-settings",
        schema: schema_of::<super::family::FamilySettings<'static>>,
    },
    Entry {
        command: "family-status",
        schema: schema_of::<super::family::FamilyStatus>,
    },
    Entry {
        command: "flow-advance",
        schema: schema_of::<crate::flow::directive::Directive>,
    },
    Entry {
        command: "flow-proof",
        schema: schema_of::<crate::flow::proof::ProofOutput>,
    },
    Entry {
        command: "flow-recover",
        schema: schema_of::<crate::flow::directive::Directive>,
    },
    Entry {
        command: "flow-submit",
        schema: schema_of::<crate::flow::directive::Directive>,
    },
    Entry {
        command: "history-update",
        schema: schema_of::<super::session::HistoryUpdate<'static>>,
    },
    Entry {
        command: "man",
        schema: schema_of::<super::shell::ManPage>,
    },
    Entry {
        command: "manifest-validate",
        schema: schema_of::<super::manifest_validate::ManifestValidate<'static>>,
    },
    Entry {
        command: "next-number",
        schema: schema_of::<super::next_number::NextNumber>,
    },
    Entry {
        command: "persist-apply",
        schema: schema_of::<crate::persist::result::PersistResult>,
    },
    Entry {
        command: "persist-prepare",
        schema: schema_of::<crate::persist::result::PersistResult>,
    },
    Entry {
        command: "persist-validate",
        schema: schema_of::<crate::persist::result::PersistResult>,
    },
    Entry {
        command: "project-md-upsert",
        schema: schema_of::<super::project_md_upsert::ProjectMdUpsert<'static>>,
    },
    Entry {
        command: "remove-source",
        schema: schema_of::<super::remove_source::RemoveSource<'static>>,
    },
    Entry {
        command: "resume",
        schema: schema_of::<crate::board::resume::Answer>,
    },
    Entry {
        command: "resume-summary",
        schema: schema_of::<super::checkpoint::ResumeSummary<'static>>,
    },
    Entry {
        command: "self-detect-hosts",
        schema: schema_of::<super::self_cmd::DetectHosts<'static>>,
    },
    Entry {
        command: "self-doctor",
        schema: schema_of::<super::self_cmd::SelfDoctor<'static>>,
    },
    Entry {
        command: "self-install",
        schema: schema_of::<super::self_cmd::SelfInstall<'static>>,
    },
    Entry {
        command: "self-uninstall",
        schema: schema_of::<super::self_cmd::SelfUninstall<'static>>,
    },
    Entry {
        command: "session-artifacts",
        schema: schema_of::<super::session_artifacts::SessionArtifacts<'static>>,
    },
    Entry {
        command: "session-close",
        schema: schema_of::<super::session::SessionClose<'static>>,
    },
    Entry {
        command: "session-create",
        schema: schema_of::<super::session::SessionCreate<'static>>,
    },
    Entry {
        command: "session-resume",
        schema: schema_of::<super::session_resume::SessionResume<'static>>,
    },
    Entry {
        command: "sessions",
        schema: schema_of::<super::sessions::Listing>,
    },
    Entry {
        command: "set-qa-branch",
        schema: schema_of::<super::project_block::BranchSet<'static>>,
    },
    Entry {
        command: "set-working-branch",
        schema: schema_of::<super::project_block::BranchSet<'static>>,
    },
    Entry {
        command: "skill-index",
        schema: schema_of::<super::skill_index::SkillIndex<'static>>,
    },
    Entry {
        command: "skills",
        schema: schema_of::<super::skills::Skills<'static>>,
    },
    Entry {
        command: "sources",
        schema: schema_of::<super::sources::Sources<'static>>,
    },
    Entry {
        command: "stack",
        schema: schema_of::<super::stack::Stack>,
    },
    Entry {
        command: "status",
        schema: schema_of::<crate::board::status::StatusModel>,
    },
    Entry {
        command: "visibility-doctor",
        schema: schema_of::<super::visibility::VisibilityDoctor<'static>>,
    },
    Entry {
        command: "workspace-init",
        schema: schema_of::<super::workspace_init::WorkspaceInit<'static>>,
    },
    Entry {
        command: "workspace-migrate",
        schema: schema_of::<super::workspace_migrate::WorkspaceMigrate>,
    },
    Entry {
        command: "worktree-ensure",
        schema: schema_of::<super::worktree::WorktreeEnsure>,
    },
    Entry {
        command: "worktree-integrate",
        schema: schema_of::<super::worktree::WorktreeIntegrate>,
    },
    Entry {
        command: "worktree-list",
        schema: schema_of::<super::worktree::WorktreeList<'static>>,
    },
    Entry {
        command: "worktree-release",
        schema: schema_of::<super::worktree::WorktreeRelease>,
    },
];

/// The schema of the failure envelope.
pub fn error() -> Schema {
    schema_of::<super::envelope::FailureEnvelope<'static>>()
}

/// The schema named by a command's words (or [`ERROR`]), if its output is typed.
pub fn of(command: &str) -> Option<Schema> {
    if command == ERROR {
        return Some(error());
    }
    ENTRIES
        .iter()
        .find(|e| e.command == command)
        .map(|e| (e.schema)())
}

/// `aw schema` with no command: the names it knows.
#[derive(Debug, Clone, serde::Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Index {
    /// Every command whose output is typed, then [`ERROR`].
    pub schemas: Vec<&'static str>,
}

impl Index {
    /// Every name `aw schema` takes.
    pub fn all() -> Index {
        let mut schemas: Vec<&'static str> = ENTRIES.iter().map(|e| e.command).collect();
        schemas.push(ERROR);
        Index { schemas }
    }
}

/// `aw schema --all <dir>`: the files written.
#[derive(Debug, Clone, serde::Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Written {
    /// The folder.
    pub dir: String,
    /// Each file's name, in [`Index::all`]'s order.
    pub files: Vec<String>,
}

/// The file a schema is kept in (`docs/schemas/<name>.json`).
pub fn file_name(name: &str) -> String {
    format!("{name}.json")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_sorted_and_named_once() {
        let names: Vec<&str> = ENTRIES.iter().map(|e| e.command).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(names, sorted);
        assert!(!names.contains(&ERROR));
    }

    #[test]
    fn every_schema_is_draft_2020_12() {
        for e in ENTRIES {
            let s = (e.schema)();
            assert_eq!(
                s.get("$schema").and_then(|v| v.as_str()),
                Some("https://json-schema.org/draft/2020-12/schema"),
                "{}",
                e.command
            );
        }
    }
}
