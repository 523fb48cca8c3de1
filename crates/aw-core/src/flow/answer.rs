//! Parsing the `submit` payload as data against the boundary in force (§10.2): the envelope,
//! the seal, then the shape each boundary kind asks for. Whether a refusal spends an attempt is
//! its code's class (see [`super::rejections`]).

use super::boundary::Resolved;
use super::choices::AUTHORIZE_LABEL;
use super::effects::approval_digest;
use super::next_action::{advance_command, submit_command};
use super::proposal::Artifact;
use super::registry::{Choice, Invocation};
use super::verdict::{ExecResult, parse_result};
use crate::canonical::parse_json;
use crate::error_code::ErrorCode;
use crate::vocab::flow::{BoundaryKind, EffectClass, Outcome, PAUSE_LABEL, STOP_LABEL};
use serde_json::{Map, Value};

/// A refused answer: returned as a directive with `error` set (exit 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    /// The stable code.
    pub code: ErrorCode,
    /// What was wrong with the answer.
    pub message: String,
    /// What to do.
    pub action: String,
    /// Whether the refusal spends (records) an attempt.
    pub spent: bool,
    /// The directive outcome, when not the boundary's default.
    pub outcome: Option<Outcome>,
}

impl Rejection {
    /// A refusal; whether it spends an attempt is its code's class
    /// ([`super::rejections::spends_attempt`]).
    pub fn spent(code: ErrorCode, message: impl Into<String>, action: impl Into<String>) -> Self {
        Rejection {
            code,
            message: message.into(),
            action: action.into(),
            spent: super::rejections::spends_attempt(code),
            outcome: None,
        }
    }

    /// A refusal that records nothing.
    pub fn free(code: ErrorCode, message: impl Into<String>, action: impl Into<String>) -> Self {
        Rejection {
            spent: false,
            ..Rejection::spent(code, message, action)
        }
    }

    /// The same refusal with its own directive outcome.
    pub fn with_outcome(mut self, outcome: Outcome) -> Self {
        self.outcome = Some(outcome);
        self
    }
}

/// A parsed answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// A semantic answer: the declared signals (decisions are validated, never persisted) and,
    /// at an authoring row, the artifacts it proposes.
    Semantic {
        /// The signals, in the order declared.
        signals: Vec<String>,
        /// The proposed artifacts (authoring rows only).
        artifacts: Vec<Artifact>,
        /// The decisions object (read by a scope row; never persisted).
        decisions: Map<String, Value>,
    },
    /// A chosen label (a human choice, or a flow-control label at an authorization boundary).
    Choice(String),
    /// An authorization approved with the right digest.
    Approved,
    /// An execution result.
    Execution(ExecResult),
}

/// What the parser needs to know about the boundary.
pub struct Context<'a, 'r> {
    /// The resolved boundary.
    pub resolved: &'a Resolved<'r>,
    /// The choices it offers.
    pub choices: &'a [Choice],
    /// The session folder (for the commands quoted in actions).
    pub folder: &'a str,
}

fn labels(choices: &[Choice]) -> String {
    choices
        .iter()
        .map(|c| c.label.as_ref())
        .collect::<Vec<_>>()
        .join(" | ")
}

/// Parses the raw stdin text against the boundary.
pub fn parse_answer(
    raw: &str,
    approval: Option<&str>,
    ctx: &Context<'_, '_>,
) -> Result<Answer, Rejection> {
    let submit = submit_command(ctx.folder);
    let shape_action = format!(
        "Pipe one JSON object into `{submit}`, shaped as the directive's next_action shows."
    );
    if raw.trim().is_empty() {
        return Err(Rejection::spent(
            ErrorCode::FlowAnswerMissing,
            "No answer arrived on stdin.",
            shape_action,
        ));
    }
    let value = parse_json(raw).map_err(|e| {
        Rejection::spent(
            ErrorCode::FlowAnswerInvalid,
            format!("The answer is not valid JSON ({e})."),
            shape_action.clone(),
        )
    })?;
    let Value::Object(obj) = value else {
        return Err(Rejection::spent(
            ErrorCode::FlowAnswerInvalid,
            "The answer must be a single JSON object.",
            shape_action,
        ));
    };
    let seal = &ctx.resolved.seal;
    match obj.get("input_digest").and_then(Value::as_str) {
        Some(d) if !d.is_empty() => {
            if d != seal {
                // Not spent: the answer was written for a boundary no longer in force, and
                // counting it against the one in force would exhaust a boundary nobody answered
                // yet (parallel answers racing one winner did exactly that in the reference).
                return Err(Rejection::free(
                    ErrorCode::FlowAnswerStale,
                    "The answer replies to an earlier state of the run.",
                    format!(
                        "Run `{}` and answer the boundary it returns, quoting its state_digest as \"input_digest\".",
                        advance_command(ctx.folder)
                    ),
                ));
            }
        }
        _ => {
            return Err(Rejection::spent(
                ErrorCode::FlowAnswerInvalid,
                "The answer carries no \"input_digest\".",
                format!("Quote the directive's state_digest: \"input_digest\": \"{seal}\"."),
            ));
        }
    }
    match ctx.resolved.kind {
        BoundaryKind::Semantic => semantic(&obj, ctx),
        BoundaryKind::Human => human(&obj, ctx),
        BoundaryKind::Authorization => authorization(&obj, approval, ctx),
        BoundaryKind::Execution => {
            let sealed = ctx
                .resolved
                .emitted
                .as_ref()
                .map(|a| &a.invocation)
                .ok_or_else(|| not_expected(ctx))?;
            execution(&obj, sealed, ctx)
        }
        BoundaryKind::Blocked | BoundaryKind::Final => Err(not_expected(ctx)),
    }
}

fn not_expected(ctx: &Context<'_, '_>) -> Rejection {
    if ctx.resolved.kind == BoundaryKind::Final {
        Rejection::spent(
            ErrorCode::FlowAnswerNotExpected,
            "The journey is finished: there is nothing to answer.",
            "Nothing is left to do in this run.",
        )
    } else {
        Rejection::spent(
            ErrorCode::FlowAnswerNotExpected,
            "A blocked boundary takes no answer.",
            format!(
                "Resolve the block (see the directive's error), then run `{}`.",
                advance_command(ctx.folder)
            ),
        )
    }
}

fn semantic(obj: &Map<String, Value>, ctx: &Context<'_, '_>) -> Result<Answer, Rejection> {
    let row = ctx.resolved.stopped.ok_or_else(|| not_expected(ctx))?;
    let vocabulary = row.signals();
    let allowed = if vocabulary.is_empty() {
        "(this boundary takes no signals)".to_owned()
    } else {
        vocabulary.join(", ")
    };
    let signals: Vec<String> = match obj.get("signals") {
        None | Some(Value::Null) => Vec::new(),
        Some(v) => v
            .as_array()
            .and_then(|a| {
                a.iter()
                    .map(|s| s.as_str().map(str::to_owned))
                    .collect::<Option<Vec<_>>>()
            })
            .ok_or_else(|| {
                Rejection::spent(
                    ErrorCode::FlowAnswerInvalid,
                    "\"signals\" must be a list of strings.",
                    format!("Declare the signals you observe as a list, out of: {allowed}."),
                )
            })?,
    };
    let decisions = match obj.get("decisions") {
        Some(Value::Object(m)) => m.clone(),
        _ => Map::new(),
    };
    let decided = match obj.get("decisions") {
        None | Some(Value::Null) => false,
        Some(Value::Object(m)) => !m.is_empty(),
        Some(_) => {
            return Err(Rejection::spent(
                ErrorCode::FlowAnswerInvalid,
                "\"decisions\" must be a JSON object.",
                "Put your judgment in \"decisions\" as an object, for example {\"answer\": \"…\"}.",
            ));
        }
    };
    let has_artifacts = obj
        .get("artifacts")
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty());
    match (&row.proposes, has_artifacts) {
        (None, true) => {
            return Err(Rejection::spent(
                ErrorCode::FlowArtifactsNotExpected,
                "This boundary proposes no local change and takes no artifacts.",
                "Answer with what the contract asks for; bytes are delivered where the CLI asks \
                 for them.",
            ));
        }
        (Some(p), false) => {
            return Err(Rejection::spent(
                ErrorCode::FlowArtifactsMissing,
                "This boundary asks for the exact bytes and the answer carries none.",
                format!(
                    "Return each file in \"artifacts\" as {{\"path\", \"content\"}}, with a path \
                     inside {}: without a proposal there is nothing to preview or approve.",
                    p.destinations.join(", ")
                ),
            ));
        }
        _ => {}
    }
    if signals.is_empty() && !decided && !has_artifacts {
        return Err(Rejection::spent(
            ErrorCode::FlowAnswerAmbiguous,
            "The answer declares no signal and no decision.",
            format!(
                "Declare the signals you observe (out of: {allowed}) or put your judgment in a non-empty \"decisions\" object."
            ),
        ));
    }
    let artifacts = match &row.proposes {
        None => Vec::new(),
        Some(p) => artifacts_within(obj, p, ctx)?,
    };
    if let Some(s) = signals.iter().find(|s| !vocabulary.iter().any(|v| v == *s)) {
        return Err(Rejection::spent(
            ErrorCode::FlowSignalUnknown,
            format!("'{s}' is not a signal of '{}'.", row.id),
            format!("Declare only signals of this vocabulary: {allowed}."),
        ));
    }
    for (i, s) in signals.iter().enumerate() {
        if signals[..i].contains(s) {
            return Err(Rejection::spent(
                ErrorCode::FlowAnswerInvalid,
                format!("The signal '{s}' is declared twice."),
                "Declare each signal once.",
            ));
        }
    }
    Ok(Answer::Semantic {
        signals,
        artifacts,
        decisions,
    })
}

/// The answer's artifacts, checked as the semantic protocol checks a capability's: a non-empty
/// list within the count, each a safe path inside the destinations, no path twice, each within
/// the size limit.
fn artifacts_within(
    obj: &Map<String, Value>,
    contract: &super::registry::Proposes,
    ctx: &Context<'_, '_>,
) -> Result<Vec<Artifact>, Rejection> {
    let request = crate::capability::answer::SemanticRequest {
        operation: String::new(),
        input_digest: ctx.resolved.seal.clone(),
        allowed_destinations: contract
            .destinations
            .iter()
            .map(|d| d.to_string())
            .collect(),
        limits: crate::capability::answer::Limits {
            max_artifacts: contract.limits.max_artifacts,
            max_artifact_bytes: contract.limits.max_artifact_bytes,
        },
        contract: String::new(),
        exact_files: false,
    };
    crate::capability::answer::artifacts(obj, &request)
        .map(|list| {
            list.into_iter()
                .map(|a| Artifact {
                    path: a.path,
                    content: a.content,
                })
                .collect()
        })
        .map_err(|e| Rejection::spent(e.code, e.message, e.action))
}

fn choice_of(obj: &Map<String, Value>) -> Option<&str> {
    obj.get("choice").and_then(Value::as_str)
}

/// Refuses a choice the boundary did not offer (the refusal spends an attempt).
fn check_offered(choice: &str, ctx: &Context<'_, '_>) -> Result<(), Rejection> {
    if ctx.choices.iter().any(|c| c.label == choice) {
        return Ok(());
    }
    Err(Rejection::spent(
        ErrorCode::FlowChoiceUnknown,
        format!("'{choice}' is not one of the choices offered."),
        format!("Choose one of: {}.", labels(ctx.choices)),
    ))
}

fn human(obj: &Map<String, Value>, ctx: &Context<'_, '_>) -> Result<Answer, Rejection> {
    let offered = labels(ctx.choices);
    let choice = choice_of(obj)
        .filter(|c| !c.trim().is_empty())
        .ok_or_else(|| {
            Rejection::spent(
                ErrorCode::FlowAnswerAmbiguous,
                "The answer chooses nothing.",
                format!("Answer with \"choice\" set to one of: {offered}."),
            )
        })?;
    check_offered(choice, ctx)?;
    Ok(Answer::Choice(choice.to_owned()))
}

fn authorization(
    obj: &Map<String, Value>,
    approval: Option<&str>,
    ctx: &Context<'_, '_>,
) -> Result<Answer, Rejection> {
    if let Some(choice) = choice_of(obj) {
        check_offered(choice, ctx)?;
        if choice == PAUSE_LABEL || choice == STOP_LABEL {
            return Ok(Answer::Choice(choice.to_owned()));
        }
    }
    let row = ctx.resolved.stopped.ok_or_else(|| not_expected(ctx))?;
    let auth = ctx.resolved.authorization.as_ref();
    let planned = auth.map(|a| a.planned.as_slice()).unwrap_or_default();
    let missing = auth.map(|a| a.missing.as_slice()).unwrap_or_default();
    // The approval quoted is always the step's own digest over what it plans (the grant it
    // gives is recorded over the boundary's seal, a proposal's digest when one is the subject).
    let expected = approval_digest(&row.id, planned);
    let action = format!(
        "If the person approves {} for '{}', send the same answer with `{} --approval {expected}`; \
         to stop instead, answer with \"choice\": \"{STOP_LABEL}\".",
        EffectClass::join(missing),
        row.title,
        submit_command(ctx.folder)
    );
    match approval {
        None => Err(Rejection::spent(
            ErrorCode::FlowApprovalMissing,
            format!(
                "'{}' exercises {}, which needs an approval (\"{AUTHORIZE_LABEL}\" comes with --approval).",
                row.id,
                EffectClass::join(missing)
            ),
            action,
        )),
        Some(a) if a != expected => Err(Rejection::spent(
            ErrorCode::FlowApprovalMismatch,
            format!(
                "The approval does not match the effects of '{}': it was issued for another transition or another set of classes.",
                row.id
            ),
            action,
        )),
        Some(_) => Ok(Answer::Approved),
    }
}

fn execution(
    obj: &Map<String, Value>,
    sealed: &Invocation,
    ctx: &Context<'_, '_>,
) -> Result<Answer, Rejection> {
    parse_result(obj, sealed, &submit_command(ctx.folder)).map(Answer::Execution)
}
