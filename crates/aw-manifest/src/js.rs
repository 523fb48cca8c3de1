//! JavaScript semantics of the validator's own tree: the coercions of [`aw_json::js`] (re-exported
//! here) applied to [`Value`], plus the key order, path and text predicates whose JS behaviour can
//! change a result class or an error count.

pub use aw_json::js::*;

use super::value::{self, Map, Value};

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

impl<'a> JsonObject for Map<'a> {
    type Value = Value<'a>;
    fn field(&self, key: &str) -> Option<&Value<'a>> {
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
