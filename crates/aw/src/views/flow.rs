//! The human view of a flow directive (`aw flow advance|submit|recover`): the core's text
//! (`aw_core::flow::human`), made safe for a terminal line by line.

use super::View;
use crate::output::Style;
use crate::style::clean_lines;
use aw_core::flow::Directive;
use aw_core::flow::human::render;
use std::fmt::{self, Write};

impl View for Directive {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        writeln!(out, "{}", clean_lines(&render(self)))
    }
}

impl View for aw_core::flow::proof::ProofOutput {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        use aw_core::flow::proof::ProofInvocationOutput as Checked;
        let checked = match &self.invocation {
            Checked::Command { program, args } => {
                format!(
                    "ran {}",
                    std::iter::once(program)
                        .chain(args)
                        .cloned()
                        .collect::<Vec<_>>()
                        .join(" ")
                )
            }
            Checked::Inspection { artifact } => format!("inspected {artifact}"),
        };
        writeln!(
            out,
            "{}",
            clean_lines(&format!(
                "Checkout proof · {} ({})\n  Digest  {}\n  From    {}\n  (put the JSON of `aw flow proof --json` in the validation's \"proof\")",
                self.source, checked, self.checkout_digest, self.relative_cwd
            ))
        )
    }
}
