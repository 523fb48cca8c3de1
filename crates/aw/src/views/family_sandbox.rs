//! The human view of `aw family sandbox`: the recipe and its acknowledgement, or why there is
//! none, then what was passed over.

use super::View;
use crate::output::Style;
use aw_core::wire::family::{FamilySandbox, SandboxMember};
use std::fmt::{self, Write};

impl View for FamilySandbox {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        match &self.fingerprint {
            None if self.members.is_empty() => {
                writeln!(out, "no family bridge is installed and ok")?;
            }
            None => {
                writeln!(
                    out,
                    "no review wrapper is wired into this project, so there is no sandbox-lane \
                     advice (wired: named in sandbox.excludedCommands, allowed by Bash(<cmd> \
                     code:*), on PATH)"
                )?;
                for m in &self.members {
                    write!(out, "  {}: ", name(m))?;
                    wiring_line(out, m)?;
                    writeln!(out)?;
                }
                writeln!(out, "--all shows the recipe for every bridge, wired or not")?;
            }
            Some(fingerprint) => {
                writeln!(
                    out,
                    "egress hosts [{}]; writable state dirs [{}]",
                    self.hosts.join(", "),
                    self.dirs.join(", ")
                )?;
                write!(out, "recipe fingerprint: {fingerprint} (")?;
                match (self.acknowledged, self.ack_source) {
                    (Some(true), Some(source)) => write!(out, "acknowledged in {source}")?,
                    (Some(false), _) => write!(out, "not acknowledged yet")?,
                    _ => write!(
                        out,
                        "acknowledgement unknown: {}",
                        self.ack_error.as_deref().unwrap_or("?")
                    )?,
                }
                writeln!(out, ")")?;
                write!(out, "from: ")?;
                for (i, m) in self.members.iter().filter(|m| m.counted).enumerate() {
                    let sep = if i == 0 { "" } else { ", " };
                    write!(out, "{sep}{}", name(m))?;
                }
                writeln!(out)?;
                for m in self.members.iter().filter(|m| !m.counted) {
                    write!(out, "not counted {}: ", name(m))?;
                    wiring_line(out, m)?;
                    writeln!(out)?;
                }
            }
        }
        for s in &self.skipped {
            writeln!(out, "skipped {}: {}", s.dir, s.reason)?;
        }
        for s in &self.settings_skipped {
            writeln!(out, "Claude Code settings {}: {}", s.path, s.reason)?;
        }
        Ok(())
    }
}

/// A member's name, else its folder.
fn name(m: &SandboxMember) -> &str {
    m.name.as_deref().unwrap_or(&m.dir)
}

/// What a member's review wrapper lacks, in words.
fn wiring_line(out: &mut dyn Write, m: &SandboxMember) -> fmt::Result {
    let Some(cmd) = &m.review_cmd else {
        return write!(out, "declares no review wrapper (roles.review.cmd)");
    };
    let mark = |yes: bool| if yes { "yes" } else { "no" };
    let w = m.wiring.unwrap_or_default();
    write!(
        out,
        "{cmd} excluded from the sandbox: {}, on PATH: {}, allowed: {}",
        mark(w.excluded),
        mark(w.on_path),
        mark(w.allowed)
    )
}
