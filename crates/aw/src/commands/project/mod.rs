//! `aw project-md-upsert`, `aw set-working-branch`, `aw set-qa-branch` and `aw remove-source`:
//! the project block in CLAUDE.md and AGENTS.md; and what they share with `workspace-init`: the
//! block's flags, turned into checked values.

pub mod md_upsert;
pub mod remove_source;
pub mod set_qa_branch;
pub mod set_working_branch;

use crate::context::Ctx;
use crate::failure::{Failure, sentence};
use crate::output::Outcome;
use aw_core::error_code::ErrorCode;
use aw_core::project::InputError;
use aw_core::project::model::Source;
use aw_core::project::source::{
    check_alias, check_branch, check_project, parse_branch_item, parse_source,
};
use aw_core::wire::project_block::{BlockLanguage, BlockWrite, BranchSet, FileResult};
use aw_workspace::project::{Written, chosen_for_the_reference};
use clap::Args;

// The block values `workspace-init` and `project-md-upsert --init` both take.
#[derive(Debug, Args)]
pub struct BlockFlags {
    /// A source: `alias:path[:main-branch]` (repeatable). Windows paths such as `C:\repos\api` work.
    #[arg(
        long = "source",
        visible_alias = "fuente",
        value_name = "ALIAS:PATH[:BRANCH]"
    )]
    pub sources: Vec<String>,
    /// The branch a source is being worked on: `alias:branch` (repeatable).
    #[arg(long = "working-branch", value_name = "ALIAS:BRANCH")]
    pub working: Vec<String>,
    /// The branch a source is tested on: `alias:branch` (repeatable).
    #[arg(long = "qa-branch", value_name = "ALIAS:BRANCH")]
    pub qa: Vec<String>,
    /// The main branch of every source that declares none.
    #[arg(long = "main-branch", value_name = "BRANCH")]
    pub main_branch: Option<String>,
    /// A one-line description of the project (default: the block's, else the folder's name).
    #[arg(long = "project", visible_alias = "proyecto", value_name = "TEXT")]
    pub project: Option<String>,
}

impl BlockFlags {
    /// Whether any block value was given.
    pub fn any(&self) -> bool {
        self.project.is_some()
            || !self.sources.is_empty()
            || !self.working.is_empty()
            || !self.qa.is_empty()
            || self.main_branch.is_some()
    }
}

/// An input the block grammars refuse.
pub fn invalid(e: InputError) -> Failure {
    Failure::new(
        ErrorCode::InvalidInput,
        sentence(&e.to_string()),
        e.action(),
    )
}

/// `--source` values, parsed in order.
pub fn sources(raw: &[String]) -> Result<Vec<Source>, Failure> {
    raw.iter()
        .map(|r| parse_source(r).map_err(invalid))
        .collect()
}

/// `--working-branch` / `--qa-branch` values, parsed in order.
pub fn branch_items(flag: &'static str, raw: &[String]) -> Result<Vec<(String, String)>, Failure> {
    raw.iter()
        .map(|r| parse_branch_item(flag, r).map_err(invalid))
        .collect()
}

/// `--main-branch`, checked.
pub fn main_branch(raw: &Option<String>) -> Result<Option<String>, Failure> {
    match raw {
        Some(b) => check_branch(b).map(|()| Some(b.clone())).map_err(invalid),
        None => Ok(None),
    }
}

/// `--project`, trimmed and checked.
pub fn project(raw: &Option<String>) -> Result<Option<String>, Failure> {
    match raw {
        Some(p) => check_project(p)
            .map(|()| Some(p.trim().to_owned()))
            .map_err(invalid),
        None => Ok(None),
    }
}

/// An alias and a branch given as positionals, both required and checked.
pub fn alias_and_branch(
    command: &str,
    alias: &Option<String>,
    branch: &Option<String>,
) -> Result<(String, String), Failure> {
    let (Some(alias), Some(branch)) = (alias, branch) else {
        return Err(Failure::new(
            ErrorCode::InvalidInput,
            format!("`aw {command}` needs a source alias and a branch."),
            format!(
                "Run `aw {command} <alias> <branch>`, for example `aw {command} api feature/login`."
            ),
        ));
    };
    check_alias(alias).map_err(invalid)?;
    check_branch(branch).map_err(invalid)?;
    Ok((alias.clone(), branch.clone()))
}

/// Refuses a branch command in a workspace with no block.
pub fn no_block() -> Failure {
    Failure::new(
        ErrorCode::InvalidInput,
        "This workspace has no project block in CLAUDE.md or AGENTS.md.",
        "Run `aw workspace-init --source alias:path` first.",
    )
}

/// Which branch list a `set-*-branch` command writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BranchList {
    /// `set-working-branch`.
    Working,
    /// `set-qa-branch`.
    Qa,
}

// Arguments of `aw set-working-branch` and `aw set-qa-branch`.
#[derive(Debug, clap::Args)]
pub struct SetBranchArgs {
    /// The source's alias.
    #[arg(value_name = "ALIAS")]
    pub alias: Option<String>,
    /// The branch.
    #[arg(value_name = "BRANCH")]
    pub branch: Option<String>,
    /// Add the details of the write.
    #[arg(long)]
    pub verbose: bool,
}

/// Runs `set-working-branch` / `set-qa-branch`: one alias's branch upserted into its list.
pub fn set_branch(
    command: &str,
    list: BranchList,
    args: &SetBranchArgs,
    cx: &Ctx<'_>,
) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let (alias, branch) = alias_and_branch(command, &args.alias, &args.branch)?;
    let ws = cx.workspace()?;
    let written = aw_workspace::project::update(
        &ws,
        cx.home().as_deref(),
        &cx.now.minute_stamp(),
        |existing| {
            let mut b = existing.cloned().ok_or_else(no_block)?;
            match list {
                BranchList::Working => b.working_branches.set(&alias, &branch),
                BranchList::Qa => b.qa_branches.set(&alias, &branch),
            }
            Ok::<_, Failure>(b)
        },
    )?;
    let files = file_results(&written);
    let verbose = args.verbose;
    let model = BranchSet {
        write: block_write(&written, verbose),
        alias: &alias,
        branch: &branch,
        list: match list {
            BranchList::Working => "working branch",
            BranchList::Qa => "QA branch",
        },
        files,
    };
    Ok(Outcome::shown(&model, &style))
}

/// Each file a block write wrote, as the reference lists them.
fn file_results(written: &Written) -> Vec<FileResult> {
    written
        .files
        .iter()
        .map(|f| FileResult::new(f.file, f.action.as_str(), f.migrated))
        .collect()
}

/// What a block write reports: compact, or with `verbose` the block's branches and each file.
/// `dropped_lines` is there whenever the write left a line out, verbose or not.
pub fn block_write(written: &Written, verbose: bool) -> BlockWrite<'_> {
    BlockWrite {
        ok: true,
        action: "init",
        mode: verbose.then_some("init"),
        working_branches: verbose.then_some(&written.block.working_branches),
        qa_branches: verbose.then_some(&written.block.qa_branches),
        results: verbose.then(|| file_results(written)),
        dropped_lines: (!written.dropped_lines.is_empty()).then_some(&written.dropped_lines[..]),
        block_language: chosen_for_the_reference(&written.language, &written.files)
            .map(BlockLanguage::of),
    }
}
