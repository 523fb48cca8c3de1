//! Skill bindings: which skill fills each workflow role, read from the `skills.toml` cascade
//! (built-in default → `~/.<ns>/skills.toml` → `.<ns>/skills.toml`), and what a capability's
//! binding means for it (`classify`).
//!
//! Pure: the shell reads the files and hands their text here. Resolution never fails: every
//! problem in a file becomes a warning and the role keeps what an earlier level gave it. The
//! files are parsed with `toml_edit` so that a later `aw skills set` can edit them in place,
//! comments kept.

use aw_json::js;
use serde::Serialize;
use toml_edit::{DocumentMut, Item, Value};

/// The roles a workspace can bind, with their built-in skills, in the reference's order.
pub const ROLES: &[(&str, &str)] = &[
    ("design", "design"),
    ("sql", "sql"),
    ("git", "git"),
    ("research", "research"),
    ("diagrams", "diagrams"),
    ("overview", "w"),
];

/// The table of `skills.toml` that holds the bindings.
pub const TABLE: &str = "skills";

/// The value that turns a role off (compared without regard to case).
pub const OFF: &str = "off";

/// A name that was once a role or a skill and is refused wherever it appears, never aliased.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retired {
    /// The retired identity.
    pub name: &'static str,
    /// Why it is gone, and what replaced it.
    pub reason: &'static str,
}

/// The retired identities: the old design role and the old default skill.
pub const RETIRED: &[Retired] = &[
    Retired {
        name: "ui-design",
        reason: "the old UI design role was replaced by the `design` capability; bind `design` instead",
    },
    Retired {
        name: "ui-spec",
        reason: "the old UI spec skill was replaced by the `design` capability; bind `design` instead",
    },
];

/// The retired identity `name` names, compared without regard to case.
pub fn retired(name: &str) -> Option<&'static Retired> {
    let lower = name.to_lowercase();
    RETIRED.iter().find(|r| r.name == lower)
}

/// The built-in skill of `role`, when it is a role.
pub fn default_skill(role: &str) -> Option<&'static str> {
    ROLES.iter().find(|(r, _)| *r == role).map(|(_, s)| *s)
}

/// Where a role's binding came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The built-in default.
    Default,
    /// `~/.<ns>/skills.toml`.
    Global,
    /// `.<ns>/skills.toml` of the workspace.
    Workspace,
}

impl Source {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Default => "default",
            Source::Global => "global",
            Source::Workspace => "workspace",
        }
    }
}

/// One role as the cascade resolved it (`ResolvedSkill` on the wire, keys in this order).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ResolvedSkill {
    /// The role.
    pub role: &'static str,
    /// The bound skill; `None` when the role is off.
    pub skill: Option<String>,
    /// The level the binding came from.
    pub source: Source,
    /// False when the role is off.
    pub enabled: bool,
}

/// What one line of a file sets a role to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Binding {
    /// `"off"`: the role is turned off.
    Off,
    /// A skill name (trimmed, never empty).
    Skill(String),
}

/// What one file says: its bindings in file order, and the warnings it raised.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LevelBindings {
    /// `(role, binding)` in file order; a role set twice appears twice (the later wins).
    pub bindings: Vec<(&'static str, Binding)>,
    /// Warnings, in file order.
    pub warnings: Vec<String>,
}

/// Reads the bindings of one `skills.toml` text; `path` names the file in warnings.
///
/// Only the `[skills]` table is read. A text that is not TOML gives one warning and no
/// bindings; a missing table gives nothing; an unknown or retired key, and a retired skill name,
/// give a warning and the line is ignored; an empty value changes nothing.
pub fn parse_level(text: &str, path: &str) -> LevelBindings {
    let mut out = LevelBindings::default();
    let doc: DocumentMut = match text.parse() {
        Ok(doc) => doc,
        Err(e) => {
            let e: toml_edit::TomlError = e;
            out.warnings
                .push(format!("{path}: parse error ({})", e.message().trim()));
            return out;
        }
    };
    let Some(item) = doc.get(TABLE) else {
        return out;
    };
    let Some(table) = item.as_table_like() else {
        out.warnings
            .push(format!("{path}: [{TABLE}] is not a table"));
        return out;
    };
    for (key, item) in table.iter() {
        let Some(role) = ROLES.iter().map(|(r, _)| *r).find(|r| *r == key) else {
            out.warnings
                .push(match RETIRED.iter().find(|r| r.name == key) {
                    Some(r) => format!("{path}: role '{key}' is retired and ignored: {}", r.reason),
                    None => format!("{path}: unknown role '{key}' ignored"),
                });
            continue;
        };
        let text = js_string(item);
        let value = js::js_trim(&text);
        if value.is_empty() {
            continue;
        }
        if value.to_lowercase() == OFF {
            out.bindings.push((role, Binding::Off));
        } else if let Some(r) = retired(value) {
            out.warnings.push(format!(
                "{path}: role '{role}' is bound to '{value}', which is retired and not accepted: {}; the line is ignored",
                r.reason
            ));
        } else {
            out.bindings.push((role, Binding::Skill(value.to_owned())));
        }
    }
    out
}

/// The reference coerces a value with JS `String(v)`, so `design = 1` binds the skill `"1"`.
/// The value goes through JSON to reuse that one rule; a date keeps its TOML spelling (JS would
/// print it in the local time zone, which nobody can rely on).
fn js_string(item: &Item) -> String {
    fn json(v: &Value) -> serde_json::Value {
        use serde_json::Value as J;
        match v {
            Value::String(s) => J::String(s.value().clone()),
            Value::Integer(i) => J::from(*i.value() as f64),
            Value::Float(f) => serde_json::Number::from_f64(*f.value())
                .map(J::Number)
                .unwrap_or_else(|| J::String(js::number_to_string(*f.value()))),
            Value::Boolean(b) => J::Bool(*b.value()),
            Value::Datetime(d) => J::String(d.value().to_string()),
            Value::Array(a) => J::Array(a.iter().map(json).collect()),
            Value::InlineTable(_) => J::Object(serde_json::Map::new()),
        }
    }
    match item {
        Item::Value(v) => js::js_string(&json(v)),
        Item::None => String::new(),
        Item::Table(_) | Item::ArrayOfTables(_) => "[object Object]".to_owned(),
    }
}

/// One level of the cascade as the shell found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LevelInput {
    /// The file does not exist.
    Absent,
    /// The file exists but could not be read as text; the reason becomes a warning.
    Unreadable(String),
    /// The file's text.
    Text(String),
}

/// Which files exist (`sources` on the wire): true even when the file failed to parse.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Sources {
    /// `~/.<ns>/skills.toml` exists.
    pub global: bool,
    /// `.<ns>/skills.toml` exists.
    pub workspace: bool,
}

/// The resolved cascade: every role in role order, which files exist, and the warnings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cascade {
    /// One entry per role of `ROLES`, in that order.
    pub skills: Vec<ResolvedSkill>,
    /// Which files exist.
    pub sources: Sources,
    /// Warnings in order: the global file's, then the workspace's.
    pub warnings: Vec<String>,
}

impl Cascade {
    /// The resolved binding of `role`.
    pub fn role(&self, role: &str) -> Option<&ResolvedSkill> {
        self.skills.iter().find(|s| s.role == role)
    }
}

/// Resolves the cascade: the built-in defaults, then `global`, then `workspace`, each file
/// overriding the earlier levels role by role. `*_path` names each file in its warnings.
pub fn cascade(global: (&LevelInput, &str), workspace: (&LevelInput, &str)) -> Cascade {
    let mut out = Cascade {
        skills: ROLES
            .iter()
            .map(|(role, skill)| ResolvedSkill {
                role,
                skill: Some((*skill).to_owned()),
                source: Source::Default,
                enabled: true,
            })
            .collect(),
        sources: Sources::default(),
        warnings: Vec::new(),
    };
    for ((input, path), source) in [(global, Source::Global), (workspace, Source::Workspace)] {
        let exists = match input {
            LevelInput::Absent => false,
            LevelInput::Unreadable(why) => {
                out.warnings.push(format!("{path}: cannot be read ({why})"));
                true
            }
            LevelInput::Text(text) => {
                let level = parse_level(text, path);
                out.warnings.extend(level.warnings);
                for (role, binding) in level.bindings {
                    if let Some(slot) = out.skills.iter_mut().find(|s| s.role == role) {
                        *slot = match binding {
                            Binding::Off => ResolvedSkill {
                                role,
                                skill: None,
                                source,
                                enabled: false,
                            },
                            Binding::Skill(skill) => ResolvedSkill {
                                role,
                                skill: Some(skill),
                                source,
                                enabled: true,
                            },
                        };
                    }
                }
                true
            }
        };
        match source {
            Source::Global => out.sources.global = exists,
            _ => out.sources.workspace = exists,
        }
    }
    out
}

/// What a capability's binding means for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BindingState {
    /// The role is off: each operation follows its own off policy (the descriptor's `off`).
    Off,
    /// Unset or bound to the canonical name: the built-in floor, plus the improvements the host
    /// selects.
    FloorAndImprovements,
    /// Bound to another skill: a replacement binding does not select an improvement, so the
    /// capability degrades. The file is never rewritten.
    Misconfigured,
}

impl BindingState {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            BindingState::Off => "off",
            BindingState::FloorAndImprovements => "floor_and_improvements",
            BindingState::Misconfigured => "misconfigured",
        }
    }
}

/// A capability's binding policy: its state, and why and what to do when it is not plain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct BindingPolicy {
    /// The state.
    pub state: BindingState,
    /// Why, for `off` and `misconfigured`.
    pub reason: Option<String>,
    /// What to do, for `misconfigured`.
    pub action: Option<String>,
}

/// The policy of the capability named `canonical` given its role's resolved binding; `None`
/// (no role of that name) reads as the floor with improvements.
pub fn classify(resolved: Option<&ResolvedSkill>, canonical: &str) -> BindingPolicy {
    let plain = BindingPolicy {
        state: BindingState::FloorAndImprovements,
        reason: None,
        action: None,
    };
    let Some(resolved) = resolved else {
        return plain;
    };
    let role = resolved.role;
    match &resolved.skill {
        _ if !resolved.enabled => BindingPolicy {
            state: BindingState::Off,
            reason: Some(format!("'{role}' is off")),
            action: None,
        },
        Some(skill) if skill == canonical => plain,
        // Enabled with no skill cannot come out of the cascade; it reads as unset.
        None => plain,
        Some(skill) => BindingPolicy {
            state: BindingState::Misconfigured,
            reason: Some(format!(
                "'{role}' is bound to '{skill}', and a replacement binding does not select an improvement"
            )),
            action: Some(format!(
                "Leave the binding unset, set it to '{canonical}', or turn it off with \"off\"."
            )),
        },
    }
}

/// The policy of capability `name` in a resolved cascade: its role is the one named like it.
pub fn classify_in(cascade: &Cascade, name: &str) -> BindingPolicy {
    classify(cascade.role(name), name)
}

#[cfg(test)]
#[path = "bindings_tests.rs"]
mod tests;
