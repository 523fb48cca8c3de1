//! The human view of `aw check-branch` (the reference prints JSON only).

use super::View;
use crate::output::Style;
use crate::style::clean;
use aw_core::isolation::unit_check::{UnitReason, UnitRef};
use aw_core::wire::check_branch::CheckBranchOutput;
use std::fmt::{self, Write};

fn unit(u: &UnitRef) -> String {
    format!(
        "{} (session {}, branch {})",
        clean(&u.path),
        clean(&u.session),
        clean(&u.branch)
    )
}

impl View for CheckBranchOutput<'_> {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        match self {
            CheckBranchOutput::Nothing(n) => match n.reason {
                "no_sources_declared" => writeln!(out, "ok: the project block declares no source"),
                _ => writeln!(out, "ok: no declared source owns it"),
            },
            CheckBranchOutput::NoExpected(n) => writeln!(
                out,
                "ok: {} ({}) declares no working branch",
                clean(n.alias),
                clean(n.path)
            ),
            CheckBranchOutput::Checked(c) => {
                let verdict = if c.matched { "ok" } else { "off branch" };
                writeln!(
                    out,
                    "{verdict}: {} ({}) is on {}, its working branch is {}",
                    clean(c.alias),
                    clean(c.path),
                    clean(c.current_branch),
                    clean(c.expected_work_branch)
                )?;
                if c.dirty {
                    writeln!(out, "  {} uncommitted file(s)", c.changed_files.len())?;
                }
                Ok(())
            }
            CheckBranchOutput::Unreadable(u) => writeln!(
                out,
                "not checked: {} ({}): {}",
                clean(u.alias),
                clean(u.path),
                clean(&u.error)
            ),
            CheckBranchOutput::Unit(u) => {
                let verdict = match u.reason {
                    UnitReason::InsideOwnUnit => "ok: inside the session's own unit",
                    UnitReason::OtherSessionUnit => "refused: inside another session's unit",
                    UnitReason::OutsideUnit => "refused: outside every unit",
                    UnitReason::UnknownIdentity => "refused: the session could not be resolved",
                };
                writeln!(
                    out,
                    "{verdict} · source {} ({})",
                    clean(u.alias),
                    clean(u.path)
                )?;
                if let Some(s) = u.session_code {
                    writeln!(out, "  Session   {}", clean(s))?;
                }
                if let Some(a) = u.actual_unit {
                    writeln!(out, "  In unit   {}", unit(a))?;
                }
                if let Some(e) = u.expected_unit {
                    writeln!(out, "  Own unit  {}", unit(e))?;
                }
                if let Some(e) = u.error {
                    writeln!(out, "  Why       {}", clean(e))?;
                }
                if let Some(r) = u.remedy {
                    writeln!(out, "  Next      {}", clean(r))?;
                }
                Ok(())
            }
        }
    }
}
