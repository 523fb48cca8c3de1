//! `aw check-branch`: the reference's answers, in its keys. A source with isolation units of this
//! workspace answers by the unit rule (`{alias, path, session_code, actual_unit, expected_unit,
//! match, reason, work_branch, remedy?, error?}`); any other by the plain branch check, exactly as
//! before units existed.

use crate::isolation::unit_check::{BranchCheck, UnitReason, UnitRef, UnitVerdict};
use crate::project::sources::GitState;
use schemars::JsonSchema;
use serde::Serialize;

/// What `aw check-branch` prints.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum CheckBranchOutput<'a> {
    /// The unit rule.
    Unit(UnitAnswer<'a>),
    /// The owning source against its working branch, as git read it.
    Checked(Checked<'a>),
    /// The owning source's folder could not be read by git (missing, not a repository).
    Unreadable(Unreadable<'a>),
    /// The owning source declares no working branch.
    NoExpected(NoExpected<'a>),
    /// Nothing to check (`no_sources_declared`, `file_not_in_managed_source`).
    Nothing(Nothing),
}

/// The unit rule's answer.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitAnswer<'a> {
    pub alias: &'a str,
    pub path: &'a str,
    /// The resolved session folder; the raw `--code` (or null) when it could not be resolved.
    pub session_code: Option<&'a str>,
    pub actual_unit: Option<&'a UnitRef>,
    pub expected_unit: Option<&'a UnitRef>,
    #[serde(rename = "match")]
    pub matched: bool,
    pub reason: UnitReason,
    /// The resolver's message (`unknown_identity` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'a str>,
    pub work_branch: Option<&'a str>,
    /// What to run: `aw worktree ensure --source <alias> --code <session>`, or the resolver's
    /// action (`unknown_identity`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remedy: Option<&'a str>,
}

/// The plain branch check of a repository.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Checked<'a> {
    pub alias: &'a str,
    pub path: &'a str,
    pub main_branch: Option<&'a str>,
    pub expected_work_branch: &'a str,
    pub current_branch: &'a str,
    #[serde(rename = "match")]
    pub matched: bool,
    pub dirty: bool,
    pub changed_files: &'a [String],
    #[schemars(extend("const" = true))]
    pub is_repo: bool,
    pub error: Option<&'a str>,
    pub session_code: Option<&'a str>,
    pub work_branch: &'a str,
}

/// The plain branch check of a folder git cannot read.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Unreadable<'a> {
    pub alias: &'a str,
    pub path: &'a str,
    pub main_branch: Option<&'a str>,
    #[serde(rename = "match")]
    #[schemars(extend("const" = false))]
    pub matched: bool,
    pub expected_work_branch: &'a str,
    pub current_branch: Option<&'a str>,
    pub dirty: Option<bool>,
    pub changed_files: [String; 0],
    #[schemars(extend("const" = false))]
    pub is_repo: bool,
    pub error: String,
    pub session_code: Option<&'a str>,
    pub work_branch: &'a str,
}

/// A source with no working branch to compare with.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoExpected<'a> {
    #[serde(rename = "match")]
    #[schemars(extend("const" = true))]
    pub matched: bool,
    #[schemars(extend("const" = "no_expected_branch_declared"))]
    pub reason: &'static str,
    pub alias: &'a str,
    pub path: &'a str,
}

/// Nothing to check.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Nothing {
    #[serde(rename = "match")]
    #[schemars(extend("const" = true))]
    pub matched: bool,
    #[schemars(extend("enum" = ["no_sources_declared", "file_not_in_managed_source"]))]
    pub reason: &'static str,
}

impl<'a> CheckBranchOutput<'a> {
    /// The output of `check`.
    pub fn of(check: &'a BranchCheck) -> Self {
        match check {
            BranchCheck::NoSources => CheckBranchOutput::Nothing(Nothing {
                matched: true,
                reason: "no_sources_declared",
            }),
            BranchCheck::NotManaged => CheckBranchOutput::Nothing(Nothing {
                matched: true,
                reason: "file_not_in_managed_source",
            }),
            BranchCheck::NoExpectedBranch { alias, path } => {
                CheckBranchOutput::NoExpected(NoExpected {
                    matched: true,
                    reason: "no_expected_branch_declared",
                    alias,
                    path,
                })
            }
            BranchCheck::Unit(v) => CheckBranchOutput::Unit(UnitAnswer::of(v)),
            BranchCheck::Branch {
                alias,
                path,
                main_branch,
                expected,
                git,
                session_code,
            } => match git {
                GitState::Repo {
                    branch,
                    changed_files,
                } => CheckBranchOutput::Checked(Checked {
                    alias,
                    path,
                    main_branch: main_branch.as_deref(),
                    expected_work_branch: expected,
                    current_branch: branch,
                    matched: branch == expected,
                    dirty: !changed_files.is_empty(),
                    changed_files,
                    is_repo: true,
                    error: None,
                    session_code: session_code.as_deref(),
                    work_branch: expected,
                }),
                other => CheckBranchOutput::Unreadable(Unreadable {
                    alias,
                    path,
                    main_branch: main_branch.as_deref(),
                    matched: false,
                    expected_work_branch: expected,
                    current_branch: None,
                    dirty: None,
                    changed_files: [],
                    is_repo: false,
                    error: unreadable_reason(other, path),
                    session_code: session_code.as_deref(),
                    work_branch: expected,
                }),
            },
        }
    }
}

/// Why git could not read a source's folder.
fn unreadable_reason(git: &GitState, path: &str) -> String {
    match git {
        GitState::MissingFolder => format!("The source folder does not exist: {path}"),
        GitState::NotARepository => "The source folder is not a git repository".to_owned(),
        GitState::GitNotFound => "git could not be run (is it installed?)".to_owned(),
        GitState::Failed(why) => format!("git failed in the source folder: {why}"),
        GitState::Repo { .. } => String::new(),
    }
}

impl<'a> UnitAnswer<'a> {
    fn of(v: &'a UnitVerdict) -> Self {
        UnitAnswer {
            alias: &v.alias,
            path: &v.path,
            session_code: v.session_code.as_deref(),
            actual_unit: v.actual_unit.as_ref(),
            expected_unit: v.expected_unit.as_ref(),
            matched: v.matched,
            reason: v.reason,
            error: v.error.as_deref(),
            work_branch: v.work_branch.as_deref(),
            remedy: v.remedy.as_deref(),
        }
    }
}
