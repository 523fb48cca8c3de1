//! What each `aw persist` stage prints: one shape for all three (`PersistResult`), its outcome,
//! and the next action, which always names the exact command to run next.
//!
//! Outcomes are the capability protocol's words: `needs_input` (an answer, or an approval, is
//! awaited), `blocked` (refused: `error` says why and nothing was written), `completed` (the
//! documents are written).

use super::answer::skeleton;
use super::inventory::Inventory;
use crate::capability::answer::SemanticRequest;
use crate::capability::error::CapabilityError;
use crate::capability::plan::DurablePlan;
use crate::documents::names::DocKind;
use serde::Serialize;
use serde_json::Value;

/// The stage that printed a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// `aw persist prepare`.
    Prepare,
    /// `aw persist validate`.
    Validate,
    /// `aw persist apply`.
    Apply,
}

/// How a stage ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// An answer (prepare) or an approval (validate) is awaited.
    NeedsInput,
    /// Refused; nothing was written.
    Blocked,
    /// The documents are written.
    Completed,
}

/// The semantic request as printed, with its answer skeleton.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Semantic {
    /// The request.
    #[serde(flatten)]
    pub request: SemanticRequest,
    /// The smallest valid answer, placeholders included.
    pub answer_skeleton: Value,
}

/// One stage's result. Keys in this order, every key always present (`null` or empty when the
/// stage has nothing to say there).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct PersistResult {
    /// `prepare`, `validate` or `apply`.
    pub stage: Stage,
    /// `needs_input`, `blocked` or `completed`.
    pub outcome: Outcome,
    /// The inventory the stage read (prepare, validate).
    pub inventory: Option<Inventory>,
    /// What the agent must author (prepare).
    pub semantic: Option<Semantic>,
    /// The durable plan awaiting approval (validate).
    pub plan: Option<DurablePlan>,
    /// The paths written, in plan order (apply).
    pub written: Vec<String>,
    /// Why the stage was refused.
    pub error: Option<CapabilityError>,
    /// What to run next.
    pub next_action: String,
}

/// The `validate` command line for an inventory of `kinds`: `--kind` flags only when they are
/// not all three (the digest covers exactly the kinds asked for, so validate must ask the same).
pub fn validate_command(kinds: &[DocKind]) -> String {
    let mut cmd = "aw persist validate".to_owned();
    if kinds.len() < DocKind::ALL.len() {
        for k in kinds {
            cmd.push_str(" --kind ");
            cmd.push_str(k.word());
        }
    }
    cmd
}

/// `prepare`: the inventory and what to author.
pub fn prepared(inventory: Inventory, request: SemanticRequest) -> PersistResult {
    let kinds = inventory.doc_kinds();
    let answer_skeleton = skeleton(&request, &kinds);
    let next_action = format!(
        "classify and draft the finished work as the contract says, then pipe {{\"answer\": <your answer>}} to '{}'; the answer is {}",
        validate_command(&kinds),
        answer_skeleton
    );
    PersistResult {
        stage: Stage::Prepare,
        outcome: Outcome::NeedsInput,
        inventory: Some(inventory),
        semantic: Some(Semantic {
            request,
            answer_skeleton,
        }),
        plan: None,
        written: Vec::new(),
        error: None,
        next_action,
    }
}

/// `validate`: the plan awaiting a person's approval. An answer piped bare (the reference's
/// way) is applied the same way: the next action says to pipe it again.
pub fn proposed(inventory: Inventory, plan: DurablePlan, bare: bool) -> PersistResult {
    let next_action = if bare {
        format!(
            "show the plan's preview to a person; once approved, pipe the same answer to '{}' (aw reads the inventory again and numbers it as here)",
            apply_command(&inventory.doc_kinds(), &plan.approval_digest)
        )
    } else {
        format!(
            "show the plan's preview to a person; once approved, pipe {{\"plan\": <this result's plan>}} to 'aw persist apply --approval {}'",
            plan.approval_digest
        )
    };
    PersistResult {
        stage: Stage::Validate,
        outcome: Outcome::NeedsInput,
        inventory: Some(inventory),
        semantic: None,
        plan: Some(plan),
        written: Vec::new(),
        error: None,
        next_action,
    }
}

/// A refusal at any stage; `apply`'s next action says nothing was written, or, when a rollback
/// could not undo everything, `reconciliation` says what to reconcile by hand.
pub fn blocked(
    stage: Stage,
    inventory: Option<Inventory>,
    error: CapabilityError,
    reconciliation: Option<String>,
) -> PersistResult {
    let next_action = match (stage, reconciliation) {
        (_, Some(r)) => r,
        (Stage::Apply, None) => format!("nothing was written; {}", error.action),
        (_, None) => error.action.clone(),
    };
    PersistResult {
        stage,
        outcome: Outcome::Blocked,
        inventory,
        semantic: None,
        plan: None,
        written: Vec::new(),
        error: Some(error),
        next_action,
    }
}

/// `apply`: the documents written.
pub fn applied(written: Vec<String>) -> PersistResult {
    PersistResult {
        stage: Stage::Apply,
        outcome: Outcome::Completed,
        inventory: None,
        semantic: None,
        plan: None,
        written,
        error: None,
        next_action: "nothing left to do: the documents are written".to_owned(),
    }
}

/// `apply` of a plan already applied: every document it names holds exactly its text, so
/// nothing was written (`written` is empty) and the stage is complete; the next action names
/// the documents.
pub fn already_applied(paths: &[String]) -> PersistResult {
    PersistResult {
        next_action: format!(
            "nothing left to do: this plan was already applied (nothing was written); its documents are {}",
            paths.join(", ")
        ),
        ..applied(Vec::new())
    }
}

/// An answer `apply` found stale that is not one applied before (its documents are not all in
/// place with exactly its text): the inventory moved since validate, and the action says what
/// that can mean.
pub fn stale_at_apply(mut e: CapabilityError) -> CapabilityError {
    e.message = format!(
        "{} (the documents changed since this answer was validated: one was added, renamed or edited)",
        e.message
    );
    e.action = "if this answer was applied before and a person edited its documents since, nothing is left to do; otherwise run 'aw persist prepare' and 'validate' again, and apply the new plan".to_owned();
    e
}

/// What `validate` or `apply` found on stdin.
#[derive(Debug, Clone, PartialEq)]
pub enum Carried {
    /// An answer: `{"answer": <answer>}`, or the answer itself (the reference's stdin, for
    /// `validate` and for `apply`).
    Answer {
        /// The answer.
        answer: Value,
        /// It came bare, as the reference's agents send it (not under `"answer"`).
        bare: bool,
    },
    /// `{"plan": <plan>}` (`apply` only).
    Plan(Value),
}

/// The stdin of `validate` and `apply`, read: blank text and anything but one JSON object are
/// `ARGS_INVALID`, naming what the stage expects. `{"answer": …}` carries an answer; an object
/// with the answer envelope's `operation` or `version` at the top is the answer itself (the
/// reference's stdin); `apply` also takes `{"plan": …}`. `None` when it carries none of these
/// (a key present with `null` counts as absent).
pub fn carried(text: &str, stage: Stage) -> Result<Option<Carried>, CapabilityError> {
    let expects = match stage {
        Stage::Apply => {
            "{\"plan\": <the validate result's plan>}, or the answer that validate checked, with --approval <its approval_digest>"
        }
        _ => "{\"answer\": <the answer>}, or the answer itself",
    };
    let refuse = |message: String| {
        CapabilityError::new(
            crate::error_code::ErrorCode::ArgsInvalid,
            message,
            format!("pipe {expects} to it"),
        )
    };
    if aw_json::js::js_trim(text).is_empty() {
        return Err(refuse("stdin is empty".to_owned()));
    }
    let mut map = match aw_json::parse_bounded(text) {
        Ok(Value::Object(map)) => map,
        Ok(_) => return Err(refuse("stdin is not one JSON object".to_owned())),
        Err(e) => return Err(refuse(format!("stdin is not one JSON object: {e}"))),
    };
    let mut take = |key: &str| map.remove(key).filter(|v| !v.is_null());
    if stage == Stage::Apply
        && let Some(plan) = take("plan")
    {
        return Ok(Some(Carried::Plan(plan)));
    }
    if let Some(answer) = take("answer") {
        return Ok(Some(Carried::Answer {
            answer,
            bare: false,
        }));
    }
    if map.contains_key("operation") || map.contains_key("version") {
        return Ok(Some(Carried::Answer {
            answer: Value::Object(map),
            bare: true,
        }));
    }
    Ok(None)
}

/// The `apply` command line for an answer piped bare: `--kind` flags only when they are not all
/// three (apply reads the inventory again, for the same kinds as validate).
pub fn apply_command(kinds: &[DocKind], approval: &str) -> String {
    let mut cmd = "aw persist apply".to_owned();
    if kinds.len() < DocKind::ALL.len() {
        for k in kinds {
            cmd.push_str(" --kind ");
            cmd.push_str(k.word());
        }
    }
    cmd.push_str(" --approval ");
    cmd.push_str(approval);
    cmd
}

#[cfg(test)]
#[path = "result_tests.rs"]
mod tests;
