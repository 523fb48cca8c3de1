//! What aw reads of the reference v22's session custody (`.custody.json`, sealed when the
//! reference creates a session): the day the session was born, which dates it in listings when
//! its document declares none. The rest of the custody (inputs, their baselines, the seal) is
//! the reference's isolation model, not read here.

use crate::calendar::parse_date;

/// The custody's `created` date, when `text` is a JSON object whose `created` is a real
/// `YYYY-MM-DD` date; `None` for anything else (a custody that cannot be read dates nothing).
pub fn created(text: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    let created = value.as_object()?.get("created")?.as_str()?;
    parse_date(created).map(|_| created.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_real_date_in_a_custody_object_counts() {
        assert_eq!(
            created(r#"{"version":1,"created":"2026-10-01","digest":"x"}"#),
            Some("2026-10-01".to_owned())
        );
        for text in [
            r#"{"created":"2026-02-31"}"#,
            r#"{"created":"2026-10-01T10:00:00Z"}"#,
            r#"{"created":20261001}"#,
            r#"["2026-10-01"]"#,
            "{not json",
            "",
        ] {
            assert_eq!(created(text), None, "{text}");
        }
    }
}
