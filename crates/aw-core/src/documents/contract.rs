//! A plan's effective contract: its spec's criteria with the effective decision notes applied,
//! and the reconciliation it owes (one pending entry per obligation those notes carry). A plan
//! whose reconciliation is not closable is neither executable nor closable as it stands.

use super::decisions::{Note, effective};
use serde::Serialize;

/// The spec a contract is composed on: where it is, its number, its digest now, its criteria.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Baseline<'a> {
    /// Its path.
    pub path: &'a str,
    /// Its number.
    pub number: &'a str,
    /// Its current digest.
    pub digest: &'a str,
    /// Its criteria, in document order.
    pub criteria: &'a [String],
}

/// One criterion of the contract.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Assertion {
    /// `S001/AC-01`.
    pub id: String,
    /// `baseline` or `amended`.
    pub state: &'static str,
    /// The note that amended it.
    pub by: Option<String>,
}

/// Compensating work a note created.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Obligation {
    /// What is owed.
    pub text: String,
    /// The note that owes it.
    pub by: String,
}

/// The spec a contract stands on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct SpecAnchor {
    /// Its path.
    pub path: String,
    /// Its number.
    pub number: String,
    /// Its digest.
    pub digest: String,
}

/// The composed contract.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Contract {
    /// The spec.
    pub spec: SpecAnchor,
    /// Every criterion, in the spec's order.
    pub assertions: Vec<Assertion>,
    /// What the effective notes owe, in chain order.
    pub obligations: Vec<Obligation>,
    /// Evidence kept (each item once, first claim wins).
    pub evidence_preserved: Vec<String>,
    /// Evidence dropped (each item once, first claim wins).
    pub evidence_invalidated: Vec<String>,
    /// The notes applied, in chain order.
    pub applied: Vec<String>,
}

/// Why a chain does not compose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// `CONTRACT_BASELINE_ABSENT`, `CONTRACT_ASSERTION_ABSENT`, `CONTRACT_OVERLAP` or
    /// `CONTRACT_CONTRADICTION`.
    pub code: &'static str,
    /// What is wrong.
    pub message: String,
    /// Where to resume: what to do about it.
    pub action: String,
}

/// Composes the contract of a spec with a chain of notes (in chain order), or says why it does
/// not compose.
pub fn compose(baseline: &Baseline<'_>, chain: &[Note]) -> Result<Contract, Vec<Block>> {
    let mut blocks = Vec::new();
    let mut amended: Vec<(&str, &str)> = Vec::new();
    let mut obligations = Vec::new();
    let mut preserved: Vec<(&str, &str)> = Vec::new();
    let mut invalidated: Vec<(&str, &str)> = Vec::new();
    let mut applied = Vec::new();
    let by = |claims: &[(&str, &'_ str)], item: &str| {
        claims
            .iter()
            .find(|(i, _)| *i == item)
            .map(|(_, n)| n.to_string())
    };
    for note in effective(chain) {
        let id = note.id.as_str();
        if note.lineage.spec.digest != baseline.digest {
            blocks.push(Block {
                code: "CONTRACT_BASELINE_ABSENT",
                message: format!(
                    "{id} decides on a version of {} that is no longer the current one",
                    note.lineage.spec.path
                ),
                action: "check the note against the current spec and publish one that \
                         supersedes it, or bring the spec back to its sealed baseline"
                    .to_owned(),
            });
        }
        for a in &note.supersedes_assertions {
            if !baseline.criteria.contains(a) {
                blocks.push(Block {
                    code: "CONTRACT_ASSERTION_ABSENT",
                    message: format!("{id} supersedes {a}, which the spec does not state"),
                    action: format!(
                        "address a criterion that {} states, or correct the note with one that \
                         supersedes it",
                        note.lineage.spec.path
                    ),
                });
                continue;
            }
            if let Some(previous) = by(&amended, a)
                && note.supersedes_note.as_deref() != Some(previous.as_str())
            {
                blocks.push(Block {
                    code: "CONTRACT_OVERLAP",
                    message: format!(
                        "{id} and {previous} are both in force on {a} and neither supersedes the \
                         other"
                    ),
                    action: format!(
                        "publish a note that supersedes {previous} explicitly: the dates do not \
                         decide which one holds"
                    ),
                });
            }
        }
        let both: Vec<&str> = note
            .evidence_invalidated
            .iter()
            .filter(|i| note.evidence_preserved.contains(i))
            .map(String::as_str)
            .collect();
        if !both.is_empty() {
            blocks.push(Block {
                code: "CONTRACT_CONTRADICTION",
                message: format!("{id} both keeps and drops: {}", both.join(", ")),
                action: "evidence either still counts or no longer does: decide which and seal \
                         the note again"
                    .to_owned(),
            });
        }
        for a in &note.supersedes_assertions {
            // A later note's claim replaces an earlier one (the map's `set`), in place.
            match amended.iter_mut().find(|(i, _)| *i == a.as_str()) {
                Some(slot) => slot.1 = id,
                None => amended.push((a.as_str(), id)),
            }
        }
        obligations.extend(note.obligations.iter().map(|text| Obligation {
            text: text.clone(),
            by: note.id.clone(),
        }));
        for (claims, items) in [
            (&mut preserved, &note.evidence_preserved),
            (&mut invalidated, &note.evidence_invalidated),
        ] {
            for item in items {
                if !claims.iter().any(|(i, _)| *i == item.as_str()) {
                    claims.push((item.as_str(), id));
                }
            }
        }
        applied.push(note.id.clone());
    }
    for (item, keeper) in &preserved {
        if let Some(dropper) = by(&invalidated, item)
            && dropper != *keeper
        {
            blocks.push(Block {
                code: "CONTRACT_CONTRADICTION",
                message: format!(
                    "{keeper} keeps '{item}' and {dropper} drops it, and both are in force"
                ),
                action: format!(
                    "publish a note that supersedes {keeper} or {dropper}: the contract cannot \
                     say both"
                ),
            });
        }
    }
    if !blocks.is_empty() {
        return Err(blocks);
    }
    Ok(Contract {
        spec: SpecAnchor {
            path: baseline.path.to_owned(),
            number: baseline.number.to_owned(),
            digest: baseline.digest.to_owned(),
        },
        assertions: baseline
            .criteria
            .iter()
            .map(|c| {
                let by = by(&amended, c);
                Assertion {
                    id: c.clone(),
                    state: if by.is_some() { "amended" } else { "baseline" },
                    by,
                }
            })
            .collect(),
        obligations,
        evidence_preserved: preserved.iter().map(|(i, _)| (*i).to_owned()).collect(),
        evidence_invalidated: invalidated.iter().map(|(i, _)| (*i).to_owned()).collect(),
        applied,
    })
}

/// One obligation still owed, with where to resume it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Pending {
    /// What is owed.
    pub text: String,
    /// The note that owes it.
    pub by: String,
    /// Where to resume.
    pub resume_point: String,
}

/// What a plan still owes before it can close.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Reconciliation {
    /// Each obligation owed.
    pub pending: Vec<Pending>,
    /// The first one's resume point.
    pub resume_point: Option<String>,
    /// Whether nothing is owed.
    pub closable: bool,
}

/// The `by` of a pending entry that comes from a chain that does not compose: the reference's
/// marker, kept as it is because scripts compare it.
pub const COMPOSITION: &str = "composición";

/// The reconciliation of a composed contract (each obligation with its note's resume point), or
/// of a chain that does not compose (one entry per reason, never closable).
pub fn reconciliation(composed: &Result<Contract, Vec<Block>>, chain: &[Note]) -> Reconciliation {
    let pending: Vec<Pending> = match composed {
        Ok(contract) => contract
            .obligations
            .iter()
            .map(|o| Pending {
                text: o.text.clone(),
                by: o.by.clone(),
                resume_point: chain.iter().find(|n| n.id == o.by).map_or_else(
                    || format!("{} (not in the chain)", o.by),
                    |n| n.resume_point.clone(),
                ),
            })
            .collect(),
        Err(blocks) => blocks
            .iter()
            .map(|b| Pending {
                text: format!("{}: {}", b.code, b.message),
                by: COMPOSITION.to_owned(),
                resume_point: b.action.clone(),
            })
            .collect(),
    };
    Reconciliation {
        resume_point: pending.first().map(|p| p.resume_point.clone()),
        closable: pending.is_empty() && composed.is_ok(),
        pending,
    }
}
/// The reconciliation of a plan whose decision index does not read: one entry per reason, never
/// closable. The reference reads such an index as no notes at all, so a plan could close over
/// obligations nobody can read; aw holds it open until the index is repaired.
pub fn unreadable_chain(
    index_path: &str,
    refusals: &[super::decisions::Refusal],
) -> Reconciliation {
    let action = format!(
        "repair {index_path} by hand (it is a sealed record: restore it from version control if \
         you can), then run aw status again"
    );
    let pending: Vec<Pending> = refusals
        .iter()
        .map(|r| Pending {
            text: format!("{}: {}", r.code, r.message),
            by: COMPOSITION.to_owned(),
            resume_point: action.clone(),
        })
        .collect();
    Reconciliation {
        resume_point: pending.first().map(|p| p.resume_point.clone()),
        closable: false,
        pending,
    }
}
