//! The human views of `aw session-create` and `aw history-update`: one line each.

use super::View;
use crate::output::Style;
use crate::style::clean;
use aw_core::wire::session::{HistoryUpdate, SessionCreate};
use std::fmt::{self, Write};

impl View for SessionCreate<'_> {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        writeln!(
            out,
            "Created session {} ({}) · {}",
            clean(self.folder),
            self.kind,
            clean(&self.shown_path)
        )?;
        match self.inputs.as_slice() {
            [] => writeln!(out, "Inputs   none sealed")?,
            inputs => {
                let how = match self.inputs_from {
                    aw_core::wire::session::InputsFrom::Derived => " (from the name)",
                    _ => "",
                };
                let list: Vec<String> = inputs.iter().map(|i| clean(i).into_owned()).collect();
                writeln!(out, "Inputs   {}{how}", list.join(", "))?;
            }
        }
        if let Some(note) = &self.inputs_note {
            writeln!(out, "Note     {}", clean(note))?;
        }
        Ok(())
    }
}

impl View for HistoryUpdate<'_> {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        writeln!(
            out,
            "HISTORY row {} {} ({})",
            clean(self.row_key),
            self.action,
            self.state
        )
    }
}
