//! A plan's lineage on the board: how its `> Baseline:` seal stands against the workspace's
//! spec, and, when it is aligned, the effective contract the spec's decision notes compose and
//! the reconciliation the plan still owes.
//!
//! Only an aligned plan gets a contract: an unsealed plan has no baseline to compose against,
//! and a divergent one is already reported as divergent. A decision index that does not read
//! holds the plan open (see [`crate::documents::contract::unreadable_chain`]).

use crate::documents::baseline::{self, Seal, Standing};
use crate::documents::contract::{self, Contract, Reconciliation};
use crate::documents::decisions::{Note, Refusal};
use crate::documents::names::DocKind;
use serde::Serialize;

/// A decision index as the shell read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChainRead {
    /// Its notes, in chain order.
    Notes(Vec<Note>),
    /// Why it does not read.
    Unreadable(Vec<Refusal>),
}

/// The decision indexes found in `docs/decisions/`, by workspace-relative path.
pub type DecisionIndexes = std::collections::HashMap<String, ChainRead>;

/// Where a spec's decision index lives: `docs/decisions/<number>-decisions-<slug>.json`.
pub fn index_path(number: &str, slug: &str) -> String {
    [
        crate::documents::decisions::DECISIONS_DIR,
        "/",
        number,
        "-decisions-",
        slug,
        ".json",
    ]
    .concat()
}

/// What a plan's seal and contract need of a spec: its baseline digest and its criteria.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecLineage {
    /// `sha256:` + the digest of its text as a JSON string.
    pub digest: String,
    /// The acceptance criteria it states, in order, each once.
    pub criteria: Vec<String>,
}

/// Reads a spec's lineage from its text.
pub fn spec_lineage(text: &str) -> SpecLineage {
    SpecLineage {
        digest: crate::documents::baseline::spec_digest(text),
        criteria: crate::documents::decisions::spec_criteria(&crate::markdown::scan(text)),
    }
}

/// The spec numbers, as written, some plan's well-formed seal names: only those specs are
/// digested (hashing every spec of a large board cost a tenth of `aw status`). A seal names a
/// number exactly as the spec's file name writes it (`0001` is not `001`), as the reference
/// matches it.
pub fn sealed_numbers<'a>(
    seals: impl IntoIterator<Item = &'a Seal>,
) -> std::collections::BTreeSet<&'a str> {
    seals
        .into_iter()
        .filter_map(|s| match s {
            Seal::Sealed { number, .. } => Some(number.as_str()),
            _ => None,
        })
        .collect()
}

/// The `baseline` of a plan on the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum BaselineEntry {
    /// No `> Baseline:` line in the header.
    Unsealed,
    /// A baseline line whose value does not read.
    Malformed {
        /// What is wrong with it.
        why: String,
        /// What to do about it.
        action: String,
    },
    /// A well-formed seal on a spec number the workspace does not have.
    Unresolved {
        /// Always `spec-not-found`.
        reason: &'static str,
        /// The sealed path.
        path: String,
    },
    /// The spec still digests to the sealed value.
    Aligned {
        /// That digest.
        digest: String,
    },
    /// The spec changed since the plan was sealed.
    Divergent {
        /// The digest the plan was sealed on.
        sealed_digest: String,
        /// The spec's digest now.
        current_digest: String,
    },
}

impl BaselineEntry {
    /// Whether the plan is provably on its spec's current text.
    pub fn is_aligned(&self) -> bool {
        matches!(self, BaselineEntry::Aligned { .. })
    }
}

impl From<Standing> for BaselineEntry {
    fn from(s: Standing) -> Self {
        let spec_dir = DocKind::Spec.folder();
        match s {
            Standing::Unsealed => BaselineEntry::Unsealed,
            Standing::Malformed(m) => BaselineEntry::Malformed {
                why: m.why(spec_dir),
                action: m.action(spec_dir),
            },
            Standing::Unresolved { path } => BaselineEntry::Unresolved {
                reason: "spec-not-found",
                path,
            },
            Standing::Aligned { digest } => BaselineEntry::Aligned { digest },
            Standing::Divergent { sealed, current } => BaselineEntry::Divergent {
                sealed_digest: sealed,
                current_digest: current,
            },
        }
    }
}

/// The workspace's spec a seal names, as the lineage needs it.
#[derive(Debug, Clone, Copy)]
pub struct SealedSpec<'a> {
    /// Its path.
    pub file: &'a str,
    /// Its number as written.
    pub number: &'a str,
    /// Its slug.
    pub slug: &'a str,
    /// Its baseline digest now.
    pub digest: &'a str,
    /// Its criteria.
    pub criteria: &'a [String],
}

/// A plan's lineage: its baseline, and for an aligned plan its reconciliation and contract.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanLineage {
    /// How the seal stands.
    pub baseline: BaselineEntry,
    /// What the plan still owes (aligned plans only).
    pub reconciliation: Option<Reconciliation>,
    /// The effective contract (aligned plans whose chain composes).
    pub contract: Option<Contract>,
}

/// Judges a plan's seal against `spec` (the workspace's spec with the sealed number, if any)
/// and composes its contract from that spec's decision index (absent: no notes).
pub fn plan_lineage(
    seal: &Seal,
    spec: Option<SealedSpec<'_>>,
    indexes: &DecisionIndexes,
) -> PlanLineage {
    let baseline =
        BaselineEntry::from(baseline::judge(seal, |_| spec.map(|s| s.digest.to_owned())));
    let spec = match (&baseline, spec) {
        (BaselineEntry::Aligned { .. }, Some(spec)) => spec,
        _ => {
            return PlanLineage {
                baseline,
                reconciliation: None,
                contract: None,
            };
        }
    };
    let path = index_path(spec.number, spec.slug);
    let (reconciliation, contract) = match indexes.get(&path) {
        Some(ChainRead::Unreadable(refusals)) => {
            (contract::unreadable_chain(&path, refusals), None)
        }
        found => {
            let chain: &[Note] = match found {
                Some(ChainRead::Notes(notes)) => notes,
                _ => &[],
            };
            let composed = contract::compose(
                &contract::Baseline {
                    path: spec.file,
                    number: spec.number,
                    digest: spec.digest,
                    criteria: spec.criteria,
                },
                chain,
            );
            let reconciliation = contract::reconciliation(&composed, chain);
            (reconciliation, composed.ok())
        }
    };
    PlanLineage {
        baseline,
        reconciliation: Some(reconciliation),
        contract,
    }
}
