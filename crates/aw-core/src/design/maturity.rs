//! The maturity of a package (package format v1): `handoff` when the package validates, its
//! document passes the content gate, no essential source was left out (the fail-closed rule of
//! [`super::sources`]) and it has no `## Open questions` section; otherwise `outline`, with one gap
//! per reason.
//!
//! Two readings of one rule. The manifest stores the *intrinsic* maturity, computed when aw
//! writes the package from what the package itself says (its sources, its open questions, the
//! maturity asked for); `validate` recomputes it from the files and refuses a manifest that
//! claims another. What `validate` reports adds the reasons only a check on disk finds (a
//! manifest or a document that no longer passes, a reference that does not resolve).

use super::document::DesignDocument;
use super::sources::{AttainedMaturity, DesignSource, Maturity, attained_maturity, report_sources};
use serde::{Deserialize, Serialize};

/// A package's maturity, as its manifest stores it (keys in emission order).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PackageMaturity {
    /// The maturity the author asked for (the `maturity` input), when it was exactly `outline`
    /// or `handoff`.
    pub requested: Option<Maturity>,
    /// The maturity the evidence supports.
    pub attained: Maturity,
    /// Why it is not `handoff`: one line per reason, empty when it is.
    pub gaps: Vec<String>,
}

/// The gap of a document that still has open questions.
pub const OPEN_QUESTIONS_GAP: &str = "the design still has an '## Open questions' section: settle the questions (move the answers into the design or its decisions) and remove the section";

/// The maturity of a package whose sources are `sources`, asked for `requested`, held below
/// `handoff` by `reasons` (the gate's own findings, in words). Source gaps come first (the
/// fail-closed rule of `attained_maturity`), then the reasons, then the gap saying a requested
/// `handoff` was not reached.
pub fn package_maturity(
    requested: Option<Maturity>,
    sources: &[DesignSource],
    reasons: Vec<String>,
) -> PackageMaturity {
    let report = report_sources(sources, "sources");
    let verdict = if reasons.is_empty() {
        Maturity::Handoff
    } else {
        Maturity::Outline
    };
    let AttainedMaturity { attained, gaps } = attained_maturity(requested, verdict, &report);
    let mut all = Vec::new();
    if report.blocks_handoff {
        all.extend(gaps);
        all.extend(reasons);
    } else {
        all.extend(reasons);
        all.extend(gaps);
    }
    PackageMaturity {
        requested,
        attained,
        gaps: all,
    }
}

/// The intrinsic maturity a manifest stores: [`package_maturity`] with the document's open
/// questions as the one gate reason.
pub fn intrinsic_maturity(
    requested: Option<Maturity>,
    sources: &[DesignSource],
    doc: &DesignDocument,
) -> PackageMaturity {
    let reasons = if doc.has_open_questions() {
        vec![OPEN_QUESTIONS_GAP.to_owned()]
    } else {
        Vec::new()
    };
    package_maturity(requested, sources, reasons)
}

#[cfg(test)]
#[path = "maturity_tests.rs"]
mod tests;
