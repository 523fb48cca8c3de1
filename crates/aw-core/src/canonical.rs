//! Canonical JSON and the semantic digest: the one digest every sealed document uses.
//!
//! `canonical_json` writes a JSON value the way the reference's `canonicalJson` does: object keys
//! sorted by UTF-16 code units (not by bytes: the two orders differ for characters above U+FFFF),
//! no whitespace, strings escaped as `JSON.stringify` escapes them, numbers laid out as
//! JavaScript prints them. `semantic_digest` is the lowercase hex SHA-256 of those UTF-8 bytes.
//! Byte-exactness matters: run-state seals, boundary seals and approval digests written by the
//! reference must verify here and the other way round.

use aw_json::js::number_to_string;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::cmp::Ordering;
use std::fmt::Write as _;

pub use aw_json::MAX_DEPTH;

/// The canonical JSON text of a value.
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value);
    out
}

/// The semantic digest of a value: hex SHA-256 of its canonical JSON.
pub fn semantic_digest(value: &Value) -> String {
    sha256_hex(canonical_json(value).as_bytes())
}

/// Lowercase hex SHA-256 of some bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut hex = String::with_capacity(64);
    for b in digest {
        let _ = write!(hex, "{b:02x}");
    }
    hex
}

/// Compares two keys by UTF-16 code units, as JavaScript's default sort does.
pub fn utf16_cmp(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// Whether a string is 64 lowercase hex digits (the shape of every digest).
pub fn is_digest(s: &str) -> bool {
    s.len() == 64
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Parses JSON text after checking that its nesting stays within [`MAX_DEPTH`]. The error is a
/// short English reason.
pub fn parse_json(text: &str) -> Result<Value, String> {
    aw_json::parse_bounded(text)
}

fn write_value(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => write_number(out, n),
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_by(|a, b| utf16_cmp(a, b));
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(out, key);
                out.push(':');
                write_value(out, &map[key.as_str()]);
            }
            out.push('}');
        }
    }
}

fn write_number(out: &mut String, n: &serde_json::Number) {
    // Integers print the same in both languages; anything else goes through the JS layout
    // (`1.0` is `1`, `1e21` is `1e+21`).
    if let Some(i) = n.as_i64() {
        let _ = write!(out, "{i}");
    } else if let Some(u) = n.as_u64() {
        if u <= (1u64 << 53) {
            let _ = write!(out, "{u}");
        } else {
            out.push_str(&number_to_string(u as f64));
        }
    } else {
        out.push_str(&number_to_string(n.as_f64().unwrap_or(0.0)));
    }
}

/// A string as `JSON.stringify` writes it: `"` and `\` escaped, the five short control escapes,
/// other C0 controls as `\u00xx`, everything else raw.
pub fn write_string(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    json_string_pieces(s, |piece| out.push_str(piece));
    out.push('"');
}

/// The hex SHA-256 of a string written as a JSON string (quotes included), computed without
/// building that text: a spec's baseline digest hashes every spec of a board this way.
pub fn string_digest(s: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"\"");
    json_string_pieces(s, |piece| h.update(piece.as_bytes()));
    h.update(b"\"");
    let mut hex = String::with_capacity(64);
    for b in h.finalize() {
        let _ = write!(hex, "{b:02x}");
    }
    hex
}

/// Hands `sink` the body of `s` as a JSON string, in pieces: runs of bytes that need no escape,
/// and the escapes between them. The characters escaped are all ASCII, so a run is cut on byte
/// boundaries that are always character boundaries.
fn json_string_pieces(s: &str, mut sink: impl FnMut(&str)) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let short = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            0x08 => "\\b",
            0x0c => "\\f",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0..0x20 => "",
            _ => continue,
        };
        sink(&s[start..i]);
        start = i + 1;
        if short.is_empty() {
            let code = [
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 0xf)],
            ];
            sink(std::str::from_utf8(&code).unwrap_or_default());
        } else {
            sink(short);
        }
    }
    sink(&s[start..]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_string_digest_is_the_digest_of_its_json_text() {
        let mut all_controls: String = (0u8..0x20).map(char::from).collect();
        all_controls.push_str("\"\\ é — 😀 \u{2028}\u{7f}");
        for s in ["", "plain", "a\nb\r\tc", all_controls.as_str()] {
            let mut text = String::new();
            write_string(&mut text, s);
            assert_eq!(text, serde_json::to_string(s).unwrap(), "{s:?}");
            assert_eq!(string_digest(s), sha256_hex(text.as_bytes()), "{s:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn any_string_digests_as_its_json_text(s in "\\PC*|[\\x00-\\x20\"\\\\a-z]*") {
            let mut text = String::new();
            write_string(&mut text, &s);
            proptest::prop_assert_eq!(string_digest(&s), sha256_hex(text.as_bytes()));
        }
    }

    #[test]
    fn empty_digests_match_the_reference() {
        assert_eq!(
            semantic_digest(&json!("")),
            "12ae32cb1ec02d01eda3581b127c1fee3b0dc53572ed6baf239721a03d82e126"
        );
        assert_eq!(
            semantic_digest(&json!({})),
            "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
        );
    }

    #[test]
    fn canonical_layout_matches_the_reference() {
        // `undefined` has no JSON form, so the reference's `z: undefined` is simply absent here.
        let v = json!({"b": 1, "a": [true, null, "xé\n"], "c": {"y": 1.5}});
        assert_eq!(
            canonical_json(&v),
            "{\"a\":[true,null,\"xé\\n\"],\"b\":1,\"c\":{\"y\":1.5}}"
        );
    }

    #[test]
    fn keys_sort_by_utf16_not_bytes() {
        // U+FF61 is above the surrogates' code units in UTF-16 but below U+1F600 in UTF-8 bytes.
        let v = json!({"\u{1F600}": 1, "\u{FF61}": 2, "a": 3});
        assert_eq!(
            canonical_json(&v),
            "{\"a\":3,\"\u{1F600}\":1,\"\u{FF61}\":2}"
        );
    }

    #[test]
    fn escapes_and_numbers_follow_javascript() {
        let v: Value =
            serde_json::from_str("[\"\\u0001\\u001f\\u007f\\u2028\", 1.0, 1e21, -0.5, 10]")
                .unwrap();
        assert_eq!(
            canonical_json(&v),
            "[\"\\u0001\\u001f\u{7f}\u{2028}\",1,1e+21,-0.5,10]"
        );
    }

    #[test]
    fn depth_is_bounded() {
        let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        assert!(parse_json(&deep).is_err());
        let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(parse_json(&ok).is_ok());
        assert!(parse_json("\"[[[[\"").is_ok());
    }
}
