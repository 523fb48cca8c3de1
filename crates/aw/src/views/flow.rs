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
