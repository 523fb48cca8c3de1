//! A typed view of the roles' wrapper fields (`roles.<role>.cmd` / `.source`), for linking.

use super::value::{Map, Value};

/// One role's wrapper fields, as written (a non-string value reads as `None`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoleWrapper {
    /// The role's name.
    pub role: String,
    /// The command name the wrapper is linked as.
    pub cmd: Option<String>,
    /// The wrapper script, relative to the skill folder.
    pub source: Option<String>,
}

/// The roles of a parsed manifest root, in manifest order (none when `roles` is not an object).
pub fn role_wrappers(root: &Map) -> Vec<RoleWrapper> {
    let Some(roles) = root.get("roles").and_then(Value::as_object) else {
        return Vec::new();
    };
    roles
        .iter()
        .map(|(role, v)| RoleWrapper {
            role: role.to_string(),
            cmd: v.get("cmd").and_then(Value::as_str).map(str::to_owned),
            source: v.get("source").and_then(Value::as_str).map(str::to_owned),
        })
        .collect()
}

/// Parses a manifest's text and reads its roles' wrapper fields.
pub fn role_wrappers_of(text: &str) -> Result<Vec<RoleWrapper>, String> {
    let root: Value = aw_json::parse_bounded(text)?;
    match root.as_object() {
        Some(obj) => Ok(role_wrappers(obj)),
        None => Err("the manifest is not a JSON object".to_owned()),
    }
}
