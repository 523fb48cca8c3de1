//! The human views of `aw worktree` (the reference prints JSON only).

use super::View;
use crate::output::Style;
use crate::style::clean;
use aw_core::isolation::units::OrphanReason;
use aw_core::wire::worktree::{
    UnitIntegration, UnitList, UnitOutcome, UnitVisibility, WorktreeEnsure, WorktreeIntegrate,
    WorktreeList, WorktreeRefusal, WorktreeRelease,
};
use std::fmt::{self, Write};

impl View for WorktreeList<'_> {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        match self {
            WorktreeList::Listed(list) => listed(out, list),
            WorktreeList::Refused(r) => refusal(out, r),
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

/// A refusal: what happened, the branch's holder when there is one, and what to do.
fn refusal(out: &mut dyn Write, r: &WorktreeRefusal) -> fmt::Result {
    writeln!(out, "{}", clean(&r.message))?;
    if let Some(o) = &r.occupant {
        writeln!(out, "  Held by  {} ({})", clean(&o.path), clean(&o.branch))?;
    }
    match &r.hint {
        Some(hint) => writeln!(out, "  Next  {}", clean(hint)),
        None => Ok(()),
    }
}

fn shown(v: UnitVisibility) -> &'static str {
    match v {
        UnitVisibility::Attached => "listed in the hosts' settings",
        UnitVisibility::Detached => "withdrawn from the hosts' settings",
        UnitVisibility::Unavailable => "the hosts' settings could not be updated",
    }
}

impl View for WorktreeEnsure {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        match self {
            WorktreeEnsure::Ensured(u) => {
                let verb = if u.created { "Made" } else { "Found" };
                writeln!(
                    out,
                    "{verb} the unit of {} for session {} on {}",
                    clean(&u.alias),
                    clean(&u.session),
                    clean(&u.branch)
                )?;
                writeln!(out, "  {}", clean(&u.path))?;
                writeln!(out, "  {}", shown(u.visibility))
            }
            WorktreeEnsure::Refused(r) => refusal(out, r),
        }
    }
}

impl View for WorktreeRelease {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        match self {
            WorktreeRelease::Released(u) => {
                if u.released {
                    writeln!(
                        out,
                        "Removed the unit of {} for session {} (branch {} kept)",
                        clean(&u.alias),
                        clean(&u.session),
                        clean(&u.branch)
                    )?;
                } else {
                    writeln!(
                        out,
                        "Session {} had no unit of {} to remove (branch {} kept)",
                        clean(&u.session),
                        clean(&u.alias),
                        clean(&u.branch)
                    )?;
                }
                writeln!(out, "  {}", shown(u.visibility))
            }
            WorktreeRelease::Refused(r) => refusal(out, r),
        }
    }
}

fn unit(out: &mut dyn Write, u: &UnitIntegration) -> fmt::Result {
    if u.integrated {
        writeln!(
            out,
            "  {:<12} merged {} into {}{}",
            clean(&u.alias),
            clean(&u.branch),
            clean(&u.into),
            if u.released { ", unit removed" } else { "" }
        )?;
    } else {
        writeln!(
            out,
            "  {:<12} conflict merging {} into {}: {}",
            clean(&u.alias),
            clean(&u.branch),
            clean(&u.into),
            clean(&u.conflicted.join(", "))
        )?;
    }
    match &u.next {
        Some(next) => writeln!(out, "  {:<12} Next  {}", "", clean(next)),
        None => Ok(()),
    }
}

impl View for WorktreeIntegrate {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        match self {
            WorktreeIntegrate::Session(s) => {
                writeln!(out, "Integration of session {}", clean(&s.session))?;
                if s.results.is_empty() {
                    return writeln!(out, "  nothing to merge: the session holds no unit");
                }
                for r in &s.results {
                    match r {
                        UnitOutcome::Merged(u) => unit(out, u)?,
                        UnitOutcome::Refused(r) => {
                            writeln!(out, "  {:<12} {}", clean(&r.alias), clean(&r.message))?;
                        }
                    }
                }
                match &s.next {
                    Some(next) => writeln!(out, "Next  {}", clean(next)),
                    None => Ok(()),
                }
            }
            WorktreeIntegrate::Unit(u) => {
                writeln!(out, "Integration of session {}", clean(&u.session))?;
                unit(out, u)
            }
            WorktreeIntegrate::Refused(r) => refusal(out, r),
        }
    }
}
