//! `aw attach-multiroot`: makes folders outside the workspace visible to the agent hosts.

use super::MultirootFlags;
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_workspace::project::visibility::Direction;
use clap::Args;

// Arguments of `aw attach-multiroot`.
#[derive(Debug, Args)]
#[command(
    long_about = "Make folders outside the workspace visible to the agent hosts: add them to \
`.claude/settings.local.json` (`permissions.additionalDirectories`, for Claude Code) and to \
`.codex/config.toml` (`[sandbox_workspace_write] writable_roots`, for Codex, which also gets \
`[projects.\"<workspace>\"] trust_level = \"trusted\"` unless the file already says something \
about the workspace's trust), and keep both files out of git with aw's `.gitignore` section. \
As the reference CLI does, Claude Code's list and Codex's top-level `additional_writable_roots` \
get the path as typed (`../api`); Codex's own list gets the absolute folder.\n\n\
Name the folders with `--path` / `--paths`, or take the project block's external sources with \
`--from-sources`. Every other setting, comment and line of the files is kept; a folder already \
listed, in any spelling, is not listed twice, and a run that changes nothing keeps every byte. Warp and its agent \
Oz have no per-project folder setting, so nothing of theirs is written. `--global` (the user's \
home configuration) is not offered."
)]
pub struct AttachArgs {
    /// The folders and hosts.
    #[command(flatten)]
    pub flags: MultirootFlags,
}

/// Runs the command.
pub fn run(args: &AttachArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    super::run("attach-multiroot", Direction::Attach, &args.flags, cx)
}
