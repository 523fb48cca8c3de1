//! `aw sources`: the project block's sources, the branch each is expected on and, unless
//! `--no-git`, the branch it is on; the reference's keys first, then aw's.

use crate::project::model::{Block, BranchMap};
use crate::project::sources::{GitState, SourceCheck};
use schemars::JsonSchema;
use serde::Serialize;

/// The output of `aw sources`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Sources<'a> {
    /// Each source asked for.
    pub sources: Vec<SourceRow<'a>>,
    /// The block's working branches.
    pub working_branches_from_status: &'a BranchMap,
    /// Whether every repository is on one branch.
    pub cross_source_consistent: bool,
    /// When not, each repository with the branch it is on.
    pub divergent_sources: Vec<DivergentSource<'a>>,
    /// The session whose branches were expected (`--session`/`--code`); with `--verbose`
    /// always, `""` when none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_code: Option<&'a str>,
    /// With `--verbose`: the aliases `--scope` kept, or `null` without `--scope`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<Option<Vec<&'a str>>>,
    /// The workspace (absolute).
    pub workspace: String,
    /// Whether the project block was found.
    pub block_found: bool,
    /// How many sources are listed.
    pub count: usize,
}

/// One source. The git keys are left out with `--no-git`; the empty ones unless `--verbose`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SourceRow<'a> {
    /// Its alias.
    pub alias: &'a str,
    /// Its path as declared.
    pub path: &'a str,
    /// The branch work starts from, or `null`.
    pub main_branch: Option<&'a str>,
    /// The branch it is expected on, or `null`.
    pub expected_work_branch: Option<&'a str>,
    /// The branch it is on (`null`: not a repository).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_branch: Option<Option<&'a str>>,
    /// Whether that is the expected branch (`null`: nothing to compare).
    #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
    pub matches: Option<Option<bool>>,
    /// Whether it has uncommitted files (`null`: not a repository).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dirty: Option<Option<bool>>,
    /// Its uncommitted files.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changed_files: Option<&'a [String]>,
    /// Whether it is a git repository.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_repo: Option<bool>,
    /// Why git could not read it (`null` with `--verbose` when it could).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Option<String>>,
    /// The kind of that error (`missing_folder`, `not_a_repository`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_kind: Option<&'static str>,
    /// Where the expected branch comes from.
    pub expected_origin: &'static str,
    /// The path resolved (absolute).
    pub resolved_path: String,
    /// Whether that folder exists.
    pub exists: bool,
    /// The block's QA branch for it, or `null`.
    pub qa_branch: Option<&'a str>,
    /// `true` for the workspace's own folder standing for an undeclared source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub implicit: Option<bool>,
}

/// A repository on another branch than the rest.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DivergentSource<'a> {
    /// Its alias.
    pub alias: &'a str,
    /// The branch it is on.
    pub current: &'a str,
    /// The branch it is expected on, or `null`.
    pub expected: Option<&'a str>,
}

/// What the shell found of a source and how it was asked for, beside its check.
#[derive(Debug, Clone)]
pub struct Listed {
    /// The path resolved (absolute).
    pub resolved_path: String,
    /// Whether that folder exists.
    pub exists: bool,
    /// `--no-git`: git was not run.
    pub no_git: bool,
    /// `--verbose`: every key, even the empty ones.
    pub verbose: bool,
    /// The workspace's own folder stands for an undeclared source.
    pub implicit: bool,
}

impl<'a> SourceRow<'a> {
    /// One source: the reference's keys in its order (the empty ones left out unless
    /// `--verbose`, as the reference does), then aw's.
    pub fn of(b: &'a Block, c: &'a SourceCheck, listed: Listed) -> SourceRow<'a> {
        let s = &c.source;
        let git = !listed.no_git;
        let verbose = listed.verbose;
        let error = c.git.as_ref().and_then(|g| error_message(g, &s.path));
        SourceRow {
            alias: &s.alias,
            path: &s.path,
            main_branch: s.main_branch.as_deref(),
            expected_work_branch: c.expected.as_deref(),
            current_branch: git.then(|| c.current_branch()),
            matches: git.then(|| c.matches()),
            dirty: git.then(|| c.dirty()),
            changed_files: (git && (verbose || !c.changed_files().is_empty()))
                .then(|| c.changed_files()),
            is_repo: (git && (verbose || !c.is_repo())).then(|| c.is_repo()),
            error: (git && (verbose || error.is_some())).then_some(error),
            error_kind: if git {
                c.git.as_ref().and_then(GitState::error_code)
            } else {
                None
            },
            expected_origin: c.origin.as_str(),
            resolved_path: listed.resolved_path,
            exists: listed.exists,
            qa_branch: b.qa_branches.get(&s.alias),
            implicit: listed.implicit.then_some(true),
        }
    }
}

/// The reference's `error` text for a source git could not read.
fn error_message(g: &GitState, path: &str) -> Option<String> {
    Some(match g {
        GitState::Repo { .. } => return None,
        GitState::MissingFolder => format!("Path does not exist: {path}"),
        GitState::NotARepository => "Not a git repository".to_owned(),
        GitState::GitNotFound => "git is not installed or not on PATH".to_owned(),
        GitState::Failed(msg) => msg.clone(),
    })
}
