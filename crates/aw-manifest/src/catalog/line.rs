//! The one-line rule (O1–O3) and the list-of-lines rule (E7).
//!
//! Every catalog string is printed verbatim as one line of a terminal-width listing, so it must be
//! a non-empty string without control characters and at most [`CATALOG_LINE_MAX`] UTF-16 units
//! long (JS `.length`, so an emoji counts twice). Whitespace-only text is accepted, as in the
//! reference.

use super::super::value::Value;
use super::super::{CATALOG_LINE_MAX, Ctx, Path, js};

/// Why a value is not an acceptable catalog line. Only the first applicable fault is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Fault {
    /// Not a string, or an empty one (O1).
    Required,
    /// Carries a C0 control character or DEL (O2).
    Control,
    /// Longer than the cap, in UTF-16 units (O3).
    TooLong(usize),
}

impl Fault {
    fn rule(self) -> &'static str {
        match self {
            Fault::Required => "catalog.line-required",
            Fault::Control => "catalog.line-control",
            Fault::TooLong(_) => "catalog.line-too-long",
        }
    }
}

/// The first fault of a value under the one-line rule, if any.
pub(super) fn fault(value: Option<&Value>) -> Option<Fault> {
    match value {
        Some(Value::String(s)) => text_fault(s),
        _ => Some(Fault::Required),
    }
}

/// The first fault of a string under the one-line rule, if any.
fn text_fault(s: &str) -> Option<Fault> {
    if s.is_empty() {
        return Some(Fault::Required);
    }
    if js::has_control(s) {
        return Some(Fault::Control);
    }
    // A UTF-16 length never exceeds the UTF-8 one, so a short string needs no counting.
    if s.len() <= CATALOG_LINE_MAX {
        return None;
    }
    let len = js::utf16_len(s);
    (len > CATALOG_LINE_MAX).then_some(Fault::TooLong(len))
}

/// O1–O3 on a catalog field; true when the value is an acceptable line.
pub(super) fn one_line(cx: &mut Ctx, path: Path, value: Option<&Value>) -> bool {
    let Some(f) = fault(value) else {
        return true;
    };
    let text = match f {
        Fault::Required => format!(
            "must be a non-empty one-line string, not {}",
            describe(value)
        ),
        Fault::Control => "must not contain control characters (line breaks, tabs, other C0 \
                           characters or DEL): the catalog prints it as a single line"
            .to_owned(),
        Fault::TooLong(len) => format!(
            "is {len} characters long; a catalog line holds at most {CATALOG_LINE_MAX} (UTF-16 \
             units), so shorten it"
        ),
    };
    cx.fail(f.rule(), path, text);
    false
}

/// O2–O3 on a contract form an invocation reference resolves to (K9). The finding sits on the
/// reference; the text names the contract entry that needs fixing, which `target` spells out
/// (only for a finding). `form` is already known to be a non-empty string.
pub(super) fn referenced_form(
    cx: &mut Ctx,
    path: Path,
    target: impl FnOnce() -> String,
    form: &str,
) -> bool {
    let Some(f) = text_fault(form) else {
        return true;
    };
    let target = target();
    let text = match f {
        Fault::Required => format!("resolves to {target}, which is not a non-empty string"),
        Fault::Control => format!(
            "resolves to {target}, which contains control characters; a referenced invocation \
             form is printed as one line, so remove them from the contract"
        ),
        Fault::TooLong(len) => format!(
            "resolves to {target}, which is {len} characters long; a referenced invocation form \
             is printed as one line of at most {CATALOG_LINE_MAX} (UTF-16 units)"
        ),
    };
    cx.fail(f.rule(), path, text);
    false
}

/// E7, then O1–O3 on each item: a non-empty array of one-line strings.
pub(super) fn string_list(cx: &mut Ctx, path: Path, value: Option<&Value>) {
    match value.and_then(Value::as_array) {
        Some(items) if !items.is_empty() => {
            for (k, item) in items.iter().enumerate() {
                one_line(cx, path.index(k), Some(item));
            }
        }
        _ => cx.fail(
            "catalog.list-required",
            path,
            format!(
                "must be a non-empty array of one-line strings, not {}",
                describe(value)
            ),
        ),
    }
}

/// A value for a message: a string JSON-quoted (so it stays on one line), anything else described
/// by its type.
pub(super) fn show(value: Option<&Value>) -> String {
    match value {
        Some(Value::String(s)) => js::quote_str(s),
        other => describe(other).to_owned(),
    }
}

/// A short English description of what a value is, for "not …" phrases. It never embeds the value
/// itself, so messages stay short and on one line whatever the input holds.
pub(super) fn describe(value: Option<&Value>) -> &'static str {
    match value {
        None => "missing",
        Some(Value::Null) => "null",
        Some(Value::Bool(_)) => "a boolean",
        Some(Value::Number(_)) => "a number",
        Some(Value::String(s)) if s.is_empty() => "an empty string",
        Some(Value::String(_)) => "a string",
        Some(Value::Array(a)) if a.is_empty() => "an empty array",
        Some(Value::Array(_)) => "an array",
        Some(Value::Object(_)) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A JSON string value for `s`.
    fn text(s: &str) -> Value<'_> {
        Value::String(s.into())
    }

    fn parse(text: &str) -> Value<'_> {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn faults_in_order() {
        assert_eq!(fault(None), Some(Fault::Required));
        assert_eq!(fault(Some(&text(""))), Some(Fault::Required));
        assert_eq!(fault(Some(&parse("3"))), Some(Fault::Required));
        assert_eq!(fault(Some(&text("a\nb"))), Some(Fault::Control));
        assert_eq!(fault(Some(&text("a\u{7f}"))), Some(Fault::Control));
        assert_eq!(fault(Some(&text("a\u{85}"))), None);
        assert_eq!(fault(Some(&text("   "))), None);
        let long = format!("{}\n", "x".repeat(300));
        assert_eq!(fault(Some(&text(&long))), Some(Fault::Control));
    }

    #[test]
    fn cap_counts_utf16_units() {
        let exact = format!("{}😀", "x".repeat(198));
        assert_eq!(fault(Some(&text(&exact))), None);
        let over = format!("{}😀", "x".repeat(199));
        assert_eq!(fault(Some(&text(&over))), Some(Fault::TooLong(201)));
        assert_eq!(fault(Some(&text(&"é".repeat(200)))), None);
    }
}
