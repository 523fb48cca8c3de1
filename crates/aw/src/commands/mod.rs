//! One module per command; `dispatch` routes a parsed command to it.

mod auto_compact_on_close;
mod board;
mod checkpoint_read;
mod checkpoint_write;
mod demo;
pub mod flow;
mod history_update;
mod lifecycle;
pub mod manifest;
mod next_number;
mod project_block;
mod project_md_upsert;
mod resume;
mod resume_summary;
mod session_artifacts;
mod session_close;
mod session_create;
mod session_entry;
mod session_resume;
mod sessions;
mod set_qa_branch;
mod set_working_branch;
mod sources;
mod status;
mod status_view;
mod workspace_init;

use crate::cli::Global;
use crate::failure::Failure;
use crate::output::Outcome;
use clap::Subcommand;

/// Every top-level command. Each one-line `about` is set as an attribute, not a doc comment,
/// so the command's own `long_about` (in its file) still shows in `--help`.
#[derive(Debug, Subcommand)]
pub enum Command {
    #[command(
        about = "Write this conversation's session checkpoint as the host closes (SessionEnd hook)."
    )]
    AutoCompactOnClose(auto_compact_on_close::AutoCompactOnCloseArgs),
    #[command(about = "Parse a session's CHECKPOINT.md (English or Spanish).")]
    CheckpointRead(checkpoint_read::CheckpointReadArgs),
    #[command(about = "Write a CHECKPOINT.md snapshot of the session (PreCompact hook).")]
    CheckpointWrite(checkpoint_write::CheckpointWriteArgs),
    #[command(about = "Run aw on a built-in example, in a temporary folder.")]
    Demo(demo::DemoArgs),
    Flow(flow::FlowArgs),
    #[command(about = "Add or update a session's row in HISTORY.md.")]
    HistoryUpdate(history_update::HistoryUpdateArgs),
    #[command(about = "Check agent-workflow family manifests (`capability.json`).")]
    #[command(subcommand)]
    Manifest(manifest::ManifestCommand),
    #[command(about = "Print the next NNN of a docs folder, or claim one atomically.")]
    NextNumber(next_number::NextNumberArgs),
    #[command(about = "Read the project block, or merge sources and branches into it.")]
    ProjectMdUpsert(project_md_upsert::ProjectMdUpsertArgs),
    #[command(about = "Propose what to resume next and the exact command to run (read-only).")]
    Resume(resume::ResumeArgs),
    #[command(
        about = "Where this conversation's session stands after a compaction (PostCompact hook)."
    )]
    ResumeSummary(resume_summary::ResumeSummaryArgs),
    #[command(about = "Summarise a session's artifacts, or dump their contents.")]
    SessionArtifacts(session_artifacts::SessionArtifactsArgs),
    #[command(about = "Close a session: bindings, checkpoint stub, `.closed`, HISTORY row.")]
    SessionClose(session_close::SessionCloseArgs),
    #[command(about = "Create a session with the next global number.")]
    SessionCreate(session_create::SessionCreateArgs),
    #[command(about = "Show a session's descriptor and checkpoint; `--reopen` reopens it.")]
    SessionResume(session_resume::SessionResumeArgs),
    #[command(about = "List the sessions, with counts and the next session number.")]
    Sessions(sessions::SessionsArgs),
    #[command(about = "Record the QA branch of one source in the project block.")]
    SetQaBranch(project_block::SetBranchArgs),
    #[command(about = "Record the working branch of one source in the project block.")]
    SetWorkingBranch(project_block::SetBranchArgs),
    #[command(about = "List the project's sources with their branches and git state.")]
    Sources(sources::SourcesArgs),
    #[command(
        about = "The workspace board: specs, plans, sessions and the pipeline of what is left."
    )]
    Status(status::StatusArgs),
    #[command(
        about = "Make this folder a workspace, or reconcile it (scaffold, project block, .gitignore)."
    )]
    WorkspaceInit(workspace_init::WorkspaceInitArgs),
}

/// Runs a parsed command.
pub fn dispatch(command: &Command, global: &Global) -> Result<Outcome, Failure> {
    match command {
        Command::AutoCompactOnClose(args) => auto_compact_on_close::run(args, global),
        Command::CheckpointRead(args) => checkpoint_read::run(args, global),
        Command::CheckpointWrite(args) => checkpoint_write::run(args, global),
        Command::Demo(args) => demo::run(args, global),
        Command::Flow(args) => flow::dispatch(args, global),
        Command::HistoryUpdate(args) => history_update::run(args, global),
        Command::Manifest(cmd) => manifest::dispatch(cmd, global),
        Command::NextNumber(args) => next_number::run(args, global),
        Command::ProjectMdUpsert(args) => project_md_upsert::run(args, global),
        Command::Resume(args) => resume::run(args, global),
        Command::ResumeSummary(args) => resume_summary::run(args, global),
        Command::SessionArtifacts(args) => session_artifacts::run(args, global),
        Command::SessionClose(args) => session_close::run(args, global),
        Command::SessionCreate(args) => session_create::run(args, global),
        Command::SessionResume(args) => session_resume::run(args, global),
        Command::Sessions(args) => sessions::run(args, global),
        Command::SetQaBranch(args) => set_qa_branch::run(args, global),
        Command::SetWorkingBranch(args) => set_working_branch::run(args, global),
        Command::Sources(args) => sources::run(args, global),
        Command::Status(args) => status::run(args, global),
        Command::WorkspaceInit(args) => workspace_init::run(args, global),
    }
}
