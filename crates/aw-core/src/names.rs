//! Grammars of the names aw accepts from users and agents.

/// `^[a-z][a-z0-9-]{1,30}$`: a namespace selects `.<ns>/`, `~/.<ns>/` and the block markers.
pub fn is_valid_namespace(s: &str) -> bool {
    let b = s.as_bytes();
    (2..=31).contains(&b.len())
        && b[0].is_ascii_lowercase()
        && b[1..]
            .iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
}

/// The longest slug [`slug`] makes, in bytes: a folder name stays readable and far below the
/// 255 bytes a file system allows once its number is prefixed.
pub const MAX_SLUG_BYTES: usize = 60;

/// The slug of a title: its words folded (lower case, Spanish accents dropped), each a run of
/// ASCII letters and digits, joined by `-` (`Checkout: paso único` → `checkout-paso-unico`).
/// Words are kept whole while the slug stays within [`MAX_SLUG_BYTES`] (a first word longer than
/// that is cut). Empty when the title has no ASCII letter or digit: the caller decides what a
/// nameless title means.
pub fn slug(title: &str) -> String {
    let folded = crate::markdown::fold(title);
    let mut out = String::new();
    for word in folded
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        if out.is_empty() {
            out.push_str(&word[..word.len().min(MAX_SLUG_BYTES)]);
        } else if out.len() + 1 + word.len() <= MAX_SLUG_BYTES {
            out.push('-');
            out.push_str(word);
        } else {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_folded_ascii_words_joined_by_dashes() {
        assert_eq!(slug("Checkout: paso único"), "checkout-paso-unico");
        assert_eq!(slug("  Alta  "), "alta");
        assert_eq!(slug("A/B  test -- v2"), "a-b-test-v2");
        assert_eq!(slug("日本語"), "");
        assert_eq!(slug(""), "");
        let long = "word ".repeat(40);
        let s = slug(&long);
        assert!(s.len() <= MAX_SLUG_BYTES && s.ends_with("word"), "{s}");
        assert_eq!(slug(&"x".repeat(100)).len(), MAX_SLUG_BYTES);
    }

    #[test]
    fn namespace_grammar() {
        for ok in ["workflow", "ab", "a-1", &format!("a{}", "b".repeat(30))] {
            assert!(is_valid_namespace(ok), "{ok}");
        }
        for bad in [
            "",
            "a",
            "1ab",
            "Ab",
            "a_b",
            "a/b",
            "..",
            &format!("a{}", "b".repeat(31)),
        ] {
            assert!(!is_valid_namespace(bad), "{bad}");
        }
    }
}
