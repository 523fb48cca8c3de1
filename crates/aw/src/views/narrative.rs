//! A session narrative as a person reads it: the same facts as the `aw:recorrido` block, in
//! English words (the block and the JSON keep the reference's wire words).

use crate::style::clean;
use aw_core::session::narrative::{Fact, FactState, List, Narrative};
use std::fmt::{self, Write};

fn state_word(s: FactState) -> &'static str {
    match s {
        FactState::Planned => "planned",
        FactState::Applied => "done",
        FactState::Failed => "failed",
        FactState::Closed => "closed",
    }
}

/// A list's heading in English.
fn heading(list: List) -> &'static str {
    match list {
        List::Sequence => "What happened",
        List::Tasks => "Criteria",
        List::Decisions => "Decisions and why",
        List::Results => "Results",
        List::Evidence => "Evidence",
        List::Pending => "Pending",
    }
}

/// One fact: its text, then its state and the file it comes from (with `detail`, where in the
/// file and the technical detail too).
fn fact(out: &mut dyn Write, f: &Fact, detail: bool) -> fmt::Result {
    write!(
        out,
        "{} [{} · {}",
        clean(&f.text),
        state_word(f.state),
        clean(&f.source.artifact)
    )?;
    if detail {
        if let Some(l) = &f.source.locator {
            write!(out, " › {}", clean(l))?;
        }
        if let Some(d) = &f.detail {
            write!(out, " · {}", clean(d))?;
        }
    }
    write!(out, "]")
}

/// The narrative's lines, indented under a `Narrative · <phase>` heading.
pub fn lines(n: &Narrative, detail: bool) -> String {
    let mut out = String::new();
    // Writing into a `String` cannot fail.
    let _ = write_lines(&mut out, n, detail);
    out
}

/// Writes the narrative's lines (see [`lines`]) into `out`.
pub fn write_lines(out: &mut dyn Write, n: &Narrative, detail: bool) -> fmt::Result {
    writeln!(out, "  Narrative · {}", n.phase.word())?;
    if let Some(o) = &n.objective {
        write!(out, "    Objective  ")?;
        fact(out, o, detail)?;
        writeln!(out)?;
    }
    if let Some(x) = &n.next {
        write!(out, "    Next       ")?;
        fact(out, x, detail)?;
        writeln!(out)?;
    }
    for (list, facts) in n.lists() {
        if facts.is_empty() {
            continue;
        }
        writeln!(out, "    {}", heading(list))?;
        for f in facts {
            write!(out, "      · ")?;
            fact(out, f, detail)?;
            writeln!(out)?;
        }
    }
    if !n.links.is_empty() {
        write!(out, "    Files      ")?;
        for (i, l) in n.links.iter().enumerate() {
            let sep = if i == 0 { "" } else { " · " };
            write!(out, "{sep}{}", clean(&l.label))?;
        }
        writeln!(out)?;
    }
    Ok(())
}
