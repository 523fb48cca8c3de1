//! `aw project-md-upsert --read | --init`: reads the project block, or merges sources and
//! branches into it.
//!
//! `--read` gives the block as the reference shapes it (its Spanish wire keys `proyecto` and
//! `fuentes` included), whichever language the block is written in. `--init` adds the given
//! sources to the block's (a source with a known alias replaces that row), merges branches, and
//! writes the block into CLAUDE.md and AGENTS.md under the workspace lock.

use super::BlockFlags;
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use crate::style::clean;
use crate::views::project_block::{dropped_human, language_human, results_human, write_json};
use aw_core::error_code::ErrorCode;
use aw_core::project::reconcile::{Changes, SourceMode, reconcile};
use aw_workspace::project::{self, BLOCK_FILES, ProjectFiles};
use clap::Args;
use serde_json::json;

// Arguments of `aw project-md-upsert`.
#[derive(Debug, Args)]
#[command(
    long_about = "Read the project block (`--read`) or merge into it (`--init`).\n\n\
`--init` adds each `--source` to the block's sources (the same alias replaces its row), sets the \
given branches, fills empty main branches with `--main-branch`, and writes the block into \
CLAUDE.md and AGENTS.md."
)]
pub struct ProjectMdUpsertArgs {
    /// Print the block.
    #[arg(long)]
    pub read: bool,
    /// Merge the given values into the block and write it.
    #[arg(long)]
    pub init: bool,
    /// With `--init`: the values to merge into the block.
    #[command(flatten)]
    pub block: BlockFlags,
    /// Add the details of the write (or `cache_used` to a read).
    #[arg(long)]
    pub verbose: bool,
}

/// Runs the command.
pub fn run(args: &ProjectMdUpsertArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    match (args.read, args.init) {
        (true, true) => Err(Failure::new(
            ErrorCode::InvalidInput,
            "`--read` and `--init` are two different operations.",
            "Pass one of them.",
        )),
        (false, false) => Err(Failure::new(
            ErrorCode::InvalidInput,
            "No operation was given.",
            "Pass `--read` to see the project block, or `--init` to update it.",
        )),
        (true, false) if args.block.any() => Err(Failure::new(
            ErrorCode::InvalidInput,
            "`--read` takes no values to write.",
            "Drop the values, or use `--init` to write them.",
        )),
        (true, false) => read(args, cx, style.format),
        (false, true) => init(args, cx, style.format),
    }
}

fn read(args: &ProjectMdUpsertArgs, cx: &Ctx<'_>, format: Format) -> Result<Outcome, Failure> {
    let ws = cx.workspace()?;
    let files = ProjectFiles::read(&ws.root)?;
    let block = files.block(&ws.ns);
    let dropped = files.dropped(&ws.ns);
    if format == Format::Human {
        return Ok(Outcome::text(match &block {
            None => "No project block in CLAUDE.md or AGENTS.md.\n  Next  run `aw workspace-init --source alias:path`\n".to_owned(),
            Some(b) => {
                let mut out = format!("Project · {}\n", clean(b.project.as_deref().unwrap_or("(no description)")));
                for s in &b.sources {
                    out.push_str(&format!(
                        "  {:<12} {}  main: {}  working: {}  QA: {}\n",
                        clean(&s.alias),
                        clean(&s.path),
                        clean(s.main_branch.as_deref().unwrap_or("—")),
                        clean(b.working_branches.get(&s.alias).unwrap_or("—")),
                        clean(b.qa_branches.get(&s.alias).unwrap_or("—")),
                    ));
                }
                if let Some(at) = &b.last_activity {
                    out.push_str(&format!("  Last activity {}\n", clean(at)));
                }
                out
            }
        }));
    }
    let mut block_json = block.as_ref().map(|b| b.to_json());
    if let Some(b) = block_json.as_mut().filter(|_| !dropped.is_empty()) {
        b["dropped_lines"] = json!(dropped);
    }
    let mut out = json!({
        "block": block_json,
        "files": BLOCK_FILES,
    });
    if args.verbose {
        out["cache_used"] = json!(false);
    }
    Ok(Outcome::json(&out))
}

fn init(args: &ProjectMdUpsertArgs, cx: &Ctx<'_>, format: Format) -> Result<Outcome, Failure> {
    let changes = Changes {
        project: super::project(&args.block.project)?,
        sources: super::sources(&args.block.sources)?,
        mode: SourceMode::Merge,
        working: super::branch_items("working-branch", &args.block.working)?,
        qa: super::branch_items("qa-branch", &args.block.qa)?,
        main_branch: super::main_branch(&args.block.main_branch)?,
        fallback_project: String::new(),
    };
    let ws = cx.workspace()?;
    let fallback = ws
        .root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let written = project::update(
        &ws,
        cx.home().as_deref(),
        &cx.now.minute_stamp(),
        |existing| {
            let changes = Changes {
                fallback_project: fallback,
                ..changes
            };
            reconcile(existing, changes)
                .map(|r| r.block)
                .map_err(super::invalid)
        },
    )?;
    Ok(match format {
        Format::Json => Outcome::json(&write_json(&written, args.verbose)),
        Format::Human => Outcome::text(
            format!(
                "project-md-upsert · {}\n{}{}",
                clean(&ws.root.to_string_lossy()),
                results_human(&written.files),
                dropped_human(&written.dropped_lines)
            ) + &language_human(&written),
        ),
    })
}
