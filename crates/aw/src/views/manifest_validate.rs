//! The human view of `aw manifest validate`: the family's `validate.mjs` text layout.

use super::View;
use crate::output::Style;
use crate::style::{Paint, clean};
use anstyle::AnsiColor;
use aw_core::wire::manifest_validate::{ManifestClass, ManifestValidate};
use std::fmt::{self, Write};

impl View for ManifestValidate<'_> {
    /// A header per folder, then one indented line per error. The folder as typed, the skill's
    /// name and the messages (which quote paths) lose their control and bidirectional-text
    /// characters, piped or not: a name cannot add a line, and a terminal reading a piped report
    /// (`| less -R`, a log shown later) gets no escape sequence from it. On a terminal the class
    /// label is coloured.
    fn render(&self, out: &mut dyn Write, style: &Style) -> fmt::Result {
        let p = Paint::new(style.color);
        for r in &self.results {
            let color = match r.class {
                ManifestClass::Valid => AnsiColor::Green,
                ManifestClass::Invalid => AnsiColor::Red,
                ManifestClass::Unsupported => AnsiColor::Yellow,
            };
            write!(
                out,
                "[{}] {}",
                p.bold_in(color, r.class.label()),
                clean(r.arg)
            )?;
            if let Some(name) = &r.name_label {
                write!(out, " ({})", clean(name))?;
            }
            writeln!(out)?;
            for e in &r.errors {
                writeln!(out, "    - {}", clean(e.message))?;
            }
        }
        Ok(())
    }
}
