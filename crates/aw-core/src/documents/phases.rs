//! A plan's phases: the `### F<n> — <name>` blocks under `## Tasks` (or `## Tareas`), each with
//! its `> Estado:` / `> State:` line and, when blocked, its `> Bloqueo:` / `> Blocker:` reason.
//!
//! A phase heading is a level-3 heading `F<n>` followed by `—`, `–`, `-` or `:` and a name. Any
//! other heading of level 3 or higher closes the open phase; deeper headings stay inside it. Only
//! the first state line and the first blocker line of a block count; later ones are prose. A
//! state that is not exactly one of the known words (after folding case and accents and
//! collapsing spaces) reads as pending, so an annotated `validada — with caveats` is not
//! validated.

use super::preamble::{is_key, quoted};
use crate::markdown::{Line, trim, trim_start};
use crate::vocab::titles::{is_one_of, words_fold_to_any};
use serde::Serialize;

/// Where a phase stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PhaseState {
    /// `pendiente` / `pending` (and anything not understood).
    Pending,
    /// `en ejecución` / `in progress`.
    InProgress,
    /// `bloqueada` / `blocked`.
    Blocked,
    /// `validada` / `validated`.
    Validated,
}

impl PhaseState {
    /// Reads a state value: `*` dropped, case and accents folded, spaces collapsed; an unknown
    /// value is pending.
    pub fn from_value(v: &str) -> Self {
        // One walk over the value for every known word.
        const WORDS: [(&str, PhaseState); 6] = [
            ("validada", PhaseState::Validated),
            ("validated", PhaseState::Validated),
            ("en ejecucion", PhaseState::InProgress),
            ("in progress", PhaseState::InProgress),
            ("bloqueada", PhaseState::Blocked),
            ("blocked", PhaseState::Blocked),
        ];
        words_fold_to_any(v, &WORDS.map(|(w, _)| w)).map_or(PhaseState::Pending, |i| WORDS[i].1)
    }

    /// Our English label.
    pub fn label(self) -> &'static str {
        match self {
            PhaseState::Pending => "pending",
            PhaseState::InProgress => "in progress",
            PhaseState::Blocked => "blocked",
            PhaseState::Validated => "validated",
        }
    }
}

/// One phase of a plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phase {
    /// `n` of `F<n>`.
    pub number: u64,
    /// The name after the separator.
    pub name: String,
    /// The declared state (pending when none is declared).
    pub state: PhaseState,
    /// Whether the block has a state line at all.
    pub declared: bool,
    /// The first blocker line's reason, whatever the state.
    pub blocker: Option<String>,
}

/// The folded titles of the tasks section.
pub(crate) const TASKS_TITLES: &[&str] = &["tasks", "tareas"];
/// Folded keys of a phase's state line.
const STATE_KEYS: &[&str] = &["estado", "state", "status"];
/// Folded keys of a phase's blocker line.
const BLOCKER_KEYS: &[&str] = &["bloqueo", "blocker", "blocked by"];

/// `F<n>` then a separator and a name: `(number, name)`.
pub fn phase_heading(title: &str) -> Option<(u64, &str)> {
    let title = trim(title);
    // `F` and `f` are ASCII, as are the digits: every cut below is on a char boundary.
    let rest = match title.as_bytes().first() {
        Some(b'F' | b'f') => &title[1..],
        _ => return None,
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    // `str::parse` without its sign and error handling: a number too big for a `u64` is no
    // phase number.
    let mut number: u64 = 0;
    for b in rest[..digits].bytes() {
        number = number.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
    }
    let after = trim_start(&rest[digits..]);
    let name = after
        .strip_prefix('—')
        .or_else(|| after.strip_prefix('–'))
        .or_else(|| after.strip_prefix('-'))
        .or_else(|| after.strip_prefix(':'))?;
    let name = trim(name);
    (!name.is_empty()).then_some((number, name))
}

/// Every phase heading under the first `## Tasks` / `## Tareas` section, in document order,
/// whether or not it declares a state.
pub fn phase_blocks(lines: &[Line<'_>]) -> Vec<Phase> {
    let Some(start) = lines
        .iter()
        .position(|l| matches!(l.heading, Some((2, t)) if is_one_of(t, TASKS_TITLES)))
    else {
        return Vec::new();
    };
    let mut phases: Vec<Phase> = Vec::new();
    let mut open = false;
    let mut state_seen = false;
    for line in &lines[start + 1..] {
        if let Some((level, title)) = line.heading {
            if level <= 2 {
                break;
            }
            if level == 3 {
                match phase_heading(title) {
                    Some((number, name)) => {
                        phases.push(Phase {
                            number,
                            name: name.to_owned(),
                            state: PhaseState::Pending,
                            declared: false,
                            blocker: None,
                        });
                        open = true;
                        state_seen = false;
                    }
                    None => open = false,
                }
            }
            continue;
        }
        if !open || line.fenced {
            continue;
        }
        let (Some(phase), Some((key, value))) = (phases.last_mut(), quoted(line.text)) else {
            continue;
        };
        if !state_seen && is_key(key, STATE_KEYS) {
            phase.state = PhaseState::from_value(&value);
            phase.declared = true;
            state_seen = true;
        } else if phase.blocker.is_none() && !value.is_empty() && is_key(key, BLOCKER_KEYS) {
            phase.blocker = Some(value.into_owned());
        }
    }
    phases
}

/// The phases that count: none at all when no block declares a state (a plan written before
/// the phase contract), otherwise every phase block.
pub fn counted(blocks: &[Phase]) -> &[Phase] {
    if blocks.iter().any(|p| p.declared) {
        blocks
    } else {
        &[]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::markdown::scan;

    #[test]
    fn state_words_table() {
        let cases: &[(&str, PhaseState)] = &[
            ("pendiente", PhaseState::Pending),
            ("pending", PhaseState::Pending),
            ("en ejecución", PhaseState::InProgress),
            ("En  Ejecucion", PhaseState::InProgress),
            ("**en ejecución**", PhaseState::InProgress),
            ("in progress", PhaseState::InProgress),
            ("bloqueada", PhaseState::Blocked),
            ("BLOCKED", PhaseState::Blocked),
            ("validada", PhaseState::Validated),
            ("Validated", PhaseState::Validated),
            ("validada — con reservas", PhaseState::Pending),
            ("done", PhaseState::Pending),
            ("", PhaseState::Pending),
        ];
        for (v, want) in cases {
            assert_eq!(PhaseState::from_value(v), *want, "{v}");
        }
    }

    #[test]
    fn heading_grammar() {
        assert_eq!(phase_heading("F1 — Login"), Some((1, "Login")));
        assert_eq!(phase_heading("F12–x"), Some((12, "x")));
        assert_eq!(phase_heading("F3 - y"), Some((3, "y")));
        assert_eq!(phase_heading("F4: z"), Some((4, "z")));
        assert_eq!(phase_heading("F5"), None);
        assert_eq!(phase_heading("F6 —"), None);
        assert_eq!(phase_heading("Fase 1 — x"), None);
        assert_eq!(phase_heading("F99999999999999999999999 — x"), None);
    }

    #[test]
    fn blocks_states_and_blockers() {
        let text = "# Plan\n> Estado: open\n## Tasks\n\
            ### F1 — One\n> Estado: validada\n> Estado: bloqueada\n- [x] T1.1\n\
            ### F2 — Two\n> **Bloqueo:** waiting on infra\n> State: blocked\n#### detail\n> Blocker: later\n\
            ### Notes\n> Estado: validada\n\
            ### F3 — Three\n```\n> Estado: validada\n```\n\
            ## Execution batches\n### F4 — not a phase\n> Estado: validada\n";
        let blocks = phase_blocks(&scan(text));
        let got: Vec<_> = blocks
            .iter()
            .map(|p| {
                (
                    p.number,
                    p.name.as_str(),
                    p.state,
                    p.declared,
                    p.blocker.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (1, "One", PhaseState::Validated, true, None),
                (
                    2,
                    "Two",
                    PhaseState::Blocked,
                    true,
                    Some("waiting on infra")
                ),
                (3, "Three", PhaseState::Pending, false, None),
            ]
        );
        assert_eq!(counted(&blocks).len(), 3);
    }

    #[test]
    fn spanish_section_and_pre_contract_plans() {
        let es = "## Tareas (v2):\n### F1 — Uno\n> Estado: en ejecución\n";
        assert_eq!(phase_blocks(&scan(es))[0].state, PhaseState::InProgress);
        let old = "## Tasks\n### F1 — One\n- [ ] a\n### F2 — Two\n";
        let blocks = phase_blocks(&scan(old));
        assert_eq!(blocks.len(), 2);
        assert!(counted(&blocks).is_empty());
        let fenced = "## Tasks\n```md\n### F1 — Example\n> Estado: validada\n```\n";
        assert!(phase_blocks(&scan(fenced)).is_empty());
        let level3 = "### Tasks\n### F1 — x\n> Estado: validada\n";
        assert!(phase_blocks(&scan(level3)).is_empty());
    }
}
