//! `aw context-budget [--root <dir>] [--baseline <file>]`: what the bundle costs an agent,
//! command by command, judged against a frozen baseline when one is given (a CI check). The
//! measures and the judging are `aw_core::bundle::budget`.

use super::Bundle;
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use crate::style::clean;
use aw_core::bundle::TOKENS_ESTIMATE;
use aw_core::bundle::budget::{
    Check, HEADROOM_PERCENT, Report, Status, Verdict, figures, judge, measure,
};
use aw_core::error_code::ErrorCode;
use aw_workspace::project::read_optional;
use clap::Args;
use serde_json::{Value, json};
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
    let mut model = serde_json::to_value(&report).unwrap_or(Value::Null);
    let current = figures(&model).unwrap_or_default();
    let frozen = match &args.baseline {
        Some(path) => Some((path, read_baseline(path)?)),
        None => None,
    };
    let (verdict, checks) = match &frozen {
        Some((_, (_, baseline))) => judge(&current, baseline),
        None => (Verdict::Measured, Vec::new()),
    };
    let (root, origin) = bundle.origin();
    if let Some(m) = model.as_object_mut() {
        if let Some(rev) = m.get_mut("revision").and_then(Value::as_object_mut) {
            rev.insert("cli_version".into(), json!(env!("CARGO_PKG_VERSION")));
        }
        let mut head = serde_json::Map::new();
        head.insert("root".into(), root);
        head.insert("root_origin".into(), json!(origin));
        head.insert("tokens_estimate".into(), json!(TOKENS_ESTIMATE));
        head.extend(std::mem::take(m));
        *m = head;
        m.insert("verdict".into(), json!(verdict));
        m.insert("headroom_percent".into(), json!(HEADROOM_PERCENT));
        m.insert(
            "baseline".into(),
            match &frozen {
                Some((path, (rev, _))) => json!({
                    "path": path.display().to_string(),
                    "revision": rev,
                    "same_revision": rev.get("digest") == Some(&json!(report.revision.digest)),
                }),
                None => Value::Null,
            },
        );
        let of = |s: Status| -> Vec<&Check> { checks.iter().filter(|c| c.status == s).collect() };
        m.insert("checks".into(), json!(checks));
        m.insert("offenders".into(), json!(of(Status::Over)));
        m.insert("new_rows".into(), json!(of(Status::New)));
    }
    let exit = u8::from(verdict == Verdict::OverBudget);
    let outcome = match style.format {
        Format::Json => Outcome::json(&model),
        Format::Human => Outcome::text(human(&report, &bundle, verdict, &checks, &args.baseline)),
    };
    Ok(outcome.with_exit(exit))
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

fn human(
    r: &Report,
    bundle: &Bundle,
    verdict: Verdict,
    checks: &[Check],
    baseline: &Option<PathBuf>,
) -> String {
    let place = bundle
        .root
        .as_ref()
        .map_or("the bundle built into aw".to_owned(), |p| {
            p.display().to_string()
        });
    let mut out = format!(
        "{}: {} files, {} lines, {} bytes (~{} tokens; tokens ≈ bytes / 4)\nrevision {}\n\n",
        clean(&place),
        r.bundle.files,
        r.bundle.lines,
        r.bundle.bytes,
        r.bundle.tokens,
        r.revision.digest
    );
    let mut rows: Vec<[String; 5]> = vec![[
        "COMMAND".into(),
        "BODY lines/bytes".into(),
        "READ-SET files".into(),
        "lines/bytes".into(),
        "~tokens".into(),
    ]];
    for (a, g) in r.activation.rows.iter().zip(&r.guaranteed.rows) {
        rows.push([
            clean(&a.command).into_owned(),
            format!("{}/{}", a.size.lines, a.size.bytes),
            g.size.files.to_string(),
            format!("{}/{}", g.size.lines, g.size.bytes),
            g.size.tokens.to_string(),
        ]);
    }
    let widths: Vec<usize> = (0..4)
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    for row in &rows {
        out.push_str(&format!(
            "  {:<w0$}  {:>w1$}  {:>w2$}  {:>w3$}  {:>6}\n",
            row[0],
            row[1],
            row[2],
            row[3],
            row[4],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2],
            w3 = widths[3],
        ));
    }
    out.push_str(&format!(
        "\ndiscovery {} bytes (~{} tokens) · activation median {} bytes · modules {} files, {} bytes\n",
        r.discovery.bytes,
        r.discovery.tokens,
        r.activation.median_bytes,
        r.modules.files,
        r.modules.bytes
    ));
    match (verdict, baseline) {
        (Verdict::Measured, _) | (_, None) => out.push_str("verdict: measured (no baseline)\n"),
        (v, Some(path)) => {
            let word = if v == Verdict::OverBudget {
                "over-budget"
            } else {
                "ok"
            };
            out.push_str(&format!(
                "verdict: {word} against {} (ceiling: baseline × {}%)\n",
                clean(&path.display().to_string()),
                HEADROOM_PERCENT
            ));
            for c in checks {
                let what = match c.status {
                    Status::Over => "over",
                    Status::New => "new",
                    Status::Ok => continue,
                };
                out.push_str(&format!(
                    "  {what}: {} {}: {} bytes{}\n",
                    c.measure,
                    clean(&c.key),
                    c.actual,
                    c.ceiling
                        .map(|x| format!(" > ceiling {x}"))
                        .unwrap_or_default()
                ));
            }
        }
    }
    out
}
