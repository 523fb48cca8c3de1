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
use crate::output::{Format, Outcome};
use crate::style::{Paint, clean};
use crate::views::multiroot::{host_json, hosts_human, multiroot_json};
use crate::views::project_block::{
    block_language_human, block_language_json, dropped_human, results_human, results_json,
};
use aw_core::error_code::ErrorCode;
use aw_workspace::WorkspaceError;
use aw_workspace::project::chosen_for_the_reference;
use aw_workspace::project::init::{self, InitError, InitPlan, InitRequest, RunError, Step};
use clap::Args;
use serde_json::{Value, json};
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

fn init_failed(message: String, action: &str, details: Value) -> Failure {
    Failure::new(ErrorCode::WorkspaceInitFailed, message, action).with_details(details)
}

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
            json!({ "step": "attach_multiroot", "file": path.to_string_lossy() }),
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
        json!({
            "cause": ErrorCode::LockBusy,
            "pid": pid,
            "project_md": { "ok": false },
            "attach_multiroot": { "skipped": true, "reason": "project_md_failed" },
        }),
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
            let name = if step == Step::ProjectMd {
                "project_md"
            } else {
                "attach_multiroot"
            };
            let mut details = json!({ "step": name, "cause": e.to_string() });
            if step == Step::ProjectMd {
                details["attach_multiroot"] =
                    json!({ "skipped": true, "reason": "project_md_failed" });
            }
            init_failed(
                format!("workspace-init did not complete: {}.", sentence(&e)),
                &e.action(),
                details,
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
    let model = to_json(&plan, args.dry_run);
    Ok(match style.format {
        Format::Json => Outcome::json(&model),
        Format::Human => Outcome::text(human(
            &plan,
            args.dry_run,
            style.detail,
            Paint::new(style.color),
        )),
    })
}

fn paths(list: &[PathBuf]) -> Value {
    list.iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect()
}

fn attach_json(plan: &InitPlan) -> Value {
    let v = &plan.visibility;
    if v.external.is_empty() {
        let mut out = json!({ "skipped": true, "reason": "no_external_sources" });
        let removed = v.hosts.removed();
        if !removed.is_empty() {
            out["detached_removed"] = json!(removed);
            out["claude"] = host_json(&v.hosts.claude);
            out["codex"] = host_json(&v.hosts.codex);
        }
        return out;
    }
    multiroot_json(&v.external, &v.hosts, false)
}

fn legacy_json(plan: &InitPlan) -> Value {
    plan.legacy_launch
        .iter()
        .map(|l| {
            json!({
                "tool": l.tool,
                "from": rel(&plan.root, &l.from),
                "to": rel(&plan.root, &l.to),
                "action": l.action.as_str(),
            })
        })
        .collect()
}

fn to_json(plan: &InitPlan, dry_run: bool) -> Value {
    let b = &plan.block;
    let mut project_md = json!({
        "ok": true,
        "action": "init",
        "mode": "init",
        "working_branches": b.working_branches.to_json(),
        "qa_branches": b.qa_branches.to_json(),
        "results": results_json(&plan.files),
    });
    if !plan.dropped_lines.is_empty() {
        project_md["dropped_lines"] = json!(plan.dropped_lines);
    }
    if let Some(traces) = chosen_for_the_reference(&plan.language, &plan.files) {
        project_md["block_language"] = block_language_json(traces);
    }
    json!({
        "ok": true,
        "dry_run": dry_run,
        "workspace": plan.root.to_string_lossy(),
        "sources": b.sources.len(),
        "scaffold": {
            "created": paths(&plan.scaffold.created),
            "existing": paths(&plan.scaffold.existing),
            "pruned": paths(&plan.scaffold.pruned),
        },
        "skills_toml": if plan.skills_toml.text.is_some() { "created" } else { "exists" },
        "gitignore": plan.gitignore.action,
        "legacy_launch": legacy_json(plan),
        "project_md": project_md,
        "attach_multiroot": attach_json(plan),
    })
}

/// `p` relative to the workspace root (as is when it lies elsewhere).
fn rel(root: &Path, p: &Path) -> String {
    p.strip_prefix(root)
        .unwrap_or(p)
        .to_string_lossy()
        .into_owned()
}

fn human(plan: &InitPlan, dry_run: bool, detail: bool, p: Paint) -> String {
    let root = clean(&plan.root.to_string_lossy()).into_owned();
    let b = &plan.block;
    let title = if dry_run {
        format!("workspace-init · dry run, nothing written · {root}")
    } else {
        format!("workspace-init · {root}")
    };
    let mut out = format!("{}\n", p.bold(&title));
    let aliases: Vec<String> = b
        .sources
        .iter()
        .map(|s| clean(&s.alias).into_owned())
        .collect();
    out.push_str(&format!(
        "  {:<12} {} ({})\n",
        "Sources",
        aliases.len(),
        aliases.join(", ")
    ));
    let sc = &plan.scaffold;
    out.push_str(&format!(
        "  {:<12} {} created, {} already there, {} pruned\n",
        "Scaffold",
        sc.created.len(),
        sc.existing.len(),
        sc.pruned.len()
    ));
    let skills = if plan.skills_toml.text.is_some() {
        "created"
    } else {
        "exists"
    };
    out.push_str(&format!("  {:<12} {skills}\n", "skills.toml"));
    out.push_str(&format!(
        "  {:<12} {}\n",
        ".gitignore", plan.gitignore.action
    ));
    out.push_str(&results_human(&plan.files));
    if let Some(traces) = chosen_for_the_reference(&plan.language, &plan.files) {
        out.push_str(&block_language_human(traces));
    }
    let v = &plan.visibility;
    if v.external.is_empty() {
        out.push_str(&format!("  {:<12} no external sources\n", "Multi-root"));
    } else {
        out.push_str(&format!(
            "  {:<12} {} external folder(s)\n",
            "Multi-root",
            v.external.len()
        ));
    }
    if !v.external.is_empty() || !v.hosts.removed().is_empty() {
        out.push_str(&hosts_human(&v.hosts, false));
    }
    if !plan.legacy_launch.is_empty() {
        out.push_str(&format!(
            "  {:<12} {} legacy launch folder(s) of docs/tools\n",
            "Launch",
            plan.legacy_launch.len()
        ));
    }
    out.push_str(&dropped_human(&plan.dropped_lines));
    if detail {
        out.push_str("\nSources\n");
        for s in &b.sources {
            out.push_str(&format!(
                "  {:<12} {}  main: {}\n",
                clean(&s.alias),
                clean(&s.path),
                clean(s.main_branch.as_deref().unwrap_or("—"))
            ));
        }
        for (label, list) in [
            ("Created", &sc.created),
            ("Already there", &sc.existing),
            ("Pruned", &sc.pruned),
        ] {
            if !list.is_empty() {
                out.push_str(&format!("\n{label}\n"));
                for path in list.iter() {
                    out.push_str(&format!("  {}\n", clean(&rel(&plan.root, path))));
                }
            }
        }
        let removed = v.hosts.removed();
        if !v.external.is_empty() || !removed.is_empty() {
            out.push_str("\nMulti-root\n");
            for path in &v.external {
                out.push_str(&format!("  attached {}\n", clean(path)));
            }
            for path in &removed {
                out.push_str(&format!("  removed  {}\n", clean(path)));
            }
        }
        if !plan.legacy_launch.is_empty() {
            out.push_str("\nLegacy launch folders\n");
            for l in &plan.legacy_launch {
                out.push_str(&format!(
                    "  {:<8} {} -> {}\n",
                    l.action.as_str(),
                    clean(&rel(&plan.root, &l.from)),
                    clean(&rel(&plan.root, &l.to))
                ));
            }
        }
    }
    out
}
