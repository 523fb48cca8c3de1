//! A local wall-clock reading (no zone: both sides of every comparison are local), its
//! `YYYY-MM-DD HH:MM[:SS]` grammar, its stamps and the day and second arithmetic on it.

use super::date::date_prefix;
use super::time_of_day::{Hms, time_prefix};
use time::macros::datetime;
use time::{Date, OffsetDateTime, PrimitiveDateTime, Time};

/// The origin the arithmetic counts from: 1970-01-01 00:00 of the same (unspecified) zone.
const EPOCH: PrimitiveDateTime = datetime!(1970-01-01 0:00);

/// A local wall-clock time, always a real calendar date and time of day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct WallClock {
    /// The reading, with a leap second's `:60` held as `:59`.
    at: PrimitiveDateTime,
    /// The reading was written with `:60`: it counts one second after `at` and sorts between
    /// `:59` and the next minute, but stays on the minute (and day) it was written in.
    leap: bool,
}

impl WallClock {
    /// Parses `YYYY-MM-DD HH:MM[:SS]` (one space between date and time, surrounding spaces
    /// allowed, nothing else). Impossible dates and out-of-range fields are refused, so a garbled
    /// stamp never reads as a date; a second of 60 is tolerated for a leap second.
    pub fn parse(s: &str) -> Option<Self> {
        let b = s.trim().as_bytes();
        let date = date_prefix(b)?;
        if b.get(10) != Some(&b' ') {
            return None;
        }
        let (hms, used) = time_prefix(&b[11..])?;
        if 11 + used != b.len() {
            return None;
        }
        Self::at(date, hms)
    }

    /// Midnight at the start of `date`.
    pub fn midnight(date: Date) -> Self {
        WallClock {
            at: date.midnight(),
            leap: false,
        }
    }

    /// A date and a time of day as written (`None` when a field is out of range).
    pub(super) fn at(date: Date, hms: Hms) -> Option<Self> {
        let leap = hms.second == 60;
        let second = if leap { 59 } else { hms.second };
        let time = Time::from_hms(hms.hour, hms.minute, second).ok()?;
        Some(WallClock {
            at: PrimitiveDateTime::new(date, time),
            leap,
        })
    }

    /// The reading as a date and a time of day (a leap second's `:60` as `:59`).
    pub fn date_time(&self) -> PrimitiveDateTime {
        self.at
    }

    /// The calendar date.
    pub fn date(&self) -> Date {
        self.at.date()
    }

    /// The hour, 0–23.
    pub fn hour(&self) -> u8 {
        self.at.hour()
    }

    /// The minute, 0–59.
    pub fn minute(&self) -> u8 {
        self.at.minute()
    }

    /// The second, 0–59, or 60 for a leap second.
    pub fn second(&self) -> u8 {
        if self.leap { 60 } else { self.at.second() }
    }

    /// `YYYY-MM-DD`.
    pub fn date_stamp(&self) -> String {
        let d = self.at.date();
        let (year, month, day) = (d.year(), u8::from(d.month()), d.day());
        if !(0..=9999).contains(&year) {
            return format!("{year:04}-{month:02}-{day:02}");
        }
        // Digit by digit: the board writes a date for every document, and the formatting
        // machinery cost ten times this.
        let digit = |n: i32| char::from(b'0' + (n % 10) as u8);
        let mut s = String::with_capacity(10);
        for n in [year / 1000, year / 100, year / 10, year] {
            s.push(digit(n));
        }
        s.push('-');
        s.push(digit(i32::from(month) / 10));
        s.push(digit(i32::from(month)));
        s.push('-');
        s.push(digit(i32::from(day) / 10));
        s.push(digit(i32::from(day)));
        s
    }

    /// `YYYY-MM-DD HH:MM`, the precision a checkpoint's `Updated:` carries.
    pub fn minute_stamp(&self) -> String {
        format!(
            "{} {:02}:{:02}",
            self.date_stamp(),
            self.at.hour(),
            self.at.minute()
        )
    }

    /// Seconds since 1970-01-01 00:00 of the same (unspecified) zone.
    pub fn seconds(&self) -> i64 {
        (self.at - EPOCH).whole_seconds() + i64::from(self.leap)
    }

    /// Calendar days since 1970-01-01: the day something happened on, whatever its time of day
    /// (so 23:50 and 00:10 the next morning are a day apart).
    pub fn day_number(&self) -> i64 {
        (self.at.date() - EPOCH.date()).whole_days()
    }
}

impl From<PrimitiveDateTime> for WallClock {
    fn from(at: PrimitiveDateTime) -> Self {
        WallClock { at, leap: false }
    }
}

impl From<OffsetDateTime> for WallClock {
    /// The wall clock at the time's own offset (the shell converts to the local offset first).
    fn from(at: OffsetDateTime) -> Self {
        WallClock::from(PrimitiveDateTime::new(at.date(), at.time()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> WallClock {
        WallClock::parse(s).unwrap()
    }

    #[test]
    fn wall_clock_grammar_and_arithmetic() {
        assert_eq!(at("2026-03-01 10:30").minute_stamp(), "2026-03-01 10:30");
        assert_eq!(at(" 2026-03-01 10:30:59 ").second(), 59);
        for bad in [
            "2026-3-01 10:30",
            "2026-02-30 10:00",
            "2026-02-31 10:00",
            "2026-01-01 24:00",
            "2026-01-01 10:60",
            "2026-01-01 10:00:61",
            "2026-01-01T10:00",
            "2026-01-01  10:00",
            "2026-01-01\t10:00",
            "2026-01-01 10:00:00:00",
            "2026-01-01 10:00:0",
            "2026-01-01 10:00:",
            "2026-01-01 10:0",
            "2026-01-01 1a:00",
            "2026-01-01 10:00Z",
            "2026-01-01",
            "",
        ] {
            assert_eq!(WallClock::parse(bad), None, "{bad}");
        }
        assert_eq!(at("1970-01-01 00:00").seconds(), 0);
        assert_eq!(at("1969-12-31 23:59").seconds(), -60);
        assert_eq!(at("2000-03-01 00:00").seconds(), 951_868_800);
        assert_eq!(
            at("2024-03-01 00:00").seconds() - at("2024-02-28 23:59").seconds(),
            86_400 + 60
        );
        assert_eq!(
            at("2026-03-01 00:00").seconds() - at("2026-02-28 23:59").seconds(),
            60,
            "2026 is not a leap year"
        );
        assert!(WallClock::parse("2024-02-29 00:00").is_some());
        assert!(WallClock::parse("2000-02-29 00:00").is_some());
        assert!(WallClock::parse("2100-02-29 00:00").is_none());
    }

    #[test]
    fn a_leap_second_counts_but_stays_on_its_minute() {
        let leap = at("2026-12-31 23:59:60");
        let next = at("2027-01-01 00:00");
        assert_eq!(leap.second(), 60);
        assert_eq!(leap.seconds(), next.seconds());
        assert!(at("2026-12-31 23:59:59") < leap && leap < next);
        assert_eq!(leap.minute_stamp(), "2026-12-31 23:59");
        assert_eq!(leap.day_number() + 1, next.day_number());
    }

    #[test]
    fn days_are_calendar_days() {
        assert_eq!(at("1970-01-01 23:59").day_number(), 0);
        assert_eq!(at("1969-12-31 00:00").day_number(), -1);
        assert_eq!(
            at("2026-03-10 00:10").day_number() - at("2026-03-09 23:50").day_number(),
            1
        );
        assert_eq!(at("2000-03-01 00:00").day_number(), 11_017);
    }

    #[test]
    fn date_stamps_are_zero_padded_at_every_width() {
        for (t, want) in [
            (datetime!(2026-03-01 10:30), "2026-03-01"),
            (datetime!(0005-12-09 00:00), "0005-12-09"),
            (datetime!(0000-01-01 00:00), "0000-01-01"),
            (datetime!(9999-12-31 23:59), "9999-12-31"),
            (datetime!(-0001-06-15 00:00), "-001-06-15"),
        ] {
            assert_eq!(WallClock::from(t).date_stamp(), want);
        }
    }

    #[test]
    fn converts_from_the_time_crate() {
        let t = datetime!(2026-03-01 10:30:15);
        let w = WallClock::from(t);
        assert_eq!(w, at("2026-03-01 10:30:15"));
        assert_eq!((w.hour(), w.minute(), w.second()), (10, 30, 15));
        assert_eq!(w.date_stamp(), "2026-03-01");
        let offset = datetime!(2026-03-01 23:30 -3);
        assert_eq!(WallClock::from(offset), at("2026-03-01 23:30"));
        assert_eq!(WallClock::midnight(t.date()), at("2026-03-01 00:00"));
    }
}
