//! `customHooks` (X1–X6): the env-hooks that modify this mode.
//!
//! Each hook must be an env-hook of this catalog that lists the entry back in its `parents`. The
//! one exception is the raw mode: a contract-free primary may name itself, because it is its own
//! escape hatch.

use super::super::value::Value;
use super::super::{Ctx, js, set::Seen};
use super::{Catalog, Entry, Kind, includes, line};

/// X1–X6. `contract_backed` is whether the entry composes its forms from a role contract.
pub(super) fn check(cx: &mut Ctx, catalog: &Catalog, e: &Entry, contract_backed: bool) {
    if !e.has("customHooks") {
        return;
    }
    let path = e.path("customHooks");
    let value = e.get("customHooks");
    let Some(hooks) = value.and_then(Value::as_array).filter(|h| !h.is_empty()) else {
        cx.fail(
            "catalog.hooks-type",
            path,
            format!(
                "must be a non-empty array of catalog keys, not {}",
                line::describe(value)
            ),
        );
        return;
    };
    let own_key = e.key.and_then(Value::as_str);
    let mut seen = Seen::new();
    for (k, hook) in hooks.iter().enumerate() {
        let at = path.index(k);
        let Some((name, target)) = hook
            .as_str()
            .and_then(|name| catalog.by_key.get(name).map(|t| (name, *t)))
        else {
            cx.fail(
                "catalog.hook-unknown",
                at,
                format!(
                    "is {}, which is no key of this catalog",
                    line::show(Some(hook))
                ),
            );
            continue;
        };
        if !seen.insert(name) {
            cx.fail(
                "catalog.hook-duplicate",
                at,
                format!("repeats hook {}; name each hook once", js::quote_str(name)),
            );
            continue;
        }
        if own_key == Some(name) {
            if contract_backed || e.kind != Kind::Primary {
                cx.fail(
                    "catalog.hook-self",
                    at,
                    "names this entry itself, which only a contract-free primary (the raw mode) \
                     may do",
                );
            }
            continue;
        }
        if !super::is_env_hook(target) {
            cx.fail(
                "catalog.hook-not-env-hook",
                at,
                format!(
                    "names {}, which is not an env-hook; a custom hook is an env-hook entry (or, \
                     for the raw mode, the entry itself)",
                    js::quote_str(name)
                ),
            );
            continue;
        }
        let listed = target
            .get("parents")
            .and_then(Value::as_array)
            .is_some_and(|parents| includes(parents, e.key));
        if !listed {
            cx.fail(
                "catalog.hook-unlinked",
                at,
                format!(
                    "names env-hook {}, whose `parents` does not list {}; declare the hook on \
                     both sides",
                    js::quote_str(name),
                    js::quote(e.key)
                ),
            );
        }
    }
}
