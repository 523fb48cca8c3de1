//! The human views of `aw checkpoint-write` and `aw auto-compact-on-close`: what happened to
//! the checkpoint, or why no session was settled on.

use super::View;
use super::hooks::write_degraded;
use crate::output::Style;
use crate::style::clean;
use aw_core::wire::checkpoint::{
    AutoCompactOnClose, CheckpointWrite, OnCloseEntry, PRESERVED_REASON,
};
use std::fmt::{self, Write};

impl View for CheckpointWrite<'_> {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        match self {
            CheckpointWrite::Kept(k) => writeln!(
                out,
                "Checkpoint kept · {}\n  File  {}\n  Why   {PRESERVED_REASON}",
                clean(k.session),
                clean(k.checkpoint_path)
            ),
            CheckpointWrite::Written(w) => {
                writeln!(
                    out,
                    "Checkpoint written · {}\n  File      {}",
                    clean(w.session),
                    clean(w.checkpoint_path)
                )?;
                match w.progress_pct {
                    Some(p) => writeln!(
                        out,
                        "  Progress  {p}% ({} open, {} done)",
                        w.tasks_open, w.tasks_closed
                    )?,
                    None => writeln!(out, "  Progress  unknown (no tasks)")?,
                }
                writeln!(
                    out,
                    "  Changes   {} uncommitted file(s)\n  Next      fill in the _[AI: …]_ \
                     placeholders",
                    w.files_touched_count
                )
            }
            CheckpointWrite::Degraded(d) => {
                write_degraded(out, d.reason, d.active_sessions, d.action)
            }
        }
    }
}

impl View for AutoCompactOnClose<'_> {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        match self {
            AutoCompactOnClose::Session {
                checkpoints_written: [entry],
            } => match entry {
                OnCloseEntry::Kept(k) => writeln!(
                    out,
                    "Checkpoint kept · {}\n  Why  {PRESERVED_REASON}",
                    clean(k.session)
                ),
                OnCloseEntry::Written {
                    session,
                    checkpoint_path,
                    ..
                } => writeln!(
                    out,
                    "Checkpoint written · {}\n  File  {}",
                    clean(session),
                    clean(checkpoint_path)
                ),
                OnCloseEntry::Failed { session, error } => writeln!(
                    out,
                    "Checkpoint not written · {}\n  Why  {}",
                    clean(session),
                    clean(error)
                ),
            },
            AutoCompactOnClose::Degraded {
                reason,
                active_sessions,
                action,
                ..
            } => write_degraded(out, reason, active_sessions, action),
        }
    }
}
