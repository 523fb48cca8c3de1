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
        '\u{9}'
            | '\u{a}'
            | '\u{b}'
            | '\u{c}'
            | '\u{d}'
            | ' '
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200a}'
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
        let v: Value = serde_json::from_str(r#"{"review":1,"zeta":2,"10":3,"2":4,"01":5}"#).unwrap();
        let keys: Vec<&str> = entries(v.as_object().unwrap()).into_iter().map(|(k, _)| k).collect();
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
