//! Execution results: parsing the reported result of a delegated invocation, and the verdict
//! that decides whether it applies the transition (§10.2, §10.3). A result is accepted only
//! with the sealed invocation, a green validation with a real detail for every evidence id, and
//! every declared effect class applied.

use super::answer::Rejection;
use super::registry::{Action, Invocation, Text};
use crate::error_code::ErrorCode;
use crate::vocab::flow::{EffectClass, Outcome};
use serde_json::{Map, Value};

/// One reported validation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Validation {
    /// The evidence id it proves.
    pub id: String,
    /// Whether it passed.
    pub passed: bool,
    /// What the output showed.
    pub detail: Option<String>,
    /// The checkout proof it carries (checked by the verdict when its evidence asks for one).
    pub proof: Option<super::proof::CheckoutProof>,
}

/// A parsed execution result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecResult {
    /// The reported outcome.
    pub outcome: Outcome,
    /// The validations.
    pub validations: Vec<Validation>,
    /// The classes the invocation applied.
    pub applied: Vec<EffectClass>,
    /// Whether the output declared itself partial.
    pub partial: bool,
}

fn invalid(message: impl Into<String>, action: &str) -> Rejection {
    Rejection::spent(ErrorCode::FlowResultInvalid, message, action)
}

/// Parses a result object against the sealed invocation.
pub fn parse_result(
    obj: &Map<String, Value>,
    sealed: &Invocation,
    submit: &str,
) -> Result<ExecResult, Rejection> {
    let action = format!(
        "Run `{}` and pipe its real result into `{submit}`, shaped as the directive's next_action shows.",
        sealed.command_line()
    );
    let outcome = obj
        .get("outcome")
        .and_then(Value::as_str)
        .and_then(Outcome::parse)
        .ok_or_else(|| {
            invalid(
                "The result's \"outcome\" is not one of completed, needs_input, blocked, failed, cancelled.",
                &action,
            )
        })?;
    let invocation = read_invocation(obj.get("invocation")).ok_or_else(|| {
        invalid(
            "The result does not declare the invocation that was run (\"invocation\": {program, args, target, input}).",
            &action,
        )
    })?;
    if let Some(field) = differing_field(&invocation, sealed) {
        return Err(Rejection::spent(
            ErrorCode::FlowActionMismatch,
            format!("The reported invocation differs from the sealed action in its {field}."),
            format!(
                "Run exactly `{}` (target: {}) and report that invocation.",
                sealed.command_line(),
                sealed.target
            ),
        ));
    }
    let validations = match obj.get("validations") {
        None => Vec::new(),
        Some(v) => read_validations(v).ok_or_else(|| {
            invalid(
                "\"validations\" must be a list of {id, passed, detail}.",
                &action,
            )
        })?,
    };
    let applied = obj
        .get("effects")
        .and_then(Value::as_object)
        .and_then(|e| {
            for key in ["planned", "approved"] {
                classes(e.get(key))?;
            }
            classes(e.get("applied"))
        })
        .ok_or_else(|| {
            invalid(
                "\"effects\" must be an object whose planned, approved and applied lists hold effect classes.",
                &action,
            )
        })?;
    let partial = match obj.get("output") {
        None | Some(Value::Null) => false,
        Some(Value::Object(o)) => read_output(o).ok_or_else(|| {
            invalid(
                "\"output\" must be {value?, reference?, completeness?} with completeness complete or partial.",
                &action,
            )
        })?,
        Some(_) => return Err(invalid("\"output\" must be an object or null.", &action)),
    };
    Ok(ExecResult {
        outcome,
        validations,
        applied,
        partial,
    })
}

fn read_invocation(v: Option<&Value>) -> Option<Invocation> {
    let o = v?.as_object()?;
    let nonblank = |k: &str| {
        o.get(k)
            .and_then(Value::as_str)
            .filter(|s| !s.trim().is_empty())
            .map(str::to_owned)
    };
    Some(Invocation {
        program: nonblank("program")?.into(),
        target: nonblank("target")?.into(),
        args: o
            .get("args")?
            .as_array()?
            .iter()
            .map(|a| a.as_str().map(|a| Text::from(a.to_owned())))
            .collect::<Option<Vec<_>>>()?
            .into(),
        input: match o.get("input") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone().into()),
            Some(_) => return None,
        },
    })
}

fn differing_field(got: &Invocation, sealed: &Invocation) -> Option<&'static str> {
    if got.program != sealed.program {
        Some("program")
    } else if got.args != sealed.args {
        Some("arguments")
    } else if got.target != sealed.target {
        Some("target")
    } else if got.input != sealed.input {
        Some("input")
    } else {
        None
    }
}

fn read_validations(v: &Value) -> Option<Vec<Validation>> {
    v.as_array()?
        .iter()
        .map(|item| {
            let o = item.as_object()?;
            Some(Validation {
                id: o.get("id")?.as_str()?.to_owned(),
                passed: o.get("passed")?.as_bool()?,
                detail: match o.get("detail") {
                    None | Some(Value::Null) => None,
                    Some(Value::String(s)) => Some(s.clone()),
                    Some(_) => return None,
                },
                proof: super::proof::validation_proof(o).ok()?,
            })
        })
        .collect()
}

fn classes(v: Option<&Value>) -> Option<Vec<EffectClass>> {
    match v {
        None => Some(Vec::new()),
        Some(v) => v
            .as_array()?
            .iter()
            .map(|c| c.as_str().and_then(EffectClass::parse))
            .collect(),
    }
}

/// Whether the output is declared partial; `None` when it is malformed.
fn read_output(o: &Map<String, Value>) -> Option<bool> {
    let partial = match o.get("completeness") {
        None | Some(Value::Null) => false,
        Some(Value::String(s)) if s == "complete" => false,
        Some(Value::String(s)) if s == "partial" => true,
        Some(_) => return None,
    };
    match o.get("reference") {
        None | Some(Value::Null) => {}
        Some(Value::Object(r)) => {
            for k in ["id", "digest", "locator"] {
                r.get(k)?.as_str()?;
            }
            match r.get("revision") {
                None | Some(Value::Null) => {}
                Some(n) => {
                    let f = n.as_f64()?;
                    if f.fract() != 0.0 {
                        return None;
                    }
                }
            }
        }
        Some(_) => return None,
    }
    Some(partial)
}

/// The verdict on a parsed result: `Ok` when it applies the transition. In order: the outcome,
/// the evidence, the checkout proofs (`proof`), then every `declared` class applied and the
/// output complete.
pub fn verdict(
    result: &ExecResult,
    declared: &[EffectClass],
    action: &Action,
    proof: &dyn Fn(&ExecResult) -> Result<(), Rejection>,
) -> Result<(), Rejection> {
    if result.outcome != Outcome::Completed {
        return Err(Rejection::spent(
            ErrorCode::FlowExecutionNotCompleted,
            format!(
                "The invocation came back '{}': the step stays pending.",
                result.outcome.as_str()
            ),
            action.recovery.clone(),
        )
        .with_outcome(result.outcome));
    }
    let missing: Vec<&str> = action
        .evidence
        .iter()
        .filter(|id| {
            !result
                .validations
                .iter()
                .find(|v| &v.id == *id)
                .is_some_and(|v| {
                    v.passed && v.detail.as_deref().is_some_and(|d| !d.trim().is_empty())
                })
        })
        .map(|id| id.as_ref())
        .collect();
    if !missing.is_empty() {
        return Err(Rejection::spent(
            ErrorCode::FlowEvidenceMissing,
            format!(
                "The real evidence of {} is missing: each needs a passed validation with a detail from the output.",
                missing.join(", ")
            ),
            format!(
                "Report a validation per evidence id with passed true and the detail the output showed. {}",
                super::request::capitalized(&action.recovery)
            ),
        ));
    }
    proof(result)?;
    let unapplied: Vec<EffectClass> = declared
        .iter()
        .copied()
        .filter(|c| !result.applied.contains(c))
        .collect();
    if !unapplied.is_empty() {
        return Err(Rejection::spent(
            ErrorCode::FlowEffectPartial,
            format!(
                "The result does not report {} as applied: the step's effects are incomplete.",
                EffectClass::join(&unapplied)
            ),
            super::request::capitalized(&action.recovery),
        ));
    }
    if result.partial {
        return Err(Rejection::spent(
            ErrorCode::FlowEffectPartial,
            "The result declares its output partial: the step's effects are incomplete.",
            super::request::capitalized(&action.recovery),
        ));
    }
    Ok(())
}
