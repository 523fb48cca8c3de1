//! Document and session correlatives: the `NNN` that prefixes a numbered name.
//!
//! The grammar is the reference's v22 one: at least three digits at the start of the name,
//! followed by `-` or by the end of the name. Numbers of any width compare numerically, so
//! `1000-spec-x.md` is 1000 (the v21 reader cut it to 100). Digits are kept as text, so no width
//! overflows.

use std::cmp::Ordering;
use std::fmt;

/// A correlative number of any width, kept as its decimal digits without leading zeros.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Correlative(String);

impl Correlative {
    /// Zero.
    pub fn zero() -> Self {
        Correlative("0".to_owned())
    }

    /// From a run of ASCII digits (leading zeros allowed). `None` when `digits` is empty or
    /// holds anything but `0-9`.
    pub fn from_digits(digits: &str) -> Option<Self> {
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let trimmed = digits.trim_start_matches('0');
        Some(Correlative(if trimmed.is_empty() {
            "0".to_owned()
        } else {
            trimmed.to_owned()
        }))
    }

    /// The correlative that prefixes `name`: `^(\d{3,})(?:-|$)`.
    pub fn of_name(name: &str) -> Option<Self> {
        let digits = name.bytes().take_while(u8::is_ascii_digit).count();
        if digits < 3 {
            return None;
        }
        match name.as_bytes().get(digits) {
            None | Some(b'-') => Self::from_digits(&name[..digits]),
            Some(_) => None,
        }
    }

    /// A number typed by a person or an agent: digits only, any width (`7` means `007`).
    pub fn parse_input(s: &str) -> Option<Self> {
        Self::from_digits(s.trim())
    }

    /// The next number.
    pub fn succ(&self) -> Self {
        let mut digits: Vec<u8> = self.0.bytes().collect();
        let mut i = digits.len();
        loop {
            if i == 0 {
                digits.insert(0, b'1');
                break;
            }
            i -= 1;
            if digits[i] == b'9' {
                digits[i] = b'0';
            } else {
                digits[i] += 1;
                break;
            }
        }
        Correlative(String::from_utf8(digits).unwrap_or_else(|_| "0".to_owned()))
    }

    /// Zero-padded to at least three digits: `7` → `007`, `1000` → `1000`.
    pub fn padded(&self) -> String {
        format!("{:0>3}", self.0)
    }

    /// The digits without padding.
    pub fn digits(&self) -> &str {
        &self.0
    }

    /// As a `u64`, when it fits.
    pub fn as_u64(&self) -> Option<u64> {
        self.0.parse().ok()
    }
}

impl Ord for Correlative {
    fn cmp(&self, other: &Self) -> Ordering {
        // Without leading zeros, a longer number is a bigger one.
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.cmp(&other.0))
    }
}

impl PartialOrd for Correlative {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Correlative {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.padded())
    }
}

/// The highest correlative among `names` (zero when none has one) and the one after it.
pub fn next_after<'a>(names: impl IntoIterator<Item = &'a str>) -> (Correlative, Correlative) {
    highest_and_next(names.into_iter().filter_map(Correlative::of_name))
}

/// The highest of `numbers` (zero when there is none) and the one after it: the numbering rule
/// documents and sessions share.
pub fn highest_and_next(
    numbers: impl IntoIterator<Item = Correlative>,
) -> (Correlative, Correlative) {
    let max = numbers.into_iter().max().unwrap_or_else(Correlative::zero);
    let next = max.succ();
    (max, next)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Correlative {
        Correlative::from_digits(s).unwrap()
    }

    #[test]
    fn grammar_needs_three_digits_then_dash_or_end() {
        assert_eq!(Correlative::of_name("001-spec-a.md"), Some(c("1")));
        assert_eq!(Correlative::of_name("1000-spec-x.md"), Some(c("1000")));
        assert_eq!(Correlative::of_name("010"), Some(c("10")));
        assert_eq!(Correlative::of_name("010-dir"), Some(c("10")));
        for none in [
            "0005x.md",
            "001.md",
            "01-x",
            "README.md",
            "",
            "abc-001",
            "001_x",
        ] {
            assert_eq!(Correlative::of_name(none), None, "{none}");
        }
    }

    #[test]
    fn numeric_order_of_any_width() {
        assert!(c("1000") > c("999"));
        assert!(c("0100") == c("100"));
        assert!(c("99999999999999999999999") > c("9999999999999999999999"));
        let (max, next) = next_after(["001-a", "1000-b", "999-c", "x"]);
        assert_eq!(
            (max.padded(), next.padded()),
            ("1000".into(), "1001".into())
        );
    }

    #[test]
    fn successor_and_padding() {
        assert_eq!(Correlative::zero().succ().padded(), "001");
        assert_eq!(c("9").succ().padded(), "010");
        assert_eq!(c("999").succ().padded(), "1000");
        assert_eq!(
            c("99999999999999999999").succ().digits(),
            "100000000000000000000"
        );
        assert_eq!(next_after([]).1.padded(), "001");
        assert_eq!(Correlative::parse_input(" 7 ").unwrap().padded(), "007");
        assert_eq!(Correlative::parse_input("7a"), None);
        assert_eq!(c("12").as_u64(), Some(12));
    }
}
