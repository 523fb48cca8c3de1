//! Trimming whitespace exactly as `str::trim` does, faster on the ASCII text documents are made
//! of: the board trims every line of thousands of documents, and the standard trim's
//! char-by-char search showed up as a fifth of a plan's parse.

/// Whether an ASCII byte is whitespace as `char::is_whitespace` sees it (unlike
/// `u8::is_ascii_whitespace`, that counts the vertical tab): a space, or one of the five
/// contiguous controls from `\t` to `\r`.
#[inline]
pub(crate) fn ascii_space(b: u8) -> bool {
    b == b' ' || b.wrapping_sub(b'\t') <= b'\r' - b'\t'
}

/// Whether a string's first (or last) byte settles that there is nothing to trim on that side:
/// an ASCII byte that is not whitespace. Most lines and values start and end with text, so
/// callers check this inline before the search.
#[inline]
fn bare(b: Option<&u8>) -> bool {
    b.is_some_and(|b| b.is_ascii() && !ascii_space(*b))
}

/// `s.trim_start()`.
// Always inlined: the common case is a byte check or two, cheaper than the call.
#[inline(always)]
pub fn trim_start(s: &str) -> &str {
    let b = s.as_bytes();
    if bare(b.first()) {
        return s;
    }
    // One space before the text (after a list marker, a checkbox, a colon or a quote marker) is
    // the next most common case.
    if b.first() == Some(&b' ') && bare(b.get(1)) {
        return &s[1..];
    }
    trim_start_search(s)
}

fn trim_start_search(s: &str) -> &str {
    let i = s.bytes().position(|b| !ascii_space(b)).unwrap_or(s.len());
    // `i` is at an ASCII byte, a char's first byte or the end: always a char boundary.
    let rest = &s[i..];
    // A non-ASCII char may still be Unicode whitespace: the standard trim decides from there.
    if rest.as_bytes().first().is_some_and(|b| !b.is_ascii()) {
        rest.trim_start()
    } else {
        rest
    }
}

/// `s.trim_end()`.
// Always inlined: the common case is a byte check or two, cheaper than the call.
#[inline(always)]
pub fn trim_end(s: &str) -> &str {
    if bare(s.as_bytes().last()) {
        return s;
    }
    trim_end_search(s)
}

fn trim_end_search(s: &str) -> &str {
    let end = s
        .bytes()
        .rposition(|b| !ascii_space(b))
        .map_or(0, |i| i + 1);
    // `end` follows an ASCII byte or a char's last byte: always a char boundary.
    let rest = &s[..end];
    if rest.as_bytes().last().is_some_and(|b| !b.is_ascii()) {
        rest.trim_end()
    } else {
        rest
    }
}

/// `s.trim()`.
// Always inlined: the common case is a byte check or two, cheaper than the call.
#[inline(always)]
pub fn trim(s: &str) -> &str {
    trim_end(trim_start(s))
}

/// `s.trim_matches(c)` for an ASCII `c`, byte by byte (an ASCII byte is a whole char, so every
/// cut is on a char boundary).
#[inline]
pub(crate) fn trim_ascii_char(s: &str, c: u8) -> &str {
    debug_assert!(c.is_ascii());
    let b = s.as_bytes();
    let start = b.iter().position(|x| *x != c).unwrap_or(b.len());
    let end = b.iter().rposition(|x| *x != c).map_or(start, |i| i + 1);
    &s[start..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trims_exactly_like_the_standard_trim() {
        for s in [
            "",
            " ",
            "a",
            "  a b  ",
            "\t\r\n\x0B\x0Ca\x0B",
            "\u{a0}x\u{a0}",
            "\u{3000} é \u{2028}",
            " é",
            "é ",
            "\u{85}",
            " \u{200b}x",
            "ñ",
        ] {
            assert_eq!(trim_start(s), s.trim_start(), "{s:?}");
            assert_eq!(trim_end(s), s.trim_end(), "{s:?}");
            assert_eq!(trim(s), s.trim(), "{s:?}");
            for c in [b'*', b' ', b'a'] {
                assert_eq!(
                    trim_ascii_char(s, c),
                    s.trim_matches(char::from(c)),
                    "{s:?}"
                );
            }
        }
        for s in ["**", "**a**", "*é*", "*", "a*b"] {
            assert_eq!(trim_ascii_char(s, b'*'), s.trim_matches('*'), "{s:?}");
        }
        for b in 0..=127u8 {
            assert_eq!(ascii_space(b), char::from(b).is_whitespace(), "{b}");
        }
    }

    proptest::proptest! {
        /// Every shortcut agrees with the standard trims, whitespace of any kind included.
        #[test]
        fn trims_agree_with_the_standard_ones(s in "[ \t\r\n\x0B\x0C\u{a0}\u{3000}a*é-]{0,8}") {
            proptest::prop_assert_eq!(trim_start(&s), s.trim_start());
            proptest::prop_assert_eq!(trim_end(&s), s.trim_end());
            proptest::prop_assert_eq!(trim(&s), s.trim());
        }
    }
}
