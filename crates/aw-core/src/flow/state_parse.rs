//! Reading a run state, fail-closed, in the reference's order (§4.4): empty, JSON, object,
//! version, shape, seal — and then one check the reference lacked: the state must belong to
//! the session folder it was read from.

use super::error::{FlowError, FlowResult};
use super::next_action::adopt_command;
use super::state::{
    Attempt, AttemptGrant, EffectLedger, KNOWN_KEYS, Observation, PendingAction, RUN_STATE_VERSION,
    RunState,
};
use crate::canonical::{parse_json, semantic_digest};
use crate::error_code::ErrorCode;
use crate::vocab::flow::{EffectClass, Flow};
use aw_json::js::js_string;
use serde_json::{Map, Value};

/// What to do about a state that cannot be used.
const DISCARD: &str = "Nothing was changed. Move .flow-run.json out of the session folder and adopt the session \
     again with `aw flow advance --session <session> --flow <flow> --adopt`; the run restarts \
     from the beginning of its journey.";

fn invalid(why: impl Into<String>) -> FlowError {
    FlowError::new(
        ErrorCode::FlowRunInvalid,
        format!("The run state is unusable: {}.", why.into()),
        DISCARD,
    )
}

/// Parses the text of `.flow-run.json` read from session folder `folder`.
pub fn parse_state(text: &str, folder: &str) -> FlowResult<RunState> {
    if text.trim().is_empty() {
        return Err(invalid("the file is empty"));
    }
    let value = parse_json(text).map_err(|e| invalid(format!("it is not valid JSON ({e})")))?;
    let Value::Object(obj) = value else {
        return Err(invalid("it is not a JSON object"));
    };
    let version = obj.get("version");
    if let Some(v) = reference_v22_version_of(&obj) {
        return Err(written_by_reference_v22(v, &obj, folder));
    }
    if version.and_then(Value::as_f64) != Some(f64::from(RUN_STATE_VERSION)) {
        let shown = version.map_or("none".to_owned(), js_string);
        return Err(FlowError::new(
            ErrorCode::FlowRunVersionUnsupported,
            format!(
                "The run state has version {shown}; this aw reads version {RUN_STATE_VERSION} only."
            ),
            "There is no automatic migration. Move .flow-run.json out of the session folder and \
             adopt the session again with `aw flow advance --session <session> --flow <flow> --adopt`.",
        ));
    }
    let state = shape(&obj)?;
    let claimed = obj
        .get("digest")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let mut unsealed = obj.clone();
    unsealed.remove("digest");
    if semantic_digest(&Value::Object(unsealed)) != claimed {
        return Err(FlowError::new(
            ErrorCode::FlowRunTampered,
            "The run state does not match its own seal: it was edited outside aw.",
            DISCARD,
        ));
    }
    if state.session != folder {
        return Err(FlowError::new(
            ErrorCode::FlowRunSessionMismatch,
            format!(
                "The run state in session folder '{folder}' belongs to session '{}': it was copied \
                 from another session.",
                state.session
            ),
            DISCARD,
        ));
    }
    Ok(state)
}

/// The run-state versions the reference CLI v22 reads (it writes the last).
pub const REFERENCE_V22_VERSIONS: [u64; 3] = [7, 8, 9];

/// When `text` is a run state written by the reference CLI v22, its version. Such a state is not
/// readable here, but it is not damaged either: adoption may set it aside (see
/// [`set_aside_name`]) instead of asking the user to move it.
pub fn reference_v22_version(text: &str) -> Option<u64> {
    match parse_json(text).ok()? {
        Value::Object(obj) => reference_v22_version_of(&obj),
        _ => None,
    }
}

fn reference_v22_version_of(obj: &Map<String, Value>) -> Option<u64> {
    obj.get("version")
        .and_then(Value::as_u64)
        .filter(|v| REFERENCE_V22_VERSIONS.contains(v))
}

/// The file a v22 state of `version` is kept under when adoption sets it aside, the `n`th such
/// name (`n` = 0 first; later ones never overwrite an earlier copy).
pub fn set_aside_name(version: u64, n: u32) -> String {
    match n {
        0 => format!(".flow-run.v{version}.json"),
        n => format!(".flow-run.v{version}.{n}.json"),
    }
}

/// The flow a state's text names, when it is one aw knows (whatever else the text holds): it is
/// shown in the command that adopts the session again, and trusted for nothing more.
pub fn flow_named_in(text: &str) -> Option<Flow> {
    match parse_json(text).ok()? {
        Value::Object(obj) => flow_of(&obj),
        _ => None,
    }
}

fn flow_of(obj: &Map<String, Value>) -> Option<Flow> {
    obj.get("flow")
        .and_then(Value::as_str)
        .and_then(Flow::parse)
}

fn written_by_reference_v22(version: u64, obj: &Map<String, Value>, folder: &str) -> FlowError {
    let command = adopt_command(folder, flow_of(obj));
    FlowError::new(
        ErrorCode::FlowRunVersionUnsupported,
        format!(
            "The run state of session '{folder}' was written by the reference CLI v22 (state \
             version {version}); this aw reads version {RUN_STATE_VERSION}. The session's documents \
             are intact: only the run's progress is in that file."
        ),
        format!(
            "Adopt the session again: `{command}`. The old state is kept beside it as {} (or \
             the next free .flow-run.v{version}.<n>.json; renamed, never deleted), and the run \
             restarts from the beginning of its journey, re-applying the steps the CLI decides \
             itself.",
            set_aside_name(version, 0)
        ),
    )
}

fn strings(v: Option<&Value>) -> Option<Vec<String>> {
    v?.as_array()?
        .iter()
        .map(|s| s.as_str().map(str::to_owned))
        .collect()
}

fn effect_classes(v: Option<&Value>) -> Option<Vec<EffectClass>> {
    v?.as_array()?
        .iter()
        .map(|s| s.as_str().and_then(EffectClass::parse))
        .collect()
}

fn integer(v: Option<&Value>) -> Option<i64> {
    let v = v?;
    if let Some(i) = v.as_i64() {
        return Some(i);
    }
    let f = v.as_f64()?;
    // JS `Number.isInteger`: 1.0 is an integer.
    (f.fract() == 0.0 && f.abs() < 9.0e15).then_some(f as i64)
}

fn shape(obj: &Map<String, Value>) -> FlowResult<RunState> {
    let flow = obj
        .get("flow")
        .and_then(Value::as_str)
        .and_then(Flow::parse)
        .ok_or_else(|| invalid(format!("`flow` is not one of {}", Flow::list())))?;
    let session = obj
        .get("session")
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
        .ok_or_else(|| invalid("`session` is not a non-blank string"))?
        .to_owned();
    let applied =
        strings(obj.get("applied")).ok_or_else(|| invalid("`applied` is not a list of strings"))?;
    let skipped =
        strings(obj.get("skipped")).ok_or_else(|| invalid("`skipped` is not a list of strings"))?;
    if let Some(s) = skipped.iter().find(|s| !applied.contains(s)) {
        return Err(invalid(format!("skipped step '{s}' is not in `applied`")));
    }
    let boundary = match obj.get("boundary") {
        Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        _ => return Err(invalid("`boundary` is neither null nor a string")),
    };
    let pending_action = match obj.get("pending_action") {
        Some(Value::Null) => None,
        Some(Value::Object(p)) => match (
            p.get("transition").and_then(Value::as_str),
            p.get("digest").and_then(Value::as_str),
        ) {
            (Some(t), Some(d)) => Some(PendingAction {
                transition: t.to_owned(),
                digest: d.to_owned(),
            }),
            _ => return Err(invalid("`pending_action` lacks its transition or digest")),
        },
        _ => return Err(invalid("`pending_action` is neither null nor an object")),
    };
    let observations = obj
        .get("observations")
        .and_then(Value::as_array)
        .and_then(|list| {
            list.iter()
                .map(|o| {
                    Some(Observation {
                        transition: o.get("transition")?.as_str()?.to_owned(),
                        signals: strings(o.get("signals"))?,
                    })
                })
                .collect::<Option<Vec<_>>>()
        })
        .ok_or_else(|| invalid("`observations` is not a list of {transition, signals}"))?;
    let authorizations = effect_classes(obj.get("authorizations"))
        .ok_or_else(|| invalid("`authorizations` is not a list of effect classes"))?;
    let effects = obj
        .get("effects")
        .and_then(Value::as_object)
        .and_then(|e| {
            Some(EffectLedger {
                planned: effect_classes(e.get("planned"))?,
                approved: effect_classes(e.get("approved"))?,
                applied: effect_classes(e.get("applied"))?,
            })
        })
        .ok_or_else(|| {
            invalid("`effects` is not {planned, approved, applied} of effect classes")
        })?;
    let attempts = obj
        .get("attempts")
        .and_then(Value::as_array)
        .and_then(|list| list.iter().map(attempt).collect::<Option<Vec<_>>>())
        .ok_or_else(|| invalid("`attempts` holds a malformed entry"))?;
    let grants = match obj.get("attempt_grants") {
        None => Vec::new(),
        Some(v) => v
            .as_array()
            .and_then(|list| {
                list.iter()
                    .map(|g| {
                        Some(AttemptGrant {
                            transition: g.get("transition")?.as_str()?.to_owned(),
                            attempts: integer(g.get("attempts")).filter(|n| *n >= 0)?,
                        })
                    })
                    .collect::<Option<Vec<_>>>()
            })
            .ok_or_else(|| invalid("`attempt_grants` holds a malformed entry"))?,
    };
    let floor = match obj.get("attempt_floor") {
        None => Default::default(),
        Some(v) => v
            .as_object()
            .and_then(|m| {
                m.iter()
                    .map(|(t, n)| Some((t.clone(), integer(Some(n)).filter(|n| *n >= 0)?)))
                    .collect::<Option<std::collections::BTreeMap<_, _>>>()
            })
            .ok_or_else(|| invalid("`attempt_floor` is not a map of attempt counts"))?,
    };
    if !obj.get("digest").is_some_and(Value::is_string) {
        return Err(invalid("`digest` is not a string"));
    }
    let extra = obj
        .iter()
        .filter(|(k, _)| !KNOWN_KEYS.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Ok(RunState {
        flow,
        session,
        applied,
        skipped,
        boundary,
        pending_action,
        observations,
        authorizations,
        effects,
        attempts,
        grants,
        floor,
        extra,
    })
}

fn attempt(v: &Value) -> Option<Attempt> {
    Some(Attempt {
        invocation_id: v.get("invocation_id")?.as_str()?.to_owned(),
        attempt: integer(v.get("attempt"))?,
        request_digest: v.get("request_digest")?.as_str()?.to_owned(),
        parent_request_digest: match v.get("parent_request_digest") {
            Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            _ => return None,
        },
        transition: v.get("transition")?.as_str()?.to_owned(),
    })
}
