//! The human view of `aw worktree list` (the reference prints JSON only).

use super::View;
use crate::output::Style;
use crate::style::clean;
use aw_core::isolation::units::OrphanReason;
use aw_core::wire::worktree::{UnitList, WorktreeList};
use std::fmt::{self, Write};

impl View for WorktreeList<'_> {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        match self {
            WorktreeList::Listed(list) => listed(out, list),
            WorktreeList::Refused(r) => {
                writeln!(out, "{}", clean(&r.message))?;
                writeln!(out, "  Next  {}", clean(&r.hint))
            }
        }
    }
}

/// A short HEAD (the first 12 characters), or `—`.
fn short(head: Option<&str>) -> String {
    head.map(|h| h.chars().take(12).collect())
        .unwrap_or_else(|| "—".to_owned())
}

fn listed(out: &mut dyn Write, list: &UnitList<'_>) -> fmt::Result {
    write!(out, "Isolation units of {}", clean(list.workspace_key))?;
    if let Some(session) = list.session {
        write!(out, " · session {}", clean(session))?;
    }
    writeln!(out)?;
    if list.units.is_empty() && list.orphans.is_empty() && list.unreadable.is_empty() {
        return writeln!(out, "  none");
    }
    for u in &list.units {
        let state = match u.dirty {
            Some(true) => "uncommitted changes",
            Some(false) => "clean",
            None => "state unknown",
        };
        writeln!(
            out,
            "  {:<12} {}  {}  {}  {}",
            clean(u.alias),
            clean(u.session),
            clean(u.branch),
            state,
            clean(&short(u.head))
        )?;
        writeln!(out, "  {:<12} {}", "", clean(u.path))?;
    }
    if !list.orphans.is_empty() {
        writeln!(out, "Orphans (no session works in them any more)")?;
    }
    for o in &list.orphans {
        let why = match o.reason {
            OrphanReason::DirectoryMissing => "its folder is gone",
            OrphanReason::SessionAbsent => "its session folder is gone",
            OrphanReason::SessionClosed => "its session is closed",
        };
        writeln!(
            out,
            "  {:<12} {}  {}  {why}",
            clean(o.alias),
            clean(o.session),
            clean(o.branch.unwrap_or("detached"))
        )?;
        writeln!(out, "  {:<12} {}", "", clean(o.path))?;
    }
    for u in &list.unreadable {
        writeln!(
            out,
            "  {:<12} worktrees not readable: {}",
            clean(u.alias),
            clean(u.error)
        )?;
    }
    Ok(())
}

impl View for aw_core::wire::worktree::WorktreeIntegrate<'_> {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        use aw_core::wire::worktree::WorktreeIntegrate as I;
        match self {
            I::Session(s) => {
                writeln!(out, "Integration of session {}", clean(s.session))?;
                if s.results.is_empty() {
                    return writeln!(out, "  nothing to merge: the session holds no unit");
                }
                writeln!(out, "  integrated: {}", clean(&s.integrated.join(", ")))?;
                writeln!(out, "  pending:    {}", clean(&s.pending.join(", ")))
            }
            I::Refused(r) => {
                writeln!(out, "{}", clean(&r.message))?;
                writeln!(out, "  Next  {}", clean(&r.hint))
            }
        }
    }
}
