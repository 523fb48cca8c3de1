//! The human view of `aw project-md-upsert`: the block read, or what `--init` wrote.

use super::View;
use super::project_write::{block_language, dropped, results};
use crate::output::Style;
use crate::style::clean;
use aw_core::wire::project_md_upsert::{ProjectMdInit, ProjectMdRead, ProjectMdUpsert};
use std::fmt::{self, Write};

impl View for ProjectMdUpsert<'_> {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        match self {
            ProjectMdUpsert::Read(r) => read(out, r),
            ProjectMdUpsert::Init(i) => init(out, i),
        }
    }
}

/// The project, one line per source with its branches, and the last activity.
fn read(out: &mut dyn Write, r: &ProjectMdRead<'_>) -> fmt::Result {
    let Some(b) = &r.block else {
        return writeln!(
            out,
            "No project block in CLAUDE.md or AGENTS.md.\n  Next  run `aw workspace-init --source alias:path`"
        );
    };
    writeln!(
        out,
        "Project · {}",
        clean(b.proyecto.unwrap_or("(no description)"))
    )?;
    for s in &b.fuentes {
        writeln!(
            out,
            "  {:<12} {}  main: {}  working: {}  QA: {}",
            clean(s.alias),
            clean(s.path),
            clean(s.main_branch.unwrap_or("—")),
            clean(b.working_branches.get(s.alias).unwrap_or("—")),
            clean(b.qa_branches.get(s.alias).unwrap_or("—")),
        )?;
    }
    if let Some(at) = b.last_activity {
        writeln!(out, "  Last activity {}", clean(at))?;
    }
    Ok(())
}

/// The workspace, each file written, the lines left out and the block's language.
fn init(out: &mut dyn Write, i: &ProjectMdInit<'_>) -> fmt::Result {
    let w = &i.write;
    writeln!(out, "project-md-upsert · {}", clean(&i.workspace))?;
    results(out, w.results.as_deref().unwrap_or_default())?;
    dropped(out, w.dropped_lines.unwrap_or_default())?;
    if let Some(b) = &w.block_language {
        block_language(out, b)?;
    }
    Ok(())
}
