//! `aw set-working-branch <alias> <branch>`: records the branch a source is being worked on, in
//! the project block of CLAUDE.md and AGENTS.md, under the workspace lock.
//!
//! As in the reference, the alias need not be a declared source (a later `workspace-init`
//! prunes branch lines of aliases that are not sources).

use super::{BranchList, SetBranchArgs, set_branch};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;

/// Runs the command.
pub fn run(args: &SetBranchArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    set_branch("set-working-branch", BranchList::Working, args, cx)
}
