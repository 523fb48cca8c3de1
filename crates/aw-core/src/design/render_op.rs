//! `design.render` (package format v1): aw projects the current revision of a package that
//! validates, by itself — no agent authors a projection. The `portable-html` profile gives the
//! self-contained page of [`super::render::portable_html`]; every other registered profile a
//! handoff bundle ([`super::render::handoff_bundle`]) naming `DESIGN.md` and the manifest with
//! their digests. aw sends nothing anywhere: handing a bundle over is someone else's act.
//!
//! The attempt is a durable plan at `prepare` with one new file under `<package>/renders/`. A
//! projection is never sealed (the manifest does not list it), and rendering the same revision
//! twice gives the same bytes, which `apply` publishes as a no-op.

use super::floor::{ADAPTERS, DesignFloor, input};
use super::manifest::{DESIGN_DOC_FILE, MANIFEST_FILE, digest_of};
use super::render::{PORTABLE_HTML, PackageView, RENDERS_DIR, handoff_bundle, portable_html};
use super::review::reviews_of;
use super::sources::AttainedMaturity;
use super::standing::{fields, package_folder, package_id, valid_package};
use super::update::Current;
use crate::capability::descriptor::Completeness;
use crate::capability::error::{CapabilityError, CapabilityResult};
use crate::capability::handler::{HandlerCall, HandlerResult};
use crate::capability::plan::Artifact;
use crate::capability::receipt::{DurableReference, OperationOutput};
use crate::capability::request::CapabilityRequest;
use crate::error_code::ErrorCode;
use aw_json::js::{js_string, js_trim};
use serde_json::{Value, json};

/// The gap of a `render` whose `package` is blank.
pub const PACKAGE_GAP: &str = "the identity of the package to render, e.g. 'DES-001'";

/// The profile a `render` asks for: the `profile` input when it is not blank (the descriptor's
/// way to name it), else the `--profile` flag (`context.profile`), else blank. The input wins
/// when both are given. The value is as JavaScript's `String` writes it, trimmed.
pub fn requested_profile(request: &CapabilityRequest) -> String {
    let from_input = match input(request, "profile") {
        None | Some(Value::Null) => String::new(),
        Some(v) => js_trim(&js_string(v)).to_owned(),
    };
    if !from_input.is_empty() {
        return from_input;
    }
    request
        .context
        .profile
        .as_deref()
        .map(|p| js_trim(p).to_owned())
        .unwrap_or_default()
}

/// The registered profile `profile`, or `DESIGN_ADAPTER_UNKNOWN` listing them.
pub fn check_profile(profile: &str) -> CapabilityResult<()> {
    if ADAPTERS.contains(&profile) {
        return Ok(());
    }
    let message = if profile.is_empty() {
        "no renderer or adapter profile was named".to_owned()
    } else {
        format!("there is no renderer or adapter profile '{profile}'")
    };
    Err(CapabilityError::new(
        ErrorCode::DesignAdapterUnknown,
        message,
        format!("the registered profiles are: {}", ADAPTERS.join(", ")),
    ))
}

/// The allowed destination of a `render` of the package `id`: its `renders/` folder.
pub fn destinations(floor: &DesignFloor, id: &str) -> CapabilityResult<Vec<String>> {
    package_folder(floor, id).map(|path| vec![format!("{path}/{RENDERS_DIR}")])
}

/// The projection of `cur`'s current revision for `profile` (a registered one): its path,
/// workspace-relative, and its bytes.
pub fn projection(cur: &Current<'_>, profile: &str) -> (String, String) {
    let m = cur.manifest;
    let maturity = AttainedMaturity {
        attained: m.maturity.attained,
        gaps: m.maturity.gaps.clone(),
    };
    let history: Vec<_> = m
        .history
        .iter()
        .map(|h| super::manifest::Baseline {
            revision: h.revision,
            digest: h.digest.clone(),
        })
        .collect();
    let mut reviews = reviews_of(cur.entry);
    reviews.sort_by_key(|r| r.revision);
    let view = PackageView {
        id: &m.id,
        title: &m.title,
        revision: m.revision,
        digest: &m.digest,
        design_md: cur.design_text,
        sources: &m.sources,
        maturity: &maturity,
        history: &history,
        reviews: &reviews,
    };
    let path = format!(
        "{}/{}",
        cur.entry.path,
        super::render::render_path(profile, m.revision)
    );
    let content = if profile == PORTABLE_HTML {
        portable_html(&view)
    } else {
        let manifest_digest = digest_of(cur.manifest_text.as_bytes());
        let bundle = handoff_bundle(
            &view,
            profile,
            &[
                (DESIGN_DOC_FILE, m.digest.as_str()),
                (MANIFEST_FILE, manifest_digest.as_str()),
            ],
        );
        let mut text = serde_json::to_string_pretty(&bundle).unwrap_or_default();
        text.push('\n');
        text
    };
    (path, content)
}

/// The attempt of `render`, at any stage: a blank `package` asks for it; an unknown profile is
/// `DESIGN_ADAPTER_UNKNOWN`; no workspace, a package that does not resolve or does not validate
/// are refused ([`valid_package`]); otherwise the durable plan of the one projection.
pub fn attempt(floor: &DesignFloor, call: &HandlerCall<'_>) -> HandlerResult {
    let request = call.request;
    let id = match package_id(floor, request, PACKAGE_GAP, "render") {
        Ok(id) => id,
        Err(stop) => return *stop,
    };
    let profile = requested_profile(request);
    if let Err(e) = check_profile(&profile) {
        return HandlerResult::Blocked(e);
    }
    let cur = match valid_package(floor, id, "render") {
        Ok(cur) => cur,
        Err(e) => return HandlerResult::Blocked(e),
    };
    let (path, content) = projection(&cur, &profile);
    let value = json!({
        "design": fields(&cur, vec![path.clone()]),
        "profile": profile,
        "artifacts": [path],
    });
    let reference = DurableReference {
        id: cur.manifest.id.clone(),
        revision: Some(cur.manifest.revision),
        digest: digest_of(content.as_bytes()),
        locator: path.clone(),
    };
    HandlerResult::Durable {
        artifacts: vec![Artifact {
            path,
            content,
            overwrite: None,
        }],
        base: None,
        output: OperationOutput {
            value: Some(value),
            reference: Some(reference),
            // Nothing is published until the plan is applied.
            completeness: Some(Completeness::Partial),
        },
    }
}

#[cfg(test)]
#[path = "render_op_tests.rs"]
mod tests;
