//! The human view of a failure: a cross mark with the code, the message, the sessions or
//! validation failures it names, and the next action.

use super::View;
use crate::output::Style;
use crate::style::{Paint, clean, clean_lines};
use aw_core::capability::validate::Failure as Invalid;
use aw_core::wire::envelope::FailureEnvelope;
use std::fmt::{self, Write};

impl View for FailureEnvelope<'_> {
    fn render(&self, out: &mut dyn Write, style: &Style) -> fmt::Result {
        let head = Paint::new(style.color).bold_red(&format!("✗ {}", self.error.code));
        writeln!(out, "{head}\n{}", clean_lines(self.error.message))?;
        let data = self.data.context;
        if let Some(cands) = &data.candidates
            && !cands.is_empty()
        {
            writeln!(out, "\nSessions:")?;
            for c in cands {
                writeln!(out, "  {}  ({})", clean(&c.folder), c.state)?;
            }
        }
        if let Some(failures) = &data.failures
            && !failures.is_empty()
        {
            writeln!(out)?;
            for f in failures {
                failure_line(out, f)?;
            }
        }
        if !self.data.action.is_empty() {
            writeln!(out, "\nNext: {}", clean_lines(self.data.action))?;
        }
        Ok(())
    }
}

/// One entry of `data.failures` as one line: where, what, and what to do.
fn failure_line(out: &mut dyn Write, f: &Invalid) -> fmt::Result {
    write!(out, "  {}", clean(&f.artifact))?;
    let path = clean(&f.path);
    if !path.is_empty() {
        write!(out, " › {path}")?;
    }
    writeln!(
        out,
        ": {} [{}] → {}",
        clean(&f.message),
        f.code,
        clean(&f.action)
    )
}
