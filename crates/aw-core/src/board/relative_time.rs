//! How long ago something happened, in plain English ("just now", "3 minutes ago", "yesterday
//! evening", "last week", …).
//!
//! Everything is local wall-clock time, and "now" is a value: the shell reads the clock and the
//! file times, this module only compares them. Days are counted in calendar days, so something
//! written at 23:50 is "yesterday" ten minutes after midnight.

use crate::calendar::{Moment, WallClock};

/// The part of the day an hour falls in.
fn part_of_day(hour: u8) -> &'static str {
    match hour {
        0..=11 => "morning",
        12..=18 => "afternoon",
        _ => "evening",
    }
}

// Strings are joined by hand: the board words a date for every document, and the formatting
// machinery cost several times the joining.
fn count(n: i64, one: &str, many: &str) -> String {
    if n == 1 {
        [one, " ago"].concat()
    } else {
        [&n.to_string(), " ", many, " ago"].concat()
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
    let days = now.day_number() - then.at.day_number();
    match days {
        i64::MIN..=-1 => "just now".to_owned(),
        0 if then.precise => ["this ", part_of_day(then.at.hour())].concat(),
        0 => "today".to_owned(),
        1 if then.precise => ["yesterday ", part_of_day(then.at.hour())].concat(),
        1 => "yesterday".to_owned(),
        2..=6 => [&days.to_string(), " days ago"].concat(),
        7..=13 => "last week".to_owned(),
        14..=27 => [&(days / 7).to_string(), " weeks ago"].concat(),
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
