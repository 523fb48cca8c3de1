//! The one calendar of aw: every date and time aw reads or counts with goes through here.
//!
//! Three grammars share one set of rules. `YYYY-MM-DD` is a strict date (`--date`, a session's
//! start date); `YYYY-MM-DD HH:MM[:SS]` is a checkpoint's `Updated:` stamp and `AW_TEST_NOW`;
//! a document's declared date is `YYYY-MM-DD` with an optional time of day and any trailer.
//! Every one of them refuses an impossible date (`2026-02-31`, `2100-02-29`): the calendar
//! itself is the `time` crate's, never hand-written.
//!
//! Everything is local wall-clock time with no zone, and "now" is always a value the caller
//! passes in: nothing here reads the clock.

mod date;
mod moment;
mod time_of_day;
mod wall_clock;

pub use date::parse_date;
pub use moment::{Moment, parse_declared};
pub use wall_clock::WallClock;

#[cfg(test)]
mod tests {
    use super::*;

    /// The same calendar behind every entry point: no grammar may let an impossible day through.
    #[test]
    fn every_entry_point_shares_the_calendar() {
        for (day, real) in [
            ("2026-02-31", false),
            ("2026-02-29", false),
            ("2100-02-29", false),
            ("2000-02-29", true),
            ("2024-02-29", true),
            ("2026-02-28", true),
        ] {
            assert_eq!(parse_date(day).is_some(), real, "{day}");
            assert_eq!(parse_declared(day).is_some(), real, "{day}");
            let stamp = format!("{day} 10:00");
            assert_eq!(WallClock::parse(&stamp).is_some(), real, "{stamp}");
            assert_eq!(parse_declared(&stamp).is_some(), real, "{stamp}");
        }
    }
}
