//! Trimming whitespace exactly as `str::trim` does, faster on the ASCII text documents are made
//! of: the board trims every line of thousands of documents, and the standard trim's
//! char-by-char search showed up as a fifth of a plan's parse.

/// Whether an ASCII byte is whitespace as `char::is_whitespace` sees it (unlike
/// `u8::is_ascii_whitespace`, that counts the vertical tab).
pub(crate) fn ascii_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0B' | b'\x0C' | b'\r' | b' ')
}

/// `s.trim_start()`.
pub fn trim_start(s: &str) -> &str {
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
pub fn trim_end(s: &str) -> &str {
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
pub fn trim(s: &str) -> &str {
    trim_end(trim_start(s))
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
        }
    }
}
