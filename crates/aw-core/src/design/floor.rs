//! The built-in floor of `design` (capability spec §10.1–§10.2): the handler that answers when
//! nothing better is installed, built from the domain rules of this module and the semantic
//! handshake of `capability::answer`.
//!
//! `validate` judges a package by identity and writes nothing. The authoring operations
//! (`create`, `update`, `render`, `record`) split the work as the rest of aw does: aw owns the
//! destination, the limits, the checks and the writing; the agent authors the content. So
//! their first answer is a question (`needs_input` with the contract and the semantic request),
//! and the `validate` stage turns the agent's answer into a durable result the dispatcher plans
//! and a person approves.
//!
//! `record`'s precondition checks that the package exists and validates; whether a catalogued
//! rendition is stale against the bytes it names is not checked yet (the minimal package model
//! has no rendition catalog).

use super::index::{DesignIndex, DesignPackageEntry};
use super::output_root::{DESIGNS_DIR, RootKind, resolve_output_root};
use super::receipt_fields::{DesignReceiptFields, MaturityFields};
use super::sources::{
    Maturity, attained_maturity, declared_locators, floor_source, report_sources,
};
use crate::capability::answer::{Parsed, SemanticRequest, parse};
use crate::capability::descriptor::Completeness;
use crate::capability::error::{CapabilityError, CapabilityResult};
use crate::capability::handler::{Handler, HandlerCall, HandlerResult, Verb};
use crate::capability::receipt::{DurableReference, OperationOutput, ValidationOutcome};
use crate::capability::request::{CapabilityRequest, input_digest};
use crate::error_code::ErrorCode;
use aw_json::js::{js_string, js_trim};
use serde_json::{Value, json};

/// The registered render adapter ids, sorted: what a `render` profile must be one of.
pub const ADAPTERS: [&str; 5] = [
    "claude-artifact",
    "claude-design",
    "figma",
    "portable-html",
    "stitch",
];

/// The id of the one check `validate` reports.
pub const MANIFEST_VALIDATION: &str = "design-manifest";

/// The gap of a `validate` call whose `package` input is blank.
pub const PACKAGE_GAP: &str = "the identity of the package to validate, e.g. 'DES-001'";

/// The gap of an authoring `validate` stage that carried no answer.
pub const ANSWER_GAP: &str = "the authored answer, as one JSON object on stdin";

/// What every authoring contract ends with: the shape of a valid answer.
const CONTRACT_TAIL: &str = "Answer with one JSON object carrying 'version', 'operation', \
'input_digest', 'state': 'proposed' and 'artifacts': [{path, content}]. Every 'path' is relative \
to the workspace and falls inside the allowed destinations. No artifact invents a format: the \
formats of the UI Design Package v1 are the only ones accepted.";

/// The authoring contract of an operation: its own sentence, then [`CONTRACT_TAIL`].
pub fn contract(operation: &str) -> String {
    let own = match operation {
        "create" => "Author the FIRST revision of the package from the declared sources.",
        "update" => {
            "Author the NEXT revision on top of the declared base. Do not rewrite revisions that are already sealed."
        }
        "render" => {
            "Regenerate the projections of the named revision. A projection is not normative and is never sealed."
        }
        "record" => {
            "Seal the governance decision on the named revision, without touching the package's content."
        }
        _ => "",
    };
    format!("{own} {CONTRACT_TAIL}").trim().to_owned()
}

/// The `design` floor. Built by the shell per invocation: `workspace` says whether the call
/// runs inside one, and `index` is the design index the shell read from it
/// (`aw_workspace::designs::read_index`; `None` reads as an index with no packages).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DesignFloor {
    /// Whether the invocation runs inside a workspace.
    pub workspace: bool,
    /// The workspace's design index.
    pub index: Option<DesignIndex>,
}

fn input<'r>(request: &'r CapabilityRequest, name: &str) -> Option<&'r Value> {
    request
        .inputs
        .iter()
        .find(|i| i.name == name)
        .map(|i| &i.value)
}

fn not_found_action() -> String {
    format!("see 'aw designs' for the identities published under {DESIGNS_DIR}/")
}

impl DesignFloor {
    /// A floor inside or outside a workspace, with the index read from it.
    pub fn new(workspace: bool, index: Option<DesignIndex>) -> Self {
        DesignFloor { workspace, index }
    }

    /// §10.1: judge a package by identity.
    fn validate(&self, request: &CapabilityRequest) -> HandlerResult {
        let id = match input(request, "package") {
            Some(Value::String(s)) if !js_trim(s).is_empty() => js_trim(s),
            _ => {
                return HandlerResult::NeedsInput {
                    gaps: vec![PACKAGE_GAP.to_owned()],
                    output: None,
                    semantic: None,
                };
            }
        };
        if !self.workspace {
            return HandlerResult::Blocked(CapabilityError::new(
                ErrorCode::DesignWorkspaceAbsent,
                "there is no workspace to look for the package in",
                format!("run the validation from the workspace that holds {DESIGNS_DIR}/"),
            ));
        }
        let Some(found) = self.index.as_ref().and_then(|i| i.locate(id)) else {
            return HandlerResult::Blocked(CapabilityError::new(
                ErrorCode::DesignPackageNotFound,
                format!("no package has the identity {id}"),
                not_found_action(),
            ));
        };
        validated(found, id, Maturity::requested(input(request, "maturity")))
    }

    /// §10.2 step 2: what must hold before an operation may even ask for content.
    fn precondition(
        &self,
        operation: &str,
        request: &CapabilityRequest,
    ) -> Option<CapabilityError> {
        if operation == "record"
            && self.workspace
            && let Some(Value::String(s)) = input(request, "package")
            && !js_trim(s).is_empty()
        {
            let id = js_trim(s);
            if self.index.as_ref().and_then(|i| i.resolve(id)).is_none() {
                return Some(CapabilityError::new(
                    ErrorCode::DesignPackageNotFound,
                    format!("no valid package has the identity {id}"),
                    not_found_action(),
                ));
            }
        }
        if operation == "render" {
            // A profile is named by id; JavaScript's `String(profile ?? "")`.
            let profile = match input(request, "profile") {
                None | Some(Value::Null) => String::new(),
                Some(v) => js_string(v),
            };
            if !ADAPTERS.contains(&profile.as_str()) {
                return Some(CapabilityError::new(
                    ErrorCode::DesignAdapterUnknown,
                    format!("there is no renderer or adapter profile '{profile}'"),
                    format!("the registered profiles are: {}", ADAPTERS.join(", ")),
                ));
            }
        }
        None
    }

    /// §10.2: the authoring operations, through the semantic handshake.
    fn author(&self, call: &HandlerCall<'_>) -> HandlerResult {
        let request = call.request;
        let operation = call.operation.name.as_str();
        let root = match resolve_output_root(self.workspace, request.context.target.as_deref()) {
            Ok(root) => root,
            Err(f) => return HandlerResult::Blocked(f.into()),
        };
        if let Some(e) = self.precondition(operation, request) {
            return HandlerResult::Blocked(e);
        }
        let sources: Vec<_> = declared_locators(input(request, "sources"))
            .iter()
            .map(|l| floor_source("sources", l))
            .collect();
        let report = report_sources(&sources, operation);
        if let Some(f) = report.failures.first() {
            return HandlerResult::Blocked(f.clone().into());
        }
        let semantic = SemanticRequest::new(
            format!("{}.{}", request.capability, request.operation),
            input_digest(&request.inputs),
            vec![root.root().to_owned()],
            contract(operation),
        );
        if call.verb != Verb::Validate {
            return HandlerResult::NeedsInput {
                gaps: vec![
                    semantic.contract.clone(),
                    format!(
                        "allowed destinations: {}",
                        semantic.allowed_destinations.join(", ")
                    ),
                ],
                output: None,
                semantic: Some(semantic),
            };
        }
        let artifacts = match parse(call.answer, &semantic) {
            Err(e) => return HandlerResult::Blocked(e),
            Ok(Parsed::Missing) => {
                return HandlerResult::NeedsInput {
                    gaps: vec![ANSWER_GAP.to_owned()],
                    output: None,
                    semantic: Some(semantic),
                };
            }
            Ok(Parsed::Proposed(artifacts)) => artifacts,
        };
        // The gate's verdict needs the package on disk: a proposal never claims more than
        // `outline`, which is what keeps a partial result from being promoted.
        let requested = Maturity::requested(input(request, "maturity"));
        let maturity = attained_maturity(requested, Maturity::Outline, &report);
        let fields = DesignReceiptFields {
            package: match input(request, "package") {
                Some(Value::String(s)) => Some(s.clone()),
                _ => None,
            },
            baseline: None,
            path: Some(root.root().to_owned()),
            root: Some(root.kind()),
            indexable: root.is_indexable(),
            maturity: MaturityFields {
                requested,
                attained: maturity.attained,
            },
            sources: report.sources,
            renditions: Vec::new(),
        };
        let paths: Vec<&str> = artifacts.iter().map(|a| a.path.as_str()).collect();
        let value = json!({"design": fields, "artifacts": paths, "gaps": maturity.gaps});
        HandlerResult::Durable {
            artifacts,
            base: None,
            output: OperationOutput {
                value: Some(value),
                reference: None,
                // Nothing is published until the plan is applied.
                completeness: Some(Completeness::Partial),
            },
        }
    }
}

/// The completed `validate` result for a located package. `id` is the identity asked for: a
/// broken package located by its folder or its claimed id has no validated one.
fn validated(found: &DesignPackageEntry, id: &str, requested: Option<Maturity>) -> HandlerResult {
    let detail = (!found.ok).then(|| {
        found
            .failures
            .iter()
            .map(|f| format!("{}: {}", f.code, f.message))
            .collect::<Vec<_>>()
            .join("; ")
    });
    let report = report_sources(&[], id);
    let gate = if found.ok {
        Maturity::Handoff
    } else {
        Maturity::Outline
    };
    let maturity = attained_maturity(requested, gate, &report);
    let fields = DesignReceiptFields {
        package: Some(found.id.clone().unwrap_or_else(|| id.to_owned())),
        baseline: found.current_baseline.clone(),
        path: Some(found.path.clone()),
        root: Some(RootKind::Workspace),
        indexable: true,
        maturity: MaturityFields {
            requested,
            attained: maturity.attained,
        },
        sources: Vec::new(),
        renditions: Vec::new(),
    };
    let reference = match (&found.id, &found.current_baseline) {
        (Some(id), Some(b)) => Some(DurableReference {
            id: id.clone(),
            revision: Some(b.revision),
            digest: b.digest.clone(),
            locator: found.path.clone(),
        }),
        _ => None,
    };
    HandlerResult::Completed {
        output: OperationOutput {
            value: Some(json!({"design": fields, "ok": found.ok, "failures": found.failures})),
            reference,
            completeness: Some(Completeness::Complete),
        },
        validations: vec![ValidationOutcome {
            id: MANIFEST_VALIDATION.to_owned(),
            passed: found.ok,
            detail,
        }],
    }
}

impl Handler for DesignFloor {
    fn attempt(&self, call: &HandlerCall<'_>) -> HandlerResult {
        if call.operation.name == "validate" {
            self.validate(call.request)
        } else {
            self.author(call)
        }
    }

    fn allowed_destinations(&self, request: &CapabilityRequest) -> CapabilityResult<Vec<String>> {
        resolve_output_root(self.workspace, request.context.target.as_deref())
            .map(|root| vec![root.root().to_owned()])
            .map_err(CapabilityError::from)
    }
}

#[cfg(test)]
#[path = "floor_tests.rs"]
mod tests;
