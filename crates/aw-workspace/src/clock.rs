//! The shell's only access to the clock, so the core can take "now" as a value.

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;

/// Now, in UTC, as JS `toISOString()` writes it (`2026-01-03T10:00:00.000Z`).
pub fn utc_iso_now() -> String {
    let fmt =
        format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z");
    OffsetDateTime::now_utc()
        .format(&fmt)
        .unwrap_or_else(|_| "1970-01-01T00:00:00.000Z".to_owned())
}

/// How long ago an RFC 3339 timestamp was (zero if it is in the future).
pub fn age_of_iso(ts: &str) -> Option<std::time::Duration> {
    let then = OffsetDateTime::parse(ts, &Rfc3339).ok()?;
    let age = OffsetDateTime::now_utc() - then;
    Some(age.try_into().unwrap_or_default())
}

/// Now, on the local wall clock (UTC when the local offset cannot be determined).
///
/// Call it before starting any thread: the `time` crate refuses to read the local offset from a
/// multi-threaded process on Unix, and would silently fall back to UTC.
pub fn local_wall_clock() -> aw_core::calendar::WallClock {
    let now = OffsetDateTime::now_local().unwrap_or_else(|_| OffsetDateTime::now_utc());
    aw_core::calendar::WallClock::from(now)
}

/// Today's local date, `YYYY-MM-DD` (UTC when the local offset cannot be determined).
pub fn local_date_today() -> String {
    local_wall_clock().date_stamp()
}
