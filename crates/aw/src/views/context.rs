//! The human views of `aw context-plan` and `aw context-budget`.

use super::View;
use crate::output::Style;
use crate::style::clean;
use aw_core::bundle::budget::{Status, Verdict};
use aw_core::wire::context::{ContextBudget, ContextPlan};
use std::fmt::{self, Write};

impl View for ContextPlan<'_> {
    /// One path per line, in reading order (absolute for a bundle on disk).
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        for e in &self.read_set {
            writeln!(out, "{}", e.absolute.as_deref().unwrap_or(e.path))?;
        }
        Ok(())
    }
}

impl View for ContextBudget<'_> {
    /// The bundle's size, a table per command, the totals and the verdict.
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        let b = self.bundle;
        writeln!(
            out,
            "{}: {} files, {} lines, {} bytes (~{} tokens; tokens ≈ bytes / 4)\nrevision {}\n",
            clean(self.root.unwrap_or("the bundle built into aw")),
            b.files,
            b.lines,
            b.bytes,
            b.tokens,
            self.revision.digest
        )?;
        let mut rows: Vec<[String; 5]> = vec![[
            "COMMAND".into(),
            "BODY lines/bytes".into(),
            "READ-SET files".into(),
            "lines/bytes".into(),
            "~tokens".into(),
        ]];
        for (a, g) in self.activation.rows.iter().zip(&self.guaranteed.rows) {
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
            writeln!(
                out,
                "  {:<w0$}  {:>w1$}  {:>w2$}  {:>w3$}  {:>6}",
                row[0],
                row[1],
                row[2],
                row[3],
                row[4],
                w0 = widths[0],
                w1 = widths[1],
                w2 = widths[2],
                w3 = widths[3],
            )?;
        }
        writeln!(
            out,
            "\ndiscovery {} bytes (~{} tokens) · activation median {} bytes · modules {} files, {} bytes",
            self.discovery.bytes,
            self.discovery.tokens,
            self.activation.median_bytes,
            self.modules.files,
            self.modules.bytes
        )?;
        let baseline = match (&self.verdict, &self.baseline) {
            (Verdict::Measured, _) | (_, None) => {
                return writeln!(out, "verdict: measured (no baseline)");
            }
            (_, Some(baseline)) => baseline,
        };
        let word = if self.verdict == Verdict::OverBudget {
            "over-budget"
        } else {
            "ok"
        };
        writeln!(
            out,
            "verdict: {word} against {} (ceiling: baseline × {}%)",
            clean(&baseline.path),
            self.headroom_percent
        )?;
        for c in self.checks {
            let what = match c.status {
                Status::Over => "over",
                Status::New => "new",
                Status::Ok => continue,
            };
            write!(
                out,
                "  {what}: {} {}: {} bytes",
                c.measure,
                clean(&c.key),
                c.actual
            )?;
            if let Some(x) = c.ceiling {
                write!(out, " > ceiling {x}")?;
            }
            writeln!(out)?;
        }
        Ok(())
    }
}
