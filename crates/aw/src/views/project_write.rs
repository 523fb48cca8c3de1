//! The human lines of what a write of the project block and a change of multi-root visibility
//! report, from their typed parts (`aw_core::wire::project_block`, `aw_core::wire::multiroot`).

use crate::style::clean;
use aw_core::wire::multiroot::Host;
use aw_core::wire::project_block::{BlockLanguage, FileResult};
use std::fmt::{self, Write};

/// One line per file: `CLAUDE.md    updated`.
pub fn results(out: &mut dyn Write, files: &[FileResult]) -> fmt::Result {
    for f in files {
        let migrated = if f.migrated_from.is_some() {
            " (legacy markers replaced)"
        } else {
            ""
        };
        writeln!(out, "  {:<12} {}{migrated}", f.file, f.action)?;
    }
    Ok(())
}

/// Why a new block is in Spanish, and how to have English.
pub fn block_language(out: &mut dyn Write, b: &BlockLanguage<'_>) -> fmt::Result {
    write!(
        out,
        "  {:<12} es: the reference CLI is used here (",
        "Language"
    )?;
    for (i, t) in b.traces.iter().enumerate() {
        write!(out, "{}{}", if i == 0 { "" } else { ", " }, clean(t))?;
    }
    writeln!(out, "), and it reads only its Spanish block")?;
    writeln!(
        out,
        "  {:<12} AW_DOC_LANGUAGE=en (or doc_language = \"en\" in skills.toml) writes English",
        ""
    )
}

/// The lines a write left out (nothing when there is none).
pub fn dropped(out: &mut dyn Write, lines: &[String]) -> fmt::Result {
    if lines.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "  {:<12} {} line(s) the block no longer declares:",
        "Dropped",
        lines.len()
    )?;
    for l in lines {
        writeln!(out, "    {}", clean(l.trim()))?;
    }
    Ok(())
}

/// One line per host: `Codex        .codex/config.toml updated (+1, -0)`, then Warp's.
pub fn hosts(
    out: &mut dyn Write,
    claude: &Host<'_>,
    codex: &Host<'_>,
    warp_skipped: bool,
) -> fmt::Result {
    for (name, h) in [("Claude Code", claude), ("Codex", codex)] {
        match h {
            Host::File(h) => writeln!(
                out,
                "  {:<12} {} {} (+{}, -{})",
                name,
                h.file,
                h.action,
                h.added.len(),
                h.removed.len()
            )?,
            Host::Skipped(_) => writeln!(out, "  {name:<12} skipped")?,
        }
    }
    let warp = if warp_skipped {
        "skipped"
    } else {
        "nothing to write (Warp and Oz have no per-project folder setting)"
    };
    writeln!(out, "  {:<12} {warp}", "Warp / Oz")
}
