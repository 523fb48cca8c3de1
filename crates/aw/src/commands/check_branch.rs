//! `aw check-branch [--source <alias> | --file <path> | --path <path>] [--code <session>]
//! [--strict]`: whether an edit of a source goes where it should. A source with isolation units
//! of this workspace answers by the unit rule (the file must be in the session's own unit); any
//! other by its working branch, as before units existed. The rules are
//! `aw_core::isolation::unit_check`; the reading is `aw_workspace::isolation::check_branch`.

use crate::cli::session_or_code;
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::wire::check_branch::CheckBranchOutput;
use aw_workspace::isolation::{CheckRequest, check_branch};
use aw_workspace::locate::current_dir;
use aw_workspace::sessions::context_id;
use clap::Args;

// Arguments of `aw check-branch`.
#[derive(Debug, Args)]
#[command(
    long_about = "Check that work on a source goes where it should, without changing anything.\n\n\
The source is `--source <alias>`, or the one that owns `--file <path>` (a file in an isolation \
unit of this workspace belongs to the unit's source; any other to the deepest source whose \
folder holds it), or `--path <path>` (a source's path as the project block writes it, else read \
as `--file`).\n\nWhen that source has at least one isolation unit of this workspace (`aw worktree \
list`), the unit rule answers: `inside_own_unit` (match) when the file is in the session's own \
unit; `other_session_unit` when it is in another session's; `outside_unit` when it is outside \
every unit (or no file was given), with the unit it belongs in; `unknown_identity` when the \
session cannot be resolved. The session is `--code`, else this conversation's (AW_CONTEXT_ID, \
else CLAUDE_CODE_SESSION_ID), else the only active one; nothing is bound. A refusal carries \
`remedy`, the command to run.\n\nOtherwise the source's branch is compared with its working \
branch (`aw set-working-branch`): `match`, the current branch, its uncommitted files.\n\nExit 0; \
with `--strict`, exit 2 when `match` is false."
)]
pub struct CheckBranchArgs {
    /// The source's alias.
    #[arg(long, value_name = "ALIAS")]
    pub source: Option<String>,
    /// A file; its owning source is checked (and, with units, whether it is in the session's).
    #[arg(long, value_name = "PATH")]
    pub file: Option<String>,
    /// A source's path as the project block writes it, else a file as `--file`.
    #[arg(long, value_name = "PATH")]
    pub path: Option<String>,
    /// The editing session: a number, a folder name or a unique folder prefix.
    #[arg(long, value_name = "SESSION")]
    pub code: Option<String>,
    /// Same as `--code`.
    #[arg(long, value_name = "SESSION")]
    pub session: Option<String>,
    /// Exit 2 when the check does not match.
    #[arg(long)]
    pub strict: bool,
}

/// Runs the command.
pub fn run(args: &CheckBranchArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    // The reference gave the conflict's reason as `data.error` too.
    let code = session_or_code(&args.session, &args.code).map_err(Failure::with_error_data)?;
    let ws = cx.workspace()?;
    let home = cx.home();
    let cwd = current_dir()?;
    let conversation = context_id::from_env();
    let check = check_branch(
        &ws,
        home.as_deref(),
        &CheckRequest {
            alias: args.source.as_deref(),
            path: args.path.as_deref(),
            file: args.file.as_deref(),
            code,
            context_id: conversation.as_deref(),
            cwd: &cwd,
        },
    )?;
    let exit = if args.strict && !check.matched() {
        2
    } else {
        0
    };
    Ok(Outcome::shown(&CheckBranchOutput::of(&check), &style).with_exit(exit))
}
