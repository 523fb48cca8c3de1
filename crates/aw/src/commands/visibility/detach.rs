//! `aw detach-multiroot`: withdraws folders from the agent hosts' multi-root settings.

use super::MultirootFlags;
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_workspace::project::visibility::Direction;
use clap::Args;

// Arguments of `aw detach-multiroot`.
#[derive(Debug, Args)]
#[command(
    long_about = "Withdraw folders from the agent hosts' multi-root settings: remove them from \
`.claude/settings.local.json` (`permissions.additionalDirectories`) and from \
`.codex/config.toml` (`[sandbox_workspace_write] writable_roots`, and the reference's \
`additional_writable_roots`, dropped when left empty), in every spelling (absolute or as \
typed).\n\nName the folders with `--path` / `--paths`, or take the project block's external \
sources with `--from-sources`. Only the named folders go; every other setting, comment and line stays, Codex's trust entry \
included. The folders themselves are never touched. `--global` is not offered."
)]
pub struct DetachArgs {
    /// The folders and hosts.
    #[command(flatten)]
    pub flags: MultirootFlags,
}

/// Runs the command.
pub fn run(args: &DetachArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    super::run("detach-multiroot", Direction::Detach, &args.flags, cx)
}
