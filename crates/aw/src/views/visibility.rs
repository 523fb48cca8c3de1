//! The human view of `aw visibility doctor`.

use super::View;
use crate::output::Style;
use crate::style::{Paint, clean};
use aw_core::wire::visibility::VisibilityDoctor;
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
