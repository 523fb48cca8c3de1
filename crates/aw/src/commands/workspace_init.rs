//! `aw workspace-init`: makes a folder a workspace, or reconciles one.
//!
//! Creates `.<ns>/sessions/`, seeds `.<ns>/skills.toml`, keeps aw's `.gitignore` sections, moves
//! generated launch folders from `docs/tools/` to `.<ns>/launch/`, writes the `<NS>-PROJECT`
//! block into `CLAUDE.md` and `AGENTS.md`, and makes sources outside the folder visible to
//! Claude Code and Codex. The target is `--workspace <dir>` or the current folder,
//! exactly: init never walks up, it creates the workspace where it is asked to.
//!
//! Differences from the reference: a re-run that changes nothing reports `unchanged` and keeps
//! every byte; `--dry-run` reports exactly what a real run would change; legacy `QTC-PROJECT`
//! markers are replaced instead of getting a second block; branch lines of removed sources are
//! pruned (`dropped_lines`); empty `docs/<category>` folders are kept; the history line names
//! the real namespace; the empty `.lock` is never deleted (the OS lock lives on that file).

use super::project::{self, BlockFlags, invalid};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::error_code::ErrorCode;
use aw_core::project::visibility::WARP_REASON;
use aw_core::wire::multiroot::{Multiroot, Skipped};
use aw_core::wire::project_block::{BlockLanguage, FileResult};
use aw_core::wire::workspace_init::{
    Attach, DeclaredSource, InitCause, InitFailed, LegacyLaunch, NoExternal, NotOk, ProjectMd,
    Scaffold, WorkspaceInit,
};
use aw_workspace::WorkspaceError;
use aw_workspace::project::chosen_for_the_reference;
use aw_workspace::project::init::{self, InitError, InitPlan, InitRequest, RunError, Step};
use aw_workspace::project::visibility::HostChange;
use clap::Args;
use std::path::{Path, PathBuf};

// Arguments of `aw workspace-init`.
#[derive(Debug, Args)]
#[command(
    long_about = "Make the current folder (or `--workspace <dir>`) an aw workspace, or reconcile one.\n\n\
Creates `.<ns>/sessions/`, seeds `.<ns>/skills.toml` when absent, keeps aw's sections of \
`.gitignore`, and writes the project block into CLAUDE.md and AGENTS.md (text outside the block \
is never touched). The declared sources replace the block's; with none declared, the block's \
own sources are kept. Sources outside the folder are added to `.claude/settings.local.json` \
(Claude Code) and `.codex/config.toml` (Codex, which also gets the workspace marked trusted); \
the folders of removed sources are withdrawn from both. Generated launch folders left in \
`docs/tools/<x>/` by older releases move to `.<ns>/launch/<x>/`. Running it again changes \
nothing unless something changed."
)]
pub struct WorkspaceInitArgs {
    /// The block values: sources, branches, project description.
    #[command(flatten)]
    pub block: BlockFlags,
    /// Report what would change, and change nothing.
    #[arg(long = "dry-run")]
    pub dry_run: bool,
}

fn init_failed(message: String, action: &str, details: InitFailed) -> Failure {
    Failure::new(ErrorCode::WorkspaceInitFailed, message, action).with_details(details)
}

/// No detail yet: each failure sets its own.
const NO_DETAILS: InitFailed = InitFailed {
    step: None,
    file: None,
    cause: None,
    pid: None,
    project_md: None,
    attach_multiroot: None,
};

/// The multi-root step, skipped because the block's write failed.
const AFTER_PROJECT_MD: Skipped<'static> = Skipped {
    skipped: true,
    reason: "project_md_failed",
};

fn plan_failure(e: InitError) -> Failure {
    match e {
        InitError::Input(e) => invalid(e),
        InitError::Workspace(e) => e.into(),
        InitError::Settings { path, error } => init_failed(
            format!(
                "workspace-init stopped before writing anything: {} cannot be updated ({error}).",
                path.display()
            ),
            "Fix or remove that file (aw only lists extra folders in it), then run workspace-init again.",
            InitFailed {
                step: Some("attach_multiroot"),
                file: Some(path.to_string_lossy().into_owned()),
                ..NO_DETAILS
            },
        ),
    }
}

fn lock_failure(e: WorkspaceError) -> Failure {
    let WorkspaceError::LockBusy { pid, .. } = &e else {
        return e.into();
    };
    init_failed(
        format!("workspace-init wrote nothing: {}.", sentence(&e)),
        &e.action(),
        InitFailed {
            cause: Some(InitCause::Code(ErrorCode::LockBusy)),
            pid: Some(pid.clone()),
            project_md: Some(NotOk { ok: false }),
            attach_multiroot: Some(AFTER_PROJECT_MD),
            ..NO_DETAILS
        },
    )
}

/// The error's message without its final full stop, to be quoted inside a sentence.
fn sentence(e: &WorkspaceError) -> String {
    e.to_string().trim_end_matches('.').to_owned()
}

fn apply_failure(step: Step, e: WorkspaceError) -> Failure {
    match step {
        Step::Scaffold => e.into(),
        Step::ProjectMd | Step::Visibility => {
            let project_md = step == Step::ProjectMd;
            init_failed(
                format!("workspace-init did not complete: {}.", sentence(&e)),
                &e.action(),
                InitFailed {
                    step: Some(if project_md {
                        "project_md"
                    } else {
                        "attach_multiroot"
                    }),
                    cause: Some(InitCause::Text(e.to_string())),
                    attach_multiroot: project_md.then_some(AFTER_PROJECT_MD),
                    ..NO_DETAILS
                },
            )
        }
    }
}

/// Runs the command.
pub fn run(args: &WorkspaceInitArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let req = InitRequest {
        sources: project::sources(&args.block.sources)?,
        working: project::branch_items("working-branch", &args.block.working)?,
        qa: project::branch_items("qa-branch", &args.block.qa)?,
        main_branch: project::main_branch(&args.block.main_branch)?,
        project: project::project(&args.block.project)?,
        now: cx.now.minute_stamp(),
        home: cx.home(),
    };
    let ws = cx.workspace_here()?;
    let plan = init::run(&ws, req, args.dry_run).map_err(|e| match e {
        RunError::Lock(e) => lock_failure(e),
        RunError::Plan(e) => plan_failure(e),
        RunError::Apply(step, e) => apply_failure(step, e),
    })?;
    let removed = plan.visibility.hosts.removed();
    let model = model(&plan, args.dry_run, &removed);
    Ok(Outcome::shown(&model, &style))
}

fn paths(list: &[PathBuf]) -> Vec<String> {
    list.iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect()
}

/// Multi-root visibility: the hosts' files, or skipped when no source lies outside (with the
/// hosts still, when folders were withdrawn).
fn attach<'a>(plan: &'a InitPlan, removed: &[String]) -> Attach<'a> {
    let v = &plan.visibility;
    if v.external.is_empty() {
        let any = !removed.is_empty();
        return Attach::Skipped(NoExternal {
            skipped: true,
            reason: "no_external_sources",
            detached_removed: any.then(|| removed.to_vec()),
            claude: any.then(|| HostChange::wire(&v.hosts.claude)),
            codex: any.then(|| HostChange::wire(&v.hosts.codex)),
        });
    }
    Attach::Attached(Multiroot {
        paths: &v.external,
        claude: HostChange::wire(&v.hosts.claude),
        codex: HostChange::wire(&v.hosts.codex),
        warp: Skipped::because(WARP_REASON),
        detached_removed: removed.to_vec(),
    })
}

fn model<'a>(plan: &'a InitPlan, dry_run: bool, removed: &[String]) -> WorkspaceInit<'a> {
    let b = &plan.block;
    WorkspaceInit {
        ok: true,
        dry_run,
        workspace: plan.root.to_string_lossy().into_owned(),
        sources: b.sources.len(),
        scaffold: Scaffold {
            created: paths(&plan.scaffold.created),
            existing: paths(&plan.scaffold.existing),
            pruned: paths(&plan.scaffold.pruned),
        },
        skills_toml: if plan.skills_toml.text.is_some() {
            "created"
        } else {
            "exists"
        },
        gitignore: plan.gitignore.action,
        legacy_launch: plan
            .legacy_launch
            .iter()
            .map(|l| LegacyLaunch {
                tool: &l.tool,
                from: rel(&plan.root, &l.from),
                to: rel(&plan.root, &l.to),
                action: l.action.as_str(),
            })
            .collect(),
        project_md: ProjectMd {
            ok: true,
            action: "init",
            mode: "init",
            working_branches: &b.working_branches,
            qa_branches: &b.qa_branches,
            results: plan
                .files
                .iter()
                .map(|f| FileResult::new(f.file, f.action.as_str(), f.migrated))
                .collect(),
            dropped_lines: (!plan.dropped_lines.is_empty()).then_some(&plan.dropped_lines[..]),
            block_language: chosen_for_the_reference(&plan.language, &plan.files)
                .map(BlockLanguage::of),
        },
        attach_multiroot: attach(plan, removed),
        declared: b
            .sources
            .iter()
            .map(|s| DeclaredSource {
                alias: &s.alias,
                path: &s.path,
                main_branch: s.main_branch.as_deref(),
            })
            .collect(),
    }
}

/// `p` relative to the workspace root (as is when it lies elsewhere).
fn rel(root: &Path, p: &Path) -> String {
    p.strip_prefix(root)
        .unwrap_or(p)
        .to_string_lossy()
        .into_owned()
}
