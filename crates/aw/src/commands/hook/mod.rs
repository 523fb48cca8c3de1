//! `aw hook <name>`: the targets of the agent hosts' PreToolUse hooks. Each reads the host's
//! JSON payload on stdin, prints nothing on stdout, and answers with its exit code: 0 lets the
//! tool run, 2 blocks it with the reason on stderr (the host shows it to the agent).

pub mod branch_check;
pub mod git_commit_advisor;
pub mod sql_mutation_guard;

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use clap::Subcommand;

/// The hooks.
#[derive(Debug, Subcommand)]
// A verb's arguments are built only when that verb runs, which keeps start-up small.
#[command(defer = true)]
pub enum HookCommand {
    #[command(
        about = "Block an edit off a source's working branch, or outside the session's unit (PreToolUse).",
        long_about = "Block an edit in a source that is not on its working branch (the \
PreToolUse hook of edit tools).\n\nReads the host's JSON on stdin: `tool_name` and the file in \
`tool_input.file_path`, `path` or `notebook_path` (relative to the payload's `cwd`), or the files \
a patch names. When the file is inside a source of the project block that declares a working \
branch, and the source's HEAD is on another branch, the edit is refused: exit 2, and stderr says \
why and what to do (check out the working branch, or record the current one with `aw \
set-working-branch`). When that source has an isolation unit of this workspace (`aw worktree \
list`), the unit rule decides instead, as `aw check-branch` does: the edit is allowed only inside \
the unit of the session the payload's `session_id` is bound to (else the only active session), \
and refused with the command that gives the session its unit when it is in another session's \
unit or outside every unit, or when the session cannot be resolved. An edit it cannot judge is refused too, with the reason: a payload over \
64 MiB or cut short, a path over 32 KiB, more than 10,000 files, no verdict within 10 s \
(AW_HOOK_BUDGET_MS). Anything else allows the edit (exit 0): a file outside every source, no \
working branch, a folder that is not a repository, no workspace, no payload or one that is not a \
JSON object. Never writes, never prints on stdout."
    )]
    BranchCheck(branch_check::BranchCheckArgs),
    #[command(
        about = "Block an MCP SQL call whose statement changes the database (PreToolUse).",
        long_about = "Block an MCP SQL call whose statement changes the database (the \
PreToolUse hook of MCP SQL tools).\n\nOff unless the runtime settings \
`~/.<ns>/agent-workflow/runtime.json` (a JSON object with string `packageName` and `binName`) \
name `mcpGuards.sqlMutation.toolPattern` and `serverPattern` (regular expressions). Reads the \
host's JSON on stdin: when `tool_name` matches `toolPattern`, the statement (the first non-blank \
of `tool_input.sql`, `query`, `statement`, `command`), its `/* */` and `--` comments removed, is \
searched for a whole word of INSERT, UPDATE, DELETE, TRUNCATE, MERGE, CREATE, ALTER, DROP, \
GRANT, REVOKE or COPY, in any case. Found: exit 2, and stderr names the tool, the server \
(`serverPattern`'s first group in the tool name, else its whole match) and the keyword, and \
says to write the change as a script for the person to apply.\n\nBypass, only when the person \
hands you an exception: AW_SQL_GUARD=off turns the guard off; AW_SQL_GUARD_ALLOW=<server>[,...] \
lets those servers through (compared in any case). Anything else lets the call run (exit 0, \
silent): another tool, no statement, an invalid pattern, no payload or one that is not a JSON \
object. Never writes, never prints on stdout."
    )]
    SqlMutationGuard(sql_mutation_guard::SqlMutationGuardArgs),
    #[command(
        about = "Advise tagging a commit message with the active session (PreToolUse, never blocks).",
        long_about = "Advise tagging a commit message with the active session (the PreToolUse \
hook of the shell tool). It never blocks: the exit is always 0.\n\nReads the host's JSON on \
stdin. When `tool_name` is `Bash` and `tool_input.command` runs `git commit` with a message \
given as `-m \"...\"` or `-m '...'`, and the workspace (found from the payload's `cwd`) has \
exactly one active session whose folder is numbered (`001-...`, or the older `session001-...`), \
a message that names no `session<NNN>` tag gets advice on stderr: the session, the message and \
the tag to add, e.g. `(session001)`. Any other call, a commit without `-m` (`-F`, \
`--message=`, a heredoc), no session or several, or a payload that is not a JSON object: \
silent.\n\nBypass: AW_COMMIT_ADVISOR=off silences it. Never writes, never prints on stdout."
    )]
    GitCommitAdvisor(git_commit_advisor::GitCommitAdvisorArgs),
}

/// Runs a hook.
pub fn dispatch(cmd: &HookCommand, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    match cmd {
        HookCommand::BranchCheck(args) => branch_check::run(args, cx),
        HookCommand::SqlMutationGuard(args) => sql_mutation_guard::run(args, cx),
        HookCommand::GitCommitAdvisor(args) => git_commit_advisor::run(args, cx),
    }
}
