//! The model of the `<NS>-PROJECT` block: what the block says, independent of its language.

use super::InputError;
pub use super::kept::{KeptLine, Slot};
use serde_json::{Map, Value, json};

/// One row of the sources table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// The source's short name (first column).
    pub alias: String,
    /// The path as the user gave it: relative to the workspace, absolute, or a Windows path.
    pub path: String,
    /// The branch work starts from, when declared.
    pub main_branch: Option<String>,
}

/// What the stack section says; a `None` key has no line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stack {
    /// `Language:`.
    pub language: Option<String>,
    /// `Framework:`.
    pub framework: Option<String>,
    /// `Database:` (the reference's `BD:`).
    pub db: Option<String>,
    /// `Build:`.
    pub build: Option<String>,
}

impl Stack {
    /// No key is known.
    pub fn is_empty(&self) -> bool {
        self.language.is_none()
            && self.framework.is_none()
            && self.db.is_none()
            && self.build.is_none()
    }

    /// The wire form: only the known keys, in a fixed order.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        for (key, v) in [
            ("language", &self.language),
            ("framework", &self.framework),
            ("db", &self.db),
            ("build", &self.build),
        ] {
            if let Some(v) = v {
                m.insert(key.to_owned(), Value::String(v.clone()));
            }
        }
        Value::Object(m)
    }
}

/// An alias → branch list that keeps first-insertion order (the block's line order) and lets a
/// later value for the same alias replace the earlier one in place.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BranchMap(Vec<(String, String)>);

impl BranchMap {
    /// Sets `alias` to `branch`, in place when the alias is already listed.
    pub fn set(&mut self, alias: &str, branch: &str) {
        match self.0.iter_mut().find(|(a, _)| a == alias) {
            Some(entry) => entry.1 = branch.to_owned(),
            None => self.0.push((alias.to_owned(), branch.to_owned())),
        }
    }

    /// The branch of `alias`.
    pub fn get(&self, alias: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(a, _)| a == alias)
            .map(|(_, b)| b.as_str())
    }

    /// The entries, in order.
    pub fn entries(&self) -> &[(String, String)] {
        &self.0
    }

    /// No entry.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Keeps the entries `keep` accepts and returns the others, in order.
    pub fn split_off_unless(&mut self, keep: impl Fn(&str) -> bool) -> Vec<(String, String)> {
        let (kept, dropped) = std::mem::take(&mut self.0)
            .into_iter()
            .partition(|(a, _)| keep(a));
        self.0 = kept;
        dropped
    }

    /// The wire form as a JSON value: its `Serialize` form (an object in line order).
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or_else(|_| Value::Object(Map::new()))
    }
}

/// On the wire, a JSON object from alias to branch, in line order.
impl serde::Serialize for BranchMap {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(a, b)| (a, b)))
    }
}

impl schemars::JsonSchema for BranchMap {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "BranchMap".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "Alias → branch, in the block's line order.",
            "type": "object",
            "additionalProperties": { "type": "string" }
        })
    }
}

/// Everything the block says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Block {
    /// The project description (`None`: absent, or still the placeholder).
    pub project: Option<String>,
    /// The sources table, in row order.
    pub sources: Vec<Source>,
    /// The stack section.
    pub stack: Stack,
    /// Default branches by role (`principal`, `desarrollo`, `qa`: the reference's role keys).
    pub default_branches: BranchMap,
    /// The branch each source is being worked on.
    pub working_branches: BranchMap,
    /// The branch each source is tested on.
    pub qa_branches: BranchMap,
    /// `Last activity:` as written (normally local `YYYY-MM-DD HH:MM`).
    pub last_activity: Option<String>,
    /// The lines aw does not own, in the order they are written back.
    pub kept: Vec<KeptLine>,
}

/// The roles a default branch may have; they are wire keys, so they keep the reference's names.
pub const DEFAULT_BRANCH_ROLES: &[&str] = &["principal", "desarrollo", "qa"];

impl Block {
    /// The wire form read by `project-md-upsert --read`. The keys are the reference's;
    /// `preserved_lines` only when the block has lines aw does not own.
    pub fn to_json(&self) -> Value {
        let mut out = json!({
            "proyecto": self.project,
            "fuentes": self.sources.iter().map(|s| json!({
                "alias": s.alias,
                "path": s.path,
                "main_branch": s.main_branch,
            })).collect::<Vec<_>>(),
            "stack": self.stack.to_json(),
            "default_branches": self.default_branches.to_json(),
            "working_branches": self.working_branches.to_json(),
            "qa_branches": self.qa_branches.to_json(),
            "last_activity": self.last_activity,
        });
        if !self.kept.is_empty() {
            out["preserved_lines"] = self
                .kept
                .iter()
                .map(|k| json!({ "slot": k.slot.as_str(), "text": k.text }))
                .collect();
        }
        out
    }

    /// The kept lines of `slot`, in order.
    pub fn kept_in(&self, slot: Slot) -> impl Iterator<Item = &str> {
        self.kept
            .iter()
            .filter(move |k| k.slot == slot)
            .map(|k| k.text.as_str())
    }

    /// The sources `--scope` asks for (comma-separated aliases, blanks ignored; every source
    /// when `None`), in the block's order. An alias the block does not have is refused.
    pub fn scoped(&self, scope: Option<&str>) -> Result<Vec<&Source>, InputError> {
        let Some(csv) = scope else {
            return Ok(self.sources.iter().collect());
        };
        let wanted: Vec<&str> = csv
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect();
        if let Some(unknown) = wanted.iter().find(|w| self.source(w).is_none()) {
            return Err(InputError::UnknownScope {
                alias: (*unknown).to_owned(),
                known: self.sources.iter().map(|s| s.alias.clone()).collect(),
            });
        }
        Ok(self
            .sources
            .iter()
            .filter(|s| wanted.contains(&s.alias.as_str()))
            .collect())
    }

    /// The source with this alias.
    pub fn source(&self, alias: &str) -> Option<&Source> {
        self.sources.iter().find(|s| s.alias == alias)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn branch_map_replaces_in_place_and_keeps_order() {
        let mut m = BranchMap::default();
        m.set("b", "one");
        m.set("a", "two");
        m.set("b", "three");
        assert_eq!(
            m.entries(),
            &[("b".into(), "three".into()), ("a".into(), "two".into())]
        );
        let dropped = m.split_off_unless(|a| a == "a");
        assert_eq!(dropped, vec![("b".to_owned(), "three".to_owned())]);
        assert_eq!(m.to_json(), json!({"a": "two"}));
    }

    #[test]
    fn stack_json_lists_known_keys_only() {
        let s = Stack {
            language: Some("Java".into()),
            build: Some("Maven".into()),
            ..Stack::default()
        };
        assert_eq!(s.to_json(), json!({"language": "Java", "build": "Maven"}));
        assert_eq!(Stack::default().to_json(), json!({}));
    }

    #[test]
    fn scope_selects_known_aliases_in_block_order() {
        let src = |a: &str| Source {
            alias: a.into(),
            path: ".".into(),
            main_branch: Some("main".into()),
        };
        let b = Block {
            sources: vec![src("api"), src("web")],
            ..Block::default()
        };
        let aliases = |v: Vec<&Source>| v.iter().map(|s| s.alias.clone()).collect::<Vec<_>>();
        assert_eq!(aliases(b.scoped(None).unwrap()), ["api", "web"]);
        assert_eq!(
            aliases(b.scoped(Some(" web , ,api")).unwrap()),
            ["api", "web"]
        );
        assert_eq!(aliases(b.scoped(Some(" ")).unwrap()), Vec::<String>::new());
        let e = b.scoped(Some("api,db")).unwrap_err();
        assert_eq!(
            e,
            InputError::UnknownScope {
                alias: "db".into(),
                known: vec!["api".into(), "web".into()]
            }
        );
        assert!(e.action().contains("api, web"));
        assert!(
            Block::default()
                .scoped(Some("x"))
                .unwrap_err()
                .action()
                .contains("workspace-init")
        );
    }
}
