//! The capability request (spec §5.1–§5.3): the envelope every attempt travels in, its builder
//! checks, the attempt chain (`continue`) and its two digests.
//!
//! A request has exactly the reference's 14 keys in the reference's order ([`REQUEST_KEYS`]).
//! `request_digest` is the semantic digest of the other 12 keys; `semantic_inputs_digest` covers
//! only the work asked for (capability, operation, target, base, profile and the inputs' names and
//! values), so the direct route and a flow asking for the same work share it. Both go through
//! [`crate::canonical`], the one canonical-JSON rule. Randomness is the shell's: an attempt 1 is
//! given its `invocation_id` (see [`invocation_id_from_random`]).

use super::descriptor::{Descriptor, Operation, Route, Sensitivity};
use super::error::{CapabilityError, CapabilityResult};
use crate::canonical::{semantic_digest, utf16_cmp};
use crate::error_code::ErrorCode;
use crate::vocab::flow::EffectClass;
use aw_json::js::js_trim;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// The highest attempt number a continuation may reach: JavaScript's `Number.MAX_SAFE_INTEGER`,
/// beyond which a number no longer survives a trip through a JSON reader exactly.
pub const MAX_ATTEMPT: u64 = (1 << 53) - 1;

/// The protocol version every request carries.
pub const PROTOCOL_VERSION: u64 = 1;

/// The request's keys, in emission order. Nothing else is allowed in a request.
pub const REQUEST_KEYS: [&str; 14] = [
    "protocol_version",
    "invocation_id",
    "attempt",
    "capability",
    "contract_version",
    "operation",
    "caller",
    "context",
    "inputs",
    "policy",
    "authorizations",
    "parent_request_digest",
    "request_digest",
    "semantic_inputs_digest",
];

/// A capability request (`CapabilityRequest`). Field order is emission order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CapabilityRequest {
    /// Always [`PROTOCOL_VERSION`].
    pub protocol_version: u64,
    /// Lowercase UUID shared by every attempt of one invocation.
    pub invocation_id: String,
    /// 1 for a fresh invocation, parent + 1 for a continuation.
    pub attempt: u64,
    /// The descriptor's name.
    pub capability: String,
    /// The descriptor's contract version.
    pub contract_version: u64,
    /// The operation asked for.
    pub operation: String,
    /// Who calls.
    pub caller: Caller,
    /// Where the work happens.
    pub context: RequestContext,
    /// The inputs, sorted by name (UTF-16 code units).
    pub inputs: Vec<RequestInput>,
    /// What the invocation allows.
    pub policy: Policy,
    /// Effect classes a preflight already approved, sorted.
    pub authorizations: Vec<EffectClass>,
    /// The previous attempt's `request_digest` (null on attempt 1).
    pub parent_request_digest: Option<String>,
    /// Semantic digest of the 12 keys above.
    pub request_digest: String,
    /// Semantic digest of the work asked for (see [`semantic_inputs_digest`]).
    pub semantic_inputs_digest: String,
}

/// The caller of a request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Caller {
    /// `direct` or `compose`.
    pub route: Route,
    /// The harness id, or `unknown`.
    pub host: String,
    /// The composing flow (null on the direct route).
    pub flow: Option<String>,
}

/// Where a request's work happens.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RequestContext {
    /// The workspace's absolute path, or null outside one.
    pub workspace: Option<String>,
    /// `--target`.
    pub target: Option<String>,
    /// `--base`.
    pub base: Option<String>,
    /// `--profile`.
    pub profile: Option<String>,
}

/// One input of a request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RequestInput {
    /// A name the operation declares.
    pub name: String,
    /// Any JSON value.
    pub value: Value,
    /// Where the value came from.
    pub provenance: Provenance,
}

/// Where an input's value came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    /// What the value is (`text` for a flag).
    pub kind: String,
    /// Who supplied it (`caller` for a flag); never blank.
    pub origin: String,
    /// A seal of the source, if any.
    pub seal: Option<String>,
    /// Whether reading it needs more than the invocation's authority.
    pub sensitivity: Sensitivity,
}

impl Provenance {
    /// The provenance of a `--input name=value` flag.
    pub fn caller_text() -> Self {
        Provenance {
            kind: "text".to_owned(),
            origin: "caller".to_owned(),
            seal: None,
            sensitivity: Sensitivity::Public,
        }
    }
}

impl RequestInput {
    /// A `--input name=value` flag: a string value with caller-text provenance.
    pub fn from_flag(name: &str, value: &str) -> Self {
        RequestInput {
            name: name.to_owned(),
            value: Value::String(value.to_owned()),
            provenance: Provenance::caller_text(),
        }
    }
}

/// What the invocation allows.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(deny_unknown_fields)]
pub struct Policy {
    /// `--sensitive-sources`.
    pub sensitive_sources: bool,
    /// Always false from the CLI.
    pub external_transmission: bool,
}

/// What the current invocation brings to a request: everything but the attempt chain.
#[derive(Debug, Clone, PartialEq)]
pub struct Invocation {
    /// The operation (ignored by [`CapabilityRequest::continue_from`]: the parent's wins).
    pub operation: String,
    /// Who calls.
    pub caller: Caller,
    /// Where.
    pub context: RequestContext,
    /// Every input, in the order given.
    pub inputs: Vec<RequestInput>,
    /// What the invocation allows.
    pub policy: Policy,
}

/// Everything a request is built from; [`build`] checks it and seals it.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    /// The invocation's id.
    pub invocation_id: String,
    /// The attempt number.
    pub attempt: u64,
    /// The previous attempt's digest.
    pub parent_request_digest: Option<String>,
    /// Classes a preflight approved.
    pub authorizations: Vec<EffectClass>,
    /// The rest.
    pub invocation: Invocation,
}

/// Formats 16 random bytes as a version-4 UUID (lowercase), the `invocation_id` of an attempt 1.
/// The bytes come from the shell: the core draws no randomness.
pub fn invocation_id_from_random(mut bytes: [u8; 16]) -> String {
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let mut out = String::with_capacity(36);
    for (i, b) in bytes.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            out.push('-');
        }
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// Whether a string is a lowercase UUID (8-4-4-4-12 hex digits).
pub fn is_invocation_id(s: &str) -> bool {
    let groups: Vec<&str> = s.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
}

/// The answer's `input_digest` (§6.5): the semantic digest of the inputs' `{name, value}` pairs
/// sorted by name.
pub fn input_digest(inputs: &[RequestInput]) -> String {
    semantic_digest(&Value::Array(name_values(inputs)))
}

/// `semantic_inputs_digest`: the work asked for, without route, host, flow, workspace,
/// provenance, policy, authorizations or attempt.
pub fn semantic_inputs_digest(
    capability: &str,
    operation: &str,
    context: &RequestContext,
    inputs: &[RequestInput],
) -> String {
    semantic_digest(&json!({
        "capability": capability,
        "operation": operation,
        "target": context.target,
        "base": context.base,
        "profile": context.profile,
        "inputs": name_values(inputs),
    }))
}

fn name_values(inputs: &[RequestInput]) -> Vec<Value> {
    let mut sorted: Vec<&RequestInput> = inputs.iter().collect();
    sorted.sort_by(|a, b| utf16_cmp(&a.name, &b.name));
    sorted
        .into_iter()
        .map(|i| json!({"name": i.name, "value": i.value}))
        .collect()
}

impl CapabilityRequest {
    /// A fresh attempt 1 under the given `invocation_id`.
    pub fn first_attempt(
        descriptor: &Descriptor,
        invocation_id: String,
        invocation: Invocation,
    ) -> CapabilityResult<Self> {
        build(
            descriptor,
            Draft {
                invocation_id,
                attempt: 1,
                parent_request_digest: None,
                authorizations: Vec::new(),
                invocation,
            },
        )
    }

    /// Attempt n+1 of the parent's invocation: the parent is re-sealed first
    /// (`CAPABILITY_PARENT_ALTERED`), its operation wins over the invocation's, and everything else
    /// (caller, context, policy, the complete input set) comes from the current invocation.
    pub fn continue_from(
        parent: &CapabilityRequest,
        descriptor: &Descriptor,
        mut invocation: Invocation,
    ) -> CapabilityResult<Self> {
        if !parent.is_sealed() {
            return Err(CapabilityError::new(
                ErrorCode::CapabilityParentAltered,
                "the parent request does not match its request_digest: it was edited after it was issued",
                "send the parent request exactly as aw printed it",
            ));
        }
        // The next attempt must be a new number that JSON readers keep exactly (JavaScript's
        // safe integers): a saturating add would give attempt n+1 == n at the top.
        let attempt = parent
            .attempt
            .checked_add(1)
            .filter(|n| *n <= MAX_ATTEMPT)
            .ok_or_else(|| {
                CapabilityError::new(
                    ErrorCode::CapabilityAttemptInvalid,
                    format!(
                        "the parent is attempt {}: there is no next attempt number",
                        parent.attempt
                    ),
                    "start a new invocation with 'aw capability prepare'",
                )
            })?;
        invocation.operation = parent.operation.clone();
        build(
            descriptor,
            Draft {
                invocation_id: parent.invocation_id.clone(),
                attempt,
                parent_request_digest: Some(parent.request_digest.clone()),
                authorizations: Vec::new(),
                invocation,
            },
        )
    }

    /// The request as JSON, keys in emission order.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The digest of the 12 keys before the two digests, recomputed from the fields.
    pub fn computed_request_digest(&self) -> String {
        let mut v = self.to_value();
        if let Value::Object(map) = &mut v {
            map.shift_remove("request_digest");
            map.shift_remove("semantic_inputs_digest");
        }
        semantic_digest(&v)
    }

    /// The semantic inputs digest, recomputed from the fields.
    pub fn computed_semantic_inputs_digest(&self) -> String {
        semantic_inputs_digest(
            &self.capability,
            &self.operation,
            &self.context,
            &self.inputs,
        )
    }

    /// Whether `request_digest` still matches the other fields.
    pub fn is_sealed(&self) -> bool {
        self.computed_request_digest() == self.request_digest
    }
}

/// Checks a draft against the descriptor (§5.2, first failure wins) and seals it.
pub fn build(descriptor: &Descriptor, draft: Draft) -> CapabilityResult<CapabilityRequest> {
    let Draft {
        invocation_id,
        attempt,
        parent_request_digest,
        mut authorizations,
        invocation,
    } = draft;
    if !is_invocation_id(&invocation_id) {
        return Err(CapabilityError::new(
            ErrorCode::CapabilityInvocationIdInvalid,
            format!("invocation_id '{invocation_id}' is not a lowercase UUID"),
            "continue with the invocation_id aw issued, or start a new invocation",
        ));
    }
    if attempt < 1 {
        return Err(CapabilityError::new(
            ErrorCode::CapabilityAttemptInvalid,
            format!("attempt {attempt} is not a whole number of at least 1"),
            "number attempts from 1",
        ));
    }
    match (attempt, &parent_request_digest) {
        (1, Some(_)) => {
            return Err(CapabilityError::new(
                ErrorCode::CapabilityParentUnexpected,
                "a first attempt cannot have a parent request",
                "drop the parent, or continue it as attempt 2",
            ));
        }
        (n, None) if n > 1 => {
            return Err(CapabilityError::new(
                ErrorCode::CapabilityParentMissing,
                format!("attempt {n} names no parent request"),
                "continue from the previous attempt's request",
            ));
        }
        _ => {}
    }
    let op = operation_of(descriptor, &invocation.operation)?;
    if !op.exposure.contains(&invocation.caller.route) {
        return Err(CapabilityError::new(
            ErrorCode::CapabilityRouteUnsupported,
            format!(
                "'{}.{}' is not offered on the {} route",
                descriptor.name,
                op.name,
                invocation.caller.route.as_str()
            ),
            format!(
                "call it on one of its routes: {}",
                join(op.exposure.iter().map(|r| r.as_str()))
            ),
        ));
    }
    check_inputs(descriptor, op, &invocation.inputs, invocation.policy)?;

    let mut inputs = invocation.inputs;
    inputs.sort_by(|a, b| utf16_cmp(&a.name, &b.name));
    // Sorted as the reference sorts strings (by UTF-16 code units), not in the classes' own
    // order; repeats are kept, as the reference keeps them.
    authorizations.sort_by(|a, b| utf16_cmp(a.as_str(), b.as_str()));
    let mut request = CapabilityRequest {
        protocol_version: PROTOCOL_VERSION,
        invocation_id,
        attempt,
        capability: descriptor.name.clone(),
        contract_version: descriptor.contract_version,
        operation: op.name.clone(),
        caller: invocation.caller,
        context: invocation.context,
        inputs,
        policy: invocation.policy,
        authorizations,
        parent_request_digest,
        request_digest: String::new(),
        semantic_inputs_digest: String::new(),
    };
    request.request_digest = request.computed_request_digest();
    request.semantic_inputs_digest = request.computed_semantic_inputs_digest();
    Ok(request)
}

/// The declared operation of that name, or `CAPABILITY_OPERATION_UNKNOWN` listing the others.
pub fn operation_of<'d>(descriptor: &'d Descriptor, name: &str) -> CapabilityResult<&'d Operation> {
    descriptor.operation(name).ok_or_else(|| {
        CapabilityError::new(
            ErrorCode::CapabilityOperationUnknown,
            format!("'{}' has no operation '{name}'", descriptor.name),
            format!(
                "name one of its operations: {}",
                join(descriptor.operations.iter().map(|o| o.name.as_str()))
            ),
        )
    })
}

fn check_inputs(
    descriptor: &Descriptor,
    op: &Operation,
    inputs: &[RequestInput],
    policy: Policy,
) -> CapabilityResult<()> {
    let qualified = format!("{}.{}", descriptor.name, op.name);
    let mut seen = BTreeSet::new();
    for input in inputs {
        if !op.inputs.iter().any(|d| d.name == input.name) {
            return Err(CapabilityError::new(
                ErrorCode::CapabilityInputUndeclared,
                format!("'{qualified}' does not declare an input '{}'", input.name),
                format!(
                    "send only its declared inputs: {}",
                    join(op.inputs.iter().map(|d| d.name.as_str()))
                ),
            ));
        }
        if !seen.insert(input.name.as_str()) {
            return Err(CapabilityError::new(
                ErrorCode::CapabilityInputRepeated,
                format!("input '{}' is given more than once", input.name),
                "give each input once",
            ));
        }
        if js_trim(&input.provenance.origin).is_empty() {
            return Err(CapabilityError::new(
                ErrorCode::CapabilityInputProvenanceMissing,
                format!("input '{}' does not say where it came from", input.name),
                "fill in the input's provenance origin",
            ));
        }
        if input.provenance.sensitivity == Sensitivity::Sensitive && !policy.sensitive_sources {
            return Err(CapabilityError::new(
                ErrorCode::CapabilitySensitiveInputUnauthorized,
                format!(
                    "input '{}' is sensitive and sensitive sources are not allowed",
                    input.name
                ),
                "allow them with --sensitive-sources, or leave the input out",
            ));
        }
    }
    // Presence is all that counts: an empty value satisfies a required input.
    if let Some(missing) = op
        .inputs
        .iter()
        .find(|d| d.required && !seen.contains(d.name.as_str()))
    {
        return Err(CapabilityError::new(
            ErrorCode::CapabilityInputRequiredMissing,
            format!("'{qualified}' needs the input '{}'", missing.name),
            format!("add --input {}=<value>", missing.name),
        ));
    }
    Ok(())
}

fn join<'a>(names: impl Iterator<Item = &'a str>) -> String {
    names.collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
#[path = "request_tests.rs"]
mod tests;
