//! The human views of `aw designs`: the index, one package, or the design gate of a plan.

use super::View;
use crate::output::Style;
use crate::style::clean;
use aw_core::design::gate::Gate;
use aw_core::design::index::{DesignIndex, DesignPackageEntry};
use aw_core::wire::designs::Designs;
use std::fmt::{self, Write};

impl View for Designs<'_> {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        match self {
            Designs::Index(index) => index_lines(out, index),
            Designs::Package(p) => package_lines(out, p.package),
            Designs::Gate(g) => {
                writeln!(out, "✓ the design gate passes for {}", clean(g.plan))?;
                write_gate(out, g.gate)
            }
        }
    }
}

fn index_lines(out: &mut dyn Write, index: &DesignIndex) -> fmt::Result {
    if index.packages.is_empty() {
        writeln!(out, "No design packages under {}.", index.root)?;
    }
    for p in &index.packages {
        let id = p.id.as_deref().or(p.declared_id.as_deref()).unwrap_or("—");
        let revision = p
            .current_baseline
            .as_ref()
            .map(|b| format!("r{}", b.revision))
            .unwrap_or_else(|| "—".to_owned());
        let state = if p.ok { "ok" } else { "invalid" };
        writeln!(
            out,
            "{:<9} {:<5} {:<8} {}  {}",
            clean(id),
            revision,
            state,
            clean(p.title.as_deref().unwrap_or("")),
            clean(&p.path)
        )?;
        for f in &p.failures {
            writeln!(out, "    {}: {}", f.code.as_str(), clean(&f.message))?;
        }
    }
    for f in &index.failures {
        writeln!(out, "{}: {}", f.code.as_str(), clean(&f.message))?;
    }
    Ok(())
}

fn package_lines(out: &mut dyn Write, p: &DesignPackageEntry) -> fmt::Result {
    let id = p.id.as_deref().or(p.declared_id.as_deref()).unwrap_or("—");
    writeln!(
        out,
        "{} — {}",
        clean(id),
        clean(p.title.as_deref().unwrap_or("(no title)"))
    )?;
    writeln!(out, "  folder    {}", clean(&p.path))?;
    if let Some(b) = &p.current_baseline {
        writeln!(out, "  revision  r{} ({})", b.revision, b.digest)?;
    }
    writeln!(out, "  validates {}", if p.ok { "yes" } else { "no" })?;
    for f in &p.failures {
        writeln!(out, "    {}: {}", f.code.as_str(), clean(&f.message))?;
    }
    Ok(())
}

/// Each reference of a plan with its verdict (the failing gate's message carries them too).
pub fn gate_lines(gate: &Gate) -> String {
    let mut out = String::new();
    // Writing into a `String` cannot fail.
    let _ = write_gate(&mut out, gate);
    out
}

fn write_gate(out: &mut dyn Write, gate: &Gate) -> fmt::Result {
    if gate.references.is_empty() {
        writeln!(out, "  the plan references no design package")?;
    }
    for c in &gate.references {
        write!(
            out,
            "  {:<10} {} (line {})",
            c.verdict.as_str(),
            clean(&c.reference.text),
            c.reference.line,
        )?;
        if let Some(d) = &c.detail {
            write!(out, ": {}", clean(d))?;
        }
        writeln!(out)?;
    }
    Ok(())
}
