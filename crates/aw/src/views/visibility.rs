//! The human views of `aw visibility doctor`, `aw attach-multiroot` and `aw detach-multiroot`.

use super::View;
use crate::output::Style;
use crate::style::{Paint, clean};
use aw_core::project::visibility::SKIPPED_BY_FLAG;
use aw_core::wire::visibility::{Multiroot, VisibilityDoctor};
use std::fmt::{self, Write};

impl View for VisibilityDoctor<'_> {
    fn render(&self, out: &mut dyn Write, style: &Style) -> fmt::Result {
        let p = Paint::new(style.color);
        writeln!(
            out,
            "{}",
            p.bold(&format!("visibility doctor · {}", clean(&self.workspace)))
        )?;
        let external = self.sources.iter().filter(|s| s.external).count();
        writeln!(
            out,
            "  {:<12} {} ({external} outside the workspace)",
            "Sources",
            self.sources.len()
        )?;
        let hosts = [
            ("Claude Code", &self.hosts.claude),
            ("Codex", &self.hosts.codex),
        ];
        for (name, h) in hosts {
            write!(out, "  {name:<12} {:<10} {}", h.status, h.file)?;
            if !h.missing.is_empty() {
                write!(out, ", {} missing", h.missing.len())?;
            }
            if !h.stale.is_empty() {
                write!(out, ", {} stale", h.stale.len())?;
            }
            writeln!(out)?;
        }
        writeln!(
            out,
            "  {:<12} nothing to check (no per-project folder setting)",
            "Warp / Oz"
        )?;
        writeln!(out, "  {:<12} {}", ".gitignore", self.gitignore.status)?;
        if style.detail {
            writeln!(out, "\nSources")?;
            for s in &self.sources {
                let place = match (s.external, s.exists) {
                    (false, _) => "inside",
                    (true, true) => "outside",
                    (true, false) => "outside, missing",
                };
                writeln!(
                    out,
                    "  {:<12} {}  ({place})",
                    clean(s.alias),
                    clean(s.resolved_path)
                )?;
            }
            for (name, h) in hosts {
                for (what, list) in [("missing", h.missing), ("stale", h.stale)] {
                    for f in list {
                        writeln!(out, "  {name:<12} {what:<8} {}", clean(f))?;
                    }
                }
            }
        }
        writeln!(out, "Next: {}", clean(self.action))
    }
}

impl View for Multiroot<'_> {
    fn render(&self, out: &mut dyn Write, style: &Style) -> fmt::Result {
        let dry = if self.dry_run {
            " · dry run, nothing written"
        } else {
            ""
        };
        writeln!(
            out,
            "{}{dry} · {}\n  {:<12} {}",
            self.command,
            clean(&self.workspace),
            "Folders",
            self.paths.len()
        )?;
        super::project_write::hosts(
            out,
            &self.claude,
            &self.codex,
            self.warp.reason == SKIPPED_BY_FLAG,
        )?;
        if let Some(Some(action)) = self.gitignore {
            writeln!(out, "  {:<12} {action}", ".gitignore")?;
        }
        if style.detail && !self.paths.is_empty() {
            writeln!(out, "\nFolders")?;
            for p in self.paths {
                writeln!(out, "  {}", clean(p))?;
            }
        }
        Ok(())
    }
}
