//! The dispatcher (spec §3.3–§3.5, §6.4): from a call's flags, what stdin carried and what the
//! shell read (bindings, inventory, host, workspace), one [`Attempt`] — or the hard failure that
//! stops the command. Pure: the handler, the inventory and the random invocation id come in;
//! the only I/O of `apply` (base read, lock, publish) is the shell's, between [`apply_gate`] and
//! [`apply_finish`].

use super::answer::SemanticRequest;
use super::bindings::{BindingPolicy, retired};
use super::builtin::{DESIGN_CAPABILITY, trusted_design_descriptor};
use super::carry::Carried;
use super::descriptor::{Descriptor, Operation, Route};
use super::effects::{EffectAuthorization, HostPolicy, Reach, authorize_effects, check_not_off};
use super::error::{CapabilityError, CapabilityResult};
use super::handler::{Handler, HandlerCall, HandlerResult, NumberClaim, PublishRoot, Verb};
use super::inventory::Instance;
use super::paths::reserved_refusal;
use super::plan::{
    DurablePlan, applied_classes, check_approval, check_destinations, check_durable, check_granted,
    check_overwrites, prepare_durable_effect,
};
use super::receipt::{
    CapabilityReceipt, Effects, InputDisposition, OperationOutput, Outcome, Persistence,
    ReceiptBody, check_workspace_requirement,
};
use super::request::{
    Caller, CapabilityRequest, Invocation, Policy, RequestContext, RequestInput, operation_of,
};
use super::resolution::{
    CapabilityResolution, SelectionPin, check_operation_available, check_pin, pin_selection,
    resolve,
};
use crate::error_code::ErrorCode;
use crate::vocab::flow::EffectClass;
use serde::Serialize;
use serde_json::{Value, json};

/// Every capability aw registers, by name.
pub const REGISTERED: &[&str] = &[DESIGN_CAPABILITY];

/// The descriptor of a registered capability: a retired identity (compared case-insensitively)
/// is `CAPABILITY_NAME_RETIRED`, any other unknown name `CAPABILITY_UNKNOWN` (§3.4 steps 1–2).
pub fn registered(name: &str) -> CapabilityResult<Descriptor> {
    if let Some(r) = retired(&name.to_lowercase()) {
        return Err(CapabilityError::new(
            ErrorCode::CapabilityNameRetired,
            format!("'{name}' is retired: {}", r.reason),
            format!("call the capability by its current name: '{DESIGN_CAPABILITY}'"),
        ));
    }
    if name == DESIGN_CAPABILITY {
        return trusted_design_descriptor().map_err(|failures| {
            let first = failures.first();
            CapabilityError::new(
                ErrorCode::Internal,
                format!(
                    "the built-in '{name}' descriptor does not validate: {}",
                    first.map_or("", |f| f.message.as_str())
                ),
                "report this as a bug in aw",
            )
        });
    }
    Err(CapabilityError::new(
        ErrorCode::CapabilityUnknown,
        format!("no capability is registered under the name '{name}'"),
        format!("use one of: {}", REGISTERED.join(", ")),
    ))
}

/// The call's own flags (§3.1).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Flags {
    /// `--operation`.
    pub operation: Option<String>,
    /// Every `--input name=value`, in order.
    pub inputs: Vec<RequestInput>,
    /// `--target`.
    pub target: Option<String>,
    /// `--base`.
    pub base: Option<String>,
    /// `--profile`.
    pub profile: Option<String>,
    /// `--flow` (the compose route).
    pub flow: Option<String>,
    /// `--sensitive-sources`.
    pub sensitive_sources: bool,
    /// `--approval`.
    pub approval: Option<String>,
    /// `--host`, when given explicitly (the call's host is otherwise detected): `validate`
    /// compares it with the carried request's caller.
    pub host: Option<String>,
}

/// Everything one call is decided from.
pub struct Call<'a> {
    /// The stage.
    pub verb: Verb,
    /// The capability's descriptor.
    pub descriptor: &'a Descriptor,
    /// Its implementation.
    pub handler: &'a dyn Handler,
    /// The flags.
    pub flags: &'a Flags,
    /// What stdin carried (empty for `prepare`).
    pub carried: &'a Carried,
    /// The detected (or declared) host id.
    pub host: &'a str,
    /// The workspace's path, if the call runs inside one.
    pub workspace: Option<&'a str>,
    /// The workspace's own folders, relative to its root (`.<ns>` and `.git`): never a
    /// destination for output.
    pub reserved: &'a [&'a str],
    /// The capability's binding, classified.
    pub binding: &'a BindingPolicy,
    /// The installed capability skills.
    pub inventory: &'a [Instance],
    /// A fresh invocation id, used when the call starts a new invocation.
    pub fresh_id: String,
}

/// The authoring request an attempt hands the agent, with the answer it expects: an added key
/// of ours, so no agent has to compute a digest by hand.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct SemanticView {
    /// The request.
    #[serde(flatten)]
    pub request: SemanticRequest,
    /// The smallest valid answer, placeholders included.
    pub answer_skeleton: Value,
}

/// One attempt's output (`CapabilityAttempt`, §3.5), keys in emission order; `semantic` is
/// ours, added after the reference's keys.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Attempt {
    /// The request this attempt answered.
    pub request: CapabilityRequest,
    /// Its receipt.
    pub receipt: CapabilityReceipt,
    /// The receipt's output.
    pub output: Option<OperationOutput>,
    /// How the capability resolved.
    pub resolution: CapabilityResolution,
    /// The selection to carry into the next attempt.
    pub pin: SelectionPin,
    /// `registry` when the result is durable, else `none` (a label: nothing is stored).
    pub persistence: Persistence,
    /// The durable plan awaiting approval.
    pub plan: Option<DurablePlan>,
    /// The authoring request, when the agent is asked to author.
    pub semantic: Option<SemanticView>,
}

fn args(message: String, action: &str) -> CapabilityError {
    CapabilityError::new(ErrorCode::ArgsInvalid, message, action)
}

const DROP_REPEATS: &str = "drop the repeated flag: validate takes the carried request as it is";

fn caller(call: &Call<'_>, flow: Option<String>) -> Caller {
    Caller {
        route: if flow.is_some() {
            Route::Compose
        } else {
            Route::Direct
        },
        host: call.host.to_owned(),
        flow,
    }
}

/// The invocation the flags describe.
fn from_flags(call: &Call<'_>, operation: String) -> Invocation {
    let f = call.flags;
    Invocation {
        operation,
        caller: caller(call, f.flow.clone()),
        context: RequestContext {
            workspace: call.workspace.map(str::to_owned),
            target: f.target.clone(),
            base: f.base.clone(),
            profile: f.profile.clone(),
        },
        inputs: f.inputs.clone(),
        policy: Policy {
            sensitive_sources: f.sensitive_sources,
            external_transmission: false,
        },
    }
}

fn same(flag: Option<&String>, carried: Option<&String>, name: &str) -> CapabilityResult<()> {
    match flag {
        Some(v) if Some(v) != carried => Err(args(
            format!(
                "--{name} '{v}' differs from the carried request's {}",
                carried.map_or_else(|| "(none)".to_owned(), |c| format!("'{c}'"))
            ),
            DROP_REPEATS,
        )),
        _ => Ok(()),
    }
}

/// The invocation of a `validate` that carries its request (quirk 2, fixed): the carried
/// request's operation, caller, scope, inputs and policy; a flag may repeat a carried value,
/// never change it.
fn from_carried(call: &Call<'_>, carried: &CapabilityRequest) -> CapabilityResult<Invocation> {
    let f = call.flags;
    if carried.capability != call.descriptor.name {
        return Err(args(
            format!(
                "the carried request is for '{}', not '{}'",
                carried.capability, call.descriptor.name
            ),
            "pass the --capability the request was prepared for",
        ));
    }
    same(f.operation.as_ref(), Some(&carried.operation), "operation")?;
    same(f.target.as_ref(), carried.context.target.as_ref(), "target")?;
    same(f.base.as_ref(), carried.context.base.as_ref(), "base")?;
    same(
        f.profile.as_ref(),
        carried.context.profile.as_ref(),
        "profile",
    )?;
    same(f.flow.as_ref(), carried.caller.flow.as_ref(), "flow")?;
    same(f.host.as_ref(), Some(&carried.caller.host), "host")?;
    if f.sensitive_sources && !carried.policy.sensitive_sources {
        return Err(args(
            "--sensitive-sources was not set on the carried request".to_owned(),
            DROP_REPEATS,
        ));
    }
    for input in &f.inputs {
        let theirs = carried.inputs.iter().find(|i| i.name == input.name);
        if theirs.map(|i| &i.value) != Some(&input.value) {
            return Err(args(
                format!(
                    "--input {}={} differs from the carried request's {}",
                    input.name,
                    input.value.as_str().unwrap_or_default(),
                    theirs.map_or_else(
                        || "(no such input)".to_owned(),
                        |i| format!("{}={}", i.name, compact_value(&i.value))
                    )
                ),
                DROP_REPEATS,
            ));
        }
    }
    // The caller is the carried one, host included: a host detected differently now (another
    // environment variable set) does not rewrite who made the request.
    Ok(Invocation {
        operation: carried.operation.clone(),
        caller: Caller {
            host: carried.caller.host.clone(),
            ..caller(call, carried.caller.flow.clone())
        },
        context: RequestContext {
            workspace: call.workspace.map(str::to_owned),
            ..carried.context.clone()
        },
        inputs: carried.inputs.clone(),
        policy: carried.policy,
    })
}

fn compact_value(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The operation a fresh or continued attempt asks for: `--operation`, else the parent's, else
/// the descriptor's default (§3.4 step 2).
fn operation_name(call: &Call<'_>) -> CapabilityResult<String> {
    let parent = call.carried.parent.as_ref().map(|p| p.operation.clone());
    call.flags
        .operation
        .clone()
        .or(parent)
        .or_else(|| call.descriptor.default_operation.clone())
        .ok_or_else(|| {
            let d = call.descriptor;
            CapabilityError::new(
                ErrorCode::CapabilityOperationMissing,
                format!("'{}' declares no default operation", d.name),
                format!(
                    "name the operation with --operation: {}",
                    d.operations
                        .iter()
                        .map(|o| o.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        })
}

/// The request of this attempt (§3.4 step 3).
fn build_request(call: &Call<'_>) -> CapabilityResult<CapabilityRequest> {
    let d = call.descriptor;
    match (call.verb, &call.carried.parent, &call.carried.request) {
        (Verb::Validate, _, Some(carried)) => {
            let invocation = from_carried(call, carried)?;
            CapabilityRequest::continue_from(carried, d, invocation)
        }
        (Verb::Continue, Some(parent), _) => {
            let invocation = from_flags(call, parent.operation.clone());
            CapabilityRequest::continue_from(parent, d, invocation)
        }
        (_, parent, _) => {
            let id = parent
                .as_ref()
                .map_or_else(|| call.fresh_id.clone(), |p| p.invocation_id.clone());
            CapabilityRequest::first_attempt(d, id, from_flags(call, operation_name(call)?))
        }
    }
}

/// The resolution operation: the one named, else the parent's (§3.4 step 3.1).
fn resolution_operation(call: &Call<'_>) -> Option<String> {
    let carried = match call.verb {
        Verb::Validate => call.carried.request.as_ref(),
        _ => call.carried.parent.as_ref(),
    };
    call.flags
        .operation
        .clone()
        .or_else(|| carried.map(|r| r.operation.clone()))
}

/// The body every receipt of this attempt starts from.
fn body(
    request: &CapabilityRequest,
    resolution: &CapabilityResolution,
    outcome: Outcome,
) -> ReceiptBody {
    ReceiptBody {
        outcome,
        floor: resolution.floor,
        selection: resolution.selection.clone(),
        inputs: InputDisposition::all_used(request),
        output: None,
        validations: Vec::new(),
        effects: Effects::default(),
        degradations: resolution.degradations.clone(),
        gaps: Vec::new(),
        error: None,
        next_action: String::new(),
    }
}

fn blocked(
    request: &CapabilityRequest,
    resolution: &CapabilityResolution,
    error: CapabilityError,
) -> ReceiptBody {
    let mut b = body(request, resolution, Outcome::Blocked);
    b.next_action = error.action.clone();
    b.error = Some(error);
    b
}

fn compact(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// Runs the attempt stage of `prepare`, `continue` or `validate` (§3.4 step 3). `Err` is a hard
/// failure (exit 1); every other outcome, blocked included, is an attempt (exit 0).
pub fn attempt(call: &Call<'_>) -> CapabilityResult<Attempt> {
    let d = call.descriptor;
    let resolution = resolve(
        d,
        call.binding,
        call.inventory,
        None,
        resolution_operation(call).as_deref(),
    );
    let pin = pin_selection(&resolution, d);
    let request = build_request(call)?;
    let op = operation_of(d, &request.operation)?;
    let mut plan = None;
    let mut semantic = None;
    let receipt_body = match precheck(call, &request, op, &resolution) {
        Err(e) => blocked(&request, &resolution, e),
        Ok(auth) => {
            let result = screened(
                call,
                call.handler.attempt(&HandlerCall {
                    verb: call.verb,
                    request: &request,
                    operation: op,
                    answer: call.carried.answer.as_ref(),
                }),
            );
            match result {
                HandlerResult::Completed {
                    output,
                    validations,
                } => {
                    let mut b = body(&request, &resolution, Outcome::Completed);
                    b.output = Some(output);
                    b.validations = validations;
                    b.next_action = if b.degradations.is_empty() {
                        "nothing left to do: the attempt completed".to_owned()
                    } else {
                        "the result came from the built-in floor: read the receipt's degradations to see what was lost".to_owned()
                    };
                    b
                }
                HandlerResult::Blocked(e) => blocked(&request, &resolution, e),
                HandlerResult::NeedsInput {
                    gaps,
                    output,
                    semantic: sem,
                } => {
                    let mut b = body(&request, &resolution, Outcome::NeedsInput);
                    b.output = output;
                    b.gaps = gaps;
                    b.next_action = match &sem {
                        Some(s) => author_action(&request, s),
                        None => format!(
                            "bring what is missing: pipe {{\"parent\": <this attempt's request>}} to 'aw capability continue --capability {}' with the inputs again",
                            request.capability
                        ),
                    };
                    semantic = sem.map(|s| SemanticView {
                        answer_skeleton: s.skeleton(),
                        request: s,
                    });
                    b
                }
                HandlerResult::Durable {
                    artifacts,
                    base,
                    output,
                } => match prepare_durable_effect(&request, &auth, artifacts, base) {
                    Err(e) => blocked(&request, &resolution, e),
                    Ok(p) => {
                        let mut b = body(&request, &resolution, Outcome::NeedsInput);
                        b.output = Some(output);
                        b.effects.planned = auth.planned.clone();
                        b.gaps = vec![approval_gap(&p)];
                        b.next_action = apply_action(&p);
                        plan = Some(p);
                        b
                    }
                },
            }
        }
    };
    finish(call, request, receipt_body, resolution, pin, plan, semantic)
}

fn finish(
    call: &Call<'_>,
    request: CapabilityRequest,
    body: ReceiptBody,
    resolution: CapabilityResolution,
    pin: SelectionPin,
    plan: Option<DurablePlan>,
    semantic: Option<SemanticView>,
) -> CapabilityResult<Attempt> {
    let receipt = CapabilityReceipt::build(&request, call.descriptor, body)?;
    Ok(Attempt {
        output: receipt.body().output.clone(),
        persistence: receipt.persistence(),
        request,
        receipt,
        resolution,
        pin,
        plan,
        semantic,
    })
}

/// The first of `paths` that lands in one of the workspace's own folders, as the refusal.
fn reserved_check<'p>(
    call: &Call<'_>,
    mut paths: impl Iterator<Item = &'p str>,
) -> CapabilityResult<()> {
    match paths.find_map(|p| reserved_refusal(p, call.reserved).map(|why| (p, why))) {
        None => Ok(()),
        Some((p, why)) => Err(CapabilityError::new(
            ErrorCode::SemanticPathRejected,
            format!("destination not allowed ('{p}'): {why}"),
            "choose an output folder outside the workspace's .<ns> and .git folders (--target)",
        )),
    }
}

/// A handler's result with every destination it names kept out of the workspace's own folders:
/// a request or a plan that would write there is blocked before anyone authors or approves it.
fn screened(call: &Call<'_>, result: HandlerResult) -> HandlerResult {
    let check = match &result {
        HandlerResult::NeedsInput {
            semantic: Some(s), ..
        } => reserved_check(call, s.allowed_destinations.iter().map(String::as_str)),
        HandlerResult::Durable { artifacts, .. } => {
            reserved_check(call, artifacts.iter().map(|a| a.path.as_str()))
        }
        _ => Ok(()),
    };
    match check {
        Ok(()) => result,
        Err(e) => HandlerResult::Blocked(e),
    }
}

/// Steps 4–7 of §3.4: the pin, availability, the workspace, the effects.
fn precheck(
    call: &Call<'_>,
    request: &CapabilityRequest,
    op: &Operation,
    resolution: &CapabilityResolution,
) -> CapabilityResult<EffectAuthorization> {
    if let Some(pin) = &call.carried.pin {
        check_pin(pin, call.inventory)?;
    }
    check_operation_available(resolution, &op.name)?;
    check_workspace_requirement(op, &request.context)?;
    Ok(authorize_effects(
        &op.effects,
        Reach {
            sensitive_sources: request.policy.sensitive_sources,
            scope_expanded: false,
        },
        &HostPolicy::default(),
        &[],
    ))
}

fn author_action(request: &CapabilityRequest, s: &SemanticRequest) -> String {
    format!(
        "author the files the contract asks for, then pipe {{\"request\": <this attempt's request>, \"answer\": <your answer>}} to 'aw capability validate --capability {}'; the answer is {}",
        request.capability,
        compact(&s.skeleton())
    )
}

fn approval_gap(plan: &DurablePlan) -> String {
    if plan.requires_approval.is_empty() {
        "a visible approval to publish the proposed files".to_owned()
    } else {
        format!(
            "a visible approval for: {}",
            EffectClass::join(&plan.requires_approval)
        )
    }
}

fn apply_action(plan: &DurablePlan) -> String {
    format!(
        "show the plan's preview to a person; once approved, pipe {{\"request\": <this attempt's request>, \"plan\": <this attempt's plan>}} to 'aw capability apply --capability {} --approval {}'",
        plan.capability, plan.approval_digest
    )
}

/// An `apply` that passed every check that needs no disk: what the shell publishes.
#[derive(Debug)]
pub struct ApplyReady {
    /// The carried request.
    pub request: CapabilityRequest,
    /// The carried plan.
    pub plan: DurablePlan,
    /// Where its paths are relative to, and what the publish locks.
    pub root: PublishRoot,
    /// The numbers its artifacts take, checked under the lock.
    pub claims: Vec<NumberClaim>,
    resolution: CapabilityResolution,
    pin: SelectionPin,
    authorization: EffectAuthorization,
    granted: Vec<EffectClass>,
}

/// What [`apply_gate`] decided.
#[derive(Debug)]
pub enum ApplyGate {
    /// Refused: the blocked attempt to print (exit 0).
    Blocked(Box<Attempt>),
    /// Cleared: read the base (if the plan has one), lock, publish, then [`apply_finish`].
    Ready(Box<ApplyReady>),
}

/// The checks of `apply` that need no disk (§6.4 steps 1–4, with quirks 1 and 13 fixed): the
/// carried request, plan and approval are present (else a hard failure), the call is in a
/// workspace or the handler names an explicit root to publish into (quirk 6, fixed), the
/// request is still sealed, the operation is not `off`, it may have a durable plan at all (the
/// refusals of preparing one, again), the approval matches the plan re-sealed from its own
/// artifacts, every artifact path is inside the destinations the
/// handler allows for this request, and every class needing approval was granted.
pub fn apply_gate(call: &Call<'_>) -> CapabilityResult<ApplyGate> {
    let d = call.descriptor;
    let c = call.carried;
    let (Some(request), Some(plan), Some(approval)) = (&c.request, &c.plan, &call.flags.approval)
    else {
        let missing: Vec<&str> = [
            (c.request.is_none(), "the request on stdin"),
            (c.plan.is_none(), "the plan on stdin"),
            (call.flags.approval.is_none(), "--approval <digest>"),
        ]
        .into_iter()
        .filter_map(|(m, what)| m.then_some(what))
        .collect();
        return Err(CapabilityError::new(
            ErrorCode::CapabilityApplyIncomplete,
            format!("apply needs {}", missing.join(", ")),
            format!(
                "pipe {{\"request\": <request>, \"plan\": <plan>}} to 'aw capability apply --capability {} --approval <the plan's approval_digest>'",
                d.name
            ),
        ));
    };
    // Outside a workspace only a handler that names a root of its own can publish (quirk 6,
    // fixed: the design floor's explicit root).
    // A root the handler cannot name reads as the workspace: the destination check below
    // then reports why.
    let root = call
        .handler
        .publish_root(request)
        .unwrap_or(PublishRoot::Workspace);
    if call.workspace.is_none() && root == PublishRoot::Workspace {
        return Err(CapabilityError::new(
            ErrorCode::CapabilityWorkspaceRequired,
            "applying a durable effect needs a workspace, and none was found",
            "run apply inside the workspace, or create one with 'aw workspace-init' (the design floor also publishes into an explicit absolute root given with --target)",
        ));
    }
    if request.capability != d.name {
        return Err(args(
            format!(
                "the carried request is for '{}', not '{}'",
                request.capability, d.name
            ),
            "pass the --capability the request was prepared for",
        ));
    }
    let resolution = resolve(
        d,
        call.binding,
        call.inventory,
        None,
        Some(&request.operation),
    );
    let pin = pin_selection(&resolution, d);
    let op = operation_of(d, &request.operation)?;
    let authorization = authorize_effects(
        &op.effects,
        Reach {
            sensitive_sources: call.flags.sensitive_sources,
            scope_expanded: false,
        },
        &HostPolicy::default(),
        &[],
    );
    // The grant the approval gives: what the plan says needs approval, within what the
    // operation plans (the approval digest does not cover `requires_approval`).
    let granted: Vec<EffectClass> = plan
        .requires_approval
        .iter()
        .copied()
        .filter(|c| authorization.planned.contains(c))
        .collect();
    let checks = || -> CapabilityResult<()> {
        // Both digests: the plan and its approval quote `semantic_inputs_digest`, so it must
        // describe the request's own target and inputs (the ones that decide destinations).
        if !request.is_sealed()
            || request.computed_semantic_inputs_digest() != request.semantic_inputs_digest
        {
            return Err(CapabilityError::new(
                ErrorCode::CapabilityApprovalMismatch,
                "the carried request does not match its request_digest or its semantic_inputs_digest: it was edited after aw issued it",
                "send the request exactly as aw printed it",
            ));
        }
        check_not_off(&d.name, call.binding.state, op)?;
        check_durable(request, &authorization, &plan.artifacts)?;
        check_approval(plan, request, approval)?;
        if request.context.workspace.as_deref() != call.workspace {
            return Err(CapabilityError::new(
                ErrorCode::CapabilityApprovalMismatch,
                format!(
                    "the plan was prepared for {}, and apply runs in {}",
                    request.context.workspace.as_deref().map_or_else(
                        || "no workspace".to_owned(),
                        |w| format!("the workspace '{w}'")
                    ),
                    call.workspace.unwrap_or("no workspace")
                ),
                "apply the plan in the workspace it was prepared in",
            ));
        }
        check_destinations(plan, &call.handler.allowed_destinations(request)?)?;
        reserved_check(call, plan.artifacts.iter().map(|a| a.path.as_str()))?;
        check_granted(plan, &authorization.needs_preflight, &granted)?;
        check_overwrites(
            plan,
            &applied_classes(&authorization.self_authorized, &granted),
        )
    };
    let verdict = checks();
    let ready = ApplyReady {
        claims: call.handler.claims(request, &plan.artifacts),
        root,
        request: request.clone(),
        plan: plan.clone(),
        resolution,
        pin,
        authorization,
        granted,
    };
    match verdict {
        Ok(()) => Ok(ApplyGate::Ready(Box::new(ready))),
        Err(e) => apply_finish(call, ready, Err(e)).map(|a| ApplyGate::Blocked(Box::new(a))),
    }
}

/// `text` with its first letter lowercased when it opens a sentence (not an acronym or a code),
/// to follow a semicolon.
fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(a), Some(b)) if a.is_uppercase() && !b.is_uppercase() => a
            .to_lowercase()
            .chain(text[a.len_utf8()..].chars())
            .collect(),
        _ => text.to_owned(),
    }
}

/// How the publish went, as the shell reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct Unpublished {
    /// Why nothing (or not everything) was written.
    pub error: CapabilityError,
    /// What the rollback could not undo, in words, when it could not undo everything: the
    /// receipt's next action then says what to reconcile by hand.
    pub reconciliation: Option<String>,
}

/// What a successful publish did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Publication {
    /// It wrote these paths, in plan order.
    Written(Vec<String>),
    /// Every file already held exactly the plan's bytes: nothing was written. Applying a plan
    /// twice (rendering the same revision again, say) is a success, not a conflict.
    AlreadyPublished(Vec<String>),
    /// The plan was published before and what it made has moved on since (a package it
    /// created, updated later): nothing was written. The paths in plan order, and those that
    /// hold other bytes now.
    ChangedSince {
        /// Every path of the plan, in plan order.
        paths: Vec<String>,
        /// The ones that no longer hold the plan's bytes.
        changed: Vec<String>,
    },
}

/// The attempt of an `apply`: completed with the written paths, or blocked with the reason and
/// what, if anything, is left to reconcile (§6.4 steps 8–9).
pub fn apply_finish(
    call: &Call<'_>,
    ready: ApplyReady,
    published: Result<Vec<String>, CapabilityError>,
) -> CapabilityResult<Attempt> {
    apply_finish_with(
        call,
        ready,
        published
            .map(Publication::Written)
            .map_err(|error| Unpublished {
                error,
                reconciliation: None,
            }),
    )
}

/// [`apply_finish`], with what a failed rollback left behind, and a publish that found every
/// file already in place: completed, `output.value` `{written: [], already_published: [<paths>]}`,
/// no effect applied (nothing was), and a next action that says so.
pub fn apply_finish_with(
    call: &Call<'_>,
    ready: ApplyReady,
    published: Result<Publication, Unpublished>,
) -> CapabilityResult<Attempt> {
    let ApplyReady {
        request,
        plan: _,
        root: _,
        claims: _,
        resolution,
        pin,
        authorization,
        granted,
    } = ready;
    let mut b = match published {
        Ok(Publication::Written(written)) => {
            let applied = applied_classes(&authorization.self_authorized, &granted);
            let mut b = body(&request, &resolution, Outcome::Completed);
            b.output = Some(OperationOutput {
                value: Some(json!({ "written": written })),
                reference: None,
                completeness: Some(super::descriptor::Completeness::Complete),
            });
            b.effects.approved = authorization
                .needs_preflight
                .iter()
                .copied()
                .filter(|c| applied.contains(c))
                .collect();
            b.effects.applied = applied;
            b.next_action = "nothing left to do: the files are published".to_owned();
            b
        }
        Ok(Publication::AlreadyPublished(paths)) => {
            let mut b = body(&request, &resolution, Outcome::Completed);
            b.output = Some(OperationOutput {
                value: Some(json!({ "written": [], "already_published": paths })),
                reference: None,
                completeness: Some(super::descriptor::Completeness::Complete),
            });
            b.next_action = "nothing left to do: already published (every file already held exactly these bytes, so nothing was written)".to_owned();
            b
        }
        Ok(Publication::ChangedSince { paths, changed }) => {
            let mut b = body(&request, &resolution, Outcome::Completed);
            b.output = Some(OperationOutput {
                value: Some(
                    json!({ "written": [], "already_published": paths, "changed_since": changed }),
                ),
                reference: None,
                completeness: Some(super::descriptor::Completeness::Complete),
            });
            b.next_action = format!(
                "nothing left to do: this plan was published before, and what it made has changed since ({} hold other bytes now); nothing was written",
                changed.join(", ")
            );
            b
        }
        Err(Unpublished {
            mut error,
            reconciliation,
        }) => {
            error.action = match reconciliation {
                Some(by_hand) => by_hand,
                None => format!("no effect was applied; {}", lower_first(&error.action)),
            };
            blocked(&request, &resolution, error)
        }
    };
    b.effects.planned = authorization.planned.clone();
    finish(call, request, b, resolution, pin, None, None)
}
