//! The demo's agent side: aw installed into a Claude Code home (the example's own, never the
//! user's), then what an agent reads for `/w:quick`, listed from that installed copy.

use super::step::{self, Step};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Format;
use std::path::Path;

/// Installs into `home` (the demo's own, which `cx` carries) and plans the `quick` read-set
/// from the installed bundle.
pub(super) fn run(
    project: &Path,
    home: &Path,
    format: Format,
    cx: &Ctx<'_>,
) -> Result<Vec<Step>, Failure> {
    let bundle = home.join(".claude/skills/w");
    let bundle = bundle.to_string_lossy();
    let install = step::run(
        project,
        &["self", "install", "--target", "claude"],
        format,
        cx,
    )?;
    let plan = step::run(
        project,
        &["context-plan", "--command", "quick", "--root", &bundle],
        format,
        cx,
    )?;
    Ok(vec![install, plan])
}
