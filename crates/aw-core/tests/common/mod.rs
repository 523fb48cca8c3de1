//! Helpers shared by the flow tests: fixture rows, and pure runs over a journey (no disk).

use aw_core::flow::directive::ErrorView;
use aw_core::flow::facts::Facts;
use aw_core::flow::plan_evidence::{EvidenceFacts, PLAN_PUBLISHED, PlanFile};
use aw_core::flow::proof::SOURCE_BOUNDED_EVIDENCE;
use aw_core::flow::proposal::Seen;
use aw_core::flow::registry::Decision;
use aw_core::flow::run::{Turn, advance};
use aw_core::flow::submit::{Submission, submit};
use aw_core::flow::{Directive, Flow, Journey, RunState};
use serde_json::{Value, json};

/// A fixture row from JSON (defaults: cli, cli-owned, a document).
pub fn row(id: &str, extra: Value) -> Decision {
    let mut v = json!({
        "id": id,
        "scope": "fixture",
        "title": format!("fixture step {id}"),
        "authority": "cli",
        "ownership": "cli-owned",
        "document": "loops/FIXTURE.md",
    });
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    serde_json::from_value(v).unwrap()
}

/// An action value for fixture rows.
pub fn action(program: &str, args: &[&str], target: &str, evidence: &[&str]) -> Value {
    json!({
        "invocation": {"program": program, "args": args, "target": target, "input": null},
        "evidence": evidence,
        "idempotent": true,
        "recovery": "run it again and report the real output",
    })
}

/// The state without its attempt bookkeeping, its trace and its seal: what a refusal must
/// never change.
pub fn decided(state: &RunState) -> Value {
    let mut v = state.to_value(false);
    for key in ["attempts", "events", "attempt_floor", "attempt_grants"] {
        v.as_object_mut().unwrap().remove(key);
    }
    v
}

/// The plan a plan-new run's green result names, as [`Run::result`] reports it.
pub const PLAN_PATH: &str = "docs/plans/001-plan-x.md";

/// A plan as `FORMATS.md` has it: a title, open, the checkout as its execution surface, one
/// pending phase on the workspace.
pub const PLAN_TEXT: &str = "# Plan 001 — x\n\n> Status: open\n> Límite de ejecución: checkout\n\n\
     ## Tasks\n\n### F1 — it works\n> Status: pending\n> Fuentes: workspace\n\
     - [ ] T1.1 — make it work _(fuentes: workspace)_\n";

/// The disk as an agent that published [`PLAN_PATH`] leaves it.
pub fn published() -> EvidenceFacts {
    EvidenceFacts {
        root: "/w".to_owned(),
        plans: vec![(PLAN_PATH.to_owned(), PlanFile::Text(PLAN_TEXT.to_owned()))],
    }
}

/// A run driven through the pure engine.
pub struct Run<'a> {
    /// The journey.
    pub journey: Journey<'a>,
    /// The state as it would be on disk.
    pub state: RunState,
    /// The last directive.
    pub last: Directive,
    /// Whether the last call would have written.
    pub wrote: bool,
    /// What the shell would observe for an answer: the plan paths it names ([`published`]
    /// unless a test changes it), its artifacts' destinations, no live checkout (proofs are
    /// checked for their shape only).
    pub facts: Facts,
}

impl<'a> Run<'a> {
    /// Adopts a fresh state and advances.
    pub fn start(journey: Journey<'a>, folder: &str) -> Run<'a> {
        let state = RunState::new(journey.flow, folder);
        Run::from_state(journey, state)
    }

    /// Advances from a given state.
    pub fn from_state(journey: Journey<'a>, state: RunState) -> Run<'a> {
        let Turn {
            state, directive, ..
        } = advance(state, &journey).unwrap();
        Run {
            journey,
            state,
            last: directive,
            wrote: true,
            facts: Facts {
                evidence: published(),
                ..Facts::default()
            },
        }
    }

    /// A builtin journey, adopted.
    pub fn builtin(flow: Flow, folder: &str) -> Run<'static> {
        Run::start(Journey::builtin(flow).unwrap(), folder)
    }

    /// Advances again.
    pub fn advance(&mut self) -> &Directive {
        let turn = advance(self.state.clone(), &self.journey).unwrap();
        self.wrote = true;
        self.state = turn.state;
        self.last = turn.directive;
        &self.last
    }

    /// Sends a raw payload.
    pub fn raw(&mut self, raw: &str, approval: Option<&str>) -> &Directive {
        let turn = submit(
            self.state.clone(),
            &self.journey,
            Submission {
                raw,
                approval,
                facts: &self.facts,
            },
        )
        .unwrap();
        if turn.write {
            self.state = turn.state;
        }
        self.wrote = turn.write;
        self.last = turn.directive;
        &self.last
    }

    /// Sends a JSON payload, filling in the current seal unless it carries one.
    pub fn send(&mut self, mut payload: Value, approval: Option<&str>) -> &Directive {
        if payload.get("input_digest").is_none() {
            payload["input_digest"] = json!(self.last.state_digest);
        }
        let raw = payload.to_string();
        self.raw(&raw, approval)
    }

    /// Declares signals (and a decision when none).
    pub fn signals(&mut self, signals: &[&str]) -> &Directive {
        if signals.is_empty() {
            self.send(json!({"decisions": {"answer": "nothing observed"}}), None)
        } else {
            self.send(json!({"signals": signals}), None)
        }
    }

    /// Chooses a label.
    pub fn choose(&mut self, label: &str) -> &Directive {
        self.send(json!({"choice": label}), None)
    }

    /// Approves the authorization boundary in force with the digest its next action quotes.
    pub fn approve(&mut self) -> &Directive {
        let digest = approval_in(&self.last.next_action);
        self.send(json!({}), Some(&digest))
    }

    /// A complete, green result for the execution boundary in force, as `tweak` changes it.
    pub fn result(&self) -> Value {
        let a = self.last.action.as_ref().expect("an execution boundary");
        let t = self.last.boundary.transition.clone().unwrap();
        let row = self.journey.find(&t).unwrap();
        let applied: Vec<&str> = row.effects().iter().map(|c| c.as_str()).collect();
        let validations: Vec<Value> = a
            .evidence
            .iter()
            .map(|id| {
                let detail = if id == PLAN_PUBLISHED {
                    format!("{PLAN_PATH} listed by aw status with 1 phase")
                } else {
                    "seen in the output".to_owned()
                };
                if id == SOURCE_BOUNDED_EVIDENCE {
                    json!({"id": id, "passed": true, "detail": detail, "proof": {
                        "kind": "inspection", "source": "workspace", "relative_cwd": ".",
                        "checkout_digest": "test-checkout", "invocation": {"artifact": "SESSION.md"},
                    }})
                } else {
                    json!({"id": id, "passed": true, "detail": detail})
                }
            })
            .collect();
        json!({
            "input_digest": self.last.state_digest,
            "outcome": "completed",
            "invocation": a.invocation,
            "validations": validations,
            "effects": {"applied": applied},
        })
    }

    /// Reports a green result.
    pub fn execute(&mut self) -> &Directive {
        let r = self.result();
        self.send(r, None)
    }

    /// Answers whatever boundary stands generically (recommended choice, approval, green
    /// result, decision without signals).
    pub fn generic(&mut self) -> &Directive {
        match self.last.boundary.kind.as_str() {
            "semantic" => {
                let t = self.last.boundary.transition.clone().unwrap();
                let row = self.journey.find(&t).unwrap();
                if let Some(p) = &row.proposes {
                    let path = format!("{}/001-x.md", p.destinations[0]);
                    self.facts
                        .proposal
                        .destinations
                        .entry(path.clone())
                        .or_insert(Seen::Absent);
                    self.send(
                        json!({"decisions": {"answer": "the bytes"},
                               "artifacts": [{"path": path, "content": "# X\n"}]}),
                        None,
                    )
                } else if row.scopes_sources {
                    self.facts.scope.plan_text = Some(PLAN_TEXT.to_owned());
                    self.send(
                        json!({"decisions": {"sources": ["workspace"], "plan": PLAN_PATH}}),
                        None,
                    )
                } else {
                    self.signals(&[])
                }
            }
            "human" => {
                let l = self
                    .last
                    .choices
                    .iter()
                    .find(|c| c.recommended)
                    .unwrap()
                    .label
                    .clone();
                self.choose(&l)
            }
            "authorization" => self.approve(),
            "execution" => self.execute(),
            other => panic!("no generic answer for {other}"),
        }
    }

    /// The kind and transition of the last directive.
    pub fn at(&self) -> (&str, &str) {
        (
            self.last.boundary.kind.as_str(),
            self.last.boundary.transition.as_deref().unwrap_or(""),
        )
    }

    /// The error of the last directive, which must have one.
    pub fn error(&self) -> &ErrorView {
        self.last
            .error
            .as_ref()
            .unwrap_or_else(|| panic!("no error at {:?}", self.at()))
    }

    /// The error code of the last directive.
    pub fn code(&self) -> Option<&str> {
        self.last.error.as_ref().map(|e| e.code.as_str())
    }

    /// Answers generically until the run stands on `id`.
    pub fn walk_to(&mut self, id: &str) {
        for _ in 0..60 {
            if self.at().1 == id {
                return;
            }
            self.generic();
            assert!(self.code().is_none(), "{:?}", self.last.error);
        }
        panic!("never reached {id}");
    }
}

/// The `--approval <digest>` a next action quotes.
pub fn approval_in(next_action: &str) -> String {
    let at = next_action
        .find("--approval ")
        .expect("an approval in the next action")
        + 11;
    next_action[at..at + 64].to_owned()
}
