//! Invocation forms (K1–K12): the command lines an entry renders.
//!
//! A contract-backed entry (a primary or continuation whose role has an object `contract`)
//! composes its forms by reference into that contract and never restates them; a contract-free
//! entry (an env-hook, or a primary whose role has no object contract) carries one literal
//! `descriptor`, which is then canonical. A continuation has nothing to be canonical about, so it
//! must be contract-backed.

use super::super::value::{Map, Value};
use super::super::{Ctx, Path, field, js};
use super::{Catalog, Entry, Kind, line};

/// The role's contract when the entry is contract-backed. An array or string contract counts as
/// none.
pub(super) fn contract<'a>(cx: &Ctx<'a>, e: &Entry<'a>, role: Option<&str>) -> Option<&'a Map<'a>> {
    if e.kind == Kind::EnvHook {
        return None;
    }
    let roles = cx.roles;
    roles
        .get(role?)
        .and_then(Value::as_object)
        .and_then(|r| r.get("contract"))
        .and_then(Value::as_object)
}

/// K1–K12; returns the forms the entry renders (empty when none resolved).
pub(super) fn check<'a>(
    cx: &mut Ctx,
    catalog: &mut Catalog<'a>,
    e: &Entry<'a>,
    role: Option<&'a str>,
    contract: Option<&'a Map<'a>>,
) -> Vec<&'a str> {
    if e.kind == Kind::Continuation && contract.is_none() {
        cx.fail(
            "catalog.continuation-contract",
            e.at,
            "is a continuation whose role has no object `contract`; a continuation must be \
             contract-backed (only contract-free primaries and env-hooks carry a literal \
             descriptor)",
        );
    }
    match (contract, role) {
        (Some(contract), Some(role)) => by_reference(cx, catalog, e, role, contract),
        _ => literal(cx, e),
    }
}

/// K2–K10 for a contract-backed entry.
fn by_reference<'a>(
    cx: &mut Ctx,
    catalog: &mut Catalog<'a>,
    e: &Entry<'a>,
    role: &'a str,
    contract: &'a Map<'a>,
) -> Vec<&'a str> {
    if e.has("descriptor") {
        cx.fail(
            "catalog.descriptor-on-contract",
            e.path("descriptor"),
            "is not allowed on a contract-backed entry, which composes its forms by reference: \
             use `invocationRefs` instead",
        );
    }
    let path = e.path("invocationRefs");
    let Some(refs) = e
        .get("invocationRefs")
        .and_then(Value::as_array)
        .filter(|r| !r.is_empty())
    else {
        cx.fail(
            "catalog.refs-required",
            path,
            "must be a non-empty array of {contractField, index} references into the role's \
             contract, since this entry is contract-backed",
        );
        return Vec::new();
    };
    // A primary drives a mode and a continuation resumes one; crossing them would print a resume
    // form as a drive form.
    let required = if e.kind == Kind::Primary {
        "invocations"
    } else {
        "continue"
    };
    let mut forms = Vec::new();
    for (j, r) in refs.iter().enumerate() {
        let rat = path.index(j);
        if let Some(form) = resolve(cx, catalog, e, &rat, r, role, required, contract) {
            forms.push(form);
        }
    }
    forms
}

/// K4–K10 for one reference; the form it resolves to, when it passes K4–K9.
#[allow(clippy::too_many_arguments)]
fn resolve<'a>(
    cx: &mut Ctx,
    catalog: &mut Catalog<'a>,
    e: &Entry<'a>,
    rat: &Path,
    r: &'a Value<'a>,
    role: &'a str,
    required: &str,
    contract: &'a Map<'a>,
) -> Option<&'a str> {
    let Some(r) = r.as_object() else {
        cx.fail(
            "catalog.ref-not-object",
            rat,
            format!(
                "must be a {{contractField, index}} object, not {}",
                line::describe(Some(r))
            ),
        );
        return None;
    };
    let cf_path = rat.field("contractField");
    let cf = r.get("contractField");
    let Some(cf) = cf
        .and_then(Value::as_str)
        .filter(|f| matches!(*f, "invocations" | "continue"))
    else {
        cx.fail(
            "catalog.ref-field",
            cf_path,
            format!(
                "is {}; it must be \"invocations\" or \"continue\"",
                line::show(cf)
            ),
        );
        return None;
    };
    if cf != required {
        cx.fail(
            "catalog.ref-field-kind",
            cf_path,
            format!(
                "is {}, but a {} entry must reference {} (a primary drives a mode, a \
                 continuation resumes one)",
                js::quote_str(cf),
                e.kind.name(),
                js::quote_str(required)
            ),
        );
        return None;
    }
    let idx = r.get("index");
    let n = idx
        .filter(|v| js::is_safe_integer(*v))
        .and_then(js::number)
        .filter(|n| *n >= 0.0);
    let Some(n) = n else {
        cx.fail(
            "catalog.ref-index",
            rat.field("index"),
            format!(
                "must be a non-negative integer, not {}",
                match idx {
                    Some(v @ Value::Number(_)) => js::quote(Some(v)),
                    other => line::describe(other).to_owned(),
                }
            ),
        );
        return None;
    };
    // Only a finding prints the target, so it is spelled out only then.
    let target = || {
        format!(
            "{}.{cf}[{}]",
            field(&field("roles", role), "contract"),
            js::number_to_string(n)
        )
    };
    // `n` is a safe non-negative integer, so the conversion is exact wherever an array that long
    // could exist; on narrower targets it saturates and simply fails to resolve.
    let form = contract
        .get(cf)
        .and_then(Value::as_array)
        .and_then(|forms| forms.get(n as usize))
        .and_then(|v| js::non_empty_str(Some(v)));
    let Some(form) = form else {
        cx.fail(
            "catalog.ref-unresolved",
            rat,
            format!("does not resolve: {} is not a non-empty string", target()),
        );
        return None;
    };
    if !line::referenced_form(cx, *rat, target, form) {
        return None;
    }
    // The reference spells a claim `role.field[index]`; with `field` one of two fixed words and
    // `index` a non-negative integer that spelling is one-to-one, so comparing the parts is the
    // same as comparing the strings. (`-0` and `0` spell, and convert, alike.)
    if !catalog.claimed.insert((n as u64, role, cf)) {
        cx.fail(
            "catalog.ref-duplicate",
            rat,
            format!(
                "references {}, which this or an earlier catalog entry already claims; each \
                 contract form belongs to at most one entry",
                target()
            ),
        );
    }
    Some(form)
}

/// K11–K12 and the descriptor's one-line rule for a contract-free entry.
fn literal<'a>(cx: &mut Ctx, e: &Entry<'a>) -> Vec<&'a str> {
    if e.has("invocationRefs") {
        cx.fail(
            "catalog.refs-on-contract-free",
            e.path("invocationRefs"),
            "is only allowed on a contract-backed entry; this entry's role has no object \
             `contract`, so state the form in `descriptor`",
        );
    }
    if !e.has("descriptor") {
        cx.fail(
            "catalog.descriptor-required",
            e.path("descriptor"),
            "is missing; a contract-free entry states its own invocation form as a one-line \
             descriptor",
        );
        return Vec::new();
    }
    let descriptor = e.get("descriptor");
    if line::one_line(cx, e.path("descriptor"), descriptor) {
        descriptor.and_then(Value::as_str).into_iter().collect()
    } else {
        Vec::new()
    }
}
