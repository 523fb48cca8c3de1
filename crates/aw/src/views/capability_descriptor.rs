//! The human view of `aw capability descriptor validate`.

use super::View;
use crate::output::Style;
use crate::style::clean;
use aw_core::wire::capability_descriptor::DescriptorValid;
use std::fmt::{self, Write};

impl View for DescriptorValid<'_> {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        write!(
            out,
            "✓ {}: capability '{}' is valid (operations: ",
            clean(self.shown),
            clean(self.descriptor.name)
        )?;
        for (i, op) in self.descriptor.operations.iter().enumerate() {
            write!(out, "{}{op}", if i == 0 { "" } else { ", " })?;
        }
        writeln!(out, ")")
    }
}
