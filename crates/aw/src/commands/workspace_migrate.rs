//! `aw workspace-migrate [--apply]`: brings a workspace written by old releases up to the current
//! model: a hub file's block markers of another prefix become this namespace's, and the legacy
//! session series (`session<NNN>-<name>`) is reconciled with HISTORY.md. Without `--apply` it
//! writes nothing. The rules are `aw_core::project::migrate` and `aw_core::session::migrate`;
//! the reading and the writing, `aw_workspace::migrate`.

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::project::migrate::MarkerPlan;
use aw_core::wire::workspace_migrate::{
    MarkerRename, MigrateApplied, MigrateConflict, MigratePreview, RowSeed, SentinelSeed,
    WorkspaceMigrate,
};
use aw_workspace::locate::slashed;
use aw_workspace::migrate::{self, Plan};
use clap::Args;

// Arguments of `aw workspace-migrate`.
#[derive(Debug, Args)]
#[command(
    long_about = "Bring a workspace written by older releases up to the current model. Without \
`--apply` nothing is written: the command prints what would change.\n\nTwo migrations:\n\n  \
Block markers: in CLAUDE.md and AGENTS.md, a project block between another prefix's markers \
(`<!-- AGENT-WORKFLOW-PROJECT-START -->`, say) gets this namespace's markers; its content is \
kept byte for byte. An empty block of this namespace in the same file (added by a release that \
did not see the old markers) is cut out first, unless it declares something the old block does \
not.\n  Legacy sessions: each `session<NNN>-<name>` folder is reconciled with HISTORY.md, which \
indexes sessions by number: a folder with no row gets one (`active`, or `closed` when it holds \
`.closed`; its own date or `—`, never today's); a folder whose row says closed gets its missing \
`.closed`. Current folders (`NNN-<name>`) are never touched.\n\nWhat cannot be settled without \
a guess is listed under `conflicts` and left untouched: two foreign prefixes \
(`marcadores_ambiguos`), an unreadable foreign block (`bloque_ilegible`), an empty block that \
declares more (`duplicado_con_contenido`), a number two folders share (`numero_compartido`), a \
row state that is neither active nor closed (`estado_ilegible`), a row that says active over a \
closed folder (`estado_divergente`).\n\n`--apply` plans again under the workspace lock (a busy \
lock is refused at once with LOCK_BUSY) and writes: each hub file whole, each `.closed`, the \
HISTORY rows. Run it again: it then reports nothing pending."
)]
pub struct WorkspaceMigrateArgs {
    /// Write the changes (without it, only show them).
    #[arg(long)]
    pub apply: bool,
}

fn conflicts(plan: &Plan, absolute: bool) -> Vec<MigrateConflict> {
    let hubs = plan.hubs.iter().filter_map(|h| match &h.plan {
        MarkerPlan::Conflict { reason, detail } => Some(MigrateConflict {
            subject: if absolute {
                slashed(&h.path)
            } else {
                h.name.to_owned()
            },
            reason: reason.as_str(),
            detail: detail.clone(),
        }),
        _ => None,
    });
    let sessions = plan
        .sessions
        .conflicts
        .iter()
        .map(|(folder, reason, detail)| MigrateConflict {
            subject: folder.clone(),
            reason: reason.as_str(),
            detail: detail.clone(),
        });
    hubs.chain(sessions).collect()
}

/// Runs the command.
pub fn run(args: &WorkspaceMigrateArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let ws = cx.workspace()?;
    let workspace = slashed(&ws.root);
    if args.apply {
        let (plan, done) = migrate::apply(&ws)?;
        let paths = |v: &[std::path::PathBuf]| v.iter().map(|p| slashed(p)).collect();
        let model = WorkspaceMigrate::Applied(MigrateApplied {
            action: "apply",
            workspace,
            markers_renamed: paths(&done.renamed),
            duplicates_dropped: paths(&done.duplicates_dropped),
            sentinels_seeded: done.sentinels,
            rows_seeded: done.rows,
            rows_without_date: done.rows_without_date,
            conflicts: conflicts(&plan, true),
            next_correlative: plan.next_correlative,
        });
        return Ok(Outcome::shown(&model, &style));
    }
    let plan = migrate::plan(&ws)?;
    let markers = plan
        .hubs
        .iter()
        .filter_map(|h| match &h.plan {
            MarkerPlan::Rename {
                from,
                to,
                drops_duplicate,
                ..
            } => Some(MarkerRename {
                file: h.name.to_owned(),
                from: from.clone(),
                to: to.clone(),
                drops_duplicate: *drops_duplicate,
            }),
            _ => None,
        })
        .collect();
    let model = WorkspaceMigrate::Preview(MigratePreview {
        action: "preview",
        workspace,
        markers,
        sentinels: plan
            .sessions
            .sentinels
            .iter()
            .map(|(folder, date)| SentinelSeed {
                folder: folder.clone(),
                date: date.clone(),
            })
            .collect(),
        rows: plan
            .sessions
            .rows
            .iter()
            .map(|(folder, row)| RowSeed {
                folder: folder.clone(),
                state: row.state.clone(),
                date: row.date.clone(),
            })
            .collect(),
        conflicts: conflicts(&plan, false),
        legacy: plan.legacy.clone(),
        next_correlative: plan.next_correlative.clone(),
        pending: plan.pending(),
        next: "aw workspace-migrate --apply",
    });
    Ok(Outcome::shown(&model, &style))
}
