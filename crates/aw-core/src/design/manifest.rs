//! A package's `design-manifest.json`, checked (capability spec §10.5, minimal model).
//!
//! For now a manifest is a JSON object with a package identity (`id`), a `title`, the current
//! `revision` and the `digest` of the package's `DESIGN.md`; the current baseline is that
//! revision and digest. The full package format (a CLI-derived manifest beside `DESIGN.md`)
//! grows here: [`check_manifest`] is the one place the rules live, and every rule adds its
//! failures to the list it returns.

use super::failure::DesignFailure;
use crate::canonical::sha256_hex;
use crate::error_code::ErrorCode;
use aw_json::js::{is_safe_integer, js_trim};
use regex::Regex;
use serde::Serialize;
use serde_json::{Map, Value};
use std::sync::LazyLock;

/// The file that makes a folder under `docs/designs/` a package.
pub const MANIFEST_FILE: &str = "design-manifest.json";
/// The package's document, whose bytes the manifest's digest seals.
pub const DESIGN_DOC_FILE: &str = "DESIGN.md";
/// The largest manifest read (a manifest is a few lines; anything larger is not one).
pub const MAX_MANIFEST_BYTES: u64 = 1024 * 1024;
/// The largest `DESIGN.md` read to check its digest.
pub const MAX_DESIGN_DOC_BYTES: u64 = 16 * 1024 * 1024;

static PACKAGE_ID: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"^DES-(?:[0-9]{3}|[1-9][0-9]{3,})$").ok());
static SHA256_DIGEST: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"^sha256:[0-9a-f]{64}$").ok());

/// Whether `id` is a package identity: `DES-` and three digits, or four or more without a
/// leading zero.
pub fn is_package_id(id: &str) -> bool {
    PACKAGE_ID.as_ref().is_some_and(|re| re.is_match(id))
}

/// What the shell found where a file should be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileRead {
    /// No entry of that name.
    Absent,
    /// An entry that could not be read as a regular file of a bounded size, and why (a
    /// symbolic link, a FIFO, too large, an I/O error).
    Unreadable(String),
    /// Its bytes.
    Bytes(Vec<u8>),
}

/// A package's current baseline: its revision and the digest that proves it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Baseline {
    /// The revision, from 1.
    pub revision: u64,
    /// `sha256:<64 hex>`.
    pub digest: String,
}

/// A manifest that passed every rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    /// The package identity.
    pub id: String,
    /// Its title.
    pub title: String,
    /// Its current baseline.
    pub current_baseline: Baseline,
}

/// What checking a manifest found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestCheck {
    /// The `id` the manifest claims, valid or not (so a broken package can still be named).
    pub declared_id: Option<String>,
    /// The manifest, when no rule failed.
    pub manifest: Option<Manifest>,
    /// Every failure, in rule order.
    pub failures: Vec<DesignFailure>,
}

fn invalid(path: &str, message: String, action: &str) -> DesignFailure {
    DesignFailure::new(ErrorCode::DesignManifestInvalid, path, message, action)
}

fn unreadable(path: &str, why: &str) -> ManifestCheck {
    ManifestCheck {
        declared_id: None,
        manifest: None,
        failures: vec![DesignFailure::new(
            ErrorCode::DesignManifestUnreadable,
            path,
            format!("the manifest cannot be read: {why}"),
            "repair it as a single valid JSON object",
        )],
    }
}

/// Checks the manifest at `manifest_path` (workspace-relative, for the failures) given its
/// bytes and what the shell found of the `DESIGN.md` beside it. Bytes that are not UTF-8 JSON
/// are `DESIGN_MANIFEST_UNREADABLE`; each field rule that fails adds a
/// `DESIGN_MANIFEST_INVALID`; a well-formed digest that is not the SHA-256 of `DESIGN.md`'s
/// bytes (or a `DESIGN.md` that cannot be read to check it) is `DESIGN_DIGEST_MISMATCH`. An
/// absent `DESIGN.md` is not checked here.
pub fn check_manifest(manifest_path: &str, bytes: &[u8], design_doc: &FileRead) -> ManifestCheck {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return unreadable(manifest_path, "it is not UTF-8 text");
    };
    let value: Value = match aw_json::parse_bounded(text) {
        Ok(v) => v,
        Err(e) => return unreadable(manifest_path, &format!("it is not JSON ({e})")),
    };
    let Some(obj) = value.as_object() else {
        return ManifestCheck {
            declared_id: None,
            manifest: None,
            failures: vec![invalid(
                manifest_path,
                "the manifest is not a JSON object".to_owned(),
                "write the manifest as one JSON object",
            )],
        };
    };
    let declared_id = obj.get("id").and_then(Value::as_str).map(str::to_owned);
    let mut failures = Vec::new();
    let id = check_id(manifest_path, obj, &mut failures);
    let title = check_title(manifest_path, obj, &mut failures);
    let revision = check_revision(manifest_path, obj, &mut failures);
    let digest = check_digest(manifest_path, obj, design_doc, &mut failures);
    let manifest = match (id, title, revision, digest) {
        (Some(id), Some(title), Some(revision), Some(digest)) if failures.is_empty() => {
            Some(Manifest {
                id,
                title,
                current_baseline: Baseline { revision, digest },
            })
        }
        _ => None,
    };
    ManifestCheck {
        declared_id,
        manifest,
        failures,
    }
}

fn check_id(
    path: &str,
    obj: &Map<String, Value>,
    failures: &mut Vec<DesignFailure>,
) -> Option<String> {
    match obj.get("id").and_then(Value::as_str) {
        Some(id) if is_package_id(id) => Some(id.to_owned()),
        _ => {
            failures.push(invalid(
                path,
                "'id' must be a package identity such as 'DES-001'".to_owned(),
                "set 'id' to 'DES-' and the package's number (three digits, or more without a leading zero)",
            ));
            None
        }
    }
}

fn check_title(
    path: &str,
    obj: &Map<String, Value>,
    failures: &mut Vec<DesignFailure>,
) -> Option<String> {
    match obj.get("title").and_then(Value::as_str) {
        Some(t) if !js_trim(t).is_empty() => Some(t.to_owned()),
        _ => {
            failures.push(invalid(
                path,
                "'title' must be a non-blank string".to_owned(),
                "give the package a title",
            ));
            None
        }
    }
}

fn check_revision(
    path: &str,
    obj: &Map<String, Value>,
    failures: &mut Vec<DesignFailure>,
) -> Option<u64> {
    // JavaScript reads `1.0` as the integer 1.
    match obj.get("revision") {
        Some(v) if is_safe_integer(v) && v.as_f64().is_some_and(|f| f >= 1.0) => {
            v.as_f64().map(|f| f as u64)
        }
        _ => {
            failures.push(invalid(
                path,
                "'revision' must be a whole number of at least 1".to_owned(),
                "set 'revision' to the package's current revision, counting from 1",
            ));
            None
        }
    }
}

fn check_digest(
    path: &str,
    obj: &Map<String, Value>,
    design_doc: &FileRead,
    failures: &mut Vec<DesignFailure>,
) -> Option<String> {
    let well_formed = obj
        .get("digest")
        .and_then(Value::as_str)
        .filter(|d| SHA256_DIGEST.as_ref().is_some_and(|re| re.is_match(d)));
    let Some(digest) = well_formed else {
        failures.push(invalid(
            path,
            "'digest' must be 'sha256:' followed by 64 lowercase hex digits".to_owned(),
            format!("set 'digest' to the SHA-256 of the package's {DESIGN_DOC_FILE}").as_str(),
        ));
        return None;
    };
    match design_doc {
        FileRead::Absent => {}
        FileRead::Unreadable(why) => failures.push(DesignFailure::new(
            ErrorCode::DesignDigestMismatch,
            path,
            format!("the package's {DESIGN_DOC_FILE} cannot be read ({why}), so 'digest' cannot be checked"),
            format!("make {DESIGN_DOC_FILE} a readable regular file"),
        )),
        FileRead::Bytes(bytes) => {
            let actual = format!("sha256:{}", sha256_hex(bytes));
            if actual != digest {
                failures.push(DesignFailure::new(
                    ErrorCode::DesignDigestMismatch,
                    path,
                    format!(
                        "'digest' is {digest} but the package's {DESIGN_DOC_FILE} hashes to {actual}"
                    ),
                    format!(
                        "publish a new revision for the changed {DESIGN_DOC_FILE}, or restore the sealed one"
                    ),
                ));
            }
        }
    }
    Some(digest.to_owned())
}

#[cfg(test)]
#[path = "manifest_tests.rs"]
mod tests;
