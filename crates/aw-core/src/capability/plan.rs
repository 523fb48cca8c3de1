//! The durable plan (spec §6.2) and the checks an apply makes on it (§6.4, quirk 1 fixed).
//!
//! A plan is what an authoring attempt that produces files hands back: the artifacts, a preview
//! a person can read, and the `approval_digest` an apply must quote. The digest is the
//! reference's, byte for byte. The reference's apply trusts the carried plan; ours re-seals it
//! from its body, ties it to the carried request, and re-checks every path against the allowed
//! destinations, so an edited plan, an escaping path or an approval replayed for another plan is
//! refused before anything is written. Symbolic links that lead out of the workspace are refused
//! later, by the shell's writer.

use super::effects::{EffectAuthorization, is_durable};
use super::error::{CapabilityError, CapabilityResult};
use super::paths::destination_refusal;
use super::request::CapabilityRequest;
use crate::canonical::semantic_digest;
use crate::error_code::ErrorCode;
use crate::vocab::flow::EffectClass;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// One file a plan writes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Artifact {
    /// Where, relative to the workspace root.
    pub path: String,
    /// The exact text.
    pub content: String,
    /// Whether it may replace an existing file (absent reads as `false`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overwrite: Option<bool>,
}

/// What a person sees of one artifact before approving.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PreviewItem {
    /// The artifact's path.
    pub path: String,
    /// The UTF-8 length of its content.
    pub bytes: u64,
    /// Whether it may replace an existing file.
    pub overwrite: bool,
}

/// The file a plan was prepared against, sealed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Base {
    /// Its path, relative to the workspace root.
    pub path: String,
    /// [`base_digest`] of its text when the plan was prepared.
    pub digest: String,
}

/// A durable plan (`prepareDurableEffect`'s result). Field order is emission order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DurablePlan {
    /// The capability.
    pub capability: String,
    /// The operation (without the capability prefix).
    pub operation: String,
    /// The request's `request_digest`.
    pub request_digest: String,
    /// The request's `semantic_inputs_digest`.
    pub semantic_inputs_digest: String,
    /// The files, in the order they are written.
    pub artifacts: Vec<Artifact>,
    /// One line per artifact, same order.
    pub preview: Vec<PreviewItem>,
    /// The seal an apply must quote (see [`approval_digest`]).
    pub approval_digest: String,
    /// The classes that need a visible approval.
    pub requires_approval: Vec<EffectClass>,
    /// The file the plan was prepared against, if any.
    pub base: Option<Base>,
}

/// The approval digest (exact, v21.3.0): the semantic digest of
/// `{operation: "<capability>.<operation>", input_digest, artifacts: [{path, content_digest}]}`,
/// with `content_digest` the semantic digest of the content as a JSON string, in the given
/// order. It does not cover `overwrite`, `base`, `requires_approval` or scope.
pub fn approval_digest(
    capability: &str,
    operation: &str,
    input_digest: &str,
    artifacts: &[Artifact],
) -> String {
    let sealed: Vec<Value> = artifacts
        .iter()
        .map(|a| {
            json!({
                "path": a.path,
                "content_digest": semantic_digest(&Value::String(a.content.clone())),
            })
        })
        .collect();
    semantic_digest(&json!({
        "operation": format!("{capability}.{operation}"),
        "input_digest": input_digest,
        "artifacts": sealed,
    }))
}

/// The digest a base is sealed with: the semantic digest of its text as a JSON string.
pub fn base_digest(text: &str) -> String {
    semantic_digest(&Value::String(text.to_owned()))
}

/// The preview of some artifacts.
pub fn preview_of(artifacts: &[Artifact]) -> Vec<PreviewItem> {
    artifacts
        .iter()
        .map(|a| PreviewItem {
            path: a.path.clone(),
            bytes: a.content.len() as u64,
            overwrite: a.overwrite == Some(true),
        })
        .collect()
}

/// Whether the request's operation may have a durable plan of these artifacts at all. Refusals,
/// in order: no durable class planned (`CAPABILITY_EFFECT_NOT_DURABLE`), a denied class
/// (`CAPABILITY_EFFECT_DENIED`), no artifacts (`CAPABILITY_EFFECT_EMPTY`). Checked when the plan
/// is prepared and again when a carried plan is applied: a plan aw would never have issued (one
/// for a read-only operation, say) must not be written either.
pub fn check_durable(
    request: &CapabilityRequest,
    authorization: &EffectAuthorization,
    artifacts: &[Artifact],
) -> CapabilityResult<()> {
    let name = format!("{}.{}", request.capability, request.operation);
    if !authorization.planned.iter().any(|c| is_durable(*c)) {
        return Err(CapabilityError::new(
            ErrorCode::CapabilityEffectNotDurable,
            format!("'{name}' declares no effect that leaves anything behind, so it has no plan"),
            "run the operation without asking for a plan",
        ));
    }
    if let Some(d) = authorization.denied.first() {
        return Err(CapabilityError::new(
            ErrorCode::CapabilityEffectDenied,
            format!("'{name}' needs '{}': {}", d.class.as_str(), d.why),
            "ask for an operation whose effects the host allows, or change the host's policy",
        ));
    }
    if artifacts.is_empty() {
        return Err(CapabilityError::new(
            ErrorCode::CapabilityEffectEmpty,
            format!("the plan for '{name}' has no files to write"),
            "answer with at least one artifact",
        ));
    }
    Ok(())
}

/// Prepares the durable plan of an authorized request, after [`check_durable`].
pub fn prepare_durable_effect(
    request: &CapabilityRequest,
    authorization: &EffectAuthorization,
    artifacts: Vec<Artifact>,
    base: Option<Base>,
) -> CapabilityResult<DurablePlan> {
    check_durable(request, authorization, &artifacts)?;
    Ok(DurablePlan {
        capability: request.capability.clone(),
        operation: request.operation.clone(),
        request_digest: request.request_digest.clone(),
        semantic_inputs_digest: request.semantic_inputs_digest.clone(),
        preview: preview_of(&artifacts),
        approval_digest: approval_digest(
            &request.capability,
            &request.operation,
            &request.semantic_inputs_digest,
            &artifacts,
        ),
        artifacts,
        requires_approval: authorization.needs_preflight.clone(),
        base,
    })
}

/// The approval digest recomputed from the plan's own body.
pub fn resealed(plan: &DurablePlan) -> String {
    approval_digest(
        &plan.capability,
        &plan.operation,
        &plan.semantic_inputs_digest,
        &plan.artifacts,
    )
}

fn mismatch(message: String) -> CapabilityError {
    CapabilityError::new(
        ErrorCode::CapabilityApprovalMismatch,
        message,
        "prepare and validate again, show the new preview, and apply with its approval_digest",
    )
}

/// Checks that a carried plan is the one that was approved, for the carried request: the plan
/// belongs to the request (capability, operation and both digests), its seal recomputed from its
/// body equals both its `approval_digest` and the `approved` digest, and its preview is the one
/// its artifacts give. An edited artifact, an approval replayed for another plan or a preview that
/// hides a file all fail here with `CAPABILITY_APPROVAL_MISMATCH`.
pub fn check_approval(
    plan: &DurablePlan,
    request: &CapabilityRequest,
    approved: &str,
) -> CapabilityResult<()> {
    let ours = (
        &plan.capability,
        &plan.operation,
        &plan.request_digest,
        &plan.semantic_inputs_digest,
    );
    let theirs = (
        &request.capability,
        &request.operation,
        &request.request_digest,
        &request.semantic_inputs_digest,
    );
    if ours != theirs {
        return Err(mismatch(format!(
            "the plan was prepared for another request ('{}.{}'), not for '{}.{}' with these digests",
            plan.capability, plan.operation, request.capability, request.operation
        )));
    }
    check_seal(
        plan,
        approved,
        "prepare and validate again, show the new preview, and apply with its approval_digest",
    )
}

/// Checks a carried plan's seal (`CAPABILITY_APPROVAL_MISMATCH`, with `action`): the approval
/// digest recomputed from its own artifacts equals the one it carries and the one approved,
/// and its preview is the one its artifacts give.
pub fn check_seal(plan: &DurablePlan, approved: &str, action: &str) -> CapabilityResult<()> {
    let mismatch = |message: String| {
        CapabilityError::new(ErrorCode::CapabilityApprovalMismatch, message, action)
    };
    let seal = resealed(plan);
    if plan.approval_digest != seal {
        return Err(mismatch(
            "the plan's artifacts do not match its approval_digest: the plan was edited after it was sealed"
                .to_owned(),
        ));
    }
    if approved != seal {
        return Err(mismatch(format!(
            "the approval '{approved}' is not this plan's approval_digest '{seal}'"
        )));
    }
    if plan.preview != preview_of(&plan.artifacts) {
        return Err(mismatch(
            "the plan's preview does not describe its artifacts".to_owned(),
        ));
    }
    Ok(())
}

/// Checks every artifact path again at apply: a safe relative path (no `..`, `.` or empty segment,
/// not absolute, no backslash) inside one of the allowed destinations. First failure wins, as
/// `SEMANTIC_PATH_REJECTED`.
pub fn check_destinations(plan: &DurablePlan, allowed: &[String]) -> CapabilityResult<()> {
    for artifact in &plan.artifacts {
        if let Some(why) = destination_refusal(&artifact.path, allowed) {
            return Err(CapabilityError::new(
                ErrorCode::SemanticPathRejected,
                format!("destination not allowed ('{}'): {why}", artifact.path),
                "prepare again with artifacts under an allowed destination",
            ));
        }
    }
    Ok(())
}

/// Checks that every class needing a visible approval was granted: those the apply's fresh
/// authorization needs and those the plan carries (the plan's own list is not sealed, so it can
/// only add to what is required, never remove).
pub fn check_granted(
    plan: &DurablePlan,
    needs_preflight: &[EffectClass],
    granted: &[EffectClass],
) -> CapabilityResult<()> {
    let mut missing: Vec<EffectClass> = Vec::new();
    for class in needs_preflight.iter().chain(&plan.requires_approval) {
        if !granted.contains(class) && !missing.contains(class) {
            missing.push(*class);
        }
    }
    if missing.is_empty() {
        return Ok(());
    }
    Err(CapabilityError::new(
        ErrorCode::CapabilityApprovalMissing,
        format!(
            "these effect classes need a visible approval that was not given: {}",
            EffectClass::join(&missing)
        ),
        "show the plan's preview, then apply with --approval and its approval_digest",
    ))
}

/// Checks that no artifact may replace a file unless `mutate_overwrite` is among the classes the
/// apply would report as applied (`applied`: self-authorized or granted). The approval digest
/// does not cover `overwrite` (it is the reference's digest), so the flag can be switched on in a
/// plan after a person approved its files; an operation that plans no overwrite (`create`) must
/// then not replace anything (`CAPABILITY_EFFECT_UNPLANNED`).
pub fn check_overwrites(plan: &DurablePlan, applied: &[EffectClass]) -> CapabilityResult<()> {
    if applied.contains(&EffectClass::MutateOverwrite) {
        return Ok(());
    }
    match plan.artifacts.iter().find(|a| a.overwrite == Some(true)) {
        None => Ok(()),
        Some(a) => Err(CapabilityError::new(
            ErrorCode::CapabilityEffectUnplanned,
            format!(
                "'{}' may replace an existing file, and '{}.{}' plans no mutate_overwrite effect that was approved",
                a.path, plan.capability, plan.operation
            ),
            "prepare and validate again: the plan aw issues for this operation never replaces a file",
        )),
    }
}

/// Checks the plan's base against the file's current text (`None` when it is gone).
pub fn check_base(base: Option<&Base>, current: Option<&str>) -> CapabilityResult<()> {
    let Some(base) = base else {
        return Ok(());
    };
    let Some(text) = current else {
        return Err(CapabilityError::new(
            ErrorCode::CapabilityBaseGone,
            format!("the plan's base '{}' no longer exists", base.path),
            "prepare again against the current files",
        ));
    };
    if base_digest(text) != base.digest {
        return Err(CapabilityError::new(
            ErrorCode::CapabilityBaseStale,
            format!("'{}' changed after the plan was prepared", base.path),
            "prepare again against the current files",
        ));
    }
    Ok(())
}

/// The classes a successful apply reports: the self-authorized and granted ones that are durable,
/// each once (the reference does not intersect them with the declared classes).
pub fn applied_classes(
    self_authorized: &[EffectClass],
    granted: &[EffectClass],
) -> Vec<EffectClass> {
    let mut out: Vec<EffectClass> = Vec::new();
    for class in self_authorized.iter().chain(granted) {
        if is_durable(*class) && !out.contains(class) {
            out.push(*class);
        }
    }
    out
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
