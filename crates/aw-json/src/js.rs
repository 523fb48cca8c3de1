//! JavaScript value semantics: how the reference (a Node.js program) coerces JSON values.
//!
//! Which errors the family validator reports, and how the flow engine's canonical JSON prints a
//! number, depend on JS rules for truthiness, `String(x)`, `Number(x)`, UTF-16 lengths and
//! `trim()`. These functions reproduce exactly those rules over any JSON tree that implements
//! [`Json`]: serde_json's owned `Value` here, and the manifest validator's borrowed tree in
//! `aw-manifest`.

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

impl JsonObject for serde_json::Map<String, serde_json::Value> {
    type Value = serde_json::Value;
    fn field(&self, key: &str) -> Option<&serde_json::Value> {
        self.get(key)
    }
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
        assert!(to_number::<serde_json::Value>(None).is_nan());
    }
}
