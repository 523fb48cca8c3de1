//! The unit rule of `aw check-branch` and of `aw hook branch-check`: once a source has at least
//! one isolation unit of this workspace, an edit in it belongs in the editing session's own unit.
//!
//! - **Which units count.** A source's non-main worktrees whose path reads as a unit of this
//!   workspace (the workspace key matches) cut from that very source (the alias matches), live or
//!   orphaned alike ([`source_units`]). None: the plain branch check runs, as before units
//!   existed.
//! - **Whose session.** The identity is resolved for reading and never bound (the shell does
//!   it): `--code`, else the conversation, else the only active session. An identity that cannot
//!   be resolved fails closed ([`UnitReason::UnknownIdentity`]): not knowing whose tree a file is
//!   in gives no right to write in it.
//! - **The verdict** ([`unit_verdict`]): inside the session's own unit → allowed; inside another
//!   session's unit, or outside every unit (the main checkout while someone works isolated) →
//!   refused, with the command that gives the session its unit ([`ensure_command`]).

use super::units::{WorktreeEntry, parse_unit_path, unit_branch};
use crate::project::branch_check::Verdict;
use crate::project::sources::GitState;
use schemars::JsonSchema;
use serde::Serialize;

/// A unit named in a verdict: its session folder, path and branch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitRef {
    /// The session folder that owns it.
    pub session: String,
    /// Its folder, as git lists it (or where it would be, for a unit not made yet).
    pub path: String,
    /// Its branch (`aw/<session>` unless git lists another one).
    pub branch: String,
}

/// The units of the source `alias`, out of that source's `git worktree list` (`entries`): every
/// non-main worktree whose path, under the units root `root`, names this workspace (`key`) and
/// this alias. Orphans count too: a tree on disk is someone's work until it is released.
pub fn source_units(root: &str, key: &str, alias: &str, entries: &[WorktreeEntry]) -> Vec<UnitRef> {
    entries
        .iter()
        .filter(|e| !e.main)
        .filter_map(|e| {
            let id = parse_unit_path(root, &e.path)?;
            (id.workspace_key == key && id.alias == alias).then(|| UnitRef {
                branch: e.branch.clone().unwrap_or_else(|| unit_branch(&id.session)),
                session: id.session,
                path: e.path.clone(),
            })
        })
        .collect()
}

/// `path` with `\` read as `/` and without trailing `/`.
fn normalized(path: &str) -> String {
    path.replace('\\', "/").trim_end_matches('/').to_owned()
}

/// The unit holding `file` (the unit's folder itself, or anything under it).
pub fn unit_holding<'a>(file: &str, units: &'a [UnitRef]) -> Option<&'a UnitRef> {
    let f = normalized(file);
    units.iter().find(|u| {
        let d = normalized(&u.path);
        f == d || f.strip_prefix(&d).is_some_and(|rest| rest.starts_with('/'))
    })
}

/// The command that gives `session` its unit of `alias` (or finds it again).
pub fn ensure_command(alias: &str, session: &str) -> String {
    format!("aw worktree ensure --source {alias} --code {session}")
}

/// Who is editing, as the session resolver answered (for reading, never binding).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Identity {
    /// The session folder.
    Resolved(String),
    /// The resolver refused: its message and its next action.
    Unresolved {
        /// Why no session could be chosen.
        message: String,
        /// What to do about it.
        action: String,
    },
}

/// Why the unit rule answered as it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum UnitReason {
    /// The editing session could not be resolved (fails closed).
    UnknownIdentity,
    /// The file is inside another session's unit.
    OtherSessionUnit,
    /// The file is inside the session's own unit (the only allowed answer).
    InsideOwnUnit,
    /// No file was named, or the file is outside every unit.
    OutsideUnit,
}

/// The unit rule's answer for one source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitVerdict {
    /// The source's alias.
    pub alias: String,
    /// The source's path, as the project block writes it.
    pub path: String,
    /// The resolved session folder; when unresolved, the `--code` given (or none).
    pub session_code: Option<String>,
    /// The unit the file is in, if any.
    pub actual_unit: Option<UnitRef>,
    /// The session's own unit, or where it would be (none when the session is unknown, or when
    /// the file is in another session's unit and the session has no unit yet).
    pub expected_unit: Option<UnitRef>,
    /// Whether the edit may go ahead.
    pub matched: bool,
    /// Why.
    pub reason: UnitReason,
    /// The branch the edit lands on, or should.
    pub work_branch: Option<String>,
    /// What to run to get going (refusals only).
    pub remedy: Option<String>,
    /// The resolver's message (unknown identity only).
    pub error: Option<String>,
}

/// What the unit rule is asked about one source.
#[derive(Debug, Clone, Copy)]
pub struct UnitQuestion<'a> {
    /// The source's alias.
    pub alias: &'a str,
    /// The source's path, as the project block writes it.
    pub source_path: &'a str,
    /// Its units (non-empty: with none the plain branch check runs instead).
    pub units: &'a [UnitRef],
    /// The file being checked, if any.
    pub file: Option<&'a str>,
    /// Who is editing.
    pub identity: &'a Identity,
    /// The `--code` given, echoed when the identity is unknown.
    pub raw_code: Option<&'a str>,
    /// The units root (real spelling).
    pub units_root: &'a str,
    /// This workspace's key.
    pub workspace_key: &'a str,
}

/// The unit rule's verdict.
pub fn unit_verdict(q: &UnitQuestion<'_>) -> UnitVerdict {
    let actual = q.file.and_then(|f| unit_holding(f, q.units)).cloned();
    let mut v = UnitVerdict {
        alias: q.alias.to_owned(),
        path: q.source_path.to_owned(),
        session_code: None,
        actual_unit: actual.clone(),
        expected_unit: None,
        matched: false,
        reason: UnitReason::OutsideUnit,
        work_branch: None,
        remedy: None,
        error: None,
    };
    let session = match q.identity {
        Identity::Unresolved { message, action } => {
            v.session_code = q.raw_code.map(str::to_owned);
            v.reason = UnitReason::UnknownIdentity;
            v.error = Some(message.clone());
            v.work_branch = actual.map(|u| u.branch);
            v.remedy = Some(action.clone());
            return v;
        }
        Identity::Resolved(s) => s,
    };
    v.session_code = Some(session.clone());
    v.expected_unit = q.units.iter().find(|u| &u.session == session).cloned();
    let remedy = Some(ensure_command(q.alias, session));
    match actual {
        Some(unit) if &unit.session == session => {
            v.matched = true;
            v.reason = UnitReason::InsideOwnUnit;
            v.work_branch = Some(unit.branch);
        }
        Some(unit) => {
            v.reason = UnitReason::OtherSessionUnit;
            v.work_branch = Some(unit.branch);
            v.remedy = remedy;
        }
        None => {
            let wanted = v.expected_unit.clone().unwrap_or_else(|| UnitRef {
                session: session.clone(),
                path: format!(
                    "{}/{}/{}/{session}",
                    normalized(q.units_root),
                    q.workspace_key,
                    q.alias
                ),
                branch: unit_branch(session),
            });
            v.work_branch = Some(wanted.branch.clone());
            v.expected_unit = Some(wanted);
            v.remedy = remedy;
        }
    }
    v
}

impl UnitVerdict {
    /// What the hook prints on stderr when it refuses an edit of `file`: the source, the unit(s)
    /// and the command to run. `program` is how that command runs aw (`aw`, or its path when the
    /// `aw` on `PATH` is another program).
    pub fn advice(&self, file: &str, program: &str) -> String {
        let remedy = self.remedy.as_deref().unwrap_or_default();
        // The resolver's action and the ensure command name `aw`; they run this very program.
        let remedy = match remedy.strip_prefix("aw ") {
            Some(rest) => format!("{program} {rest}"),
            None => remedy.to_owned(),
        };
        let head = format!(
            "aw branch-check: edit of {file} refused.\nThe source `{}` ({}) is worked on in \
             isolation units",
            self.alias, self.path
        );
        let unit = |u: &UnitRef| format!("{} (session {}, branch {})", u.path, u.session, u.branch);
        match self.reason {
            UnitReason::UnknownIdentity => {
                let mut text = format!(
                    "{head}, and the session this conversation works for could not be \
                     resolved.\nWhy: {}\n",
                    self.error.as_deref().unwrap_or("no session was given.")
                );
                if let Some(u) = &self.actual_unit {
                    text.push_str(&format!("The file is in the unit {}.\n", unit(u)));
                }
                text.push_str(&format!(
                    "A tree is not written to without knowing whose it is.\nNext: {}\n",
                    remedy.trim_end()
                ));
                text
            }
            UnitReason::OtherSessionUnit => {
                let theirs = self.actual_unit.as_ref().map(unit).unwrap_or_default();
                let own = match &self.expected_unit {
                    Some(u) => format!("Your unit is {}.", unit(u)),
                    None => "Your session has no unit of this source yet.".to_owned(),
                };
                format!(
                    "{head}, and this file is in another session's unit: {theirs}.\n{own}\n\
                     Next: edit in your own unit; get it with `{remedy}`.\n"
                )
            }
            UnitReason::OutsideUnit | UnitReason::InsideOwnUnit => {
                let own = self
                    .expected_unit
                    .as_ref()
                    .map(unit)
                    .unwrap_or_else(|| "your session's unit".to_owned());
                format!(
                    "{head}, and this file is outside every unit (the source's own checkout \
                     is not edited while a unit of it exists).\nYour unit: {own}.\nNext: get \
                     your unit with `{remedy}` and make the edit inside it.\n"
                )
            }
        }
    }
}

/// What the hook decided about an edit: the plain branch check's verdict, or, for a source with
/// units, the unit rule's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditVerdict {
    /// The branch check (no unit in the owning source, or nothing to judge).
    Branch(Verdict),
    /// The unit rule refused the edit of `file`.
    Unit {
        /// The file, as the host wrote it.
        file: String,
        /// The verdict (never a match).
        verdict: Box<UnitVerdict>,
    },
}

/// The answer of `aw check-branch`: the unit rule for a source with units of this workspace,
/// else the plain branch check (the reference's v21 answers).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BranchCheck {
    /// The project block declares no source.
    NoSources,
    /// No source owns what was asked about (or `--source` names none).
    NotManaged,
    /// The owning source declares no working branch.
    NoExpectedBranch {
        /// Its alias.
        alias: String,
        /// Its path, as the block writes it.
        path: String,
    },
    /// The owning source against its working branch.
    Branch {
        /// Its alias.
        alias: String,
        /// Its path, as the block writes it.
        path: String,
        /// Its `Rama principal` cell, when filled.
        main_branch: Option<String>,
        /// The working branch.
        expected: String,
        /// What git says about its folder.
        git: GitState,
        /// The `--code` given, echoed.
        session_code: Option<String>,
    },
    /// The unit rule.
    Unit(Box<UnitVerdict>),
}

impl BranchCheck {
    /// Whether the check passes (`--strict` exits 2 when not).
    pub fn matched(&self) -> bool {
        match self {
            BranchCheck::NoSources
            | BranchCheck::NotManaged
            | BranchCheck::NoExpectedBranch { .. } => true,
            BranchCheck::Branch { expected, git, .. } => {
                matches!(git, GitState::Repo { branch, .. } if branch == expected)
            }
            BranchCheck::Unit(v) => v.matched,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROOT: &str = "/h/.workflow/worktrees";

    fn entry(path: &str, branch: Option<&str>, main: bool) -> WorktreeEntry {
        WorktreeEntry {
            path: path.into(),
            head: None,
            branch: branch.map(str::to_owned),
            main,
            prunable: false,
        }
    }

    fn units() -> Vec<UnitRef> {
        source_units(
            ROOT,
            "ws-1",
            "app",
            &[
                entry("/src/app", Some("dev"), true),
                entry(&format!("{ROOT}/ws-1/app/001-a"), Some("aw/001-a"), false),
                entry(&format!("{ROOT}/ws-1/app/002-b"), None, false),
                entry(&format!("{ROOT}/ws-2/app/003-c"), Some("aw/003-c"), false),
                entry(&format!("{ROOT}/ws-1/api/004-d"), Some("aw/004-d"), false),
                entry("/elsewhere/tree", Some("x"), false),
            ],
        )
    }

    fn ask(file: Option<&str>, identity: &Identity, units: &[UnitRef]) -> UnitVerdict {
        unit_verdict(&UnitQuestion {
            alias: "app",
            source_path: "/src/app",
            units,
            file,
            identity,
            raw_code: Some("9"),
            units_root: ROOT,
            workspace_key: "ws-1",
        })
    }

    #[test]
    fn only_this_workspaces_units_of_this_source_count() {
        let u = units();
        assert_eq!(u.len(), 2);
        assert_eq!(u[0].session, "001-a");
        assert_eq!(u[1].branch, "aw/002-b", "no branch listed: the unit's own");
    }

    #[test]
    fn a_file_is_in_a_unit_at_or_under_its_folder_only() {
        let u = units();
        let at = |f: &str| unit_holding(f, &u).map(|u| u.session.as_str());
        assert_eq!(
            at(&format!("{ROOT}/ws-1/app/001-a/src/x.rs")),
            Some("001-a")
        );
        assert_eq!(at(&format!("{ROOT}/ws-1/app/001-a/")), Some("001-a"));
        assert_eq!(at(&format!("{ROOT}/ws-1/app/001-ab/x.rs")), None);
        assert_eq!(at("/src/app/x.rs"), None);
    }

    #[test]
    fn the_four_answers() {
        let u = units();
        let own = Identity::Resolved("001-a".into());
        let inside = format!("{ROOT}/ws-1/app/001-a/f.txt");
        let v = ask(Some(&inside), &own, &u);
        assert_eq!((v.matched, v.reason), (true, UnitReason::InsideOwnUnit));
        assert_eq!(v.work_branch.as_deref(), Some("aw/001-a"));
        assert_eq!(v.remedy, None);

        let other = Identity::Resolved("005-e".into());
        let v = ask(Some(&inside), &other, &u);
        assert_eq!((v.matched, v.reason), (false, UnitReason::OtherSessionUnit));
        assert_eq!(v.expected_unit, None);
        assert_eq!(v.work_branch.as_deref(), Some("aw/001-a"));
        assert_eq!(
            v.remedy.as_deref(),
            Some("aw worktree ensure --source app --code 005-e")
        );

        let v = ask(Some("/src/app/f.txt"), &other, &u);
        assert_eq!((v.matched, v.reason), (false, UnitReason::OutsideUnit));
        let wanted = v.expected_unit.unwrap();
        assert_eq!(wanted.path, format!("{ROOT}/ws-1/app/005-e"));
        assert_eq!(v.work_branch.as_deref(), Some("aw/005-e"));
        let v = ask(None, &own, &u);
        assert_eq!(v.reason, UnitReason::OutsideUnit);
        assert_eq!(v.expected_unit.unwrap().session, "001-a");

        let unknown = Identity::Unresolved {
            message: "two sessions are active".into(),
            action: "pass --code".into(),
        };
        let v = ask(Some(&inside), &unknown, &u);
        assert_eq!((v.matched, v.reason), (false, UnitReason::UnknownIdentity));
        assert_eq!(v.session_code.as_deref(), Some("9"));
        assert_eq!(v.expected_unit, None);
        assert_eq!(v.work_branch.as_deref(), Some("aw/001-a"));
        assert_eq!(v.error.as_deref(), Some("two sessions are active"));
        assert_eq!(v.remedy.as_deref(), Some("pass --code"));
    }

    #[test]
    fn every_refusal_names_the_source_the_units_and_the_command() {
        let u = units();
        let inside = format!("{ROOT}/ws-1/app/001-a/f.txt");
        let other = Identity::Resolved("002-b".into());
        let text = ask(Some(&inside), &other, &u).advice("f.txt", "/opt/aw");
        assert!(text.contains("`app` (/src/app)"), "{text}");
        assert!(
            text.contains("session 001-a") && text.contains("session 002-b"),
            "{text}"
        );
        assert!(
            text.contains("`/opt/aw worktree ensure --source app --code 002-b`"),
            "{text}"
        );
        let text = ask(Some("/src/app/f.txt"), &other, &u).advice("f.txt", "aw");
        assert!(text.contains("outside every unit"), "{text}");
        assert!(text.contains("aw worktree ensure --source app --code 002-b"));
        let unknown = Identity::Unresolved {
            message: "two sessions are active.".into(),
            action: "Pass --code.".into(),
        };
        let text = ask(Some(&inside), &unknown, &u).advice("f.txt", "aw");
        assert!(text.contains("Why: two sessions are active.\n"), "{text}");
        assert!(text.contains("Next: Pass --code."), "{text}");
    }
}
