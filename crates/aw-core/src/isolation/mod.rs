//! Isolation units: one `git worktree` of one source, owned by one session, on a branch of its
//! own. There is no registry of them: a unit's path names its workspace, source and session, and
//! `git worktree list` run in the source is the live inventory. This module holds the rules
//! (the workspace key, reading a unit out of a path and out of git's porcelain, whether a listed
//! unit is live or an orphan, what `ensure` and `integrate` decide, and the verbs' refusals);
//! the shell runs git and reads the sessions folder.

pub mod integration;
pub mod refusal;
pub mod unit_check;
pub mod units;
