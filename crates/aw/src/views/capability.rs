//! The human view of a capability stage (`aw <capability> prepare | continue | validate |
//! apply`): the receipt's lines, then the plan an approval would write.

use super::View;
use crate::output::Style;
use crate::style::clean_lines;
use aw_core::capability::dispatch::Attempt;
use aw_core::capability::receipt_human::render_attempt;
use std::fmt::{self, Write};

impl View for Attempt {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        let text = render_attempt(&self.receipt, self.plan.as_ref());
        writeln!(out, "{}", clean_lines(&text))
    }
}
