//! A plan as aw reads it (§9.2): its three progress axes (tasks done, phases validated, plan
//! closed), the state they add up to, its spec clues, its batches and its declared date.
//!
//! - Tasks are every checkbox line of the file, fenced examples included (as the reference and
//!   every TASKS reader count them).
//! - The plan-level declaration is the first `> Estado:` / `> State:` line of the preamble:
//!   `open` or `done`, or the legacy `done — <closure>`; anything else is unknown. The closure is
//!   the first `> Cierre:` / `> Closed:` line.
//! - Phases come from [`super::phases`].
//! - `plan_state` is `inconsistent` when the declaration is unknown, or says `done` while a
//!   task is open or a phase is not validated.

use super::batches::{Batches, parse_batches};
use super::frontmatter;
use super::phases::{self, Phase, PhaseState};
use super::preamble::{self, is_key, quoted};
use super::relation::{self, Clues};
use crate::artifacts::{TaskStatus, checkbox, percent};
use crate::calendar::Moment;
use crate::markdown;
use serde::Serialize;

/// What the preamble declares about the plan as a whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Declaration {
    /// No state line.
    Absent,
    /// `open`.
    Open,
    /// `done`.
    Done,
    /// A state line with any other value (kept as written).
    Unknown(String),
}

/// The plan's state once its declaration is checked against its counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum PlanState {
    /// Still open (declared open, or not declared).
    Open,
    /// Declared done, and every task and phase backs it.
    Done,
    /// The declaration is unreadable, or says done while work is left.
    Inconsistent,
}

impl PlanState {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            PlanState::Open => "open",
            PlanState::Done => "done",
            PlanState::Inconsistent => "inconsistent",
        }
    }
}

/// The plan-level header lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The state declaration.
    pub declaration: Declaration,
    /// Written in the legacy `done — <closure>` form.
    pub legacy: bool,
    /// The closure note (`> Cierre:`, or the legacy tail).
    pub closure: Option<String>,
}

/// What aw reads of a plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanFacts {
    /// Checkbox lines in the whole file.
    pub tasks_total: usize,
    /// Checked ones.
    pub tasks_done: usize,
    /// The plan-level header.
    pub header: Header,
    /// Every phase block under the tasks section (declared or not).
    pub phase_blocks: Vec<Phase>,
    /// The spec clues.
    pub clues: Clues,
    /// The execution batches, when the plan has the section.
    pub batches: Option<Batches>,
    /// The plan's own date (frontmatter `date:`, else a `Date:` / `Fecha:` preamble line).
    pub declared: Option<Moment>,
    /// The design packages it references (`crate::documents::design_refs::references`).
    pub design_refs: Vec<crate::documents::design_refs::Reference>,
    /// The `> Baseline:` seal of its header.
    pub seal: super::baseline::Seal,
}

/// Folded keys of the plan-level state line.
const STATE_KEYS: &[&str] = &["estado", "state", "status"];
/// Folded keys of the closure line.
const CLOSURE_KEYS: &[&str] = &["cierre", "closed", "closure"];

/// Reads a plan.
pub fn parse_plan(text: &str) -> PlanFacts {
    let lines = markdown::scan(text);
    let (mut tasks_total, mut tasks_done) = (0, 0);
    for l in &lines {
        if let Some((status, _)) = checkbox(l.text) {
            tasks_total += 1;
            tasks_done += usize::from(status == TaskStatus::Closed);
        }
    }
    let fm = frontmatter::read(&lines);
    let pre = preamble::find(&lines, fm.body());
    let header = header(&lines, pre);
    let phase_blocks = phases::phase_blocks(&lines);
    let batches = parse_batches(&lines, &phase_blocks);
    let declared = fm
        .get("date")
        .and_then(crate::calendar::parse_declared)
        .or_else(|| preamble::declared_date(&lines, pre));
    PlanFacts {
        tasks_total,
        tasks_done,
        header,
        clues: relation::clues(&lines, pre),
        phase_blocks,
        batches,
        declared,
        seal: super::baseline::read_seal(&lines, super::names::DocKind::Spec.folder()),
        design_refs: if text.contains("DES-") {
            crate::documents::design_refs::references_in(&lines)
        } else {
            Vec::new()
        },
    }
}

fn header(lines: &[markdown::Line<'_>], pre: preamble::Preamble) -> Header {
    let mut state: Option<String> = None;
    let mut closure: Option<String> = None;
    for l in preamble::lines(lines, pre) {
        let Some((key, value)) = quoted(l.text) else {
            continue;
        };
        if state.is_none() && is_key(key, STATE_KEYS) {
            state = Some(value.into_owned());
        } else if closure.is_none() && is_key(key, CLOSURE_KEYS) {
            closure = Some(value.into_owned());
        }
    }
    let Some(v) = state else {
        return Header {
            declaration: Declaration::Absent,
            legacy: false,
            closure,
        };
    };
    // Compared in place, ASCII case ignored: no lower-cased copy of every plan's state.
    let word = |s: &str| {
        let s = s.trim();
        if s.eq_ignore_ascii_case("open") {
            Some(Declaration::Open)
        } else if s.eq_ignore_ascii_case("done") {
            Some(Declaration::Done)
        } else {
            None
        }
    };
    if let Some(d) = word(&v) {
        return Header {
            declaration: d,
            legacy: false,
            closure,
        };
    }
    for sep in [" — ", " – ", " - ", "—", "–"] {
        if let Some((head, tail)) = v.split_once(sep)
            && let Some(d) = word(head)
        {
            let tail = tail.trim();
            return Header {
                declaration: d,
                legacy: true,
                closure: closure.or_else(|| (!tail.is_empty()).then(|| tail.to_owned())),
            };
        }
    }
    Header {
        declaration: Declaration::Unknown(v),
        legacy: false,
        closure,
    }
}

impl PlanFacts {
    /// The phases that count (none when no block declares a state).
    pub fn phases(&self) -> &[Phase] {
        phases::counted(&self.phase_blocks)
    }

    /// `round(100 · done / total)`, 0 without tasks.
    pub fn progress_pct(&self) -> u32 {
        percent(self.tasks_done, self.tasks_total).unwrap_or(0)
    }

    /// Validated phases.
    pub fn phases_validated(&self) -> usize {
        self.count(PhaseState::Validated)
    }

    /// Blocked phases.
    pub fn phases_blocked(&self) -> usize {
        self.count(PhaseState::Blocked)
    }

    fn count(&self, s: PhaseState) -> usize {
        self.phases().iter().filter(|p| p.state == s).count()
    }

    /// Every task checked and every counted phase validated.
    pub fn all_work_done(&self) -> bool {
        self.tasks_done == self.tasks_total
            && self
                .phases()
                .iter()
                .all(|p| p.state == PhaseState::Validated)
    }

    /// The plan's state.
    pub fn state(&self) -> PlanState {
        match self.header.declaration {
            Declaration::Unknown(_) => PlanState::Inconsistent,
            Declaration::Absent | Declaration::Open => PlanState::Open,
            Declaration::Done if self.all_work_done() => PlanState::Done,
            Declaration::Done => PlanState::Inconsistent,
        }
    }

    /// Everything executed, nothing declared yet: the plan is open, has phases, every phase is
    /// validated and every task checked. What is left is the final validation and the closure.
    pub fn final_validation_pending(&self) -> bool {
        self.state() == PlanState::Open && !self.phases().is_empty() && self.all_work_done()
    }

    /// The first counted phase that is not validated.
    pub fn next_phase(&self) -> Option<&Phase> {
        self.phases()
            .iter()
            .find(|p| p.state != PhaseState::Validated)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(header: &str, body: &str) -> PlanFacts {
        parse_plan(&format!(
            "# Plan 003 — x\n\n{header}\n\n## Origin\n- a\n\n## Tasks\n{body}"
        ))
    }

    const VALIDATED: &str =
        "### F1 — a\n> Estado: validada\n- [x] T1\n### F2 — b\n> Estado: validada\n- [x] T2\n";
    const HALF: &str =
        "### F1 — a\n> Estado: validada\n- [x] T1\n### F2 — b\n> Estado: en ejecución\n- [ ] T2\n";
    const TASKS_OPEN: &str = "### F1 — a\n> Estado: validada\n- [ ] T1\n";
    const NO_PHASES_DONE: &str = "- [x] a\n- [X] b\n";
    const NO_PHASES_OPEN: &str = "- [x] a\n- [ ] b\n";

    #[test]
    fn plan_state_table() {
        use PlanState::*;
        let cases: &[(&str, &str, PlanState, bool)] = &[
            // header, body, plan_state, final_validation_pending
            ("", VALIDATED, Open, true),
            ("> Estado: open", VALIDATED, Open, true),
            ("> State: OPEN", HALF, Open, false),
            ("> Estado: open", "", Open, false),
            ("> Estado: open", NO_PHASES_DONE, Open, false),
            ("> Estado: done", VALIDATED, Done, false),
            ("> **Estado:** done", NO_PHASES_DONE, Done, false),
            ("> Estado: done", "", Done, false),
            ("> Estado: done", HALF, Inconsistent, false),
            ("> Estado: done", TASKS_OPEN, Inconsistent, false),
            ("> Estado: done", NO_PHASES_OPEN, Inconsistent, false),
            (
                "> Estado: done — 2026-01-02 · sesión 004",
                VALIDATED,
                Done,
                false,
            ),
            ("> Estado: open - legacy tail", HALF, Open, false),
            ("> Estado: DoNe – Legacy", VALIDATED, Done, false),
            ("> Estado: dóne", VALIDATED, Inconsistent, false),
            ("> Estado: cerrado", VALIDATED, Inconsistent, false),
            ("> Estado: done, mostly", VALIDATED, Inconsistent, false),
            ("> Estado:", VALIDATED, Inconsistent, false),
            ("Estado: done", HALF, Open, false),
            ("```\n> Estado: done\n```", HALF, Open, false),
        ];
        for (header, body, state, fvp) in cases {
            let p = plan(header, body);
            assert_eq!(
                (p.state(), p.final_validation_pending()),
                (*state, *fvp),
                "{header:?} / {body:?}"
            );
        }
    }

    #[test]
    fn header_legacy_and_closure() {
        let p = plan("> Estado: done — 2026-01-02 · sesión 004", "");
        assert_eq!(p.header.declaration, Declaration::Done);
        assert!(p.header.legacy);
        assert_eq!(p.header.closure.as_deref(), Some("2026-01-02 · sesión 004"));
        let p = plan(
            "> Estado: done\n> Cierre: 2026-01-03 · session 5\n> Estado: open",
            "",
        );
        assert_eq!(p.header.declaration, Declaration::Done);
        assert_eq!(p.header.closure.as_deref(), Some("2026-01-03 · session 5"));
        let p = plan("> Closed: today", "");
        assert_eq!(p.header.declaration, Declaration::Absent);
        assert_eq!(p.header.closure.as_deref(), Some("today"));
        // A state line after the preamble is not the plan's.
        let p = parse_plan("# P\n## Origin\n> Estado: done\n");
        assert_eq!(p.header.declaration, Declaration::Absent);
        // No level-1 title: the preamble is what precedes the first heading.
        let p = parse_plan("> Estado: done\n## Tasks\n");
        assert_eq!(p.header.declaration, Declaration::Done);
    }

    #[test]
    fn counters_and_fenced_examples() {
        let body = "### F1 — a\n> Estado: validada\n- [x] T1.1\n\
                    ```md\n### F9 — example\n> Estado: bloqueada\n- [ ] example task\n```\n\
                    ### F2 — b\n> Estado: bloqueada\n> Bloqueo: infra\n- [ ] T2.1\n";
        let p = plan("> Estado: open", body);
        assert_eq!(
            (p.tasks_total, p.tasks_done),
            (3, 1),
            "fenced checkboxes count"
        );
        assert_eq!(p.phases().len(), 2, "fenced headings do not");
        assert_eq!((p.phases_validated(), p.phases_blocked()), (1, 1));
        assert_eq!(p.progress_pct(), 33);
        assert_eq!(p.next_phase().map(|f| f.number), Some(2));
        let crlf = body.replace('\n', "\r\n");
        assert_eq!(plan("> Estado: open", &crlf), p);
    }
}
