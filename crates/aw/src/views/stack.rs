//! The human view of `aw stack`.

use super::View;
use crate::output::Style;
use crate::style::clean;
use aw_core::wire::stack::Stack;
use std::fmt::{self, Write};

impl View for Stack {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        writeln!(out, "stack · {}", clean(&self.folder))?;
        for (label, v) in [
            ("Language", &self.language),
            ("Framework", &self.framework),
            ("Database", &self.db),
            ("Build", &self.build),
        ] {
            writeln!(
                out,
                "  {label:<10} {}",
                clean(v.as_deref().unwrap_or("unknown"))
            )?;
        }
        writeln!(
            out,
            "  {:<10} {}",
            "Command",
            self.wrapper.unwrap_or("unknown")
        )
    }
}
