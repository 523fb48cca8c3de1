//! The human view of `aw family links`: one line per link with what was (or would be) done.

use super::View;
use crate::output::Style;
use aw_core::family::links::Action;
use aw_core::wire::family::FamilyLinks;
use std::fmt::{self, Write};

impl View for FamilyLinks {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        for l in &self.links {
            let word = match (l.action, l.done, self.mode) {
                (Action::Create, true, _) => "created",
                (Action::Remove, true, _) => "removed",
                (Action::Create, false, _) if l.problem.is_some() => "cannot be linked",
                (Action::Create, false, _) => "would create",
                (Action::Remove, false, _) => "would remove",
                (Action::Conflict, _, _) => "not aw's, left alone",
                (_, _, "remove") => "nothing of aw's",
                _ => "in place",
            };
            writeln!(out, "{}/{} -> {}  ({word})", self.bin_dir, l.cmd, l.target)?;
            if let Some(p) = &l.problem {
                writeln!(out, "    the source cannot be linked: {p}")?;
            }
        }
        if self.mode == "plan" {
            writeln!(
                out,
                "dry run: nothing written (--apply creates, --remove removes aw's links)"
            )?;
        }
        Ok(())
    }
}
