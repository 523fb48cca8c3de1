//! The built-in floor of `design` (capability spec §10, package format v1): the handler that
//! answers when nothing better is installed, built from the domain rules of this module and the
//! semantic handshake of `capability::answer`.
//!
//! `validate` judges a package by identity and writes nothing: its manifest (every rule of
//! [`super::manifest`], references included) and its `DESIGN.md` (the content gate of
//! [`super::document`]), with the maturity the evidence supports. `create` and `update`
//! ([`super::create`], [`super::update`]) split the work as the rest of aw does: the agent
//! authors `DESIGN.md` and nothing else; aw owns the destination, the identity, the checks, the
//! manifest and the writing. So their first answer is a question (`needs_input` with the contract
//! and the semantic request), and the `validate` stage turns the agent's answer into a durable
//! result the dispatcher plans and a person approves.
//!
//! `render` and `record` ([`super::render_op`], [`super::record`]) ask nobody for anything: they
//! act on a package that validates, and aw writes their one file itself (a projection under
//! `renders/`, a review under `reviews/`), so their first attempt is already a durable plan.

use super::document::DesignDocument;
use super::index::{DesignIndex, DesignPackageEntry};
use super::maturity::{OPEN_QUESTIONS_GAP, package_maturity};
use super::output_root::{
    DESIGNS_DIR, OutputRoot, RootKind, explicit_root_inside_workspace, requested_target,
    resolve_output_root,
};
use super::receipt_fields::{DesignReceiptFields, MaturityFields};
use super::standing::text_input;
use super::{create, record, render_op, update};
use crate::capability::descriptor::Completeness;
use crate::capability::error::{CapabilityError, CapabilityResult};
use crate::capability::handler::{Handler, HandlerCall, HandlerResult, NumberClaim, PublishRoot};
use crate::capability::plan::Artifact;
use crate::capability::receipt::{DurableReference, OperationOutput, ValidationOutcome};
use crate::capability::request::{CapabilityRequest, RequestInput};
use crate::error_code::ErrorCode;
use aw_json::js::js_trim;
use serde_json::{Value, json};

/// The registered render adapter ids, sorted: what a `render` profile must be one of.
pub const ADAPTERS: [&str; 5] = [
    "claude-artifact",
    "claude-design",
    "figma",
    "portable-html",
    "stitch",
];

/// The id of the check of a package's manifest (and the references it makes).
pub const MANIFEST_VALIDATION: &str = "design-manifest";
/// The id of the check of a package's `DESIGN.md` (the content gate).
pub const CONTENT_VALIDATION: &str = "design-content";

/// The gap of a `validate` call whose `package` input is blank.
pub const PACKAGE_GAP: &str = "the identity of the package to validate, e.g. 'DES-001'";

pub use super::authoring::ANSWER_GAP;

/// The names the shell listed in one output root (for numbering a new package).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RootListing {
    /// The root, as [`OutputRoot::root`] gives it.
    pub root: String,
    /// Every entry name in it (none when it does not exist).
    pub names: Vec<String>,
}

/// The `design` floor. Built by the shell per invocation: `workspace` says whether the call
/// runs inside one, `index` is the design index the shell read from it
/// (`aw_workspace::capability::designs::read_index`; `None` reads as an index with no packages), and
/// `listing` the entries of the output root the request names ([`DesignFloor::listing_root`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DesignFloor {
    /// Whether the invocation runs inside a workspace.
    pub workspace: bool,
    /// The workspace's design index.
    pub index: Option<DesignIndex>,
    /// The entries of the request's output root.
    pub listing: Option<RootListing>,
    /// Which of the request's file sources exist (`create::file_locators`), when the shell
    /// looked: a missing one is recorded `unavailable`.
    pub present_sources: Option<Vec<String>>,
    /// "Now" as RFC 3339 UTC, from the clock the shell read: the `recorded_at` of a decision
    /// `record` writes (the core never reads the clock).
    pub now: Option<String>,
    /// The workspace the shell found holding the request's explicit root, when it is inside
    /// one: publishing there from outside would bypass that workspace's lock and numbering.
    pub root_workspace: Option<String>,
}

/// The value of the request's input `name`.
pub fn input<'r>(request: &'r CapabilityRequest, name: &str) -> Option<&'r Value> {
    request
        .inputs
        .iter()
        .find(|i| i.name == name)
        .map(|i| &i.value)
}

/// The action of a package nobody could find.
pub fn not_found_action() -> String {
    format!("see 'aw designs' for the identities published under {DESIGNS_DIR}/")
}

impl DesignFloor {
    /// A floor inside or outside a workspace, with the index read from it.
    pub fn new(workspace: bool, index: Option<DesignIndex>) -> Self {
        DesignFloor {
            workspace,
            index,
            listing: None,
            present_sources: None,
            now: None,
            root_workspace: None,
        }
    }

    /// The same floor, knowing "now" (RFC 3339 UTC) for the decisions `record` stamps.
    pub fn with_now(self, now: String) -> Self {
        DesignFloor {
            now: Some(now),
            ..self
        }
    }

    /// The same floor, knowing which of the request's file sources exist.
    pub fn with_present_sources(self, present: Vec<String>) -> Self {
        DesignFloor {
            present_sources: Some(present),
            ..self
        }
    }

    /// The same floor, knowing that the explicit root sits inside the workspace at `ws`.
    pub fn with_root_workspace(self, ws: String) -> Self {
        DesignFloor {
            root_workspace: Some(ws),
            ..self
        }
    }

    /// The same floor, with the entries of the output root.
    pub fn with_listing(self, listing: RootListing) -> Self {
        DesignFloor {
            listing: Some(listing),
            ..self
        }
    }

    /// The output root a request names, from the target flag, else its `target` input
    /// ([`requested_target`]), else the default.
    pub fn output_root(
        &self,
        request: &CapabilityRequest,
    ) -> Result<OutputRoot, super::failure::DesignFailure> {
        let target = requested_target(request.context.target.as_deref(), input(request, "target"));
        let root = resolve_output_root(self.workspace, target)?;
        match (&root, &self.root_workspace) {
            (OutputRoot::Explicit { root }, Some(ws)) => {
                Err(explicit_root_inside_workspace(root, ws))
            }
            _ => Ok(root),
        }
    }

    /// The output root whose entries the shell lists before building the floor, from the same
    /// values the request will carry (the target flag and the inputs); `None` when it names none.
    pub fn listing_root(
        workspace: bool,
        target: Option<&str>,
        inputs: &[RequestInput],
    ) -> Option<OutputRoot> {
        let target_input = inputs.iter().find(|i| i.name == "target").map(|i| &i.value);
        resolve_output_root(workspace, requested_target(target, target_input)).ok()
    }

    /// The names listed in `root` (none when the shell listed another root, or none at all).
    pub fn listing_of(&self, root: &str) -> &[String] {
        match &self.listing {
            Some(l) if l.root == root => &l.names,
            _ => &[],
        }
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
        validated(found, id)
    }
}

/// The completed `validate` result for a located package. `id` is the identity asked for: a
/// broken package located by its folder or its claimed id has no validated one.
///
/// Two validations: `design-manifest` (the manifest's rules and its references) and
/// `design-content` (the content gate of `DESIGN.md`). The maturity reported is the package's
/// own rule (see [`super::maturity`]) with what the two found as reasons.
fn validated(found: &DesignPackageEntry, id: &str) -> HandlerResult {
    let detail = |failures: &[super::failure::DesignFailure]| {
        (!failures.is_empty()).then(|| {
            failures
                .iter()
                .map(|f| format!("{}: {}", f.code, f.message))
                .collect::<Vec<_>>()
                .join("; ")
        })
    };
    let manifest = found.manifest.as_ref();
    let content_ok = found.content_failures.is_empty() && found.design_text.is_some();
    let mut content_failures = found.content_failures.clone();
    if found.design_text.is_none() && content_failures.is_empty() {
        content_failures.push(super::failure::DesignFailure::new(
            ErrorCode::DesignContentInvalid,
            format!("{}/DESIGN.md", found.path),
            "the package has no readable DESIGN.md",
            "restore the package's DESIGN.md",
        ));
    }
    let mut reasons: Vec<String> = Vec::new();
    if let Some(text) = &found.design_text
        && DesignDocument::read(text).has_open_questions()
    {
        reasons.push(OPEN_QUESTIONS_GAP.to_owned());
    }
    reasons.extend(
        content_failures
            .iter()
            .map(|f| format!("DESIGN.md does not pass the content gate: {}", f.message)),
    );
    reasons.extend(
        found
            .failures
            .iter()
            .map(|f| format!("the package does not validate ({}): {}", f.code, f.message)),
    );
    let requested = manifest.and_then(|m| m.maturity.requested);
    let sources = manifest.map(|m| m.sources.clone()).unwrap_or_default();
    let maturity = package_maturity(requested, &sources, reasons);
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
        sources,
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
    let failures: Vec<_> = found
        .failures
        .iter()
        .chain(&content_failures)
        .cloned()
        .collect();
    HandlerResult::Completed {
        output: OperationOutput {
            value: Some(json!({
                "design": fields,
                "ok": found.ok && content_ok,
                "failures": failures,
                "gaps": maturity.gaps,
            })),
            reference,
            completeness: Some(Completeness::Complete),
        },
        validations: vec![
            ValidationOutcome {
                id: MANIFEST_VALIDATION.to_owned(),
                passed: found.ok,
                detail: detail(&found.failures),
            },
            ValidationOutcome {
                id: CONTENT_VALIDATION.to_owned(),
                passed: content_ok,
                detail: detail(&content_failures),
            },
        ],
    }
}

impl Handler for DesignFloor {
    fn attempt(&self, call: &HandlerCall<'_>) -> HandlerResult {
        match call.operation.name.as_str() {
            "validate" => self.validate(call.request),
            "create" => create::attempt(self, call),
            "update" => update::attempt(self, call),
            "render" => render_op::attempt(self, call),
            "record" => record::attempt(self, call),
            other => HandlerResult::Blocked(CapabilityError::new(
                ErrorCode::CapabilityOperationUnknown,
                format!("the design floor has no operation '{other}'"),
                "name one of: create, update, validate, render, record",
            )),
        }
    }

    /// `create`: the output root (a package folder is made inside it; the claim pins which).
    /// `update`: the package's folder. `render`: the package's `renders/`; `record`: its
    /// `reviews/`.
    fn allowed_destinations(&self, request: &CapabilityRequest) -> CapabilityResult<Vec<String>> {
        match request.operation.as_str() {
            "create" => match self.output_root(request).map_err(CapabilityError::from)? {
                OutputRoot::Workspace { root, .. } => Ok(vec![root]),
                OutputRoot::Explicit { .. } => Ok(vec![".".to_owned()]),
            },
            "update" => {
                let id = text_input(request, "package").unwrap_or_default();
                update::current(self, id).map(|c| vec![c.entry.path.clone()])
            }
            "render" => {
                render_op::destinations(self, text_input(request, "package").unwrap_or_default())
            }
            "record" => {
                record::destinations(self, text_input(request, "package").unwrap_or_default())
            }
            other => Err(CapabilityError::new(
                ErrorCode::CapabilityOperationUnknown,
                format!("the design floor has no operation '{other}'"),
                "name one of: create, update, validate, render, record",
            )),
        }
    }

    /// A `create` outside a workspace publishes into its explicit root; everything else into
    /// the workspace. This names where the plan would go; whether it may go there (an explicit
    /// root inside a workspace may not) is the destinations' refusal, reported as a blocked
    /// receipt.
    fn publish_root(&self, request: &CapabilityRequest) -> CapabilityResult<PublishRoot> {
        if request.operation != "create" {
            return Ok(PublishRoot::Workspace);
        }
        let target = requested_target(request.context.target.as_deref(), input(request, "target"));
        match resolve_output_root(self.workspace, target).map_err(CapabilityError::from)? {
            OutputRoot::Workspace { .. } => Ok(PublishRoot::Workspace),
            OutputRoot::Explicit { root } => Ok(PublishRoot::Explicit(root)),
        }
    }

    fn claims(&self, request: &CapabilityRequest, artifacts: &[Artifact]) -> Vec<NumberClaim> {
        match (request.operation.as_str(), self.output_root(request)) {
            ("create", Ok(root)) => create::claims(&root, artifacts),
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
#[path = "floor_tests.rs"]
mod tests;
