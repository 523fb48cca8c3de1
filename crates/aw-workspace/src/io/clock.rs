//! The shell's only access to the clock, so the core can take "now" as a value.
//!
//! A command reads [`Now`] once, at start, and passes it down: every date it writes and every
//! age it computes agree with each other, and the testing aid `AW_TEST_NOW` (documented in
//! docs/PROTOCOL.md) pins all of them at once.

use aw_core::calendar::WallClock;
use std::time::SystemTime;
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{OffsetDateTime, UtcOffset};

/// The environment variable that pins "now" for tests: `YYYY-MM-DD HH:MM[:SS]`, local time.
pub const TEST_NOW_VAR: &str = "AW_TEST_NOW";

/// "Now", read once per command: the local wall-clock time and the same instant as a
/// `SystemTime` (to compare with file times).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Now {
    /// Local wall-clock time.
    pub wall: WallClock,
    /// The same instant on the system clock.
    pub system: SystemTime,
}

impl Now {
    /// Reads the clock, or `AW_TEST_NOW` when it holds a valid stamp.
    ///
    /// Call it before starting any thread: the `time` crate refuses to read the local offset
    /// from a multi-threaded process on Unix, and would silently fall back to UTC.
    pub fn read() -> Now {
        let pinned = std::env::var(TEST_NOW_VAR)
            .ok()
            .and_then(|v| WallClock::parse(&v))
            .map(|wall| Now {
                wall,
                system: system_time(wall),
            });
        pinned.unwrap_or_else(|| {
            let now = OffsetDateTime::now_utc();
            let offset = UtcOffset::local_offset_at(now).unwrap_or(UtcOffset::UTC);
            Now {
                wall: WallClock::from(now.to_offset(offset)),
                system: SystemTime::from(now),
            }
        })
    }

    /// The local date, `YYYY-MM-DD`.
    pub fn today(&self) -> String {
        self.wall.date_stamp()
    }

    /// The local time to the minute, `YYYY-MM-DD HH:MM` (the project block's and the
    /// checkpoint's stamp).
    pub fn minute_stamp(&self) -> String {
        self.wall.minute_stamp()
    }

    /// The same instant in UTC as RFC 3339 ([`utc_iso`]): what a decision `design.record`
    /// writes is stamped with (pinned by `AW_TEST_NOW` like every other "now").
    pub fn utc_iso(&self) -> String {
        utc_iso(OffsetDateTime::from(self.system))
    }
}

/// A local wall-clock time as a system time, at the offset local time had then (not today's: a
/// pinned summer time in winter is still summer time).
fn system_time(w: WallClock) -> SystemTime {
    let now_offset = UtcOffset::current_local_offset().unwrap_or(UtcOffset::UTC);
    let guess = w.date_time().assume_offset(now_offset);
    let offset = UtcOffset::local_offset_at(guess).unwrap_or(now_offset);
    at_offset(w, offset)
}

/// A wall-clock time as a system time, at a given offset.
fn at_offset(w: WallClock, offset: UtcOffset) -> SystemTime {
    SystemTime::from(w.date_time().assume_offset(offset))
}

/// Now, in UTC, as JS `toISOString()` writes it (`2026-01-03T10:00:00.000Z`): the lock file's
/// stamp, which other processes read, so it is always the real time.
pub fn utc_iso_now() -> String {
    utc_iso(OffsetDateTime::now_utc())
}

/// An instant in UTC, as JS `toISOString()` writes it (`2026-01-03T10:00:00.000Z`, RFC 3339):
/// the one formatter of every UTC stamp aw writes.
pub fn utc_iso(at: OffsetDateTime) -> String {
    let fmt =
        format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z");
    at.to_offset(UtcOffset::UTC)
        .format(&fmt)
        .unwrap_or_else(|_| "1970-01-01T00:00:00.000Z".to_owned())
}

/// How long ago an RFC 3339 timestamp was on the real clock (zero if it is in the future).
pub fn age_of_iso(ts: &str) -> Option<std::time::Duration> {
    let then = OffsetDateTime::parse(ts, &Rfc3339).ok()?;
    let age = OffsetDateTime::now_utc() - then;
    Some(age.try_into().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_pinned_wall_clock_maps_to_the_same_instant() {
        let wall = WallClock::parse("2026-03-01 10:30:15").unwrap();
        let utc = at_offset(wall, UtcOffset::UTC);
        assert_eq!(
            utc.duration_since(SystemTime::UNIX_EPOCH).unwrap(),
            Duration::from_secs(1_772_361_015)
        );
        let east = at_offset(wall, UtcOffset::from_hms(2, 0, 0).unwrap());
        assert_eq!(utc.duration_since(east).unwrap(), Duration::from_secs(7200));
        let now = Now { wall, system: utc };
        assert_eq!(now.today(), "2026-03-01");
        assert_eq!(now.minute_stamp(), "2026-03-01 10:30");
        assert_eq!(now.utc_iso(), "2026-03-01T10:30:15.000Z");
        let east_now = Now { wall, system: east };
        assert_eq!(east_now.utc_iso(), "2026-03-01T08:30:15.000Z");
    }
}
