//! `HH:MM` or `HH:MM:SS`, as both the checkpoint stamp and a declared date write a time of day.

use super::date::digits;

/// A time of day as written: the second may be 60 (a leap second).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Hms {
    /// 0–23.
    pub hour: u8,
    /// 0–59.
    pub minute: u8,
    /// 0–60.
    pub second: u8,
}

/// `HH:MM` or `HH:MM:SS` at the start of `b`, with how many bytes it took. The time must end
/// there or before a non-digit (`10:30Z` reads, `10:301` does not); out-of-range fields are
/// refused, so a garbled stamp never reads as a time.
pub(super) fn time_prefix(b: &[u8]) -> Option<(Hms, usize)> {
    let two = |at: usize| -> Option<u8> { u8::try_from(digits(b.get(at..at + 2)?)?).ok() };
    if b.get(2) != Some(&b':') {
        return None;
    }
    let (hour, minute) = (two(0)?, two(3)?);
    let (second, end) = match (b.get(5), two(6)) {
        (Some(b':'), Some(sec)) => (sec, 8),
        _ => (0, 5),
    };
    if b.get(end).is_some_and(u8::is_ascii_digit) || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    Some((
        Hms {
            hour,
            minute,
            second,
        },
        end,
    ))
}
