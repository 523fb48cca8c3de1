//! `aw session-resume [--code <c>] [--reopen]`: what an agent needs to pick a session up again —
//! its narrative first (what it did, what is next, each fact with its source), then its
//! descriptor text and its parsed checkpoint.
//!
//! A plain resume only reads (it never binds the conversation, the reference's v22 rule).
//! `--reopen` removes `.closed` and binds the conversation (AW_CONTEXT_ID, else
//! CLAUDE_CODE_SESSION_ID) to the session, both
//! under the workspace lock.

use crate::cli::given;
use crate::context::Ctx;
use crate::failure::{Failure, session_write};
use crate::output::Outcome;
use aw_core::error_code::ErrorCode;
use aw_core::session::folder::{SessionFolder, identity};
use aw_core::session::resolve::Intent;
use aw_core::wire::checkpoint::Checkpoint;
use aw_core::wire::session_resume::{ResumeLines, SessionResume};
use aw_workspace::sessions::artifacts::entries;
use aw_workspace::sessions::context_id::from_env;
use aw_workspace::sessions::hooks::read_checkpoint;
use aw_workspace::sessions::narrative;
use aw_workspace::sessions::resolver::{self, Request};
use aw_workspace::sessions::{self, DescriptorKind};
use clap::Args;

// Arguments of `aw session-resume`.
#[derive(Debug, Args)]
#[command(
    long_about = "Show where a session stands: its narrative first (objective, next step, criteria, \
decisions, results, pending work, each with the file it comes from), then its descriptor \
(SESSION.md, or a legacy OBJECTIVE.md / OBJETIVO.md) and its parsed CHECKPOINT.md.\n\nThe session is `--code`, else the one this conversation \
(AW_CONTEXT_ID, else CLAUDE_CODE_SESSION_ID) is bound to, else the only active session. `--reopen` (with `--code`) reopens a \
closed session, binds this conversation to it and refreshes the narrative block of its \
SESSION.md."
)]
pub struct SessionResumeArgs {
    /// The session: a number, a folder name or a unique folder prefix.
    #[arg(long, value_name = "CODE")]
    pub code: Option<String>,
    /// Reopen the session (remove `.closed`) and bind this conversation to it; needs `--code`.
    #[arg(long)]
    pub reopen: bool,
}

/// Runs the command.
pub fn run(args: &SessionResumeArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let code = given(&args.code);
    if args.reopen && code.is_none() {
        return Err(Failure::new(
            ErrorCode::InvalidInput,
            "`--reopen` needs `--code <session>`: reopening never guesses the session.",
            "Add `--code <session>` (see `aw sessions --all`).",
        )
        .with_error_data()
        .with_code_data());
    }
    let ws = cx.workspace()?;
    let cid = from_env();
    let (resolved, refreshed) = match (args.reopen, code) {
        (true, Some(code)) => {
            let (r, narrative) =
                sessions::reopen(&ws, code, cid.as_deref()).map_err(session_write)?;
            (r, Some(narrative))
        }
        _ => (
            resolver::resolve(
                &ws,
                &Request {
                    code,
                    allow_closed: true,
                    bind: false,
                    context_id: cid.as_deref(),
                    intent: Intent::Read,
                },
            )?,
            None,
        ),
    };
    let names = entries(&resolved.path)?;
    let descriptor = sessions::descriptor(&resolved.path, &names)?
        .filter(|d| d.kind != DescriptorKind::Requirements);
    let (cp_path, cp_text) = read_checkpoint(&resolved.path)?;
    // What the session did, read first: the objective, the next step and every recorded fact,
    // each with the file it comes from.
    let narrative = narrative::with_read(
        &resolved.path,
        &resolved.folder,
        &names,
        descriptor
            .as_ref()
            .and_then(|d| Some((d.path.file_name()?.to_str()?, d.text.as_str()))),
        cp_text.as_deref(),
    )?;
    let objective = descriptor.map(|d| d.text);
    let id = identity(&resolved.folder);
    let rel = ws.shown(&resolved.path);
    let refresh_error = refreshed.and_then(Result::err);
    let cp_path = cp_path.to_string_lossy();
    let model = SessionResume {
        code: &id.code,
        folder: &resolved.folder,
        path: &rel,
        state: resolved.state.as_str(),
        narrative: &narrative,
        objetivo: objective.as_deref(),
        objetivo_text: objective.as_deref(),
        checkpoint: cp_text.as_deref().map(|raw| Checkpoint::of(&cp_path, raw)),
        narrative_error: refresh_error,
        lines: ResumeLines::of(
            &SessionFolder {
                folder: resolved.folder.clone(),
                state: resolved.state,
            },
            objective.as_deref(),
            cp_text.as_deref(),
            args.reopen,
        ),
    };
    Ok(Outcome::shown(&model, &style))
}
