//! The human view of `aw sessions`: a compact table of folder, state, type, date and summary.

use super::View;
use crate::output::Style;
use crate::style::{Paint, clean};
use aw_core::wire::sessions::Listing;
use std::fmt::{self, Write};

impl View for Listing {
    fn render(&self, out: &mut dyn Write, style: &Style) -> fmt::Result {
        let p = Paint::new(style.color);
        if self.sessions.is_empty() {
            writeln!(out, "No sessions to show.")?;
        } else {
            let width = self
                .sessions
                .iter()
                .map(|e| e.folder.chars().count())
                .max()
                .unwrap_or(6)
                .max(6);
            writeln!(
                out,
                "{:<width$}  {:<6}  {:<8}  {:<10}  SUMMARY",
                "FOLDER", "STATE", "TYPE", "DATE"
            )?;
            for e in &self.sessions {
                let summary = clean(&e.summary);
                let summary: String = if style.detail {
                    summary.into_owned()
                } else {
                    summary.chars().take(60).collect()
                };
                let state = format!("{:<6}", e.state);
                // Active in green, closed dimmed.
                let state = if e.state == "active" {
                    p.green(&state)
                } else {
                    p.dim(&state)
                };
                writeln!(
                    out,
                    "{:<width$}  {}  {:<8}  {:<10}  {}",
                    clean(&e.folder),
                    state,
                    clean(e.kind.as_deref().unwrap_or("—")),
                    clean(&e.date),
                    summary
                )?;
            }
        }
        writeln!(
            out,
            "\n{} active, {} closed · the next session takes number {}",
            self.active_count, self.closed_count, self.next_correlative
        )
    }
}
