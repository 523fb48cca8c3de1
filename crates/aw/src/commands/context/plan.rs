//! `aw context-plan --command <c> [--signal s]… [--capability k]… [--root <dir>]`: which bundle
//! documents a command reads, in order, under the signals observed. The rules are
//! `aw_core::bundle::plan`.

use super::Bundle;
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome, emit_err};
use crate::style::clean;
use aw_core::bundle::plan::{Plan, PlanError, plan};
use aw_core::bundle::{TOKENS_ESTIMATE, tokens};
use aw_core::error_code::ErrorCode;
use aw_core::wire::context::{
    ContextPlan, PlanEntry, PlanFallback, Receipt, Tokens, UnknownCommand,
};
use clap::Args;
use std::path::PathBuf;

// Arguments of `aw context-plan`.
#[derive(Debug, Args)]
#[command(
    long_about = "Print the ordered read-set of a bundle command: which documents of the agent \
bundle to read, in which order, for the signals observed, so an agent reads only what the step \
needs.\n\nThe command's core documents come first, then the modules its signals pull in. A \
signal no command declares, or a module missing from the bundle, switches to the safe profile: \
the core and every module of the command. Without --root the bundle built into aw is planned \
(paths are bundle-relative and `absolute` is null); with --root, the bundle folder an agent host \
reads (e.g. ~/.claude/skills/w), with absolute paths and sizes on disk.\n\nJSON (when piped): \
{command, profile, signals, available_signals, read_set, bytes, degraded, notice, receipt, \
unknown_signals, capabilities}. On a terminal: one path per line, in reading order; a notice, if \
any, goes to stderr."
)]
pub struct ContextPlanArgs {
    /// The bundle command (`quick`, `plan-exec`, …).
    #[arg(long, value_name = "COMMAND")]
    pub command: Option<String>,
    /// A signal observed (repeatable, or comma-separated).
    #[arg(long = "signal", value_name = "SIGNAL", value_delimiter = ',')]
    pub signals: Vec<String>,
    /// A capability the host declares (repeatable, or comma-separated); recorded in the receipt.
    #[arg(long = "capability", value_name = "CAPABILITY", value_delimiter = ',')]
    pub capabilities: Vec<String>,
    /// A bundle folder on disk (default: the bundle built into aw).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// Runs `aw context-plan`.
pub fn run(args: &ContextPlanArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let bundle = Bundle::load(args.root.as_deref())?;
    let command = args.command.as_deref().unwrap_or("");
    let p = plan(&bundle.graph, &bundle.tree, command, &args.signals).map_err(refusal)?;
    let (root, origin) = bundle.origin();
    let mut caps: Vec<&str> = args
        .capabilities
        .iter()
        .map(|c| c.trim())
        .filter(|c| !c.is_empty())
        .collect();
    caps.sort_unstable();
    caps.dedup();
    let model = model(&p, &bundle, &caps, root.as_deref(), origin);
    if style.format == Format::Human
        && let Some(n) = &p.notice
    {
        emit_err(&format!("aw context-plan: {}\n", clean(n)));
    }
    Ok(Outcome::shown(&model, &style))
}

fn refusal(e: PlanError) -> Failure {
    match e {
        PlanError::NoCommand => Failure::new(
            ErrorCode::ContextPlanNoCommand,
            "No command to plan: --command is missing.",
            "Name the bundle command, e.g. `aw context-plan --command quick`.",
        ),
        PlanError::UnknownCommand { name, valid } => Failure::new(
            ErrorCode::ContextPlanUnknownCommand,
            format!("The bundle has no command `{name}`."),
            format!("Use one of: {}.", valid.join(", ")),
        )
        .with_details(UnknownCommand {
            command: name,
            available_commands: valid,
        }),
    }
}

fn model<'a>(
    p: &'a Plan,
    bundle: &Bundle,
    caps: &'a [&'a str],
    root: Option<&'a str>,
    root_origin: &'static str,
) -> ContextPlan<'a> {
    ContextPlan {
        command: &p.command,
        profile: p.profile,
        signals: &p.signals,
        available_signals: &p.available,
        read_set: p
            .read_set
            .iter()
            .map(|e| PlanEntry {
                path: &e.path,
                absolute: bundle.absolute(&e.path),
                bytes: e.bytes,
                kind: e.kind,
                signal: e.signal.as_deref(),
                missing: e.missing,
            })
            .collect(),
        bytes: p.bytes,
        degraded: p.degraded,
        notice: p.notice.as_deref(),
        receipt: Receipt {
            command: &p.command,
            profile: p.profile,
            signals: &p.signals,
            capabilities: caps,
            loaded: p
                .read_set
                .iter()
                .filter(|e| !e.missing)
                .map(|e| e.path.as_str())
                .collect(),
            reference_hops: 0,
            bytes: p.bytes,
            tokens: Tokens {
                available: false,
                reason: "aw runs no tokenizer",
                estimate: tokens(p.bytes),
                method: TOKENS_ESTIMATE,
            },
            fallback: PlanFallback {
                used: p.degraded,
                reasons: &p.reasons,
            },
            root,
            root_origin,
            telemetry: "local-only",
        },
        unknown_signals: &p.unknown_signals,
        capabilities: caps,
    }
}
