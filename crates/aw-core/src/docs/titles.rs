//! Comparing headings and keys the way [`crate::markdown::fold`] does (case and Spanish accents
//! folded, surrounding spaces ignored) without allocating: the board compares every heading of
//! thousands of documents, and a fresh `String` per comparison showed up as a fifth of its time.

use crate::markdown::{fold, fold_char, trim, trim_end};

/// Whether `fold(s) == folded`.
pub fn folds_to(s: &str, folded: &str) -> bool {
    let s = trim(s);
    if s.is_ascii() {
        // An ASCII char folds to its ASCII lower case: compare bytes.
        return s.len() == folded.len()
            && s.bytes()
                .zip(folded.bytes())
                .all(|(a, b)| a.to_ascii_lowercase() == b);
    }
    let mut want = folded.chars();
    for c in s.chars() {
        match fold_char(c) {
            Some(f) => {
                if want.next() != Some(f) {
                    return false;
                }
            }
            // A char whose lower case is several chars: take the exact, allocating path.
            None => return fold(s) == folded,
        }
    }
    want.next().is_none()
}

/// A heading title without a trailing `:` and `(…)`: `Deferred (v2):` → `Deferred`.
pub fn loose(title: &str) -> &str {
    let mut t = trim_end(trim(title).trim_end_matches(':'));
    if t.ends_with(')')
        && let Some(open) = t.rfind('(')
    {
        t = t[..open].trim_end();
    }
    t.trim_end_matches(':')
}

/// Whether a heading title, loosely read, folds to one of `folded`.
pub fn is_one_of(title: &str, folded: &[&str]) -> bool {
    let t = loose(title);
    folded.iter().any(|f| folds_to(t, f))
}

/// Whether `value`, with `*` dropped, case and accents folded and runs of spaces collapsed,
/// equals `folded` (a phase state such as `en ejecucion`).
pub fn words_fold_to(value: &str, folded: &str) -> bool {
    if value.is_ascii() {
        return ascii_words_fold_to(value.as_bytes(), folded.as_bytes());
    }
    let mut want = folded.chars();
    let mut pending_space = false;
    let mut started = false;
    for c in value.chars().filter(|c| *c != '*') {
        if c.is_whitespace() {
            pending_space = started;
            continue;
        }
        let Some(f) = fold_char(c) else {
            let collapsed: Vec<String> = fold(&value.replace('*', ""))
                .split_whitespace()
                .map(str::to_owned)
                .collect();
            return collapsed.join(" ") == folded;
        };
        if pending_space && want.next() != Some(' ') {
            return false;
        }
        pending_space = false;
        started = true;
        if want.next() != Some(f) {
            return false;
        }
    }
    want.next().is_none()
}

/// [`words_fold_to`] for an ASCII value: the same walk over bytes.
fn ascii_words_fold_to(value: &[u8], folded: &[u8]) -> bool {
    let mut want = folded.iter();
    let mut pending_space = false;
    let mut started = false;
    for &b in value.iter().filter(|b| **b != b'*') {
        if (b as char).is_whitespace() {
            pending_space = started;
            continue;
        }
        if pending_space && want.next() != Some(&b' ') {
            return false;
        }
        pending_space = false;
        started = true;
        if want.next() != Some(&b.to_ascii_lowercase()) {
            return false;
        }
    }
    want.next().is_none()
}

/// Whether `hay` contains `needle` (ASCII lower case), ignoring ASCII case.
pub fn contains_ascii_ci(hay: &str, needle: &str) -> bool {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    n.is_empty() || h.windows(n.len()).any(|w| w.eq_ignore_ascii_case(n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::artifacts::loose_title;

    #[test]
    fn agrees_with_fold() {
        let samples = [
            "Próximo Paso",
            " ESTADO ",
            "Lotes de Ejecución",
            "Tasks",
            "İstanbul",
            "ÑANDÚ",
            "",
            "a",
            "Straße",
            "Open questions (2):",
            "Tareas:",
        ];
        for s in samples {
            assert!(folds_to(s, &fold(s)), "{s}");
            assert!(!folds_to(s, &format!("{}x", fold(s))), "{s}");
            assert!(is_one_of(s, &[&loose_title(s)]), "{s}");
        }
        assert!(folds_to("En Ejecución", "en ejecucion"));
        assert!(!folds_to("En Ejecución", "en ejecucio"));
        assert_eq!(loose("Deferred (later):"), "Deferred");
        assert!(words_fold_to(" **En   Ejecución** ", "en ejecucion"));
        assert!(words_fold_to("validada", "validada"));
        assert!(!words_fold_to("validada — ok", "validada"));
        assert!(!words_fold_to("", "validada"));
        assert!(words_fold_to("", ""));
        assert!(contains_ascii_ci("> DERIVED From x", "derived from"));
        assert!(!contains_ascii_ci("derive", "derived"));
    }
}
