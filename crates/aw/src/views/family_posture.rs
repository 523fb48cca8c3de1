//! The human view of `aw family posture`: the line, then each backend that does not pin it
//! cleanly. Each piece is cleaned on its own, so a manifest value cannot start a line of its own.

use super::View;
use crate::output::Style;
use crate::style::clean;
use aw_core::wire::family::FamilyPosture;
use std::fmt::{self, Write};

impl View for FamilyPosture {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        match &self.line {
            Some(line) => writeln!(out, "{}", clean(line))?,
            None => writeln!(out, "no configured posture")?,
        }
        for b in &self.backends {
            let ladder = b.ladder.filter(|l| *l != "ok");
            if b.state == "pinned" && ladder.is_none() {
                continue;
            }
            write!(out, "    {}: {}", clean(b.name), clean(b.state))?;
            if let Some(l) = ladder {
                write!(
                    out,
                    " (its installed copy is {l}: `aw family status` says why)"
                )?;
            }
            writeln!(out)?;
            for e in &b.errors {
                writeln!(out, "        {}", clean(e))?;
            }
        }
        Ok(())
    }
}
