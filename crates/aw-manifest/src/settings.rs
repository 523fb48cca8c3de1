//! S1–S13: the `settings` block, the knobs a member's wrappers read.
//!
//! [`setting_value_valid`] is also the predicate a settings writer must apply before storing a
//! value, so the validator and the writer can never disagree about what a kind accepts.

use super::js::{Json, JsonObject};
use super::value::{Map, Value};
use super::{Ctx, Path, js, set::Seen};

/// The accepted setting kinds.
pub const SETTING_KINDS: [&str; 4] = ["enum", "integer", "duration", "boolean"];

/// A retirement reason shorter than this (in UTF-16 units, after trimming) explains nothing.
const RETIRED_MIN: usize = 20;

/// Whether `value` is acceptable for the setting `entry`, by the entry's `kind`:
///
/// * `enum`: one of `values`, exactly;
/// * `integer`: ASCII digits only (no sign, leading zeros allowed), a safe integer, and within
///   `min`..=`max` (a missing bound rejects everything, so a negative value is never valid);
/// * `duration`: digits, an optional decimal part, then one of `s m h d`, and not zero;
/// * `boolean`: `"0"` or `"1"`;
/// * any other kind: never.
///
/// `entry` is the setting as serde_json's `Map` (what a settings writer holds) or as the
/// validator's own borrowed [`Map`].
pub fn setting_value_valid<E: JsonObject + ?Sized>(entry: &E, value: &str) -> bool {
    match entry.field("kind").and_then(|k| k.view().as_str()) {
        Some("enum") => entry
            .field("values")
            .and_then(|v| v.view().as_array())
            .is_some_and(|values| values.iter().any(|v| v.view().as_str() == Some(value))),
        Some("integer") => {
            if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
                return false;
            }
            let n = js::string_to_number(value);
            // The bounds are compared as JS does, coercing whatever type they have; NaN (a
            // missing or non-numeric bound) makes both comparisons false.
            n.fract() == 0.0
                && n <= 9_007_199_254_740_991.0
                && js::to_number(entry.field("min")) <= n
                && n <= js::to_number(entry.field("max"))
        }
        Some("duration") => is_duration(value) && !is_zero_duration(value),
        Some("boolean") => value == "0" || value == "1",
        _ => false,
    }
}

/// `^[0-9]+(\.[0-9]+)?[smhd]$`, where `$` is the very end (a trailing newline fails).
fn is_duration(s: &str) -> bool {
    let Some(body) = s.strip_suffix(['s', 'm', 'h', 'd']) else {
        return false;
    };
    let (int, frac) = match body.split_once('.') {
        Some((int, frac)) => (int, Some(frac)),
        None => (body, None),
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    digits(int) && frac.is_none_or(digits)
}

/// `^0+(\.0+)?[smhd]$`: a duration that would disable what it times.
fn is_zero_duration(s: &str) -> bool {
    let Some(body) = s.strip_suffix(['s', 'm', 'h', 'd']) else {
        return false;
    };
    let (int, frac) = match body.split_once('.') {
        Some((int, frac)) => (int, Some(frac)),
        None => (body, None),
    };
    let zeros = |t: &str| !t.is_empty() && t.bytes().all(|b| b == b'0');
    zeros(int) && frac.is_none_or(zeros)
}

pub(super) fn check(cx: &mut Ctx) {
    let Some(settings) = cx.root.get("settings").filter(|v| js::present(Some(v))) else {
        return;
    };
    let Some(entries) = settings.as_array() else {
        cx.fail(
            "settings.not-array",
            "settings",
            format!(
                "must be an array of setting entries (found {})",
                js::describe(Some(settings))
            ),
        );
        return;
    };
    // The commands this manifest's wrappers answer to: what `appliesTo` may name.
    let cmds: Seen<&str> = cx
        .roles
        .values()
        .filter_map(|role| role.as_object())
        .filter_map(|role| js::non_empty_str(role.get("cmd")))
        .collect();
    let block = Path::Name("settings");
    let mut seen = Seen::new();
    for (i, entry) in entries.iter().enumerate() {
        let at = block.index(i);
        let Some(entry) = entry.as_object() else {
            cx.fail(
                "settings.entry-not-object",
                at,
                format!("must be an object (found {})", js::describe(Some(entry))),
            );
            continue;
        };
        check_entry(cx, &at, entry, &cmds, &mut seen);
    }
}

fn check_entry<'a>(
    cx: &mut Ctx,
    at: &Path,
    entry: &'a Map,
    cmds: &Seen<&str>,
    seen: &mut Seen<&'a str>,
) {
    match entry.get("key").and_then(Value::as_str) {
        Some(key) if js::is_upper_snake(key) => {
            if !seen.insert(key) {
                cx.fail(
                    "settings.key-duplicate",
                    at.field("key"),
                    format!(
                        "repeats {}, already declared by an earlier entry",
                        js::quote_str(key)
                    ),
                );
            }
        }
        _ => cx.fail(
            "settings.key-format",
            at.field("key"),
            format!(
                "must be an UPPER_SNAKE_CASE string (found {})",
                js::describe(entry.get("key"))
            ),
        ),
    }

    if js::non_empty_str(entry.get("effect")).is_none() {
        cx.fail(
            "settings.effect",
            at.field("effect"),
            "must be a non-empty string describing what the setting changes",
        );
    }

    if let Some(retired) = entry.get("retired") {
        let explained = retired
            .as_str()
            .is_some_and(|why| js::utf16_len(js::js_trim(why)) >= RETIRED_MIN);
        if !explained {
            cx.fail(
                "settings.retired-reason",
                at.field("retired"),
                format!(
                    "must be a string explaining why the setting is retired, at least {RETIRED_MIN} characters long"
                ),
            );
        }
    }

    check_applies_to(cx, at, entry.get("appliesTo"), cmds);

    let kind = match entry.get("kind").and_then(Value::as_str) {
        Some(kind) if SETTING_KINDS.contains(&kind) => kind,
        _ => {
            // Without a known kind nothing below has a meaning, the default included.
            cx.fail(
                "settings.kind",
                at.field("kind"),
                format!(
                    "must be one of {} (found {})",
                    SETTING_KINDS.join(", "),
                    js::describe(entry.get("kind"))
                ),
            );
            return;
        }
    };

    match kind {
        "enum" if !enum_values_ok(entry.get("values")) => cx.fail(
            "settings.enum-values",
            at.field("values"),
            "must be a non-empty array of distinct non-empty strings for an enum setting",
        ),
        "integer" if !integer_range_ok(entry) => cx.fail(
            "settings.integer-range",
            at,
            "must give `min` and `max` as integers with min <= max for an integer setting",
        ),
        _ => {}
    }

    match entry.get("default") {
        None => cx.fail(
            "settings.default-missing",
            at.field("default"),
            "is required (use null to keep the wrapper's built-in behaviour)",
        ),
        Some(Value::Null) => {}
        Some(default) => {
            let text = default.as_str();
            if !text.is_some_and(|v| setting_value_valid(entry, v)) {
                let zero = kind == "duration" && text.is_some_and(is_zero_duration);
                let found = js::describe(Some(default));
                if zero {
                    cx.fail(
                        "settings.duration-zero",
                        at.field("default"),
                        format!("must be null or a non-zero duration (found {found})"),
                    );
                } else {
                    cx.fail(
                        "settings.default-invalid",
                        at.field("default"),
                        format!("must be null or a string the {kind} kind accepts (found {found})"),
                    );
                }
            }
        }
    }
}

/// S7 and S8: `appliesTo` names the wrapper commands that read the setting.
fn check_applies_to(cx: &mut Ctx, at: &Path, applies_to: Option<&Value>, cmds: &Seen<&str>) {
    let path = at.field("appliesTo");
    let Some(names) = applies_to
        .and_then(Value::as_array)
        .filter(|items| !items.is_empty())
        .filter(|items| items.iter().all(|c| js::non_empty_str(Some(c)).is_some()))
    else {
        cx.fail(
            "settings.applies-to",
            path,
            "must be a non-empty array of wrapper command names (non-empty strings)",
        );
        return;
    };
    // Each unknown name is its own finding, repeats included.
    for (j, name) in names
        .iter()
        .filter_map(|c| js::non_empty_str(Some(c)))
        .enumerate()
    {
        if !cmds.contains(name) {
            cx.fail(
                "settings.applies-to-unknown-cmd",
                path.index(j),
                format!(
                    "names {}, which is not the `cmd` of any role in this manifest",
                    js::quote_str(name)
                ),
            );
        }
    }
}

/// S10: a non-empty array of distinct non-empty strings.
fn enum_values_ok(values: Option<&Value>) -> bool {
    let Some(values) = values.and_then(Value::as_array).filter(|v| !v.is_empty()) else {
        return false;
    };
    let mut seen = Seen::new();
    values
        .iter()
        .all(|v| js::non_empty_str(Some(v)).is_some_and(|s| seen.insert(s)))
}

/// S11: both bounds safe integers and ordered.
fn integer_range_ok(entry: &Map) -> bool {
    match (entry.get("min"), entry.get("max")) {
        (Some(min), Some(max)) if js::is_safe_integer(min) && js::is_safe_integer(max) => {
            js::number(min) <= js::number(max)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entry(v: serde_json::Value) -> serde_json::Map<String, serde_json::Value> {
        v.as_object().cloned().unwrap()
    }

    #[test]
    fn durations() {
        let e = entry(json!({"kind": "duration"}));
        for ok in ["5m", "90s", "0.5m", "0.01s", "10d", "1h"] {
            assert!(setting_value_valid(&e, ok), "{ok}");
        }
        for bad in [
            "5", "5M", "5 m", "0s", "00m", "0.0s", "1.s", ".5s", "5ms", "-5s", "5w", "10s\n", "",
        ] {
            assert!(!setting_value_valid(&e, bad), "{bad:?}");
        }
    }

    #[test]
    fn integers() {
        let e = entry(json!({"kind": "integer", "min": -5, "max": 100}));
        for ok in ["0", "007", "100"] {
            assert!(setting_value_valid(&e, ok), "{ok}");
        }
        for bad in [
            "-1",
            "+1",
            " 1",
            "1.0",
            "101",
            "",
            "1e2",
            "99999999999999999999",
        ] {
            assert!(!setting_value_valid(&e, bad), "{bad:?}");
        }
        let open = entry(json!({"kind": "integer", "min": 0}));
        assert!(!setting_value_valid(&open, "1"));
        // Bounds are coerced as JS does.
        let coerced = entry(json!({"kind": "integer", "min": "1", "max": [10]}));
        assert!(setting_value_valid(&coerced, "5"));
        assert!(!setting_value_valid(&coerced, "0"));
    }

    #[test]
    fn enums_and_booleans() {
        let e = entry(json!({"kind": "enum", "values": ["fast", "slow"]}));
        assert!(setting_value_valid(&e, "fast"));
        assert!(!setting_value_valid(&e, "FAST"));
        let b = entry(json!({"kind": "boolean"}));
        assert!(setting_value_valid(&b, "1"));
        assert!(!setting_value_valid(&b, "true"));
        assert!(!setting_value_valid(&entry(json!({"kind": "text"})), "x"));
        assert!(!setting_value_valid(&entry(json!({})), "x"));
    }

    #[test]
    fn both_trees_agree() {
        for (text, value) in [
            (r#"{"kind": "integer", "min": "1", "max": [10]}"#, "5"),
            (r#"{"kind": "integer", "min": 6, "max": 10}"#, "5"),
            (r#"{"kind": "enum", "values": ["a", 1]}"#, "a"),
            (r#"{"kind": "enum", "values": "a"}"#, "a"),
            (r#"{"kind": "duration"}"#, "1m"),
        ] {
            let ours: Value = serde_json::from_str(text).unwrap();
            let theirs: serde_json::Value = serde_json::from_str(text).unwrap();
            assert_eq!(
                setting_value_valid(ours.as_object().unwrap(), value),
                setting_value_valid(theirs.as_object().unwrap(), value),
                "{text}"
            );
        }
    }

    #[test]
    fn zero_form() {
        assert!(is_zero_duration("000.00h"));
        assert!(!is_zero_duration("0.01s"));
        assert!(!is_zero_duration("0."));
    }
}
