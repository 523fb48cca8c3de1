//! The human view of `aw sources`.

use super::View;
use crate::output::Style;
use crate::style::clean;
use aw_core::wire::sources::{SourceRow, Sources};
use std::fmt::{self, Write};

impl View for Sources<'_> {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        writeln!(out, "{} source(s)", self.count)?;
        for row in &self.sources {
            write!(
                out,
                "  {:<12} {}  expected: {}  ",
                clean(row.alias),
                clean(row.path),
                clean(row.expected_work_branch.unwrap_or("—"))
            )?;
            git_state(out, row)?;
            writeln!(out)?;
        }
        let mut off = self
            .sources
            .iter()
            .filter(|r| r.matches == Some(Some(false)))
            .peekable();
        if off.peek().is_some() {
            write!(out, "Not on their expected branch: ")?;
            for (i, r) in off.enumerate() {
                let sep = if i == 0 { "" } else { ", " };
                write!(out, "{sep}{}", clean(r.alias))?;
            }
            writeln!(out)?;
        }
        if !self.divergent_sources.is_empty() {
            write!(out, "The sources are on different branches: ")?;
            for (i, d) in self.divergent_sources.iter().enumerate() {
                let sep = if i == 0 { "" } else { ", " };
                write!(out, "{sep}{} on {}", clean(d.alias), clean(d.current))?;
            }
            writeln!(out)?;
        }
        if self.sources.iter().any(|r| r.implicit == Some(true)) {
            writeln!(
                out,
                "No source is declared: the workspace's own folder stands for one.\n  Next  \
                 declare sources with `aw workspace-init --source alias:path` when the work spans \
                 other repositories"
            )?;
        }
        Ok(())
    }
}

/// What git said of one source: its branch and uncommitted files, why it could not be read, or
/// that it was not asked (`--no-git`).
fn git_state(out: &mut dyn Write, row: &SourceRow<'_>) -> fmt::Result {
    match row.current_branch {
        None => write!(out, "git not checked"),
        Some(Some(branch)) => {
            write!(out, "on {}", clean(branch))?;
            if row.matches == Some(Some(false)) {
                write!(out, " (not the expected branch)")?;
            }
            match row.changed_files.map_or(0, <[String]>::len) {
                0 => Ok(()),
                n => write!(out, ", {n} uncommitted file(s)"),
            }
        }
        Some(None) => write!(out, "{}", row.error_kind.unwrap_or("").replace('_', " ")),
    }
}
