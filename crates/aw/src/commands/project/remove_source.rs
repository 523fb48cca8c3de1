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
use crate::output::Outcome;
use aw_core::error_code::ErrorCode;
use aw_core::project::InputError;
use aw_core::project::source::check_alias;
use aw_core::project::visibility::WARP_REASON;
use aw_core::wire::multiroot::{Multiroot, Skipped};
use aw_core::wire::project_block::FileResult;
use aw_core::wire::remove_source::{
    Detach as DetachModel, Launch, RemoveSource, RemovedSource, Results, UnknownSource,
};
use aw_workspace::project::source_removal::{Detach, RemovalPlan, RemoveError, run as remove};
use aw_workspace::project::visibility::HostChange;
use clap::Args;

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
                InputError::UnknownSource { alias, known } => Some(UnknownSource {
                    alias: alias.clone(),
                    known: known.clone(),
                }),
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

fn detach(d: &Detach) -> DetachModel<'_> {
    match d {
        Detach::NotExternal => DetachModel::Skipped(Skipped::because("not_external")),
        Detach::StillUsed => DetachModel::Skipped(Skipped::because("still_used")),
        Detach::Withdrawn { path, hosts } => DetachModel::Withdrawn(Multiroot {
            paths: std::slice::from_ref(path),
            claude: HostChange::wire(&hosts.claude),
            codex: HostChange::wire(&hosts.codex),
            warp: Skipped::because(WARP_REASON),
            detached_removed: hosts.removed(),
        }),
    }
}

fn rel(p: &RemovalPlan, path: &std::path::Path) -> String {
    path.strip_prefix(&p.root)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

fn model(p: &RemovalPlan, dry_run: bool) -> RemoveSource<'_> {
    let s = &p.removal.source;
    RemoveSource {
        ok: true,
        dry_run,
        workspace: p.root.to_string_lossy().into_owned(),
        alias: &s.alias,
        // The reference's keys: the source's path as declared, and the processes it stopped
        // (aw starts none, so none).
        path: &s.path,
        processes_stopped: 0,
        source: RemovedSource {
            alias: &s.alias,
            path: &s.path,
            main_branch: s.main_branch.as_deref(),
        },
        project_md: Results {
            results: p
                .files
                .iter()
                .map(|f| FileResult::new(f.file, f.action.as_str(), f.migrated))
                .collect(),
        },
        dropped_lines: &p.dropped_lines,
        detach_multiroot: detach(&p.detach),
        launch: Launch {
            path: rel(p, &p.launch.path),
            action: p.launch.action.as_str(),
        },
    }
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
    Ok(Outcome::shown(&model(&plan, args.dry_run), &style))
}
