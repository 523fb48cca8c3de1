//! The human view of `aw resume`: the work to pick up, the candidates to choose from, or what to
//! start when there is none.

use super::View;
use crate::output::Style;
use crate::style::{Paint, clean};
use aw_core::board::resume::{Answer, Proposal};
use std::fmt::{self, Write};

impl View for Answer {
    fn render(&self, out: &mut dyn Write, style: &Style) -> fmt::Result {
        match self {
            Answer::Proposal {
                proposal,
                candidates,
                ..
            } => {
                block(out, proposal, style)?;
                // The others still pending, one line each, in the pipeline's order.
                let others: Vec<&Proposal> = candidates
                    .iter()
                    .flatten()
                    .filter(|c| c.file != proposal.file)
                    .collect();
                if !others.is_empty() {
                    writeln!(out, "\nAlso pending ({}), in order:", others.len())?;
                    for c in others {
                        writeln!(out, "  {} — {}", clean(&c.objective), clean(&c.next))?;
                    }
                }
                Ok(())
            }
            Answer::Candidates { candidates, action } => {
                writeln!(out, "{action}")?;
                for c in candidates {
                    writeln!(out)?;
                    block(out, c, style)?;
                }
                Ok(())
            }
            Answer::Idle { action } | Answer::Uninitialized { action } => {
                writeln!(out, "{}", clean(action))
            }
        }
    }
}

/// One piece of work: its objective, progress, next step and the command that resumes it.
fn block(out: &mut dyn Write, p: &Proposal, style: &Style) -> fmt::Result {
    let head = Paint::new(style.color).bold(&format!("▸ {}", clean(&p.objective)));
    writeln!(
        out,
        "{head}\n  Progress   {}\n  Next       {}\n  Command    {}",
        clean(&p.progress),
        clean(&p.next),
        clean(&p.command)
    )?;
    if style.detail {
        let label = if p.is_session() { "Session" } else { "Path" };
        writeln!(out, "  {label:<10} {}", clean(&p.file))?;
    }
    Ok(())
}
