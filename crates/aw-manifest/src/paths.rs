//! P1–P5: the checks shared by every field that names a file inside the skill folder
//! (`roles.*.source`, `roles.*.template`, `detect.installed.file`).
//!
//! Existence (P5) is only asked of the folder when the shape checks passed: a path that escapes
//! the folder or names an absolute location must never be probed.

use super::value::Value;
use super::{Ctx, Path, js};

/// Runs P1–P5 on `value`, reporting at `path`.
///
/// P2–P4 are independent of each other; P5 runs only for a non-stub manifest when none of them
/// fired.
pub(super) fn in_skill(cx: &mut Ctx, path: Path, value: Option<&Value>) {
    let Some(v) = js::non_empty_str(value) else {
        cx.fail(
            "path.not-string",
            path,
            format!(
                "must be a non-empty string naming a file in the skill folder (found {})",
                js::describe(value)
            ),
        );
        return;
    };
    let mut shape_ok = true;
    if js::is_absolute_like(v) {
        shape_ok = false;
        cx.fail(
            "path.absolute",
            path,
            format!(
                "must be relative to the skill folder, not absolute: {}",
                js::quote_str(v)
            ),
        );
    }
    if v.starts_with('~') {
        shape_ok = false;
        cx.fail(
            "path.home-relative",
            path,
            format!(
                "must be relative to the skill folder, not to a home directory: {}",
                js::quote_str(v)
            ),
        );
    }
    if js::has_traversal(v) {
        shape_ok = false;
        cx.fail(
            "path.traversal",
            path,
            format!(
                "must not step out with a \"..\" segment: {}",
                js::quote_str(v)
            ),
        );
    }
    if shape_ok && !cx.stub && !cx.files.exists(v) {
        cx.fail(
            "path.missing",
            path,
            format!(
                "names a file that does not exist in the skill folder: {}",
                js::quote_str(v)
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::memory::MemoryFiles;
    use super::super::validate;
    use serde_json::{Value, json};

    fn rules(source: Value, stub: bool) -> Vec<&'static str> {
        let mut m = json!({
            "family": "agent-workflow", "schema": 1, "name": "t", "kind": "execution-backend",
            "version": "1.0.0", "provides": ["review"],
            "roles": {"review": {"cmd": "t-review", "source": source}}
        });
        if stub {
            m["available"] = json!(false);
        }
        let files = MemoryFiles::new()
            .with("SKILL.md", "---\nmetadata:\n  version: '1.0.0'\n---\n")
            .with("bin/run.sh", "x");
        let bytes = serde_json::to_vec(&m).unwrap();
        validate(Some(&bytes), "/skill", &files)
            .errors
            .into_iter()
            .map(|f| f.rule)
            .collect()
    }

    #[test]
    fn shape_checks_are_independent() {
        assert_eq!(
            rules(json!("/../x.sh"), false),
            ["path.absolute", "path.traversal"]
        );
        assert_eq!(
            rules(json!("~/../x"), false),
            ["path.home-relative", "path.traversal"]
        );
        assert_eq!(rules(json!("C:\\evil\\run.sh"), false), ["path.absolute"]);
    }

    #[test]
    fn drive_relative_only_fails_existence() {
        assert_eq!(rules(json!("C:run.sh"), false), ["path.missing"]);
        assert_eq!(rules(json!("bin\\run.sh"), false), ["path.missing"]);
    }

    #[test]
    fn folders_count_as_existing() {
        assert!(rules(json!("bin"), false).is_empty());
        assert!(rules(json!("./bin//./run.sh"), false).is_empty());
    }

    #[test]
    fn stubs_skip_existence_only() {
        assert!(rules(json!("nope.sh"), true).is_empty());
        assert_eq!(rules(json!(""), true), ["path.not-string"]);
        assert_eq!(rules(json!(7), false), ["path.not-string"]);
    }
}
