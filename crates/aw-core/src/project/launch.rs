//! Launch folders: `.<ns>/launch/<alias>/` holds a source's generated launch scripts. Older
//! releases wrote them to `docs/tools/<alias>/`; `workspace-init` moves the ones it can prove
//! were generated.

/// Whether a `launch.json` was generated (and so may be moved by aw): it is a JSON object whose
/// `_generated` object carries a non-empty `sha256` string. Anything else, including text that
/// is not JSON, is the user's.
pub fn is_generated(launch_json: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(launch_json)
        .ok()
        .and_then(|v| {
            v.get("_generated")?
                .get("sha256")?
                .as_str()
                .map(|s| !s.trim().is_empty())
        })
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_generated_stamp_counts() {
        assert!(is_generated(
            r#"{"mode":"server","_generated":{"sha256":"ab12","by":"x"}}"#
        ));
        for text in [
            r#"{"_generated":{"sha256":""}}"#,
            r#"{"_generated":{"sha256":12}}"#,
            r#"{"_generated":"ab12"}"#,
            r#"{"sha256":"ab12"}"#,
            r#"[{"_generated":{"sha256":"ab12"}}]"#,
            "not json",
            "",
        ] {
            assert!(!is_generated(text), "{text}");
        }
    }
}
