//! The human view of `aw checkpoint-read`: the first line of each field, or how to start one.

use super::View;
use crate::output::Style;
use crate::style::clean;
use aw_core::markdown::first_nonblank_line;
use aw_core::wire::checkpoint::CheckpointRead;
use std::fmt::{self, Write};

impl View for CheckpointRead<'_> {
    fn render(&self, out: &mut dyn Write, style: &Style) -> fmt::Result {
        let (session, cp) = match self {
            CheckpointRead::Missing { session, .. } => {
                let folder = clean(session);
                return writeln!(
                    out,
                    "{folder} · no checkpoint\n  Next  run `aw checkpoint-write --code {folder}` \
                     to start one"
                );
            }
            CheckpointRead::Found {
                session,
                checkpoint,
            } => (session, checkpoint),
        };
        writeln!(out, "{} · checkpoint", clean(session))?;
        let f = &cp.fields;
        for (label, value) in [
            ("Updated", &f.actualizado),
            ("Progress", &f.avance),
            ("Done", &f.ultimo),
            ("Next", &f.proximo),
        ] {
            let first = value
                .as_deref()
                .and_then(first_nonblank_line)
                .unwrap_or("—");
            writeln!(out, "  {label:<9} {}", clean(first))?;
        }
        if style.detail {
            writeln!(out, "  {:<9} {}", "File", clean(cp.path))?;
        }
        Ok(())
    }
}
