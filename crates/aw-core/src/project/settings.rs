//! Multi-root visibility for Claude Code: the external source folders listed in
//! `.claude/settings.local.json` under `permissions.additionalDirectories`. Every other key of
//! the file is kept as it is, in its order.

use serde_json::{Map, Value};

/// Why the settings file cannot be merged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    /// Not JSON.
    #[error("it is not valid JSON ({0})")]
    NotJson(String),
    /// JSON, but `{}`/`permissions`/`additionalDirectories` has another type.
    #[error("`{0}` does not have the expected type")]
    Shape(&'static str),
}

/// The outcome of a merge.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SettingsMerge {
    /// The new file text (`None`: leave the file as it is).
    pub text: Option<String>,
    /// Folders added.
    pub added: Vec<String>,
    /// Folders removed.
    pub removed: Vec<String>,
}

/// Adds `add` and removes `remove` (unless also in `add`) from `additionalDirectories`.
/// `current` is the file's text (`None`: absent; it is created only when there is something to
/// add). The file is written back as two-space JSON with a trailing newline.
pub fn merge_directories(
    current: Option<&str>,
    add: &[String],
    remove: &[String],
) -> Result<SettingsMerge, SettingsError> {
    let mut root = match current {
        None if add.is_empty() => return Ok(SettingsMerge::default()),
        None => Value::Object(Map::new()),
        Some(t) if t.trim().is_empty() => Value::Object(Map::new()),
        Some(t) => serde_json::from_str(t).map_err(|e| SettingsError::NotJson(e.to_string()))?,
    };
    let obj = root
        .as_object_mut()
        .ok_or(SettingsError::Shape("(the file)"))?;
    let existing_dirs: Vec<String> = obj
        .get("permissions")
        .map(|p| p.as_object().ok_or(SettingsError::Shape("permissions")))
        .transpose()?
        .and_then(|p| p.get("additionalDirectories"))
        .map(|d| {
            d.as_array()
                .ok_or(SettingsError::Shape("permissions.additionalDirectories"))
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().map(str::to_owned))
                        .collect()
                })
        })
        .transpose()?
        .unwrap_or_default();
    let removed: Vec<String> = remove
        .iter()
        .filter(|r| !add.contains(r) && existing_dirs.contains(r))
        .cloned()
        .collect();
    let added: Vec<String> = add
        .iter()
        .filter(|a| !existing_dirs.contains(a))
        .cloned()
        .collect();
    if added.is_empty() && removed.is_empty() {
        return Ok(SettingsMerge::default());
    }
    let perms = obj
        .entry("permissions")
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()
        .ok_or(SettingsError::Shape("permissions"))?;
    let dirs = perms
        .entry("additionalDirectories")
        .or_insert_with(|| Value::Array(Vec::new()))
        .as_array_mut()
        .ok_or(SettingsError::Shape("permissions.additionalDirectories"))?;
    dirs.retain(|v| v.as_str().is_none_or(|s| !removed.iter().any(|r| r == s)));
    dirs.extend(added.iter().cloned().map(Value::String));
    let mut text =
        serde_json::to_string_pretty(&root).map_err(|e| SettingsError::NotJson(e.to_string()))?;
    text.push('\n');
    Ok(SettingsMerge {
        text: Some(text),
        added,
        removed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn creates_adds_keeps_and_removes() {
        let m = merge_directories(None, &v(&["/a"]), &[]).unwrap();
        let text = m.text.unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(&text).unwrap(),
            json!({"permissions": {"additionalDirectories": ["/a"]}})
        );
        let cur = r#"{"model":"x","permissions":{"allow":["Bash"],"additionalDirectories":["/keep","/old"]}}"#;
        let m = merge_directories(Some(cur), &v(&["/a", "/keep"]), &v(&["/old", "/a"])).unwrap();
        assert_eq!(m.added, v(&["/a"]));
        assert_eq!(m.removed, v(&["/old"]));
        let out: Value = serde_json::from_str(m.text.as_deref().unwrap()).unwrap();
        assert_eq!(
            out,
            json!({"model":"x","permissions":{"allow":["Bash"],"additionalDirectories":["/keep","/a"]}})
        );
        let text = m.text.unwrap();
        assert!(text.starts_with("{\n  \"model\"") && text.ends_with("}\n"));
        assert_eq!(
            merge_directories(Some(&text), &v(&["/a"]), &[]).unwrap(),
            SettingsMerge::default()
        );
        assert_eq!(
            merge_directories(None, &[], &v(&["/a"])).unwrap(),
            SettingsMerge::default()
        );
    }

    #[test]
    fn refuses_what_it_cannot_merge() {
        assert!(matches!(
            merge_directories(Some("{"), &v(&["/a"]), &[]),
            Err(SettingsError::NotJson(_))
        ));
        assert!(matches!(
            merge_directories(Some("[]"), &v(&["/a"]), &[]),
            Err(SettingsError::Shape(_))
        ));
        assert!(matches!(
            merge_directories(
                Some(r#"{"permissions":{"additionalDirectories":"x"}}"#),
                &v(&["/a"]),
                &[]
            ),
            Err(SettingsError::Shape(_))
        ));
    }
}
