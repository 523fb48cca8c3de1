//! The human view of `aw session-artifacts`: the summary, or what a dump found.

use super::View;
use crate::output::Style;
use crate::style::clean;
use aw_core::wire::session_artifacts::{ArtifactsDump, ArtifactsSummary, Dump, SessionArtifacts};
use std::fmt::{self, Write};

impl View for SessionArtifacts<'_> {
    fn render(&self, out: &mut dyn Write, style: &Style) -> fmt::Result {
        match self {
            SessionArtifacts::Summary(s) => summary(out, s, style),
            SessionArtifacts::Dump(d) => dump(out, d),
        }
    }
}

/// The folder, its narrative, then one line per kind of fact.
fn summary(out: &mut dyn Write, s: &ArtifactsSummary<'_>, style: &Style) -> fmt::Result {
    writeln!(out, "{}", clean(s.session))?;
    if let Some(n) = s.narrative {
        write!(out, "{}", super::narrative::lines(n, style.detail))?;
    }
    let a = &s.artifacts;
    let title = a.session.as_ref().and_then(|o| o.titulo);
    writeln!(out, "  Title      {}", clean(title.unwrap_or("—")))?;
    match a.tasks {
        Some(t) => writeln!(
            out,
            "  Tasks      {}/{} done ({}%)",
            t.closed, t.total, t.progress_pct
        )?,
        None => writeln!(out, "  Tasks      no TASKS.md")?,
    }
    writeln!(out, "  Decisions  {}", a.decisiones_count)?;
    let present = [
        ("checkpoint", a.checkpoint_present),
        ("conclusiones", a.conclusiones_present),
        ("analysis_file", a.analysis_file_present),
        ("backlog", a.backlog_present),
        ("scripts_sql", a.scripts_sql_present),
    ];
    write!(out, "  Also       ")?;
    let mut any = false;
    for (name, _) in present.iter().filter(|(_, p)| *p == Some(true)) {
        write!(out, "{}{name}", if any { ", " } else { "" })?;
        any = true;
    }
    writeln!(out, "{}", if any { "" } else { "—" })?;
    if let Some(t) = a.scripts.as_ref().filter(|t| t.total > 0 || style.detail) {
        writeln!(
            out,
            "  Scripts    {} ({} forward, {} rollback)",
            t.total, t.forward, t.rollback
        )?;
    }
    if let Some(b) = s.branch.filter(|_| s.branch_declared) {
        writeln!(out, "  Branch     {}", clean(b))?;
    }
    Ok(())
}

/// The folder, then each kind asked for: its size and path, its count of scripts, or `—`.
fn dump(out: &mut dyn Write, d: &ArtifactsDump<'_>) -> fmt::Result {
    writeln!(out, "{} · dump", clean(d.session))?;
    for (kind, v) in &d.dumped.0 {
        write!(out, "  {kind:<13} ")?;
        match v {
            Dump::File(None) => writeln!(out, "—")?,
            Dump::Scripts(a) => writeln!(out, "{} file(s)", a.len())?,
            Dump::File(Some(f)) => writeln!(out, "{} bytes · {}", f.size, clean(&f.path))?,
        }
    }
    Ok(())
}
