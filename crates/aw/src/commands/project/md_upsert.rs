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
use crate::output::{Format, Outcome, Style};
use aw_core::error_code::ErrorCode;
use aw_core::project::reconcile::{Changes, SourceMode, reconcile};
use aw_core::wire::project_md_upsert::{BlockRead, ProjectMdInit, ProjectMdRead, ProjectMdUpsert};
use aw_workspace::project::{self, BLOCK_FILES, ProjectFiles};
use clap::Args;

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
        (true, false) => read(args, cx, &style),
        (false, true) => init(args, cx, &style),
    }
}

fn read(args: &ProjectMdUpsertArgs, cx: &Ctx<'_>, style: &Style) -> Result<Outcome, Failure> {
    let ws = cx.workspace()?;
    let files = ProjectFiles::read(&ws.root)?;
    let block = files.block(&ws.ns);
    let dropped = files.dropped(&ws.ns);
    let model = ProjectMdUpsert::Read(ProjectMdRead {
        block: block.as_ref().map(|b| BlockRead::of(b, &dropped)),
        files: BLOCK_FILES,
        cache_used: args.verbose.then_some(false),
    });
    Ok(Outcome::shown(&model, style))
}

fn init(args: &ProjectMdUpsertArgs, cx: &Ctx<'_>, style: &Style) -> Result<Outcome, Failure> {
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
    // The human view lists each file whatever `--verbose` says.
    let verbose = args.verbose || style.format == Format::Human;
    let model = ProjectMdUpsert::Init(ProjectMdInit {
        write: super::block_write(&written, verbose),
        workspace: ws.root.to_string_lossy().into_owned(),
    });
    Ok(Outcome::shown(&model, style))
}
