//! What an entry attaches to: an env-hook names the modes it modifies in `parents` (H1–H7); a
//! primary or continuation names the role that runs it (L1–L3).
//!
//! The hook linkage is symmetric: a hook listing a parent must be listed back in that parent's
//! `customHooks` (H7 here, X6 in [`super::hooks`]), so the rendered catalog never omits a hook
//! that really changes how a mode runs.

use super::super::value::Value;
use super::super::{Ctx, js, set::Seen};
use super::{Catalog, Entry, Kind, includes, line};

/// Checks the entry's linkage and returns the role it is bound to, if any. A role is bound when
/// it names an own key of `roles`, whatever that role's value looks like.
pub(super) fn check<'a>(cx: &mut Ctx<'a>, catalog: &Catalog<'a>, e: &Entry<'a>) -> Option<&'a str> {
    if e.kind == Kind::EnvHook {
        parents(cx, catalog, e);
        return None;
    }
    if e.has("parents") {
        cx.fail(
            "catalog.parents-not-hook",
            e.path("parents"),
            format!(
                "is only allowed on an env-hook; a {} entry names its `role` instead",
                e.kind.name()
            ),
        );
    }
    let roles = cx.roles;
    let Some(role) = e.get("role") else {
        cx.fail(
            "catalog.role-required",
            e.path("role"),
            format!(
                "is missing; a {} entry must name the role of this manifest that runs it",
                e.kind.name()
            ),
        );
        return None;
    };
    match role.as_str() {
        Some(name) if roles.contains_key(name) => Some(name),
        _ => {
            cx.fail(
                "catalog.role-unknown",
                e.path("role"),
                format!(
                    "is {}, which is not a key of `roles` in this manifest",
                    line::show(Some(role))
                ),
            );
            None
        }
    }
}

/// H1–H7 for an env-hook.
fn parents<'a>(cx: &mut Ctx, catalog: &Catalog<'a>, e: &Entry<'a>) {
    if e.has("role") {
        cx.fail(
            "catalog.hook-role",
            e.path("role"),
            "is not allowed on an env-hook: a hook names the modes it modifies in `parents`, \
             never a role",
        );
    }
    let path = e.path("parents");
    let Some(list) = e
        .get("parents")
        .and_then(Value::as_array)
        .filter(|l| !l.is_empty())
    else {
        cx.fail(
            "catalog.hook-parents-required",
            path,
            "must be a non-empty array of the catalog keys this env-hook modifies",
        );
        return;
    };
    let own_key = e.key.and_then(Value::as_str);
    let mut seen = Seen::new();
    for (k, p) in list.iter().enumerate() {
        let at = path.index(k);
        let Some((name, target)) = p
            .as_str()
            .and_then(|name| catalog.by_key.get(name).map(|t| (name, *t)))
        else {
            cx.fail(
                "catalog.hook-parent-unknown",
                at,
                format!(
                    "is {}, which is no key of this catalog",
                    line::show(Some(p))
                ),
            );
            continue;
        };
        // Checked before duplicates, as the reference does: a doubled self-reference is reported
        // as two self-references.
        if own_key == Some(name) {
            cx.fail(
                "catalog.hook-parent-self",
                at,
                "names this env-hook itself; a hook modifies other modes",
            );
            continue;
        }
        if !seen.insert(name) {
            cx.fail(
                "catalog.hook-parent-duplicate",
                at,
                format!(
                    "repeats parent {}; name each parent once",
                    js::quote_str(name)
                ),
            );
            continue;
        }
        if super::is_env_hook(target) {
            cx.fail(
                "catalog.hook-parent-hook",
                at,
                format!(
                    "names {}, which is itself an env-hook; a hook modifies a mode, never another \
                     hook",
                    js::quote_str(name)
                ),
            );
            continue;
        }
        let listed = target
            .get("customHooks")
            .and_then(Value::as_array)
            .is_some_and(|hooks| includes(hooks, e.key));
        if !listed {
            cx.fail(
                "catalog.hook-parent-unlinked",
                at,
                format!(
                    "names {}, but that entry's `customHooks` does not list {}; declare the hook \
                     on both sides",
                    js::quote_str(name),
                    js::quote(e.key)
                ),
            );
        }
    }
}
