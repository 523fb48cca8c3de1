//! A typed view of a manifest's `settings` block (§5.6), for the consumers that read it (the
//! bridge settings file). It is built from a manifest the validator has passed, so every entry
//! it keeps has the shape S2–S13 demand; an entry that does not is left out rather than guessed.

use super::js::plain_object;
use super::settings::setting_value_valid;
use super::value::Value;
use serde::Serialize;

/// A setting's kind: what its values look like.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SettingKind {
    /// One of a fixed list of strings.
    Enum,
    /// ASCII digits within `min..=max`.
    Integer,
    /// A number with a unit (`s`, `m`, `h`, `d`), never zero.
    Duration,
    /// `"0"` or `"1"`.
    Boolean,
}

/// One entry of a `settings` block.
#[derive(Debug, Clone, PartialEq)]
pub struct SettingEntry {
    /// The UPPER_SNAKE key, also the environment variable that overrides it.
    pub key: String,
    /// Its kind.
    pub kind: SettingKind,
    /// The allowed values (enum kind; empty otherwise).
    pub values: Vec<String>,
    /// The bounds (integer kind).
    pub min: Option<i64>,
    /// The upper bound (integer kind).
    pub max: Option<i64>,
    /// The default, or `None` when the wrapper's built-in value applies.
    pub default: Option<String>,
    /// Why the key is retired, when it is: recognized, but it arms nothing.
    pub retired: Option<String>,
    /// What the setting does.
    pub effect: String,
    /// The wrapper commands that read it.
    pub applies_to: Vec<String>,
    /// The entry as JSON, which [`setting_value_valid`] reads, so the writer and the validator
    /// share one predicate.
    raw: serde_json::Map<String, serde_json::Value>,
}

impl SettingEntry {
    /// Whether `value` is acceptable for this setting (the validator's own predicate).
    pub fn accepts(&self, value: &str) -> bool {
        setting_value_valid(&self.raw, value)
    }

    /// The allowed form, shown when a value is refused and in listings.
    pub fn allowed_label(&self) -> String {
        match self.kind {
            SettingKind::Enum => self
                .values
                .iter()
                .map(|v| format!("\"{v}\""))
                .collect::<Vec<_>>()
                .join(" | "),
            SettingKind::Integer => format!(
                "integer {}..{}",
                self.min.map_or("?".to_owned(), |n| n.to_string()),
                self.max.map_or("?".to_owned(), |n| n.to_string())
            ),
            SettingKind::Duration => {
                "duration with a unit s|m|h|d, never zero (e.g. 90s, 5m, 1.5h)".to_owned()
            }
            SettingKind::Boolean => "\"0\" | \"1\"".to_owned(),
        }
    }
}

/// The entries of the manifest's `settings` block, in order; empty when the block is absent or
/// the text is not a JSON object. Call it on a manifest [`crate::validate`] reports VALID:
/// entries without a key, a known kind or a string-or-null default are skipped.
pub fn setting_entries(manifest: &[u8]) -> Vec<SettingEntry> {
    let Ok(text) = std::str::from_utf8(manifest) else {
        return Vec::new();
    };
    let Ok(root) = aw_json::parse_bounded::<Value>(text) else {
        return Vec::new();
    };
    let Some(items) = root
        .as_object()
        .and_then(|o| o.get("settings"))
        .and_then(Value::as_array)
    else {
        return Vec::new();
    };
    items.iter().filter_map(entry).collect()
}

fn entry(v: &Value) -> Option<SettingEntry> {
    let obj = plain_object(v)?;
    let kind = match obj.get("kind")?.as_str()? {
        "enum" => SettingKind::Enum,
        "integer" => SettingKind::Integer,
        "duration" => SettingKind::Duration,
        "boolean" => SettingKind::Boolean,
        _ => return None,
    };
    let default = match obj.get("default")? {
        Value::Null => None,
        d => Some(d.as_str()?.to_owned()),
    };
    let strings = |field: &str| -> Vec<String> {
        obj.get(field)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|s| s.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    // Bounds are safe integers on a valid manifest, so the conversion is exact.
    let bound = |field: &str| obj.get(field).and_then(Value::as_f64).map(|n| n as i64);
    let serde_json::Value::Object(raw) = v.to_json() else {
        return None;
    };
    Some(SettingEntry {
        key: obj.get("key")?.as_str()?.to_owned(),
        kind,
        values: strings("values"),
        min: bound("min"),
        max: bound("max"),
        default,
        retired: obj
            .get("retired")
            .and_then(Value::as_str)
            .map(str::to_owned),
        effect: obj
            .get("effect")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
        applies_to: strings("appliesTo"),
        raw,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const M: &str = r#"{"settings":[
      {"key":"A_TIER","kind":"enum","values":["x","y"],"default":null,"effect":"e","appliesTo":["c"]},
      {"key":"A_MAX","kind":"integer","min":1,"max":10,"default":"5","effect":"e","appliesTo":["c"]},
      {"key":"A_OLD","kind":"boolean","default":"0","retired":"no longer read by any wrapper","effect":"e","appliesTo":["c"]},
      {"key":"A_WAIT","kind":"duration","default":null,"effect":"e","appliesTo":["c"]},
      {"key":"A_BAD","kind":"color","default":null}
    ]}"#;

    #[test]
    fn entries_are_typed_in_order_and_a_bad_kind_is_left_out() {
        let e = setting_entries(M.as_bytes());
        let keys: Vec<&str> = e.iter().map(|s| s.key.as_str()).collect();
        assert_eq!(keys, ["A_TIER", "A_MAX", "A_OLD", "A_WAIT"]);
        assert_eq!(e[0].values, ["x", "y"]);
        assert_eq!((e[1].min, e[1].max), (Some(1), Some(10)));
        assert_eq!(e[1].default.as_deref(), Some("5"));
        assert!(e[2].retired.is_some());
        assert_eq!(e[3].kind, SettingKind::Duration);
    }

    #[test]
    fn accepts_is_the_validators_predicate_and_labels_show_the_form() {
        let e = setting_entries(M.as_bytes());
        assert!(e[0].accepts("x") && !e[0].accepts("X"));
        assert!(e[1].accepts("10") && !e[1].accepts("11") && !e[1].accepts("0"));
        assert!(e[2].accepts("1") && !e[2].accepts("true"));
        assert!(e[3].accepts("5m") && !e[3].accepts("5") && !e[3].accepts("0s"));
        assert_eq!(e[0].allowed_label(), "\"x\" | \"y\"");
        assert_eq!(e[1].allowed_label(), "integer 1..10");
        assert_eq!(e[2].allowed_label(), "\"0\" | \"1\"");
    }

    #[test]
    fn no_block_or_bad_text_gives_nothing() {
        assert!(setting_entries(b"{}").is_empty());
        assert!(setting_entries(b"not json").is_empty());
    }
}
