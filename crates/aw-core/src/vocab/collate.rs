//! Text collation as the reference sorts it: JavaScript's `String.prototype.localeCompare`,
//! which is ICU's root collation. Proposals sort their paths with it and `aw worktree integrate`
//! its aliases, so both agree with the reference on order.

use std::cmp::Ordering;

/// An ordering close to the reference's `String.prototype.localeCompare` (ICU root collation)
/// for the paths a proposal holds: letters compare by their base letter first (case and the
/// Spanish accents set aside), then accented after plain, then lower case before upper case;
/// punctuation sorts before digits and digits before letters, with `_` before `-` before `.`
/// before `/`. Other characters keep their code point order after letters. Exact for ASCII
/// paths and Spanish accented letters, the paths docs folders hold.
pub fn locale_cmp(a: &str, b: &str) -> Ordering {
    fn primary(c: char) -> (u8, u32) {
        const PUNCT: &str = "_-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$";
        let base = crate::markdown::fold_char(c).unwrap_or(c);
        if c.is_whitespace() {
            (0, c as u32)
        } else if let Some(i) = PUNCT.find(c) {
            (1, i as u32)
        } else if c.is_ascii_digit() {
            (2, c as u32)
        } else if base.is_ascii_alphabetic() {
            (3, base as u32)
        } else {
            (4, c as u32)
        }
    }
    // Secondary: a plain letter before its accented forms.
    let secondary = |c: char| u8::from(!c.is_ascii());
    // Tertiary: lower case before upper case.
    let tertiary = |c: char| u8::from(c.is_uppercase());
    a.chars()
        .map(primary)
        .cmp(b.chars().map(primary))
        .then_with(|| a.chars().map(secondary).cmp(b.chars().map(secondary)))
        .then_with(|| a.chars().map(tertiary).cmp(b.chars().map(tertiary)))
        .then_with(|| a.cmp(b))
}
