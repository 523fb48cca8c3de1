//! What the project-block commands share: turning typed flags into checked values, writing the
//! block under the workspace lock, and the JSON of a write.
//!
//! Not a command itself: `workspace-init`, `project-md-upsert`, `set-working-branch` and
//! `set-qa-branch` use it.

use crate::context;
use crate::failure::Failure;
use aw_core::project::InputError;
use aw_core::project::model::{Block, Source};
use aw_core::project::source::{
    check_alias, check_branch, check_project, parse_branch_item, parse_source,
};
use aw_workspace::init::discard_fresh_state;
use aw_workspace::locate::Workspace;
use aw_workspace::project::{PlannedFile, ProjectFiles, detect_stack, write_planned};
use clap::Args;
use serde_json::{Value, json};

/// The block values `workspace-init` and `project-md-upsert --init` both take.
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
        "INVALID_INPUT",
        context::sentence(&e.to_string()),
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
            "INVALID_INPUT",
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

/// The per-file results, as the reference lists them.
pub fn results_json(files: &[PlannedFile]) -> Value {
    Value::Array(
        files
            .iter()
            .map(|f| {
                let mut r = json!({ "file": f.file, "path": f.file, "action": f.action.as_str() });
                if f.migrated {
                    r["migrated_from"] = json!("QTC-PROJECT");
                }
                r
            })
            .collect(),
    )
}

/// The result of a block write, compact or verbose.
pub fn write_json(block: &Block, files: &[PlannedFile], verbose: bool) -> Value {
    let mut out = json!({ "ok": true, "action": "init" });
    if verbose {
        out["mode"] = json!("init");
        out["working_branches"] = block.working_branches.to_json();
        out["qa_branches"] = block.qa_branches.to_json();
        out["results"] = results_json(files);
    }
    out
}

/// One line per file for the human views: `CLAUDE.md updated`.
pub fn results_human(files: &[PlannedFile]) -> String {
    files
        .iter()
        .map(|f| {
            let migrated = if f.migrated {
                " (legacy markers replaced)"
            } else {
                ""
            };
            format!("  {:<12} {}{migrated}\n", f.file, f.action.as_str())
        })
        .collect()
}

/// Reads the block, lets `change` produce the new one, and writes it into both files, all under
/// the workspace lock. `change` sees the current block (`None`: there is none). A refused change
/// leaves no trace, not even the state folder the lock would have created.
pub fn update(
    ws: &Workspace,
    change: impl FnOnce(Option<&Block>) -> Result<Block, Failure>,
) -> Result<(Block, Vec<PlannedFile>), Failure> {
    let now = aw_workspace::clock::local_wall_clock().minute_stamp();
    let fresh = !ws.state_dir().exists();
    let lock = context::lock(ws)?;
    let planned = (|| {
        let files = ProjectFiles::read(&ws.root)?;
        let mut block = change(files.block(&ws.ns).as_ref())?;
        if block.stack.is_empty() {
            block.stack = detect_stack(&ws.root, &block.sources);
        }
        let planned = files.plan(&ws.ns, &block, &now);
        Ok::<_, Failure>((block, planned))
    })();
    let (block, planned) = match planned {
        Ok(p) => p,
        Err(f) => {
            drop(lock);
            if fresh {
                discard_fresh_state(ws);
            }
            return Err(f);
        }
    };
    write_planned(&planned)?;
    Ok((block, planned))
}

/// Refuses a branch command in a workspace with no block.
pub fn no_block() -> Failure {
    Failure::new(
        "INVALID_INPUT",
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

/// Arguments of `aw set-working-branch` and `aw set-qa-branch`.
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
    global: &crate::cli::Global,
) -> Result<crate::output::Outcome, Failure> {
    use crate::output::{Format, Outcome, tty_default};
    let style = global.flags().resolve(tty_default())?;
    let (alias, branch) = alias_and_branch(command, &args.alias, &args.branch)?;
    let ws = context::workspace(global)?;
    let (block, files) = update(&ws, |existing| {
        let mut b = existing.cloned().ok_or_else(no_block)?;
        match list {
            BranchList::Working => b.working_branches.set(&alias, &branch),
            BranchList::Qa => b.qa_branches.set(&alias, &branch),
        }
        Ok(b)
    })?;
    Ok(match style.format {
        Format::Json => Outcome::json(write_json(&block, &files, args.verbose)),
        Format::Human => {
            let what = match list {
                BranchList::Working => "working branch",
                BranchList::Qa => "QA branch",
            };
            Outcome::text(format!(
                "{alias} {what}: {branch}\n{}",
                results_human(&files)
            ))
        }
    })
}
