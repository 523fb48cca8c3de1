//! G1–G5: the early checks that stop the run (read, parse, root shape, schema).

use super::value::{Map, Value};
use super::{Class, Finding, Report, SUPPORTED_SCHEMA, js};
use std::borrow::Cow;

fn early(
    class: Class,
    name: Option<serde_json::Value>,
    path: &str,
    rule: &'static str,
    message: String,
) -> Report {
    Report {
        class,
        name,
        kind: None,
        available: None,
        errors: vec![Finding {
            path: path.to_owned(),
            rule,
            message,
        }],
    }
}

/// G1: the manifest must be readable. Gives its text: borrowed when the bytes are UTF-8, which
/// nearly every manifest is.
// The error is the finished early report, built once per run; boxing it would buy nothing.
#[allow(clippy::result_large_err)]
pub(super) fn decode<'b>(
    manifest: Option<&'b [u8]>,
    skill_dir: &str,
) -> Result<Cow<'b, str>, Report> {
    let Some(bytes) = manifest else {
        return Err(early(
            Class::Invalid,
            None,
            "capability.json",
            "gate.not-found",
            format!("`capability.json` was not found (or is not a readable file) in {skill_dir}"),
        ));
    };
    // The reference decodes with U+FFFD replacement and keeps a leading BOM (which then fails
    // to parse); lossy decoding does the same.
    Ok(match std::str::from_utf8(bytes) {
        Ok(t) => Cow::Borrowed(t),
        Err(_) => String::from_utf8_lossy(bytes),
    })
}

/// G2: the report for a manifest that is not JSON; `why` is the parser's message.
pub(super) fn malformed(why: &str) -> Report {
    early(
        Class::Invalid,
        None,
        "capability.json",
        "gate.malformed-json",
        format!("`capability.json` is not valid JSON: {why}"),
    )
}

/// Parses a JSON text into the borrowed tree, nested at most [`MAX_DEPTH`] levels.
pub(super) fn parse(text: &str) -> Result<Value<'_>, String> {
    aw_json::parse_bounded(text)
}

/// G3: the root must be a plain object.
pub(super) fn not_an_object() -> Report {
    early(
        Class::Invalid,
        None,
        "capability.json",
        "gate.root-not-object",
        "`capability.json` must hold a JSON object at the top level".to_owned(),
    )
}

/// G4 and G5: `schema` must be the number 1.
pub(super) fn schema(root: &Map) -> Option<Report> {
    // The name is only copied out for a report, never on the way through.
    let name = || root.get("name").map(Value::to_json);
    let Some(n) = root.get("schema").and_then(js::number) else {
        return Some(early(
            Class::Invalid,
            name(),
            "schema",
            "gate.schema-type",
            "`schema` is missing or is not a number".to_owned(),
        ));
    };
    (n != SUPPORTED_SCHEMA).then(|| {
        early(
            Class::Unsupported,
            name(),
            "schema",
            "gate.schema-unsupported",
            format!(
                "`schema` is {}, but this validator understands schema 1 only",
                js::number_to_string(n)
            ),
        )
    })
}
