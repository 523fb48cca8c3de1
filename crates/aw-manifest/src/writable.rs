//! W1–W9: `writableDirs`, the folders outside the project a member writes to, each overridable by
//! an environment variable.
//!
//! A default must be anchored (`~/…` or `/…`) so it means the same thing from any working
//! directory; the remaining checks are independent so one bad default reports every problem.

use super::value::Value;
use super::{Ctx, Path, js, set::Seen};

pub(super) fn check(cx: &mut Ctx) {
    let Some(dirs) = cx.root.get("writableDirs").filter(|v| js::present(Some(v))) else {
        return;
    };
    let Some(items) = dirs.as_array().filter(|items| !items.is_empty()) else {
        cx.fail(
            "writable.not-array",
            "writableDirs",
            format!(
                "must be a non-empty array of {{env, default}} entries (found {})",
                js::describe(Some(dirs))
            ),
        );
        return;
    };
    let block = Path::Name("writableDirs");
    let mut seen = Seen::new();
    for (i, item) in items.iter().enumerate() {
        let at = block.index(i);
        let Some(entry) = item.as_object() else {
            cx.fail(
                "writable.entry-not-object",
                at,
                format!(
                    "must be an {{env, default}} object (found {})",
                    js::describe(Some(item))
                ),
            );
            continue;
        };

        // A missing env is an error: null is the explicit "no override".
        let env = entry.get("env");
        if !env.is_some_and(Value::is_null)
            && !env.and_then(Value::as_str).is_some_and(js::is_upper_snake)
        {
            cx.fail(
                "writable.env",
                at.field("env"),
                format!(
                    "must be null or an UPPER_SNAKE_CASE environment variable name (found {})",
                    js::describe(env)
                ),
            );
        }

        let path = at.field("default");
        let Some(default) = entry
            .get("default")
            .and_then(Value::as_str)
            .filter(|d| d.starts_with("~/") || d.starts_with('/'))
        else {
            cx.fail(
                "writable.default-anchor",
                path,
                format!(
                    "must be an absolute POSIX path or start with `~/` (found {})",
                    js::describe(entry.get("default"))
                ),
            );
            continue;
        };
        if default.contains(['*', '?', '[', ']']) {
            cx.fail(
                "writable.default-glob",
                path,
                format!(
                    "must not contain glob characters (* ? [ ]): {}",
                    js::quote_str(default)
                ),
            );
        }
        if js::has_control(default) {
            cx.fail(
                "writable.default-control",
                path,
                format!(
                    "must not contain control characters: {}",
                    js::quote_str(default)
                ),
            );
        }
        if default.ends_with('/') {
            cx.fail(
                "writable.default-trailing-slash",
                path,
                format!("must not end with a slash: {}", js::quote_str(default)),
            );
        }
        if js::has_traversal(default) {
            cx.fail(
                "writable.default-traversal",
                path,
                format!(
                    "must not contain a \"..\" segment: {}",
                    js::quote_str(default)
                ),
            );
        }
        if !seen.insert(default) {
            cx.fail(
                "writable.duplicate",
                path,
                format!(
                    "repeats {}, already declared by an earlier entry",
                    js::quote_str(default)
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    fn rules(dirs: Value) -> Vec<&'static str> {
        super::super::memory::testing::findings_with("writableDirs", dirs)
            .into_iter()
            .map(|f| f.rule)
            .collect()
    }

    #[test]
    fn anchoring() {
        for ok in ["~/x", "/var/x", "//x", "/a/./b", "/a b", "/a\\b"] {
            assert!(
                rules(json!([{"env": null, "default": ok}])).is_empty(),
                "{ok}"
            );
        }
        for bad in [
            json!("~"),
            json!("~user/x"),
            json!("rel"),
            json!("C:\\x"),
            json!(1),
        ] {
            assert_eq!(
                rules(json!([{"env": null, "default": bad}])),
                ["writable.default-anchor"]
            );
        }
    }

    #[test]
    fn checks_after_anchoring_are_independent() {
        assert_eq!(
            rules(json!([{"env": null, "default": "/a/../[x]\u{7f}/"}])),
            [
                "writable.default-glob",
                "writable.default-control",
                "writable.default-trailing-slash",
                "writable.default-traversal"
            ]
        );
        assert_eq!(
            rules(json!([{"env": null, "default": "/"}, {"env": null, "default": "/"}])),
            [
                "writable.default-trailing-slash",
                "writable.default-trailing-slash",
                "writable.duplicate"
            ]
        );
    }

    #[test]
    fn env_must_be_null_or_upper_snake() {
        assert_eq!(rules(json!([{"default": "/x"}])), ["writable.env"]);
        assert_eq!(
            rules(json!([{"env": "", "default": "/x"}])),
            ["writable.env"]
        );
        assert!(rules(json!([{"env": "A_1", "default": "/x"}])).is_empty());
    }
}
