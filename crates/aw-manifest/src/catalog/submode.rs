//! `submode` (M1–M5): the explicit binding of a primary to one of its role's parser mode arms.
//!
//! A primary whose role declares `modes` must bind exactly one of them; nothing else may carry a
//! submode. The value is not length-capped, as in the reference.

use super::super::value::Value;
use super::super::{Ctx, js};
use super::{Entry, Kind, line};

/// Checks `submode` against the bound role's `modes` (a non-array `modes` counts as none).
pub(super) fn check(cx: &mut Ctx, e: &Entry, role: Option<&str>) {
    let modes = role
        .and_then(|r| cx.roles.get(r))
        .and_then(Value::as_object)
        .and_then(|r| r.get("modes"))
        .and_then(Value::as_array)
        .filter(|m| !m.is_empty());
    let path = e.path("submode");
    if !e.has("submode") {
        if e.kind == Kind::Primary && modes.is_some() {
            cx.fail(
                "catalog.submode-required",
                path,
                format!(
                    "is missing; role {} declares `modes`, so this primary must name the one it \
                     runs",
                    js::quote_str(role.unwrap_or_default())
                ),
            );
        }
        return;
    }
    let value = e.get("submode");
    let Some(submode) = js::non_empty_str(value) else {
        cx.fail(
            "catalog.submode-type",
            path,
            format!(
                "must be a non-empty string naming a parser mode, not {}",
                line::describe(value)
            ),
        );
        return;
    };
    if e.kind != Kind::Primary {
        cx.fail(
            "catalog.submode-not-primary",
            path,
            format!(
                "is only allowed on a primary entry, not on a {}; only a primary binds a parser \
                 mode",
                e.kind.name()
            ),
        );
        return;
    }
    let Some(modes) = modes else {
        cx.fail(
            "catalog.submode-no-modes",
            path,
            "is only allowed when the entry's role declares a non-empty `modes` array",
        );
        return;
    };
    if !modes.iter().any(|m| m.as_str() == Some(submode)) {
        cx.fail(
            "catalog.submode-unknown",
            path,
            format!(
                "is {}, which is not one of the `modes` of role {}",
                js::quote_str(submode),
                js::quote_str(role.unwrap_or_default())
            ),
        );
    }
}
