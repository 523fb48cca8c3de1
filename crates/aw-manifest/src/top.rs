//! T1–T10: the top-level identity fields, the `provides`/`roles` agreement and the
//! unresolved-placeholder scan over every string value.
//!
//! The placeholder walk is iterative: manifests may nest up to [`super::MAX_DEPTH`] levels, and
//! a recursive walk would tie our stack use to the input.

use super::value::{Map, Value};
use super::{Ctx, FAMILY, KINDS, Path, ROLE_VOCAB, js, push_field};
use std::fmt::Write as _;

pub(super) fn check(cx: &mut Ctx) {
    let root = cx.root;

    // T1: the identity fields, in the reference's order.
    for key in ["family", "name", "kind", "version"] {
        if js::non_empty_str(root.get(key)).is_none() {
            cx.fail(
                "top.required-string",
                key,
                format!(
                    "must be a non-empty string (found {})",
                    js::describe(root.get(key))
                ),
            );
        }
    }

    // T2: a missing family fails here too, on top of T1.
    if root.get("family").and_then(Value::as_str) != Some(FAMILY) {
        cx.fail(
            "top.family",
            "family",
            format!(
                "must be {} (found {})",
                js::quote_str(FAMILY),
                js::describe(root.get("family"))
            ),
        );
    }

    // T3: only a string kind is compared with the vocabulary; "" fails both T1 and T3.
    if let Some(Value::String(kind)) = root.get("kind")
        && !KINDS.contains(&kind.as_ref())
    {
        cx.fail(
            "top.kind-unknown",
            "kind",
            format!(
                "names an unknown kind {} (expected one of {})",
                js::quote_str(kind),
                KINDS.join(", ")
            ),
        );
    }

    // T4: `null` counts as absent.
    if let Some(v) = root.get("available")
        && !matches!(v, Value::Null | Value::Bool(_))
    {
        cx.fail(
            "top.available-type",
            "available",
            format!(
                "must be a boolean when present (found {})",
                js::describe(Some(v))
            ),
        );
    }

    // T5: a non-array `provides` is then read as empty by T7 and T9.
    let provides: &[Value] = match root.get("provides") {
        Some(Value::Array(items)) => items,
        other => {
            cx.fail(
                "top.provides-type",
                "provides",
                format!(
                    "must be an array of role names (found {})",
                    js::describe(other)
                ),
            );
            &[]
        }
    };

    // T6: `cx.roles` already reads an invalid `roles` as `{}` for everything after this.
    if !root.get("roles").is_some_and(Value::is_object) {
        cx.fail(
            "top.roles-type",
            "roles",
            format!(
                "must be an object mapping role names to roles (found {})",
                js::describe(root.get("roles"))
            ),
        );
    }

    // T7: strict equality, so a non-string entry is an unknown role; duplicates are allowed.
    for (i, p) in provides.iter().enumerate() {
        let known = p.as_str().is_some_and(|s| ROLE_VOCAB.contains(&s));
        if !known {
            cx.fail(
                "top.provides-unknown-role",
                Path::Name("provides").index(i),
                format!(
                    "names {}, which is not a role of the vocabulary ({})",
                    js::describe(Some(p)),
                    ROLE_VOCAB.join(", ")
                ),
            );
        }
    }

    // T8 then T9 for each role, in JS key order.
    let roles = Path::Name("roles");
    for (key, _) in js::entries(cx.roles) {
        let path = roles.field(key);
        if !ROLE_VOCAB.contains(&key) {
            cx.fail(
                "top.role-unknown",
                path,
                format!(
                    "is not a role of the vocabulary ({})",
                    ROLE_VOCAB.join(", ")
                ),
            );
        }
        if !provides.iter().any(|p| p.as_str() == Some(key)) {
            cx.fail(
                "top.role-not-provided",
                path,
                "is declared but missing from `provides` (every role must be provided)",
            );
        }
    }

    placeholders(cx, root);
}

/// One step of an access path, kept unrendered so the walk only builds strings for findings.
enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

/// The children still to visit in one container.
enum Frame<'m, 'a> {
    Array(std::iter::Enumerate<std::slice::Iter<'m, Value<'a>>>),
    Object(js::Entries<'m, 'a>),
}

impl<'m, 'a> Frame<'m, 'a> {
    fn of(v: &'m Value<'a>) -> Option<Self> {
        match v {
            Value::Array(items) => Some(Frame::Array(items.iter().enumerate())),
            Value::Object(map) => Some(Frame::Object(js::entries(map))),
            _ => None,
        }
    }

    fn next(&mut self) -> Option<(Seg<'m>, &'m Value<'a>)> {
        match self {
            Frame::Array(it) => it.next().map(|(i, v)| (Seg::Index(i), v)),
            Frame::Object(it) => it.next().map(|(k, v)| (Seg::Key(k), v)),
        }
    }
}

fn render(segs: &[Seg]) -> String {
    let mut path = String::new();
    for seg in segs {
        match seg {
            Seg::Key(k) => push_field(&mut path, k),
            // Writing to a String cannot fail.
            Seg::Index(i) => {
                let _ = write!(path, "[{i}]");
            }
        }
    }
    path
}

/// T10: every string value, depth first (arrays by index, objects in JS key order); keys are
/// exempt and each occurrence is its own finding.
fn placeholders(cx: &mut Ctx, root: &Map) {
    // Invariant: `segs` holds one segment per open frame below the root.
    let mut segs: Vec<Seg> = Vec::new();
    let mut stack = vec![Frame::Object(js::entries(root))];
    while let Some(top) = stack.last_mut() {
        let Some((seg, value)) = top.next() else {
            stack.pop();
            segs.pop();
            continue;
        };
        segs.push(seg);
        if let Value::String(s) = value {
            if js::has_placeholder(s) {
                cx.fail(
                    "top.placeholder",
                    render(&segs),
                    format!(
                        "holds an unresolved template placeholder ({{{{, }}}} or ${{): {}",
                        js::quote_str(s)
                    ),
                );
            }
            segs.pop();
        } else if let Some(frame) = Frame::of(value) {
            stack.push(frame);
        } else {
            segs.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::memory::MemoryFiles;
    use super::super::validate;
    use serde_json::{Value, json};

    fn run(m: &Value) -> Vec<(&'static str, String)> {
        let files = MemoryFiles::new()
            .with("SKILL.md", "---\nmetadata:\n  version: '1.0.0'\n---\n")
            .with("bin/run.sh", "#!/bin/sh\n");
        let bytes = serde_json::to_vec(m).unwrap();
        validate(Some(&bytes), "/skill", &files)
            .errors
            .into_iter()
            .map(|f| (f.rule, f.path))
            .collect()
    }

    fn base() -> Value {
        json!({
            "family": "agent-workflow", "schema": 1, "name": "t", "kind": "execution-backend",
            "version": "1.0.0", "provides": ["review"],
            "roles": {"review": {"cmd": "t-review", "source": "bin/run.sh"}}
        })
    }

    #[test]
    fn base_is_clean() {
        assert!(run(&base()).is_empty());
    }

    #[test]
    fn empty_kind_fails_twice() {
        let mut m = base();
        m["kind"] = json!("");
        let rules: Vec<_> = run(&m).into_iter().map(|(r, _)| r).collect();
        assert_eq!(rules, ["top.required-string", "top.kind-unknown"]);
    }

    #[test]
    fn placeholder_paths_follow_the_walk() {
        let mut m = base();
        m["quota"] = json!({"kind": "${x}", "list": ["ok", ["a}}"]]});
        m["z"] = json!({"{{key}}": "fine", "odd key": "{{v}}"});
        let found = run(&m);
        let paths: Vec<_> = found.iter().map(|(_, p)| p.as_str()).collect();
        assert_eq!(paths, ["quota.kind", "quota.list[1][0]", "z[\"odd key\"]"]);
    }

    #[test]
    fn deep_nesting_walks_without_recursion() {
        let depth = super::super::MAX_DEPTH - 2;
        let text = format!(
            r#"{{"family":"agent-workflow","schema":1,"name":"t","kind":"execution-backend","version":"1.0.0","provides":["review"],"roles":{{"review":{{"cmd":"c","source":"bin/run.sh"}}}},"deep":{}"{{{{x}}}}"{}}}"#,
            "[".repeat(depth),
            "]".repeat(depth)
        );
        // serde_json's parser and `Value`'s drop recurse, so give them room; the walk itself
        // does not need it.
        let handle = std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(move || {
                let files = MemoryFiles::new()
                    .with("SKILL.md", "---\nmetadata:\n  version: '1.0.0'\n---\n")
                    .with("bin/run.sh", "x");
                let r = validate(Some(text.as_bytes()), "/skill", &files);
                (r.errors.len(), r.errors.first().map(|f| f.path.clone()))
            })
            .unwrap();
        let (count, path) = handle.join().unwrap();
        assert_eq!(count, 1);
        assert!(path.unwrap().starts_with("deep[0][0]"));
    }

    #[test]
    fn roles_iterate_in_js_key_order() {
        let mut m = base();
        m["roles"] =
            json!({"review": {"cmd": "c", "source": "bin/run.sh"}, "zeta": 1, "10": 1, "2": 1});
        let unknown: Vec<_> = run(&m)
            .into_iter()
            .filter(|(r, _)| *r == "top.role-unknown")
            .map(|(_, p)| p)
            .collect();
        assert_eq!(unknown, ["roles[\"2\"]", "roles[\"10\"]", "roles.zeta"]);
    }
}
