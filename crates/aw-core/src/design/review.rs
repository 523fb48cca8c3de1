//! A package's governance decisions (`reviews/rNNN.json`, written by `record`): the decision
//! vocabulary, the review file's bytes, its reader, and which decision stands for a revision.
//!
//! A review judges one revision *and the digest of the bytes it read*: a decision about bytes
//! that have since changed approves nothing. That is why [`is_approved`] asks for both, and why
//! the file carries the digest beside the revision number.
//!
//! The core never reads the clock: `recorded_at` arrives from the shell as an RFC 3339 UTC
//! timestamp.

use super::failure::DesignFailure;
use super::manifest::is_package_id;
use crate::canonical::is_digest;
use crate::error_code::ErrorCode;
use aw_json::js::{is_safe_integer, js_trim};
use serde::Serialize;
use serde_json::{Map, Value};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// The `schema` of every review file.
pub const REVIEW_SCHEMA: &str = "workline.design-review/v1";
/// The package folder that holds the review files.
pub const REVIEWS_DIR: &str = "reviews";
/// The keys of a review file, in the order they are written; any other key is refused.
pub const REVIEW_KEYS: [&str; 7] = [
    "schema",
    "id",
    "revision",
    "digest",
    "decision",
    "note",
    "recorded_at",
];

/// A governance decision on a revision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decision {
    /// The revision may be built from.
    Approved,
    /// The revision is turned down.
    Rejected,
    /// The revision needs another pass before it can be judged again.
    ChangesRequested,
}

/// Every decision, in the vocabulary's order.
pub const DECISIONS: [Decision; 3] = [
    Decision::Approved,
    Decision::Rejected,
    Decision::ChangesRequested,
];

impl Decision {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Approved => "approved",
            Decision::Rejected => "rejected",
            Decision::ChangesRequested => "changes-requested",
        }
    }

    /// The decision spelled exactly `text`, or `None`.
    pub fn parse(text: &str) -> Option<Decision> {
        DECISIONS.into_iter().find(|d| d.as_str() == text)
    }
}

/// The vocabulary as one line, for an action that has to list it.
fn decision_list() -> String {
    DECISIONS.map(Decision::as_str).join(", ")
}

/// One review file (keys in emission order).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Review {
    /// Always [`REVIEW_SCHEMA`].
    pub schema: String,
    /// The package identity (`DES-001`).
    pub id: String,
    /// The revision judged, from 1.
    pub revision: u64,
    /// `sha256:<64 hex>` of the `DESIGN.md` bytes that were judged.
    pub digest: String,
    /// What was decided.
    pub decision: Decision,
    /// Why, when someone said.
    pub note: Option<String>,
    /// When, as RFC 3339 UTC, from the clock the shell passed in.
    pub recorded_at: String,
}

/// The package-relative path of the review of `revision`: `reviews/rNNN.json` (at least three
/// digits, more when the revision needs them).
pub fn review_path(revision: u64) -> String {
    format!("{REVIEWS_DIR}/r{revision:03}.json")
}

/// The bytes of a review file: pretty JSON (two-space indent, keys in [`REVIEW_KEYS`] order)
/// and a final newline. `recorded_at` must already be RFC 3339 UTC — the caller owns the
/// clock; [`parse_review`] refuses a file whose timestamp is not.
pub fn review_json(
    id: &str,
    revision: u64,
    digest: &str,
    decision: Decision,
    note: Option<&str>,
    recorded_at: &str,
) -> String {
    let review = Review {
        schema: REVIEW_SCHEMA.to_owned(),
        id: id.to_owned(),
        revision,
        digest: digest.to_owned(),
        decision,
        note: note.map(str::to_owned),
        recorded_at: recorded_at.to_owned(),
    };
    // A struct of strings, integers and an enum always serializes.
    let mut text = serde_json::to_string_pretty(&review).unwrap_or_default();
    text.push('\n');
    text
}

/// Whether `digest` is `sha256:` and 64 lowercase hex digits.
fn is_sha256_digest(digest: &str) -> bool {
    digest.strip_prefix("sha256:").is_some_and(is_digest)
}

/// `recorded_at` as an instant, when it is RFC 3339 with a zero offset.
fn utc_instant(text: &str) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(text, &Rfc3339)
        .ok()
        .filter(|t| t.offset().is_utc())
}

/// The revision a `reviews/rNNN.json` file name claims, when the last segment of `path` has
/// that shape.
fn revision_in_name(path: &str) -> Option<u64> {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let digits = name.strip_prefix('r')?.strip_suffix(".json")?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

fn field_str<'a>(obj: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    obj.get(key).and_then(Value::as_str)
}

/// Reads a review file. `path` names it in the failure (workspace- or package-relative, as the
/// caller reports paths). Bytes that are not UTF-8 JSON are `DESIGN_REVIEW_UNREADABLE`; a JSON
/// value that breaks any rule is one `DESIGN_REVIEW_INVALID` whose message lists every broken
/// rule, so one repair fixes the file. The rules: an object with exactly the keys of
/// [`REVIEW_KEYS`]; `schema` is [`REVIEW_SCHEMA`]; `id` is a package identity; `revision` is a
/// whole number of at least 1 (and the one the file name `rNNN.json` claims, when it has that
/// shape); `digest` is `sha256:<64 hex>`; `decision` is one of [`DECISIONS`]; `note` is a string
/// or null; `recorded_at` is RFC 3339 in UTC.
pub fn parse_review(bytes: &[u8], path: &str) -> Result<Review, DesignFailure> {
    let unreadable = |why: String| {
        DesignFailure::new(
            ErrorCode::DesignReviewUnreadable,
            path,
            format!("the review cannot be read: {why}"),
            "record the decision again, or repair the file as a single JSON object",
        )
    };
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Err(unreadable("it is not UTF-8 text".to_owned()));
    };
    let value: Value =
        aw_json::parse_bounded(text).map_err(|e| unreadable(format!("it is not JSON ({e})")))?;
    let Some(obj) = value.as_object() else {
        return Err(invalid(
            path,
            &["the review is not a JSON object".to_owned()],
        ));
    };

    let mut broken: Vec<String> = Vec::new();
    let unknown: Vec<&str> = obj
        .keys()
        .map(String::as_str)
        .filter(|k| !REVIEW_KEYS.contains(k))
        .collect();
    if !unknown.is_empty() {
        broken.push(format!(
            "it has keys a review does not have: {}",
            unknown.join(", ")
        ));
    }
    let missing: Vec<&str> = REVIEW_KEYS
        .into_iter()
        .filter(|k| !obj.contains_key(*k))
        .collect();
    if !missing.is_empty() {
        broken.push(format!("it lacks the keys: {}", missing.join(", ")));
    }

    if obj.contains_key("schema") && field_str(obj, "schema") != Some(REVIEW_SCHEMA) {
        broken.push(format!("'schema' must be '{REVIEW_SCHEMA}'"));
    }
    let id = field_str(obj, "id").filter(|id| is_package_id(id));
    if obj.contains_key("id") && id.is_none() {
        broken.push("'id' must be a package identity such as 'DES-001'".to_owned());
    }
    // JavaScript reads `1.0` as the integer 1, as the manifest's revision does.
    let revision = obj
        .get("revision")
        .filter(|v| is_safe_integer(*v) && v.as_f64().is_some_and(|f| f >= 1.0))
        .and_then(Value::as_f64)
        .map(|f| f as u64);
    if obj.contains_key("revision") && revision.is_none() {
        broken.push("'revision' must be a whole number of at least 1".to_owned());
    }
    if let (Some(revision), Some(named)) = (revision, revision_in_name(path))
        && revision != named
    {
        broken.push(format!(
            "'revision' is {revision} but the file is the review of revision {named}"
        ));
    }
    let digest = field_str(obj, "digest").filter(|d| is_sha256_digest(d));
    if obj.contains_key("digest") && digest.is_none() {
        broken.push("'digest' must be 'sha256:' followed by 64 lowercase hex digits".to_owned());
    }
    let decision = field_str(obj, "decision").and_then(Decision::parse);
    if obj.contains_key("decision") && decision.is_none() {
        broken.push(format!("'decision' must be one of: {}", decision_list()));
    }
    let note = match obj.get("note") {
        Some(Value::String(s)) => Some(Some(s.clone())),
        Some(Value::Null) => Some(None),
        Some(_) => {
            broken.push("'note' must be a string or null".to_owned());
            None
        }
        None => None,
    };
    let recorded_at = field_str(obj, "recorded_at").filter(|t| utc_instant(t).is_some());
    if obj.contains_key("recorded_at") && recorded_at.is_none() {
        broken.push(
            "'recorded_at' must be an RFC 3339 timestamp in UTC, e.g. '2026-01-31T09:30:00Z'"
                .to_owned(),
        );
    }

    match (id, revision, digest, decision, note, recorded_at) {
        (Some(id), Some(revision), Some(digest), Some(decision), Some(note), Some(recorded_at))
            if broken.is_empty() =>
        {
            Ok(Review {
                schema: REVIEW_SCHEMA.to_owned(),
                id: id.to_owned(),
                revision,
                digest: digest.to_owned(),
                decision,
                note,
                recorded_at: recorded_at.to_owned(),
            })
        }
        _ => Err(invalid(path, &broken)),
    }
}

fn invalid(path: &str, broken: &[String]) -> DesignFailure {
    DesignFailure::new(
        ErrorCode::DesignReviewInvalid,
        path,
        format!("the review breaks the review format: {}", broken.join("; ")),
        "record the decision again with `record`: aw writes review files, nobody edits them",
    )
}

/// Whether `revision` with exactly `digest` stands approved: among the reviews of that
/// revision *and* digest, the latest decides (by `recorded_at`; of two at the same instant, the
/// later in `reviews` wins). A review of the same revision number over other bytes judges
/// something else and counts for nothing; no review means not approved.
pub fn is_approved(reviews: &[Review], revision: u64, digest: &str) -> bool {
    let mut latest: Option<(Option<OffsetDateTime>, &Review)> = None;
    for review in reviews
        .iter()
        .filter(|r| r.revision == revision && r.digest == digest)
    {
        let at = utc_instant(&review.recorded_at);
        // `>=` so a tie goes to the later entry; an unreadable timestamp (None) sorts first.
        if latest.is_none_or(|(best, _)| at >= best) {
            latest = Some((at, review));
        }
    }
    latest.is_some_and(|(_, r)| r.decision == Decision::Approved)
}

/// The `decision` input of `record`: exactly one of the three decisions (surrounding blanks
/// aside). Anything else — absent, not a string, another word — is `DESIGN_DECISION_INVALID`,
/// whose action lists the vocabulary.
pub fn decision_input(value: Option<&Value>) -> Result<Decision, DesignFailure> {
    let text = value.and_then(Value::as_str).map(js_trim);
    if let Some(decision) = text.and_then(Decision::parse) {
        return Ok(decision);
    }
    let given = match value {
        None => "no decision was given".to_owned(),
        Some(Value::String(s)) => format!("'{s}' is not a decision"),
        Some(_) => "the decision must be text".to_owned(),
    };
    Err(DesignFailure::new(
        ErrorCode::DesignDecisionInvalid,
        "decision",
        given,
        format!("pass 'decision' as one of: {}", decision_list()),
    ))
}

/// Every review of a package that parses, from the review files the index carried (files that
/// do not parse are left out: they approve nothing).
pub fn reviews_of(entry: &crate::design::index::DesignPackageEntry) -> Vec<Review> {
    entry
        .review_files
        .iter()
        .filter_map(|f| match &f.read {
            crate::design::manifest::FileRead::Bytes(b) => {
                parse_review(b, &format!("{}/{REVIEWS_DIR}/{}", entry.path, f.name)).ok()
            }
            _ => None,
        })
        .collect()
}

/// Whether a package's current revision carries an approving review of its current digest.
pub fn entry_approved(entry: &crate::design::index::DesignPackageEntry) -> bool {
    entry
        .current_baseline
        .as_ref()
        .is_some_and(|b| is_approved(&reviews_of(entry), b.revision, &b.digest))
}

#[cfg(test)]
#[path = "review_tests.rs"]
mod tests;
