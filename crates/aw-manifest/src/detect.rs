//! D1–D12: the `detect` block, which tells callers where a member is installed and how a
//! project shows it is deployed.
//!
//! Only `installed.file` lives inside the skill folder (checked with [`super::paths`]); the other
//! paths point elsewhere, so their shape is checked but their existence never is.

use super::value::Value;
use super::{Ctx, Path, js, paths};

pub(super) fn check(cx: &mut Ctx) {
    let Some(detect) = cx.root.get("detect").filter(|v| js::present(Some(v))) else {
        return;
    };
    let Some(detect) = detect.as_object() else {
        cx.fail(
            "detect.not-object",
            "detect",
            format!(
                "must be an object with `installed` and/or `deployed` (found {})",
                js::describe(Some(detect))
            ),
        );
        return;
    };

    if let Some(installed) = detect.get("installed").filter(|v| js::present(Some(v))) {
        match installed.as_object() {
            None => cx.fail(
                "detect.installed-not-object",
                "detect.installed",
                format!(
                    "must be an object (found {})",
                    js::describe(Some(installed))
                ),
            ),
            Some(installed) => {
                if let Some(env) = installed.get("env").filter(|v| js::present(Some(v)))
                    && !env.is_string()
                {
                    cx.fail(
                        "detect.env-type",
                        "detect.installed.env",
                        format!(
                            "must be a string naming an environment variable (found {})",
                            js::describe(Some(env))
                        ),
                    );
                }
                if let Some(default) = installed.get("default").filter(|v| js::present(Some(v))) {
                    check_default(cx, default);
                }
                if let Some(file) = installed.get("file").filter(|v| js::present(Some(v))) {
                    paths::in_skill(cx, Path::Name("detect.installed.file"), Some(file));
                }
            }
        }
    }

    if let Some(deployed) = detect.get("deployed").filter(|v| js::present(Some(v))) {
        match deployed.as_object() {
            None => cx.fail(
                "detect.deployed-not-object",
                "detect.deployed",
                format!("must be an object (found {})", js::describe(Some(deployed))),
            ),
            Some(deployed) => {
                if let Some(file) = deployed.get("file").filter(|v| js::present(Some(v))) {
                    check_deployed_file(cx, file);
                }
            }
        }
    }
}

/// D4–D6: the install location may be home-relative (`~`, `~/…`) or plain relative, never
/// absolute and never climbing with `..`. An empty string is accepted.
fn check_default(cx: &mut Ctx, default: &Value) {
    const PATH: &str = "detect.installed.default";
    let Some(v) = default.as_str() else {
        cx.fail(
            "detect.default-type",
            PATH,
            format!("must be a string (found {})", js::describe(Some(default))),
        );
        return;
    };
    if js::is_absolute_like(v) {
        cx.fail(
            "detect.default-absolute",
            PATH,
            format!("must not be an absolute path: {}", js::quote_str(v)),
        );
    }
    if js::has_traversal(v) {
        cx.fail(
            "detect.default-traversal",
            PATH,
            format!("must not contain a \"..\" segment: {}", js::quote_str(v)),
        );
    }
}

/// D9–D12: the deployment marker is relative to the project, so it may be neither absolute,
/// nor home-relative, nor climbing; the three findings are independent.
fn check_deployed_file(cx: &mut Ctx, file: &Value) {
    const PATH: &str = "detect.deployed.file";
    let Some(v) = file.as_str() else {
        cx.fail(
            "detect.deployed-file-type",
            PATH,
            format!("must be a string (found {})", js::describe(Some(file))),
        );
        return;
    };
    if js::is_absolute_like(v) {
        cx.fail(
            "detect.deployed-file-absolute",
            PATH,
            format!(
                "must be relative to the project, not absolute: {}",
                js::quote_str(v)
            ),
        );
    }
    if v.starts_with('~') {
        cx.fail(
            "detect.deployed-file-home",
            PATH,
            format!(
                "must be relative to the project, not to a home directory: {}",
                js::quote_str(v)
            ),
        );
    }
    if js::has_traversal(v) {
        cx.fail(
            "detect.deployed-file-traversal",
            PATH,
            format!("must not contain a \"..\" segment: {}", js::quote_str(v)),
        );
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    fn rules(detect: Value) -> Vec<&'static str> {
        super::super::memory::testing::findings_with("detect", detect)
            .into_iter()
            .map(|f| f.rule)
            .collect()
    }

    #[test]
    fn null_parts_count_as_absent() {
        assert!(rules(json!(null)).is_empty());
        assert!(rules(json!({"installed": null, "deployed": null})).is_empty());
        assert!(
            rules(json!({"installed": {"env": null, "default": null, "file": null}})).is_empty()
        );
    }

    #[test]
    fn default_accepts_home_relative_and_empty() {
        for d in ["~", "~/x", "~user", "rel/x", ""] {
            assert!(
                rules(json!({"installed": {"default": d}})).is_empty(),
                "{d}"
            );
        }
        assert_eq!(
            rules(json!({"installed": {"default": "/../x"}})),
            ["detect.default-absolute", "detect.default-traversal"]
        );
    }

    #[test]
    fn deployed_file_checks_are_independent() {
        assert!(rules(json!({"deployed": {"file": ""}})).is_empty());
        assert_eq!(
            rules(json!({"deployed": {"file": "~/../x"}})),
            [
                "detect.deployed-file-home",
                "detect.deployed-file-traversal"
            ]
        );
    }

    #[test]
    fn a_non_object_detect_stops_there() {
        assert_eq!(rules(json!([{"installed": 1}])), ["detect.not-object"]);
        assert_eq!(
            rules(json!({"installed": "x", "deployed": 3})),
            ["detect.installed-not-object", "detect.deployed-not-object"]
        );
    }
}
