//! A session narrative as a person reads it: the same facts as the `aw:recorrido` block, in
//! English words (the block and the JSON keep the reference's wire words).

use crate::style::clean;
use aw_core::session::narrative::{Fact, FactState, List, Narrative};

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
fn fact(f: &Fact, detail: bool) -> String {
    let mut source = clean(&f.source.artifact).into_owned();
    if detail {
        if let Some(l) = &f.source.locator {
            source.push_str(&format!(" › {}", clean(l)));
        }
        if let Some(d) = &f.detail {
            source.push_str(&format!(" · {}", clean(d)));
        }
    }
    format!("{} [{} · {source}]", clean(&f.text), state_word(f.state))
}

/// The narrative's lines, indented under a `Narrative · <phase>` heading.
pub fn lines(n: &Narrative, detail: bool) -> String {
    let mut out = format!("  Narrative · {}\n", n.phase.word());
    if let Some(o) = &n.objective {
        out.push_str(&format!("    Objective  {}\n", fact(o, detail)));
    }
    if let Some(x) = &n.next {
        out.push_str(&format!("    Next       {}\n", fact(x, detail)));
    }
    for (list, facts) in n.lists() {
        if facts.is_empty() {
            continue;
        }
        out.push_str(&format!("    {}\n", heading(list)));
        for f in facts {
            out.push_str(&format!("      · {}\n", fact(f, detail)));
        }
    }
    if !n.links.is_empty() {
        let labels: Vec<String> = n
            .links
            .iter()
            .map(|l| clean(&l.label).into_owned())
            .collect();
        out.push_str(&format!("    Files      {}\n", labels.join(" · ")));
    }
    out
}
