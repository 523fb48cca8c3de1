//! `design.record` (package format v1): a governance decision on one revision of a package that
//! validates, written by aw as `reviews/rNNN.json` ([`super::review::review_json`]). The review
//! names the digest the manifest's history seals for that revision, so it judges those bytes
//! and no others; `recorded_at` is the clock the shell passed to the floor.
//!
//! The attempt is a durable plan at `prepare` with that one file. A second decision on the same
//! revision replaces the first (`overwrite: true`: `record` declares `mutate_overwrite`, which
//! the visible approval grants).

use super::floor::{DesignFloor, input};
use super::manifest::digest_of;
use super::review::{REVIEWS_DIR, decision_input, review_json, review_path};
use super::standing::{fields, package_folder, package_id, text_input, valid_package};
use super::update::Current;
use crate::capability::descriptor::Completeness;
use crate::capability::error::{CapabilityError, CapabilityResult};
use crate::capability::handler::{HandlerCall, HandlerResult};
use crate::capability::plan::Artifact;
use crate::capability::receipt::{DurableReference, OperationOutput};
use crate::error_code::ErrorCode;
use aw_json::js::js_string;
use serde_json::{Value, json};

/// The gap of a `record` whose `package` is blank.
pub const PACKAGE_GAP: &str = "the identity of the package the decision is about, e.g. 'DES-001'";
/// The gap of a `record` whose `revision` is blank.
pub const REVISION_GAP: &str = "the revision the decision is about, e.g. 'r1'";

/// The revision a `revision` input names: `rN` or `N`, a whole number from 1 (leading zeros
/// allowed, as in `r001`, the review file's own spelling). `None` for anything else.
pub fn parse_revision(text: &str) -> Option<u64> {
    let digits = text.strip_prefix('r').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok().filter(|n| *n >= 1)
}

/// The digest the package's history seals for the revision `given` names, or
/// `DESIGN_REVISION_NOT_FOUND` (the input is not a revision, or the package has no such one).
pub fn judged_digest(cur: &Current<'_>, given: &str) -> CapabilityResult<(u64, String)> {
    let m = cur.manifest;
    let action = format!(
        "pass one of the revisions of {}, r1 to r{} (the current one): --input revision=r{}",
        m.id, m.revision, m.revision
    );
    let Some(revision) = parse_revision(given) else {
        return Err(CapabilityError::new(
            ErrorCode::DesignRevisionNotFound,
            format!("'{given}' is not a revision: write it as rN or N, e.g. r1"),
            action,
        ));
    };
    match m.history.iter().find(|h| h.revision == revision) {
        Some(h) => Ok((revision, h.digest.clone())),
        None => Err(CapabilityError::new(
            ErrorCode::DesignRevisionNotFound,
            format!("{} has no revision {revision}", m.id),
            action,
        )),
    }
}

/// The allowed destination of a `record` on the package `id`: its `reviews/` folder.
pub fn destinations(floor: &DesignFloor, id: &str) -> CapabilityResult<Vec<String>> {
    package_folder(floor, id).map(|path| vec![format!("{path}/{REVIEWS_DIR}")])
}

/// The attempt of `record`, at any stage. First match wins: a blank `package` or `revision`
/// asks for it; no workspace, a package that does not resolve or validate are refused; a
/// revision the package does not have is `DESIGN_REVISION_NOT_FOUND`; a decision outside the
/// vocabulary is `DESIGN_DECISION_INVALID`; otherwise the durable plan of the review file.
pub fn attempt(floor: &DesignFloor, call: &HandlerCall<'_>) -> HandlerResult {
    let request = call.request;
    let id = match package_id(floor, request, PACKAGE_GAP, "record a decision on") {
        Ok(id) => id,
        Err(stop) => return *stop,
    };
    // A revision may arrive as a number in a carried request: read it as JavaScript writes it.
    let given = match input(request, "revision") {
        Some(Value::Number(n)) => Some(js_string(&Value::Number(n.clone()))),
        _ => text_input(request, "revision").map(str::to_owned),
    };
    let Some(given) = given else {
        return HandlerResult::NeedsInput {
            gaps: vec![REVISION_GAP.to_owned()],
            output: None,
            semantic: None,
        };
    };
    let cur = match valid_package(floor, id, "record a decision on") {
        Ok(cur) => cur,
        Err(e) => return HandlerResult::Blocked(e),
    };
    let (revision, digest) = match judged_digest(&cur, &given) {
        Ok(found) => found,
        Err(e) => return HandlerResult::Blocked(e),
    };
    let decision = match decision_input(input(request, "decision")) {
        Ok(d) => d,
        Err(f) => return HandlerResult::Blocked(f.into()),
    };
    let Some(now) = floor.now.as_deref() else {
        return HandlerResult::Blocked(CapabilityError::new(
            ErrorCode::Internal,
            "the design floor was built without the clock a decision is stamped with",
            "report this as a bug in aw",
        ));
    };
    let rel = review_path(revision);
    let exists = cur
        .entry
        .review_files
        .iter()
        .any(|f| format!("{REVIEWS_DIR}/{}", f.name) == rel);
    let path = format!("{}/{rel}", cur.entry.path);
    let content = review_json(&cur.manifest.id, revision, &digest, decision, None, now);
    let value = json!({
        "design": fields(&cur, Vec::new()),
        "review": {"revision": revision, "digest": digest, "decision": decision.as_str(),
                   "replaces": exists},
        "artifacts": [path],
    });
    let reference = DurableReference {
        id: cur.manifest.id.clone(),
        revision: Some(revision),
        digest: digest_of(content.as_bytes()),
        locator: path.clone(),
    };
    HandlerResult::Durable {
        artifacts: vec![Artifact {
            path,
            content,
            overwrite: exists.then_some(true),
        }],
        base: None,
        output: OperationOutput {
            value: Some(value),
            reference: Some(reference),
            // Nothing is published until the plan is applied.
            completeness: Some(Completeness::Partial),
        },
    }
}

#[cfg(test)]
#[path = "record_tests.rs"]
mod tests;
