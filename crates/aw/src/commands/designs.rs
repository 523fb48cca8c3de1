//! `aw designs [--id DES-NNN] [--plan <path>] [--require-approval]`: the design packages under
//! `docs/designs/`, one package by identity, or the plan-exec design gate over a plan.

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use aw_core::design::gate::{self, Verdict};
use aw_core::design::review::entry_approved;
use aw_core::error_code::ErrorCode;
use aw_core::wire::designs::{Designs, Package, PlanGate};
use aw_workspace::capability::designs::read_index;
use aw_workspace::family::skill::resolve_arg;
use aw_workspace::locate::current_dir;
use aw_workspace::project::read_optional;
use clap::Args;

// Arguments of `aw designs`.
#[derive(Debug, Args)]
#[command(
    long_about = "List the design packages under docs/designs/ (each folder holding a \
design-manifest.json), with identity, revision, whether it validates and why not; duplicate \
identities are reported.\n\n`--id DES-NNN` shows one package. `--plan <path>` runs the plan-exec \
design gate: every package the plan references (in its `## Design references` section, else \
anywhere outside code blocks; `DES-NNN` or `DES-NNN@rN`) must resolve, validate and, when pinned, \
still be that revision; with `--require-approval` its current revision must also carry an \
approving review (reviews/rNNN.json, written by `aw capability apply` of design.record). A gate \
that does not pass fails with DESIGN_GATE_FAILED (exit 1) and lists each reference's verdict."
)]
pub struct DesignsArgs {
    /// One package by identity.
    #[arg(long, value_name = "DES-NNN", conflicts_with = "plan")]
    pub id: Option<String>,
    /// Run the design gate over this plan.
    #[arg(long, value_name = "PATH")]
    pub plan: Option<String>,
    /// With --plan: every referenced package must be approved at its current revision.
    #[arg(long, requires = "plan")]
    pub require_approval: bool,
}

/// Runs `aw designs`.
pub fn run(args: &DesignsArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let ws = cx.workspace_settled()?;
    let index = read_index(&ws.root)?;
    if let Some(id) = &args.id {
        let Some(entry) = index.resolve(id).or_else(|| index.locate(id)) else {
            return Err(Failure::new(
                ErrorCode::DesignPackageNotFound,
                format!("no package under {} has the identity {id}", index.root),
                "run `aw designs` to list the identities",
            ));
        };
        return Ok(Outcome::shown(
            &Designs::Package(Package { package: entry }),
            &style,
        ));
    }
    if let Some(plan) = &args.plan {
        let path = resolve_arg(&current_dir()?, plan);
        let Some(text) = read_optional(&path)? else {
            return Err(Failure::new(
                ErrorCode::DesignPlanUnreadable,
                format!("the plan '{plan}' does not exist"),
                "pass the path of a plan, e.g. docs/plans/001-plan-x.md",
            ));
        };
        let gate = gate::check(
            aw_core::documents::design_refs::references(&text),
            &index,
            args.require_approval,
            entry_approved,
        );
        if !gate.passed {
            let failing = gate
                .references
                .iter()
                .filter(|c| c.verdict != Verdict::Ok)
                .count();
            let failure = Failure::new(
                ErrorCode::DesignGateFailed,
                format!(
                    "{failing} of the {} design references of '{plan}' do not pass the gate",
                    gate.references.len()
                ),
                "fix each reference listed (create or repair the package, update the plan's pin, or record an approval), then run the gate again",
            );
            return Err(match style.format {
                Format::Json => failure.with_data(|d| d.gate = Some(gate)),
                Format::Human => Failure {
                    message: format!(
                        "{}\n{}",
                        failure.message,
                        crate::views::designs::gate_lines(&gate)
                    ),
                    ..failure
                },
            });
        }
        return Ok(Outcome::shown(
            &Designs::Gate(PlanGate { plan, gate: &gate }),
            &style,
        ));
    }
    Ok(Outcome::shown(&Designs::Index(&index), &style))
}
