//! JavaScript value semantics that the family's reference validator depends on.
//!
//! The reference is a Node.js program: which errors it reports, and how many, depends on JS rules
//! for truthiness, `String(x)`, UTF-16 lengths, `trim()`, object key order and number types. These
//! helpers reproduce exactly the parts that can change a result class or an error count.
//!
//! The coercions ([`truthy`], [`number`], [`to_number`], [`js_string`]) read any [`Json`] value:
//! the validator's borrowed tree and serde_json's owned one (report names, run state, callers of
//! [`super::setting_value_valid`]) share one implementation.

use super::value::{self, Map, Value};

/// Read access to a JSON value, as the JS coercions need it.
pub trait Json: Sized {
    /// The value's type and contents.
    fn view(&self) -> View<'_, Self>;
}

/// Field access to a JSON object.
pub trait JsonObject {
    /// The type of the object's values.
    type Value: Json;
    /// The value of `key`, if the object has it.
    fn field(&self, key: &str) -> Option<&Self::Value>;
}

/// A JSON value as the coercions read it.
#[derive(Debug, Clone, Copy)]
pub enum View<'v, J> {
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// A number, as a double (`None` only where serde_json has no double for it).
    Number(Option<f64>),
    /// A string.
    String(&'v str),
    /// An array.
    Array(&'v [J]),
    /// An object, whose contents no coercion looks at.
    Object,
}

impl<'v, J> View<'v, J> {
    /// The string, if the value is one.
    pub fn as_str(self) -> Option<&'v str> {
        match self {
            View::String(s) => Some(s),
            _ => None,
        }
    }

    /// The items, if the value is an array.
    pub fn as_array(self) -> Option<&'v [J]> {
        match self {
            View::Array(items) => Some(items),
            _ => None,
        }
    }
}

impl Json for Value<'_> {
    fn view(&self) -> View<'_, Self> {
        match self {
            Value::Null => View::Null,
            Value::Bool(b) => View::Bool(*b),
            Value::Number(n) => View::Number(n.as_f64()),
            Value::String(s) => View::String(s),
            Value::Array(items) => View::Array(items),
            Value::Object(_) => View::Object,
        }
    }
}

impl Json for serde_json::Value {
    fn view(&self) -> View<'_, Self> {
        match self {
            serde_json::Value::Null => View::Null,
            serde_json::Value::Bool(b) => View::Bool(*b),
            serde_json::Value::Number(n) => View::Number(n.as_f64()),
            serde_json::Value::String(s) => View::String(s),
            serde_json::Value::Array(items) => View::Array(items),
            serde_json::Value::Object(_) => View::Object,
        }
    }
}

impl<'a> JsonObject for Map<'a> {
    type Value = Value<'a>;
    fn field(&self, key: &str) -> Option<&Value<'a>> {
        self.get(key)
    }
}

impl JsonObject for serde_json::Map<String, serde_json::Value> {
    type Value = serde_json::Value;
    fn field(&self, key: &str) -> Option<&serde_json::Value> {
        self.get(key)
    }
}

/// The value as a plain object: a non-null JSON object that is not an array.
pub fn plain_object<'v, 'a>(v: &'v Value<'a>) -> Option<&'v Map<'a>> {
    v.as_object()
}

/// A JSON value as a non-empty string.
pub fn non_empty_str<'v>(v: Option<&'v Value>) -> Option<&'v str> {
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
    // Every byte but a continuation byte starts a character, and a four-byte character (lead
    // byte 0xF0 or above) takes a surrogate pair. Counting bytes avoids decoding.
    s.bytes()
        .map(|b| usize::from(b & 0xC0 != 0x80) + usize::from(b >= 0xF0))
        .sum()
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
pub fn truthy<J: Json>(v: &J) -> bool {
    match v.view() {
        View::Null => false,
        View::Bool(b) => b,
        View::Number(n) => n.is_some_and(|f| f != 0.0 && !f.is_nan()),
        View::String(s) => !s.is_empty(),
        View::Array(_) | View::Object => true,
    }
}

/// The value as a JS number (every JSON number is an IEEE double in JS).
pub fn number<J: Json>(v: &J) -> Option<f64> {
    match v.view() {
        View::Number(n) => n,
        _ => None,
    }
}

/// `Number.isSafeInteger(v)`.
pub fn is_safe_integer<J: Json>(v: &J) -> bool {
    number(v).is_some_and(|f| f.fract() == 0.0 && f.abs() <= 9_007_199_254_740_991.0)
}

/// JS `ToNumber` of a JSON value (`undefined` is `None`, giving NaN). The reference compares
/// setting bounds with `<=` without checking their type, so a string or array bound still takes
/// part in the comparison after coercion.
pub fn to_number<J: Json>(v: Option<&J>) -> f64 {
    let Some(v) = v else {
        return f64::NAN;
    };
    match v.view() {
        View::Null => 0.0,
        View::Bool(b) => f64::from(u8::from(b)),
        View::Number(n) => n.unwrap_or(f64::NAN),
        View::String(s) => string_to_number(s),
        View::Array(_) => string_to_number(&js_string(v)),
        View::Object => f64::NAN,
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
pub fn js_string<J: Json>(v: &J) -> String {
    match v.view() {
        View::Null => "null".to_owned(),
        View::Bool(b) => b.to_string(),
        View::Number(n) => n.map(number_to_string).unwrap_or_default(),
        View::String(s) => s.to_owned(),
        View::Array(items) => items
            .iter()
            .map(|item| match item.view() {
                View::Null => String::new(),
                _ => js_string(item),
            })
            .collect::<Vec<_>>()
            .join(","),
        View::Object => "[object Object]".to_owned(),
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
pub fn entries<'m, 'a>(map: &'m Map<'a>) -> Entries<'m, 'a> {
    // An array index starts with a digit; manifest keys almost never do, and then the source
    // order is already the JS order.
    if !map
        .keys()
        .any(|k| k.as_bytes().first().is_some_and(u8::is_ascii_digit))
    {
        return Entries::InOrder(map.iter());
    }
    let mut indexed: Vec<(u32, &str, &Value)> = Vec::new();
    let mut named: Vec<(&str, &Value)> = Vec::new();
    for (k, v) in map {
        match array_index(k) {
            Some(i) => indexed.push((i, k, v)),
            None => named.push((k, v)),
        }
    }
    indexed.sort_by_key(|(i, _, _)| *i);
    let ordered: Vec<_> = indexed
        .into_iter()
        .map(|(_, k, v)| (k, v))
        .chain(named)
        .collect();
    Entries::Reordered(ordered.into_iter())
}

/// The entries of an object in JS key order (see [`entries`]).
#[derive(Debug, Clone)]
pub enum Entries<'m, 'a> {
    /// No key is an array index: the source order.
    InOrder(value::Iter<'m, 'a>),
    /// Array-index keys moved to the front.
    Reordered(std::vec::IntoIter<(&'m str, &'m Value<'a>)>),
}

impl<'m, 'a> Iterator for Entries<'m, 'a> {
    type Item = (&'m str, &'m Value<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Entries::InOrder(it) => it.next(),
            Entries::Reordered(it) => it.next(),
        }
    }
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
    let b = s.as_bytes();
    // Every string of a manifest comes through here and nearly none holds a brace or a dollar,
    // so a scan without early exit (which the compiler vectorises) rules most out first.
    b.iter()
        .fold(false, |seen, c| seen | matches!(c, b'{' | b'}' | b'$'))
        && b.windows(2)
            .any(|w| matches!(w, [b'{', b'{'] | [b'}', b'}'] | [b'$', b'{']))
}

/// A string carries a C0 control character or DEL (C1 characters are allowed).
pub fn has_control(s: &str) -> bool {
    // These are ASCII, and an ASCII byte in UTF-8 is always the whole character. No early exit:
    // the compiler vectorises the scan, and a control character is rare.
    s.bytes()
        .fold(false, |seen, b| seen | (b < 0x20) | (b == 0x7f))
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

    /// The validator's tree for a JSON text.
    fn parse(text: &str) -> Value<'_> {
        serde_json::from_str(text).unwrap()
    }

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
        let v = parse(r#"{"review":1,"zeta":2,"10":3,"2":4,"01":5}"#);
        let keys: Vec<&str> = entries(v.as_object().unwrap()).map(|(k, _)| k).collect();
        assert_eq!(keys, ["2", "10", "review", "zeta", "01"]);
        let v = parse(r#"{"review":1,"zeta":2}"#);
        let keys: Vec<&str> = entries(v.as_object().unwrap()).map(|(k, _)| k).collect();
        assert_eq!(keys, ["review", "zeta"]);
    }

    #[test]
    fn duplicate_keys_keep_first_position_and_last_value() {
        let v = parse(r#"{"name":"first","x":1,"name":"second"}"#);
        let e: Vec<_> = entries(v.as_object().unwrap()).collect();
        assert_eq!(e.len(), 2);
        assert_eq!((e[0].0, e[0].1.as_str()), ("name", Some("second")));
    }

    #[test]
    fn trim_and_lengths_follow_js() {
        assert_eq!(js_trim("\u{feff} a \u{85}"), "a \u{85}");
        assert_eq!(utf16_len("😀"), 2);
        for s in ["", "abc", "é", "\u{800}x", "a😀b\u{10ffff}", "\u{ffff}"] {
            assert_eq!(utf16_len(s), s.encode_utf16().count(), "{s}");
        }
        assert!(truthy(&json!([])));
        assert!(!truthy(&json!(0)));
        assert!(!truthy(&json!("")));
    }

    #[test]
    fn describe_keeps_containers_short() {
        assert_eq!(describe(None), "nothing");
        assert_eq!(describe(Some(&parse(r#""""#))), "an empty string");
        assert_eq!(describe(Some(&parse("[]"))), "an empty array");
        assert_eq!(describe(Some(&parse("[1]"))), "an array");
        assert_eq!(describe(Some(&parse(r#"{"a": 1}"#))), "an object");
        assert_eq!(describe(Some(&parse("1.0"))), "1");
        assert_eq!(describe(Some(&parse(r#""a\nb""#))), "\"a\\nb\"");
        assert_eq!(describe(Some(&parse("null"))), "null");
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
        assert!(to_number::<Value>(None).is_nan());
    }

    #[test]
    fn quote_prints_as_serde_json_does() {
        assert_eq!(quote(None), "undefined");
        for text in [r#"{"b":[1,1.0,-2,1e2],"a":"\u007f\n"}"#, "null", r#""x""#] {
            let theirs: serde_json::Value = serde_json::from_str(text).unwrap();
            assert_eq!(quote(Some(&parse(text))), theirs.to_string(), "{text}");
        }
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
        assert!(has_placeholder("{{"));
        assert!(has_placeholder("x${"));
        assert!(!has_placeholder("{ } $ {} }{ $}"));
        assert!(!has_placeholder("{"));
        assert!(has_control("a\u{7f}"));
        assert!(!has_control("a\u{85}"));
        assert!(is_upper_snake("A_1"));
        assert!(!is_upper_snake("_A"));
        assert!(is_safe_integer(&json!(1.0)));
        assert!(!is_safe_integer(&json!(9007199254740992u64)));
    }
}
