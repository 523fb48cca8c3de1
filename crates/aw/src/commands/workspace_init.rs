//! `aw workspace-init`: makes a folder a workspace, or reconciles one.
//!
//! Creates `.<ns>/sessions/`, seeds `.<ns>/skills.toml`, keeps aw's `.gitignore` sections,
//! writes the `<NS>-PROJECT` block into `CLAUDE.md` and `AGENTS.md`, and makes sources outside
//! the folder visible to Claude Code. The target is `--workspace <dir>` or the current folder,
//! exactly: init never walks up, it creates the workspace where it is asked to.
//!
//! Differences from the reference: a re-run that changes nothing reports `unchanged` and keeps
//! every byte; `--dry-run` reports exactly what a real run would change; legacy `QTC-PROJECT`
//! markers are replaced instead of getting a second block; branch lines of removed sources are
//! pruned (`dropped_lines`); empty `docs/<category>` folders are kept; the history line names
//! the real namespace; the empty `.lock` is never deleted (the OS lock lives on that file).

use super::project_block::{self, BlockFlags, invalid, results_json};
use crate::cli::Global;
use crate::failure::Failure;
use crate::output::{Format, Outcome, tty_default};
use aw_workspace::WorkspaceError;
use aw_workspace::init::{self, InitError, InitPlan, InitRequest, Step, discard_fresh_state};
use aw_workspace::locate::{LocateInput, Workspace, locate};
use clap::Args;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// Arguments of `aw workspace-init`.
#[derive(Debug, Args)]
#[command(
    long_about = "Make the current folder (or `--workspace <dir>`) an aw workspace, or reconcile one.\n\n\
Creates `.<ns>/sessions/`, seeds `.<ns>/skills.toml` when absent, keeps aw's sections of \
`.gitignore`, and writes the project block into CLAUDE.md and AGENTS.md (text outside the block \
is never touched). The declared sources replace the block's; with none declared, the block's \
own sources are kept. Sources outside the folder are added to `.claude/settings.local.json`. \
Running it again changes nothing unless something changed."
)]
pub struct WorkspaceInitArgs {
    /// The block values: sources, branches, project description.
    #[command(flatten)]
    pub block: BlockFlags,
    /// Report what would change, and change nothing.
    #[arg(long = "dry-run")]
    pub dry_run: bool,
}

/// The folder to initialise: `--workspace`, else the current folder; it must exist.
fn target(global: &Global) -> Result<(PathBuf, PathBuf), Failure> {
    let cwd = std::env::current_dir().map_err(|e| {
        Failure::new(
            "IO_ERROR",
            format!("The current folder cannot be read: {e}."),
            "Run aw from an existing folder.",
        )
    })?;
    let dir = match &global.workspace {
        Some(w) => cwd.join(w),
        None => cwd.clone(),
    };
    let dir = dir
        .canonicalize()
        .ok()
        .filter(|d| d.is_dir())
        .ok_or_else(|| {
            Failure::new(
                "INVALID_INPUT",
                format!("{} is not an existing folder.", dir.display()),
                "Create the folder first, or pass the right `--workspace <dir>`.",
            )
        })?;
    Ok((cwd, dir))
}

fn locate_here(global: &Global) -> Result<Workspace, Failure> {
    let (cwd, dir) = target(global)?;
    Ok(locate(&LocateInput {
        cwd,
        // Naming the folder explicitly keeps locate from walking up.
        workspace: Some(dir),
        namespace: global.namespace.clone(),
        env_namespace: std::env::var("AW_NAMESPACE").ok(),
        home: std::env::var_os("HOME").map(Into::into),
    })?)
}

fn init_failed(message: String, action: &str, details: Value) -> Failure {
    Failure::new("WORKSPACE_INIT_FAILED", message, action).with_details(details)
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
            "Fix or remove that file (it only lists extra folders for Claude Code), then run workspace-init again.",
            json!({ "step": "attach_multiroot", "file": path.to_string_lossy() }),
        ),
    }
}

fn lock_failure(e: WorkspaceError) -> Failure {
    let WorkspaceError::LockBusy { pid, .. } = &e else {
        return e.into();
    };
    init_failed(
        format!("workspace-init wrote nothing: {}.", e),
        &e.action(),
        json!({
            "cause": "LOCK_BUSY",
            "pid": pid,
            "project_md": { "ok": false },
            "attach_multiroot": { "skipped": true, "reason": "project_md_failed" },
        }),
    )
}

fn apply_failure((step, e): (Step, WorkspaceError)) -> Failure {
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
                format!("workspace-init did not complete: {}.", e),
                &e.action(),
                details,
            )
        }
    }
}

/// Runs the command.
pub fn run(args: &WorkspaceInitArgs, global: &Global) -> Result<Outcome, Failure> {
    let style = global.flags().resolve(tty_default())?;
    let now = aw_workspace::clock::local_wall_clock().minute_stamp();
    let req = InitRequest {
        sources: project_block::sources(&args.block.sources)?,
        working: project_block::branch_items("working-branch", &args.block.working)?,
        qa: project_block::branch_items("qa-branch", &args.block.qa)?,
        main_branch: project_block::main_branch(&args.block.main_branch)?,
        project: project_block::project(&args.block.project)?,
        now,
    };
    let ws = locate_here(global)?;
    let plan = if args.dry_run {
        init::plan(&ws, req).map_err(plan_failure)?
    } else {
        let fresh = !ws.state_dir().exists();
        let lock = aw_workspace::lock::WorkspaceLock::acquire(
            &ws.lock_path(),
            aw_workspace::lock::default_wait(),
        )
        .map_err(lock_failure)?;
        let plan = match init::plan(&ws, req) {
            Ok(p) => p,
            Err(e) => {
                drop(lock);
                if fresh {
                    discard_fresh_state(&ws);
                }
                return Err(plan_failure(e));
            }
        };
        init::apply(&plan).map_err(apply_failure)?;
        plan
    };
    let model = to_json(&plan, args.dry_run);
    Ok(match style.format {
        Format::Json => Outcome::json(model),
        Format::Human => Outcome::text(human(&plan, args.dry_run, style.detail, style.color)),
    })
}

fn paths(list: &[PathBuf]) -> Value {
    list.iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect()
}

fn attach_json(plan: &InitPlan) -> Value {
    let v = &plan.visibility;
    let claude = json!({
        "file": ".claude/settings.local.json",
        "action": v.claude.action,
        "added": v.merge.added,
        "removed": v.merge.removed,
    });
    if v.external.is_empty() {
        let mut out = json!({ "skipped": true, "reason": "no_external_sources" });
        if !v.merge.removed.is_empty() {
            out["detached_removed"] = json!(v.merge.removed);
            out["claude"] = claude;
        }
        return out;
    }
    let unsupported = json!({ "skipped": true, "reason": "not_supported" });
    json!({
        "paths": v.external,
        "claude": claude,
        "codex": unsupported,
        "warp": unsupported,
        "detached_removed": v.merge.removed,
    })
}

fn to_json(plan: &InitPlan, dry_run: bool) -> Value {
    let b = &plan.block;
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
        "project_md": {
            "ok": true,
            "action": "init",
            "mode": "init",
            "working_branches": b.working_branches.to_json(),
            "qa_branches": b.qa_branches.to_json(),
            "results": results_json(&plan.files),
            "dropped_lines": plan.dropped_lines.iter().map(|d| json!({
                "list": d.list, "alias": d.alias, "branch": d.branch,
            })).collect::<Vec<_>>(),
        },
        "attach_multiroot": attach_json(plan),
    })
}

fn rel(root: &Path, p: &Path) -> String {
    p.strip_prefix(root)
        .map(|r| r.to_string_lossy().into_owned())
        .unwrap_or_else(|_| p.to_string_lossy().into_owned())
}

fn human(plan: &InitPlan, dry_run: bool, detail: bool, color: bool) -> String {
    let root = &plan.root;
    let b = &plan.block;
    let title = if dry_run {
        format!(
            "workspace-init · dry run, nothing written · {}",
            root.display()
        )
    } else {
        format!("workspace-init · {}", root.display())
    };
    let mut out = if color {
        format!("\x1b[1m{title}\x1b[0m\n")
    } else {
        format!("{title}\n")
    };
    let aliases: Vec<&str> = b.sources.iter().map(|s| s.alias.as_str()).collect();
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
    out.push_str(&project_block::results_human(&plan.files));
    let v = &plan.visibility;
    let multi = if v.external.is_empty() {
        "no external sources".to_owned()
    } else {
        format!(
            "{} external folder(s); .claude/settings.local.json {}; Codex and Warp not supported",
            v.external.len(),
            v.claude.action
        )
    };
    out.push_str(&format!("  {:<12} {multi}\n", "Multi-root"));
    if !plan.dropped_lines.is_empty() {
        out.push_str(&format!(
            "  {:<12} {} branch line(s) of removed sources\n",
            "Dropped",
            plan.dropped_lines.len()
        ));
    }
    if detail {
        out.push_str("\nSources\n");
        for s in &b.sources {
            out.push_str(&format!(
                "  {:<12} {}  main: {}\n",
                s.alias,
                s.path,
                s.main_branch.as_deref().unwrap_or("—")
            ));
        }
        for (label, list) in [
            ("Created", &sc.created),
            ("Already there", &sc.existing),
            ("Pruned", &sc.pruned),
        ] {
            if !list.is_empty() {
                out.push_str(&format!("\n{label}\n"));
                for p in list.iter() {
                    out.push_str(&format!("  {}\n", rel(root, p)));
                }
            }
        }
        if !plan.dropped_lines.is_empty() {
            out.push_str("\nDropped branch lines\n");
            for d in &plan.dropped_lines {
                let list = if d.list == "qa_branches" {
                    "QA"
                } else {
                    "working"
                };
                out.push_str(&format!("  {list:<8} {}: {}\n", d.alias, d.branch));
            }
        }
        if !v.external.is_empty() || !v.merge.removed.is_empty() {
            out.push_str("\nMulti-root\n");
            for p in &v.merge.added {
                out.push_str(&format!("  added    {p}\n"));
            }
            for p in &v.merge.removed {
                out.push_str(&format!("  removed  {p}\n"));
            }
            for p in v.external.iter().filter(|p| !v.merge.added.contains(p)) {
                out.push_str(&format!("  kept     {p}\n"));
            }
        }
    }
    out
}
