//! `design.update` (package format v1): the next revision of an indexed package, against a
//! compare-and-swap base. The `base` input (`DES-NNN@rN`) says which revision the agent authors
//! on top of; a base that is not the current revision is refused (`DESIGN_BASE_STALE`) before
//! anyone authors anything, and the plan carries the manifest's text as its base so `apply`
//! refuses it again, under the lock, if another revision was published meanwhile. The plan
//! archives the current `DESIGN.md` under `revisions/`, replaces `DESIGN.md` and the manifest
//! (both `overwrite: true`: `mutate_overwrite`, which needs the approval).

use super::authoring::{authored_document, contract, question, request_for};
use super::create::{declared_sources, package_standing};
use super::floor::{DesignFloor, input, not_found_action};
use super::index::DesignPackageEntry;
use super::manifest::{
    DESIGN_DOC_FILE, Manifest, Revision, archive_path, is_package_id, next_manifest,
};
use super::output_root::{DESIGNS_DIR, RootKind};
use super::receipt_fields::{DesignReceiptFields, MaturityFields};
use super::sources::{Maturity, report_sources};
use super::standing::text_input;
use crate::capability::descriptor::Completeness;
use crate::capability::error::CapabilityError;
use crate::capability::handler::{HandlerCall, HandlerResult, Verb};
use crate::capability::plan::{Artifact, Base, base_digest};
use crate::capability::receipt::{DurableReference, OperationOutput};
use crate::error_code::ErrorCode;
use serde_json::json;

/// The gap of an `update` whose `package` is blank.
pub const PACKAGE_GAP: &str = "the identity of the package to update, e.g. 'DES-001'";

/// The package an update works on, with everything the plan is made from.
pub struct Current<'i> {
    /// Its index entry.
    pub entry: &'i DesignPackageEntry,
    /// Its validated manifest.
    pub manifest: &'i Manifest,
    /// The manifest's text (the plan's base).
    pub manifest_text: &'i str,
    /// The current `DESIGN.md` (archived by the plan).
    pub design_text: &'i str,
}

/// The package `id` resolves to, for an update: a validated manifest and a readable
/// `DESIGN.md`, else `DESIGN_PACKAGE_NOT_FOUND`.
pub fn current<'i>(floor: &'i DesignFloor, id: &str) -> Result<Current<'i>, CapabilityError> {
    let index = floor.index.as_ref();
    let found = index.and_then(|i| i.resolve(id));
    let why = match (found, index.and_then(|i| i.locate(id))) {
        (Some(entry), _) => match (&entry.manifest, &entry.manifest_text, &entry.design_text) {
            (Some(manifest), Some(manifest_text), Some(design_text)) => {
                return Ok(Current {
                    entry,
                    manifest,
                    manifest_text,
                    design_text,
                });
            }
            _ => format!("the {DESIGN_DOC_FILE} of {id} cannot be read as UTF-8 text"),
        },
        (None, Some(broken)) => format!(
            "{id} is at '{}' and its manifest does not validate: {}",
            broken.path,
            broken
                .failures
                .iter()
                .map(|f| f.message.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        ),
        (None, None) => format!("no package has the identity {id}"),
    };
    Err(CapabilityError::new(
        ErrorCode::DesignPackageNotFound,
        why,
        not_found_action(),
    ))
}

/// Checks the `base` input against the current revision: `DES-NNN@rN` of this package
/// (`DESIGN_BASE_INVALID`), and N the current revision (`DESIGN_BASE_STALE`, naming it).
pub fn check_base(id: &str, base: &str, current_revision: u64) -> Result<(), CapabilityError> {
    let current = format!("{id}@r{current_revision}");
    let parsed: Option<(&str, u64)> = base.split_once("@r").and_then(|(pid, r)| {
        let digits = !r.is_empty() && r.bytes().all(|b| b.is_ascii_digit()) && !r.starts_with('0');
        (is_package_id(pid) && digits)
            .then(|| r.parse().ok())
            .flatten()
            .map(|n| (pid, n))
    });
    let Some((pid, revision)) = parsed.filter(|(pid, _)| *pid == id) else {
        let whose = parsed.map_or_else(String::new, |(pid, _)| format!(" (it names {pid})"));
        return Err(CapabilityError::new(
            ErrorCode::DesignBaseInvalid,
            format!("the base '{base}' is not a revision of {id}{whose}"),
            format!("pass the revision the new one builds on: --input base={current}"),
        ));
    };
    if revision != current_revision {
        return Err(CapabilityError::new(
            ErrorCode::DesignBaseStale,
            format!(
                "the base is {pid}@r{revision} and the package's current revision is {current}"
            ),
            format!(
                "read revision {current_revision} of the package, author on top of it, and prepare again with --input base={current}"
            ),
        ));
    }
    Ok(())
}

/// The attempt of `update`.
pub fn attempt(floor: &DesignFloor, call: &HandlerCall<'_>) -> HandlerResult {
    let request = call.request;
    let Some(id) = text_input(request, "package") else {
        return HandlerResult::NeedsInput {
            gaps: vec![PACKAGE_GAP.to_owned()],
            output: None,
            semantic: None,
        };
    };
    if !floor.workspace {
        return HandlerResult::Blocked(CapabilityError::new(
            ErrorCode::DesignWorkspaceAbsent,
            "there is no workspace to find the package in",
            format!("run the update from the workspace that holds {DESIGNS_DIR}/"),
        ));
    }
    let cur = match current(floor, id) {
        Ok(c) => c,
        Err(e) => return HandlerResult::Blocked(e),
    };
    let base = text_input(request, "base").unwrap_or_default();
    if let Err(e) = check_base(id, base, cur.manifest.revision) {
        return HandlerResult::Blocked(e);
    }
    let sources = if input(request, "sources").is_some() {
        declared_sources(floor, request)
    } else {
        // The package's own sources, judged again: a package it used may be gone since.
        let mut carried = cur.manifest.sources.clone();
        for s in &mut carried {
            package_standing(floor, s);
        }
        carried
    };
    let report = report_sources(&sources, "update");
    if let Some(f) = report.failures.first() {
        return HandlerResult::Blocked(f.clone().into());
    }
    let package_path = cur.entry.path.clone();
    let destination = format!("{package_path}/{DESIGN_DOC_FILE}");
    let revision = cur.manifest.revision;
    let semantic = request_for(
        call,
        &destination,
        contract(
            &format!(
                "Author revision {} of {id} on top of revision {revision} ({id}@r{revision}, the current {destination}), as the whole new text of that one file; aw archives revision {revision} unchanged.",
                revision + 1
            ),
            "the workspace",
        ),
    );
    if call.verb != Verb::Validate {
        return question(semantic);
    }
    let doc = match authored_document(call, &semantic) {
        Ok(doc) => doc,
        Err(stop) => return *stop,
    };
    let requested =
        Maturity::requested(input(request, "maturity")).or(cur.manifest.maturity.requested);
    let next = next_manifest(
        cur.manifest,
        Revision {
            doc: &doc,
            sources: &sources,
            requested,
        },
    );
    let fields = DesignReceiptFields {
        package: Some(id.to_owned()),
        baseline: Some(next.baseline()),
        path: Some(package_path.clone()),
        root: Some(RootKind::Workspace),
        indexable: true,
        maturity: MaturityFields {
            requested,
            attained: next.maturity.attained,
        },
        sources,
        renditions: Vec::new(),
    };
    let artifacts = vec![
        Artifact {
            path: format!("{package_path}/{}", archive_path(revision)),
            content: cur.design_text.to_owned(),
            overwrite: None,
        },
        Artifact {
            path: destination,
            content: doc,
            overwrite: Some(true),
        },
        Artifact {
            path: cur.entry.manifest_path.clone(),
            content: next.to_text(),
            overwrite: Some(true),
        },
    ];
    let paths: Vec<&str> = artifacts.iter().map(|a| a.path.as_str()).collect();
    let value = json!({"design": fields, "artifacts": paths, "gaps": next.maturity.gaps});
    HandlerResult::Durable {
        base: Some(Base {
            path: cur.entry.manifest_path.clone(),
            digest: base_digest(cur.manifest_text),
        }),
        output: OperationOutput {
            value: Some(value),
            reference: Some(DurableReference {
                id: id.to_owned(),
                revision: Some(next.revision),
                digest: next.digest.clone(),
                locator: package_path,
            }),
            completeness: Some(Completeness::Partial),
        },
        artifacts,
    }
}

#[cfg(test)]
#[path = "update_tests.rs"]
mod tests;
