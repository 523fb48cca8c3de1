//! The human view of `aw checkpoint-resume-summary`: where the session's checkpoint stands, or
//! why no session was settled on, then the sessions closed lately.

use super::View;
use super::hooks::write_degraded;
use crate::output::Style;
use crate::style::clean;
use aw_core::wire::checkpoint::ResumeSummary;
use std::fmt::{self, Write};

impl View for ResumeSummary<'_> {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        match (&self.primary_session, &self.degraded_reason) {
            (Some(folder), _) => {
                writeln!(
                    out,
                    "Session {} · checkpoint {}",
                    clean(folder),
                    self.checkpoint_status
                )?;
                if let Some(g) = &self.checkpoint {
                    if let Some(lines) = &g.proximo {
                        writeln!(out, "  Next      {}", clean(&lines.join(" / ")))?;
                    }
                    if let Some(p) = &g.avance {
                        writeln!(out, "  Progress  {}", clean(p))?;
                    }
                }
                if !self.unfilled_placeholders.is_empty() {
                    writeln!(out, "  To fill   {}", self.unfilled_placeholders.join(", "))?;
                }
                if self.needs_ai_action {
                    writeln!(
                        out,
                        "  Next step run `aw checkpoint-read --code {}` and bring the checkpoint \
                         up to date",
                        clean(folder)
                    )?;
                }
            }
            (None, Some(reason)) => write_degraded(
                out,
                reason,
                self.active_sessions,
                self.action.as_deref().unwrap_or(""),
            )?,
            (None, None) => {}
        }
        if let Some(recent) = &self.recent_closed_with_artifacts
            && !recent.is_empty()
        {
            writeln!(out, "Recently closed (last {} day(s)):", self.recent_days)?;
            for r in recent {
                writeln!(out, "  {}  {}", clean(r.folder), r.artifact_signal)?;
            }
        }
        Ok(())
    }
}
