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
mod view;

pub use view::{
    CatalogView, FormView, GuardrailView, ModeView, OperandView, catalog_view, catalog_view_of,
};

use super::set::{FirstMap, Seen};
use super::value::{Map, Value};
use super::{Ctx, Path};

/// The path of the whole block.
const AT: &str = "modeCatalog";

/// The path of the whole block, as the parent of the entries' paths.
static BLOCK: Path<'static> = Path::Name(AT);

/// Entry kinds: a `primary` is a mode you drive, a `continuation` resumes one, an `env-hook`
/// modifies the modes it names as parents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Primary,
    Continuation,
    EnvHook,
}

impl Kind {
    /// The kind an entry declares (its `kind` value), when it is one of the three.
    fn of(kind: Option<&Value>) -> Option<Kind> {
        match kind.and_then(Value::as_str)? {
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
fn is_env_hook(entry: &Map) -> bool {
    entry.get("kind").and_then(Value::as_str) == Some("env-hook")
}

/// Bookkeeping shared across the entries of one catalog.
struct Catalog<'a> {
    /// Key to the first plain-object entry carrying it. Built before any entry is checked so that
    /// parents and hooks may point forward as well as back.
    by_key: FirstMap<&'a str, &'a Map<'a>>,
    /// Keys that passed the key checks so far (for duplicate detection).
    seen_keys: Seen<&'a str>,
    /// Contract forms already claimed by an entry: index, role and contract field (the index
    /// first, as it tells most claims apart with one comparison).
    claimed: Seen<(u64, &'a str, &'a str)>,
}

/// The fields of an entry that the checks read, gathered in one pass over its keys. The checks
/// read an entry's fields some forty times; a lookup each time would scan its keys as often.
struct Fields<'a> {
    obj: &'a Map<'a>,
    /// The value of each name of [`slot`], if the entry has it.
    slots: [Option<&'a Value<'a>>; SLOTS],
}

/// The number of fields [`Fields`] gathers.
const SLOTS: usize = 13;

/// Where [`Fields`] keeps the field `name`, for the fields the checks read.
fn slot(name: &str) -> Option<usize> {
    Some(match name {
        "key" => 0,
        "kind" => 1,
        "purpose" => 2,
        "whenToUse" => 3,
        "whenNotTo" => 4,
        "role" => 5,
        "parents" => 6,
        "submode" => 7,
        "descriptor" => 8,
        "invocationRefs" => 9,
        "operands" => 10,
        "guardrails" => 11,
        "customHooks" => 12,
        _ => return None,
    })
}

impl<'a> Fields<'a> {
    fn of(obj: &'a Map<'a>) -> Self {
        let mut slots = [None; SLOTS];
        // A parsed object holds each key once, so every slot is written at most once.
        for (k, v) in obj {
            if let Some(i) = slot(k) {
                slots[i] = Some(v);
            }
        }
        Fields { obj, slots }
    }

    /// The value of a field, as `obj.get(field)`.
    fn get(&self, field: &str) -> Option<&'a Value<'a>> {
        match slot(field) {
            Some(i) => self.slots[i],
            None => self.obj.get(field),
        }
    }
}

/// One entry under check, after its kind is known.
struct Entry<'a> {
    /// `modeCatalog[i]`.
    at: Path<'a>,
    fields: Fields<'a>,
    kind: Kind,
    /// The raw `key` value (any JSON type, or missing): hook linkage compares it as written.
    key: Option<&'a Value<'a>>,
}

impl<'a> Entry<'a> {
    /// The path of one of the entry's fields.
    fn path<'p>(&'p self, field: &'p str) -> Path<'p> {
        self.at.field(field)
    }

    /// The value of one of the entry's fields.
    fn get(&self, field: &str) -> Option<&'a Value<'a>> {
        self.fields.get(field)
    }

    /// `Object.hasOwn(entry, field)`: a JSON `null` counts as present.
    fn has(&self, field: &str) -> bool {
        self.get(field).is_some()
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
        seen_keys: Seen::new(),
        claimed: Seen::new(),
    };
    for (i, item) in items.iter().enumerate() {
        check_entry(cx, &mut catalog, i, item);
    }
}

/// The pre-pass: every plain-object entry with a non-empty string key, first one wins, even when
/// the key later fails the token rule.
fn index_keys<'a>(items: &'a [Value<'a>]) -> FirstMap<&'a str, &'a Map<'a>> {
    let mut by_key = FirstMap::new();
    for obj in items.iter().filter_map(Value::as_object) {
        if let Some(key) = obj
            .get("key")
            .and_then(Value::as_str)
            .filter(|k| !k.is_empty())
        {
            by_key.insert_first(key, obj);
        }
    }
    by_key
}

/// All checks of one entry, in the reference's order; E1 and E6 stop the entry early.
fn check_entry<'a>(cx: &mut Ctx<'a>, catalog: &mut Catalog<'a>, i: usize, item: &'a Value<'a>) {
    let at = BLOCK.index(i);
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
    let fields = Fields::of(obj);
    entry::key(cx, catalog, &at, &fields);
    let Some(kind) = entry::kind(cx, &at, &fields) else {
        return;
    };
    let e = Entry {
        at,
        key: fields.get("key"),
        fields,
        kind,
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

    fn parse(text: &str) -> Value<'_> {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn includes_follows_same_value_zero() {
        let items = parse(r#"["a", 1.0, null, true, {"x": 1}, [1]]"#);
        let items = items.as_array().unwrap();
        assert!(includes(items, Some(&parse(r#""a""#))));
        assert!(includes(items, Some(&parse("1"))));
        assert!(includes(items, Some(&parse("null"))));
        assert!(includes(items, Some(&parse("true"))));
        assert!(!includes(items, Some(&parse(r#"{"x": 1}"#))));
        assert!(!includes(items, Some(&parse("[1]"))));
        assert!(!includes(items, None));
        assert!(!includes(items, Some(&parse(r#""1""#))));
    }

    #[test]
    fn key_index_keeps_the_first_object_per_key() {
        let items = parse(
            r#"[
                5,
                {"key": "a", "n": 1},
                {"key": "", "n": 2},
                {"key": "a", "n": 3},
                {"key": "9 bad token", "n": 4},
                {"key": 7}
            ]"#,
        );
        let by_key = index_keys(items.as_array().unwrap());
        assert_eq!(by_key.len(), 2);
        let a = by_key.get("a").unwrap();
        assert_eq!(a.get("n").and_then(Value::as_f64), Some(1.0));
        assert!(by_key.contains_key("9 bad token"));
    }
}
