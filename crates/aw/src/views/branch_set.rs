//! The human view of `aw set-working-branch` and `aw set-qa-branch`.

use super::View;
use super::project_write::{block_language, dropped, results};
use crate::output::Style;
use crate::style::clean;
use aw_core::wire::project_block::BranchSet;
use std::fmt::{self, Write};

impl View for BranchSet<'_> {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        writeln!(
            out,
            "{} {}: {}",
            clean(self.alias),
            self.list,
            clean(self.branch)
        )?;
        results(out, &self.files)?;
        dropped(out, self.write.dropped_lines.unwrap_or(&[]))?;
        match &self.write.block_language {
            Some(b) => block_language(out, b),
            None => Ok(()),
        }
    }
}
