//! JavaScript value semantics that the family's reference validator depends on.
//!
//! The reference is a Node.js program: which errors it reports, and how many, depends on JS rules
//! for truthiness, `String(x)`, UTF-16 lengths, `trim()`, object key order and number types. These
//! helpers reproduce exactly the parts that can change a result class or an error count.

use serde_json::{Map, Value};

/// The value as a plain object: a non-null JSON object that is not an array.
pub fn plain_object(v: &Value) -> Option<&Map<String, Value>> {
    v.as_object()
}

/// A JSON value as a non-empty string.
pub fn non_empty_str(v: Option<&Value>) -> Option<&str> {
    match v {
        Some(Value::String(s)) if !s.is_empty() => Some(s),
        _ => None,
    }
}

/// `v != null` in JS: present and not JSON `null`.
pub fn present(v: Option<&Value>) -> bool {
    !matches!(v, None | Some(Value::Null))
}

/// Length in UTF-16 code units, which is what JS `.length` counts.
pub fn utf16_len(s: &str) -> usize {
    s.encode_utf16().count()
}

/// Whether `c` is in the JS `trim()` whitespace set (which, unlike Rust's, includes U+FEFF and
/// excludes U+0085).
pub fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\u{9}' | '\u{a}' | '\u{b}' | '\u{c}' | '\u{d}' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// JS `String.prototype.trim`.
pub fn js_trim(s: &str) -> &str {
    s.trim_matches(is_js_space)
}

/// JS truthiness of a JSON value.
pub fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

/// The value as a JS number (every JSON number is an IEEE double in JS).
pub fn number(v: &Value) -> Option<f64> {
    v.as_number().and_then(|n| n.as_f64())
}

/// `Number.isSafeInteger(v)`.
pub fn is_safe_integer(v: &Value) -> bool {
    number(v).is_some_and(|f| f.fract() == 0.0 && f.abs() <= 9_007_199_254_740_991.0)
}

/// JS `ToNumber` of a JSON value (`undefined` is `None`, giving NaN). The reference compares
/// setting bounds with `<=` without checking their type, so a string or array bound still takes
/// part in the comparison after coercion.
pub fn to_number(v: Option<&Value>) -> f64 {
    match v {
        None => f64::NAN,
        Some(Value::Null) => 0.0,
        Some(Value::Bool(b)) => f64::from(u8::from(*b)),
        Some(n @ Value::Number(_)) => number(n).unwrap_or(f64::NAN),
        Some(Value::String(s)) => string_to_number(s),
        Some(a @ Value::Array(_)) => string_to_number(&js_string(a)),
        Some(Value::Object(_)) => f64::NAN,
    }
}

/// JS `StringToNumber`: trimmed, empty is 0, decimal literals with optional sign and exponent,
/// `Infinity`, and unsigned `0x`/`0o`/`0b` integers; anything else is NaN.
pub fn string_to_number(s: &str) -> f64 {
    let t = js_trim(s);
    if t.is_empty() {
        return 0.0;
    }
    let radix = match t.get(..2) {
        Some("0x" | "0X") => Some(16),
        Some("0o" | "0O") => Some(8),
        Some("0b" | "0B") => Some(2),
        _ => None,
    };
    if let Some(radix) = radix {
        let digits = &t[2..];
        if digits.is_empty() {
            return f64::NAN;
        }
        let mut acc = 0.0f64;
        for c in digits.chars() {
            match c.to_digit(radix) {
                Some(d) => acc = acc * f64::from(radix) + f64::from(d),
                None => return f64::NAN,
            }
        }
        return acc;
    }
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let magnitude = if body == "Infinity" {
        f64::INFINITY
    } else if is_decimal_literal(body) {
        body.parse::<f64>().unwrap_or(f64::NAN)
    } else {
        f64::NAN
    };
    if neg { -magnitude } else { magnitude }
}

/// `StrUnsignedDecimalLiteral` without `Infinity`: `1`, `1.`, `.5`, `1.5e-3`. Rust's float
/// parser would also take `inf` and `nan`, which JS rejects, so the grammar is checked first.
fn is_decimal_literal(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    let int_start = i;
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    let mut digits = i - int_start;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let frac_start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        digits += i - frac_start;
    }
    if digits == 0 {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp_start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == exp_start {
            return false;
        }
    }
    i == b.len()
}

/// JS `Number.prototype.toString()` for a finite double.
pub fn number_to_string(f: f64) -> String {
    if f == 0.0 {
        return "0".to_owned();
    }
    if f.is_nan() {
        return "NaN".to_owned();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity" } else { "-Infinity" }.to_owned();
    }
    // Rust's `{:e}` gives the shortest round-tripping digits; JS lays them out differently.
    let sci = format!("{:e}", f.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let k = digits.len() as i32;
    let n = exp + 1;
    let body = if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let sign = if n - 1 < 0 { '-' } else { '+' };
        let e = (n - 1).abs();
        if k == 1 {
            format!("{digits}e{sign}{e}")
        } else {
            format!("{}.{}e{sign}{e}", &digits[..1], &digits[1..])
        }
    };
    if f < 0.0 { format!("-{body}") } else { body }
}

/// JS `String(x)` of a JSON value.
pub fn js_string(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(_) => number(v).map(number_to_string).unwrap_or_default(),
        Value::String(s) => s.clone(),
        Value::Array(items) => items
            .iter()
            .map(|item| match item {
                Value::Null => String::new(),
                other => js_string(other),
            })
            .collect::<Vec<_>>()
            .join(","),
        Value::Object(_) => "[object Object]".to_owned(),
    }
}

/// A key that JS orders first: a canonical array index (non-negative integer below 2^32 - 1).
fn array_index(key: &str) -> Option<u32> {
    if key.is_empty() || (key.len() > 1 && key.starts_with('0')) {
        return None;
    }
    if !key.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    key.parse::<u32>().ok().filter(|n| *n != u32::MAX)
}

/// The entries of an object in JS `Object.keys` order: array-index keys ascending, then the rest
/// in insertion order. (Duplicate JSON keys were already folded by the parser: the last value
/// wins at the first key's position.)
pub fn entries(map: &Map<String, Value>) -> Vec<(&str, &Value)> {
    let mut indexed: Vec<(u32, &str, &Value)> = Vec::new();
    let mut named: Vec<(&str, &Value)> = Vec::new();
    for (k, v) in map {
        match array_index(k) {
            Some(i) => indexed.push((i, k, v)),
            None => named.push((k, v)),
        }
    }
    indexed.sort_by_key(|(i, _, _)| *i);
    indexed
        .into_iter()
        .map(|(_, k, v)| (k, v))
        .chain(named)
        .collect()
}

/// A path is absolute-like: POSIX root, a leading backslash, UNC, or a drive letter with a
/// separator (`C:\`, `C:/`). Drive-relative `C:x` is not.
pub fn is_absolute_like(p: &str) -> bool {
    let b = p.as_bytes();
    if matches!(b.first(), Some(b'/' | b'\\')) {
        return true;
    }
    b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && matches!(b[2], b'/' | b'\\')
}

/// A path has a `..` segment, splitting on both `/` and `\`.
pub fn has_traversal(p: &str) -> bool {
    p.split(['/', '\\']).any(|seg| seg == "..")
}

/// A string carries an unresolved template placeholder: `{{`, `}}` or `${`.
pub fn has_placeholder(s: &str) -> bool {
    s.contains("{{") || s.contains("}}") || s.contains("${")
}

/// A string carries a C0 control character or DEL (C1 characters are allowed).
pub fn has_control(s: &str) -> bool {
    s.chars().any(|c| (c as u32) < 0x20 || c == '\u{7f}')
}

/// `^[A-Z][A-Z0-9_]*$`.
pub fn is_upper_snake(s: &str) -> bool {
    let mut bytes = s.bytes();
    matches!(bytes.next(), Some(b'A'..=b'Z'))
        && bytes.all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// Renders a value for a message: strings JSON-quoted, anything else as compact JSON, a missing
/// value as `undefined`. Quoting keeps every message on one line whatever the value holds.
pub fn quote(v: Option<&Value>) -> String {
    match v {
        None => "undefined".to_owned(),
        Some(v) => serde_json::to_string(v).unwrap_or_default(),
    }
}

/// A short description of a value for a message about its type: scalars as written, containers
/// by kind only, so a huge misplaced object never floods a one-line message.
pub fn describe(v: Option<&Value>) -> String {
    match v {
        None => "nothing".to_owned(),
        Some(Value::String(s)) if s.is_empty() => "an empty string".to_owned(),
        Some(Value::Array(a)) if a.is_empty() => "an empty array".to_owned(),
        Some(Value::Array(_)) => "an array".to_owned(),
        Some(Value::Object(_)) => "an object".to_owned(),
        Some(n @ Value::Number(_)) => js_string(n),
        Some(v) => quote(Some(v)),
    }
}

/// A string rendered for a message, JSON-quoted.
pub fn quote_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_print_as_js_does() {
        for (f, s) in [
            (1.0, "1"),
            (1e21, "1e+21"),
            (-0.0, "0"),
            (1e-7, "1e-7"),
            (0.5, "0.5"),
            (123.456, "123.456"),
            (1e20, "100000000000000000000"),
            (0.000001, "0.000001"),
            (2.5e-7, "2.5e-7"),
            (-12.0, "-12"),
            (1.5e300, "1.5e+300"),
        ] {
            assert_eq!(number_to_string(f), s, "{f}");
        }
    }

    #[test]
    fn string_of_values_follows_js() {
        assert_eq!(js_string(&json!(["a", "b"])), "a,b");
        assert_eq!(js_string(&json!([])), "");
        assert_eq!(js_string(&json!([null, 1, [2, 3]])), ",1,2,3");
        assert_eq!(js_string(&json!({"x": 1})), "[object Object]");
        assert_eq!(js_string(&json!(true)), "true");
        assert_eq!(js_string(&json!(null)), "null");
    }

    #[test]
    fn key_order_puts_array_indices_first() {
        let v: Value =
            serde_json::from_str(r#"{"review":1,"zeta":2,"10":3,"2":4,"01":5}"#).unwrap();
        let keys: Vec<&str> = entries(v.as_object().unwrap())
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        assert_eq!(keys, ["2", "10", "review", "zeta", "01"]);
    }

    #[test]
    fn duplicate_keys_keep_first_position_and_last_value() {
        let v: Value = serde_json::from_str(r#"{"name":"first","x":1,"name":"second"}"#).unwrap();
        let e = entries(v.as_object().unwrap());
        assert_eq!(e[0], ("name", &json!("second")));
    }

    #[test]
    fn trim_and_lengths_follow_js() {
        assert_eq!(js_trim("\u{feff} a \u{85}"), "a \u{85}");
        assert_eq!(utf16_len("😀"), 2);
        assert!(truthy(&json!([])));
        assert!(!truthy(&json!(0)));
        assert!(!truthy(&json!("")));
    }

    #[test]
    fn describe_keeps_containers_short() {
        assert_eq!(describe(None), "nothing");
        assert_eq!(describe(Some(&json!(""))), "an empty string");
        assert_eq!(describe(Some(&json!([]))), "an empty array");
        assert_eq!(describe(Some(&json!([1]))), "an array");
        assert_eq!(describe(Some(&json!({"a": 1}))), "an object");
        assert_eq!(describe(Some(&json!(1.0))), "1");
        assert_eq!(describe(Some(&json!("a\nb"))), "\"a\\nb\"");
    }

    #[test]
    fn to_number_coerces_like_js() {
        for (v, want) in [
            (json!(null), 0.0),
            (json!(true), 1.0),
            (json!(" 12 "), 12.0),
            (json!(""), 0.0),
            (json!("0x1F"), 31.0),
            (json!("-1.5e1"), -15.0),
            (json!("1."), 1.0),
            (json!(".5"), 0.5),
            (json!([7]), 7.0),
            (json!([]), 0.0),
            (json!("-Infinity"), f64::NEG_INFINITY),
        ] {
            assert_eq!(to_number(Some(&v)), want, "{v}");
        }
        for v in [
            json!("inf"),
            json!("nan"),
            json!("-0x1"),
            json!("1e"),
            json!([1, 2]),
            json!({}),
        ] {
            assert!(to_number(Some(&v)).is_nan(), "{v}");
        }
        assert!(to_number(None).is_nan());
    }

    #[test]
    fn path_predicates() {
        assert!(is_absolute_like("/x"));
        assert!(is_absolute_like("\\x"));
        assert!(is_absolute_like("C:\\x"));
        assert!(is_absolute_like("c:/x"));
        assert!(!is_absolute_like("C:run.sh"));
        assert!(has_traversal("bin\\..\\x"));
        assert!(!has_traversal("..run.sh"));
        assert!(!has_traversal("a..b"));
        assert!(has_placeholder("a}}"));
        assert!(has_control("a\u{7f}"));
        assert!(!has_control("a\u{85}"));
        assert!(is_upper_snake("A_1"));
        assert!(!is_upper_snake("_A"));
        assert!(is_safe_integer(&json!(1.0)));
        assert!(!is_safe_integer(&json!(9007199254740992u64)));
    }
}
