//! The human view of `aw session-close`: one line of what closing did.

use super::View;
use crate::output::Style;
use crate::style::clean;
use aw_core::wire::session::SessionClose;
use std::fmt::{self, Write};

impl View for SessionClose<'_> {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        write!(out, "Closed session {}", clean(self.folder))?;
        match (&self.history, self.history_error) {
            (Some(row), _) => write!(out, " · HISTORY row {}", row.action)?,
            (None, Some(e)) => write!(out, " · HISTORY not updated: {}", clean(e))?,
            (None, None) => {}
        }
        if self.bindings_invalidated > 0 {
            write!(out, " · {} binding(s) removed", self.bindings_invalidated)?;
        }
        if !self.reservations_released.is_empty() {
            write!(
                out,
                " · {} reservation(s) released",
                self.reservations_released.len()
            )?;
        }
        if let Some(e) = self.narrative_error {
            write!(out, " · narrative not refreshed: {}", clean(e))?;
        }
        writeln!(out)
    }
}
