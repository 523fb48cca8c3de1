//! The human view of `aw persist prepare | validate | apply`: what the stage found or did, then
//! the next action.

use super::View;
use crate::output::Style;
use crate::style::clean_lines;
use aw_core::persist::result::{Outcome as Ended, PersistResult, Stage};
use std::fmt::{self, Write};

impl View for PersistResult {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        let mut text = String::new();
        lines(&mut text, self)?;
        // The documents' titles and slugs are the workspace's: made safe at once.
        writeln!(out, "{}", clean_lines(&text))
    }
}

fn lines(out: &mut String, r: &PersistResult) -> fmt::Result {
    let stage = match r.stage {
        Stage::Prepare => "prepare",
        Stage::Validate => "validate",
        Stage::Apply => "apply",
    };
    let outcome = match r.outcome {
        Ended::NeedsInput => "needs input",
        Ended::Blocked => "blocked",
        Ended::Completed => "completed",
    };
    writeln!(out, "persist {stage} — {outcome}")?;
    if let (Some(inv), Stage::Prepare) = (&r.inventory, r.stage) {
        for f in &inv.folders {
            writeln!(
                out,
                "{} (next {}): {} document{}",
                f.folder,
                f.next,
                f.documents.len(),
                if f.documents.len() == 1 { "" } else { "s" }
            )?;
            for d in &f.documents {
                writeln!(
                    out,
                    "  {} {} — {}",
                    d.number,
                    if d.slug.is_empty() {
                        "(no slug)"
                    } else {
                        &d.slug
                    },
                    d.title.as_deref().unwrap_or("(no title)")
                )?;
            }
        }
    }
    if let Some(s) = &r.semantic {
        writeln!(out, "input_digest: {}", s.request.input_digest)?;
    }
    if let Some(plan) = &r.plan {
        writeln!(out, "plan (approval_digest {}):", plan.approval_digest)?;
        for p in &plan.preview {
            writeln!(out, "  {} ({} bytes)", p.path, p.bytes)?;
        }
    }
    for w in &r.written {
        writeln!(out, "wrote {w}")?;
    }
    if let Some(e) = &r.error {
        writeln!(out, "error {}: {}", e.code, e.message)?;
    }
    write!(out, "next: {}", r.next_action)
}
