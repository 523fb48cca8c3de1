//! A package's `design-manifest.json` (package format v1): what aw derives when it writes a
//! revision, and every rule a manifest on disk is checked against. The manifest is never
//! authored by an agent; a package is named by its folder (`NNN-design-<slug>`), its identity is
//! `DES-NNN`, and the manifest seals the bytes of `DESIGN.md` and of every archived revision.
//!
//! ```json
//! {"schema": "workline.design-manifest/v1", "id": "DES-001", "title": "Checkout",
//!  "revision": 2, "digest": "sha256:<hex of DESIGN.md>",
//!  "sources": [<DesignSource>…],
//!  "maturity": {"requested": "handoff", "attained": "outline", "gaps": ["…"]},
//!  "history": [{"revision": 1, "digest": "sha256:…", "path": "revisions/DESIGN-r001.md"},
//!              {"revision": 2, "digest": "sha256:…", "path": "DESIGN.md"}]}
//! ```
//!
//! [`check_manifest`] is the one place the rules live; each rule that fails adds its failure to
//! the list it returns, so a broken manifest is reported whole, not one failure per run.

use super::document::DesignDocument;
use super::failure::DesignFailure;
use super::maturity::{PackageMaturity, intrinsic_maturity};
use super::sources::{DesignSource, Maturity, report_sources};
use crate::canonical::sha256_hex;
use crate::error_code::ErrorCode;
use crate::vocab::correlative::Correlative;
use aw_json::js::{is_safe_integer, js_trim};
use regex::Regex;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::sync::LazyLock;

/// The file that makes a folder under `docs/designs/` a package.
pub const MANIFEST_FILE: &str = "design-manifest.json";
/// The package's document, whose bytes the manifest's digest seals.
pub const DESIGN_DOC_FILE: &str = "DESIGN.md";
/// The folder of a package's archived revisions.
pub const REVISIONS_DIR: &str = "revisions";
/// The manifest's `schema`.
pub const MANIFEST_SCHEMA: &str = "workline.design-manifest/v1";
/// A manifest's keys, in the order aw writes them and a manifest must keep.
pub const MANIFEST_KEYS: [&str; 8] = [
    "schema", "id", "title", "revision", "digest", "sources", "maturity", "history",
];
/// The largest manifest read (a manifest is a few lines; anything larger is not one).
pub const MAX_MANIFEST_BYTES: u64 = 1024 * 1024;
/// The largest `DESIGN.md` (or archived revision) read to check its digest.
pub const MAX_DESIGN_DOC_BYTES: u64 = 16 * 1024 * 1024;

static PACKAGE_ID: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"^DES-(?:[0-9]{3}|[1-9][0-9]{3,})$").ok());
static SHA256_DIGEST: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"^sha256:[0-9a-f]{64}$").ok());
static PACKAGE_FOLDER: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"^([0-9]{3,})-design-[a-z0-9]+(?:-[a-z0-9]+)*$").ok());

/// Whether `id` is a package identity: `DES-` and three digits, or four or more without a
/// leading zero.
pub fn is_package_id(id: &str) -> bool {
    PACKAGE_ID.as_ref().is_some_and(|re| re.is_match(id))
}

/// The identity of the package numbered `number`: `DES-007`, `DES-1000`.
pub fn package_id(number: &Correlative) -> String {
    format!("DES-{}", number.padded())
}

/// The folder of the package numbered `number` with the slug `slug`: `007-design-checkout`.
pub fn package_folder(number: &Correlative, slug: &str) -> String {
    format!("{}-design-{slug}", number.padded())
}

/// The number of a package folder named `NNN-design-<slug>` (slug: lowercase ASCII words
/// joined by `-`), as its digits were written; `None` for any other name.
pub fn folder_number(folder: &str) -> Option<&str> {
    let re = PACKAGE_FOLDER.as_ref()?;
    re.captures(folder)
        .and_then(|c| c.get(1))
        .map(|m| m.as_str())
}

/// Whether the manifest `bytes` records the identity `id` and, among its history, a revision
/// whose digest is `digest`: the package a create plan made (revision 1 with those bytes) that
/// has moved on since (updated, or its `DESIGN.md` edited). Nothing else of the manifest is
/// checked: `aw designs` reports a manifest that is otherwise broken.
pub fn records_lineage(bytes: &[u8], id: &str, digest: &str) -> bool {
    let Ok(Value::Object(m)) = serde_json::from_slice::<Value>(bytes) else {
        return false;
    };
    m.get("id").and_then(Value::as_str) == Some(id)
        && m.get("history").and_then(Value::as_array).is_some_and(|h| {
            h.iter()
                .any(|e| e.get("digest").and_then(Value::as_str) == Some(digest))
        })
}

/// Where revision `revision` is archived, relative to the package: `revisions/DESIGN-r001.md`.
pub fn archive_path(revision: u64) -> String {
    format!("{REVISIONS_DIR}/DESIGN-r{revision:03}.md")
}

/// The digest the manifest records for some bytes: `sha256:<64 hex>`.
pub fn digest_of(bytes: &[u8]) -> String {
    format!("sha256:{}", sha256_hex(bytes))
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Baseline {
    /// The revision, from 1.
    pub revision: u64,
    /// `sha256:<64 hex>`.
    pub digest: String,
}

/// One revision in a manifest's history (keys in emission order).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HistoryEntry {
    /// The revision, from 1.
    pub revision: u64,
    /// The digest of its bytes.
    pub digest: String,
    /// Where its bytes are, relative to the package: `DESIGN.md` for the current one,
    /// [`archive_path`] for the others.
    pub path: String,
}

/// A v1 manifest (keys in emission order: [`MANIFEST_KEYS`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Manifest {
    /// [`MANIFEST_SCHEMA`].
    pub schema: String,
    /// The package identity, `DES-NNN`.
    pub id: String,
    /// The title: the `# <title>` line of the current `DESIGN.md`.
    pub title: String,
    /// The current revision, from 1.
    pub revision: u64,
    /// The digest of the current `DESIGN.md`.
    pub digest: String,
    /// The declared sources and what became of each.
    pub sources: Vec<DesignSource>,
    /// The intrinsic maturity (see [`super::maturity`]).
    pub maturity: PackageMaturity,
    /// Every revision, oldest first; the last is the current one.
    pub history: Vec<HistoryEntry>,
}

impl Manifest {
    /// The current baseline.
    pub fn baseline(&self) -> Baseline {
        Baseline {
            revision: self.revision,
            digest: self.digest.clone(),
        }
    }

    /// The manifest as aw writes it: pretty JSON, keys in order, one trailing newline.
    pub fn to_text(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }
}

/// What a new revision is made of.
#[derive(Debug, Clone, Copy)]
pub struct Revision<'a> {
    /// The bytes of its `DESIGN.md`.
    pub doc: &'a str,
    /// Its sources.
    pub sources: &'a [DesignSource],
    /// The maturity asked for.
    pub requested: Option<Maturity>,
}

fn title_of(doc: &DesignDocument) -> String {
    doc.title.clone().unwrap_or_default()
}

/// The manifest of revision 1 of the package `id`.
pub fn first_manifest(id: &str, rev: Revision<'_>) -> Manifest {
    let doc = DesignDocument::read(rev.doc);
    let digest = digest_of(rev.doc.as_bytes());
    Manifest {
        schema: MANIFEST_SCHEMA.to_owned(),
        id: id.to_owned(),
        title: title_of(&doc),
        revision: 1,
        digest: digest.clone(),
        sources: rev.sources.to_vec(),
        maturity: intrinsic_maturity(rev.requested, rev.sources, &doc),
        history: vec![HistoryEntry {
            revision: 1,
            digest,
            path: DESIGN_DOC_FILE.to_owned(),
        }],
    }
}

/// The manifest of the revision after `current`: the current `DESIGN.md` moves to its archive
/// path in the history, and the new one is appended.
pub fn next_manifest(current: &Manifest, rev: Revision<'_>) -> Manifest {
    let doc = DesignDocument::read(rev.doc);
    let digest = digest_of(rev.doc.as_bytes());
    let revision = current.revision + 1;
    let mut history: Vec<HistoryEntry> = current
        .history
        .iter()
        .map(|h| HistoryEntry {
            path: if h.path == DESIGN_DOC_FILE {
                archive_path(h.revision)
            } else {
                h.path.clone()
            },
            ..h.clone()
        })
        .collect();
    history.push(HistoryEntry {
        revision,
        digest: digest.clone(),
        path: DESIGN_DOC_FILE.to_owned(),
    });
    Manifest {
        schema: MANIFEST_SCHEMA.to_owned(),
        id: current.id.clone(),
        title: title_of(&doc),
        revision,
        digest,
        sources: rev.sources.to_vec(),
        maturity: intrinsic_maturity(rev.requested, rev.sources, &doc),
        history,
    }
}

/// The files of one package folder, as the shell read them.
#[derive(Debug, Clone, Copy)]
pub struct PackageFiles<'a> {
    /// The manifest's path, workspace-relative (what the failures name).
    pub manifest_path: &'a str,
    /// The package folder's own name (its last segment).
    pub folder: &'a str,
    /// The manifest's bytes.
    pub manifest: &'a [u8],
    /// The `DESIGN.md` beside it.
    pub design_doc: &'a FileRead,
    /// The files of its `revisions/` folder, by name.
    pub revisions: &'a [(String, FileRead)],
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

impl ManifestCheck {
    fn only(failure: DesignFailure) -> Self {
        ManifestCheck {
            declared_id: None,
            manifest: None,
            failures: vec![failure],
        }
    }
}

/// The failure list of one check, naming the manifest.
struct Findings<'a> {
    path: &'a str,
    failures: Vec<DesignFailure>,
}

impl Findings<'_> {
    fn invalid(&mut self, message: impl Into<String>, action: impl Into<String>) {
        self.push(ErrorCode::DesignManifestInvalid, message, action);
    }

    fn push(&mut self, code: ErrorCode, message: impl Into<String>, action: impl Into<String>) {
        self.failures
            .push(DesignFailure::new(code, self.path, message, action));
    }
}

const REWRITE: &str = "aw writes the manifest: restore it from version control, or publish a new revision with 'aw capability … --operation update'";

/// Checks a package's manifest against every rule of the format:
/// - readable (`DESIGN_MANIFEST_UNREADABLE`: not UTF-8, not JSON);
/// - an object with exactly [`MANIFEST_KEYS`], in that order, `schema` [`MANIFEST_SCHEMA`];
/// - `id` a package identity whose number is the folder's (`NNN-design-<slug>` ↔ `DES-NNN`);
/// - `title` a non-blank string, equal to the `# <title>` line of `DESIGN.md`;
/// - `revision` a whole number ≥ 1, `digest` `sha256:<64 hex>` of `DESIGN.md`'s bytes
///   (`DESIGN_DIGEST_MISMATCH`; a missing or unreadable `DESIGN.md` fails it too);
/// - `sources` an array of sources, each reported as `report_sources` requires;
/// - `maturity` `{requested, attained, gaps}`, equal to the intrinsic maturity recomputed from
///   the sources and `DESIGN.md`;
/// - `history` one entry per revision, 1 to `revision` in order, the last `{revision, digest,
///   "DESIGN.md"}`, each earlier one at its [`archive_path`], whose file exists and hashes to its
///   digest (`DESIGN_DIGEST_MISMATCH` when it does not).
///
/// Every other failure is `DESIGN_MANIFEST_INVALID`.
pub fn check_manifest(files: PackageFiles<'_>) -> ManifestCheck {
    let path = files.manifest_path;
    let unreadable = |why: String| {
        ManifestCheck::only(DesignFailure::new(
            ErrorCode::DesignManifestUnreadable,
            path,
            format!("the manifest cannot be read: {why}"),
            "repair it as a single valid JSON object",
        ))
    };
    let Ok(text) = std::str::from_utf8(files.manifest) else {
        return unreadable("it is not UTF-8 text".to_owned());
    };
    let value: Value = match aw_json::parse_bounded(text) {
        Ok(v) => v,
        Err(e) => return unreadable(format!("it is not JSON ({e})")),
    };
    let Some(obj) = value.as_object() else {
        return ManifestCheck::only(DesignFailure::new(
            ErrorCode::DesignManifestInvalid,
            path,
            "the manifest is not a JSON object",
            REWRITE,
        ));
    };
    let declared_id = obj.get("id").and_then(Value::as_str).map(str::to_owned);
    let mut f = Findings {
        path,
        failures: Vec::new(),
    };
    check_keys(obj, &mut f);
    let doc_text = match files.design_doc {
        FileRead::Bytes(b) => std::str::from_utf8(b).ok(),
        _ => None,
    };
    let doc = doc_text.map(DesignDocument::read);
    let id = check_id(obj, files.folder, &mut f);
    let title = check_title(obj, doc.as_ref(), &mut f);
    let revision = check_revision(obj, &mut f);
    let digest = check_digest(obj, files.design_doc, &mut f);
    let sources = check_sources(obj, &mut f);
    let maturity = check_maturity(obj, sources.as_deref(), doc.as_ref(), &mut f);
    let history = check_history(obj, revision, digest.as_deref(), files.revisions, &mut f);
    let manifest = match (id, title, revision, digest, sources, maturity, history) {
        (
            Some(id),
            Some(title),
            Some(revision),
            Some(digest),
            Some(sources),
            Some(maturity),
            Some(history),
        ) if f.failures.is_empty() => Some(Manifest {
            schema: MANIFEST_SCHEMA.to_owned(),
            id,
            title,
            revision,
            digest,
            sources,
            maturity,
            history,
        }),
        _ => None,
    };
    ManifestCheck {
        declared_id,
        manifest,
        failures: f.failures,
    }
}

fn check_keys(obj: &Map<String, Value>, f: &mut Findings<'_>) {
    let keys: Vec<&str> = obj.keys().map(String::as_str).collect();
    if keys != MANIFEST_KEYS {
        f.invalid(
            format!(
                "the manifest's keys are [{}]; a v1 manifest has exactly [{}], in that order",
                keys.join(", "),
                MANIFEST_KEYS.join(", ")
            ),
            REWRITE,
        );
    }
    if obj.get("schema").and_then(Value::as_str) != Some(MANIFEST_SCHEMA) {
        f.invalid(
            format!("'schema' must be '{MANIFEST_SCHEMA}'"),
            "this aw reads package format v1 only: restore the manifest aw wrote",
        );
    }
}

fn check_id(obj: &Map<String, Value>, folder: &str, f: &mut Findings<'_>) -> Option<String> {
    let id = match obj.get("id").and_then(Value::as_str) {
        Some(id) if is_package_id(id) => id,
        _ => {
            f.invalid(
                "'id' must be a package identity such as 'DES-001'",
                "set 'id' to 'DES-' and the package's number (three digits, or more without a leading zero)",
            );
            return None;
        }
    };
    let number = &id["DES-".len()..];
    match folder_number(folder) {
        Some(n) if n == number => Some(id.to_owned()),
        Some(n) => {
            f.invalid(
                format!("the folder '{folder}' is numbered {n}, and the manifest says {id}"),
                format!("a package's folder carries its number: name it '{number}-design-<slug>', or restore the manifest's id"),
            );
            None
        }
        None => {
            f.invalid(
                format!("the folder '{folder}' is not named 'NNN-design-<slug>' (slug: lowercase ASCII words joined by '-')"),
                format!("rename the folder '{number}-design-<slug>' for {id}"),
            );
            None
        }
    }
}

fn check_title(
    obj: &Map<String, Value>,
    doc: Option<&DesignDocument>,
    f: &mut Findings<'_>,
) -> Option<String> {
    let title = match obj.get("title").and_then(Value::as_str) {
        Some(t) if !js_trim(t).is_empty() => t,
        _ => {
            f.invalid(
                "'title' must be a non-blank string",
                "give the package a title",
            );
            return None;
        }
    };
    if let Some(doc_title) = doc.and_then(|d| d.title.as_deref())
        && doc_title != title
    {
        f.invalid(
            format!("'title' is '{title}' and {DESIGN_DOC_FILE} is titled '{doc_title}'"),
            REWRITE,
        );
    }
    Some(title.to_owned())
}

fn whole(v: Option<&Value>) -> Option<u64> {
    // JavaScript reads `1.0` as the integer 1.
    match v {
        Some(v) if is_safe_integer(v) && v.as_f64().is_some_and(|n| n >= 1.0) => {
            v.as_f64().map(|n| n as u64)
        }
        _ => None,
    }
}

fn check_revision(obj: &Map<String, Value>, f: &mut Findings<'_>) -> Option<u64> {
    let revision = whole(obj.get("revision"));
    if revision.is_none() {
        f.invalid(
            "'revision' must be a whole number of at least 1",
            "set 'revision' to the package's current revision, counting from 1",
        );
    }
    revision
}

fn is_digest(d: &str) -> bool {
    SHA256_DIGEST.as_ref().is_some_and(|re| re.is_match(d))
}

fn check_digest(
    obj: &Map<String, Value>,
    design_doc: &FileRead,
    f: &mut Findings<'_>,
) -> Option<String> {
    let Some(digest) = obj
        .get("digest")
        .and_then(Value::as_str)
        .filter(|d| is_digest(d))
    else {
        f.invalid(
            "'digest' must be 'sha256:' followed by 64 lowercase hex digits",
            format!("set 'digest' to the SHA-256 of the package's {DESIGN_DOC_FILE}"),
        );
        return None;
    };
    match design_doc {
        FileRead::Absent => f.push(
            ErrorCode::DesignDigestMismatch,
            format!("the package has no {DESIGN_DOC_FILE} for 'digest' to seal"),
            format!("restore the package's {DESIGN_DOC_FILE}"),
        ),
        FileRead::Unreadable(why) => f.push(
            ErrorCode::DesignDigestMismatch,
            format!("the package's {DESIGN_DOC_FILE} cannot be read ({why}), so 'digest' cannot be checked"),
            format!("make {DESIGN_DOC_FILE} a readable regular file"),
        ),
        FileRead::Bytes(bytes) => {
            let actual = digest_of(bytes);
            if actual != digest {
                f.push(
                    ErrorCode::DesignDigestMismatch,
                    format!("'digest' is {digest} but the package's {DESIGN_DOC_FILE} hashes to {actual}"),
                    format!("publish a new revision for the changed {DESIGN_DOC_FILE} ('--operation update'), or restore the sealed one"),
                );
            }
        }
    }
    Some(digest.to_owned())
}

fn check_sources(obj: &Map<String, Value>, f: &mut Findings<'_>) -> Option<Vec<DesignSource>> {
    let parsed = obj
        .get("sources")
        .cloned()
        .map(serde_json::from_value::<Vec<DesignSource>>);
    let sources = match parsed {
        Some(Ok(s)) => s,
        Some(Err(e)) => {
            f.invalid(format!("'sources' is not a list of sources: {e}"), REWRITE);
            return None;
        }
        None => {
            f.invalid("'sources' is missing", REWRITE);
            return None;
        }
    };
    let report = report_sources(&sources, f.path);
    let had = f.failures.len();
    f.failures.extend(report.failures);
    (f.failures.len() == had).then_some(sources)
}

fn check_maturity(
    obj: &Map<String, Value>,
    sources: Option<&[DesignSource]>,
    doc: Option<&DesignDocument>,
    f: &mut Findings<'_>,
) -> Option<PackageMaturity> {
    let stored = match obj
        .get("maturity")
        .cloned()
        .map(serde_json::from_value::<PackageMaturity>)
    {
        Some(Ok(m)) => m,
        Some(Err(e)) => {
            f.invalid(
                format!("'maturity' is not {{requested, attained, gaps}}: {e}"),
                REWRITE,
            );
            return None;
        }
        None => {
            f.invalid("'maturity' is missing", REWRITE);
            return None;
        }
    };
    // Recomputable only when what it is computed from could be read.
    if let (Some(sources), Some(doc)) = (sources, doc) {
        let expected = intrinsic_maturity(stored.requested, sources, doc);
        if expected != stored {
            f.invalid(
                format!(
                    "'maturity' says '{}' with {} gap(s); the package's sources and {DESIGN_DOC_FILE} give '{}' with {} gap(s)",
                    stored.attained.as_str(),
                    stored.gaps.len(),
                    expected.attained.as_str(),
                    expected.gaps.len()
                ),
                REWRITE,
            );
        }
    }
    Some(stored)
}

fn check_history(
    obj: &Map<String, Value>,
    revision: Option<u64>,
    digest: Option<&str>,
    revisions: &[(String, FileRead)],
    f: &mut Findings<'_>,
) -> Option<Vec<HistoryEntry>> {
    let history = match obj
        .get("history")
        .cloned()
        .map(serde_json::from_value::<Vec<HistoryEntry>>)
    {
        Some(Ok(h)) => h,
        Some(Err(e)) => {
            f.invalid(
                format!("'history' is not a list of {{revision, digest, path}}: {e}"),
                REWRITE,
            );
            return None;
        }
        None => {
            f.invalid("'history' is missing", REWRITE);
            return None;
        }
    };
    let had = f.failures.len();
    let count = history.len() as u64;
    if revision.is_some_and(|r| r != count) {
        f.invalid(
            format!(
                "'history' lists {count} revision(s) and 'revision' is {}",
                revision.unwrap_or_default()
            ),
            REWRITE,
        );
    }
    for (i, entry) in history.iter().enumerate() {
        let expected_revision = i as u64 + 1;
        let last = i + 1 == history.len();
        let expected_path = if last {
            DESIGN_DOC_FILE.to_owned()
        } else {
            archive_path(expected_revision)
        };
        if entry.revision != expected_revision || entry.path != expected_path {
            f.invalid(
                format!(
                    "history entry {} is revision {} at '{}'; it must be revision {expected_revision} at '{expected_path}'",
                    i + 1,
                    entry.revision,
                    entry.path
                ),
                REWRITE,
            );
            continue;
        }
        if !is_digest(&entry.digest) {
            f.invalid(
                format!("history entry {expected_revision} has no 'sha256:<64 hex>' digest"),
                REWRITE,
            );
            continue;
        }
        if last {
            if digest.is_some_and(|d| d != entry.digest) {
                f.invalid(
                    "the last history entry's digest is not the manifest's 'digest'",
                    REWRITE,
                );
            }
            continue;
        }
        check_archive(entry, revisions, f);
    }
    (f.failures.len() == had).then_some(history)
}

/// An archived revision exists and holds the bytes its history entry sealed.
fn check_archive(entry: &HistoryEntry, revisions: &[(String, FileRead)], f: &mut Findings<'_>) {
    let name = &entry.path[REVISIONS_DIR.len() + 1..];
    match revisions.iter().find(|(n, _)| n == name).map(|(_, r)| r) {
        None | Some(FileRead::Absent) => f.invalid(
            format!(
                "revision {} is not archived at '{}'",
                entry.revision, entry.path
            ),
            "restore the archived revision from version control",
        ),
        Some(FileRead::Unreadable(why)) => f.push(
            ErrorCode::DesignDigestMismatch,
            format!("'{}' cannot be read ({why})", entry.path),
            "make it a readable regular file",
        ),
        Some(FileRead::Bytes(bytes)) => {
            let actual = digest_of(bytes);
            if actual != entry.digest {
                f.push(
                    ErrorCode::DesignDigestMismatch,
                    format!(
                        "'{}' hashes to {actual}; the history sealed {}",
                        entry.path, entry.digest
                    ),
                    "an archived revision is never edited: restore it from version control",
                );
            }
        }
    }
}

/// The locators of the manifest's `used` sources that name files (markdown, image, pdf, docx,
/// pptx): what the shell checks for existence when it reads the index. Read leniently (a
/// manifest that does not parse has no sources to check; its own check reports why).
pub fn file_source_locators(manifest: &[u8]) -> Vec<String> {
    use super::sources::Disposition;
    let Ok(text) = std::str::from_utf8(manifest) else {
        return Vec::new();
    };
    let Ok(value) = aw_json::parse_bounded::<Value>(text) else {
        return Vec::new();
    };
    let Some(Ok(sources)) = value
        .get("sources")
        .cloned()
        .map(serde_json::from_value::<Vec<DesignSource>>)
    else {
        return Vec::new();
    };
    sources
        .into_iter()
        .filter(|s| s.disposition == Disposition::Used)
        .filter(|s| s.kind.is_file())
        .map(|s| s.locator)
        .collect()
}

#[cfg(test)]
#[path = "manifest_tests.rs"]
mod tests;
