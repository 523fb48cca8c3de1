//! `aw worktree list [--code <session>]`: the workspace's isolation units (live, orphaned, and
//! the sources whose worktrees could not be read), in the reference's keys; or, when `--code`
//! names no session, the reference's refusal payload (printed as a result, exit 2).

use crate::isolation::refusal::{Occupant, Refusal, RefusalKind};
use crate::isolation::units::{Inventory, LiveUnit, Orphan, OrphanReason, Unreadable};
use schemars::JsonSchema;
use serde::Serialize;

/// The output of `aw worktree list`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum WorktreeList<'a> {
    /// The listing.
    Listed(UnitList<'a>),
    /// `--code` could not be resolved (exit 2).
    Refused(WorktreeRefusal),
}

/// Every unit of the workspace, or of one session.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitList<'a> {
    /// The workspace's key among the units (`<slug>-<hex8>`).
    pub workspace_key: &'a str,
    /// The live units: their session exists and is open, their folder is there.
    pub units: Vec<ListedUnit<'a>>,
    /// The units nobody works in any more.
    pub orphans: Vec<OrphanUnit<'a>>,
    /// The sources whose worktrees git could not list: their units are in neither list.
    pub unreadable: Vec<UnreadableSource<'a>>,
    /// The session folder the list is narrowed to (only with `--code`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<&'a str>,
}

/// A live unit.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListedUnit<'a> {
    /// The source's alias.
    pub alias: &'a str,
    /// The source's path as the project block writes it.
    pub source_path: &'a str,
    /// The session's folder.
    pub session: &'a str,
    /// The unit's folder.
    pub path: &'a str,
    /// Its branch (`aw/<session>` for a detached unit).
    pub branch: &'a str,
    /// Always `false`: a listing creates nothing.
    #[schemars(extend("const" = false))]
    pub created: bool,
    /// Always `true`: an inactive session's unit is an orphan.
    #[schemars(extend("const" = true))]
    pub session_active: bool,
    /// Whether it has uncommitted changes; `null` when git could not say.
    pub dirty: Option<bool>,
    /// Its HEAD commit; `null` when git reported none.
    pub head: Option<&'a str>,
}

/// An orphaned unit.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OrphanUnit<'a> {
    /// The source's alias.
    pub alias: &'a str,
    /// The session folder its path names.
    pub session: &'a str,
    /// Its folder.
    pub path: &'a str,
    /// Its branch; `null` when detached.
    pub branch: Option<&'a str>,
    /// Why it is an orphan: `directory_missing`, `session_absent` or `session_closed`.
    pub reason: OrphanReason,
    /// The command that gives it back (`aw worktree release`).
    pub release: &'a str,
}

/// A source whose worktrees could not be read.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnreadableSource<'a> {
    /// The source's alias.
    pub alias: &'a str,
    /// What went wrong.
    pub error: &'a str,
}

/// A verb's refusal, printed as its result with exit 2: `{error, message, hint?, occupant?}`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WorktreeRefusal {
    /// Why, as the reference spells it.
    pub error: RefusalKind,
    /// What happened.
    pub message: String,
    /// What to do (absent for `not_a_repo`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// The worktree holding the unit's branch (`unit_occupied` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub occupant: Option<Occupant>,
}

impl From<Refusal> for WorktreeRefusal {
    fn from(r: Refusal) -> Self {
        WorktreeRefusal {
            error: r.error,
            message: r.message,
            hint: r.hint,
            occupant: r.occupant,
        }
    }
}

/// Whether the unit's folder is listed in the workspace's host settings (Claude Code's extra
/// directories, Codex's writable roots), as `attach-multiroot` / `detach-multiroot` would.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum UnitVisibility {
    /// Listed (`ensure`).
    Attached,
    /// Withdrawn (`release`).
    Detached,
    /// The host settings could not be updated.
    Unavailable,
}

/// `aw worktree ensure`'s result: the unit, or a refusal.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum WorktreeEnsure {
    /// The unit, made now or found made.
    Ensured(EnsuredUnit),
    /// Refused (exit 2).
    Refused(WorktreeRefusal),
}

/// A session's unit of a source.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EnsuredUnit {
    /// The source's alias.
    pub alias: String,
    /// The source's path as the project block writes it.
    pub source_path: String,
    /// The session's folder.
    pub session: String,
    /// The unit's folder.
    pub path: String,
    /// Its branch, `aw/<session>`.
    pub branch: String,
    /// Whether this call made it (`false`: it was there).
    pub created: bool,
    /// Whether the hosts see its folder.
    pub visibility: UnitVisibility,
}

/// `aw worktree release`'s result: the unit removed (or already gone), or a refusal.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum WorktreeRelease {
    /// Released, or nothing to release.
    Released(ReleasedUnit),
    /// Refused (exit 2).
    Refused(WorktreeRefusal),
}

/// A released unit (its branch is kept).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReleasedUnit {
    /// The source's alias.
    pub alias: String,
    /// The session's folder.
    pub session: String,
    /// The unit's folder.
    pub path: String,
    /// Its branch, kept.
    pub branch: String,
    /// Whether a worktree was removed now (`false`: there was none).
    pub released: bool,
    /// Whether the hosts' settings were updated.
    pub visibility: UnitVisibility,
}

/// One unit merged into its source's working branch.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitIntegration {
    /// The source's alias.
    pub alias: String,
    /// The source's path as the project block writes it.
    pub source_path: String,
    /// The session's folder.
    pub session: String,
    /// The branch merged into (the source's working branch).
    pub into: String,
    /// The unit's branch.
    pub branch: String,
    /// Whether the merge completed.
    pub integrated: bool,
    /// The files git left in conflict (the merge is left in progress for the person).
    pub conflicted: Vec<String>,
    /// Whether the unit was removed after the merge.
    pub released: bool,
    /// What to run next; `null` when the unit is in and released.
    pub next: Option<String>,
    /// Why the merge could not be recorded in the session's custody (aw's own key, present only
    /// then): the merge stands, and a later retirement will not know of it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub custody_error: Option<String>,
}

/// A unit a whole-session integration could not take: the refusal and the source's alias.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RefusedUnit {
    /// Why, as the reference spells it.
    pub error: RefusalKind,
    /// What happened.
    pub message: String,
    /// What to do.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// The worktree holding the unit's branch (never set here).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub occupant: Option<Occupant>,
    /// The source's alias.
    pub alias: String,
}

/// One entry of a whole-session integration's `results`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum UnitOutcome {
    /// Merged (or left in conflict).
    Merged(UnitIntegration),
    /// Refused.
    Refused(RefusedUnit),
}

impl RefusedUnit {
    /// The refusal `r` of `alias`'s unit.
    pub fn of(alias: &str, r: Refusal) -> Self {
        RefusedUnit {
            error: r.error,
            message: r.message,
            hint: r.hint,
            occupant: r.occupant,
            alias: alias.to_owned(),
        }
    }
}

impl<'a> UnitList<'a> {
    /// The listing of `inv`, narrowed to `session` when one was named.
    pub fn of(inv: &'a Inventory, session: Option<&'a str>) -> Self {
        UnitList {
            workspace_key: &inv.workspace_key,
            units: inv.units.iter().map(ListedUnit::of).collect(),
            orphans: inv.orphans.iter().map(OrphanUnit::of).collect(),
            unreadable: inv.unreadable.iter().map(UnreadableSource::of).collect(),
            session,
        }
    }
}

impl<'a> ListedUnit<'a> {
    fn of(u: &'a LiveUnit) -> Self {
        ListedUnit {
            alias: &u.alias,
            source_path: &u.source_path,
            session: &u.session,
            path: &u.path,
            branch: &u.branch,
            created: false,
            session_active: true,
            dirty: u.dirty,
            head: u.head.as_deref(),
        }
    }
}

impl<'a> OrphanUnit<'a> {
    fn of(o: &'a Orphan) -> Self {
        OrphanUnit {
            alias: &o.alias,
            session: &o.session,
            path: &o.path,
            branch: o.branch.as_deref(),
            reason: o.reason,
            release: &o.release,
        }
    }
}

impl<'a> UnreadableSource<'a> {
    fn of(u: &'a Unreadable) -> Self {
        UnreadableSource {
            alias: &u.alias,
            error: &u.error,
        }
    }
}

/// `aw worktree integrate`'s output for a whole session (no `--source`): each unit in alias
/// order, what was merged, what is pending, and the next command.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SessionIntegration {
    /// The session folder.
    pub session: String,
    /// The plan the session's run scoped, if any.
    pub plan: Option<String>,
    /// One entry per unit, in alias order.
    pub results: Vec<UnitOutcome>,
    /// The aliases merged and released.
    pub integrated: Vec<String>,
    /// The aliases left to integrate.
    pub pending: Vec<String>,
    /// The next command, `null` when nothing is pending.
    pub next: Option<String>,
}

/// `aw worktree integrate`'s result.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum WorktreeIntegrate {
    /// A whole session's integration (no `--source`).
    Session(SessionIntegration),
    /// One unit's integration (`--source`).
    Unit(UnitIntegration),
    /// Refused (exit 2).
    Refused(WorktreeRefusal),
}
