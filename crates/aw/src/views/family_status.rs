//! The human view of `aw family status`: one block per member, the state line, then what else
//! is known.

use super::View;
use crate::output::Style;
use aw_core::family::{Found, Freshness, State, Via};
use aw_core::wire::family::{FamilyStatus, StatusMember};
use std::fmt::{self, Write};

impl View for FamilyStatus {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        for w in &self.warnings {
            writeln!(out, "warning: {w}")?;
        }
        for m in &self.members {
            member(out, m)?;
        }
        Ok(())
    }
}

/// One member's block.
fn member(out: &mut dyn Write, m: &StatusMember) -> fmt::Result {
    let version = m.version_text();
    // The state is padded only when something follows it: the line has no trailing blanks.
    if version.is_some() || m.dir.is_some() {
        write!(out, "{:<24} {:<13}", m.name, m.state.label())?;
    } else {
        write!(out, "{:<24} {}", m.name, m.state.label())?;
    }
    if let Some(v) = version {
        write!(out, " {v} (from {})", m.version_from.unwrap_or(""))?;
    }
    if let Some(d) = &m.dir {
        write!(out, " {}", d.trim_end())?;
    }
    writeln!(out)?;
    if let Some(r) = &m.reason {
        writeln!(out, "    reason: {r}")?;
    }
    if !matches!(m.state, State::Ok | State::NotInstalled) {
        writeln!(
            out,
            "    next: `aw manifest validate {}` lists every problem",
            m.dir.as_deref().unwrap_or("")
        )?;
    }
    if let Some(n) = &m.installed.note {
        writeln!(out, "    detect.installed: {n}")?;
    }
    if m.installed.via == Via::Env {
        writeln!(
            out,
            "    detect.installed: {}={}",
            m.installed.env,
            m.installed.env_value.as_deref().unwrap_or("")
        )?;
    }
    if let Some(b) = &m.bundled {
        if let Some(e) = &b.error {
            writeln!(
                out,
                "    bundled: {} cannot be read ({e}): a corrupt bundle?",
                b.dir
            )?;
        } else if b.present {
            let v = b.version.as_deref().unwrap_or("no version");
            writeln!(out, "    bundled: {v} ({})", b.freshness.label())?;
            if b.freshness == Freshness::Behind {
                writeln!(out, "    next: refresh the installed copy from {}", b.dir)?;
            }
        } else {
            writeln!(out, "    bundled: no copy at {}", b.dir)?;
        }
    }
    if let Some(d) = &m.deployed {
        match &d.stamp {
            Some(stamp) => writeln!(out, "    deployed: {} present ({stamp})", d.file)?,
            None => writeln!(out, "    deployed: {} absent", d.file)?,
        }
    }
    for c in &m.copies {
        if c.found != Found::DetectInstalled {
            writeln!(out, "    also: {} {}", c.dir, c.state.label())?;
        }
    }
    Ok(())
}
