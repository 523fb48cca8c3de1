//! `modeCatalog`: the user-facing catalog of modes (C1–C2 and the per-entry checks).
//!
//! The block is optional, but once the key is present (even as `null`) it must be a non-empty
//! array. Each entry is then checked in a fixed order, because the reference reports its findings
//! in that order and some checks stop an entry early: shape and key, kind, the one-line texts, the
//! linkage to a role or to parent modes, the submode, the invocation forms, the operand slots the
//! forms render, the guardrails and finally the custom hooks.

mod entry;
mod forms;
mod guardrails;
mod hooks;
mod line;
mod linkage;
mod operands;
mod submode;

use super::Ctx;
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};

/// The path of the whole block.
const AT: &str = "modeCatalog";

/// Entry kinds: a `primary` is a mode you drive, a `continuation` resumes one, an `env-hook`
/// modifies the modes it names as parents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Primary,
    Continuation,
    EnvHook,
}

impl Kind {
    /// The kind an entry declares, when it is one of the three.
    fn of(entry: &Map<String, Value>) -> Option<Kind> {
        match entry.get("kind").and_then(Value::as_str)? {
            "primary" => Some(Kind::Primary),
            "continuation" => Some(Kind::Continuation),
            "env-hook" => Some(Kind::EnvHook),
            _ => None,
        }
    }

    /// The kind as written in the manifest.
    fn name(self) -> &'static str {
        match self {
            Kind::Primary => "primary",
            Kind::Continuation => "continuation",
            Kind::EnvHook => "env-hook",
        }
    }
}

/// Whether a catalog entry (looked up by key) declares itself an env-hook.
fn is_env_hook(entry: &Map<String, Value>) -> bool {
    entry.get("kind").and_then(Value::as_str) == Some("env-hook")
}

/// Bookkeeping shared across the entries of one catalog.
struct Catalog<'a> {
    /// Key to the first plain-object entry carrying it. Built before any entry is checked so that
    /// parents and hooks may point forward as well as back.
    by_key: HashMap<&'a str, &'a Map<String, Value>>,
    /// Keys that passed the key checks so far (for duplicate detection).
    seen_keys: HashSet<&'a str>,
    /// Contract forms already claimed by an entry, as `role.field[index]`.
    claimed: HashSet<String>,
}

/// One entry under check, after its kind is known.
struct Entry<'a> {
    /// `modeCatalog[i]`.
    at: String,
    obj: &'a Map<String, Value>,
    kind: Kind,
    /// The raw `key` value (any JSON type, or missing): hook linkage compares it as written.
    key: Option<&'a Value>,
}

impl Entry<'_> {
    /// The path of one of the entry's fields.
    fn path(&self, field: &str) -> String {
        format!("{}.{field}", self.at)
    }

    /// `Object.hasOwn(entry, field)`: a JSON `null` counts as present.
    fn has(&self, field: &str) -> bool {
        self.obj.contains_key(field)
    }
}

/// Runs the `modeCatalog` checks when the manifest declares the block.
pub(super) fn check(cx: &mut Ctx) {
    let Some(block) = cx.root.get("modeCatalog") else {
        return;
    };
    let Some(items) = block.as_array() else {
        cx.fail(
            "catalog.not-array",
            AT,
            format!(
                "must be an array of mode entries, not {}; omit the key to declare no catalog",
                line::describe(Some(block))
            ),
        );
        return;
    };
    if items.is_empty() {
        cx.fail(
            "catalog.empty",
            AT,
            "is an empty array; a declared catalog lists at least one mode, so list the modes or \
             remove the key",
        );
        return;
    }
    let mut catalog = Catalog {
        by_key: index_keys(items),
        seen_keys: HashSet::new(),
        claimed: HashSet::new(),
    };
    for (i, item) in items.iter().enumerate() {
        check_entry(cx, &mut catalog, i, item);
    }
}

/// The pre-pass: every plain-object entry with a non-empty string key, first one wins, even when
/// the key later fails the token rule.
fn index_keys(items: &[Value]) -> HashMap<&str, &Map<String, Value>> {
    let mut by_key = HashMap::new();
    for obj in items.iter().filter_map(Value::as_object) {
        if let Some(key) = obj
            .get("key")
            .and_then(Value::as_str)
            .filter(|k| !k.is_empty())
        {
            by_key.entry(key).or_insert(obj);
        }
    }
    by_key
}

/// All checks of one entry, in the reference's order; E1 and E6 stop the entry early.
fn check_entry<'a>(cx: &mut Ctx<'a>, catalog: &mut Catalog<'a>, i: usize, item: &'a Value) {
    let at = super::index(AT, i);
    let Some(obj) = item.as_object() else {
        cx.fail(
            "catalog.entry-not-object",
            at,
            format!(
                "must be an object describing one mode, not {}",
                line::describe(Some(item))
            ),
        );
        return;
    };
    entry::key(cx, catalog, &at, obj);
    let Some(kind) = entry::kind(cx, &at, obj) else {
        return;
    };
    let e = Entry {
        at,
        obj,
        kind,
        key: obj.get("key"),
    };
    entry::texts(cx, &e);
    let role = linkage::check(cx, catalog, &e);
    submode::check(cx, &e, role);
    let contract = forms::contract(cx, &e, role);
    let forms = forms::check(cx, catalog, &e, role, contract);
    operands::check(cx, &e, &forms);
    guardrails::check(cx, &e);
    hooks::check(cx, catalog, &e, contract.is_some());
}

/// JS `Array.prototype.includes` of a JSON value (SameValueZero): numbers compare as doubles,
/// and two distinct objects or arrays are never equal. A missing value is `undefined`, which no
/// JSON array holds.
fn includes(items: &[Value], needle: Option<&Value>) -> bool {
    let Some(needle) = needle else {
        return false;
    };
    items.iter().any(|item| match (item, needle) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::String(a), Value::String(b)) => a == b,
        (Value::Number(_), Value::Number(_)) => {
            super::js::number(item) == super::js::number(needle)
        }
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn includes_follows_same_value_zero() {
        let items = json!(["a", 1.0, null, true, {"x": 1}, [1]]);
        let items = items.as_array().unwrap();
        assert!(includes(items, Some(&json!("a"))));
        assert!(includes(items, Some(&json!(1))));
        assert!(includes(items, Some(&json!(null))));
        assert!(includes(items, Some(&json!(true))));
        assert!(!includes(items, Some(&json!({"x": 1}))));
        assert!(!includes(items, Some(&json!([1]))));
        assert!(!includes(items, None));
        assert!(!includes(items, Some(&json!("1"))));
    }

    #[test]
    fn key_index_keeps_the_first_object_per_key() {
        let items = json!([
            5,
            {"key": "a", "n": 1},
            {"key": "", "n": 2},
            {"key": "a", "n": 3},
            {"key": "9 bad token", "n": 4},
            {"key": 7}
        ]);
        let by_key = index_keys(items.as_array().unwrap());
        assert_eq!(by_key.len(), 2);
        assert_eq!(by_key["a"].get("n"), Some(&json!(1)));
        assert!(by_key.contains_key("9 bad token"));
    }
}
