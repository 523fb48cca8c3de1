//! The human view of `aw session-resume`: the session's line, its narrative, then the same
//! objective and checkpoint lines the board shows.

use super::View;
use crate::output::Style;
use crate::style::clean;
use aw_core::wire::session_resume::SessionResume;
use std::fmt::{self, Write};

impl View for SessionResume<'_> {
    fn render(&self, out: &mut dyn Write, style: &Style) -> fmt::Result {
        writeln!(
            out,
            "{}{} · {} · {}",
            if self.lines.reopened { "Reopened " } else { "" },
            clean(self.folder),
            self.state,
            clean(self.path)
        )?;
        super::narrative::write_lines(out, self.narrative, style.detail)?;
        writeln!(
            out,
            "  Objective  {}",
            clean(self.lines.objective.as_deref().unwrap_or("—"))
        )?;
        match &self.lines.checkpoint {
            None => writeln!(out, "  Checkpoint none")?,
            Some((done, next)) => {
                writeln!(
                    out,
                    "  Done       {}",
                    clean(done.as_deref().unwrap_or("—"))
                )?;
                writeln!(
                    out,
                    "  Next       {}",
                    clean(next.as_deref().unwrap_or("—"))
                )?;
            }
        }
        if let Some(e) = &self.narrative_error {
            writeln!(out, "  Narrative block not refreshed: {}", clean(e))?;
        }
        Ok(())
    }
}
