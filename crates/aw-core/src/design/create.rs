//! `design.create` (package format v1): the first revision of a new package. The agent authors
//! `DESIGN.md`; aw picks the number (the next free one in the output root, and in the index
//! when the root is indexable), names the folder `NNN-design-<slug>` after the `title` input,
//! and derives the manifest. The number is only a proposal until `apply`: it is claimed (see
//! [`crate::capability::handler::NumberClaim`]) and checked again under the lock there.

use super::authoring::{authored_document, contract, question, request_for};
use super::floor::{DesignFloor, input};
use super::manifest::{
    DESIGN_DOC_FILE, MANIFEST_FILE, Revision, first_manifest, folder_number, package_folder,
    package_id,
};
use super::output_root::OutputRoot;
use super::receipt_fields::{DesignReceiptFields, MaturityFields};
use super::sources::{
    DesignSource, Disposition, Maturity, SourceKind, classify_source, declared_locators,
    floor_source, report_sources,
};
use crate::capability::descriptor::Completeness;
use crate::capability::error::CapabilityError;
use crate::capability::handler::{ClaimLineage, HandlerCall, HandlerResult, NumberClaim, Verb};
use crate::capability::plan::Artifact;
use crate::capability::receipt::{DurableReference, OperationOutput};
use crate::capability::request::CapabilityRequest;
use crate::error_code::ErrorCode;
use crate::names::slug;
use crate::vocab::correlative::{Correlative, highest_and_next};
use aw_json::js::js_trim;
use serde_json::{Value, json};

/// The gap of a `create` whose `title` is blank.
pub const TITLE_GAP: &str =
    "the design's title (--input title=<title>): it names the package's folder";

/// `root` joined with `rel`: relative paths under a workspace root, bare for an explicit root
/// (whose artifact paths are relative to the root itself).
pub fn under(root: &OutputRoot, rel: &str) -> String {
    match root {
        OutputRoot::Workspace { root, .. } => format!("{}/{rel}", root.trim_end_matches('/')),
        OutputRoot::Explicit { .. } => rel.to_owned(),
    }
}

/// Where a package folder is, as a person reads it: workspace-relative, or absolute under an
/// explicit root.
pub fn shown(root: &OutputRoot, folder: &str) -> String {
    format!("{}/{folder}", root.root().trim_end_matches('/'))
}

/// The sources a request declares under `sources`, as the floor records them. A file source the
/// shell found missing (`floor.present_sources`) is `unavailable`, with why: it costs the
/// package its `handoff` (the fail-closed rule) instead of leaving a reference that resolves to
/// nothing.
pub fn declared_sources(floor: &DesignFloor, request: &CapabilityRequest) -> Vec<DesignSource> {
    declared_locators(input(request, "sources"))
        .iter()
        .map(|l| {
            let mut s = floor_source("sources", l);
            let missing = floor
                .present_sources
                .as_ref()
                .is_some_and(|present| !present.contains(l));
            if s.kind.is_file() && s.disposition == Disposition::Used && missing {
                s.disposition = Disposition::Unavailable;
                s.reason = Some(format!("'{l}' does not exist in the workspace"));
            }
            package_standing(floor, &mut s);
            s
        })
        .collect()
}

/// A `used` package source naming no package of the index (or a revision it never reached)
/// becomes `unavailable`, with why: a reference the index can never resolve would make the new
/// revision fail validation, and a source that could not have contributed costs `handoff`.
pub fn package_standing(floor: &DesignFloor, s: &mut DesignSource) {
    if s.kind == SourceKind::Package
        && s.disposition == Disposition::Used
        && let Some(index) = &floor.index
        && !index.resolves_source(&s.locator)
    {
        s.disposition = Disposition::Unavailable;
        s.reason = Some(format!(
            "'{}' names no package (or revision) published in the workspace",
            s.locator
        ));
    }
}

/// The locators of the request's `sources` input that name files: what the shell checks for
/// existence before the floor records them.
pub fn file_locators(inputs: &[crate::capability::request::RequestInput]) -> Vec<String> {
    let value = inputs
        .iter()
        .find(|i| i.name == "sources")
        .map(|i| &i.value);
    declared_locators(value)
        .into_iter()
        .filter(|l| classify_source(l).is_some_and(SourceKind::is_file))
        .collect()
}

/// The next free number in the root: after every numbered entry the shell listed there and,
/// for an indexable root, after every identity of the index (an identity is unique across the
/// index, wherever its folder sits).
fn next_number(floor: &DesignFloor, root: &OutputRoot) -> Correlative {
    let mut numbers: Vec<Correlative> = floor
        .listing_of(root.root())
        .iter()
        .filter_map(|n| Correlative::of_name(n))
        .collect();
    if root.is_indexable()
        && let Some(index) = &floor.index
    {
        numbers.extend(
            index
                .packages
                .iter()
                .filter_map(|p| p.id.as_deref().or(p.declared_id.as_deref()))
                .filter_map(|id| id.strip_prefix("DES-"))
                .filter_map(Correlative::from_digits),
        );
    }
    highest_and_next(numbers).1
}

/// The attempt of `create`.
pub fn attempt(floor: &DesignFloor, call: &HandlerCall<'_>) -> HandlerResult {
    let request = call.request;
    let root = match floor.output_root(request) {
        Ok(root) => root,
        Err(f) => return HandlerResult::Blocked(f.into()),
    };
    let title = match input(request, "title") {
        Some(Value::String(s)) if !js_trim(s).is_empty() => js_trim(s),
        _ => {
            return HandlerResult::NeedsInput {
                gaps: vec![TITLE_GAP.to_owned()],
                output: None,
                semantic: None,
            };
        }
    };
    let slug = slug(title);
    if slug.is_empty() {
        return HandlerResult::Blocked(CapabilityError::new(
            ErrorCode::DesignTitleInvalid,
            format!(
                "the title '{title}' has no ASCII letter or digit to name the package's folder after"
            ),
            "give a title with at least one word in ASCII letters or digits (--input title=…)",
        ));
    }
    let sources = declared_sources(floor, request);
    let report = report_sources(&sources, "create");
    if let Some(f) = report.failures.first() {
        return HandlerResult::Blocked(f.clone().into());
    }
    let number = next_number(floor, &root);
    let folder = package_folder(&number, &slug);
    let id = package_id(&number);
    let destination = under(&root, &format!("{folder}/{DESIGN_DOC_FILE}"));
    let relative_to = match &root {
        OutputRoot::Workspace { .. } => "the workspace".to_owned(),
        OutputRoot::Explicit { root } => format!("the explicit root '{root}'"),
    };
    let semantic = request_for(
        call,
        &destination,
        contract(
            &format!(
                "Author the FIRST revision of the design '{title}' ({id}) from the declared sources, as the one file {destination}."
            ),
            &relative_to,
        ),
    );
    if call.verb != Verb::Validate {
        return question(semantic);
    }
    let doc = match authored_document(call, &semantic) {
        Ok(doc) => doc,
        Err(stop) => return *stop,
    };
    let requested = Maturity::requested(input(request, "maturity"));
    let manifest = first_manifest(
        &id,
        Revision {
            doc: &doc,
            sources: &sources,
            requested,
        },
    );
    let package_path = shown(&root, &folder);
    let fields = DesignReceiptFields {
        package: Some(id.clone()),
        baseline: Some(manifest.baseline()),
        path: Some(package_path.clone()),
        root: Some(root.kind()),
        indexable: root.is_indexable(),
        maturity: MaturityFields {
            requested,
            attained: manifest.maturity.attained,
        },
        sources: sources.clone(),
        renditions: Vec::new(),
    };
    let artifacts = vec![
        Artifact {
            path: destination,
            content: doc,
            overwrite: None,
        },
        Artifact {
            path: under(&root, &format!("{folder}/{MANIFEST_FILE}")),
            content: manifest.to_text(),
            overwrite: None,
        },
    ];
    let paths: Vec<&str> = artifacts.iter().map(|a| a.path.as_str()).collect();
    let value = json!({"design": fields, "artifacts": paths, "gaps": manifest.maturity.gaps});
    HandlerResult::Durable {
        base: None,
        output: OperationOutput {
            value: Some(value),
            reference: Some(DurableReference {
                id,
                revision: Some(1),
                digest: manifest.digest.clone(),
                locator: package_path,
            }),
            // Nothing is published until the plan is applied.
            completeness: Some(Completeness::Partial),
        },
        artifacts,
    }
}

/// What marks the package a create plan's manifest (`text`) describes: its identity and the
/// digest of its first revision.
fn lineage_of(text: &str) -> Option<ClaimLineage> {
    let Ok(Value::Object(m)) = serde_json::from_str::<Value>(text) else {
        return None;
    };
    Some(ClaimLineage {
        manifest: MANIFEST_FILE.to_owned(),
        id: m.get("id")?.as_str()?.to_owned(),
        digest: m.get("digest")?.as_str()?.to_owned(),
    })
}

/// The numbers a `create` plan's artifacts take: each folder directly under the root named
/// `NNN-design-<slug>`, once, with what marks the package it makes (its manifest's identity and
/// first digest).
pub fn claims(root: &OutputRoot, artifacts: &[Artifact]) -> Vec<NumberClaim> {
    let prefix = match root {
        OutputRoot::Workspace { root, .. } => format!("{}/", root.trim_end_matches('/')),
        OutputRoot::Explicit { .. } => String::new(),
    };
    let dir = match root {
        OutputRoot::Workspace { root, .. } => root.trim_end_matches('/').to_owned(),
        OutputRoot::Explicit { .. } => ".".to_owned(),
    };
    let mut out: Vec<NumberClaim> = Vec::new();
    for a in artifacts {
        let Some(rest) = a.path.strip_prefix(&prefix) else {
            continue;
        };
        let folder = rest.split('/').next().unwrap_or_default();
        let Some(number) = folder_number(folder) else {
            continue;
        };
        if !out.iter().any(|c| c.folder == folder) {
            let manifest = format!("{prefix}{folder}/{MANIFEST_FILE}");
            out.push(NumberClaim {
                dir: dir.clone(),
                number: number.to_owned(),
                folder: folder.to_owned(),
                lineage: artifacts
                    .iter()
                    .find(|m| m.path == manifest)
                    .and_then(|m| lineage_of(&m.content)),
            });
        }
    }
    out
}
