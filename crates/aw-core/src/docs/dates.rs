//! Dates on the board: a document's own declared date, and how long ago something happened in
//! plain English ("just now", "3 minutes ago", "yesterday evening", "last week", …).
//!
//! Everything is local wall-clock time, and "now" is a value: the shell reads the clock and the
//! file times, this module only compares them. Days are counted in calendar days, so something
//! written at 23:50 is "yesterday" ten minutes after midnight.

use crate::checkpoint::WallClock;

/// When something happened, as precisely as it is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Moment {
    /// The local wall-clock time (midnight when only the day is known).
    pub at: WallClock,
    /// Whether the time of day is known (a file time, a `YYYY-MM-DD HH:MM` stamp) or only the
    /// day (a `YYYY-MM-DD` date a document declares).
    pub precise: bool,
}

impl Moment {
    /// A precise moment.
    pub fn precise(at: WallClock) -> Self {
        Moment { at, precise: true }
    }

    /// `YYYY-MM-DD`.
    pub fn date(&self) -> String {
        format!(
            "{:04}-{:02}-{:02}",
            self.at.year, self.at.month, self.at.day
        )
    }
}

/// Reads a declared date at the start of `s`: `YYYY-MM-DD`, optionally followed by
/// ` HH:MM[:SS]` (or `T`), then anything (`2026-03-01 · session 004`). Impossible dates are
/// refused.
pub fn parse_declared(s: &str) -> Option<Moment> {
    let s = s.trim();
    let b = s.as_bytes();
    let rest = b.get(10..)?;
    if !rest.is_empty() && !rest[0].is_ascii_whitespace() && rest[0] != b'T' {
        return None;
    }
    if b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let year = digits(&b[0..4])?;
    let month = u8::try_from(digits(&b[5..7])?).ok()?;
    let day = u8::try_from(digits(&b[8..10])?).ok()?;
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return None;
    }
    let midnight = WallClock {
        year: i32::try_from(year).ok()?,
        month,
        day,
        hour: 0,
        minute: 0,
        second: 0,
    };
    match rest.get(1..).and_then(time_of_day) {
        Some((hour, minute, second)) => Some(Moment::precise(WallClock {
            hour,
            minute,
            second,
            ..midnight
        })),
        None => Some(Moment {
            at: midnight,
            precise: false,
        }),
    }
}

/// `HH:MM` or `HH:MM:SS` at the start of `b`, ending there or before a non-digit.
fn time_of_day(b: &[u8]) -> Option<(u8, u8, u8)> {
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
    Some((hour, minute, second))
}

/// The value of a run of ASCII digits.
fn digits(b: &[u8]) -> Option<u32> {
    if b.is_empty() || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    b.iter().try_fold(0u32, |n, d| {
        n.checked_mul(10)?.checked_add(u32::from(d - b'0'))
    })
}

fn days_in_month(year: u32, month: u8) -> u8 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => {
            29
        }
        2 => 28,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a wall-clock date.
fn day_number(w: &WallClock) -> i64 {
    let midnight = WallClock {
        hour: 0,
        minute: 0,
        second: 0,
        ..*w
    };
    midnight.seconds().div_euclid(86_400)
}

/// The part of the day an hour falls in.
fn part_of_day(hour: u8) -> &'static str {
    match hour {
        0..=11 => "morning",
        12..=18 => "afternoon",
        _ => "evening",
    }
}

fn count(n: i64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{one} ago")
    } else {
        format!("{n} {many} ago")
    }
}

/// How long before `now` a moment was, in English. A moment in the future reads "just now"
/// (clock skew between machines should not read as an error).
pub fn relative(then: &Moment, now: &WallClock) -> String {
    if then.precise {
        let secs = now.seconds() - then.at.seconds();
        if secs < 60 {
            return "just now".to_owned();
        }
        if secs < 3600 {
            return count(secs / 60, "a minute", "minutes");
        }
    }
    let days = day_number(now) - day_number(&then.at);
    match days {
        i64::MIN..=-1 => "just now".to_owned(),
        0 if then.precise => format!("this {}", part_of_day(then.at.hour)),
        0 => "today".to_owned(),
        1 if then.precise => format!("yesterday {}", part_of_day(then.at.hour)),
        1 => "yesterday".to_owned(),
        2..=6 => format!("{days} days ago"),
        7..=13 => "last week".to_owned(),
        14..=27 => format!("{} weeks ago", days / 7),
        28..=359 => count((days / 30).max(1), "a month", "months"),
        _ => count((days / 365).max(1), "a year", "years"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> WallClock {
        WallClock::parse(s).unwrap()
    }

    #[test]
    fn declared_dates() {
        let d = parse_declared("2026-03-01 · session 004").unwrap();
        assert_eq!((d.date(), d.precise), ("2026-03-01".to_owned(), false));
        let p = parse_declared(" 2026-03-01 10:30 ").unwrap();
        assert!(p.precise);
        assert_eq!(p.at, at("2026-03-01 10:30"));
        assert_eq!(
            parse_declared("2026-03-01 10:30:15Z").unwrap().at,
            at("2026-03-01 10:30:15")
        );
        assert!(parse_declared("2026-03-01T10:30").unwrap().precise);
        assert!(!parse_declared("2026-03-01 later").unwrap().precise);
        for bad in [
            "2026-02-30",
            "2026-3-1",
            "yesterday",
            "",
            "2026-03-011",
            "ñññññññññññ",
        ] {
            assert_eq!(parse_declared(bad), None, "{bad}");
        }
    }

    #[test]
    fn relative_table() {
        let now = at("2026-03-10 14:00");
        let cases: &[(&str, bool, &str)] = &[
            ("2026-03-10 14:00", true, "just now"),
            ("2026-03-10 13:59:30", true, "just now"),
            ("2026-03-10 15:00", true, "just now"),
            ("2026-03-10 13:59", true, "a minute ago"),
            ("2026-03-10 13:03", true, "57 minutes ago"),
            ("2026-03-10 09:00", true, "this morning"),
            ("2026-03-10 12:30", true, "this afternoon"),
            ("2026-03-10 00:10", true, "this morning"),
            ("2026-03-09 20:00", true, "yesterday evening"),
            ("2026-03-09 18:59", true, "yesterday afternoon"),
            ("2026-03-09 00:00", false, "yesterday"),
            ("2026-03-10 00:00", false, "today"),
            ("2026-03-11 00:00", false, "just now"),
            ("2026-03-08 10:00", true, "2 days ago"),
            ("2026-03-04 10:00", true, "6 days ago"),
            ("2026-03-03 10:00", true, "last week"),
            ("2026-02-25 10:00", true, "last week"),
            ("2026-02-24 10:00", true, "2 weeks ago"),
            ("2026-02-11 10:00", true, "3 weeks ago"),
            ("2026-02-10 10:00", true, "a month ago"),
            ("2026-01-05 10:00", true, "2 months ago"),
            ("2025-03-20 10:00", true, "11 months ago"),
            ("2025-03-15 10:00", true, "a year ago"),
            ("2023-03-10 10:00", true, "3 years ago"),
        ];
        for (then, precise, want) in cases {
            let m = Moment {
                at: at(then),
                precise: *precise,
            };
            assert_eq!(relative(&m, &now), *want, "{then}");
        }
        // Just after midnight, a late-evening write is already yesterday.
        let m = Moment::precise(at("2026-03-09 23:50"));
        assert_eq!(relative(&m, &at("2026-03-10 01:00")), "yesterday evening");
        let m = Moment::precise(at("2026-03-09 23:50"));
        assert_eq!(relative(&m, &at("2026-03-10 00:10")), "20 minutes ago");
    }
}
