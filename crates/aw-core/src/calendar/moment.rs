//! When something happened, as precisely as it is known, and the declared-date grammar a
//! document writes its own date in.

use super::WallClock;
use super::date::date_prefix;
use super::time_of_day::time_prefix;

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
        self.at.date_stamp()
    }
}

/// Reads a declared date at the start of `s`: `YYYY-MM-DD`, optionally followed by
/// ` HH:MM[:SS]` (or `T`), then anything (`2026-03-01 · session 004`). Impossible dates are
/// refused; a time of day that does not read leaves the moment at the day's precision.
pub fn parse_declared(s: &str) -> Option<Moment> {
    let b = s.trim().as_bytes();
    let date = date_prefix(b)?;
    let rest = &b[10..];
    if rest
        .first()
        .is_some_and(|c| !c.is_ascii_whitespace() && *c != b'T')
    {
        return None;
    }
    let timed = rest
        .get(1..)
        .and_then(time_prefix)
        .and_then(|(hms, _)| WallClock::at(date, hms));
    Some(match timed {
        Some(at) => Moment::precise(at),
        None => Moment {
            at: WallClock::midnight(date),
            precise: false,
        },
    })
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
        assert!(!parse_declared("2026-03-01 25:00").unwrap().precise);
        assert_eq!(
            parse_declared("2026-03-01 23:59:60").unwrap().at.second(),
            60
        );
        assert!(parse_declared("2000-02-29").is_some());
        for bad in [
            "2026-02-30",
            "2026-02-31",
            "2026-02-31 10:00",
            "2100-02-29",
            "2026-3-1",
            "yesterday",
            "",
            "2026-03-011",
            "ñññññññññññ",
        ] {
            assert_eq!(parse_declared(bad), None, "{bad}");
        }
    }
}
