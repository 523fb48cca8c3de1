//! The semantic answer of an authoring operation (capability spec §6.5): the request aw hands to
//! the agent (what to author, which digest to quote, where files may go, how many and how big),
//! the skeleton of a valid answer, and the parser that turns the agent's answer into the
//! artifacts of a durable plan — or into the one reason it is refused.

use super::error::{CapabilityError, CapabilityResult};
use super::paths::destination_refusal;
use super::plan::Artifact;
use crate::error_code::ErrorCode;
use aw_json::js::js_trim;
use serde::Serialize;
use serde_json::{Map, Value, json};

/// The most artifacts one answer may carry.
pub const MAX_ARTIFACTS: usize = 60;
/// The largest artifact content, in UTF-8 bytes.
pub const MAX_ARTIFACT_BYTES: usize = 256_000;
/// The only answer envelope version.
pub const ANSWER_VERSION: u64 = 1;

/// The answer's size limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Limits {
    /// [`MAX_ARTIFACTS`].
    pub max_artifacts: usize,
    /// [`MAX_ARTIFACT_BYTES`].
    pub max_artifact_bytes: usize,
}

/// What the agent must author, and the frame its answer must fit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct SemanticRequest {
    /// `<capability>.<operation>`: the answer repeats it.
    pub operation: String,
    /// The request's `input_digest`: the answer quotes it.
    pub input_digest: String,
    /// Every artifact path must be one of these or inside one, segment by segment.
    pub allowed_destinations: Vec<String>,
    /// Size limits.
    pub limits: Limits,
    /// What to author, in prose.
    pub contract: String,
    /// Whether each destination is the one file to author rather than a folder to author in
    /// (not serialized: it only shapes the skeleton).
    #[serde(skip)]
    pub exact_files: bool,
}

impl SemanticRequest {
    /// A request under the standard limits.
    pub fn new(
        operation: String,
        input_digest: String,
        allowed_destinations: Vec<String>,
        contract: String,
    ) -> Self {
        SemanticRequest {
            operation,
            input_digest,
            allowed_destinations,
            limits: Limits {
                max_artifacts: MAX_ARTIFACTS,
                max_artifact_bytes: MAX_ARTIFACT_BYTES,
            },
            contract,
            exact_files: false,
        }
    }

    /// The same request, whose destinations are the exact files to author.
    pub fn with_exact_files(self) -> Self {
        SemanticRequest {
            exact_files: true,
            ..self
        }
    }

    /// The smallest valid answer, with placeholders where the agent writes: what aw prints so an
    /// agent never has to compute a digest by hand.
    pub fn skeleton(&self) -> Value {
        let first = self
            .allowed_destinations
            .first()
            .map(|d| {
                if self.exact_files {
                    d.clone()
                } else {
                    format!("{d}/<file>")
                }
            })
            .unwrap_or_else(|| "<path>".to_owned());
        json!({
            "version": ANSWER_VERSION,
            "operation": self.operation,
            "input_digest": self.input_digest,
            "state": "proposed",
            "artifacts": [{"path": first, "content": "<text>"}],
        })
    }
}

/// What an answer turned out to be.
#[derive(Debug, Clone, PartialEq)]
pub enum Parsed {
    /// No answer yet: the attempt still needs one.
    Missing,
    /// A proposal: the artifacts, verbatim and in the given order.
    Proposed(Vec<Artifact>),
}

fn invalid(message: impl Into<String>) -> CapabilityError {
    CapabilityError::new(
        ErrorCode::SemanticResponseInvalid,
        message,
        "fix the answer so it follows the request's contract and send it again",
    )
}

/// Parses the agent's answer against the semantic request (§6.5, first failure wins). A missing
/// answer (absent, `null` or a blank string) is [`Parsed::Missing`], not an error.
pub fn parse(answer: Option<&Value>, request: &SemanticRequest) -> CapabilityResult<Parsed> {
    let answer = match answer {
        None | Some(Value::Null) => return Ok(Parsed::Missing),
        Some(Value::String(s)) if js_trim(s).is_empty() => return Ok(Parsed::Missing),
        Some(a) => a,
    };
    let obj = check_envelope(answer, request, &AUTHORING)?;
    artifacts(obj, request).map(Parsed::Proposed)
}

/// What a refused envelope tells the agent to do next, per refusal: the words differ between an
/// authoring capability and `aw persist`, the rules do not.
#[derive(Debug, Clone, Copy)]
pub struct EnvelopeActions {
    /// For a malformed envelope (`SEMANTIC_RESPONSE_INVALID`).
    pub fix: &'static str,
    /// For a stale `input_digest` (`SEMANTIC_STALE`); the digest to quote is appended.
    pub stale: &'static str,
    /// For `state: "ambiguous"`.
    pub ambiguous: &'static str,
    /// For `state: "unsupported"`.
    pub unsupported: &'static str,
}

/// The actions of an authoring capability's answer.
const AUTHORING: EnvelopeActions = EnvelopeActions {
    fix: "fix the answer so it follows the request's contract and send it again",
    stale: "prepare again, author against the new request",
    ambiguous: "settle the ambiguity (add inputs or context) and prepare again",
    unsupported: "change the request, or author the files another way",
};

/// Checks an answer's envelope against its request, first failure wins: a JSON object, `version`
/// 1 (compared as a number, as JavaScript does), the request's `operation`, its `input_digest`
/// (`SEMANTIC_STALE`), and `state` `proposed` (`ambiguous` / `unsupported` are refusals carrying
/// the answer's `reason`). Returns the object for the body's own checks.
pub fn check_envelope<'a>(
    answer: &'a Value,
    request: &SemanticRequest,
    actions: &EnvelopeActions,
) -> CapabilityResult<&'a Map<String, Value>> {
    let invalid = |message: String| {
        CapabilityError::new(ErrorCode::SemanticResponseInvalid, message, actions.fix)
    };
    let Some(obj) = answer.as_object() else {
        return Err(invalid("the answer is not a JSON object".to_owned()));
    };
    if obj.get("version").and_then(Value::as_f64) != Some(ANSWER_VERSION as f64) {
        return Err(invalid(format!(
            "the answer's \"version\" must be {ANSWER_VERSION}"
        )));
    }
    if obj.get("operation").and_then(Value::as_str) != Some(request.operation.as_str()) {
        return Err(invalid(format!(
            "the answer's \"operation\" must be \"{}\"",
            request.operation
        )));
    }
    let quoted = obj.get("input_digest").and_then(Value::as_str);
    if quoted != Some(request.input_digest.as_str()) {
        return Err(CapabilityError::new(
            ErrorCode::SemanticStale,
            format!(
                "the answer quotes input_digest {} but the request's is {}: it answers an earlier state",
                quoted.map_or_else(|| "(none)".to_owned(), |q| format!("'{q}'")),
                request.input_digest
            ),
            format!(
                "{}, and quote \"input_digest\": \"{}\"",
                actions.stale, request.input_digest
            ),
        ));
    }
    let reason = obj
        .get("reason")
        .and_then(Value::as_str)
        .map(js_trim)
        .filter(|r| !r.is_empty())
        .map(str::to_owned);
    match obj.get("state").and_then(Value::as_str) {
        Some("proposed") => Ok(obj),
        Some("ambiguous") => Err(CapabilityError::new(
            ErrorCode::SemanticAmbiguous,
            reason.unwrap_or_else(|| "the agent found the request ambiguous".to_owned()),
            actions.ambiguous,
        )),
        Some("unsupported") => Err(CapabilityError::new(
            ErrorCode::SemanticUnsupported,
            reason.unwrap_or_else(|| "the agent cannot author this request".to_owned()),
            actions.unsupported,
        )),
        _ => Err(invalid(
            "the answer's \"state\" must be \"proposed\", \"ambiguous\" or \"unsupported\""
                .to_owned(),
        )),
    }
}

pub(crate) fn artifacts(
    obj: &Map<String, Value>,
    request: &SemanticRequest,
) -> CapabilityResult<Vec<Artifact>> {
    let items = match obj.get("artifacts") {
        Some(Value::Array(items)) if !items.is_empty() => items,
        _ => {
            return Err(invalid(
                "the answer's \"artifacts\" must be a non-empty array",
            ));
        }
    };
    if items.len() > request.limits.max_artifacts {
        return Err(invalid(format!(
            "the answer carries {} artifacts; at most {} are allowed",
            items.len(),
            request.limits.max_artifacts
        )));
    }
    let mut out: Vec<Artifact> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let (Some(path), Some(content)) = (
            item.get("path").and_then(Value::as_str),
            item.get("content").and_then(Value::as_str),
        ) else {
            return Err(invalid(format!(
                "artifact {} needs a string \"path\" and a string \"content\"",
                i + 1
            )));
        };
        let path = js_trim(path).to_owned();
        if out.iter().any(|a| a.path == path) {
            return Err(invalid(format!("the path '{path}' appears twice")));
        }
        if content.len() > request.limits.max_artifact_bytes {
            return Err(invalid(format!(
                "'{path}' holds {} bytes; at most {} are allowed",
                content.len(),
                request.limits.max_artifact_bytes
            )));
        }
        if let Some(why) = destination_refusal(&path, &request.allowed_destinations) {
            return Err(CapabilityError::new(
                ErrorCode::SemanticPathRejected,
                format!("destination not allowed ('{path}'): {why}"),
                format!(
                    "write every artifact inside {}",
                    request.allowed_destinations.join(", ")
                ),
            ));
        }
        out.push(Artifact {
            path,
            content: content.to_owned(),
            overwrite: None,
        });
    }
    Ok(out)
}

#[cfg(test)]
#[path = "answer_tests.rs"]
mod tests;
