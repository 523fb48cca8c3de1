//! Reading a run state, fail-closed, in the reference v22's order (flow-spec-v22 §3.3): empty,
//! JSON, object, version, shape, seal — and then one check the reference lacks: the state must
//! belong to the session folder it was read from.
//!
//! Versions 9, 8 and 7 read as they are (an absent optional field is the conservative reading:
//! no floor, nothing forgiven, nothing degraded) and are written back as 9. A version-4 state
//! (v21's, and aw's before v22) is read by its own rules and upgraded in memory — no scope, no
//! trace, no proposal, no boundary and no pending action (the next `advance` recomputes both),
//! and its class-wide approvals dropped, since they cannot be scoped to a seal — provided its
//! journey can still go on (see [`super::journey::Journey::check`]).

use super::error::{FlowError, FlowResult};
use super::next_action::adopt_command;
use super::state::{
    Attempt, Degradation, EffectLedger, Grant, KNOWN_KEYS, LEGACY_VERSION, Observation,
    PendingAction, READABLE_VERSIONS, RUN_STATE_VERSION, RunState, Scope,
};
use crate::canonical::{parse_json, semantic_digest};
use crate::error_code::ErrorCode;
use crate::vocab::flow::{EffectClass, Flow};
use aw_json::js::js_string;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// What to do about a state that cannot be used.
fn discard(folder: &str, flow: Option<Flow>) -> String {
    format!(
        "Nothing was changed. Restore .flow-run.json from a copy, or start the run over: `{}` \
         replaces it with a fresh run from the beginning of the journey.",
        adopt_command(folder, flow)
    )
}

struct Reader<'a> {
    folder: &'a str,
    flow: Option<Flow>,
}

impl Reader<'_> {
    fn invalid(&self, why: impl Into<String>) -> FlowError {
        FlowError::new(
            ErrorCode::FlowRunInvalid,
            format!("The run state is unusable: {}.", why.into()),
            discard(self.folder, self.flow),
        )
    }
}

/// Parses the text of `.flow-run.json` read from session folder `folder`.
pub fn parse_state(text: &str, folder: &str) -> FlowResult<RunState> {
    let mut r = Reader { folder, flow: None };
    if text.trim().is_empty() {
        return Err(r.invalid("the file is empty"));
    }
    let value = parse_json(text).map_err(|e| r.invalid(format!("it is not valid JSON ({e})")))?;
    let Value::Object(obj) = value else {
        return Err(r.invalid("it is not a JSON object"));
    };
    r.flow = flow_of(&obj);
    let version = obj.get("version");
    let legacy = match version.and_then(Value::as_f64) {
        Some(v) if READABLE_VERSIONS.iter().any(|r| *r as f64 == v) => false,
        Some(v) if v == LEGACY_VERSION as f64 => true,
        _ => {
            let shown = version.map_or("none".to_owned(), js_string);
            return Err(FlowError::new(
                ErrorCode::FlowRunVersionUnsupported,
                format!(
                    "The run state has version {shown}; this aw reads versions 9, 8, 7 and 4 and \
                     writes {RUN_STATE_VERSION}."
                ),
                format!(
                    "Update aw if a newer one wrote it. There is no automatic migration: {}",
                    discard(folder, r.flow)
                ),
            ));
        }
    };
    let mut state = if legacy {
        shape_v4(&obj, &r)?
    } else {
        shape(&obj, &r)?
    };
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
            discard(folder, r.flow),
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
            discard(folder, r.flow),
        ));
    }
    state.legacy = legacy;
    Ok(state)
}

/// The refusal of a version-4 run whose journey cannot go on under this registry: the steps it
/// applied are not where the current journey has them.
pub fn legacy_cannot_continue(state: &RunState, at: usize) -> FlowError {
    FlowError::new(
        ErrorCode::FlowRunVersionUnsupported,
        format!(
            "The run state of session '{}' has version {LEGACY_VERSION} and went past step {} of \
             its journey, where the current '{}' journey differs: it cannot be continued.",
            state.session,
            at + 1,
            state.flow.as_str()
        ),
        format!(
            "Start the run over: `{}` replaces the old state with a fresh run (the session's \
             documents are untouched; the steps the CLI decides are re-applied by themselves).",
            adopt_command(&state.session, Some(state.flow))
        ),
    )
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

fn is_bool(v: Option<&Value>) -> bool {
    v.is_some_and(Value::is_boolean)
}

/// The cursor half shared by both versions: flow, session, applied, skipped, boundary.
struct Cursor {
    flow: Flow,
    session: String,
    applied: Vec<String>,
    skipped: Vec<String>,
    boundary: Option<String>,
}

fn flow_and_session(obj: &Map<String, Value>, r: &Reader<'_>) -> FlowResult<(Flow, String)> {
    let flow =
        flow_of(obj).ok_or_else(|| r.invalid(format!("`flow` is not one of {}", Flow::list())))?;
    let session = obj
        .get("session")
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
        .ok_or_else(|| r.invalid("`session` is not a non-blank string"))?
        .to_owned();
    Ok((flow, session))
}

fn cursor(
    obj: &Map<String, Value>,
    r: &Reader<'_>,
    flow: Flow,
    session: String,
) -> FlowResult<Cursor> {
    let applied = strings(obj.get("applied"))
        .ok_or_else(|| r.invalid("`applied` is not a list of strings"))?;
    let skipped = strings(obj.get("skipped"))
        .ok_or_else(|| r.invalid("`skipped` is not a list of strings"))?;
    if let Some(s) = skipped.iter().find(|s| !applied.contains(s)) {
        return Err(r.invalid(format!("skipped step '{s}' is not in `applied`")));
    }
    let boundary = match obj.get("boundary") {
        Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        _ => return Err(r.invalid("`boundary` is neither null nor a string")),
    };
    Ok(Cursor {
        flow,
        session,
        applied,
        skipped,
        boundary,
    })
}

fn observations(obj: &Map<String, Value>, r: &Reader<'_>) -> FlowResult<Vec<Observation>> {
    obj.get("observations")
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
        .ok_or_else(|| r.invalid("`observations` is not a list of {transition, signals}"))
}

fn ledger(obj: &Map<String, Value>, r: &Reader<'_>) -> FlowResult<EffectLedger> {
    obj.get("effects")
        .and_then(Value::as_object)
        .and_then(|e| {
            Some(EffectLedger {
                planned: effect_classes(e.get("planned"))?,
                approved: effect_classes(e.get("approved"))?,
                applied: effect_classes(e.get("applied"))?,
            })
        })
        .ok_or_else(|| r.invalid("`effects` is not {planned, approved, applied} of effect classes"))
}

fn attempts(obj: &Map<String, Value>, r: &Reader<'_>) -> FlowResult<Vec<Attempt>> {
    obj.get("attempts")
        .and_then(Value::as_array)
        .and_then(|list| list.iter().map(attempt).collect::<Option<Vec<_>>>())
        .ok_or_else(|| r.invalid("`attempts` holds a malformed entry"))
}

fn counter_map(v: Option<&Value>) -> Option<BTreeMap<String, i64>> {
    match v {
        None => Some(BTreeMap::new()),
        Some(v) => v.as_object().and_then(|m| {
            m.iter()
                .map(|(t, n)| Some((t.clone(), integer(Some(n)).filter(|n| *n >= 0)?)))
                .collect()
        }),
    }
}

fn extra(obj: &Map<String, Value>, known: &[&str]) -> Map<String, Value> {
    obj.iter()
        .filter(|(k, _)| !known.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

fn is_scope(v: &Value) -> Option<Option<Scope>> {
    match v {
        Value::Null => Some(None),
        Value::Object(m) => {
            let plan = m.get("plan")?.as_str().filter(|p| !p.trim().is_empty())?;
            let sources = strings(m.get("sources"))?;
            (!sources.is_empty() && sources.iter().all(|s| !s.trim().is_empty())).then(|| {
                Some(Scope {
                    plan: plan.to_owned(),
                    sources,
                })
            })
        }
        _ => None,
    }
}

fn is_event(e: &Value) -> bool {
    let Some(m) = e.as_object() else {
        return false;
    };
    let text = |k: &str| m.get(k).is_some_and(Value::is_string);
    if !text("transition") || !text("operation") {
        return false;
    }
    match m.get("kind").and_then(Value::as_str) {
        Some("executed") => {
            text("summary")
                && text("output_digest")
                && effect_classes(m.get("effects")).is_some()
                && strings(m.get("evidence")).is_some()
        }
        Some("failed") => {
            text("code")
                && text("message")
                && text("recovery")
                && (m.get("effects").is_none() || effect_classes(m.get("effects")).is_some())
        }
        _ => false,
    }
}

fn grant(g: &Value) -> Option<Grant> {
    Some(Grant {
        digest: g
            .get("digest")?
            .as_str()
            .filter(|d| !d.is_empty())?
            .to_owned(),
        destinations: strings(g.get("destinations"))?,
        classes: effect_classes(g.get("classes"))?,
    })
}

fn is_proposal(p: &Value) -> bool {
    let Some(m) = p.as_object() else {
        return false;
    };
    let artifacts = m
        .get("artifacts")
        .and_then(Value::as_array)
        .is_some_and(|a| {
            !a.is_empty()
                && a.iter().all(|x| {
                    x.get("path").is_some_and(Value::is_string)
                        && x.get("content").is_some_and(Value::is_string)
                        && is_bool(x.get("overwrite"))
                })
        });
    let bases = m.get("bases").and_then(Value::as_array).is_some_and(|b| {
        b.iter().all(|x| {
            x.get("path").is_some_and(Value::is_string)
                && x.get("digest").is_some_and(Value::is_string)
        })
    });
    let scope = m
        .get("scope")
        .is_some_and(|s| is_bool(s.get("sensitive_sources")) && is_bool(s.get("scope_expanded")));
    m.get("operation").is_some_and(Value::is_string)
        && m.get("digest").is_some_and(Value::is_string)
        && artifacts
        && bases
        && scope
        && effect_classes(m.get("effects")).is_some()
        && effect_classes(m.get("requires_approval")).is_some()
}

/// The shape of a version 7, 8 or 9 state, checked in the reference's order.
fn shape(obj: &Map<String, Value>, r: &Reader<'_>) -> FlowResult<RunState> {
    let (flow, session) = flow_and_session(obj, r)?;
    let scope = obj
        .get("scope")
        .and_then(is_scope)
        .ok_or_else(|| r.invalid("`scope` is neither null nor a plan with at least one source"))?;
    let c = cursor(obj, r, flow, session)?;
    let pending_action = match obj.get("pending_action") {
        Some(Value::Null) => None,
        Some(Value::Object(p)) => match (
            p.get("transition").and_then(Value::as_str),
            p.get("digest").and_then(Value::as_str),
            p.get("attempted").and_then(Value::as_bool),
        ) {
            (Some(t), Some(d), Some(attempted)) => Some(PendingAction {
                transition: t.to_owned(),
                digest: d.to_owned(),
                attempted,
            }),
            _ => {
                return Err(r.invalid(
                    "`pending_action` lacks its transition, its digest or its `attempted` mark",
                ));
            }
        },
        _ => return Err(r.invalid("`pending_action` is neither null nor an object")),
    };
    let observations = observations(obj, r)?;
    let events = obj
        .get("events")
        .and_then(Value::as_array)
        .filter(|list| list.iter().all(is_event))
        .cloned()
        .ok_or_else(|| r.invalid("`events` holds an incomplete event"))?;
    let authorizations = obj
        .get("authorizations")
        .and_then(Value::as_array)
        .and_then(|list| list.iter().map(grant).collect::<Option<Vec<_>>>())
        .ok_or_else(|| {
            r.invalid("`authorizations` holds a grant without the seal it was given over")
        })?;
    let proposal = match obj.get("proposal") {
        Some(Value::Null) => None,
        Some(p) if is_proposal(p) => Some(p.clone()),
        _ => return Err(r.invalid("`proposal` lacks its bytes, its destinations or its seal")),
    };
    let effects = ledger(obj, r)?;
    let attempts = attempts(obj, r)?;
    let degraded = match obj.get("degraded") {
        None => None,
        Some(v) => Some(
            v.as_array()
                .and_then(|list| {
                    list.iter()
                        .map(|d| {
                            Some(Degradation {
                                transition: d.get("transition")?.as_str()?.to_owned(),
                                cause: d
                                    .get("cause")?
                                    .as_str()
                                    .filter(|c| !c.trim().is_empty())?
                                    .to_owned(),
                            })
                        })
                        .collect::<Option<Vec<_>>>()
                })
                .ok_or_else(|| {
                    r.invalid("`degraded` holds an entry without its step or its cause")
                })?,
        ),
    };
    if let Some(d) = degraded
        .iter()
        .flatten()
        .find(|d| !c.skipped.contains(&d.transition))
    {
        return Err(r.invalid(format!(
            "degraded step '{}' was never passed over",
            d.transition
        )));
    }
    let (Some(floor), Some(granted)) = (
        counter_map(obj.get("attempt_floor")),
        counter_map(obj.get("attempt_grants")),
    ) else {
        return Err(r.invalid("`attempt_floor` or `attempt_grants` is not a count per transition"));
    };
    if !obj.get("digest").is_some_and(Value::is_string) {
        return Err(r.invalid("`digest` is not a string"));
    }
    Ok(RunState {
        flow: c.flow,
        session: c.session,
        scope,
        applied: c.applied,
        skipped: c.skipped,
        boundary: c.boundary,
        pending_action,
        observations,
        events,
        authorizations,
        proposal,
        effects,
        attempts,
        degraded,
        floor,
        granted,
        extra: extra(obj, &KNOWN_KEYS),
        legacy: false,
    })
}

/// The keys of a version-4 state, aw's `attempt_grants` and `attempt_floor` included.
const V4_KEYS: [&str; 14] = [
    "version",
    "flow",
    "session",
    "applied",
    "skipped",
    "boundary",
    "pending_action",
    "observations",
    "authorizations",
    "effects",
    "attempts",
    "attempt_grants",
    "attempt_floor",
    "digest",
];

/// The shape of a version-4 state, by its own rules, upgraded to the current fields.
fn shape_v4(obj: &Map<String, Value>, r: &Reader<'_>) -> FlowResult<RunState> {
    let (flow, session) = flow_and_session(obj, r)?;
    let c = cursor(obj, r, flow, session)?;
    match obj.get("pending_action") {
        Some(Value::Null) => {}
        Some(Value::Object(p))
            if p.get("transition").is_some_and(Value::is_string)
                && p.get("digest").is_some_and(Value::is_string) => {}
        _ => return Err(r.invalid("`pending_action` is neither null nor {transition, digest}")),
    }
    let observations = observations(obj, r)?;
    effect_classes(obj.get("authorizations"))
        .ok_or_else(|| r.invalid("`authorizations` is not a list of effect classes"))?;
    let effects = ledger(obj, r)?;
    let attempts = attempts(obj, r)?;
    // aw's version-4 grants: a list of {transition, attempts}, the largest per transition.
    let mut granted = BTreeMap::new();
    if let Some(v) = obj.get("attempt_grants") {
        let list = v
            .as_array()
            .and_then(|list| {
                list.iter()
                    .map(|g| {
                        Some((
                            g.get("transition")?.as_str()?.to_owned(),
                            integer(g.get("attempts")).filter(|n| *n >= 0)?,
                        ))
                    })
                    .collect::<Option<Vec<_>>>()
            })
            .ok_or_else(|| r.invalid("`attempt_grants` holds a malformed entry"))?;
        for (t, n) in list {
            let e: &mut i64 = granted.entry(t).or_default();
            *e = (*e).max(n);
        }
    }
    let floor = counter_map(obj.get("attempt_floor"))
        .ok_or_else(|| r.invalid("`attempt_floor` is not a map of attempt counts"))?;
    if !obj.get("digest").is_some_and(Value::is_string) {
        return Err(r.invalid("`digest` is not a string"));
    }
    Ok(RunState {
        flow: c.flow,
        session: c.session,
        scope: None,
        applied: c.applied,
        skipped: c.skipped,
        // The next advance recomputes the boundary and its action.
        boundary: None,
        pending_action: None,
        observations,
        events: Vec::new(),
        // Class-wide approvals cannot be scoped to a seal: what custody does not cover is asked
        // again.
        authorizations: Vec::new(),
        proposal: None,
        effects,
        attempts,
        degraded: None,
        floor,
        granted,
        extra: extra(obj, &V4_KEYS),
        legacy: true,
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
