//! A typed, owned view of the sandbox blocks of a manifest: `networkHosts` (§5.7) and
//! `writableDirs` (§5.8), for the sandbox-lane advice.
//!
//! Lenient like the catalog view: an entry that fails its check is left out (the validator says
//! why), so a consumer never re-reads the JSON with a weaker shape check of its own.

use super::value::{Map, Value};
use serde::Serialize;

/// One `writableDirs` entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WritableDirView {
    /// The env var that overrides the default when set and non-empty.
    pub env: Option<String>,
    /// The `~/`-anchored or absolute default.
    pub default: String,
}

/// A manifest's sandbox blocks.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SandboxView {
    /// The member's `name`, when it is a string.
    pub name: Option<String>,
    /// The egress hosts, in manifest order (string entries only).
    pub hosts: Vec<String>,
    /// The writable state dirs, in manifest order.
    pub dirs: Vec<WritableDirView>,
    /// `roles.review.cmd`: the review wrapper whose wiring decides whether the kit advises
    /// this member's sandbox lane.
    pub review_cmd: Option<String>,
}

/// Reads the sandbox blocks of a parsed manifest root.
pub fn sandbox_view(root: &Map) -> SandboxView {
    let hosts = root
        .get("networkHosts")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    let dirs = root
        .get("writableDirs")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_object)
                .filter_map(|d| {
                    let default = d.get("default").and_then(Value::as_str)?;
                    // W4: only an anchored default is a dir at all.
                    if !(default.starts_with("~/") || default.starts_with('/')) {
                        return None;
                    }
                    Some(WritableDirView {
                        env: d.get("env").and_then(Value::as_str).map(str::to_owned),
                        default: default.to_owned(),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    let review_cmd = root
        .get("roles")
        .and_then(Value::as_object)
        .and_then(|r| r.get("review"))
        .and_then(Value::as_object)
        .and_then(|r| r.get("cmd"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    SandboxView {
        name: root.get("name").and_then(Value::as_str).map(str::to_owned),
        hosts,
        dirs,
        review_cmd,
    }
}

/// Parses a manifest's text and reads its sandbox blocks; `Err` carries the parser's message.
pub fn sandbox_view_of(text: &str) -> Result<SandboxView, String> {
    let root: Value = aw_json::parse_bounded(text)?;
    match root.as_object() {
        Some(obj) => Ok(sandbox_view(obj)),
        None => Err("the manifest is not a JSON object".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_hosts_and_anchored_dirs_only() {
        let v = sandbox_view_of(
            r#"{"networkHosts":["a.com",3,"b.com"],"writableDirs":[{"env":"X_HOME","default":"~/.x"},{"env":null,"default":"rel"},{"env":null,"default":"/abs"}]}"#,
        )
        .unwrap();
        assert_eq!(v.hosts, vec!["a.com", "b.com"]);
        assert_eq!(v.dirs.len(), 2);
        assert_eq!(v.dirs[0].env.as_deref(), Some("X_HOME"));
        assert_eq!(v.dirs[1].default, "/abs");
        assert_eq!(v.review_cmd, None);
        assert_eq!(sandbox_view_of("{}").unwrap(), SandboxView::default());
        let v = sandbox_view_of(r#"{"roles":{"review":{"cmd":"x-review"},"probe":{"cmd":"x"}}}"#)
            .unwrap();
        assert_eq!(v.review_cmd.as_deref(), Some("x-review"));
    }
}
