//! The semantic request emitted at a semantic boundary: a bounded, self-contained question
//! whose `input_digest` is the boundary seal.

use super::registry::Decision;
use super::state::RunState;
use crate::vocab::flow::{Flow, REQUEST_VERSION};
use serde::Serialize;

/// The request (keys in emission order).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct SemanticRequest {
    /// 1.
    pub version: u32,
    /// `flow.<transition>`.
    pub operation: String,
    /// The boundary seal the answer must quote.
    pub input_digest: String,
    /// What the answer must contain.
    pub contract: String,
    /// What the agent may take as given.
    pub inventory: Inventory,
    /// Where the answer's artifacts may go (nowhere, except at an authoring row).
    pub allowed_destinations: Vec<String>,
    /// Artefact limits (none allowed, except at an authoring row).
    pub limits: Limits,
    /// The documents the question rests on.
    pub read_set: Vec<String>,
    /// Sizes.
    pub metrics: Metrics,
}

/// The request's inventory.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Inventory {
    /// The flow.
    pub flow: Flow,
    /// The transitions already passed.
    pub applied: Vec<String>,
    /// The row's signal vocabulary.
    pub signals: Vec<String>,
}

/// Artefact limits.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Limits {
    /// How many artifacts (0 but at an authoring row).
    pub max_artifacts: u32,
    /// How large each may be, in bytes (0 but at an authoring row).
    pub max_artifact_bytes: u32,
}

/// Request sizes.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Metrics {
    /// The UTF-8 length of the request serialized (compact, in emission order) while this
    /// field was still 0 — so it does not count its own digits, as the reference counts it.
    pub request_bytes: usize,
    /// 0: the read set is named, not loaded.
    pub read_set_bytes: usize,
}

/// The answer contract for a row.
pub fn contract(row: &Decision) -> String {
    let taxonomy = if row.signals().is_empty() {
        "This boundary takes no signals: put what the contract asks for in 'decisions'.".to_owned()
    } else {
        format!(
            "Declare in 'signals' only the ones you observe, from this closed vocabulary: {}. A \
             signal outside it does not advance the journey. The CLI applies the threshold over \
             the signals, not you.",
            row.signals().join(", ")
        )
    };
    let bytes = if row.proposes.is_some() {
        " Put the exact bytes of every file in 'artifacts', each with a 'path' inside the allowed \
         destinations: the CLI seals them, shows the person a preview, and writes them all or \
         none once approved."
    } else {
        ""
    };
    format!(
        "{}. Return one JSON object carrying this boundary's 'input_digest'. {taxonomy}{bytes} The \
         CLI validates the answer before applying any transition: an absent, invalid, ambiguous, \
         out-of-scope or stale answer changes no state and has no effect.",
        capitalized(&row.title)
    )
}

/// The title with its first letter upper-cased (titles are written lower-case, to sit inside
/// sentences).
pub fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// Builds the request for a semantic boundary sealed with `seal`.
pub fn build_request(row: &Decision, state: &RunState, seal: &str) -> SemanticRequest {
    let mut request = SemanticRequest {
        version: REQUEST_VERSION,
        operation: format!("flow.{}", row.id),
        input_digest: seal.to_owned(),
        contract: contract(row),
        inventory: Inventory {
            flow: state.flow,
            applied: state.applied.clone(),
            signals: row.signals().iter().map(|s| s.to_string()).collect(),
        },
        allowed_destinations: row
            .proposes
            .as_ref()
            .map(|p| p.destinations.iter().map(|d| d.to_string()).collect())
            .unwrap_or_default(),
        limits: row.proposes.as_ref().map_or(
            Limits {
                max_artifacts: 0,
                max_artifact_bytes: 0,
            },
            |p| Limits {
                max_artifacts: u32::try_from(p.limits.max_artifacts).unwrap_or(u32::MAX),
                max_artifact_bytes: u32::try_from(p.limits.max_artifact_bytes).unwrap_or(u32::MAX),
            },
        ),
        read_set: vec![row.document.to_string()],
        metrics: Metrics {
            request_bytes: 0,
            read_set_bytes: 0,
        },
    };
    request.metrics.request_bytes = serde_json::to_string(&request).map_or(0, |s| s.len());
    request
}
