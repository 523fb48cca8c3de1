//! The capability receipt (spec §5.4–§5.6): what one attempt answered, its invariants, its
//! completeness gate, its persistence class, and the workspace requirement.
//!
//! A receipt can only be made by [`CapabilityReceipt::build`], which copies the correlation
//! fields from the request (so a receipt always answers the request it names) and refuses a body
//! that breaks an invariant: an invalid receipt is a bug in aw and is reported, never emitted.
//! Its fields are read through accessors so nothing can break an invariant afterwards.

use super::descriptor::{Completeness, DegradationCause, Descriptor, Operation, WorkspaceNeed};
use super::error::{CapabilityError, CapabilityResult};
use super::request::{CapabilityRequest, Provenance, RequestContext};
use crate::error_code::ErrorCode;
use crate::vocab::flow::EffectClass;
pub use crate::vocab::flow::Effects;
pub use crate::vocab::flow::Outcome;
use aw_json::js::js_trim;
use serde::Serialize;
use serde_json::Value;

/// The fields a receipt copies from its request, in emission order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Correlation {
    /// The request's protocol version.
    pub protocol_version: u64,
    /// The request's invocation.
    pub invocation_id: String,
    /// The request's attempt.
    pub attempt: u64,
    /// The capability.
    pub capability: String,
    /// The operation.
    pub operation: String,
    /// The request's digest.
    pub request_digest: String,
    /// The request's semantic inputs digest.
    pub semantic_inputs_digest: String,
    /// The request's parent digest.
    pub parent_request_digest: Option<String>,
}

/// A contributor that took part in the result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct SelectedInstance {
    /// The installed skill's name.
    pub name: String,
    /// The skill root it was found in.
    pub scope: String,
    /// Its descriptor locator.
    pub locator: String,
    /// Its version, if it declares one.
    pub version: Option<String>,
    /// The digest of its descriptor bytes.
    pub digest: String,
    /// Its place in the contribution order, from 1.
    pub order: u64,
}

/// What became of one request input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct InputDisposition {
    /// The input's name.
    pub name: String,
    /// Whether the result used it.
    pub used: bool,
    /// Why not, when it was not used (never blank then).
    pub reason: Option<String>,
    /// The input's provenance, as the request carried it.
    pub provenance: Provenance,
}

impl InputDisposition {
    /// Every input of the request, used.
    pub fn all_used(request: &CapabilityRequest) -> Vec<InputDisposition> {
        request
            .inputs
            .iter()
            .map(|i| InputDisposition {
                name: i.name.clone(),
                used: true,
                reason: None,
                provenance: i.provenance.clone(),
            })
            .collect()
    }
}

/// A durable result: `id` + `revision` identify it, `digest` proves it, `locator` is a hint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct DurableReference {
    /// Its identity.
    pub id: String,
    /// Its revision, if it has revisions.
    pub revision: Option<u64>,
    /// `sha256:<hex>`.
    pub digest: String,
    /// Workspace-relative path.
    pub locator: String,
}

/// What an operation produced.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct OperationOutput {
    /// A typed value.
    pub value: Option<Value>,
    /// A durable reference.
    pub reference: Option<DurableReference>,
    /// How complete the result is (a dimension of its own, apart from the outcome).
    pub completeness: Option<Completeness>,
}

/// One check the result went through.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ValidationOutcome {
    /// The check's id.
    pub id: String,
    /// Whether it passed.
    pub passed: bool,
    /// What it found.
    pub detail: Option<String>,
}

/// A fallback the run took and what it cost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ReceiptDegradation {
    /// A cause the descriptor declares.
    pub cause: DegradationCause,
    /// What was lost (never blank).
    pub loss: String,
}

/// Everything a receipt says beyond its correlation fields, in emission order.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ReceiptBody {
    /// How the attempt ended.
    pub outcome: Outcome,
    /// Whether the built-in floor produced the result.
    pub floor: bool,
    /// The contributors, in contribution order (empty when the floor ran).
    pub selection: Vec<SelectedInstance>,
    /// What became of each input.
    pub inputs: Vec<InputDisposition>,
    /// The result.
    pub output: Option<OperationOutput>,
    /// The checks it went through.
    pub validations: Vec<ValidationOutcome>,
    /// The effect classes.
    pub effects: Effects,
    /// The fallbacks taken.
    pub degradations: Vec<ReceiptDegradation>,
    /// What the next attempt must bring (only on `needs_input`).
    pub gaps: Vec<String>,
    /// Why it failed or is blocked.
    pub error: Option<CapabilityError>,
    /// What to do next (never blank).
    pub next_action: String,
}

/// A capability receipt (`CapabilityReceipt`), valid by construction.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct CapabilityReceipt {
    #[serde(flatten)]
    correlation: Correlation,
    #[serde(flatten)]
    body: ReceiptBody,
}

/// Whether a receipt's result is worth recording (§5.5). A label only: nothing is stored by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Persistence {
    /// Nothing durable happened.
    None,
    /// A durable effect or a durable result.
    Registry,
}

impl Persistence {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Persistence::None => "none",
            Persistence::Registry => "registry",
        }
    }
}

fn bug(code: ErrorCode, message: impl Into<String>) -> CapabilityError {
    CapabilityError::new(
        code,
        message,
        "report this as a bug in aw, with the command that produced it",
    )
}

fn blank(s: &str) -> bool {
    js_trim(s).is_empty()
}

impl CapabilityReceipt {
    /// The receipt of `request`: its correlation fields copied, the body checked against every
    /// invariant of §5.4 in the reference's order (first failure wins).
    pub fn build(
        request: &CapabilityRequest,
        descriptor: &Descriptor,
        body: ReceiptBody,
    ) -> CapabilityResult<Self> {
        check(descriptor, &body)?;
        Ok(CapabilityReceipt {
            correlation: Correlation {
                protocol_version: request.protocol_version,
                invocation_id: request.invocation_id.clone(),
                attempt: request.attempt,
                capability: request.capability.clone(),
                operation: request.operation.clone(),
                request_digest: request.request_digest.clone(),
                semantic_inputs_digest: request.semantic_inputs_digest.clone(),
                parent_request_digest: request.parent_request_digest.clone(),
            },
            body,
        })
    }

    /// The fields copied from the request.
    pub fn correlation(&self) -> &Correlation {
        &self.correlation
    }

    /// The rest.
    pub fn body(&self) -> &ReceiptBody {
        &self.body
    }

    /// The receipt as JSON, keys in emission order.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// Whether the result clears a completeness gate: completed **and** complete. A completed
    /// partial result is a success that does not satisfy the gate.
    pub fn satisfies_completeness_gate(&self) -> bool {
        self.body.outcome == Outcome::Completed
            && self
                .body
                .output
                .as_ref()
                .is_some_and(|o| o.completeness == Some(Completeness::Complete))
    }

    /// `registry` when an applied class is not `read_only` or the output has a durable
    /// reference, otherwise `none`.
    pub fn persistence(&self) -> Persistence {
        let durable_effect = self
            .body
            .effects
            .applied
            .iter()
            .any(|c| *c != EffectClass::ReadOnly);
        let durable_output = self
            .body
            .output
            .as_ref()
            .is_some_and(|o| o.reference.is_some());
        if durable_effect || durable_output {
            Persistence::Registry
        } else {
            Persistence::None
        }
    }
}

fn check(descriptor: &Descriptor, b: &ReceiptBody) -> CapabilityResult<()> {
    if blank(&b.next_action) {
        return Err(bug(
            ErrorCode::CapabilityReceiptNoNextAction,
            "the receipt has no next action",
        ));
    }
    if b.outcome == Outcome::Completed {
        if b.output.as_ref().is_none_or(|o| o.completeness.is_none()) {
            return Err(bug(
                ErrorCode::CapabilityCompletedWithoutOutput,
                "a completed receipt must carry an output and its completeness",
            ));
        }
        if b.error.is_some() {
            return Err(bug(
                ErrorCode::CapabilityCompletedWithError,
                "a completed receipt cannot carry an error",
            ));
        }
    }
    if matches!(b.outcome, Outcome::Failed | Outcome::Blocked) && b.error.is_none() {
        return Err(bug(
            ErrorCode::CapabilityFailureWithoutError,
            format!("a {} receipt must say why", b.outcome.as_str()),
        ));
    }
    if b.outcome == Outcome::NeedsInput && b.gaps.is_empty() {
        return Err(bug(
            ErrorCode::CapabilityNeedsInputWithoutGaps,
            "a needs_input receipt must list what is missing",
        ));
    }
    if b.outcome != Outcome::NeedsInput && !b.gaps.is_empty() {
        return Err(bug(
            ErrorCode::CapabilityGapsWithoutNeedsInput,
            format!("a {} receipt cannot list gaps", b.outcome.as_str()),
        ));
    }
    if let Some(i) = b
        .inputs
        .iter()
        .find(|i| !i.used && i.reason.as_deref().is_none_or(blank))
    {
        return Err(bug(
            ErrorCode::CapabilityInputDiscardedSilently,
            format!(
                "input '{}' was not used and the receipt does not say why",
                i.name
            ),
        ));
    }
    let planned = &b.effects.planned;
    for (label, classes) in [
        ("applied", &b.effects.applied),
        ("approved", &b.effects.approved),
    ] {
        if let Some(c) = classes.iter().find(|c| !planned.contains(c)) {
            return Err(bug(
                ErrorCode::CapabilityEffectUnplanned,
                format!("effect '{}' is {label} but was not planned", c.as_str()),
            ));
        }
    }
    for d in &b.degradations {
        if !descriptor.degradations.iter().any(|x| x.cause == d.cause) {
            return Err(bug(
                ErrorCode::CapabilityDegradationUndeclared,
                format!(
                    "'{}' does not declare the degradation '{}'",
                    descriptor.name,
                    d.cause.as_str()
                ),
            ));
        }
        if blank(&d.loss) {
            return Err(bug(
                ErrorCode::CapabilityDegradationWithoutLoss,
                format!(
                    "the degradation '{}' does not say what was lost",
                    d.cause.as_str()
                ),
            ));
        }
    }
    if b.floor && !b.selection.is_empty() {
        return Err(bug(
            ErrorCode::CapabilityFloorWithSelection,
            "the receipt credits both the built-in floor and selected contributors",
        ));
    }
    Ok(())
}

/// The workspace requirement (§5.6): only a `required` operation outside a workspace fails. The
/// check never creates anything.
pub fn check_workspace_requirement(
    op: &Operation,
    context: &RequestContext,
) -> CapabilityResult<()> {
    if op.workspace == WorkspaceNeed::Required && context.workspace.is_none() {
        return Err(CapabilityError::new(
            ErrorCode::CapabilityWorkspaceRequired,
            format!("'{}' needs a workspace and none was found", op.name),
            "run it inside a workspace, or create one with 'aw workspace-init'",
        ));
    }
    Ok(())
}

#[cfg(test)]
#[path = "receipt_tests.rs"]
mod tests;
