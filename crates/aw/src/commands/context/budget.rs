//! `aw context-budget [--root <dir>] [--baseline <file>]`: what the bundle costs an agent,
//! command by command, judged against a frozen baseline when one is given (a CI check). The
//! measures and the judging are `aw_core::bundle::budget`.

use super::Bundle;
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::bundle::TOKENS_ESTIMATE;
use aw_core::bundle::budget::{Check, HEADROOM_PERCENT, Status, Verdict, figures, judge, measure};
use aw_core::error_code::ErrorCode;
use aw_core::wire::context::{Baseline, BudgetRevision, ContextBudget};
use aw_workspace::project::read_optional;
use clap::Args;
use serde_json::Value;
use std::path::{Path, PathBuf};

// Arguments of `aw context-budget`.
#[derive(Debug, Args)]
#[command(
    long_about = "Measure what the agent bundle costs, command by command: lines, bytes and an \
estimated token count (bytes / 4, rounded up; no tokenizer is run) for discovery (the \
frontmatter descriptions a host loads up front), activation (each command document, and their \
median), guaranteed (each command's core read-set) and the modules (each counted once), with a \
revision of the tree (the first 16 hex digits of a SHA-256 over its sorted `path:size` lines, \
and its file count).\n\nWith --baseline <file> (a frozen `aw context-budget --json`), every \
figure may grow to floor(baseline × 1.10): above that it is an offender, the verdict is \
`over-budget` and the exit code 1. Rows new since the freeze are reported, not judged. Without \
a baseline the verdict is `measured`.\n\nJSON (when piped): {root, root_origin, \
tokens_estimate, revision, bundle, discovery, activation, guaranteed, modules, verdict, \
headroom_percent, baseline, checks, offenders, new_rows}. On a terminal: a table per command \
and the verdict."
)]
pub struct ContextBudgetArgs {
    /// A bundle folder on disk (default: the bundle built into aw).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// A frozen report to judge against (`aw context-budget --json > baseline.json`).
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
}

/// Runs `aw context-budget`.
pub fn run(args: &ContextBudgetArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let bundle = Bundle::load(args.root.as_deref())?;
    let report = measure(&bundle.graph, &bundle.tree);
    let current = figures(&serde_json::to_value(&report).unwrap_or_default()).unwrap_or_default();
    let frozen = match &args.baseline {
        Some(path) => Some((path, read_baseline(path)?)),
        None => None,
    };
    let (verdict, checks) = match &frozen {
        Some((_, (_, baseline))) => judge(&current, baseline),
        None => (Verdict::Measured, Vec::new()),
    };
    let (root, root_origin) = bundle.origin();
    let of = |s: Status| -> Vec<&Check> { checks.iter().filter(|c| c.status == s).collect() };
    let model = ContextBudget {
        root: root.as_deref(),
        root_origin,
        tokens_estimate: TOKENS_ESTIMATE,
        revision: BudgetRevision {
            digest: &report.revision.digest,
            files: report.revision.files,
            cli_version: env!("CARGO_PKG_VERSION"),
        },
        bundle: &report.bundle,
        discovery: &report.discovery,
        activation: &report.activation,
        guaranteed: &report.guaranteed,
        modules: &report.modules,
        verdict,
        headroom_percent: HEADROOM_PERCENT,
        baseline: frozen.as_ref().map(|(path, (rev, _))| Baseline {
            path: path.display().to_string(),
            revision: rev,
            same_revision: rev.get("digest").and_then(Value::as_str)
                == Some(report.revision.digest.as_str()),
        }),
        checks: &checks,
        offenders: of(Status::Over),
        new_rows: of(Status::New),
    };
    let exit = u8::from(verdict == Verdict::OverBudget);
    Ok(Outcome::shown(&model, &style).with_exit(exit))
}

/// The baseline's revision object and its judged figures.
fn read_baseline(path: &Path) -> Result<(Value, Vec<aw_core::bundle::budget::Figure>), Failure> {
    let invalid = |why: String| {
        Failure::new(
            ErrorCode::ContextBaselineInvalid,
            format!("The baseline {} {why}.", path.display()),
            "Freeze one with `aw context-budget --json > <file>` and pass that file.",
        )
    };
    let text = read_optional(path)
        .map_err(|e| invalid(format!("cannot be read ({e})")))?
        .ok_or_else(|| invalid("does not exist".to_owned()))?;
    let value: Value =
        serde_json::from_str(&text).map_err(|e| invalid(format!("is not JSON ({e})")))?;
    let figures = figures(&value).ok_or_else(|| {
        invalid("is not a budget report (it lacks the discovery, activation, guaranteed or modules figures)".to_owned())
    })?;
    Ok((
        value.get("revision").cloned().unwrap_or(Value::Null),
        figures,
    ))
}
