//! One file per command, grouped as the command names are (`session-*` in `session/`,
//! `checkpoint-*` and the lifecycle hooks in `checkpoint/`, the project block in `project/`,
//! multi-root visibility in `visibility/`, `flow` and `manifest` verbs in theirs); `dispatch`
//! routes a parsed command to its file.
//!
//! A command file parses its arguments, calls the shell (`aw-workspace`) and the core
//! (`aw-core`), and builds the output; it does its I/O through the shell and its rules through the core (docs/ARCHITECTURE.md lists where that is not yet so).

pub mod capability;
mod check_branch;
mod checkpoint;
mod completions;
mod context;
mod demo;
mod designs;
pub mod family;
pub mod flow;
mod hook;
mod man;
pub mod manifest;
mod next_number;
pub mod persist;
mod project;
mod resume;
mod schema;
mod self_cmd;
mod session;
mod skill_index;
mod skills;
mod sources;
mod stack;
mod status;
pub mod visibility;
mod workspace_init;
mod workspace_migrate;
mod worktree;

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use clap::Subcommand;

/// Every top-level command. Each one-line `about` is set as an attribute, not a doc comment,
/// so the command's own `long_about` (in its file) still shows in `--help`.
#[derive(Debug, Subcommand)]
// A verb's arguments are built only when that verb runs, which keeps start-up small.
#[command(defer = true)]
pub enum Command {
    #[command(about = "Make folders outside the workspace visible to Claude Code and Codex.")]
    AttachMultiroot(visibility::attach::AttachArgs),
    #[command(
        about = "Write this conversation's session checkpoint as the host closes (SessionEnd hook)."
    )]
    AutoCompactOnClose(checkpoint::auto_compact_on_close::AutoCompactOnCloseArgs),
    #[command(about = capability::ABOUT)]
    Capability(capability::CapabilityArgs),
    #[command(
        about = "Check that work on a source is on its working branch, or in the session's own unit."
    )]
    CheckBranch(check_branch::CheckBranchArgs),
    #[command(
        about = "Print the completion script of a shell (bash, zsh, fish, powershell, elvish)."
    )]
    Completions(completions::CompletionsArgs),
    #[command(about = "Parse a session's CHECKPOINT.md (English or Spanish).")]
    CheckpointRead(checkpoint::read::CheckpointReadArgs),
    #[command(about = "Write a CHECKPOINT.md snapshot of the session (PreCompact hook).")]
    CheckpointWrite(checkpoint::write::CheckpointWriteArgs),
    #[command(about = "Measure the agent bundle per command, against a frozen baseline (CI).")]
    ContextBudget(context::budget::ContextBudgetArgs),
    #[command(about = "The ordered list of bundle documents a command reads, under its signals.")]
    ContextPlan(context::plan::ContextPlanArgs),
    #[command(about = "Run aw on a built-in example, in a temporary folder.")]
    Demo(demo::DemoArgs),
    #[command(about = "List design packages, show one, or run the plan-exec design gate.")]
    Designs(designs::DesignsArgs),
    #[command(about = "Withdraw folders from Claude Code's and Codex's multi-root settings.")]
    DetachMultiroot(visibility::detach::DetachArgs),
    #[command(
        about = "The agent-workflow family's manifests in use: status, posture, settings, modes, sandbox, links.",
        long_about = "The agent-workflow family's manifests in use, each read once through the \
validator's typed model.\n\n`aw family status` places each member on the detection ladder with \
its version and freshness; `aw family posture` prints the configured dispatch posture line; `aw \
family settings` lists, reads, sets, unsets or reconciles the bridges' host settings file \
(bridge-settings.conf); `aw family modes <skill-dir>` renders a member's mode catalog; `aw family \
sandbox` advises the sandbox lane (egress hosts, writable dirs, recipe fingerprint); `aw family \
links <skill-dir>` shows, creates or removes its wrapper links."
    )]
    #[command(subcommand)]
    Family(family::FamilyCommand),
    #[command(about = flow::ABOUT)]
    Flow(flow::FlowArgs),
    #[command(about = "Add or update a session's row in HISTORY.md.")]
    HistoryUpdate(session::history_update::HistoryUpdateArgs),
    #[command(
        about = "Targets of the hosts' PreToolUse hooks (branch check, SQL guard, commit advice).",
        long_about = "Targets of the agent hosts' PreToolUse hooks. Each reads the host's JSON \
on stdin, prints nothing on stdout and answers with its exit code: 0 lets the tool run, 2 blocks \
it and stderr says why.\n\n`aw hook branch-check` refuses an edit in a source that is not on its \
working branch; `aw hook sql-mutation-guard` refuses an MCP SQL call that changes the database \
(AW_SQL_GUARD=off, AW_SQL_GUARD_ALLOW=<server> bypass it); `aw hook git-commit-advisor` advises \
tagging a commit message with the active session and never blocks (AW_COMMIT_ADVISOR=off)."
    )]
    #[command(subcommand)]
    Hook(hook::HookCommand),
    #[command(
        about = "Check agent-workflow family manifests (`capability.json`).",
        long_about = "Check agent-workflow family manifests (`capability.json`).\n\n\
`aw manifest validate <skill-dir>…` is a drop-in for the family's validate.mjs: the same report, \
result classes and exit codes, so the scripts that call it keep working."
    )]
    #[command(subcommand)]
    Manifest(manifest::ManifestCommand),
    #[command(about = "Print the man page of aw, of a command or of a verb (roff).")]
    Man(man::ManArgs),
    #[command(about = "Print the next NNN of a docs folder, or claim one atomically.")]
    NextNumber(next_number::NextNumberArgs),
    #[command(about = persist::ABOUT)]
    Persist(persist::PersistArgs),
    #[command(about = "Read the project block, or merge sources and branches into it.")]
    ProjectMdUpsert(project::md_upsert::ProjectMdUpsertArgs),
    #[command(
        about = "Take a source out of the workspace: block, multi-root settings, launch folder."
    )]
    RemoveSource(project::remove_source::RemoveSourceArgs),
    #[command(about = "Propose what to resume next and the exact command to run (read-only).")]
    Resume(resume::ResumeArgs),
    #[command(
        about = "Where this conversation's session stands after a compaction (PostCompact hook)."
    )]
    ResumeSummary(checkpoint::resume_summary::ResumeSummaryArgs),
    #[command(about = "The JSON Schema of a command's output, or of the failure envelope.")]
    Schema(schema::SchemaArgs),
    #[command(
        name = "self",
        about = "Install aw into agent hosts, remove it, find hosts, check the installation.",
        long_about = "aw's own installation into agent hosts (Claude Code, Codex, Gemini CLI, \
OpenCode, and the shared ~/.agents/skills folder).\n\n`aw self install --target <host>` writes the \
`w` skill, the design wrapper, the commands and the hooks; `aw self uninstall` removes what aw \
wrote and nothing else; `aw self detect-hosts` lists the hosts under HOME; `aw self doctor` checks \
PATH, versions and stale files."
    )]
    #[command(subcommand)]
    SelfCmd(self_cmd::SelfCommand),
    #[command(about = "Summarise a session's artifacts, or dump their contents.")]
    SessionArtifacts(session::artifacts::SessionArtifactsArgs),
    #[command(about = "Close a session: bindings, checkpoint stub, `.closed`, HISTORY row.")]
    SessionClose(session::close::SessionCloseArgs),
    #[command(about = "Create a session with the next global number.")]
    SessionCreate(session::create::SessionCreateArgs),
    #[command(about = "Show a session's descriptor and checkpoint; `--reopen` reopens it.")]
    SessionResume(session::resume::SessionResumeArgs),
    #[command(about = "List the sessions, with counts and the next session number.")]
    Sessions(session::list::SessionsArgs),
    #[command(
        about = "Record the QA branch of one source in the project block.",
        long_about = "Record the branch a source is tested on, in the project block of CLAUDE.md \
and AGENTS.md, under the workspace lock.\n\nThe alias need not be a declared source (a later \
`workspace-init` prunes branch lines of aliases that are not sources)."
    )]
    SetQaBranch(project::SetBranchArgs),
    #[command(
        about = "Record the working branch of one source in the project block.",
        long_about = "Record the branch a source is being worked on, in the project block of \
CLAUDE.md and AGENTS.md, under the workspace lock. `aw sources` then expects the source on that \
branch.\n\nThe alias need not be a declared source (a later `workspace-init` prunes branch lines \
of aliases that are not sources)."
    )]
    SetWorkingBranch(project::SetBranchArgs),
    #[command(about = "List the installed skills from their SKILL.md frontmatter.")]
    SkillIndex(skill_index::SkillIndexArgs),
    #[command(about = "Role bindings (skills.toml), installed skills and capability readiness.")]
    Skills(skills::SkillsArgs),
    #[command(about = "List the project's sources with their branches and git state.")]
    Sources(sources::SourcesArgs),
    #[command(about = "Detect a folder's language, framework, database and build tool.")]
    Stack(stack::StackArgs),
    #[command(
        about = "The workspace board: specs, plans, sessions and the pipeline of what is left."
    )]
    Status(status::StatusArgs),
    #[command(
        about = "Multi-root visibility: `visibility doctor` checks the hosts' files (read-only).",
        long_about = "Multi-root visibility of the sources outside the workspace.\n\n`aw \
visibility doctor` checks, without changing anything, that Claude Code's and Codex's files list \
every external source and nothing stale."
    )]
    #[command(subcommand)]
    Visibility(visibility::VisibilityCommand),
    #[command(
        about = "Make this folder a workspace, or reconcile it (scaffold, project block, .gitignore)."
    )]
    WorkspaceInit(workspace_init::WorkspaceInitArgs),
    #[command(
        about = "Bring a workspace written by older releases up to the current model (a preview unless --apply)."
    )]
    WorkspaceMigrate(workspace_migrate::WorkspaceMigrateArgs),
    #[command(
        about = worktree::ABOUT,
        long_about = "Isolation units: one `git worktree` of a source per session, at \
`~/.<ns>/worktrees/<workspace key>/<alias>/<session folder>` on the branch `aw/<session folder>`, \
so concurrent flows never share a working tree. The path is the registry; `git worktree list` in \
each source is the live inventory.\n\n`aw worktree list [--code <session>]` shows the \
workspace's units, their orphans and the sources git could not read. `ensure --source <alias>` \
makes the session's unit (or finds it made), `integrate` merges a session's units back into each \
source's working branch and removes them, and `release` removes a unit without merging (its \
branch is kept).\n\nA refusal (`unit_occupied`, `checkout_dirty`, …) is printed as the result, \
`{error, message, hint}`, with exit 2."
    )]
    #[command(subcommand)]
    Worktree(worktree::WorktreeCommand),
}

/// Runs a parsed command.
pub fn dispatch(command: &Command, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    match command {
        Command::AttachMultiroot(args) => visibility::attach::run(args, cx),
        Command::AutoCompactOnClose(args) => checkpoint::auto_compact_on_close::run(args, cx),
        Command::Capability(args) => capability::dispatch(args, cx),
        Command::CheckBranch(args) => check_branch::run(args, cx),
        Command::CheckpointRead(args) => checkpoint::read::run(args, cx),
        Command::Completions(args) => completions::run(args, cx),
        Command::CheckpointWrite(args) => checkpoint::write::run(args, cx),
        Command::ContextBudget(args) => context::budget::run(args, cx),
        Command::ContextPlan(args) => context::plan::run(args, cx),
        Command::Demo(args) => demo::run(args, cx),
        Command::DetachMultiroot(args) => visibility::detach::run(args, cx),
        Command::Family(cmd) => family::dispatch(cmd, cx),
        Command::Flow(args) => flow::dispatch(args, cx),
        Command::HistoryUpdate(args) => session::history_update::run(args, cx),
        Command::Hook(cmd) => hook::dispatch(cmd, cx),
        Command::Manifest(cmd) => manifest::dispatch(cmd, cx),
        Command::Man(args) => man::run(args, cx),
        Command::NextNumber(args) => next_number::run(args, cx),
        Command::Persist(args) => persist::dispatch(args, cx),
        Command::ProjectMdUpsert(args) => project::md_upsert::run(args, cx),
        Command::RemoveSource(args) => project::remove_source::run(args, cx),
        Command::Resume(args) => resume::run(args, cx),
        Command::ResumeSummary(args) => checkpoint::resume_summary::run(args, cx),
        Command::Schema(args) => schema::run(args, cx),
        Command::SelfCmd(cmd) => self_cmd::dispatch(cmd, cx),
        Command::SessionArtifacts(args) => session::artifacts::run(args, cx),
        Command::SessionClose(args) => session::close::run(args, cx),
        Command::SessionCreate(args) => session::create::run(args, cx),
        Command::SessionResume(args) => session::resume::run(args, cx),
        Command::Sessions(args) => session::list::run(args, cx),
        Command::SetQaBranch(args) => project::set_qa_branch::run(args, cx),
        Command::SetWorkingBranch(args) => project::set_working_branch::run(args, cx),
        Command::Sources(args) => sources::run(args, cx),
        Command::Designs(args) => designs::run(args, cx),
        Command::SkillIndex(args) => skill_index::run(args, cx),
        Command::Skills(args) => skills::run(args, cx),
        Command::Stack(args) => stack::run(args, cx),
        Command::Status(args) => status::run(args, cx),
        Command::Visibility(cmd) => visibility::dispatch(cmd, cx),
        Command::WorkspaceInit(args) => workspace_init::run(args, cx),
        Command::WorkspaceMigrate(args) => workspace_migrate::run(args, cx),
        Command::Worktree(cmd) => worktree::dispatch(cmd, cx),
    }
}
