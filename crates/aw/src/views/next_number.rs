//! The human view of `aw next-number`: the slot claimed, or the next number of the folder.

use super::View;
use crate::output::Style;
use crate::style::clean;
use aw_core::wire::next_number::NextNumber;
use std::fmt::{self, Write};

impl View for NextNumber {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        if self.claimed_path.is_some() {
            write!(
                out,
                "{} {} (next number {}",
                if self.claim_reused {
                    "Reusing"
                } else {
                    "Claimed"
                },
                clean(&self.shown),
                self.next
            )?;
            if let Some(o) = &self.claimed_owner {
                write!(out, ", reserved for {}", clean(o))?;
            }
            return writeln!(out, ")");
        }
        writeln!(
            out,
            "Next number in {}: {} (highest so far {}){}",
            clean(&self.shown),
            self.next,
            self.highest,
            if self.created { "; folder created" } else { "" }
        )
    }
}
