//! What the `aw worktree` verbs decide from what git reported: the branch a unit starts from
//! and merges into, whether `ensure` finds the unit made, taken or free, the order of
//! `integrate`'s preconditions, and how a whole session's integration is summed up.

use super::refusal::{self, Occupant, Refusal};
use super::units::WorktreeEntry;
use crate::project::model::{Block, Source};
use crate::vocab::collate::locale_cmp;

/// The default-branches role whose branch a unit starts from when the source has no working
/// branch.
const DEVELOPMENT_ROLE: &str = "desarrollo";

/// The branch used when the block names neither.
pub const FALLBACK_BASE: &str = "development";

/// The source's working branch: its entry under the block's working branches, else the
/// `desarrollo` default branch, else `development`. A unit starts from it and merges back into
/// it.
pub fn working_branch(block: &Block, alias: &str) -> String {
    block
        .working_branches
        .get(alias)
        .or_else(|| block.default_branches.get(DEVELOPMENT_ROLE))
        .unwrap_or(FALLBACK_BASE)
        .to_owned()
}

/// The source a verb acts on, checked in the reference's order: the block declares sources,
/// then the name given is declared. `Ok(None)`: none was named (a whole session's
/// integration).
pub fn pick_source<'a>(
    sources: &'a [Source],
    alias: Option<&str>,
) -> Result<Option<&'a Source>, Refusal> {
    if sources.is_empty() {
        return Err(refusal::no_sources_declared());
    }
    let Some(alias) = alias else {
        return Ok(None);
    };
    match sources.iter().find(|s| s.alias == alias) {
        Some(s) => Ok(Some(s)),
        None => {
            let aliases: Vec<&str> = sources.iter().map(|s| s.alias.as_str()).collect();
            Err(refusal::unknown_source(alias, &aliases))
        }
    }
}

/// [`pick_source`] for the verbs that act on one source: naming none is `alias_required`.
pub fn require_source<'a>(
    sources: &'a [Source],
    alias: Option<&str>,
) -> Result<&'a Source, Refusal> {
    match pick_source(sources, alias)? {
        Some(s) => Ok(s),
        None => {
            let aliases: Vec<&str> = sources.iter().map(|s| s.alias.as_str()).collect();
            Err(refusal::alias_required(&aliases))
        }
    }
}

/// Where `ensure` stands once git listed the source's worktrees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ensure {
    /// The unit is listed at its path: nothing to make.
    Present,
    /// Another worktree has the unit's branch checked out.
    Occupied(Occupant),
    /// The unit can be added.
    Free,
}

/// Decides `ensure` from the source's worktrees (`unit_path` in its real spelling, as git lists
/// paths).
pub fn ensure(entries: &[WorktreeEntry], unit_path: &str, branch: &str) -> Ensure {
    if entries.iter().any(|e| e.path == unit_path) {
        return Ensure::Present;
    }
    match entries.iter().find(|e| e.branch.as_deref() == Some(branch)) {
        Some(e) => Ensure::Occupied(Occupant {
            path: e.path.clone(),
            branch: branch.to_owned(),
        }),
        None => Ensure::Free,
    }
}

/// What `integrate` observed before merging one unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Readiness<'a> {
    /// The source's alias.
    pub alias: &'a str,
    /// The session folder.
    pub folder: &'a str,
    /// Whether the session has a live unit of the source.
    pub unit_present: bool,
    /// Whether the unit's `git status` is empty (`None`: git could not say).
    pub unit_clean: Option<bool>,
    /// Whether the source's checkout's `git status` is empty (`None`: git could not say).
    pub checkout_clean: Option<bool>,
    /// The branch the checkout is on (`None`: detached or unknown).
    pub checkout_branch: Option<&'a str>,
    /// The branch the unit merges into.
    pub into: &'a str,
}

/// The first precondition of `integrate` that fails, in the reference's order: the unit
/// exists, it is committed, the checkout is clean, the checkout is on the branch merged into.
/// A status git could not give counts as not clean: a merge is never started on a guess.
pub fn integrate_refusal(r: &Readiness<'_>) -> Option<Refusal> {
    if !r.unit_present {
        return Some(refusal::unit_absent(r.alias, r.folder));
    }
    if r.unit_clean != Some(true) {
        return Some(refusal::unit_not_committed(r.folder));
    }
    if r.checkout_clean != Some(true) {
        return Some(refusal::checkout_dirty(r.alias));
    }
    if r.checkout_branch != Some(r.into) {
        return Some(refusal::checkout_off_branch(
            r.alias,
            r.checkout_branch.unwrap_or("a detached HEAD"),
            r.into,
        ));
    }
    None
}

/// The command a person runs after resolving a merge conflict by hand.
pub fn conflict_next(source_path: &str) -> String {
    format!("aw fix-git --path {source_path}")
}

/// The command that integrates one unit of a session.
pub fn integrate_command(alias: &str, folder: &str) -> String {
    format!("aw worktree integrate --source {alias} --code {folder}")
}

/// The command that reopens a closed session (to integrate its units).
pub fn reopen_command(folder: &str) -> String {
    format!("aw session-resume --code {folder} --reopen")
}

/// The aliases of a session's units in the order a whole-session integration takes them (the
/// reference's `localeCompare`).
pub fn integration_order(mut aliases: Vec<&str>) -> Vec<&str> {
    aliases.sort_by(|a, b| locale_cmp(a, b));
    aliases
}

/// One unit's part in a whole-session integration, as the summary needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnitResult<'a> {
    /// Merged and released.
    Integrated,
    /// Merged in conflict: the person finishes the merge (`next` is [`conflict_next`]).
    Conflicted {
        /// What to run next.
        next: &'a str,
    },
    /// Refused, or merged but not released.
    Pending,
}

/// `integrated`, `pending` and `next` of a whole-session integration, from each unit's result
/// in order: the first pending alias decides `next` (its conflict's command, else the command
/// that integrates it alone).
pub fn summarize(
    folder: &str,
    results: &[(&str, UnitResult<'_>)],
) -> (Vec<String>, Vec<String>, Option<String>) {
    let mut integrated = Vec::new();
    let mut pending = Vec::new();
    let mut next = None;
    for (alias, result) in results {
        match result {
            UnitResult::Integrated => integrated.push((*alias).to_owned()),
            UnitResult::Conflicted { next: n } => {
                next.get_or_insert_with(|| (*n).to_owned());
                pending.push((*alias).to_owned());
            }
            UnitResult::Pending => {
                next.get_or_insert_with(|| integrate_command(alias, folder));
                pending.push((*alias).to_owned());
            }
        }
    }
    (integrated, pending, next)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isolation::refusal::RefusalKind;

    fn entry(path: &str, branch: Option<&str>, main: bool) -> WorktreeEntry {
        WorktreeEntry {
            path: path.to_owned(),
            head: None,
            branch: branch.map(str::to_owned),
            main,
            prunable: false,
        }
    }

    #[test]
    fn the_working_branch_then_the_development_role_then_development() {
        let mut block = Block::default();
        assert_eq!(working_branch(&block, "app"), "development");
        block.default_branches.set("desarrollo", "develop");
        assert_eq!(working_branch(&block, "app"), "develop");
        block.working_branches.set("app", "dev");
        assert_eq!(working_branch(&block, "app"), "dev");
        assert_eq!(working_branch(&block, "other"), "develop");
    }

    #[test]
    fn sources_then_a_name_then_a_declared_name() {
        let app = Source {
            alias: "app".to_owned(),
            path: "../app".to_owned(),
            main_branch: None,
        };
        let kind = |r: Result<Option<&Source>, Refusal>| {
            r.map_err(|e| e.error).map(|s| s.map(|s| s.alias.clone()))
        };
        assert_eq!(
            kind(pick_source(&[], None)),
            Err(RefusalKind::NoSourcesDeclared)
        );
        assert_eq!(
            require_source(&[], None).unwrap_err().error,
            RefusalKind::NoSourcesDeclared
        );
        let all = [app];
        assert_eq!(
            require_source(&all, None).unwrap_err().error,
            RefusalKind::AliasRequired
        );
        assert_eq!(kind(pick_source(&all, None)), Ok(None));
        assert_eq!(
            kind(pick_source(&all, Some("web"))),
            Err(RefusalKind::UnknownSource)
        );
        assert_eq!(require_source(&all, Some("app")).unwrap().alias, "app");
        let hint = require_source(&all, None).unwrap_err().hint.unwrap();
        assert!(hint.contains("app"), "{hint}");
    }

    #[test]
    fn ensure_finds_the_unit_made_its_branch_taken_or_free() {
        let entries = vec![
            entry("/src/app", Some("main"), true),
            entry("/u/k/app/001-x", Some("aw/001-x"), false),
        ];
        assert_eq!(
            ensure(&entries, "/u/k/app/001-x", "aw/001-x"),
            Ensure::Present
        );
        assert_eq!(ensure(&entries, "/u/k/app/002-y", "aw/002-y"), Ensure::Free);
        let taken = vec![entry("/src/app", Some("aw/002-y"), true)];
        assert_eq!(
            ensure(&taken, "/u/k/app/002-y", "aw/002-y"),
            Ensure::Occupied(Occupant {
                path: "/src/app".to_owned(),
                branch: "aw/002-y".to_owned()
            })
        );
    }

    #[test]
    fn integrate_checks_its_preconditions_in_the_references_order() {
        let ready = Readiness {
            alias: "app",
            folder: "001-x",
            unit_present: true,
            unit_clean: Some(true),
            checkout_clean: Some(true),
            checkout_branch: Some("dev"),
            into: "dev",
        };
        assert_eq!(integrate_refusal(&ready), None);
        let kind = |r: Readiness<'_>| integrate_refusal(&r).map(|x| x.error);
        assert_eq!(
            kind(Readiness {
                unit_present: false,
                unit_clean: None,
                checkout_clean: None,
                ..ready.clone()
            }),
            Some(RefusalKind::UnitAbsent)
        );
        assert_eq!(
            kind(Readiness {
                unit_clean: Some(false),
                checkout_clean: Some(false),
                ..ready.clone()
            }),
            Some(RefusalKind::UnitNotCommitted)
        );
        assert_eq!(
            kind(Readiness {
                unit_clean: None,
                ..ready.clone()
            }),
            Some(RefusalKind::UnitNotCommitted)
        );
        assert_eq!(
            kind(Readiness {
                checkout_clean: Some(false),
                checkout_branch: Some("main"),
                ..ready.clone()
            }),
            Some(RefusalKind::CheckoutDirty)
        );
        assert_eq!(
            kind(Readiness {
                checkout_branch: Some("main"),
                ..ready.clone()
            }),
            Some(RefusalKind::CheckoutOffBranch)
        );
        assert_eq!(
            kind(Readiness {
                checkout_branch: None,
                ..ready
            }),
            Some(RefusalKind::CheckoutOffBranch)
        );
    }

    #[test]
    fn a_session_summary_names_the_first_pending_units_next_step() {
        let (done, pending, next) = summarize(
            "001-x",
            &[
                ("api", UnitResult::Integrated),
                ("app", UnitResult::Pending),
                (
                    "web",
                    UnitResult::Conflicted {
                        next: "aw fix-git --path ../web",
                    },
                ),
            ],
        );
        assert_eq!(done, ["api"]);
        assert_eq!(pending, ["app", "web"]);
        assert_eq!(
            next.as_deref(),
            Some("aw worktree integrate --source app --code 001-x")
        );
        let (_, _, next) = summarize(
            "001-x",
            &[(
                "web",
                UnitResult::Conflicted {
                    next: "aw fix-git --path ../web",
                },
            )],
        );
        assert_eq!(next.as_deref(), Some("aw fix-git --path ../web"));
        assert_eq!(summarize("001-x", &[]), (vec![], vec![], None));
        assert_eq!(
            integration_order(vec!["web", "API", "app"]),
            ["API", "app", "web"]
        );
    }
}
