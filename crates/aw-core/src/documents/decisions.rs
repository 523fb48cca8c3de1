//! Decision notes (`DEC-NNN`): sealed records of a divergence reconciled forward, kept per spec
//! lineage in `docs/decisions/<spec number>-decisions-<spec slug>.json`, outside the documents
//! they decide on (a note inside its spec would change the digest it amends).
//!
//! A note is complete or refused, each missing field under its own code; the chain is
//! append-only, ordered by date then id, and a note stops being *effective* when another names
//! it in `supersedes_note`. The board reads an index that does not validate as no notes at all,
//! as the reference does.

use crate::canonical::{canonical_json, is_digest, sha256_hex};
use regex::Regex;
use serde::Serialize;
use serde_json::Value;
use std::cmp::Ordering;
use std::sync::LazyLock;

/// The note format this reader understands.
pub const NOTE_SCHEMA: &str = "workline.decision-note/v1";

/// Where decision indexes live (one of the four document folders `[docs]` may not move).
pub const DECISIONS_DIR: &str = "docs/decisions";

/// The index format this reader understands.
pub const INDEX_SCHEMA: &str = "workline.decision-index/v1";

/// `S001/AC-01`, `S001/AC-UI-2`: a spec's acceptance criterion.
pub const CRITERION: &str = r"S[0-9]{3}/AC-(?:[A-Z]+-)?[0-9]+";

static CRITERION_ANY: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(CRITERION).ok());
static CRITERION_ALL: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(&format!("^{CRITERION}$")).ok());

/// One end of a note's lineage: a document, its number and its digest (for a spec, its
/// baseline digest: [`super::baseline::spec_digest`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Anchor {
    /// Its workspace-relative path.
    pub path: String,
    /// Its number.
    pub number: String,
    /// `sha256:` + 64 hex.
    pub digest: String,
}

/// Where the run stood when the divergence appeared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Execution {
    /// The session folder.
    pub session: String,
    /// The phase (`F4`).
    pub phase: String,
}

/// What a note decides on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Lineage {
    /// The spec.
    pub spec: Anchor,
    /// The plan.
    pub plan: Anchor,
    /// The execution.
    pub execution: Execution,
}

/// How far a decision reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Scope {
    /// It changes what the spec promised.
    #[serde(rename = "functional")]
    Functional,
    /// It changes only how the plan gets there.
    #[serde(rename = "plan-only")]
    PlanOnly,
}

/// A validated note. Field names and order are the record's; `digest` is not part of what the
/// digest covers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Note {
    /// Always [`NOTE_SCHEMA`].
    pub schema: &'static str,
    /// `DEC-NNN`.
    pub id: String,
    /// What it decides on.
    pub lineage: Lineage,
    /// What was decided.
    pub decision: String,
    /// Why.
    pub reason: String,
    /// The criteria it replaces.
    pub supersedes_assertions: Vec<String>,
    /// The note it corrects.
    pub supersedes_note: Option<String>,
    /// How far it reaches.
    pub scope: Scope,
    /// The plans it reaches.
    pub consumers: Vec<String>,
    /// Evidence that still counts.
    pub evidence_preserved: Vec<String>,
    /// Evidence that no longer counts.
    pub evidence_invalidated: Vec<String>,
    /// Compensating work it creates.
    pub obligations: Vec<String>,
    /// Where execution resumes.
    pub resume_point: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    /// Its seal.
    #[serde(skip)]
    pub digest: String,
}

impl Note {
    /// The seal of the note's content: `sha256:` + SHA-256 of the canonical JSON of every field
    /// but `digest`.
    pub fn computed_digest(&self) -> String {
        let value = serde_json::to_value(self).unwrap_or(Value::Null);
        format!("sha256:{}", sha256_hex(canonical_json(&value).as_bytes()))
    }
}

/// Why a note or an index is refused: a stable code and what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// `NOTE_ID_INVALID`, `NOTE_INDEX_SCHEMA_UNKNOWN`, …
    pub code: &'static str,
    /// What is wrong.
    pub message: String,
}

fn refusal(code: &'static str, message: impl Into<String>) -> Refusal {
    Refusal {
        code,
        message: message.into(),
    }
}

/// Whether a string is a note id: `DEC-` and three digits, or more without a leading zero.
pub fn is_note_id(s: &str) -> bool {
    let Some(n) = s.strip_prefix("DEC-") else {
        return false;
    };
    n.bytes().all(|b| b.is_ascii_digit()) && (n.len() == 3 || (n.len() > 3 && !n.starts_with('0')))
}

/// `YYYY-MM-DD` by shape only: the reference checks no more, and a note it sealed with an
/// impossible day must still read (so this is not `crate::calendar`'s date rule).
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}

fn text(v: Option<&Value>) -> Option<&str> {
    v.and_then(Value::as_str).filter(|s| !s.trim().is_empty())
}

fn nonempty(v: Option<&Value>) -> Option<&str> {
    v.and_then(Value::as_str).filter(|s| !s.is_empty())
}

/// A list of non-empty strings.
fn list(v: Option<&Value>) -> Option<Vec<String>> {
    v.and_then(Value::as_array)?
        .iter()
        .map(|s| nonempty(Some(s)).map(str::to_owned))
        .collect()
}

/// Validates one note as the reference does: the schema first and alone, then every field, each
/// failure under its own code, and the digest only once everything else reads.
pub fn validate(raw: &Value) -> Result<Note, Vec<Refusal>> {
    let mut note = read_content(raw)?;
    let expected = note.computed_digest();
    match raw.get("digest").and_then(Value::as_str) {
        None | Some("") => Err(vec![refusal(
            "NOTE_DIGEST_MISSING",
            format!("'digest' is required: this content seals to {expected}"),
        )]),
        Some(d) if d != expected => Err(vec![refusal(
            "NOTE_DIGEST_MISMATCH",
            format!("'digest' is not the seal of the note's content ({expected})"),
        )]),
        Some(d) => {
            note.digest = d.to_owned();
            Ok(note)
        }
    }
}

/// Reads every field of a note but its seal (`digest` left empty): what [`validate`] checks
/// before the seal, and what a writer seals.
pub fn read_content(raw: &Value) -> Result<Note, Vec<Refusal>> {
    let Some(o) = raw.as_object() else {
        return Err(vec![refusal(
            "NOTE_NOT_OBJECT",
            "the note is not a JSON object",
        )]);
    };
    if o.get("schema").and_then(Value::as_str) != Some(NOTE_SCHEMA) {
        return Err(vec![refusal(
            "NOTE_SCHEMA_UNKNOWN",
            format!("the note's format is not {NOTE_SCHEMA}"),
        )]);
    }
    let mut failures = Vec::new();
    let mut fail = |code, message: &str| failures.push(refusal(code, message));
    let id = o
        .get("id")
        .and_then(Value::as_str)
        .filter(|s| is_note_id(s));
    if id.is_none() {
        fail("NOTE_ID_INVALID", "'id' must be DEC-NNN");
    }
    let lineage = lineage(o.get("lineage"), &mut fail);
    let decision = text(o.get("decision"));
    if decision.is_none() {
        fail(
            "NOTE_DECISION_MISSING",
            "'decision' is required and not blank",
        );
    }
    let reason = text(o.get("reason"));
    if reason.is_none() {
        fail("NOTE_REASON_MISSING", "'reason' is required and not blank");
    }
    let assertions = assertions(o.get("supersedes_assertions"), &mut fail);
    let supersedes_note = match o.get("supersedes_note") {
        Some(Value::Null) => Some(None),
        Some(Value::String(s)) if is_note_id(s) => Some(Some(s.clone())),
        _ => {
            fail(
                "NOTE_SUPERSEDES_INVALID",
                "'supersedes_note' must be a DEC-NNN or null",
            );
            None
        }
    };
    let scope = match o.get("scope").and_then(Value::as_str) {
        Some("functional") => Some(Scope::Functional),
        Some("plan-only") => Some(Scope::PlanOnly),
        _ => {
            fail(
                "NOTE_SCOPE_INVALID",
                "'scope' must be 'functional' or 'plan-only'",
            );
            None
        }
    };
    let mut required_list = |key: &str, code| {
        let l = list(o.get(key));
        if l.is_none() {
            fail(code, &format!("'{key}' is required: a list of strings"));
        }
        l
    };
    let consumers = required_list("consumers", "NOTE_CONSUMERS_MISSING");
    let preserved = required_list("evidence_preserved", "NOTE_EVIDENCE_PRESERVED_MISSING");
    let invalidated = required_list("evidence_invalidated", "NOTE_EVIDENCE_INVALIDATED_MISSING");
    let obligations = required_list("obligations", "NOTE_OBLIGATIONS_MISSING");
    let resume_point = text(o.get("resume_point"));
    if resume_point.is_none() {
        fail(
            "NOTE_RESUME_POINT_MISSING",
            "'resume_point' is required and not blank",
        );
    }
    let date = o.get("date").and_then(Value::as_str).filter(|d| is_date(d));
    if date.is_none() {
        fail("NOTE_DATE_INVALID", "'date' must be a YYYY-MM-DD date");
    }
    let (
        Some(id),
        Some(lineage),
        Some(decision),
        Some(reason),
        Some(assertions),
        Some(supersedes_note),
        Some(scope),
        Some(consumers),
        Some(preserved),
        Some(invalidated),
        Some(obligations),
        Some(resume_point),
        Some(date),
    ) = (
        id,
        lineage,
        decision,
        reason,
        assertions,
        supersedes_note,
        scope,
        consumers,
        preserved,
        invalidated,
        obligations,
        resume_point,
        date,
    )
    else {
        return Err(failures);
    };
    Ok(Note {
        schema: NOTE_SCHEMA,
        id: id.to_owned(),
        lineage,
        decision: decision.to_owned(),
        reason: reason.to_owned(),
        supersedes_assertions: assertions,
        supersedes_note,
        scope,
        consumers,
        evidence_preserved: preserved,
        evidence_invalidated: invalidated,
        obligations,
        resume_point: resume_point.to_owned(),
        date: date.to_owned(),
        digest: String::new(),
    })
}

fn anchor(
    v: Option<&Value>,
    side: &str,
    fail: &mut impl FnMut(&'static str, &str),
) -> Option<Anchor> {
    let Some(o) = v.and_then(Value::as_object) else {
        fail(
            "NOTE_LINEAGE_MISSING",
            &format!("'lineage.{side}' is required"),
        );
        return None;
    };
    let (Some(path), Some(Value::String(number))) = (nonempty(o.get("path")), o.get("number"))
    else {
        fail(
            "NOTE_LINEAGE_INVALID",
            &format!("'lineage.{side}' needs 'path' and 'number'"),
        );
        return None;
    };
    let sealed = |d: &&str| d.strip_prefix("sha256:").is_some_and(is_digest);
    let Some(digest) = o.get("digest").and_then(Value::as_str).filter(sealed) else {
        fail(
            "NOTE_LINEAGE_DIGEST_INVALID",
            &format!("'lineage.{side}.digest' must be 'sha256:' followed by 64 hex digits"),
        );
        return None;
    };
    Some(Anchor {
        path: path.to_owned(),
        number: number.clone(),
        digest: digest.to_owned(),
    })
}

fn lineage(v: Option<&Value>, fail: &mut impl FnMut(&'static str, &str)) -> Option<Lineage> {
    let Some(o) = v.and_then(Value::as_object) else {
        fail("NOTE_LINEAGE_MISSING", "'lineage' is required");
        return None;
    };
    let spec = anchor(o.get("spec"), "spec", fail);
    let plan = anchor(o.get("plan"), "plan", fail);
    let execution = o.get("execution").and_then(Value::as_object);
    let session = execution.and_then(|e| nonempty(e.get("session")));
    let phase = execution.and_then(|e| nonempty(e.get("phase")));
    let (Some(session), Some(phase)) = (session, phase) else {
        fail(
            "NOTE_EXECUTION_STATE_MISSING",
            "'lineage.execution' needs 'session' and 'phase'",
        );
        return None;
    };
    Some(Lineage {
        spec: spec?,
        plan: plan?,
        execution: Execution {
            session: session.to_owned(),
            phase: phase.to_owned(),
        },
    })
}

fn assertions(v: Option<&Value>, fail: &mut impl FnMut(&'static str, &str)) -> Option<Vec<String>> {
    let Some(l) = list(v) else {
        fail(
            "NOTE_ASSERTIONS_MISSING",
            "'supersedes_assertions' is required: a list of strings",
        );
        return None;
    };
    let criterion = |s: &str| CRITERION_ALL.as_ref().is_some_and(|re| re.is_match(s));
    let wrong: Vec<&str> = l
        .iter()
        .map(String::as_str)
        .filter(|s| !criterion(s))
        .collect();
    if !wrong.is_empty() {
        fail(
            "NOTE_ASSERTIONS_INVALID",
            &format!(
                "'supersedes_assertions' does not address criteria as S001/AC-01: {}",
                wrong.join(", ")
            ),
        );
        return None;
    }
    let mut seen = std::collections::HashSet::new();
    if !l.iter().all(|s| seen.insert(s.as_str())) {
        fail(
            "NOTE_ASSERTIONS_DUPLICATE",
            "'supersedes_assertions' names an assertion twice",
        );
        return None;
    }
    Some(l)
}

/// Reads a decision index: its notes in chain order, or why it does not read (the board then
/// reads no notes).
pub fn read_index(raw: &Value) -> Result<Vec<Note>, Vec<Refusal>> {
    let Some(o) = raw.as_object() else {
        return Err(vec![refusal(
            "NOTE_INDEX_INVALID",
            "the index is not a JSON object",
        )]);
    };
    if o.get("schema").and_then(Value::as_str) != Some(INDEX_SCHEMA) {
        return Err(vec![refusal(
            "NOTE_INDEX_SCHEMA_UNKNOWN",
            format!("the index's format is not {INDEX_SCHEMA}"),
        )]);
    }
    let Some(entries) = o.get("notes").and_then(Value::as_array) else {
        return Err(vec![refusal(
            "NOTE_INDEX_INVALID",
            "'notes' must be a list",
        )]);
    };
    let mut notes = Vec::new();
    let mut failures = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        match validate(entry) {
            Ok(n) => notes.push(n),
            Err(fs) => failures.extend(fs.into_iter().map(|f| Refusal {
                code: f.code,
                message: format!("notes[{i}] {}", f.message),
            })),
        }
    }
    failures.extend(chain_refusals(&notes));
    if failures.is_empty() {
        Ok(ordered(notes))
    } else {
        Err(failures)
    }
}

/// What no append could have produced: an id published twice, a note superseding itself, one
/// the chain does not hold, or a ring of notes superseding each other. The reference checks
/// these only when it appends; read as they are, they would let an obligation disappear.
fn chain_refusals(notes: &[Note]) -> Vec<Refusal> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for n in notes {
        if !seen.insert(n.id.as_str()) {
            out.push(refusal(
                "NOTE_ALREADY_PUBLISHED",
                format!("{} is published more than once", n.id),
            ));
        }
    }
    let target = |id: &str| notes.iter().find(|n| n.id == id);
    for n in notes {
        let Some(first) = n.supersedes_note.as_deref() else {
            continue;
        };
        if first == n.id || target(first).is_none() {
            out.push(refusal(
                "NOTE_SUPERSEDES_ABSENT",
                format!(
                    "{} supersedes {first}, which is not an earlier note of the chain",
                    n.id
                ),
            ));
            continue;
        }
        // Following the supersedes links from a note must end; coming back to it is a ring.
        let mut at = target(first);
        for _ in 0..notes.len() {
            match at {
                Some(m) if m.id == n.id => {
                    out.push(refusal(
                        "NOTE_SUPERSEDES_ABSENT",
                        format!("{} is superseded, through other notes, by itself", n.id),
                    ));
                    break;
                }
                Some(m) => at = m.supersedes_note.as_deref().and_then(target),
                None => break,
            }
        }
    }
    out
}

/// The chain order: date, then id by number (then as text).
pub fn ordered(mut notes: Vec<Note>) -> Vec<Note> {
    notes.sort_by(chain_order);
    notes
}

/// Date first, then id by number (then as text).
fn chain_order(a: &Note, b: &Note) -> Ordering {
    a.date.cmp(&b.date).then_with(|| id_order(&a.id, &b.id))
}

fn id_order(a: &str, b: &str) -> Ordering {
    let number = |s: &str| {
        s.get(4..)
            .and_then(|n| n.parse::<f64>().ok())
            .unwrap_or(f64::NAN)
    };
    match number(a).partial_cmp(&number(b)) {
        Some(Ordering::Equal) | None => a.cmp(b),
        Some(o) => o,
    }
}

/// The notes in force, in chain order: every one no note names in `supersedes_note`.
pub fn effective(chain: &[Note]) -> Vec<&Note> {
    let superseded: Vec<&str> = chain
        .iter()
        .filter_map(|n| n.supersedes_note.as_deref())
        .collect();
    let mut notes: Vec<&Note> = chain
        .iter()
        .filter(|n| !superseded.contains(&n.id.as_str()))
        .collect();
    notes.sort_by(|a, b| chain_order(a, b));
    notes
}

/// The criteria a spec states, outside fences, in document order, each once.
pub fn spec_criteria(lines: &[crate::markdown::Line<'_>]) -> Vec<String> {
    let Some(re) = CRITERION_ANY.as_ref() else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    for l in lines
        .iter()
        .filter(|l| !l.fenced && l.text.contains("/AC-"))
    {
        for m in re.find_iter(l.text) {
            if !out.iter().any(|c| c == m.as_str()) {
                out.push(m.as_str().to_owned());
            }
        }
    }
    out
}

/// A note as JSON with its seal computed: what a writer stores (and what the tests build).
pub fn sealed(note: &Note) -> Value {
    let mut v = serde_json::to_value(note).unwrap_or(Value::Null);
    if let Some(o) = v.as_object_mut() {
        o.insert("digest".to_owned(), Value::String(note.computed_digest()));
    }
    v
}
