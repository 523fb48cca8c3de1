//! The human view of `aw workspace-migrate`.

use super::View;
use crate::output::Style;
use crate::style::clean;
use aw_core::wire::workspace_migrate::{MigrateConflict, WorkspaceMigrate};
use std::fmt::{self, Write};

fn conflicts(out: &mut dyn Write, list: &[MigrateConflict]) -> fmt::Result {
    if list.is_empty() {
        return Ok(());
    }
    writeln!(out, "Left untouched ({})", list.len())?;
    for c in list {
        writeln!(out, "  {}  {}", clean(&c.subject), c.reason)?;
        writeln!(out, "    {}", clean(&c.detail))?;
    }
    Ok(())
}

fn names(out: &mut dyn Write, title: &str, list: &[String]) -> fmt::Result {
    if list.is_empty() {
        return Ok(());
    }
    writeln!(out, "{title} ({})", list.len())?;
    for n in list {
        writeln!(out, "  {}", clean(n))?;
    }
    Ok(())
}

impl View for WorkspaceMigrate {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        match self {
            WorkspaceMigrate::Preview(p) => {
                writeln!(
                    out,
                    "Migration of {} · {} legacy session folder(s) · next session {}",
                    clean(&p.workspace),
                    p.legacy.len(),
                    p.next_correlative
                )?;
                if !p.markers.is_empty() {
                    writeln!(out, "Block markers ({})", p.markers.len())?;
                    for m in &p.markers {
                        let cut = if m.drops_duplicate {
                            " (an empty block cut out first)"
                        } else {
                            ""
                        };
                        writeln!(
                            out,
                            "  {}  {} → {}{cut}",
                            clean(&m.file),
                            clean(&m.from),
                            m.to
                        )?;
                    }
                }
                if !p.sentinels.is_empty() {
                    writeln!(
                        out,
                        "Closed sessions missing .closed ({})",
                        p.sentinels.len()
                    )?;
                    for s in &p.sentinels {
                        writeln!(out, "  {}  closed {}", clean(&s.folder), clean(&s.date))?;
                    }
                }
                if !p.rows.is_empty() {
                    writeln!(out, "HISTORY rows to add ({})", p.rows.len())?;
                    for r in &p.rows {
                        writeln!(
                            out,
                            "  {}  {} {}",
                            clean(&r.folder),
                            r.state,
                            clean(&r.date)
                        )?;
                    }
                }
                if p.pending == 0 {
                    writeln!(out, "Nothing to migrate.")?;
                }
                conflicts(out, &p.conflicts)?;
                if p.pending > 0 {
                    writeln!(out, "Apply with: {}", p.next)?;
                }
                Ok(())
            }
            WorkspaceMigrate::Applied(a) => {
                writeln!(
                    out,
                    "Migrated {} · next session {}",
                    clean(&a.workspace),
                    a.next_correlative
                )?;
                names(out, "Block markers renamed", &a.markers_renamed)?;
                names(out, "Empty blocks cut out", &a.duplicates_dropped)?;
                names(out, ".closed written", &a.sentinels_seeded)?;
                names(out, "HISTORY rows added", &a.rows_seeded)?;
                names(out, "Rows written without a date", &a.rows_without_date)?;
                conflicts(out, &a.conflicts)
            }
        }
    }
}
