//! `aw resume [<docs path | number>] [--code <session>]`: what to pick up next, and the exact
//! command to run for it. Read-only: it never runs anything and never binds the conversation.
//!
//! With a document, it proposes that spec or plan (several documents sharing a number are
//! candidates). With `--code`, it proposes resuming that session. With neither, it takes the head
//! of the status pipeline, or the candidates tied with it.

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::board::resume::{self, TARGET_INVALID};
use aw_core::error_code::ErrorCode;
use aw_core::wire::envelope::CandidateOut;
use aw_workspace::WorkspaceError;
use aw_workspace::documents::board;
use aw_workspace::sessions::resolver;
use clap::Args;

// Arguments of `aw resume`.
#[derive(Debug, Args)]
#[command(
    long_about = "Propose what to resume and the exact command to run for it. Read-only.\n\n\
With a spec or plan (its path under docs/, or its number), propose that document. With `--code`, \
propose resuming that session (from its checkpoint, or from where its flow run stopped). With \
neither, take the head of the `aw status` pipeline; items tied with it are listed as candidates."
)]
pub struct ResumeArgs {
    /// A spec or plan: its path (`docs/plans/003-plan-x.md`) or its number (`003`).
    #[arg(value_name = "DOC")]
    pub target: Option<String>,
    /// A session: a number, a folder name or a unique folder prefix.
    #[arg(long, value_name = "SESSION")]
    pub code: Option<String>,
}

/// Runs the command.
pub fn run(args: &ResumeArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    if args.target.is_some() && args.code.is_some() {
        return Err(Failure::new(
            ErrorCode::ArgsInvalid,
            "Give one target: a document or `--code <session>`, not both.",
            "Run `aw resume <doc>` or `aw resume --code <session>`.",
        ));
    }
    let ws = cx.workspace_settled()?;
    let now = cx.now.wall;
    let answer = match (&args.code, &args.target) {
        (Some(code), _) => {
            let folder =
                resolver::resolve_code_read(&ws, code).map_err(|e| target_invalid(e, code))?;
            resume::for_session(&board::load_session(
                &ws,
                &folder,
                &now,
                cx.home().as_deref(),
            ))
        }
        (None, Some(target)) => {
            let model = board::load(&ws, &now, cx.home().as_deref());
            let answer = resume::for_target(&model, target);
            leave(model);
            answer.map_err(|r| {
                invalid_target_data(Failure::new(TARGET_INVALID, r.message, r.action), target)
            })?
        }
        (None, None) => {
            let model = board::load(&ws, &now, cx.home().as_deref());
            let answer = resume::from_pipeline(&model);
            leave(model);
            answer
        }
    };
    Ok(Outcome::shown(&answer, &style))
}

/// Lets go of the board once the answer is taken from it: the process exits right after
/// printing, which frees it at once, where dropping it would free thousands of allocations one by
/// one.
fn leave(model: aw_core::board::status::StatusModel) {
    std::mem::forget(model);
}

/// A session that cannot be resolved is an invalid target; the resolver's candidates and next
/// action are kept.
fn target_invalid(e: WorkspaceError, code: &str) -> Failure {
    match e {
        WorkspaceError::Session(r) => invalid_target_data(
            Failure::new(TARGET_INVALID, r.message.clone(), r.action.clone()),
            code,
        )
        .with_data(|d| d.candidates = Some(CandidateOut::all(&r.candidates))),
        other => other.into(),
    }
}

/// The reference's `data` of an invalid target: `status` and the `target` as given, beside the
/// action.
fn invalid_target_data(f: Failure, target: &str) -> Failure {
    f.with_data(|d| {
        d.status = Some("invalid_target".to_owned());
        d.target = Some(target.to_owned());
    })
}
