//! The human view of `aw family modes`: each mode's block. Every manifest string is shown on one
//! line (control and bidirectional characters removed), so a value cannot add a line of its own.

use super::View;
use crate::output::Style;
use crate::style::clean;
use aw_core::wire::family::FamilyModes;
use aw_manifest::catalog::{CatalogView, ModeView};
use std::fmt::{self, Write};

impl View for FamilyModes<&CatalogView> {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        if !self.valid {
            write!(
                out,
                "warning: this manifest does not validate; what follows is read as far as it goes \
                 (run `aw manifest validate {}`)\n\n",
                self.skill_dir
            )?;
        }
        match self.catalog {
            CatalogView::Absent => writeln!(out, "no catalog — this member predates it"),
            CatalogView::Malformed => {
                writeln!(
                    out,
                    "the modeCatalog block is not a non-empty array of modes"
                )
            }
            CatalogView::Present { modes } => {
                for (i, mode) in modes.iter().enumerate() {
                    if i > 0 {
                        writeln!(out)?;
                    }
                    render_mode(out, mode)?;
                }
                Ok(())
            }
        }
    }
}

/// Writes `items`, cleaned, separated by `sep`.
fn joined(out: &mut dyn Write, items: &[String], sep: &str) -> fmt::Result {
    for (i, it) in items.iter().enumerate() {
        if i > 0 {
            out.write_str(sep)?;
        }
        write!(out, "{}", clean(it))?;
    }
    Ok(())
}

/// One mode's block.
fn render_mode(out: &mut dyn Write, m: &ModeView) -> fmt::Result {
    write!(
        out,
        "{} ({}",
        clean(&m.key),
        clean(m.kind.as_deref().unwrap_or("?"))
    )?;
    if let Some(role) = &m.role {
        write!(out, ", role {}", clean(role))?;
    }
    if let Some(sub) = &m.submode {
        write!(out, ", submode {}", clean(sub))?;
    }
    if !m.parents.is_empty() {
        write!(out, ", modifies ")?;
        joined(out, &m.parents, ", ")?;
    }
    writeln!(out, ")")?;
    if let Some(p) = &m.purpose {
        writeln!(out, "  {}", clean(p))?;
    }
    list(out, "use when", &m.when_to_use)?;
    list(out, "not when", &m.when_not_to)?;
    if !m.forms.is_empty() || !m.unresolved.is_empty() {
        writeln!(out, "  invocation:")?;
        for u in &m.unresolved {
            writeln!(out, "    (unresolved: {})", clean(u))?;
        }
        for f in &m.forms {
            write!(out, "    {}", clean(&f.text))?;
            match (f.template, f.required.is_empty()) {
                (false, _) => {}
                (true, true) => write!(out, "  [template]")?,
                (true, false) => {
                    write!(out, "  [template; required: ")?;
                    joined(out, &f.required, " ")?;
                    write!(out, "]")?;
                }
            }
            writeln!(out)?;
        }
    }
    if !m.operands.is_empty() {
        writeln!(out, "  operands:")?;
        for o in &m.operands {
            let need = if o.required { "required" } else { "optional" };
            let what = clean(o.description.as_deref().unwrap_or(""));
            writeln!(out, "    {} ({need}): {what}", clean(&o.slot))?;
        }
    }
    if !m.guardrails.is_empty() {
        writeln!(out, "  guardrails:")?;
        for g in &m.guardrails {
            let how = clean(g.enforcement.as_deref().unwrap_or("?"));
            writeln!(out, "    - [{how}] {}", clean(&g.value))?;
            if let Some(cond) = &g.condition {
                writeln!(out, "      only when: {}", clean(cond))?;
            }
            if let Some(src) = &g.source {
                writeln!(out, "      source: {}", clean(src))?;
            }
        }
    }
    if !m.custom_hooks.is_empty() {
        write!(out, "  hooks: ")?;
        joined(out, &m.custom_hooks, ", ")?;
        writeln!(out)?;
    }
    Ok(())
}

/// A labelled list, when it has items.
fn list(out: &mut dyn Write, label: &str, items: &[String]) -> fmt::Result {
    if items.is_empty() {
        return Ok(());
    }
    writeln!(out, "  {label}:")?;
    for it in items {
        writeln!(out, "    - {}", clean(it))?;
    }
    Ok(())
}
