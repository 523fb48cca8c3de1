//! Operand slots (Q1–Q7): the declared `operands` and the placeholders the forms render must be
//! the same set.
//!
//! A slot is `<angle>` (optionally with a leading `@`, which is part of what the user types) or
//! `[bracket]`, exactly as the catalog renderer reads them. An invented slot names an operand with
//! nowhere to go; an undeclared one leaves the reader guessing, so both directions are checked.
//! When no form resolved, the comparison is skipped: the form's own error already says why.

use super::super::value::Value;
use super::super::{Ctx, js, set::Seen};
use super::{Entry, line};
use regex::Regex;
use std::sync::LazyLock;

/// The slot grammar of the catalog renderer.
#[allow(
    clippy::expect_used,
    reason = "a constant pattern: every test that reads a slot compiles it"
)]
static SLOT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"@?<[^<>]+>|\[[^\[\]]*\]").expect("the slot pattern is a valid constant")
});

/// The rendered slots of `forms`, deduplicated in first-seen order.
pub(super) fn slots<'a>(forms: &[&'a str]) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for form in forms {
        for m in SLOT.find_iter(form) {
            if !out.contains(&m.as_str()) {
                out.push(m.as_str());
            }
        }
    }
    out
}

/// Q1–Q7.
pub(super) fn check(cx: &mut Ctx, e: &Entry, forms: &[&str]) {
    let rendered = slots(forms);
    let path = e.path("operands");
    if !e.has("operands") {
        if !forms.is_empty() && !rendered.is_empty() {
            cx.fail(
                "catalog.operands-required",
                path,
                format!(
                    "is missing, but the entry's invocation forms render the slot(s) {}; declare \
                     each as a {{slot, required, description}} operand",
                    list(&rendered)
                ),
            );
        }
        return;
    }
    let Some(ops) = e
        .get("operands")
        .and_then(Value::as_array)
        .filter(|o| !o.is_empty())
    else {
        cx.fail(
            "catalog.operands-type",
            path,
            format!(
                "must be a non-empty array of {{slot, required, description}} objects, not {}",
                line::describe(e.get("operands"))
            ),
        );
        return;
    };
    let mut declared = Seen::new();
    for (j, op) in ops.iter().enumerate() {
        let oat = path.index(j);
        let Some(op) = op.as_object() else {
            cx.fail(
                "catalog.operand-not-object",
                oat,
                format!(
                    "must be a {{slot, required, description}} object, not {}",
                    line::describe(Some(op))
                ),
            );
            continue;
        };
        let slot_path = oat.field("slot");
        let slot = op.get("slot");
        let slot_ok = line::one_line(cx, slot_path, slot);
        if !op.get("required").is_some_and(Value::is_boolean) {
            cx.fail(
                "catalog.operand-required-type",
                oat.field("required"),
                format!(
                    "must be true or false, not {}",
                    line::describe(op.get("required"))
                ),
            );
        }
        line::one_line(cx, oat.field("description"), op.get("description"));
        let Some(slot) = slot.and_then(Value::as_str).filter(|_| slot_ok) else {
            continue;
        };
        if !declared.insert(slot) {
            cx.fail(
                "catalog.operand-duplicate",
                slot_path,
                format!(
                    "repeats slot {}, which an earlier operand of this entry already declares",
                    js::quote_str(slot)
                ),
            );
        }
        if !forms.is_empty() && !rendered.contains(&slot) {
            cx.fail(
                "catalog.operand-unrendered",
                slot_path,
                format!(
                    "is {}, which none of the entry's invocation forms renders; rendered slots: {}",
                    js::quote_str(slot),
                    list(&rendered)
                ),
            );
        }
    }
    if forms.is_empty() {
        return;
    }
    for slot in rendered {
        if !declared.contains(slot) {
            cx.fail(
                "catalog.operand-missing",
                path,
                format!(
                    "does not declare slot {}, which the entry's invocation forms render",
                    js::quote_str(slot)
                ),
            );
        }
    }
}

/// Slots for a message, quoted and comma-separated (or "none").
fn list(slots: &[&str]) -> String {
    if slots.is_empty() {
        return "none".to_owned();
    }
    slots
        .iter()
        .map(|s| js::quote_str(s))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slot_grammar_matches_the_renderer() {
        assert_eq!(
            slots(&["run @<file> <x> [] [y <z>] <x>", "again [y <z>] <é😀>"]),
            ["@<file>", "<x>", "[]", "[y <z>]", "<é😀>"]
        );
        assert_eq!(slots(&["a <b<c>> d"]), ["<c>"]);
        assert_eq!(slots(&["<>", "[[a]]", "@@<k>"]), ["[a]", "@<k>"]);
        assert!(slots(&["plain"]).is_empty());
        assert_eq!(
            slots(&["@<a", "@<>", "[x", "x]", "@[a]", "<a\nb>"]),
            ["[a]", "<a\nb>"]
        );
    }
}
