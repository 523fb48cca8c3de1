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
///
/// The value is folded once into a small buffer and compared with each candidate; a value too
/// long for the buffer, or holding a char whose lower case is several chars, is compared with
/// each candidate char by char.
pub fn words_fold_to_any(value: &str, folded: &[&str]) -> Option<usize> {
    let every = || folded.iter().position(|w| chars_words_fold_to(value, w));
    let mut buf = [0u8; 64];
    let mut len = 0;
    let mut pending_space = false;
    let mut started = false;
    // Byte by byte while the value is ASCII (the common case): an ASCII byte is a whole char,
    // whitespace as `char::is_whitespace` sees it when `ascii_space` says so, and folds to its
    // ASCII lower case; other chars are decoded and folded as chars.
    let mut i = 0;
    while let Some(&b) = value.as_bytes().get(i) {
        let f = if b.is_ascii() {
            i += 1;
            if b == b'*' {
                continue;
            }
            if ascii_space(b) {
                pending_space = started;
                continue;
            }
            char::from(b.to_ascii_lowercase())
        } else {
            // `i` is at a char's first byte: every step advances by whole chars.
            let Some(c) = value[i..].chars().next() else {
                break;
            };
            i += c.len_utf8();
            if c.is_whitespace() {
                pending_space = started;
                continue;
            }
            let Some(f) = fold_char(c) else {
                return every();
            };
            f
        };
        let space = usize::from(pending_space);
        if len + space + f.len_utf8() > buf.len() {
            return every();
        }
        if pending_space {
            buf[len] = b' ';
            len += 1;
        }
        pending_space = false;
        started = true;
        len += f.encode_utf8(&mut buf[len..]).len();
    }
    let value = &buf[..len];
    folded.iter().position(|w| w.as_bytes() == value)
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

/// Whether `hay` contains `needle` (ASCII lower case), ignoring ASCII case.
pub fn contains_ascii_ci(hay: &str, needle: &str) -> bool {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    let Some((&first, rest)) = n.split_first() else {
        return true;
    };
    let Some(last) = h.len().checked_sub(n.len()) else {
        return false;
    };
    // Only the windows whose first byte fits are compared: `memchr2` finds them, where comparing
    // every window of every preamble line showed in profiles of large boards.
    let (lower, upper) = (first.to_ascii_lowercase(), first.to_ascii_uppercase());
    let starts = &h[..=last];
    let mut i = 0;
    while let Some(j) = memchr::memchr2(lower, upper, &starts[i..]) {
        let at = i + j;
        if h[at + 1..at + n.len()].eq_ignore_ascii_case(rest) {
            return true;
        }
        i = at + 1;
    }
    false
}

/// A heading title folded, without a trailing `(…)` and `:`, so `Deferred (v2):` reads `deferred`.
pub fn loose_title(title: &str) -> String {
    crate::markdown::fold(loose(title))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let words = [
            "validada",
            "en ejecucion",
            "ñu",
            "in progress",
            "",
            "i\u{307}x",
        ];
        for v in [
            "En Ejecución",
            " **EN  EJECUCIÓN** ",
            "Ñu",
            "ñú",
            "In\u{a0}Progress",
            "İx",
            "validada — x",
            "",
            "**",
            "Validada",
            "a very long value that does not fit the buffer of sixty-four bytes at all",
        ] {
            assert_eq!(
                words_fold_to_any(v, &words),
                words.iter().position(|w| chars_words_fold_to(v, w)),
                "{v:?}"
            );
        }
        assert!(contains_ascii_ci("> DERIVED From x", "derived from"));
        assert!(!contains_ascii_ci("derive", "derived"));
    }

    proptest::proptest! {
        /// The byte-wise fold into the buffer agrees with the char-wise comparison.
        #[test]
        fn words_fold_to_any_agrees_with_the_char_wise_fold(
            v in "([ \t\u{a0}\u{2003}*]{0,2}(En|EN|en|ÉN|Ejecución|EJECUCIÓN|ejecucion|ñu|Ñú|İx|i\u{307}x|x|e)){0,3}[ *\u{a0}]{0,2}",
        ) {
            let words = ["en ejecucion", "en", "nu", "i\u{307}x", "", "en ejecucion e"];
            proptest::prop_assert_eq!(
                words_fold_to_any(&v, &words),
                words.iter().position(|w| chars_words_fold_to(&v, w))
            );
        }
        /// The first-byte search agrees with comparing every window.
        #[test]
        fn contains_ascii_ci_agrees_with_every_window(
            hay in "[dDeErRiIvV ñÑxX-]{0,24}",
            needle in "[dDeErRiIvV ñ]{0,5}",
        ) {
            let (h, n) = (hay.as_bytes(), needle.as_bytes());
            let want = n.is_empty() || h.windows(n.len()).any(|w| w.eq_ignore_ascii_case(n));
            proptest::prop_assert_eq!(contains_ascii_ci(&hay, &needle), want);
        }
    }
}
