//! Parsing JSON text from users and agents with a bounded nesting depth.
//!
//! serde_json stops at 128 levels by default; the reference (JavaScript) accepts a few thousand
//! before its stack overflows. Every JSON input aw reads (manifests, answers, run states) goes
//! through [`parse_bounded`]. Valid text takes serde_json's fast path. When that parse fails, our
//! own scan measures the nesting: text no deeper than [`MAX_DEPTH`] is parsed again without
//! serde_json's limit (its error, if any, is then the real one; an error path may parse twice),
//! deeper text is refused. The decision rests on the measured depth, never on the wording of
//! serde_json's error, and no input can exhaust the stack.

use serde::Deserialize;

/// The deepest JSON nesting accepted.
pub const MAX_DEPTH: usize = 512;

/// Parses `text` into any deserializable type (borrowing from it where the type can), refusing
/// nesting deeper than [`MAX_DEPTH`]. The error is a short English reason.
pub fn parse_bounded<'de, T: Deserialize<'de>>(text: &'de str) -> Result<T, String> {
    if let Ok(value) = serde_json::from_str::<T>(text) {
        return Ok(value);
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
    let value = T::deserialize(&mut de).map_err(|e| e.to_string())?;
    de.end().map_err(|e| e.to_string())?;
    Ok(value)
}

/// The deepest bracket nesting of a JSON text, ignoring brackets inside strings (an upper bound
/// is enough: malformed text is refused by the parser anyway). Linear in the text.
pub fn nesting_depth(text: &str) -> usize {
    let (mut depth, mut max, mut in_str, mut escaped) = (0usize, 0usize, false, false);
    for b in text.bytes() {
        if in_str {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_str = false,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_ignores_brackets_in_strings() {
        assert_eq!(nesting_depth(r#"{"a":"[[[{{","b":[1,[2]]}"#), 3);
        assert_eq!(nesting_depth(r#""\"[""#), 0);
    }

    #[test]
    fn deep_but_bounded_text_parses_and_deeper_text_is_refused() {
        let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(parse_bounded::<serde_json::Value>(&ok).is_ok());
        let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        let err = parse_bounded::<serde_json::Value>(&deep).unwrap_err();
        assert!(err.contains("levels deep"), "{err}");
        assert!(parse_bounded::<serde_json::Value>("{").is_err());
        // Deep and malformed: the real syntax error, not a depth refusal.
        let broken = "[".repeat(300) + &"]".repeat(299) + "}";
        let err = parse_bounded::<serde_json::Value>(&broken).unwrap_err();
        assert!(!err.contains("levels deep"), "{err}");
        // Shallow and malformed: serde_json's error as it is.
        let err = parse_bounded::<serde_json::Value>("[1,]").unwrap_err();
        assert_eq!(
            err,
            serde_json::from_str::<serde_json::Value>("[1,]")
                .unwrap_err()
                .to_string()
        );
    }

    #[test]
    fn lone_surrogates_and_numbers_beyond_doubles_are_errors() {
        // JavaScript accepts both (a lone surrogate, Infinity); neither has a faithful Rust value.
        for text in [r#""\ud800""#, r#"{"a":"\udc00x"}"#, "1e400", "[-1e400]"] {
            assert!(parse_bounded::<serde_json::Value>(text).is_err(), "{text}");
        }
        assert!(parse_bounded::<serde_json::Value>(r#""\ud83d\ude00""#).is_ok());
    }
}
