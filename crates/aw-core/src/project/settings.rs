//! Multi-root visibility for Claude Code: the external source folders listed in
//! `.claude/settings.local.json` under `permissions.additionalDirectories`. Every other key of
//! the file is kept as it is, in its order.

use serde_json::{Map, Value};

/// Why a host's settings file (this one, or Codex's `config.toml`) cannot be merged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    /// Not JSON.
    #[error("it is not valid JSON ({0})")]
    NotJson(String),
    /// Not TOML.
    #[error("it is not valid TOML ({0})")]
    NotToml(String),
    /// Parsed, but a key on the way to the list has another type.
    #[error("`{0}` does not have the expected type")]
    Shape(&'static str),
    /// A key aw would edit appears twice: the host reads one of them, and rewriting either
    /// could drop what the person meant.
    #[error(
        "the key `{0}` appears more than once, so aw cannot edit it without changing what the file says"
    )]
    Duplicate(String),
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

fn directories_of(root: &Value) -> Result<Vec<String>, SettingsError> {
    let obj = root.as_object().ok_or(SettingsError::Shape("(the file)"))?;
    Ok(obj
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
        .unwrap_or_default())
}

/// What a list of folders gains and loses: the folders of `add` it lacks (once each, in order),
/// and those of `remove` it has and `add` does not keep. Shared by every host's merge.
pub fn delta(existing: &[String], add: &[String], remove: &[String]) -> (Vec<String>, Vec<String>) {
    let mut added: Vec<String> = Vec::new();
    for a in add {
        if !existing.contains(a) && !added.contains(a) {
            added.push(a.clone());
        }
    }
    let removed = remove
        .iter()
        .filter(|r| !add.contains(r) && existing.contains(r))
        .cloned()
        .collect();
    (added, removed)
}

/// An entry of a host's folder list: as it is written, and the folder it names (a relative entry
/// is taken from the workspace root; the shell resolves it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The entry as written.
    pub text: String,
    /// The folder it names.
    pub folder: String,
}

/// A folder to make visible: the path as the block or the command line gives it (what the
/// reference writes), and the folder it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The path as typed: `\` made `/`, trailing `/` dropped.
    pub typed: String,
    /// The folder it names (absolute).
    pub folder: String,
}

impl Target {
    /// A target from a typed path and the folder it resolves to.
    pub fn new(typed: &str, folder: String) -> Self {
        let typed = typed.replace('\\', "/");
        let trimmed = typed.trim_end_matches('/');
        Target {
            typed: if trimmed.is_empty() {
                typed.clone()
            } else {
                trimmed.to_owned()
            },
            folder,
        }
    }
}

/// What one folder list of a host's file gains and loses, in its own spelling.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeyEdit {
    /// Entries to add, as they are to be written.
    pub add: Vec<String>,
    /// Entries to remove, as they are written.
    pub remove: Vec<String>,
    /// The folders the list did not name and now does.
    pub added: Vec<String>,
    /// The folders the list named and no longer does.
    pub removed: Vec<String>,
}

/// Plans one folder list: a folder is named once, in whatever spelling (absolute, or relative to
/// the workspace as the reference writes it), so a target whose folder an entry already names is
/// not added again, and every entry naming a withdrawn folder (and not a target's) goes. `spell`
/// says how this list writes a target.
pub fn plan_key(
    existing: &[Entry],
    add: &[Target],
    remove: &[String],
    spell: impl Fn(&Target) -> String,
) -> KeyEdit {
    let mut edit = KeyEdit::default();
    for t in add {
        if !existing.iter().any(|e| e.folder == t.folder) && !edit.added.contains(&t.folder) {
            edit.add.push(spell(t));
            edit.added.push(t.folder.clone());
        }
    }
    for e in existing {
        let kept = add.iter().any(|t| t.folder == e.folder);
        if remove.contains(&e.folder) && !kept && !edit.remove.contains(&e.text) {
            edit.remove.push(e.text.clone());
            if !edit.removed.contains(&e.folder) {
                edit.removed.push(e.folder.clone());
            }
        }
    }
    edit
}

/// The folders `permissions.additionalDirectories` lists (strings only, in order); an empty
/// file lists none.
pub fn additional_directories(text: &str) -> Result<Vec<String>, SettingsError> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let root: Value =
        serde_json::from_str(text).map_err(|e| SettingsError::NotJson(e.to_string()))?;
    directories_of(&root)
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
    let (added, removed) = delta(&directories_of(&root)?, add, remove);
    if added.is_empty() && removed.is_empty() {
        return Ok(SettingsMerge::default());
    }
    let obj = root
        .as_object_mut()
        .ok_or(SettingsError::Shape("(the file)"))?;
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
        assert!(matches!(
            additional_directories("{\"permissions\":[]}"),
            Err(SettingsError::Shape("permissions"))
        ));
    }

    #[test]
    fn a_folder_is_named_once_whatever_its_spelling() {
        let e = |text: &str, folder: &str| Entry {
            text: text.into(),
            folder: folder.into(),
        };
        let existing = [e("../ext", "/ext"), e("/old", "/old"), e("../old", "/old")];
        let add = [
            Target::new("..\\ext\\", "/ext".into()),
            Target::new("../new/", "/new".into()),
            Target::new("/new", "/new".into()),
        ];
        assert_eq!(add[0].typed, "../ext");
        let edit = plan_key(&existing, &add, &v(&["/old", "/ext", "/gone"]), |t| {
            t.typed.clone()
        });
        assert_eq!(
            edit,
            KeyEdit {
                add: v(&["../new"]),
                remove: v(&["/old", "../old"]),
                added: v(&["/new"]),
                removed: v(&["/old"]),
            }
        );
        let abs = plan_key(&[], &add[1..2], &[], |t| t.folder.clone());
        assert_eq!(abs.add, v(&["/new"]));
        assert_eq!(Target::new("/", "/".into()).typed, "/");
    }

    #[test]
    fn lists_the_directories() {
        assert_eq!(additional_directories("").unwrap(), Vec::<String>::new());
        assert_eq!(
            additional_directories(r#"{"permissions":{"additionalDirectories":["/a",3,"/b"]}}"#)
                .unwrap(),
            v(&["/a", "/b"])
        );
    }

    #[test]
    fn a_users_other_settings_survive_and_a_rerun_changes_no_byte() {
        let user = "{\n  \"model\": \"opus\",\n  \"env\": {\"A\": \"1\"},\n  \"permissions\": {\"deny\": [\"Read(.env)\"]}\n}\n";
        let m = merge_directories(Some(user), &v(&["/ext"]), &[]).unwrap();
        let text = m.text.unwrap();
        let out: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            out,
            json!({"model":"opus","env":{"A":"1"},"permissions":{"deny":["Read(.env)"],"additionalDirectories":["/ext"]}})
        );
        let keys: Vec<&String> = out.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["model", "env", "permissions"], "the order is kept");
        // Nothing to change: no new text, so the file keeps its bytes.
        assert_eq!(
            merge_directories(Some(&text), &v(&["/ext"]), &v(&["/gone"])).unwrap(),
            SettingsMerge::default()
        );
    }
}
