//! R1–R3: each role's command name and the in-skill scripts it runs.
//!
//! `cmd` is only the name callers put on PATH, so it is merely required; `source` is the file the
//! skill ships, so it gets the full in-skill path checks, as does an optional `template`.

use super::{Ctx, Path, js, paths};

pub(super) fn check(cx: &mut Ctx) {
    let roles = Path::Name("roles");
    for (key, role) in js::entries(cx.roles) {
        let at = roles.field(key);
        let Some(role) = role.as_object() else {
            cx.fail(
                "role.not-object",
                at,
                format!(
                    "must be an object with `cmd` and `source` (found {})",
                    js::describe(Some(role))
                ),
            );
            continue;
        };
        if js::non_empty_str(role.get("cmd")).is_none() {
            cx.fail(
                "role.cmd",
                at.field("cmd"),
                format!(
                    "must be a non-empty string (the command name on PATH; found {})",
                    js::describe(role.get("cmd"))
                ),
            );
        }
        let source_path = at.field("source");
        match role.get("source").filter(|v| js::present(Some(v))) {
            None => cx.fail(
                "role.source-required",
                source_path,
                "is required: it names the script in the skill folder that `cmd` runs",
            ),
            Some(source) => paths::in_skill(cx, source_path, Some(source)),
        }
        if let Some(template) = role.get("template").filter(|v| js::present(Some(v))) {
            paths::in_skill(cx, at.field("template"), Some(template));
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    fn found(roles: Value) -> Vec<(&'static str, String)> {
        let mut m = super::super::memory::testing::base();
        m["provides"] = serde_json::json!(["review", "execute"]);
        m["roles"] = roles;
        super::super::memory::testing::findings(&m)
            .into_iter()
            .map(|f| (f.rule, f.path))
            .collect()
    }

    #[test]
    fn a_non_object_role_is_checked_no_further() {
        assert_eq!(
            found(json!({"review": null, "execute": ["x"]})),
            [
                ("role.not-object", "roles.review".to_owned()),
                ("role.not-object", "roles.execute".to_owned())
            ]
        );
    }

    #[test]
    fn source_then_template() {
        assert_eq!(
            found(json!({"review": {"cmd": "", "source": null, "template": ""}})),
            [
                ("role.cmd", "roles.review.cmd".to_owned()),
                ("role.source-required", "roles.review.source".to_owned()),
                ("path.not-string", "roles.review.template".to_owned())
            ]
        );
    }

    #[test]
    fn template_runs_all_path_checks() {
        assert_eq!(
            found(json!({"review": {"cmd": "c", "source": "bin/run.sh", "template": "t.md"}})),
            [("path.missing", "roles.review.template".to_owned())]
        );
    }
}
