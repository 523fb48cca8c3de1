//! `aw remove-source <alias>`: takes a source out of the workspace.
//!
//! Its row and branch lines leave the project block (CLAUDE.md and AGENTS.md), its folder leaves
//! the agent hosts' multi-root settings (unless another source has the same folder), and its
//! launch folder `.<ns>/launch/<alias>/` is deleted. The source's own folder is never touched.
//! The reference also stopped the source's processes; aw starts and tracks none, so there is
//! nothing to stop.

use super::{invalid, no_block};
use crate::commands::visibility::settings_refused;
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use crate::style::clean;
use crate::views::multiroot::{hosts_human, multiroot_json};
use crate::views::project_block::{dropped_human, results_human, results_json};
use aw_core::error_code::ErrorCode;
use aw_core::project::InputError;
use aw_core::project::source::check_alias;
use aw_workspace::project::source_removal::{Detach, RemovalPlan, RemoveError, run as remove};
use clap::Args;
use serde_json::{Value, json};

// Arguments of `aw remove-source`.
#[derive(Debug, Args)]
#[command(
    long_about = "Take a source out of the workspace: remove its row and its working and QA \
branch lines from the project block (CLAUDE.md and AGENTS.md), withdraw its folder from \
`.claude/settings.local.json` and `.codex/config.toml` when it lies outside the workspace and \
no other source has it, and delete its launch folder `.<ns>/launch/<alias>/` (unless it holds a \
symbolic link). The source's own folder is never deleted. Everything happens under the workspace \
lock; `--dry-run` reports what would change."
)]
pub struct RemoveSourceArgs {
    /// The source's alias, as the project block lists it.
    #[arg(value_name = "ALIAS")]
    pub alias: Option<String>,
    /// Report what would change, and change nothing.
    #[arg(long = "dry-run")]
    pub dry_run: bool,
}

/// The reference's token for an alias that names no source (`data.error`): `alias_required`
/// for a blank one, else `unknown_source: <alias>`.
fn not_a_source(f: Failure, alias: &str) -> Failure {
    let token = if alias.trim().is_empty() {
        "alias_required".to_owned()
    } else {
        format!("unknown_source: {alias}")
    };
    f.with_data(|d| d.error = Some(token))
}

fn refused(e: RemoveError, alias: &str) -> Failure {
    match e {
        RemoveError::NoBlock => not_a_source(no_block(), alias),
        RemoveError::Input(e) => {
            let known = match &e {
                InputError::UnknownSource { alias, known } => {
                    Some(json!({ "alias": alias, "known": known }))
                }
                _ => None,
            };
            match known {
                Some(details) => not_a_source(invalid(e).with_details(details), alias),
                None => invalid(e),
            }
        }
        RemoveError::Visibility(e) => settings_refused(e),
    }
}

fn detach_json(d: &Detach) -> Value {
    match d {
        Detach::NotExternal => json!({ "skipped": true, "reason": "not_external" }),
        Detach::StillUsed => json!({ "skipped": true, "reason": "still_used" }),
        Detach::Withdrawn { path, hosts } => {
            multiroot_json(std::slice::from_ref(path), hosts, false)
        }
    }
}

fn rel(p: &RemovalPlan, path: &std::path::Path) -> String {
    path.strip_prefix(&p.root)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

fn to_json(p: &RemovalPlan, dry_run: bool) -> Value {
    let s = &p.removal.source;
    json!({
        "ok": true,
        "dry_run": dry_run,
        "workspace": p.root.to_string_lossy(),
        "alias": s.alias,
        // The reference's keys: the source's path as declared, and the processes it stopped
        // (aw starts none, so none).
        "path": s.path,
        "processesStopped": 0,
        "source": { "alias": s.alias, "path": s.path, "main_branch": s.main_branch },
        "project_md": { "results": results_json(&p.files) },
        "dropped_lines": p.dropped_lines,
        "detach_multiroot": detach_json(&p.detach),
        "launch": {
            "path": rel(p, &p.launch.path),
            "action": p.launch.action.as_str(),
        },
    })
}

fn human(p: &RemovalPlan, dry_run: bool) -> String {
    let s = &p.removal.source;
    let dry = if dry_run {
        " · dry run, nothing written"
    } else {
        ""
    };
    let mut out = format!("remove-source{dry} · {}\n", clean(&s.alias));
    out.push_str(&results_human(&p.files));
    out.push_str(&dropped_human(&p.dropped_lines));
    match &p.detach {
        Detach::NotExternal => {
            out.push_str(&format!("  {:<12} inside the workspace\n", "Multi-root"));
        }
        Detach::StillUsed => out.push_str(&format!(
            "  {:<12} kept: another source has the same folder\n",
            "Multi-root"
        )),
        Detach::Withdrawn { hosts, .. } => out.push_str(&hosts_human(hosts, false)),
    }
    out.push_str(&format!(
        "  {:<12} {} {}\n",
        "Launch",
        clean(&rel(p, &p.launch.path)),
        p.launch.action.as_str()
    ));
    out.push_str(&format!(
        "  {:<12} {} (left as it is)\n",
        "Folder",
        clean(&s.path)
    ));
    out
}

/// Runs the command.
pub fn run(args: &RemoveSourceArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let Some(alias) = &args.alias else {
        return Err(Failure::new(
            ErrorCode::InvalidInput,
            "`aw remove-source` needs the alias of the source to remove.",
            "Run `aw remove-source <alias>`; `aw sources` lists the aliases.",
        ));
    };
    check_alias(alias).map_err(|e| not_a_source(invalid(e), alias))?;
    let ws = cx.workspace()?;
    let plan =
        remove(&ws, alias, &cx.now.minute_stamp(), args.dry_run).map_err(|e| refused(e, alias))?;
    Ok(match style.format {
        Format::Json => Outcome::json(&to_json(&plan, args.dry_run)),
        Format::Human => Outcome::text(human(&plan, args.dry_run)),
    })
}
