//! The conversation → session registry (`.<ns>/sessions/.bindings.json`).
//!
//! `{"version":1,"bindings":{"<sha256 hex of the context id>":"<folder>"}}`: the raw context id
//! is never stored. Reading fails closed: anything malformed is an error the caller surfaces as
//! `SESSION_BINDING_INVALID`, never something we repair silently.

use std::collections::BTreeMap;

/// A parsed registry. Keys are kept sorted, so rendering is stable.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Registry {
    /// Context-id digest → session folder.
    pub bindings: BTreeMap<String, String>,
}

/// Why a registry could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegistryError {
    /// Not JSON at all.
    #[error("the bindings registry is not valid JSON")]
    NotJson,
    /// A `version` other than 1.
    #[error("the bindings registry has unsupported version {0}")]
    Version(String),
    /// `bindings` missing or not an object.
    #[error("the bindings registry has no `bindings` map")]
    NotAMap,
    /// An empty key, or a value that is not a folder name.
    #[error("the bindings registry holds an invalid entry `{0}`")]
    Entry(String),
}

/// The registry key of a context id: the lower-case hex SHA-256 of its trimmed text.
pub fn key_for(context_id: &str) -> String {
    crate::canonical::sha256_hex(context_id.trim().as_bytes())
}

/// A value must name one folder inside `sessions/`: anything else could point elsewhere.
fn is_folder_name(v: &str) -> bool {
    !v.is_empty()
        && v != "."
        && v != ".."
        && !v.contains(['/', '\\', '\0'])
        && !v.chars().any(char::is_control)
}

impl Registry {
    /// Parses the registry file's text. An empty (or blank) file is an empty registry.
    pub fn parse(text: &str) -> Result<Self, RegistryError> {
        if text.trim().is_empty() {
            return Ok(Registry::default());
        }
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|_| RegistryError::NotJson)?;
        let obj = v.as_object().ok_or(RegistryError::NotAMap)?;
        match obj.get("version") {
            Some(serde_json::Value::Number(n)) if n.as_u64() == Some(1) => {}
            Some(other) => return Err(RegistryError::Version(other.to_string())),
            None => return Err(RegistryError::Version("(missing)".to_owned())),
        }
        let map = obj
            .get("bindings")
            .and_then(|b| b.as_object())
            .ok_or(RegistryError::NotAMap)?;
        let mut bindings = BTreeMap::new();
        for (k, v) in map {
            let folder = v.as_str().unwrap_or_default();
            if k.is_empty() || !is_folder_name(folder) {
                return Err(RegistryError::Entry(k.clone()));
            }
            bindings.insert(k.clone(), folder.to_owned());
        }
        Ok(Registry { bindings })
    }

    /// The file's text: pretty-printed with two spaces, keys sorted, trailing newline.
    pub fn render(&self) -> String {
        let mut map = serde_json::Map::new();
        for (k, v) in &self.bindings {
            map.insert(k.clone(), serde_json::Value::String(v.clone()));
        }
        let doc = serde_json::json!({ "version": 1, "bindings": map });
        let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
        s.push('\n');
        s
    }

    /// The folder a context id is bound to.
    pub fn lookup(&self, context_id: &str) -> Option<&str> {
        self.bindings.get(&key_for(context_id)).map(String::as_str)
    }

    /// Binds a context id to a folder. Returns `false` when it was already bound there.
    pub fn bind(&mut self, context_id: &str, folder: &str) -> bool {
        let key = key_for(context_id);
        if self.bindings.get(&key).map(String::as_str) == Some(folder) {
            return false;
        }
        self.bindings.insert(key, folder.to_owned());
        true
    }

    /// Removes every binding that points at `folder`; returns how many.
    pub fn unbind_folder(&mut self, folder: &str) -> usize {
        let before = self.bindings.len();
        self.bindings.retain(|_, v| v != folder);
        before - self.bindings.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_is_sha256_hex() {
        assert_eq!(
            key_for("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(key_for(" abc\n"), key_for("abc"));
    }

    #[test]
    fn round_trip_sorted_pretty() {
        let mut r = Registry::default();
        assert!(r.bind("zeta", "002-b"));
        assert!(r.bind("alpha", "001-a"));
        assert!(!r.bind("alpha", "001-a"));
        let text = r.render();
        assert!(text.starts_with("{\n  \"version\": 1,\n  \"bindings\": {\n    \""));
        assert!(text.ends_with("}\n"));
        let keys: Vec<_> = r.bindings.keys().cloned().collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted);
        assert_eq!(Registry::parse(&text).unwrap(), r);
        assert_eq!(r.lookup("zeta"), Some("002-b"));
        assert_eq!(r.unbind_folder("002-b"), 1);
        assert_eq!(r.lookup("zeta"), None);
    }

    #[test]
    fn fails_closed() {
        assert_eq!(Registry::parse("").unwrap(), Registry::default());
        assert_eq!(Registry::parse("{"), Err(RegistryError::NotJson));
        assert!(matches!(
            Registry::parse(r#"{"version":2,"bindings":{}}"#),
            Err(RegistryError::Version(_))
        ));
        assert_eq!(
            Registry::parse(r#"{"version":1,"bindings":[]}"#),
            Err(RegistryError::NotAMap)
        );
        assert_eq!(Registry::parse("[]"), Err(RegistryError::NotAMap));
        for bad in [
            r#"{"version":1,"bindings":{"":"001-a"}}"#,
            r#"{"version":1,"bindings":{"k":""}}"#,
            r#"{"version":1,"bindings":{"k":"../x"}}"#,
            r#"{"version":1,"bindings":{"k":3}}"#,
        ] {
            assert!(
                matches!(Registry::parse(bad), Err(RegistryError::Entry(_))),
                "{bad}"
            );
        }
    }
}
