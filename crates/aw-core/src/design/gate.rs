//! The plan-exec design gate (`aw designs --plan <path>`): every design package a plan names must
//! resolve in the index and validate, must still be the revision the plan pinned (`DES-NNN@rN`),
//! and, when approval is required, must carry an approving review of its current revision.

use super::index::{DesignIndex, DesignPackageEntry};
use crate::documents::design_refs::Reference;
use serde::Serialize;

/// What the gate found for one reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Resolves, validates, is current (and approved when required).
    Ok,
    /// No package has this identity.
    Missing,
    /// The package's manifest or content does not validate.
    Invalid,
    /// The plan pins a revision that is no longer the current one.
    Stale,
    /// Approval is required and the current revision has none.
    Unapproved,
}

impl Verdict {
    /// The wire spelling (`ok`, `missing`, `invalid`, `stale`, `unapproved`).
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::Missing => "missing",
            Verdict::Invalid => "invalid",
            Verdict::Stale => "stale",
            Verdict::Unapproved => "unapproved",
        }
    }
}

/// One reference, judged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Checked {
    /// The reference.
    #[serde(flatten)]
    pub reference: Reference,
    /// The verdict.
    pub verdict: Verdict,
    /// The package's folder, when it resolved.
    pub path: Option<String>,
    /// Why, when the verdict is not `ok`.
    pub detail: Option<String>,
}

/// The gate's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Gate {
    /// Whether every reference is `ok`.
    pub passed: bool,
    /// Whether approval was required.
    pub require_approval: bool,
    /// Each reference, judged.
    pub references: Vec<Checked>,
}

/// Judges each reference against the index. `approved` says whether a package's current
/// revision carries an approving review (the review rule lives with the reviews).
pub fn check(
    refs: Vec<Reference>,
    index: &DesignIndex,
    require_approval: bool,
    approved: impl Fn(&DesignPackageEntry) -> bool,
) -> Gate {
    let references: Vec<Checked> = refs
        .into_iter()
        .map(|r| judge(r, index, require_approval, &approved))
        .collect();
    Gate {
        passed: references.iter().all(|c| c.verdict == Verdict::Ok),
        require_approval,
        references,
    }
}

fn judge(
    reference: Reference,
    index: &DesignIndex,
    require_approval: bool,
    approved: &impl Fn(&DesignPackageEntry) -> bool,
) -> Checked {
    let verdict = |verdict, path: Option<&str>, detail: Option<String>| Checked {
        reference: reference.clone(),
        verdict,
        path: path.map(str::to_owned),
        detail,
    };
    let Some(entry) = index
        .resolve(&reference.id)
        .or_else(|| index.locate(&reference.id))
    else {
        return verdict(
            Verdict::Missing,
            None,
            Some(format!(
                "no package under {} has the identity {}",
                index.root, reference.id
            )),
        );
    };
    let path = Some(entry.path.as_str());
    if !entry.ok {
        let why: Vec<String> = entry
            .failures
            .iter()
            .map(|f| format!("{}: {}", f.code.as_str(), f.message))
            .collect();
        return verdict(Verdict::Invalid, path, Some(why.join("; ")));
    }
    let current = entry.current_baseline.as_ref().map(|b| b.revision);
    if let (Some(pinned), Some(now)) = (reference.revision, current)
        && pinned != now
    {
        return verdict(
            Verdict::Stale,
            path,
            Some(format!(
                "the plan pins r{pinned}; the package is at r{now} ({}@r{now})",
                reference.id
            )),
        );
    }
    if require_approval && !approved(entry) {
        return verdict(
            Verdict::Unapproved,
            path,
            Some(format!(
                "r{} has no approving review",
                current.unwrap_or_default()
            )),
        );
    }
    verdict(Verdict::Ok, path, None)
}

#[cfg(test)]
#[path = "gate_tests.rs"]
mod tests;
