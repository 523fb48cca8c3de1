//! The human view of `aw skill-index`.

use super::View;
use crate::output::Style;
use crate::style::clean;
use aw_core::wire::skill_index::SkillIndex;
use std::fmt::{self, Write};

impl View for SkillIndex<'_> {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        if self.skills.is_empty() {
            return writeln!(out, "No skills installed under the standard skill folders.");
        }
        let width = self
            .skills
            .iter()
            .map(|s| s.name.chars().count())
            .max()
            .unwrap_or(0);
        writeln!(out, "{} skill(s)", self.skills.len())?;
        for s in &self.skills {
            writeln!(
                out,
                "  {:<width$}  {:<8}  {}",
                clean(s.name),
                clean(s.version.unwrap_or("—")),
                clean(s.path),
            )?;
            if let Some(d) = s.description {
                writeln!(out, "  {:<width$}  {}", "", clean(d))?;
            }
        }
        Ok(())
    }
}
