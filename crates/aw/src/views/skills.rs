//! The human view of `aw skills`: a table of the roles, each capability's readiness with
//! `--detail`, then the warnings.

use super::View;
use crate::output::Style;
use crate::style::clean_lines;
use aw_core::capability::bindings::Source;
use aw_core::capability::readiness::render_detail;
use aw_core::wire::skills::Skills;
use std::fmt::{self, Write};

impl View for Skills<'_> {
    fn render(&self, out: &mut dyn Write, style: &Style) -> fmt::Result {
        let mut rows: Vec<[String; 4]> = vec![[
            "ROLE".into(),
            "SKILL".into(),
            "SOURCE".into(),
            "INSTALLED".into(),
        ]];
        for s in self.skills.0 {
            let installed = if !s.enabled {
                "—"
            } else if s.source == Source::Default {
                "built-in"
            } else {
                match self.binding_checks.iter().find(|c| c.role == s.role) {
                    Some(c) if c.installed => "yes",
                    Some(_) => "no",
                    None => "—",
                }
            };
            rows.push([
                s.role.to_owned(),
                s.skill.clone().unwrap_or_else(|| "off".to_owned()),
                s.source.as_str().to_owned(),
                installed.to_owned(),
            ]);
        }
        let widths: Vec<usize> = (0..3)
            .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
            .collect();
        // Written whole, then made safe at once: the table holds what the binding files say.
        let mut text = String::new();
        for r in &rows {
            let line = format!(
                "{:<w0$}  {:<w1$}  {:<w2$}  {}",
                r[0],
                r[1],
                r[2],
                r[3],
                w0 = widths[0],
                w1 = widths[1],
                w2 = widths[2]
            );
            writeln!(text, "{}", line.trim_end())?;
        }
        if style.detail {
            for report in self.capabilities {
                writeln!(text)?;
                for line in render_detail(report) {
                    writeln!(text, "{line}")?;
                }
            }
        }
        if !self.warnings.is_empty() {
            writeln!(text)?;
        }
        for w in self.warnings {
            writeln!(text, "warning: {w}")?;
        }
        out.write_str(&clean_lines(&text))
    }
}
