//! The run state (`.flow-run.json`, version 9, the reference v22's): the cursor, the skipped and
//! degraded steps, the boundary in force, the sealed pending action, the observations, the
//! material trace of what actions did, the per-seal grants, the seated proposal, the effect
//! ledger and the attempt history, sealed with the semantic digest of everything else.
//!
//! The file is `canonical_json(state) + "\n"`. Keys aw does not know are kept and sealed, as the
//! reference keeps them (its `continuation`, which nothing writes yet, is one of them). Versions 7
//! and 8 read as-is and are written back as 9; a version-4 run (v21's and older aw's) is upgraded
//! when it can still be continued (see [`super::state_parse`]).

use crate::canonical::{canonical_json, semantic_digest};
use crate::vocab::flow::{EffectClass, Flow};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// The state version this engine writes.
pub const RUN_STATE_VERSION: u32 = 9;
/// The versions it reads as they are (the reference v22.4.2's set).
pub const READABLE_VERSIONS: [u64; 3] = [9, 8, 7];
/// The version of v21 and of aw before v22, upgraded on reading when its run can go on.
pub const LEGACY_VERSION: u64 = 4;
/// The state file's name inside a session folder.
pub const RUN_STATE_FILE: &str = ".flow-run.json";

/// The seal of the delegated action emitted at an execution boundary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingAction {
    /// The transition it belongs to.
    pub transition: String,
    /// Its action digest.
    pub digest: String,
    /// Whether the run already began running it in-process (an internal action): a crash
    /// after this mark is re-entered by running it again.
    pub attempted: bool,
}

/// The signals validated at one agent row, once per answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observation {
    /// The row.
    pub transition: String,
    /// The signals declared there.
    pub signals: Vec<String>,
}

/// What a `plan-exec` run isolates: its plan and the source aliases it edits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope {
    /// The plan's workspace-relative path.
    pub plan: String,
    /// The aliases, at least one.
    pub sources: Vec<String>,
}

/// An approval, valid only for the seal it was given over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    /// The seal: an approval digest, or a proposal's digest.
    pub digest: String,
    /// The paths it covers (a proposal's), else empty.
    pub destinations: Vec<String>,
    /// The classes approved.
    pub classes: Vec<EffectClass>,
}

/// A step passed over after it used up its attempts, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Degradation {
    /// The step.
    pub transition: String,
    /// Why it was passed over.
    pub cause: String,
}

/// The effect ledger (set semantics, insertion order).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EffectLedger {
    /// Classes the run planned.
    pub planned: Vec<EffectClass>,
    /// Classes a person approved.
    pub approved: Vec<EffectClass>,
    /// Classes applying a transition exercised.
    pub applied: Vec<EffectClass>,
}

/// One recorded submit attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    /// The seal the payload claimed to answer (or the seal in force when it claimed none).
    pub invocation_id: String,
    /// The attempt number within that invocation id.
    pub attempt: i64,
    /// The digest of the exact payload and approval.
    pub request_digest: String,
    /// The digest of the attempt numbered one less (`None` for the first).
    pub parent_request_digest: Option<String>,
    /// The boundary it answered.
    pub transition: String,
}

/// The run state.
#[derive(Debug, Clone, PartialEq)]
pub struct RunState {
    /// The journey walked.
    pub flow: Flow,
    /// The session folder.
    pub session: String,
    /// What the run isolates, once a `scopes_sources` row fixed it.
    pub scope: Option<Scope>,
    /// Passed transitions in order: the cursor (skipped ones included).
    pub applied: Vec<String>,
    /// The subset of `applied` passed over without applying.
    pub skipped: Vec<String>,
    /// The transition the run stands on (`None` before the first advance and when final).
    pub boundary: Option<String>,
    /// The emitted action's seal at an execution boundary.
    pub pending_action: Option<PendingAction>,
    /// Validated signals, one entry per answer (an exact repeat is not added).
    pub observations: Vec<Observation>,
    /// The material trace: `executed` and `failed` events, as written (see [`event`]).
    pub events: Vec<Value>,
    /// Approvals, each scoped to its seal.
    pub authorizations: Vec<Grant>,
    /// The seated local proposal awaiting its decision or publication, as written.
    pub proposal: Option<Value>,
    /// The effect ledger.
    pub effects: EffectLedger,
    /// Every recorded attempt.
    pub attempts: Vec<Attempt>,
    /// Steps degraded after exhausting their attempts (`None`: the key is absent).
    pub degraded: Option<Vec<Degradation>>,
    /// `attempt_floor`: per transition, the attempts the sidecar counter held when the state
    /// was written — a floor under the ledger, so a restored older state cannot lower the count.
    pub floor: BTreeMap<String, i64>,
    /// `attempt_grants`: per transition, the attempts `aw flow recover` gave back in all.
    pub granted: BTreeMap<String, i64>,
    /// Keys this engine does not know, kept as read (they are covered by the seal).
    pub extra: Map<String, Value>,
    /// Read from a version-4 file: the journey check decides whether it can go on.
    pub legacy: bool,
}

/// The keys of the version-9 state.
pub const KNOWN_KEYS: [&str; 18] = [
    "version",
    "flow",
    "session",
    "scope",
    "applied",
    "skipped",
    "boundary",
    "pending_action",
    "observations",
    "events",
    "authorizations",
    "proposal",
    "effects",
    "attempts",
    "degraded",
    "attempt_floor",
    "attempt_grants",
    "digest",
];

/// Events of the material trace.
pub mod event {
    use serde_json::{Value, json};

    use crate::vocab::flow::EffectClass;

    /// `{kind: "executed", transition, operation, summary, output_digest, effects, evidence}`.
    pub fn executed(
        transition: &str,
        operation: &str,
        summary: &str,
        output_digest: &str,
        effects: &[EffectClass],
        evidence: &[String],
    ) -> Value {
        json!({
            "kind": "executed",
            "transition": transition,
            "operation": operation,
            "summary": summary,
            "output_digest": output_digest,
            "effects": super::classes(effects),
            "evidence": evidence,
        })
    }

    /// `{kind: "failed", transition, operation, code, message, recovery, effects}`.
    pub fn failed(
        transition: &str,
        operation: &str,
        code: &str,
        message: &str,
        recovery: &str,
        effects: &[EffectClass],
    ) -> Value {
        json!({
            "kind": "failed",
            "transition": transition,
            "operation": operation,
            "code": code,
            "message": message,
            "recovery": recovery,
            "effects": super::classes(effects),
        })
    }

    /// Whether an event says the world moved — or cannot say: an `executed` one whose effects
    /// go past `read_only`; a `failed` one without effects (a trace older than the field), one
    /// reporting a partial effect, or one whose effects go past `read_only`.
    pub fn is_material(e: &Value) -> bool {
        let touches = |v: Option<&Value>| {
            v.and_then(Value::as_array).is_some_and(|list| {
                list.iter().any(|c| {
                    c.as_str()
                        .is_some_and(|c| c != EffectClass::ReadOnly.as_str())
                })
            })
        };
        match e.get("kind").and_then(Value::as_str) {
            Some("failed") => {
                e.get("effects").is_none()
                    || e.get("code").and_then(Value::as_str) == Some("FLOW_EFFECT_PARTIAL")
                    || touches(e.get("effects"))
            }
            _ => touches(e.get("effects")),
        }
    }
}

fn union(into: &mut Vec<EffectClass>, classes: &[EffectClass]) {
    for c in classes {
        if !into.contains(c) {
            into.push(*c);
        }
    }
}

fn classes(list: &[EffectClass]) -> Value {
    Value::Array(list.iter().map(|c| json!(c.as_str())).collect())
}

fn same_signals(a: &[String], b: &[String]) -> bool {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    a.sort();
    b.sort();
    a == b
}

impl RunState {
    /// A fresh state: nothing applied, no boundary.
    pub fn new(flow: Flow, session: &str) -> RunState {
        RunState {
            flow,
            session: session.to_owned(),
            scope: None,
            applied: Vec::new(),
            skipped: Vec::new(),
            boundary: None,
            pending_action: None,
            observations: Vec::new(),
            events: Vec::new(),
            authorizations: Vec::new(),
            proposal: None,
            effects: EffectLedger::default(),
            attempts: Vec::new(),
            degraded: None,
            floor: BTreeMap::new(),
            granted: BTreeMap::new(),
            extra: Map::new(),
            legacy: false,
        }
    }

    /// The cursor: how many journey rows are behind the run.
    pub fn cursor(&self) -> usize {
        self.applied.len()
    }

    /// Passes a transition, applying it: its effects are planned and applied.
    pub fn apply_transition(&mut self, id: &str, effects: &[EffectClass]) {
        self.applied.push(id.to_owned());
        union(&mut self.effects.planned, effects);
        union(&mut self.effects.applied, effects);
    }

    /// Passes a transition without applying it.
    pub fn skip_transition(&mut self, id: &str) {
        self.applied.push(id.to_owned());
        self.skipped.push(id.to_owned());
    }

    /// Passes a transition the run gave up on, recording why.
    pub fn degrade_transition(&mut self, id: &str, cause: &str) {
        self.skip_transition(id);
        self.degraded
            .get_or_insert_with(Vec::new)
            .push(Degradation {
                transition: id.to_owned(),
                cause: cause.to_owned(),
            });
    }

    /// The degraded steps (none when the key is absent).
    pub fn degradations(&self) -> &[Degradation] {
        self.degraded.as_deref().unwrap_or(&[])
    }

    /// Records the signals of one answer at an agent row; an exact repeat (same row, same
    /// signals in any order) is one observation sent twice and is not added.
    pub fn observe(&mut self, transition: &str, signals: Vec<String>) {
        let repeated = self
            .observations
            .iter()
            .any(|o| o.transition == transition && same_signals(&o.signals, &signals));
        if !repeated {
            self.observations.push(Observation {
                transition: transition.to_owned(),
                signals,
            });
        }
    }

    /// Holds an approval over its seal: a grant over the same seal is replaced, and its classes
    /// are planned and approved.
    pub fn approve(&mut self, grant: Grant) {
        union(&mut self.effects.planned, &grant.classes);
        union(&mut self.effects.approved, &grant.classes);
        self.authorizations.retain(|g| g.digest != grant.digest);
        self.authorizations.push(grant);
    }

    /// Records (or clears) the action the run waits on; re-emitting the same action keeps its
    /// `attempted` mark.
    pub fn set_pending_action(&mut self, pending: Option<(String, String)>) {
        self.pending_action = pending.map(|(transition, digest)| {
            let attempted = self
                .pending_action
                .as_ref()
                .is_some_and(|p| p.transition == transition && p.digest == digest && p.attempted);
            PendingAction {
                transition,
                digest,
                attempted,
            }
        });
    }

    /// Appends an event, unless it is a failure restating the last one (same transition, code
    /// and message): the same failure still standing is one fact.
    pub fn record_event(&mut self, e: Value) {
        let restates = self.events.last().is_some_and(|last| {
            let field = |v: &Value, k: &str| v.get(k).cloned();
            field(last, "kind") == Some(json!("failed"))
                && field(&e, "kind") == Some(json!("failed"))
                && ["transition", "code", "message"]
                    .iter()
                    .all(|k| field(last, k) == field(&e, k))
        });
        if !restates {
            self.events.push(e);
        }
    }

    /// The signals observed at a row, over every observation of it.
    pub fn observed_at(&self, transition: &str) -> impl Iterator<Item = &String> {
        self.observations
            .iter()
            .filter(move |o| o.transition == transition)
            .flat_map(|o| o.signals.iter())
    }

    /// Every attempt entry recorded at a transition, granted ones included.
    pub fn recorded_at(&self, transition: &str) -> usize {
        self.attempts
            .iter()
            .filter(|a| a.transition == transition)
            .count()
    }

    /// The attempts given back at a transition, in all.
    pub fn granted_at(&self, transition: &str) -> usize {
        self.granted
            .get(transition)
            .and_then(|n| usize::try_from(*n).ok())
            .unwrap_or(0)
    }

    /// The attempts spent at a transition: those recorded, or the counter's floor when it holds
    /// more (a state restored from an older copy).
    pub fn spent_at(&self, transition: &str) -> usize {
        let floor = self
            .floor
            .get(transition)
            .and_then(|n| usize::try_from(*n).ok())
            .unwrap_or(0);
        self.recorded_at(transition).max(floor)
    }

    /// The attempts that count toward the cap at a transition: those spent less those given
    /// back.
    pub fn attempts_at(&self, transition: &str) -> usize {
        self.spent_at(transition)
            .saturating_sub(self.granted_at(transition))
    }

    /// Gives a transition `n` attempts back (recorded; grants only ever grow).
    pub fn grant_attempts(&mut self, transition: &str, n: usize) {
        let e = self.granted.entry(transition.to_owned()).or_default();
        *e = e.saturating_add(i64::try_from(n).unwrap_or(i64::MAX));
    }

    /// The state as a JSON object; `with_digest` adds the seal.
    pub fn to_value(&self, with_digest: bool) -> Value {
        let mut m = self.extra.clone();
        m.insert("version".into(), json!(RUN_STATE_VERSION));
        m.insert("flow".into(), json!(self.flow.as_str()));
        m.insert("session".into(), json!(self.session));
        m.insert(
            "scope".into(),
            match &self.scope {
                None => Value::Null,
                Some(s) => json!({"plan": s.plan, "sources": s.sources}),
            },
        );
        m.insert("applied".into(), json!(self.applied));
        m.insert("skipped".into(), json!(self.skipped));
        m.insert("boundary".into(), json!(self.boundary));
        m.insert(
            "pending_action".into(),
            match &self.pending_action {
                None => Value::Null,
                Some(p) => json!({
                    "transition": p.transition,
                    "digest": p.digest,
                    "attempted": p.attempted,
                }),
            },
        );
        m.insert(
            "observations".into(),
            Value::Array(
                self.observations
                    .iter()
                    .map(|o| json!({"transition": o.transition, "signals": o.signals}))
                    .collect(),
            ),
        );
        m.insert("events".into(), Value::Array(self.events.clone()));
        m.insert(
            "authorizations".into(),
            Value::Array(
                self.authorizations
                    .iter()
                    .map(|g| {
                        json!({
                            "digest": g.digest,
                            "destinations": g.destinations,
                            "classes": classes(&g.classes),
                        })
                    })
                    .collect(),
            ),
        );
        m.insert(
            "proposal".into(),
            self.proposal.clone().unwrap_or(Value::Null),
        );
        m.insert(
            "effects".into(),
            json!({
                "planned": classes(&self.effects.planned),
                "approved": classes(&self.effects.approved),
                "applied": classes(&self.effects.applied),
            }),
        );
        m.insert(
            "attempts".into(),
            Value::Array(
                self.attempts
                    .iter()
                    .map(|a| {
                        json!({
                            "invocation_id": a.invocation_id,
                            "attempt": a.attempt,
                            "request_digest": a.request_digest,
                            "parent_request_digest": a.parent_request_digest,
                            "transition": a.transition,
                        })
                    })
                    .collect(),
            ),
        );
        match &self.degraded {
            None => m.remove("degraded"),
            Some(list) => m.insert(
                "degraded".into(),
                Value::Array(
                    list.iter()
                        .map(|d| json!({"transition": d.transition, "cause": d.cause}))
                        .collect(),
                ),
            ),
        };
        // Empty counters are written as absent, so a run that never spent an attempt keeps
        // the bytes it had before the fields existed.
        for (key, map) in [
            ("attempt_floor", &self.floor),
            ("attempt_grants", &self.granted),
        ] {
            let kept: BTreeMap<&String, &i64> = map.iter().filter(|(_, n)| **n > 0).collect();
            if kept.is_empty() {
                m.remove(key);
            } else {
                m.insert(key.into(), json!(kept));
            }
        }
        m.remove("digest");
        let mut v = Value::Object(m);
        if with_digest {
            let seal = semantic_digest(&v);
            if let Value::Object(m) = &mut v {
                m.insert("digest".into(), json!(seal));
            }
        }
        v
    }

    /// The file seal: the semantic digest of the state without its `digest`.
    pub fn digest(&self) -> String {
        semantic_digest(&self.to_value(false))
    }

    /// The file's bytes: canonical JSON with the seal, and a newline.
    pub fn serialize(&self) -> String {
        let mut s = canonical_json(&self.to_value(true));
        s.push('\n');
        s
    }

    /// The digest of the run's position: the state without its attempt bookkeeping (attempts,
    /// floor, grants) and without the seal. Refusals change the bookkeeping only, so they never
    /// make an answer stale.
    pub fn position_digest(&self) -> String {
        let mut v = self.to_value(false);
        if let Value::Object(m) = &mut v {
            m.remove("attempts");
            m.remove("attempt_grants");
            m.remove("attempt_floor");
        }
        semantic_digest(&v)
    }
}
