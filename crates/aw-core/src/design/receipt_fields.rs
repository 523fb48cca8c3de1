//! The domain fields the `design` floor adds to a receipt's output (capability spec §10.3,
//! `output.value.design`). They say what the canonical receipt cannot — which package, which
//! baseline, where it landed, what maturity it may claim, what became of each source — and
//! deliberately repeat none of what it already says (operation, validations, effects).

use super::manifest::Baseline;
use super::output_root::RootKind;
use super::sources::{DesignSource, Maturity};
use serde::Serialize;

/// The maturity asked for and the maturity reached.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MaturityFields {
    /// The `maturity` input, when it is exactly `outline` or `handoff`.
    pub requested: Option<Maturity>,
    /// What the evidence supports.
    pub attained: Maturity,
}

/// `DesignReceiptFields` (keys in emission order).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DesignReceiptFields {
    /// The package identity, when there is one.
    pub package: Option<String>,
    /// Its current baseline, when there is one.
    pub baseline: Option<Baseline>,
    /// Where it is, or where output lands (workspace-relative, or the explicit root).
    pub path: Option<String>,
    /// Under which root mode.
    pub root: Option<RootKind>,
    /// Whether the index finds what lands there.
    pub indexable: bool,
    /// Asked for and reached.
    pub maturity: MaturityFields,
    /// What became of each declared source.
    pub sources: Vec<DesignSource>,
    /// Rendition ids produced or refreshed by this attempt.
    pub renditions: Vec<String>,
}
