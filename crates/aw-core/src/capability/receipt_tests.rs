//! Unit tests of `receipt`: emission order, each invariant, correlation, the completeness gate,
//! persistence and the workspace requirement.

use super::*;
use crate::capability::builtin::design_descriptor;
use crate::capability::descriptor::{Descriptor, Route};
use crate::capability::request::{Caller, Invocation, Policy, RequestInput};
use serde_json::json;

const ID: &str = "0f8fad5b-d9cb-469f-a165-70867728950e";

fn design() -> Descriptor {
    design_descriptor().unwrap()
}

fn invocation(context: RequestContext) -> Invocation {
    Invocation {
        operation: "validate".to_owned(),
        caller: Caller {
            route: Route::Direct,
            host: "unknown".to_owned(),
            flow: None,
        },
        context,
        inputs: vec![RequestInput::from_flag("package", "docs/designs/001")],
        policy: Policy::default(),
    }
}

fn request() -> CapabilityRequest {
    CapabilityRequest::first_attempt(
        &design(),
        ID.to_owned(),
        invocation(RequestContext::default()),
    )
    .unwrap()
}

fn error() -> CapabilityError {
    CapabilityError::new(ErrorCode::CapabilityOperationUnknown, "it broke", "fix it")
}

fn output(completeness: Option<Completeness>) -> Option<OperationOutput> {
    Some(OperationOutput {
        value: Some(json!({"ok": true})),
        reference: None,
        completeness,
    })
}

/// A valid body for each outcome.
fn body(outcome: Outcome) -> ReceiptBody {
    ReceiptBody {
        outcome,
        floor: true,
        selection: Vec::new(),
        inputs: InputDisposition::all_used(&request()),
        output: match outcome {
            Outcome::Completed => output(Some(Completeness::Complete)),
            _ => None,
        },
        validations: Vec::new(),
        effects: Effects::default(),
        degradations: Vec::new(),
        gaps: match outcome {
            Outcome::NeedsInput => vec!["the authored answer".to_owned()],
            _ => Vec::new(),
        },
        error: match outcome {
            Outcome::Blocked | Outcome::Failed => Some(error()),
            _ => None,
        },
        next_action: "nothing left to do".to_owned(),
    }
}

fn refused(b: ReceiptBody) -> ErrorCode {
    CapabilityReceipt::build(&request(), &design(), b)
        .unwrap_err()
        .code
}

#[test]
fn every_outcome_correlates_with_its_request() {
    let r = request();
    for outcome in Outcome::ALL {
        let receipt = CapabilityReceipt::build(&r, &design(), body(outcome)).unwrap();
        let v = receipt.to_value();
        assert_eq!(v["outcome"], outcome.as_str());
        assert_eq!(v["invocation_id"], r.invocation_id.as_str());
        assert_eq!(v["request_digest"], r.request_digest.as_str());
        assert_eq!(
            v["semantic_inputs_digest"],
            r.semantic_inputs_digest.as_str()
        );
        assert!(!v["next_action"].as_str().unwrap().is_empty());
    }
}

#[test]
fn keys_come_in_emission_order() {
    let v = CapabilityReceipt::build(&request(), &design(), body(Outcome::Completed))
        .unwrap()
        .to_value();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "protocol_version",
            "invocation_id",
            "attempt",
            "capability",
            "operation",
            "request_digest",
            "semantic_inputs_digest",
            "parent_request_digest",
            "outcome",
            "floor",
            "selection",
            "inputs",
            "output",
            "validations",
            "effects",
            "degradations",
            "gaps",
            "error",
            "next_action",
        ]
    );
    let output: Vec<&String> = v["output"].as_object().unwrap().keys().collect();
    assert_eq!(output, ["value", "reference", "completeness"]);
    let effects: Vec<&String> = v["effects"].as_object().unwrap().keys().collect();
    assert_eq!(effects, ["planned", "approved", "applied"]);
    assert_eq!(
        v["inputs"][0],
        json!({"name": "package", "used": true, "reason": null,
               "provenance": {"kind": "text", "origin": "caller", "seal": null, "sensitivity": "public"}})
    );
    let blocked = CapabilityReceipt::build(&request(), &design(), body(Outcome::Blocked))
        .unwrap()
        .to_value();
    assert_eq!(
        blocked["error"],
        json!({"code": "CAPABILITY_OPERATION_UNKNOWN", "message": "it broke", "action": "fix it"})
    );
}

#[test]
fn each_invariant_refuses_in_order() {
    let mut b = body(Outcome::Completed);
    b.next_action = " \n".to_owned();
    assert_eq!(refused(b), ErrorCode::CapabilityReceiptNoNextAction);

    let mut b = body(Outcome::Completed);
    b.output = None;
    assert_eq!(refused(b), ErrorCode::CapabilityCompletedWithoutOutput);
    let mut b = body(Outcome::Completed);
    b.output = output(None);
    assert_eq!(refused(b), ErrorCode::CapabilityCompletedWithoutOutput);
    let mut b = body(Outcome::Completed);
    b.error = Some(error());
    assert_eq!(refused(b), ErrorCode::CapabilityCompletedWithError);

    for outcome in [Outcome::Failed, Outcome::Blocked] {
        let mut b = body(outcome);
        b.error = None;
        assert_eq!(refused(b), ErrorCode::CapabilityFailureWithoutError);
    }
    let mut b = body(Outcome::NeedsInput);
    b.gaps.clear();
    assert_eq!(refused(b), ErrorCode::CapabilityNeedsInputWithoutGaps);
    let mut b = body(Outcome::Cancelled);
    b.gaps.push("x".to_owned());
    assert_eq!(refused(b), ErrorCode::CapabilityGapsWithoutNeedsInput);

    let mut b = body(Outcome::Completed);
    b.inputs[0].used = false;
    assert_eq!(
        refused(b.clone()),
        ErrorCode::CapabilityInputDiscardedSilently
    );
    b.inputs[0].reason = Some("  ".to_owned());
    assert_eq!(
        refused(b.clone()),
        ErrorCode::CapabilityInputDiscardedSilently
    );
    b.inputs[0].reason = Some("the profile made it irrelevant".to_owned());
    assert!(CapabilityReceipt::build(&request(), &design(), b).is_ok());

    let mut b = body(Outcome::Completed);
    b.effects.applied = vec![EffectClass::LocalAdditive];
    assert_eq!(refused(b.clone()), ErrorCode::CapabilityEffectUnplanned);
    b.effects.planned = vec![EffectClass::LocalAdditive];
    b.effects.approved = vec![EffectClass::NetworkExternal];
    assert_eq!(refused(b.clone()), ErrorCode::CapabilityEffectUnplanned);
    b.effects.planned.push(EffectClass::NetworkExternal);
    assert!(CapabilityReceipt::build(&request(), &design(), b).is_ok());

    let mut d = design();
    d.degradations
        .retain(|x| x.cause != DegradationCause::DigestChanged);
    let mut b = body(Outcome::Completed);
    b.degradations = vec![ReceiptDegradation {
        cause: DegradationCause::DigestChanged,
        loss: "the improvement".to_owned(),
    }];
    let e = CapabilityReceipt::build(&request(), &d, b.clone()).unwrap_err();
    assert_eq!(e.code, ErrorCode::CapabilityDegradationUndeclared);
    assert!(CapabilityReceipt::build(&request(), &design(), b.clone()).is_ok());
    b.degradations[0].loss = String::new();
    assert_eq!(refused(b), ErrorCode::CapabilityDegradationWithoutLoss);

    let mut b = body(Outcome::Completed);
    b.selection = vec![SelectedInstance {
        name: "design-plus".to_owned(),
        scope: "/home/u/.claude/skills".to_owned(),
        locator: "capability/workline-capability.json".to_owned(),
        version: Some("1.0.0".to_owned()),
        digest: "a".repeat(64),
        order: 1,
    }];
    assert_eq!(refused(b.clone()), ErrorCode::CapabilityFloorWithSelection);
    b.floor = false;
    assert!(CapabilityReceipt::build(&request(), &design(), b).is_ok());

    // First failure wins: a blank next action is reported before a missing output.
    let mut b = body(Outcome::Completed);
    b.next_action.clear();
    b.output = None;
    assert_eq!(refused(b), ErrorCode::CapabilityReceiptNoNextAction);
}

#[test]
fn a_child_receipt_chains_to_its_parent() {
    let parent = request();
    let child =
        CapabilityRequest::continue_from(&parent, &design(), invocation(RequestContext::default()))
            .unwrap();
    let r = CapabilityReceipt::build(&child, &design(), body(Outcome::NeedsInput)).unwrap();
    let c = r.correlation();
    assert_eq!(c.invocation_id, parent.invocation_id);
    assert_eq!(c.attempt, parent.attempt + 1);
    assert_eq!(
        c.parent_request_digest.as_deref(),
        Some(parent.request_digest.as_str())
    );
}

#[test]
fn completeness_is_separate_from_the_outcome() {
    let mut b = body(Outcome::Completed);
    b.output = output(Some(Completeness::Partial));
    let partial = CapabilityReceipt::build(&request(), &design(), b).unwrap();
    assert_eq!(partial.body().outcome, Outcome::Completed);
    assert!(!partial.satisfies_completeness_gate());
    let complete =
        CapabilityReceipt::build(&request(), &design(), body(Outcome::Completed)).unwrap();
    assert!(complete.satisfies_completeness_gate());
    let mut b = body(Outcome::NeedsInput);
    b.output = output(Some(Completeness::Complete));
    let asking = CapabilityReceipt::build(&request(), &design(), b).unwrap();
    assert!(!asking.satisfies_completeness_gate());
}

#[test]
fn persistence_is_registry_only_for_durable_results() {
    let read_only =
        CapabilityReceipt::build(&request(), &design(), body(Outcome::Completed)).unwrap();
    assert_eq!(read_only.persistence(), Persistence::None);

    let mut b = body(Outcome::Completed);
    b.effects.planned = vec![EffectClass::ReadOnly];
    b.effects.applied = vec![EffectClass::ReadOnly];
    let still = CapabilityReceipt::build(&request(), &design(), b).unwrap();
    assert_eq!(still.persistence(), Persistence::None);

    let mut b = body(Outcome::Completed);
    b.effects.planned = vec![EffectClass::LocalAdditive];
    b.effects.applied = vec![EffectClass::LocalAdditive];
    let written = CapabilityReceipt::build(&request(), &design(), b).unwrap();
    assert_eq!(written.persistence(), Persistence::Registry);

    let mut b = body(Outcome::Completed);
    b.output = Some(OperationOutput {
        value: None,
        reference: Some(DurableReference {
            id: "DES-001".to_owned(),
            revision: Some(1),
            digest: format!("sha256:{}", "b".repeat(64)),
            locator: "docs/designs/001-design-alta".to_owned(),
        }),
        completeness: Some(Completeness::Complete),
    });
    let referenced = CapabilityReceipt::build(&request(), &design(), b).unwrap();
    assert_eq!(referenced.persistence(), Persistence::Registry);
    assert_eq!(Persistence::Registry.as_str(), "registry");
}

#[test]
fn the_workspace_requirement_fails_only_for_required_outside_a_workspace() {
    let d = design();
    assert!(
        d.operations
            .iter()
            .all(|o| o.workspace != WorkspaceNeed::Required),
        "no design operation needs a workspace"
    );
    let mut op = d.operation("validate").unwrap().clone();
    let outside = RequestContext::default();
    let inside = RequestContext {
        workspace: Some("/ws".to_owned()),
        ..RequestContext::default()
    };
    assert!(check_workspace_requirement(&op, &outside).is_ok());
    op.workspace = WorkspaceNeed::Required;
    let e = check_workspace_requirement(&op, &outside).unwrap_err();
    assert_eq!(e.code, ErrorCode::CapabilityWorkspaceRequired);
    assert!(!e.action.trim().is_empty());
    assert!(check_workspace_requirement(&op, &inside).is_ok());
    op.workspace = WorkspaceNeed::Standalone;
    assert!(check_workspace_requirement(&op, &outside).is_ok());
}
