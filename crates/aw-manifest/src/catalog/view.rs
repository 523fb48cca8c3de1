//! A typed, owned view of a manifest's `modeCatalog`, for renderers.
//!
//! The checks above decide whether a catalog is valid; this view reads the same fields the same
//! way (forms composed by reference from `roles.<role>.contract`, slots by the validator's own
//! grammar) so a renderer never re-parses the JSON. It is lenient: a field that fails its check is
//! simply left out, because the validator is where a broken catalog is reported.

use super::super::value::{Map, Value};
use super::operands::slots;
use serde::Serialize;

/// What a manifest says about its mode catalog.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "camelCase")]
pub enum CatalogView {
    /// The manifest has no `modeCatalog` key: the member predates the catalog.
    Absent,
    /// The key is present but not an array of entries (the validator reports why).
    Malformed,
    /// The catalog's entries, in manifest order (entries that are not objects are skipped).
    Present {
        /// One view per entry.
        modes: Vec<ModeView>,
    },
}

/// One catalog entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModeView {
    /// The entry's key (an env-hook's key is its env var).
    pub key: String,
    /// `primary`, `continuation` or `env-hook` (as written, when it is a string).
    pub kind: Option<String>,
    /// The role a primary or continuation belongs to.
    pub role: Option<String>,
    /// The parser mode arm a primary binds.
    pub submode: Option<String>,
    /// The modes an env-hook modifies.
    pub parents: Vec<String>,
    /// One line on what the mode is for.
    pub purpose: Option<String>,
    /// When to reach for it.
    pub when_to_use: Vec<String>,
    /// When not to.
    pub when_not_to: Vec<String>,
    /// The invocation forms, in the order the entry renders them.
    pub forms: Vec<FormView>,
    /// The typed operand slots.
    pub operands: Vec<OperandView>,
    /// The guardrails.
    pub guardrails: Vec<GuardrailView>,
    /// The env-hooks (or, for a raw mode, the entry itself) that modify this mode.
    pub custom_hooks: Vec<String>,
    /// The references that name no form: a field other than the one the entry's kind drives
    /// (`invocations` for a primary, `continue` for a continuation), or an index past its end.
    pub unresolved: Vec<String>,
}

/// One rendered invocation form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FormView {
    /// The form's text.
    pub text: String,
    /// Where it comes from: `roles.<role>.contract.<field>[<i>]`, or `descriptor`.
    pub from: String,
    /// The operand slots the form renders, in order.
    pub slots: Vec<String>,
    /// Whether the form still has slots to fill (a template rather than a ready command).
    pub template: bool,
    /// The slots among [`FormView::slots`] whose operand is declared required.
    pub required: Vec<String>,
}

/// One typed operand slot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OperandView {
    /// The placeholder as rendered in the forms.
    pub slot: String,
    /// Whether the operand must be given.
    pub required: bool,
    /// What goes there.
    pub description: Option<String>,
}

/// One guardrail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GuardrailView {
    /// What the guardrail guarantees.
    pub value: String,
    /// `enforced` or `advisory`.
    pub enforcement: Option<String>,
    /// When it holds, if only under a condition.
    pub condition: Option<String>,
    /// What enforces or states it.
    pub source: Option<String>,
}

/// Reads the catalog of a parsed manifest root.
pub fn catalog_view(root: &Map) -> CatalogView {
    let Some(block) = root.get(super::AT) else {
        return CatalogView::Absent;
    };
    let Some(items) = block.as_array().filter(|a| !a.is_empty()) else {
        return CatalogView::Malformed;
    };
    let roles = root.get("roles").and_then(Value::as_object);
    let modes = items
        .iter()
        .filter_map(Value::as_object)
        .filter_map(|entry| mode(entry, roles))
        .collect();
    CatalogView::Present { modes }
}

/// Parses a manifest's text and reads its catalog; `Err` carries the parser's message.
pub fn catalog_view_of(text: &str) -> Result<CatalogView, String> {
    let root: Value = aw_json::parse_bounded(text)?;
    match root.as_object() {
        Some(obj) => Ok(catalog_view(obj)),
        None => Err("the manifest is not a JSON object".to_owned()),
    }
}

fn text(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str).map(str::to_owned)
}

fn texts(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

fn mode(entry: &Map, roles: Option<&Map>) -> Option<ModeView> {
    let key = entry.get("key").and_then(Value::as_str)?.to_owned();
    let kind = text(entry.get("kind"));
    let role = text(entry.get("role"));
    let operands: Vec<OperandView> = entry
        .get("operands")
        .and_then(Value::as_array)
        .map(|ops| {
            ops.iter()
                .filter_map(Value::as_object)
                .filter_map(|op| {
                    Some(OperandView {
                        slot: op.get("slot").and_then(Value::as_str)?.to_owned(),
                        required: op.get("required").and_then(Value::as_bool) == Some(true),
                        description: text(op.get("description")),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    let (raw, unresolved) = raw_forms(entry, kind.as_deref(), role.as_deref(), roles);
    let forms = raw
        .into_iter()
        .map(|(text, from)| {
            let rendered: Vec<String> = slots(&[text.as_str()])
                .into_iter()
                .map(str::to_owned)
                .collect();
            let required = rendered
                .iter()
                .filter(|s| operands.iter().any(|o| o.required && &o.slot == *s))
                .cloned()
                .collect();
            FormView {
                template: !rendered.is_empty(),
                text,
                from,
                slots: rendered,
                required,
            }
        })
        .collect();
    let guardrails = entry
        .get("guardrails")
        .and_then(Value::as_array)
        .map(|gs| {
            gs.iter()
                .filter_map(Value::as_object)
                .filter_map(|g| {
                    Some(GuardrailView {
                        value: g.get("value").and_then(Value::as_str)?.to_owned(),
                        enforcement: text(g.get("enforcement")),
                        condition: text(g.get("condition")),
                        source: text(g.get("source")),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    Some(ModeView {
        key,
        submode: text(entry.get("submode")),
        parents: texts(entry.get("parents")),
        purpose: text(entry.get("purpose")),
        when_to_use: texts(entry.get("whenToUse")),
        when_not_to: texts(entry.get("whenNotTo")),
        forms,
        operands,
        guardrails,
        custom_hooks: texts(entry.get("customHooks")),
        unresolved,
        kind,
        role,
    })
}

/// The entry's forms with where each comes from: by reference into the role's contract when the
/// role has an object contract (the validator's "contract-backed"), else the literal descriptor;
/// and the references that resolve to no form, as the validator's K5/K6 would flag them.
fn raw_forms(
    entry: &Map,
    kind: Option<&str>,
    role: Option<&str>,
    roles: Option<&Map>,
) -> (Vec<(String, String)>, Vec<String>) {
    let contract = match (kind, role) {
        (Some("env-hook"), _) | (_, None) => None,
        (_, Some(role)) => roles
            .and_then(|r| r.get(role))
            .and_then(|r| r.get("contract"))
            .and_then(Value::as_object)
            .map(|c| (role, c)),
    };
    let Some((role, contract)) = contract else {
        let forms = text(entry.get("descriptor"))
            .map(|d| vec![(d, "descriptor".to_owned())])
            .unwrap_or_default();
        return (forms, Vec::new());
    };
    // A primary drives a mode through an invocation, a continuation resumes one.
    let wanted = match kind {
        Some("continuation") => "continue",
        _ => "invocations",
    };
    let refs = entry
        .get("invocationRefs")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let mut forms = Vec::new();
    let mut unresolved = Vec::new();
    for r in refs {
        let field = r.get("contractField").and_then(Value::as_str);
        let index = r
            .get("index")
            .and_then(Value::as_f64)
            .filter(|i| *i >= 0.0 && i.fract() == 0.0 && *i < 9_007_199_254_740_992.0);
        let shown = format!(
            "roles.{role}.contract.{}[{}]",
            field.unwrap_or("?"),
            // A safe non-negative integer, so the cast is exact.
            index.map_or("?".to_owned(), |i| (i as u64).to_string())
        );
        let form = match (field, index) {
            (Some(f), Some(i)) if f == wanted => contract
                .get(f)
                .and_then(Value::as_array)
                .and_then(|a| a.get(i as usize))
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty()),
            _ => None,
        };
        match form {
            Some(f) => forms.push((f.to_owned(), shown)),
            None => unresolved.push(shown),
        }
    }
    (forms, unresolved)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(text: &str) -> CatalogView {
        catalog_view_of(text).unwrap()
    }

    #[test]
    fn absent_key_is_absent_and_null_is_malformed() {
        assert_eq!(view(r#"{"schema":1}"#), CatalogView::Absent);
        assert_eq!(view(r#"{"modeCatalog":null}"#), CatalogView::Malformed);
        assert_eq!(view(r#"{"modeCatalog":[]}"#), CatalogView::Malformed);
    }

    #[test]
    fn forms_compose_by_reference_and_name_unfilled_required_slots() {
        let v = view(
            r#"{"roles":{"review":{"contract":{"invocations":["rv <file>","rv --all [x]"],"continue":["rv again"]}}},
               "modeCatalog":[
                 {"key":"a","kind":"primary","role":"review","invocationRefs":[{"contractField":"invocations","index":1},{"contractField":"invocations","index":0}],
                  "operands":[{"slot":"<file>","required":true,"description":"d"},{"slot":"[x]","required":false,"description":"e"}]},
                 {"key":"b","kind":"continuation","role":"review","invocationRefs":[{"contractField":"continue","index":0}]},
                 {"key":"H","kind":"env-hook","parents":["a"],"descriptor":"H=1 rv"}]}"#,
        );
        let CatalogView::Present { modes } = v else {
            panic!("present")
        };
        assert_eq!(modes[0].forms[0].text, "rv --all [x]");
        assert_eq!(
            modes[0].forms[0].from,
            "roles.review.contract.invocations[1]"
        );
        assert!(modes[0].forms[0].template);
        assert!(modes[0].forms[0].required.is_empty());
        assert_eq!(modes[0].forms[1].required, vec!["<file>"]);
        assert!(!modes[1].forms[0].template);
        assert_eq!(modes[2].forms[0].from, "descriptor");
        assert_eq!(modes[2].parents, vec!["a"]);
    }
}
