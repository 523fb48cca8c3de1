//! The lines of the block aw does not own: where each goes back, and how the two files' copies
//! of them combine.

use std::collections::{HashMap, HashSet};

/// Where a line the block does not own goes back when the block is written again: after the
/// entry it followed. The wire names are the reference's (`project-md-upsert --read` lists them
/// as `preserved_lines`), plus `preamble`, ours: the text before the first `##` heading, which
/// the reference drops.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Slot {
    /// Before the first `##` heading of the block.
    Preamble,
    /// After the sources table.
    Sources,
    /// After the stack list.
    Stack,
    /// At the top of the status list, before any entry.
    StatusStart,
    /// After the default branches.
    StatusDefaults,
    /// After the working branches.
    StatusWorking,
    /// After the QA branches.
    StatusQa,
    /// After the last-activity line.
    StatusActivity,
    /// After the history line.
    StatusHistory,
    /// A whole `##` section the block does not own, heading included, after `## Status`.
    Trailing,
}

impl Slot {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Slot::Preamble => "preamble",
            Slot::Sources => "fuentes",
            Slot::Stack => "stack",
            Slot::StatusStart => "status:start",
            Slot::StatusDefaults => "status:defaults",
            Slot::StatusWorking => "status:working",
            Slot::StatusQa => "status:qa",
            Slot::StatusActivity => "status:activity",
            Slot::StatusHistory => "status:historico",
            Slot::Trailing => "trailing",
        }
    }
}

/// A line inside the block that aw does not own (a person's note, their own section): kept
/// through every rewrite, at its slot, as written (indentation kept, trailing blanks trimmed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptLine {
    /// Where it goes back.
    pub slot: Slot,
    /// The line.
    pub text: String,
}

impl KeptLine {
    /// A line for `slot`, its trailing blanks trimmed.
    pub fn new(slot: Slot, text: &str) -> Self {
        KeptLine {
            slot,
            text: text.trim_end().to_owned(),
        }
    }
}

/// Whether a kept line opens a person's own section (`## …`).
fn opens_section(text: &str) -> bool {
    text.trim_start().starts_with("## ")
}

/// Groups a slot's lines into the units that are compared whole: a preamble is one unit, the
/// trailing text one per `##` section (a line before the first heading joins the first unit).
fn units(lines: &[KeptLine], slot: Slot) -> Vec<Vec<&str>> {
    let mut out: Vec<Vec<&str>> = Vec::new();
    for l in lines.iter().filter(|l| l.slot == slot) {
        match out.last_mut() {
            Some(unit) if !(slot == Slot::Trailing && opens_section(&l.text)) => unit.push(&l.text),
            _ if l.text.trim().is_empty() => {}
            _ => out.push(vec![&l.text]),
        }
    }
    // A unit's trailing blank line is the separator before the next one, not its content.
    for u in &mut out {
        while u.last().is_some_and(|t| t.trim().is_empty()) {
            u.pop();
        }
    }
    out
}

/// The kept lines of both files (`CLAUDE.md` first): a person edits whichever file their host
/// reads, so a note left in only one of them must survive a rewrite of both. Everything of the
/// first file is kept as it is; the second adds what the first lacks: per slot, a line as many
/// times more as it appears there more often, and whole sections (or a preamble) that differ.
/// Repeated and blank lines inside one file are never merged away. Linear in the lines.
pub fn merge(first: &[KeptLine], second: &[KeptLine]) -> Vec<KeptLine> {
    let mut out = first.to_vec();
    for slot in [Slot::Preamble, Slot::Trailing] {
        let have: HashSet<Vec<&str>> = units(first, slot).into_iter().collect();
        let mut any = first.iter().any(|k| k.slot == slot);
        for unit in units(second, slot) {
            if have.contains(&unit) {
                continue;
            }
            if any {
                out.push(KeptLine::new(slot, ""));
            }
            any = true;
            out.extend(unit.iter().map(|t| KeptLine::new(slot, t)));
        }
    }
    // How many more times a line may still appear in the second file before it is new.
    let mut budget: HashMap<(Slot, &str), usize> = HashMap::new();
    for k in first {
        *budget.entry((k.slot, k.text.as_str())).or_default() += 1;
    }
    for k in second {
        if matches!(k.slot, Slot::Preamble | Slot::Trailing) {
            continue;
        }
        match budget.get_mut(&(k.slot, k.text.as_str())) {
            Some(n) if *n > 0 => *n -= 1,
            _ => out.push(k.clone()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(slot: Slot, text: &str) -> KeptLine {
        KeptLine::new(slot, text)
    }

    #[test]
    fn the_second_file_adds_only_what_the_first_lacks() {
        let first = vec![
            k(Slot::StatusWorking, "note"),
            k(Slot::StatusWorking, "note"),
            k(Slot::Trailing, "## Notes"),
            k(Slot::Trailing, ""),
            k(Slot::Trailing, "a"),
            k(Slot::Trailing, ""),
            k(Slot::Trailing, "b"),
        ];
        // The same lines in the other file add nothing: repeats and blank lines stay as they are.
        assert_eq!(merge(&first, &first), first);
        let second = vec![
            k(Slot::Sources, "only in agents"),
            k(Slot::StatusWorking, "note"),
            k(Slot::StatusWorking, "note"),
            k(Slot::StatusWorking, "note"),
            k(Slot::Trailing, "## Notes"),
            k(Slot::Trailing, ""),
            k(Slot::Trailing, "a"),
            k(Slot::Trailing, ""),
            k(Slot::Trailing, "b"),
            k(Slot::Trailing, ""),
            k(Slot::Trailing, "## Mine"),
            k(Slot::Trailing, "x"),
            k(Slot::Preamble, "intro"),
        ];
        let merged = merge(&first, &second);
        let mut expect = first.clone();
        expect.extend([
            k(Slot::Trailing, ""),
            k(Slot::Trailing, "## Mine"),
            k(Slot::Trailing, "x"),
            k(Slot::Sources, "only in agents"),
            k(Slot::StatusWorking, "note"),
        ]);
        expect.insert(7, k(Slot::Preamble, "intro"));
        let slots = |v: &[KeptLine], s: Slot| -> Vec<String> {
            v.iter()
                .filter(|l| l.slot == s)
                .map(|l| l.text.clone())
                .collect()
        };
        for s in [
            Slot::Preamble,
            Slot::Sources,
            Slot::StatusWorking,
            Slot::Trailing,
        ] {
            assert_eq!(slots(&merged, s), slots(&expect, s), "{s:?}");
        }
    }

    #[test]
    fn kept_lines_lose_only_trailing_blanks() {
        assert_eq!(
            k(Slot::Stack, "  - Editor: vim  \t").text,
            "  - Editor: vim"
        );
        assert_eq!(Slot::StatusHistory.as_str(), "status:historico");
        assert_eq!(Slot::Sources.as_str(), "fuentes");
    }
}
