//! Why an `aw worktree` verb did not do what it was asked, in one place: the reference's `error`
//! ids (which scripts match on) and aw's own words for the message and the hint. A refusal is
//! printed as the verb's result with exit 2, not as a failure envelope.

use schemars::JsonSchema;
use serde::Serialize;

/// The `error` id of a refusal, as the reference spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RefusalKind {
    /// The project block declares no source (or cannot be read).
    NoSourcesDeclared,
    /// A verb that acts on one source was not told which.
    AliasRequired,
    /// `--source` names no declared source.
    UnknownSource,
    /// The session could not be resolved (or is closed).
    SessionUnresolved,
    /// The source's folder is not a git repository.
    NotARepo,
    /// The unit's branch is checked out in another worktree of the source.
    UnitOccupied,
    /// `git worktree add` failed.
    WorktreeAddFailed,
    /// The session's custody record cannot be read.
    CustodyUnreadable,
    /// `git worktree remove` refused (uncommitted or untracked files).
    UnitNotClean,
    /// The session holds no unit of that source.
    UnitAbsent,
    /// The unit has uncommitted changes.
    UnitNotCommitted,
    /// The source's own checkout has uncommitted changes (or a merge in progress).
    CheckoutDirty,
    /// The source's own checkout is not on the branch the unit merges into.
    CheckoutOffBranch,
    /// The workspace lock was not obtained in time.
    IntegrationLocked,
    /// git failed to merge for a reason other than a conflict (aw's own id; the reference
    /// crashes with `UNHANDLED`): the merge was undone.
    MergeFailed,
    /// aw could not finish one unit of a whole session's integration (aw's own id): the others
    /// went on.
    UnitFailed,
}

/// The worktree a unit's branch is checked out in, when it is not the unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Occupant {
    /// Its folder, as git reports it.
    pub path: String,
    /// The branch checked out there.
    pub branch: String,
}

/// A refusal: `{error, message, hint?, occupant?}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The id.
    pub error: RefusalKind,
    /// What happened.
    pub message: String,
    /// What to do (`not_a_repo` has none, as in the reference).
    pub hint: Option<String>,
    /// Who holds the branch (`unit_occupied` only).
    pub occupant: Option<Occupant>,
}

fn refusal(error: RefusalKind, message: String, hint: impl Into<String>) -> Refusal {
    Refusal {
        error,
        message,
        hint: Some(hint.into()),
        occupant: None,
    }
}

fn listed(aliases: &[&str]) -> String {
    if aliases.is_empty() {
        "none".to_owned()
    } else {
        aliases.join(", ")
    }
}

/// The project block declares no source.
pub fn no_sources_declared() -> Refusal {
    refusal(
        RefusalKind::NoSourcesDeclared,
        "The project block declares no source, so there is no repository to make a unit of."
            .to_owned(),
        "Declare the source first (`aw workspace-init --source <alias>:<path>` or the block's \
         `## Fuentes` table), then run the command again.",
    )
}

/// `--source` was needed and not given.
pub fn alias_required(aliases: &[&str]) -> Refusal {
    refusal(
        RefusalKind::AliasRequired,
        "A unit belongs to one source, and no source was named.".to_owned(),
        format!("Pass `--source` with one of: {}.", listed(aliases)),
    )
}

/// `--source` names no declared source.
pub fn unknown_source(alias: &str, aliases: &[&str]) -> Refusal {
    refusal(
        RefusalKind::UnknownSource,
        format!("'{alias}' is not a source the project block declares."),
        format!("Declared sources: {}.", listed(aliases)),
    )
}

/// The session resolver refused: `why` is its message, `action` its next step.
pub fn session_unresolved(why: &str, action: &str) -> Refusal {
    refusal(
        RefusalKind::SessionUnresolved,
        format!(
            "A unit belongs to an active session, and none could be used: {}.",
            why.trim().trim_end_matches('.')
        ),
        action.trim().to_owned(),
    )
}

/// The source's folder is not a git repository (no hint, as in the reference).
pub fn not_a_repo(alias: &str, path: &str) -> Refusal {
    Refusal {
        error: RefusalKind::NotARepo,
        message: format!("The source '{alias}' ({path}) is not a git repository."),
        hint: None,
        occupant: None,
    }
}

/// The unit's branch is checked out elsewhere.
pub fn unit_occupied(branch: &str, occupant: Occupant) -> Refusal {
    Refusal {
        error: RefusalKind::UnitOccupied,
        message: format!(
            "The branch {branch} is checked out in {}, and git lets a branch live in one \
             worktree at a time.",
            occupant.path
        ),
        hint: Some(
            "Switch that worktree to another branch (or remove it with `git worktree remove`), \
             then run the command again."
                .to_owned(),
        ),
        occupant: Some(occupant),
    }
}

/// `git worktree add` failed: `git_error` is git's first line, `base` the branch the unit was
/// to start from.
pub fn worktree_add_failed(
    alias: &str,
    source_path: &str,
    branch: &str,
    base: &str,
    git_error: &str,
) -> Refusal {
    refusal(
        RefusalKind::WorktreeAddFailed,
        format!("git could not add the worktree {branch} in {source_path}: {git_error}"),
        format!(
            "Check that the base branch '{base}' exists in {alias} (set another with `aw \
             set-working-branch {alias} <branch>`), then run the command again."
        ),
    )
}

/// The session's custody record cannot be read: no unit is made without its baseline.
pub fn custody_unreadable(folder: &str, why: &str) -> Refusal {
    refusal(
        RefusalKind::CustodyUnreadable,
        format!(
            "The custody record of {folder} cannot be read ({why}), so no unit was made: its \
             baseline could not be recorded."
        ),
        format!(
            "Repair or remove .custody.json in the session folder {folder}, then run the \
             command again."
        ),
    )
}

/// `git worktree remove` refused.
pub fn unit_not_clean(path: &str, git_error: &str) -> Refusal {
    refusal(
        RefusalKind::UnitNotClean,
        format!("git would not remove the unit {path}: {git_error}"),
        "Commit or discard the unit's changes, then release it again: aw never removes a unit \
         by force.",
    )
}

/// The unit's checkout is not on its own branch: commits made there would be lost when the
/// unit is removed. `error` is `error_kind` (`unit_not_committed` for integrate,
/// `unit_not_clean` for release).
pub fn unit_off_branch(error_kind: RefusalKind, path: &str, branch: &str) -> Refusal {
    refusal(
        error_kind,
        format!(
            "The unit {path} is not on its branch {branch}: integrating merges {branch} alone, \
             and removing the unit would drop whatever its checkout holds besides."
        ),
        format!(
            "In the unit, put that work on {branch} (`git switch {branch}`, then merge or \
             cherry-pick what you made elsewhere), then run the command again."
        ),
    )
}

/// git failed to merge for a reason other than a conflict; `undone` says whether the merge
/// left in progress was aborted.
pub fn merge_failed(
    alias: &str,
    branch: &str,
    into: &str,
    git_error: &str,
    undone: bool,
) -> Refusal {
    let state = if undone {
        "the half-done merge was aborted, so the checkout is as it was"
    } else {
        "nothing was merged"
    };
    refusal(
        RefusalKind::MergeFailed,
        format!("git could not merge {branch} into {into} in {alias}: {git_error} ({state})."),
        format!(
            "Fix what git names (a hook, an identity to commit with), check the checkout with \
             `git status` in {alias}, then integrate again."
        ),
    )
}

/// aw itself failed on one unit of a whole session's integration.
pub fn unit_failed(alias: &str, why: &str, action: &str) -> Refusal {
    refusal(
        RefusalKind::UnitFailed,
        format!("The unit of {alias} was not integrated: {why}."),
        action.to_owned(),
    )
}

/// The session holds no unit of the source.
pub fn unit_absent(alias: &str, folder: &str) -> Refusal {
    refusal(
        RefusalKind::UnitAbsent,
        format!("Session {folder} holds no unit of the source '{alias}'."),
        format!("Make one with `aw worktree ensure --source {alias} --code {folder}`."),
    )
}

/// The unit has uncommitted changes.
pub fn unit_not_committed(folder: &str) -> Refusal {
    refusal(
        RefusalKind::UnitNotCommitted,
        format!("The unit of {folder} has uncommitted changes."),
        "Commit the flow's work in the unit, then integrate it: only commits are merged.",
    )
}

/// The source's checkout has uncommitted changes (or an unfinished merge).
pub fn checkout_dirty(alias: &str) -> Refusal {
    refusal(
        RefusalKind::CheckoutDirty,
        format!("The checkout of {alias} has uncommitted changes (or a merge still in progress)."),
        "Commit or stash them (or finish the merge), then integrate again: the unit's work is \
         never mixed with changes nobody committed.",
    )
}

/// The source's checkout is on `current`, not on `into`.
pub fn checkout_off_branch(alias: &str, current: &str, into: &str) -> Refusal {
    refusal(
        RefusalKind::CheckoutOffBranch,
        format!("The checkout of {alias} is on '{current}', and the unit merges into '{into}'."),
        format!(
            "Check out '{into}' in {alias}, then integrate again: integration never switches \
             branches on its own."
        ),
    )
}

/// The workspace lock stayed busy.
pub fn integration_locked() -> Refusal {
    refusal(
        RefusalKind::IntegrationLocked,
        "Another aw command held the workspace lock for 10 seconds, so nothing was merged."
            .to_owned(),
        "Run the command again in a moment.",
    )
}
