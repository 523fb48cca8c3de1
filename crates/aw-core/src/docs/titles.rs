//! Comparing headings and keys the way [`crate::markdown::fold`] does (case and Spanish accents
//! folded, surrounding spaces ignored) without allocating: the board compares every heading of
//! thousands of documents, and a fresh `String` per comparison showed up as a fifth of its time.

use crate::markdown::{ascii_fold_eq, ascii_space, fold, fold_char, trim, trim_end, trim_start};

/// Whether `fold(s) == folded`.
pub fn folds_to(s: &str, folded: &str) -> bool {
    let s = trim(s);
    if let Some(eq) = ascii_fold_eq(s.as_bytes(), folded.as_bytes()) {
        return eq;
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
    // Most headings are not the section sought: an ASCII first letter that starts none of the
    // titles settles it before the title is loosened.
    if let Some(&b) = trim_start(title).as_bytes().first()
        && b.is_ascii()
        && !folded.iter().any(|f| {
            f.as_bytes()
                .first()
                .is_none_or(|&c| c == b.to_ascii_lowercase())
        })
    {
        return false;
    }
    let t = loose(title);
    folded.iter().any(|f| folds_to(t, f))
}

/// Whether `value`, with `*` dropped, case and accents folded and runs of spaces collapsed,
/// equals `folded` (a phase state such as `en ejecucion`).
pub fn words_fold_to(value: &str, folded: &str) -> bool {
    words_fold_to_any(value, &[folded]) == Some(0)
}

/// Which of `folded` (the first that fits) `value` equals once its `*` are dropped, case and
/// accents folded and runs of spaces collapsed (see [`words_fold_to`]).
pub fn words_fold_to_any(value: &str, folded: &[&str]) -> Option<usize> {
    if value.is_ascii() && folded.len() < 64 {
        return ascii_words_fold_to_any(value.as_bytes(), folded);
    }
    folded.iter().position(|w| chars_words_fold_to(value, w))
}

/// [`words_fold_to`] char by char, for any text.
fn chars_words_fold_to(value: &str, folded: &str) -> bool {
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

/// [`words_fold_to_any`] for an ASCII value (an ASCII char folds to its ASCII lower case): one
/// walk over its folded bytes, matched against every candidate at once (bit `i` of `alive`:
/// candidate `i` still fits).
fn ascii_words_fold_to_any(value: &[u8], folded: &[&str]) -> Option<usize> {
    let mut alive: u64 = (1 << folded.len()) - 1;
    let mut at = 0;
    let mut next = |b: u8, alive: &mut u64| {
        // Only the candidates still alive: after a char or two, one is left at most.
        let mut left = *alive;
        while left != 0 {
            let i = left.trailing_zeros() as usize;
            left &= left - 1;
            if folded[i].as_bytes().get(at) != Some(&b) {
                *alive &= !(1 << i);
            }
        }
        at += 1;
    };
    let mut pending_space = false;
    let mut started = false;
    for &b in value.iter().filter(|b| **b != b'*') {
        if ascii_space(b) {
            pending_space = started;
            continue;
        }
        if pending_space {
            next(b' ', &mut alive);
        }
        pending_space = false;
        started = true;
        next(b.to_ascii_lowercase(), &mut alive);
        if alive == 0 {
            return None;
        }
    }
    (0..folded.len()).find(|&i| alive & (1 << i) != 0 && folded[i].len() == at)
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
        assert!(is_one_of(" Tareas (2):", &["tasks", "tareas"]));
        assert!(!is_one_of("Notes", &["tasks", "tareas"]));
        assert!(is_one_of("(draft)", &[""]), "an empty loose title");
        assert!(is_one_of("Árbol", &["arbol"]));
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
