//! `guardrails` (U1–U3): typed statements of what limits a mode, each with its enforcement level.
//!
//! `enforced` is for facts an OS or code path guarantees; anything a prompt merely asks for is
//! `advisory`. Extra keys are tolerated, as in the reference.

use super::super::Ctx;
use super::super::value::Value;
use super::{Entry, line};

/// U1–U3 and the one-line rule on `value`, `condition` (when declared) and `source`.
pub(super) fn check(cx: &mut Ctx, e: &Entry) {
    if !e.has("guardrails") {
        return;
    }
    let path = e.path("guardrails");
    let value = e.get("guardrails");
    let Some(items) = value.and_then(Value::as_array).filter(|g| !g.is_empty()) else {
        cx.fail(
            "catalog.guardrails-type",
            path,
            format!(
                "must be a non-empty array of {{value, enforcement, condition?, source}} objects, \
                 not {}",
                line::describe(value)
            ),
        );
        return;
    };
    for (j, g) in items.iter().enumerate() {
        let gat = path.index(j);
        let Some(g) = g.as_object() else {
            cx.fail(
                "catalog.guardrail-not-object",
                gat,
                format!(
                    "must be a {{value, enforcement, condition?, source}} object, not {}",
                    line::describe(Some(g))
                ),
            );
            continue;
        };
        line::one_line(cx, gat.field("value"), g.get("value"));
        let enforcement = g.get("enforcement");
        if !matches!(
            enforcement.and_then(Value::as_str),
            Some("enforced" | "advisory")
        ) {
            cx.fail(
                "catalog.guardrail-enforcement",
                gat.field("enforcement"),
                format!(
                    "is {}; it must be \"enforced\" (guaranteed by the OS or code) or \"advisory\"",
                    line::show(enforcement)
                ),
            );
        }
        if g.contains_key("condition") {
            line::one_line(cx, gat.field("condition"), g.get("condition"));
        }
        line::one_line(cx, gat.field("source"), g.get("source"));
    }
}
