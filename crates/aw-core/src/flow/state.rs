//! The run state (`.flow-run.json`, version 4): the cursor, the skipped steps, the boundary in
//! force, the sealed pending action, the observations, the run-wide grants, the effect ledger
//! and the attempt history, sealed with the semantic digest of everything else.
//!
//! The file is `canonical_json(state) + "\n"`. Keys aw does not know are kept and sealed, as the
//! reference keeps them. The two keys aw adds are such keys for the reference: `attempt_grants`
//! (written only once `aw flow recover` has granted something) and `attempt_floor` (v22's name
//! and shape: per transition, the attempts the run's sidecar counter had recorded when the state
//! was written; see [`super::counter`]).

use crate::canonical::{canonical_json, semantic_digest};
use crate::vocab::flow::{EffectClass, Flow};
use serde_json::{Map, Value, json};

/// The state version this engine reads and writes.
pub const RUN_STATE_VERSION: u32 = 4;
/// The state file's name inside a session folder.
pub const RUN_STATE_FILE: &str = ".flow-run.json";

/// The seal of the delegated action emitted at an execution boundary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingAction {
    /// The transition it belongs to.
    pub transition: String,
    /// Its action digest.
    pub digest: String,
}

/// The signals validated at one agent row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observation {
    /// The row.
    pub transition: String,
    /// The signals declared there.
    pub signals: Vec<String>,
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

/// Attempts given back to an exhausted boundary by `aw flow recover`: attempts recorded at
/// `transition` up to `attempts` no longer count toward the cap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttemptGrant {
    /// The boundary.
    pub transition: String,
    /// How many attempts it had recorded when the grant was made.
    pub attempts: i64,
}

/// The run state.
#[derive(Debug, Clone, PartialEq)]
pub struct RunState {
    /// The journey walked.
    pub flow: Flow,
    /// The session folder.
    pub session: String,
    /// Passed transitions in order: the cursor (skipped ones included).
    pub applied: Vec<String>,
    /// The subset of `applied` passed over without applying.
    pub skipped: Vec<String>,
    /// The transition the run stands on (`None` before the first advance and when final).
    pub boundary: Option<String>,
    /// The emitted action's seal at an execution boundary.
    pub pending_action: Option<PendingAction>,
    /// Validated signals, one entry per transition.
    pub observations: Vec<Observation>,
    /// Effect classes granted to the run (run-wide).
    pub authorizations: Vec<EffectClass>,
    /// The effect ledger.
    pub effects: EffectLedger,
    /// Every recorded attempt.
    pub attempts: Vec<Attempt>,
    /// Attempts given back by `aw flow recover` (the `attempt_grants` key, written when set).
    pub grants: Vec<AttemptGrant>,
    /// Per transition, the attempts the sidecar counter held when the state was written (the
    /// `attempt_floor` key, written when set): a floor under the ledger, so a state restored
    /// from an older copy cannot lower the count.
    pub floor: std::collections::BTreeMap<String, i64>,
    /// Keys this engine does not know, kept as read (they are covered by the seal).
    pub extra: Map<String, Value>,
}

/// The keys of the version-4 state, plus aw's `attempt_grants` and `attempt_floor`.
pub const KNOWN_KEYS: [&str; 14] = [
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

impl RunState {
    /// A fresh state: nothing applied, no boundary.
    pub fn new(flow: Flow, session: &str) -> RunState {
        RunState {
            flow,
            session: session.to_owned(),
            applied: Vec::new(),
            skipped: Vec::new(),
            boundary: None,
            pending_action: None,
            observations: Vec::new(),
            authorizations: Vec::new(),
            effects: EffectLedger::default(),
            attempts: Vec::new(),
            grants: Vec::new(),
            floor: Default::default(),
            extra: Map::new(),
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

    /// Records the signals of an agent row, replacing an earlier observation of it.
    pub fn observe(&mut self, transition: &str, signals: Vec<String>) {
        self.observations.retain(|o| o.transition != transition);
        self.observations.push(Observation {
            transition: transition.to_owned(),
            signals,
        });
    }

    /// Grants effect classes to the run.
    pub fn approve(&mut self, granted: &[EffectClass]) {
        union(&mut self.authorizations, granted);
        union(&mut self.effects.planned, granted);
        union(&mut self.effects.approved, granted);
    }

    /// The signals observed at a row.
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

    /// The attempts given back at a transition: the attempts it had recorded when it was last
    /// granted.
    pub fn granted_at(&self, transition: &str) -> usize {
        self.grants
            .iter()
            .filter(|g| g.transition == transition)
            .map(|g| usize::try_from(g.attempts).unwrap_or(0))
            .max()
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

    /// The attempts that count toward the cap at a transition: those spent after the latest
    /// grant.
    pub fn attempts_at(&self, transition: &str) -> usize {
        self.spent_at(transition)
            .saturating_sub(self.granted_at(transition))
    }

    /// The state as a JSON object; `with_digest` adds the seal.
    pub fn to_value(&self, with_digest: bool) -> Value {
        let mut m = self.extra.clone();
        m.insert("version".into(), json!(RUN_STATE_VERSION));
        m.insert("flow".into(), json!(self.flow.as_str()));
        m.insert("session".into(), json!(self.session));
        m.insert("applied".into(), json!(self.applied));
        m.insert("skipped".into(), json!(self.skipped));
        m.insert("boundary".into(), json!(self.boundary));
        m.insert(
            "pending_action".into(),
            match &self.pending_action {
                None => Value::Null,
                Some(p) => json!({"transition": p.transition, "digest": p.digest}),
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
        m.insert("authorizations".into(), classes(&self.authorizations));
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
        if self.grants.is_empty() {
            m.remove("attempt_grants");
        } else {
            m.insert(
                "attempt_grants".into(),
                Value::Array(
                    self.grants
                        .iter()
                        .map(|g| json!({"transition": g.transition, "attempts": g.attempts}))
                        .collect(),
                ),
            );
        }
        if self.floor.is_empty() {
            m.remove("attempt_floor");
        } else {
            m.insert("attempt_floor".into(), json!(self.floor));
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
    /// grants, floor) and without the seal. Refusals change the bookkeeping only, so they never make
    /// an answer stale.
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
