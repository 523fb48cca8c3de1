//! The human view of `aw workspace-init`.

use super::View;
use super::project_write::{block_language, dropped, hosts, results};
use crate::output::Style;
use crate::style::{Paint, clean};
use aw_core::wire::workspace_init::{Attach, WorkspaceInit};
use std::fmt::{self, Write};
use std::path::Path;

impl View for WorkspaceInit<'_> {
    fn render(&self, out: &mut dyn Write, style: &Style) -> fmt::Result {
        let p = Paint::new(style.color);
        let root = clean(&self.workspace);
        let title = if self.dry_run {
            format!("workspace-init · dry run, nothing written · {root}")
        } else {
            format!("workspace-init · {root}")
        };
        writeln!(out, "{}", p.bold(&title))?;
        write!(out, "  {:<12} {} (", "Sources", self.declared.len())?;
        for (i, s) in self.declared.iter().enumerate() {
            write!(out, "{}{}", if i == 0 { "" } else { ", " }, clean(s.alias))?;
        }
        writeln!(out, ")")?;
        let sc = &self.scaffold;
        writeln!(
            out,
            "  {:<12} {} created, {} already there, {} pruned",
            "Scaffold",
            sc.created.len(),
            sc.existing.len(),
            sc.pruned.len()
        )?;
        writeln!(out, "  {:<12} {}", "skills.toml", self.skills_toml)?;
        writeln!(out, "  {:<12} {}", ".gitignore", self.gitignore)?;
        let md = &self.project_md;
        results(out, &md.results)?;
        if let Some(b) = &md.block_language {
            block_language(out, b)?;
        }
        let (attached, removed): (&[String], &[String]) = match &self.attach_multiroot {
            Attach::Attached(m) => {
                writeln!(
                    out,
                    "  {:<12} {} external folder(s)",
                    "Multi-root",
                    m.paths.len()
                )?;
                hosts(out, &m.claude, &m.codex, false)?;
                (m.paths, &m.detached_removed)
            }
            Attach::Skipped(s) => {
                writeln!(out, "  {:<12} no external sources", "Multi-root")?;
                if let (Some(claude), Some(codex)) = (&s.claude, &s.codex) {
                    hosts(out, claude, codex, false)?;
                }
                (&[], s.detached_removed.as_deref().unwrap_or_default())
            }
        };
        if !self.legacy_launch.is_empty() {
            writeln!(
                out,
                "  {:<12} {} legacy launch folder(s) of docs/tools",
                "Launch",
                self.legacy_launch.len()
            )?;
        }
        dropped(out, md.dropped_lines.unwrap_or_default())?;
        if !style.detail {
            return Ok(());
        }
        writeln!(out, "\nSources")?;
        for s in &self.declared {
            writeln!(
                out,
                "  {:<12} {}  main: {}",
                clean(s.alias),
                clean(s.path),
                clean(s.main_branch.unwrap_or("—"))
            )?;
        }
        for (label, list) in [
            ("Created", &sc.created),
            ("Already there", &sc.existing),
            ("Pruned", &sc.pruned),
        ] {
            if !list.is_empty() {
                writeln!(out, "\n{label}")?;
                for path in list {
                    let path = Path::new(path);
                    let rel = path.strip_prefix(&self.workspace).unwrap_or(path);
                    writeln!(out, "  {}", clean(&rel.to_string_lossy()))?;
                }
            }
        }
        if !attached.is_empty() || !removed.is_empty() {
            writeln!(out, "\nMulti-root")?;
            for path in attached {
                writeln!(out, "  attached {}", clean(path))?;
            }
            for path in removed {
                writeln!(out, "  removed  {}", clean(path))?;
            }
        }
        if !self.legacy_launch.is_empty() {
            writeln!(out, "\nLegacy launch folders")?;
            for l in &self.legacy_launch {
                writeln!(
                    out,
                    "  {:<8} {} -> {}",
                    l.action,
                    clean(&l.from),
                    clean(&l.to)
                )?;
            }
        }
        Ok(())
    }
}
