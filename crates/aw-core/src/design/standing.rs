//! What `render` and `record` share: both act on a package that already exists *and validates*,
//! and neither asks an agent for anything. aw writes their one file itself (a projection, a
//! review), so the attempt is a durable plan straight away, at `prepare`.
//!
//! The precondition is the whole package, not only its manifest: a projection of a document
//! that fails the content gate, or a decision on a package whose references do not resolve,
//! would put aw's name on something `validate` refuses.

use super::floor::{DesignFloor, input, not_found_action};
use super::index::DesignPackageEntry;
use super::output_root::{DESIGNS_DIR, RootKind};
use super::receipt_fields::{DesignReceiptFields, MaturityFields};
use super::update::{Current, current};
use crate::capability::error::CapabilityError;
use crate::capability::handler::HandlerResult;
use crate::capability::request::CapabilityRequest;
use crate::error_code::ErrorCode;
use aw_json::js::js_trim;
use serde_json::Value;

/// The value of the text input `name`, trimmed, when it is a non-blank string.
pub fn text_input<'r>(request: &'r CapabilityRequest, name: &str) -> Option<&'r str> {
    match input(request, name) {
        Some(Value::String(s)) if !js_trim(s).is_empty() => Some(js_trim(s)),
        _ => None,
    }
}

/// The package identity of a `render` or `record` request, or the attempt that stops it: a
/// blank `package` asks for it (`gap`), and no workspace means no index to find it in
/// (`DESIGN_WORKSPACE_ABSENT`).
pub fn package_id<'r>(
    floor: &DesignFloor,
    request: &'r CapabilityRequest,
    gap: &str,
    what: &str,
) -> Result<&'r str, Box<HandlerResult>> {
    let Some(id) = text_input(request, "package") else {
        return Err(Box::new(HandlerResult::NeedsInput {
            gaps: vec![gap.to_owned()],
            output: None,
            semantic: None,
        }));
    };
    if !floor.workspace {
        return Err(Box::new(HandlerResult::Blocked(CapabilityError::new(
            ErrorCode::DesignWorkspaceAbsent,
            format!("there is no workspace to find the package to {what} in"),
            format!("run it from the workspace that holds {DESIGNS_DIR}/"),
        ))));
    }
    Ok(id)
}

/// The package `id` names, when it validates whole: a validated manifest and a readable
/// `DESIGN.md` (else `DESIGN_PACKAGE_NOT_FOUND`, saying what is wrong with a broken package it
/// can match), every reference resolving and `DESIGN.md` passing the content gate (else the
/// first failure's own code, every failure in the message). `what` is the operation's verb, for
/// the message.
pub fn valid_package<'i>(
    floor: &'i DesignFloor,
    id: &str,
    what: &str,
) -> Result<Current<'i>, CapabilityError> {
    let cur = current(floor, id)?;
    let failures: Vec<_> = cur
        .entry
        .failures
        .iter()
        .chain(&cur.entry.content_failures)
        .collect();
    if let Some(first) = failures.first() {
        return Err(CapabilityError::new(
            first.code,
            format!(
                "{id} does not validate, so aw will not {what} it: {}",
                failures
                    .iter()
                    .map(|f| format!("{}: {}", f.code, f.message))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            format!(
                "repair the package (see 'aw capability prepare --capability design --operation validate --input package={id}'), publishing a new revision with update when DESIGN.md must change"
            ),
        ));
    }
    Ok(cur)
}

/// The folder of the package with the validated identity `id`, for the allowed destinations of
/// `render` and `record` at `apply` (the package must still be there; it need not validate any
/// more, since the plan's one file is already what a person approved).
pub fn package_folder<'i>(floor: &'i DesignFloor, id: &str) -> Result<&'i str, CapabilityError> {
    floor
        .index
        .as_ref()
        .and_then(|i| i.resolve(id))
        .map(|e| e.path.as_str())
        .ok_or_else(|| {
            CapabilityError::new(
                ErrorCode::DesignPackageNotFound,
                format!("no valid package has the identity {id}"),
                not_found_action(),
            )
        })
}

/// The receipt fields of an operation on the package `cur`: its identity, current baseline,
/// folder, maturity and sources as its manifest seals them, and `renditions`.
pub fn fields(cur: &Current<'_>, renditions: Vec<String>) -> DesignReceiptFields {
    let entry: &DesignPackageEntry = cur.entry;
    DesignReceiptFields {
        package: Some(cur.manifest.id.clone()),
        baseline: Some(cur.manifest.baseline()),
        path: Some(entry.path.clone()),
        root: Some(RootKind::Workspace),
        indexable: true,
        maturity: MaturityFields {
            requested: cur.manifest.maturity.requested,
            attained: cur.manifest.maturity.attained,
        },
        sources: cur.manifest.sources.clone(),
        renditions,
    }
}
