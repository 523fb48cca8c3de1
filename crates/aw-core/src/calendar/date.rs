//! `YYYY-MM-DD`: four-digit year, two-digit month and day, checked against the real calendar.

use time::{Date, Month};

/// Reads a date written exactly `YYYY-MM-DD` (nothing around it). Impossible dates are refused:
/// `2026-02-31`, `2026-13-01`, and `2100-02-29` (2100 is not a leap year), while `2000-02-29`
/// reads.
pub fn parse_date(s: &str) -> Option<Date> {
    if s.len() != 10 {
        return None;
    }
    date_prefix(s.as_bytes())
}

/// A `YYYY-MM-DD` date in the first ten bytes of `b`; what follows is the caller's business.
pub(super) fn date_prefix(b: &[u8]) -> Option<Date> {
    let b = b.get(..10)?;
    if b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let year = i32::try_from(digits(&b[0..4])?).ok()?;
    let month = Month::try_from(u8::try_from(digits(&b[5..7])?).ok()?).ok()?;
    let day = u8::try_from(digits(&b[8..10])?).ok()?;
    Date::from_calendar_date(year, month, day).ok()
}

/// The value of a non-empty run of ASCII digits (`None` for anything else, or on overflow).
pub(super) fn digits(b: &[u8]) -> Option<u32> {
    if b.is_empty() || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    b.iter().try_fold(0u32, |n, d| {
        n.checked_mul(10)?.checked_add(u32::from(d - b'0'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_dates() {
        let d = parse_date("2026-03-01").unwrap();
        assert_eq!((d.year(), u8::from(d.month()), d.day()), (2026, 3, 1));
        assert!(parse_date("2000-02-29").is_some(), "divisible by 400: leap");
        assert!(parse_date("2024-02-29").is_some(), "divisible by 4: leap");
        assert!(
            parse_date("0000-02-29").is_some(),
            "year zero is a leap year"
        );
        assert!(parse_date("9999-12-31").is_some());
        for bad in [
            "2026-02-31",
            "2026-02-29",
            "2100-02-29",
            "1900-02-29",
            "2026-04-31",
            "2026-00-10",
            "2026-13-01",
            "2026-01-00",
            "2026-01-32",
            "2026-3-01",
            "2026/03/01",
            " 2026-03-01",
            "2026-03-01 ",
            "2026-03-01T00:00",
            "+026-03-01",
            "２026-03-01",
            "",
        ] {
            assert_eq!(parse_date(bad), None, "{bad}");
        }
    }

    #[test]
    fn every_month_has_its_length() {
        let lengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
        for (m, len) in (1..=12).zip(lengths) {
            assert!(
                parse_date(&format!("2026-{m:02}-{len:02}")).is_some(),
                "{m}"
            );
            let next = format!("2026-{m:02}-{:02}", len + 1);
            assert!(parse_date(&next).is_none(), "{next}");
        }
    }
}
