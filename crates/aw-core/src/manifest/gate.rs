//! G1–G5: the early checks that stop the run (read, parse, root shape, schema).

use super::{Class, Finding, MAX_DEPTH, Report, SUPPORTED_SCHEMA, js};
use serde::Deserialize;
use serde_json::{Map, Value};

fn early(
    class: Class,
    name: Option<Value>,
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

/// G1 and G2: the manifest must be readable and parse as JSON.
// The error is the finished early report, built once per run; boxing it would buy nothing.
#[allow(clippy::result_large_err)]
pub(super) fn open(manifest: Option<&[u8]>, skill_dir: &str) -> Result<Value, Report> {
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
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => std::borrow::Cow::Borrowed(t),
        Err(_) => String::from_utf8_lossy(bytes),
    };
    parse(&text).map_err(|why| {
        early(
            Class::Invalid,
            None,
            "capability.json",
            "gate.malformed-json",
            format!("`capability.json` is not valid JSON: {why}"),
        )
    })
}

pub(super) fn parse(text: &str) -> Result<Value, String> {
    // Nearly every manifest is shallow: serde_json's own limit (128 levels) is the fast path,
    // and only a deeper text pays for the scan that bounds the unlimited parse.
    match serde_json::from_str::<Value>(text) {
        Err(e) if e.to_string().starts_with("recursion limit exceeded") => {}
        other => return other.map_err(|e| e.to_string()),
    }
    let depth = nesting_depth(text);
    if depth > MAX_DEPTH {
        return Err(format!(
            "nesting is {depth} levels deep (at most {MAX_DEPTH} are read)"
        ));
    }
    let mut de = serde_json::Deserializer::from_str(text);
    // The depth was bounded above, so serde_json's own (much lower) limit is not needed.
    de.disable_recursion_limit();
    let value = Value::deserialize(&mut de).map_err(|e| e.to_string())?;
    de.end().map_err(|e| e.to_string())?;
    Ok(value)
}

/// The deepest bracket nesting of a JSON text, ignoring brackets inside strings.
fn nesting_depth(text: &str) -> usize {
    let (mut depth, mut max, mut in_str, mut escaped) = (0usize, 0usize, false, false);
    for b in text.bytes() {
        if in_str {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
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
pub(super) fn schema(root: &Map<String, Value>) -> Option<Report> {
    let name = root.get("name").cloned();
    let Some(n) = root.get("schema").and_then(js::number) else {
        return Some(early(
            Class::Invalid,
            name,
            "schema",
            "gate.schema-type",
            "`schema` is missing or is not a number".to_owned(),
        ));
    };
    (n != SUPPORTED_SCHEMA).then(|| {
        early(
            Class::Unsupported,
            name,
            "schema",
            "gate.schema-unsupported",
            format!(
                "`schema` is {}, but this validator understands schema 1 only",
                js::number_to_string(n)
            ),
        )
    })
}
