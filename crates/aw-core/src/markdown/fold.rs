//! Case and accent folding: the one fold table, so `Próximo Paso` keys like `proximo paso`.

/// Lower-cases and strips the accents of Spanish text, so `Próximo paso` keys like `proximo paso`.
pub fn fold(s: &str) -> String {
    folded_chars(s.trim()).collect()
}

/// Whether `raw`, folded, equals the already folded `folded`, without allocating: parsers call
/// this for every heading and key line of every document.
pub fn fold_eq(raw: &str, folded: &str) -> bool {
    let raw = super::trim(raw);
    ascii_fold_eq(raw.as_bytes(), folded.as_bytes())
        .unwrap_or_else(|| folded_chars(raw).eq(folded.chars()))
}

/// Whether `raw`, folded, equals the already folded `folded`, compared byte by byte while
/// `raw` is ASCII (an ASCII char folds to its ASCII lower case): `Some` when that settles it,
/// `None` when `raw` holds a non-ASCII char before any difference (the char-wise fold decides).
/// Most comparisons end at the first byte.
pub(crate) fn ascii_fold_eq(raw: &[u8], folded: &[u8]) -> Option<bool> {
    for (i, &b) in raw.iter().enumerate() {
        if !b.is_ascii() {
            return None;
        }
        // A folded byte that differs, ASCII or not, cannot be this ASCII char's fold.
        if folded.get(i) != Some(&b.to_ascii_lowercase()) {
            return Some(false);
        }
    }
    Some(folded.len() == raw.len())
}

/// The folded characters of `s`, lazily.
pub(super) fn folded_chars(s: &str) -> impl Iterator<Item = char> + '_ {
    s.chars().flat_map(char::to_lowercase).map(unaccent)
}

/// The folded form of one char when it folds to a single char (every char aw's keywords use);
/// `None` when its lower case is several chars (`İ`), which only the allocating [`fold`] handles.
/// Callers that compare char by char take the fast path with this and fall back on `None`.
pub(crate) fn fold_char(c: char) -> Option<char> {
    if c.is_ascii() {
        return Some(c.to_ascii_lowercase());
    }
    let mut lower = c.to_lowercase();
    let l = lower.next()?;
    if lower.next().is_some() {
        return None;
    }
    Some(unaccent(l))
}

/// The fold table: a lower-case accented Spanish letter to its plain form.
fn unaccent(c: char) -> char {
    match c {
        'á' | 'à' | 'ä' | 'â' => 'a',
        'é' | 'è' | 'ë' | 'ê' => 'e',
        'í' | 'ì' | 'ï' | 'î' => 'i',
        'ó' | 'ò' | 'ö' | 'ô' => 'o',
        'ú' | 'ù' | 'ü' | 'û' => 'u',
        'ñ' => 'n',
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_case_and_spanish_accents() {
        assert_eq!(fold("  Próximo PASO "), "proximo paso");
        assert_eq!(fold("ÀÉÎÕÜ Ñandú"), "aeiõu nandu");
        assert!(fold_eq(
            " Criterios de Aceptación",
            "criterios de aceptacion"
        ));
        assert!(!fold_eq("Aceptación", "aceptacio"));
    }

    #[test]
    fn the_char_fold_agrees_with_the_string_fold() {
        for c in "AaÁáÀàÄäÂâÉéÍíÓóÚúÜüÑñÇçßİ€1 -".chars() {
            let folded: String = folded_chars(&c.to_string()).collect();
            match fold_char(c) {
                Some(f) => assert_eq!(folded, f.to_string(), "{c}"),
                None => assert!(folded.chars().count() > 1, "{c}"),
            }
        }
    }
}
