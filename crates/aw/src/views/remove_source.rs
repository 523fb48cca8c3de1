//! The human view of `aw remove-source`.

use super::View;
use super::project_write::{dropped, hosts, results};
use crate::output::Style;
use crate::style::clean;
use aw_core::wire::remove_source::{Detach, RemoveSource};
use std::fmt::{self, Write};

impl View for RemoveSource<'_> {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        let dry = if self.dry_run {
            " · dry run, nothing written"
        } else {
            ""
        };
        writeln!(out, "remove-source{dry} · {}", clean(self.alias))?;
        results(out, &self.project_md.results)?;
        dropped(out, self.dropped_lines)?;
        match &self.detach_multiroot {
            Detach::Withdrawn(m) => hosts(out, &m.claude, &m.codex, false)?,
            Detach::Skipped(s) if s.reason == "still_used" => writeln!(
                out,
                "  {:<12} kept: another source has the same folder",
                "Multi-root"
            )?,
            Detach::Skipped(_) => writeln!(out, "  {:<12} inside the workspace", "Multi-root")?,
        }
        writeln!(
            out,
            "  {:<12} {} {}",
            "Launch",
            clean(&self.launch.path),
            self.launch.action
        )?;
        writeln!(
            out,
            "  {:<12} {} (left as it is)",
            "Folder",
            clean(self.source.path)
        )
    }
}
