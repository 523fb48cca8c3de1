//! `aw worktree <verb>`: isolation units, one `git worktree` of one source per session, on the
//! branch `aw/<session>`. `list` reads them; `ensure`, `release` and `integrate` are refused
//! (`WORKTREE_UNSUPPORTED`) until this aw creates and integrates units.

pub mod integrate;
pub mod list;

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::error_code::ErrorCode;
use clap::{Args, Subcommand};

/// The one-line summary of `aw worktree`.
pub const ABOUT: &str = "Isolation units: list each session's git worktree of a source (`ensure` and the rest refused).";

/// The `worktree` verbs.
#[derive(Debug, Subcommand)]
// A verb's arguments are built only when that verb runs, which keeps start-up small.
#[command(defer = true)]
pub enum WorktreeCommand {
    // `about` rather than a doc comment, which would reset the verb's long help.
    #[command(about = "List the workspace's isolation units and orphans (read-only).")]
    List(list::ListArgs),
    #[command(
        about = "Refused: this aw does not create isolation units yet.",
        long_about = "Refused with `WORKTREE_UNSUPPORTED`: this aw does not create isolation \
units yet. In the reference, `ensure` gives a session its own `git worktree` of a source at \
`~/.<ns>/worktrees/<workspace key>/<alias>/<session>` on the branch `aw/<session>`.\n\nRun the \
plan with the scope `workspace` alone (its changes made in the workspace's own checkout), or make \
the worktree by hand with `git worktree add`; `aw worktree list` shows it."
    )]
    Ensure(UnitArgs),
    #[command(
        about = "Refused: this aw does not release isolation units yet.",
        long_about = "Refused with `WORKTREE_UNSUPPORTED`: this aw does not release isolation \
units yet. In the reference, `release` removes a session's worktree of a source (never forced) \
and keeps its branch.\n\nRemove a unit by hand with `git worktree remove <path>` in its source; \
`aw worktree list` shows each unit's path."
    )]
    Release(UnitArgs),
    #[command(
        about = "Integrate a session's units: nothing to merge when it holds none (units refused).",
        long_about = "Merge a session's isolation units into their sources. This aw creates no \
unit, so it integrates only the case a run scoped to the workspace alone meets: a session with \
no live unit has nothing to merge (`{session, plan, results: [], integrated: [], pending: [], \
next: null}`, exit 0). A session that holds units is refused with `WORKTREE_UNSUPPORTED`: merge \
a unit's branch by hand with `git merge aw/<session>` in the source's checkout. `--source` naming \
a source with no unit of the session prints `{\"error\": \"unit_absent\", …}` (exit 2).\n\nThe \
session is `--code`, else this conversation's, else the only active one; a closed session is \
refused (`session_unresolved`, exit 2)."
    )]
    Integrate(UnitArgs),
}

// Arguments of `aw worktree ensure | release | integrate`, accepted so that a line written for
// the reference is refused for what it asks, not for how it is spelled.
#[derive(Debug, Args)]
pub struct UnitArgs {
    /// The source's alias.
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
        WorktreeCommand::Ensure(_) => Err(unsupported("ensure")),
        WorktreeCommand::Release(_) => Err(unsupported("release")),
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

/// The refusal of a verb this aw does not offer yet.
pub(crate) fn unsupported(verb: &str) -> Failure {
    Failure::new(
        ErrorCode::WorktreeUnsupported,
        format!(
            "`aw worktree {verb}` is not available: this aw lists isolation units (`aw worktree list`) but does not create, release or integrate them yet."
        ),
        "Run the plan with the scope `workspace` alone, so its changes are made in the workspace's own checkout; a unit made by hand (`git worktree add -b aw/<session> <path>`, at the path `aw worktree list` reads) is listed, and is merged and removed with git itself.",
    )
}
