//! `aw worktree <verb>`: isolation units, one `git worktree` of one source per session, on the
//! branch `aw/<session>`. `list` reads them; `ensure` makes one, `release` removes one and
//! `integrate` merges a session's units back. A refusal is the verb's result (exit 2).

pub mod ensure;
pub mod integrate;
pub mod list;
pub mod release;

use crate::cli::session_or_code;
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Outcome, Style};
use aw_core::error_code::ErrorCode;
use aw_core::isolation::refusal::{self, Refusal};
use aw_core::project::model::Block;
use aw_core::session::resolve::Intent;
use aw_workspace::WorkspaceError;
use aw_workspace::locate::Workspace;
use aw_workspace::project::ProjectFiles;
use aw_workspace::sessions::context_id::from_env;
use aw_workspace::sessions::resolver::{self, Request, Resolved};
use aw_workspace::sessions::{self};
use clap::{Args, Subcommand};

/// The one-line summary of `aw worktree`.
pub const ABOUT: &str = "Isolation units: each session's own git worktree of a source (list, ensure, integrate, release).";

/// The `worktree` verbs.
#[derive(Debug, Subcommand)]
// A verb's arguments are built only when that verb runs, which keeps start-up small.
#[command(defer = true)]
pub enum WorktreeCommand {
    // `about` rather than a doc comment, which would reset the verb's long help.
    #[command(about = "List the workspace's isolation units and orphans (read-only).")]
    List(list::ListArgs),
    #[command(
        about = "Give the session its own git worktree of a source (or find it made).",
        long_about = "Give a session its own `git worktree` of a source: at \
`~/.<ns>/worktrees/<workspace key>/<alias>/<session folder>`, on the branch `aw/<session folder>` \
(created from the source's working branch, or checked out again when it exists, so a released \
unit comes back on its own commits). Run again, it finds the unit made (`created: false`). The \
unit's folder is listed in the workspace's Claude Code and Codex settings, as `attach-multiroot` \
does (`visibility`).\n\nThe session is `--code`, else this conversation's, else the only active \
one; it is never bound. A refusal is printed as the result with exit 2: `no_sources_declared`, \
`alias_required`, `unknown_source`, `session_unresolved`, `not_a_repo`, `unit_occupied` (the \
branch is checked out elsewhere: `occupant`), `worktree_add_failed` (usually the base branch is \
missing), `custody_unreadable`."
    )]
    Ensure(UnitArgs),
    #[command(
        about = "Remove a session's unit without merging it (never forced; the branch is kept).",
        long_about = "Remove a session's unit of a source with `git worktree remove` (never \
forced) and withdraw its folder from the hosts' settings; the branch `aw/<session>` is kept, so \
`ensure` can bring the unit back. A unit git no longer lists is pruned (`released: false`). A \
unit with uncommitted or untracked files is refused (`unit_not_clean`, exit 2).\n\nThe session is \
`--code`, else this conversation's, else the only active one. A closed session is accepted, and \
so is the folder name of a session that is gone, so the `release` command `aw worktree list` \
prints for an orphan works."
    )]
    Release(UnitArgs),
    #[command(
        about = "Merge a session's units into their sources' working branches, then remove them.",
        long_about = "Merge a session's units back: each unit's branch is merged (never \
rebased; a fast-forward when possible) into its source's working branch, in the source's own \
checkout, under the workspace lock; the unit is then removed (its branch kept). With `--source`, \
that unit alone; without, every unit of the session in alias order, a refusal of one not \
stopping the others (`{session, plan, results, integrated, pending, next}`).\n\nA conflict stops \
that merge with the files named (`integrated: false`, `conflicted`), leaves the merge in \
progress for you to finish and the unit intact, and exits 0: after you commit the merge, \
integrate again. Refusals (exit 2): `unit_absent`, `unit_not_committed` (commit in the unit \
first), `checkout_dirty`, `checkout_off_branch` (integration never switches branches), \
`integration_locked`.\n\nThe session is `--code`, else this conversation's, else the only \
active one; a closed session is refused (`session_unresolved`): reopen it first."
    )]
    Integrate(UnitArgs),
}

// Arguments of `aw worktree ensure | release | integrate`.
#[derive(Debug, Args)]
pub struct UnitArgs {
    /// The source's alias (a row of the project block's sources).
    #[arg(long, value_name = "ALIAS")]
    pub source: Option<String>,
    /// The session: a number, a folder name or a unique folder prefix.
    #[arg(long, value_name = "SESSION")]
    pub code: Option<String>,
    /// Same as `--code`.
    #[arg(long, value_name = "SESSION")]
    pub session: Option<String>,
}

/// Runs a `worktree` verb.
pub fn dispatch(cmd: &WorktreeCommand, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    match cmd {
        WorktreeCommand::List(args) => list::run(args, cx),
        WorktreeCommand::Ensure(args) => ensure::run(args, cx),
        WorktreeCommand::Release(args) => release::run(args, cx),
        WorktreeCommand::Integrate(args) => integrate::run(args, cx),
    }
}

/// The user's home folder, where the units root is (`~/.<ns>/worktrees`).
fn home(cx: &Ctx<'_>) -> Result<std::path::PathBuf, Failure> {
    cx.home().ok_or_else(|| {
        Failure::new(
            ErrorCode::HomeUnset,
            "HOME is not set, so aw cannot find the units root (`~/.<ns>/worktrees`).",
            "Set HOME to your home folder and run the command again.",
        )
    })
}

/// A refusal printed as the verb's result, exit 2.
fn refused<T: serde::Serialize + crate::views::View>(model: &T, style: &Style) -> Outcome {
    Outcome::shown(model, style).with_exit(2)
}

/// What every verb but `list` starts from: the workspace, the block, and the session resolved
/// with write intent (never bound, never closed).
struct Start {
    ws: Workspace,
    home: std::path::PathBuf,
    block: Block,
    listing: Vec<aw_core::session::folder::SessionFolder>,
}

impl Start {
    fn read(cx: &Ctx<'_>) -> Result<Self, Failure> {
        let ws = cx.workspace()?;
        let home = home(cx)?;
        let block = ProjectFiles::read(&ws.root)?
            .block(&ws.ns)
            .unwrap_or_default();
        let listing = sessions::list(&ws)?;
        Ok(Start {
            ws,
            home,
            block,
            listing,
        })
    }

    /// The session a unit verb acts on: `--code`, else the conversation's, else the only
    /// active one (a closed one too with `allow_closed`); a session the resolver refuses is
    /// the `session_unresolved` refusal.
    fn session(
        &self,
        args: &UnitArgs,
        allow_closed: bool,
    ) -> Result<Result<Resolved, Refusal>, Failure> {
        let code = session_or_code(&args.session, &args.code).map_err(Failure::with_error_data)?;
        let cid = from_env();
        let req = Request {
            code,
            allow_closed,
            bind: false,
            context_id: cid.as_deref(),
            intent: Intent::Write,
        };
        match resolver::resolve_in(&self.ws, &self.listing, &req) {
            Ok(r) => Ok(Ok(r)),
            Err(e @ (WorkspaceError::Session(_) | WorkspaceError::Refused { .. })) => Ok(Err(
                refusal::session_unresolved(&e.to_string(), &e.action()),
            )),
            Err(e) => Err(e.into()),
        }
    }
}
