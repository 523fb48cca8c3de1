//! `aw worktree list [--code <session>]`: the workspace's isolation units (live, orphaned, and
//! the sources whose worktrees could not be read), in the reference's keys; or, when `--code`
//! names no session, the reference's refusal payload (printed as a result, exit 2).

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
    /// The reference's command to give it back (aw does not offer `release` yet).
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

/// The refusal of a `--code` that names no session: printed as the result, exit 2.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WorktreeRefusal {
    /// `session_unresolved`, or (`integrate --source`) `unit_absent`.
    #[schemars(extend("enum" = ["session_unresolved", "unit_absent"]))]
    pub error: &'static str,
    /// What could not be resolved, and why.
    pub message: String,
    /// What to do.
    pub hint: String,
}

/// The refusal's `error`.
pub const SESSION_UNRESOLVED: &str = "session_unresolved";

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

/// `aw worktree integrate`'s output for a whole session (no `--source`): what was merged, what
/// is pending, and the next command. This aw integrates nothing yet: a session with no live
/// unit gives empty lists, one with units is refused (`WORKTREE_UNSUPPORTED`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SessionIntegration<'a> {
    /// The session folder.
    pub session: &'a str,
    /// The plan the session's run scoped, if any.
    pub plan: Option<&'a str>,
    /// One entry per unit processed (none: the session holds no unit).
    pub results: Vec<UnitOutcome>,
    /// The aliases merged and released.
    pub integrated: Vec<String>,
    /// The aliases left to integrate.
    pub pending: Vec<String>,
    /// The next command, `null` when nothing is pending.
    pub next: Option<String>,
}

/// One unit's integration (never produced by this aw yet).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitOutcome {
    /// The source's alias.
    pub alias: String,
    /// Whether it was merged.
    pub integrated: bool,
}

/// `aw worktree integrate`'s result: the session's integration, or a refusal printed as the
/// result (exit 2).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum WorktreeIntegrate<'a> {
    /// The session's integration.
    Session(SessionIntegration<'a>),
    /// The session could not be resolved, or the named source has no unit.
    Refused(WorktreeRefusal),
}

/// The refusal's `error` when the named source has no unit of the session.
pub const UNIT_ABSENT: &str = "unit_absent";
