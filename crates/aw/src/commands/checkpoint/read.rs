//! `aw checkpoint-read [--code <c>]`: a session's CHECKPOINT.md, parsed.
//!
//! Reads checkpoints in both languages: aw's own snapshot (`Updated:`, `Progress:`, English
//! headings), the reference's Spanish one (`Actualizado:`, `Avance:`, …) and a loop-maintained
//! one (`## Completed`, `## Pending / Next`, read as `ultimo` / `proximo`). The reference v21
//! reported `actualizado` and `avance` as null for its own English snapshot and ignored the loop
//! headings. A read never binds the conversation to the session.

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::wire::checkpoint::{Checkpoint, CheckpointRead};
use aw_workspace::sessions::context_id::from_env;
use aw_workspace::sessions::hooks::read_checkpoint;
use aw_workspace::sessions::resolver::{self, Request};
use clap::Args;

// Arguments of `aw checkpoint-read`.
#[derive(Debug, Args)]
#[command(
    long_about = "Parse a session's CHECKPOINT.md.\n\nThe session is `--code`, else the one this \
conversation (AW_CONTEXT_ID, else CLAUDE_CODE_SESSION_ID) is bound to, else the only active session; closed sessions can be \
read. English and Spanish checkpoints are both understood."
)]
pub struct CheckpointReadArgs {
    /// The session: a number, a folder name or a unique folder prefix.
    #[arg(long, value_name = "CODE")]
    pub code: Option<String>,
}

/// Runs the command.
pub fn run(args: &CheckpointReadArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let ws = cx.workspace()?;
    let cid = from_env();
    let resolved = resolver::resolve(
        &ws,
        &Request {
            code: args.code.as_deref(),
            allow_closed: true,
            bind: false,
            context_id: cid.as_deref(),
            ..Default::default()
        },
    )?;
    let (path, text) = read_checkpoint(&resolved.path)?;
    let path_str = path.to_string_lossy().into_owned();
    let model = match &text {
        None => CheckpointRead::Missing {
            session: &resolved.folder,
            checkpoint: None,
            reason: "CHECKPOINT.md does not exist.",
        },
        Some(text) => CheckpointRead::Found {
            session: &resolved.folder,
            checkpoint: Checkpoint::of(&path_str, text),
        },
    };
    Ok(Outcome::shown(&model, &style))
}
