//! A plan's `## Execution batches` (`## Lotes de ejecución`): which phases run together, and
//! whether the batches cover the plan's phases exactly once, in order.
//!
//! Each batch is a list item `B<n> · <mode> · <phases>`, where the separator is `·` or `|`, the
//! mode is `continuous` or `isolated` (Spanish `continuo` / `aislado` too) and the phases are
//! `F1-F3` ranges and `F4` singles separated by commas. The reference does not read this
//! section; the flow engine and people do, so a plan whose batches and phases disagree is worth
//! flagging.

use super::phases::Phase;
use super::spec::section_lines;
use crate::markdown::Line;
use crate::vocab::titles::folds_to;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// How a batch runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Its phases run one after the other in one go.
    Continuous,
    /// Its phases run in isolation.
    Isolated,
}

/// One batch line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Batch {
    /// `B<n>` as written.
    pub id: String,
    /// How it runs.
    pub mode: Mode,
    /// Its phase numbers, in the order written (ranges expanded).
    pub phases: Vec<u64>,
}

/// A disagreement between the batches and the phases.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Problem {
    /// A list item that is not a batch line.
    Malformed {
        /// The line, trimmed.
        line: String,
    },
    /// A batch names a phase the plan does not have.
    UnknownPhase {
        /// The batch.
        batch: String,
        /// The phase number.
        phase: u64,
    },
    /// A phase is in more than one batch (or twice in one).
    Duplicate {
        /// The batch that repeats it.
        batch: String,
        /// The phase number.
        phase: u64,
    },
    /// A phase is in no batch.
    Missing {
        /// The phase number.
        phase: u64,
    },
    /// A batch lists a phase before one that comes earlier in the plan.
    OutOfOrder {
        /// The batch.
        batch: String,
        /// The phase that arrives too late.
        phase: u64,
    },
}

/// The section, read and checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Batches {
    /// The batch lines, in order.
    pub items: Vec<Batch>,
    /// Whether every phase appears exactly once, in plan order, and every line parsed.
    pub consistent: bool,
    /// What disagrees (empty when consistent).
    pub problems: Vec<Problem>,
}

const TITLES: &[&str] = &["execution batches", "lotes de ejecucion"];

/// More phases than any plan has: a batch line naming more is a typo.
const MAX_PHASES: u64 = 1000;

/// Reads and checks the batches against the plan's phase blocks. `None` when the plan has no
/// batches section.
pub fn parse_batches(lines: &[Line<'_>], phases: &[Phase]) -> Option<Batches> {
    let body = section_lines(lines, TITLES)?;
    let mut items = Vec::new();
    let mut problems = Vec::new();
    for line in body.iter().filter(|l| !l.fenced) {
        let t = line.text.trim();
        let Some(item) = t.strip_prefix(['-', '*']).filter(|r| r.starts_with(' ')) else {
            continue;
        };
        match batch_line(item.trim()) {
            Some(b) => items.push(b),
            None => problems.push(Problem::Malformed { line: t.to_owned() }),
        }
    }
    check(&items, phases, &mut problems);
    Some(Batches {
        consistent: problems.is_empty(),
        items,
        problems,
    })
}

/// `B<n> · mode · phases`.
fn batch_line(item: &str) -> Option<Batch> {
    let parts: Vec<&str> = item.split(['·', '|']).map(str::trim).collect();
    let [id, mode, phases] = parts.as_slice() else {
        return None;
    };
    let digits = id.strip_prefix(['B', 'b'])?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let is = |words: &[&str]| words.iter().any(|w| folds_to(mode, w));
    let mode = if is(&["continuous", "continuo", "continua"]) {
        Mode::Continuous
    } else if is(&["isolated", "aislado", "aislada"]) {
        Mode::Isolated
    } else {
        return None;
    };
    let mut list = Vec::new();
    for chunk in phases.split(',').map(str::trim) {
        let (a, b) = match chunk.split_once(['-', '–', '—']) {
            Some((a, b)) => (phase_ref(a)?, phase_ref(b)?),
            None => {
                let n = phase_ref(chunk)?;
                (n, n)
            }
        };
        // A reversed or huge range is a typo, not a list of a billion phases.
        if b < a || b - a > MAX_PHASES || list.len() as u64 + (b - a) > MAX_PHASES {
            return None;
        }
        list.extend(a..=b);
    }
    Some(Batch {
        id: (*id).to_owned(),
        mode,
        phases: list,
    })
}

/// `F<n>`.
fn phase_ref(s: &str) -> Option<u64> {
    let d = s.trim().strip_prefix(['F', 'f'])?;
    if d.is_empty() || !d.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    d.parse().ok()
}

fn check(items: &[Batch], phases: &[Phase], problems: &mut Vec<Problem>) {
    let order: Vec<u64> = phases.iter().map(|p| p.number).collect();
    // The first block of a number is its place in the plan. (Ordered sets: a few phases each,
    // a thousand plans; hashing every phase number cost more than the rest of the check.)
    let mut position: BTreeMap<u64, usize> = BTreeMap::new();
    for (i, &n) in order.iter().enumerate() {
        position.entry(n).or_insert(i);
    }
    let mut seen: BTreeSet<u64> = BTreeSet::new();
    let mut last_pos: Option<usize> = None;
    for b in items {
        for &n in &b.phases {
            let Some(&pos) = position.get(&n) else {
                problems.push(Problem::UnknownPhase {
                    batch: b.id.clone(),
                    phase: n,
                });
                continue;
            };
            if !seen.insert(n) {
                problems.push(Problem::Duplicate {
                    batch: b.id.clone(),
                    phase: n,
                });
                continue;
            }
            if last_pos.is_some_and(|l| pos < l) {
                problems.push(Problem::OutOfOrder {
                    batch: b.id.clone(),
                    phase: n,
                });
            }
            last_pos = Some(last_pos.map_or(pos, |l| l.max(pos)));
        }
    }
    for &n in &order {
        // `insert` also keeps a number used by two phase blocks from being reported twice.
        if seen.insert(n) {
            problems.push(Problem::Missing { phase: n });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::documents::phases::phase_blocks;
    use crate::markdown::scan;

    fn plan(batches: &str) -> Option<Batches> {
        let text = format!(
            "# P\n## Tasks\n### F1 — a\n### F2 — b\n### F3 — c\n### F4 — d\n## Execution batches\n{batches}\n## Validations\n- B9 · continuous · F9\n"
        );
        let lines = scan(&text);
        parse_batches(&lines, &phase_blocks(&lines))
    }

    #[test]
    fn consistent_batches() {
        let b = plan("- B1 · continuous · F1-F3\n- B2 · isolated · F4").unwrap();
        assert!(b.consistent, "{b:?}");
        assert_eq!(b.items[0].phases, [1, 2, 3]);
        assert_eq!(b.items[1].mode, Mode::Isolated);
        let es = plan("* B1 | continuo | F1, F2\n- B2 · aislada · F3–F4").unwrap();
        assert!(es.consistent, "{es:?}");
        let empty = plan("").unwrap();
        assert!(empty.items.is_empty());
        assert_eq!(empty.problems.len(), 4, "every phase is missing");
    }

    #[test]
    fn problems_table() {
        use Problem::*;
        let cases: &[(&str, Vec<Problem>)] = &[
            ("- B1 · continuous · F1-F3", vec![Missing { phase: 4 }]),
            (
                "- B1 · continuous · F1-F4\n- B2 · isolated · F4",
                vec![Duplicate {
                    batch: "B2".into(),
                    phase: 4,
                }],
            ),
            (
                "- B1 · continuous · F2, F1\n- B2 · isolated · F3-F4",
                vec![OutOfOrder {
                    batch: "B1".into(),
                    phase: 1,
                }],
            ),
            (
                "- B1 · continuous · F1-F5",
                vec![UnknownPhase {
                    batch: "B1".into(),
                    phase: 5,
                }],
            ),
            (
                "- B1 · sometimes · F1-F4\n- not a batch\n- B2 · isolated · F3-F1",
                vec![
                    Malformed {
                        line: "- B1 · sometimes · F1-F4".into(),
                    },
                    Malformed {
                        line: "- not a batch".into(),
                    },
                    Malformed {
                        line: "- B2 · isolated · F3-F1".into(),
                    },
                    Missing { phase: 1 },
                    Missing { phase: 2 },
                    Missing { phase: 3 },
                    Missing { phase: 4 },
                ],
            ),
        ];
        for (section, want) in cases {
            let b = plan(section).unwrap();
            assert_eq!(&b.problems, want, "{section}");
            assert!(!b.consistent);
        }
    }

    #[test]
    fn absent_section_and_fences() {
        let lines = scan("# P\n## Tasks\n### F1 — a\n");
        assert_eq!(parse_batches(&lines, &phase_blocks(&lines)), None);
        let b = plan("```\n- B1 · continuous · F1\n```\n- B1 · continuous · F1-F4").unwrap();
        assert!(b.consistent);
        let json = serde_json::to_value(Problem::Missing { phase: 2 }).unwrap();
        assert_eq!(json, serde_json::json!({"kind":"missing","phase":2}));
    }
}
