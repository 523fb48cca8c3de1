//! The JSON tree the validator reads: borrowed from the manifest text, ordered, read-only.
//!
//! serde_json's own `Value` (with `preserve_order`) allocates a `String` for every key and string
//! and hashes every key into an `IndexMap`. A manifest is parsed once and then only read, so this
//! tree borrows every string that has no escapes from the text and keeps each object as a vector
//! in source order, searched linearly (manifest objects hold a handful of keys). An object that
//! grows past a few dozen keys also gets a hash index, so neither parsing nor lookups can turn
//! quadratic on hostile input.
//!
//! The semantics are those of the reference's `JSON.parse` (and of serde_json's ordered map): a
//! repeated key keeps the position of its first occurrence and takes the value of its last.
//! Numbers keep the representation serde_json gives them (`1` and `1.0` differ), so messages and
//! reports print them exactly as serde_json would.

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, Serializer};
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

/// A JSON value borrowed from the text it was parsed from.
#[derive(Debug, Clone)]
pub enum Value<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(Number),
    /// A string: borrowed from the text unless it held escapes.
    String(Cow<'a, str>),
    /// An array.
    Array(Vec<Value<'a>>),
    /// An object, in source key order.
    Object(Map<'a>),
}

/// A JSON number, in the representation serde_json's parser produced.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Number(N);

#[derive(Debug, Clone, Copy, PartialEq)]
enum N {
    /// A non-negative integer.
    PosInt(u64),
    /// A negative integer.
    NegInt(i64),
    /// Anything else; always finite.
    Float(f64),
}

impl Number {
    /// The number as a double, as JS sees every number. Always `Some`, as with serde_json.
    pub fn as_f64(&self) -> Option<f64> {
        Some(match self.0 {
            N::PosInt(u) => u as f64,
            N::NegInt(i) => i as f64,
            N::Float(f) => f,
        })
    }

    /// The same number as serde_json's type.
    fn to_json(self) -> Option<serde_json::Number> {
        match self.0 {
            N::PosInt(u) => Some(u.into()),
            N::NegInt(i) => Some(i.into()),
            N::Float(f) => serde_json::Number::from_f64(f),
        }
    }
}

/// The size past which an object keeps a hash index of its keys.
const INDEXED: usize = 32;

/// A JSON object: its entries in source order, each key once.
#[derive(Debug, Clone, Default)]
pub struct Map<'a> {
    entries: Vec<(Cow<'a, str>, Value<'a>)>,
    /// Key to position, kept only once the object has more than [`INDEXED`] entries.
    // Boxed so that an object without an index (nearly all) pays one pointer, not a whole table:
    // it keeps `Value` at 32 bytes.
    #[allow(clippy::box_collection)]
    index: Option<Box<HashMap<Cow<'a, str>, usize>>>,
}

impl<'a> Map<'a> {
    /// An empty object.
    pub const fn new() -> Self {
        Map {
            entries: Vec::new(),
            index: None,
        }
    }

    /// The number of (distinct) keys.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the object has no keys.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn position(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(key).copied(),
            None => self.entries.iter().position(|(k, _)| same_key(k, key)),
        }
    }

    /// The value of `key`, if the object has it.
    pub fn get(&self, key: &str) -> Option<&Value<'a>> {
        self.position(key)
            .and_then(|i| self.entries.get(i))
            .map(|(_, v)| v)
    }

    /// Whether the object has `key` (`Object.hasOwn`: a `null` value counts).
    pub fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    /// The entries in source order.
    pub fn iter(&self) -> Iter<'_, 'a> {
        Iter(self.entries.iter())
    }

    /// The values in source order.
    pub fn values(&self) -> impl Iterator<Item = &Value<'a>> {
        self.entries.iter().map(|(_, v)| v)
    }

    /// The keys in source order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(k, _)| k.as_ref())
    }
}

/// Key equality, tuned for the short keys of a manifest: most candidates differ in length or in
/// their first byte, which rules them out without a call into `memcmp`.
fn same_key(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    a.len() == b.len() && a.first() == b.first() && a == b
}

/// The entries of a [`Map`] in source order.
#[derive(Debug, Clone)]
pub struct Iter<'m, 'a>(std::slice::Iter<'m, (Cow<'a, str>, Value<'a>)>);

impl<'m, 'a> Iterator for Iter<'m, 'a> {
    type Item = (&'m str, &'m Value<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k.as_ref(), v))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl ExactSizeIterator for Iter<'_, '_> {}

impl<'m, 'a> IntoIterator for &'m Map<'a> {
    type Item = (&'m str, &'m Value<'a>);
    type IntoIter = Iter<'m, 'a>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a> Value<'a> {
    /// The object, if this is one.
    pub fn as_object(&self) -> Option<&Map<'a>> {
        match self {
            Value::Object(map) => Some(map),
            _ => None,
        }
    }

    /// The items, if this is an array.
    pub fn as_array(&self) -> Option<&Vec<Value<'a>>> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The text, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number, if this is one.
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The number as a double, if this is one.
    pub fn as_f64(&self) -> Option<f64> {
        self.as_number().and_then(Number::as_f64)
    }

    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// Whether this is a boolean.
    pub fn is_boolean(&self) -> bool {
        matches!(self, Value::Bool(_))
    }

    /// Whether this is a string.
    pub fn is_string(&self) -> bool {
        matches!(self, Value::String(_))
    }

    /// Whether this is an object.
    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    /// A field of an object; `None` for a missing key or a value that is not an object.
    pub fn get(&self, key: &str) -> Option<&Value<'a>> {
        self.as_object().and_then(|map| map.get(key))
    }

    /// The same value as serde_json's owned tree, for callers that keep it beyond the text (the
    /// report's `name` and `kind`, a `package.json` version).
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            // A float is finite by construction; the fallback mirrors serde_json's own parser.
            Value::Number(n) => n
                .to_json()
                .map_or(serde_json::Value::Null, serde_json::Value::Number),
            Value::String(s) => serde_json::Value::String(s.as_ref().to_owned()),
            Value::Array(items) => {
                serde_json::Value::Array(items.iter().map(Value::to_json).collect())
            }
            Value::Object(map) => serde_json::Value::Object(
                map.iter()
                    .map(|(k, v)| (k.to_owned(), v.to_json()))
                    .collect(),
            ),
        }
    }
}

/// Serialises exactly as serde_json's `Value` does (the same calls in the same order), so
/// `serde_json::to_string` of a borrowed value prints what it prints for the owned one.
impl Serialize for Value<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Number(Number(N::PosInt(u))) => s.serialize_u64(*u),
            Value::Number(Number(N::NegInt(i))) => s.serialize_i64(*i),
            Value::Number(Number(N::Float(f))) => s.serialize_f64(*f),
            Value::String(text) => s.serialize_str(text),
            Value::Array(items) => s.collect_seq(items),
            Value::Object(map) => s.collect_map(map.iter()),
        }
    }
}

impl<'de> Deserialize<'de> for Value<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // Room for the open containers of a typical manifest, so the stacks rarely grow.
        let mut scratch = Scratch {
            items: Vec::with_capacity(64),
            entries: Vec::with_capacity(64),
        };
        Seed(&mut scratch).deserialize(d)
    }
}

/// The items and entries of the containers still open while parsing, innermost last. Children
/// collect here and move into their container in one exact-size allocation when it closes,
/// instead of each container growing its own vector step by step.
struct Scratch<'de> {
    items: Vec<Value<'de>>,
    entries: Vec<(Cow<'de, str>, Value<'de>)>,
}

/// Parses one value, sharing the scratch stacks with the values around it.
struct Seed<'s, 'de>(&'s mut Scratch<'de>);

impl<'de> DeserializeSeed<'de> for Seed<'_, 'de> {
    type Value = Value<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value<'de>, D::Error> {
        // `deserialize_any` is where serde_json counts nesting, so its recursion limit (or the
        // caller's decision to disable it) applies to this tree as to its own.
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Seed<'_, 'de> {
    type Value = Value<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_unit<E>(self) -> Result<Value<'de>, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value<'de>, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value<'de>, D::Error> {
        self.deserialize(d)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value<'de>, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, i: i64) -> Result<Value<'de>, E> {
        // serde_json files a non-negative integer as unsigned whichever way it arrived.
        Ok(Value::Number(Number(if i < 0 {
            N::NegInt(i)
        } else {
            N::PosInt(i.unsigned_abs())
        })))
    }

    fn visit_u64<E>(self, u: u64) -> Result<Value<'de>, E> {
        Ok(Value::Number(Number(N::PosInt(u))))
    }

    fn visit_f64<E>(self, f: f64) -> Result<Value<'de>, E> {
        // serde_json's `Value` turns a non-finite double into `null`; so does this tree.
        Ok(if f.is_finite() {
            Value::Number(Number(N::Float(f)))
        } else {
            Value::Null
        })
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Value<'de>, E> {
        Ok(Value::String(Cow::Borrowed(s)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value<'de>, E> {
        Ok(Value::String(Cow::Owned(s.to_owned())))
    }

    fn visit_string<E>(self, s: String) -> Result<Value<'de>, E> {
        Ok(Value::String(Cow::Owned(s)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value<'de>, A::Error> {
        let start = self.0.items.len();
        while let Some(item) = seq.next_element_seed(Seed(self.0))? {
            self.0.items.push(item);
        }
        Ok(Value::Array(self.0.items.drain(start..).collect()))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value<'de>, A::Error> {
        let start = self.0.entries.len();
        // Built only for an object past `INDEXED` keys, so that folding duplicates stays linear.
        let mut index: Option<Box<HashMap<Cow<'de, str>, usize>>> = None;
        while let Some(key) = access.next_key_seed(KeySeed)? {
            let value = access.next_value_seed(Seed(self.0))?;
            let open = &mut self.0.entries[start..];
            let known = match &index {
                Some(index) => index.get(key.as_ref()).copied(),
                None => open.iter().position(|(k, _)| same_key(k, &key)),
            };
            if let Some(slot) = known.and_then(|i| open.get_mut(i)) {
                slot.1 = value;
                continue;
            }
            let n = open.len();
            if let Some(index) = &mut index {
                index.insert(key.clone(), n);
            } else if n == INDEXED {
                let mut built: HashMap<Cow<'de, str>, usize> = open
                    .iter()
                    .enumerate()
                    .map(|(i, (k, _))| (k.clone(), i))
                    .collect();
                built.insert(key.clone(), n);
                index = Some(Box::new(built));
            }
            self.0.entries.push((key, value));
        }
        Ok(Value::Object(Map {
            entries: self.0.entries.drain(start..).collect(),
            index,
        }))
    }
}

/// An object key, borrowed from the text when it has no escapes.
struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string key")
    }

    fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(s))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(s.to_owned()))
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Value<'_> {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn strings_without_escapes_are_borrowed() {
        let v = parse(r#"{"a":"plain","b\n":"esc\"aped"}"#);
        let map = v.as_object().unwrap();
        assert!(matches!(
            map.get("a"),
            Some(Value::String(Cow::Borrowed("plain")))
        ));
        assert!(matches!(
            map.iter().nth(1),
            Some(("b\n", Value::String(Cow::Owned(_))))
        ));
    }

    #[test]
    fn duplicate_keys_keep_first_position_and_last_value() {
        let v = parse(r#"{"k":1,"x":2,"k":3}"#);
        let keys: Vec<_> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["k", "x"]);
        assert_eq!(v.get("k").and_then(Value::as_f64), Some(3.0));
    }

    #[test]
    fn large_objects_fold_duplicates_through_the_index() {
        let mut text = String::from("{");
        for i in 0..100 {
            text.push_str(&format!("\"k{i}\":{i},"));
        }
        text.push_str("\"k5\":\"last\",\"k99\":null,\"end\":true}");
        let v = parse(&text);
        let map = v.as_object().unwrap();
        assert_eq!(map.len(), 101);
        assert_eq!(map.keys().nth(5), Some("k5"));
        assert_eq!(map.get("k5").and_then(Value::as_str), Some("last"));
        assert!(map.get("k99").is_some_and(Value::is_null));
        assert_eq!(map.keys().last(), Some("end"));
        assert!(!map.contains_key("k100"));
    }

    #[test]
    fn round_trips_to_serde_json_exactly() {
        for text in [
            r#"{"a":1,"b":-2,"c":1.0,"d":1e2,"e":-0,"f":18446744073709551615,"g":-9223372036854775808}"#,
            r#"[null,true,false,"s\u0000\t\"",{"z":[],"y":{}},0.1,2.5e-7,1e21]"#,
            r#"{"k":1,"x":2,"k":[3]}"#,
            r#""\ud83d\ude00 \u007f""#,
        ] {
            let ours = parse(text);
            let theirs: serde_json::Value = serde_json::from_str(text).unwrap();
            assert_eq!(ours.to_json(), theirs, "{text}");
            assert_eq!(
                serde_json::to_string(&ours).unwrap(),
                serde_json::to_string(&theirs).unwrap(),
                "{text}"
            );
        }
    }

    #[test]
    fn the_recursion_limit_still_applies() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let err = serde_json::from_str::<Value>(&deep).unwrap_err();
        assert!(err.to_string().starts_with("recursion limit exceeded"));
    }
}
