//! What `create` and `update` share (package format v1): the agent authors exactly one file,
//! the package's `DESIGN.md`, at the one destination aw names; aw checks it against the content
//! gate and derives everything else. This module holds the question (the semantic request and
//! its contract) and the check of the answer.

use super::document::{DesignDocument, check_document, document_contract};
use super::manifest::{DESIGN_DOC_FILE, MANIFEST_FILE};
use crate::capability::answer::{Parsed, SemanticRequest, parse};
use crate::capability::error::CapabilityError;
use crate::capability::handler::{HandlerCall, HandlerResult, Verb};
use crate::capability::request::input_digest;
use crate::error_code::ErrorCode;

/// The gap of an authoring `validate` stage that carried no answer.
pub const ANSWER_GAP: &str = "the authored answer, as one JSON object on stdin";

/// What every v1 authoring contract ends with: the shape of a valid answer.
const ANSWER_SHAPE: &str = "Answer with one JSON object carrying 'version', 'operation', \
'input_digest', 'state': 'proposed' and 'artifacts' holding exactly one {path, content}: the \
allowed destination and the full text of DESIGN.md. aw derives the identity, the folder, the \
revision, the digest and design-manifest.json; an answer that authors any other file is refused.";

/// The contract of an authoring request: the operation's own sentence, the document's shape,
/// where paths are relative to, then the answer's shape.
pub fn contract(own: &str, relative_to: &str) -> String {
    format!(
        "{own} {} Paths are relative to {relative_to}. {ANSWER_SHAPE}",
        document_contract()
    )
}

/// The semantic request for authoring the one file `destination`.
pub fn request_for(call: &HandlerCall<'_>, destination: &str, contract: String) -> SemanticRequest {
    let request = call.request;
    SemanticRequest::new(
        format!("{}.{}", request.capability, request.operation),
        input_digest(&request.inputs),
        vec![destination.to_owned()],
        contract,
    )
    .with_exact_files()
}

/// The question a `prepare` or `continue` asks: the contract and the one destination.
pub fn question(semantic: SemanticRequest) -> HandlerResult {
    HandlerResult::NeedsInput {
        gaps: vec![
            semantic.contract.clone(),
            format!(
                "allowed destinations: {}",
                semantic.allowed_destinations.join(", ")
            ),
        ],
        output: None,
        semantic: Some(semantic),
    }
}

fn rejected(message: String, destination: &str) -> Box<HandlerResult> {
    Box::new(HandlerResult::Blocked(CapabilityError::new(
        ErrorCode::SemanticPathRejected,
        message,
        format!(
            "answer with exactly one artifact whose path is '{destination}' (prepare again if the package's number has moved on)"
        ),
    )))
}

/// The authored `DESIGN.md` of a `validate` stage, or the result that stops it: a question
/// when the answer is missing, a refusal when it breaks the protocol (`SEMANTIC_*`), authors a
/// file other than the destination (`SEMANTIC_PATH_REJECTED`, naming the expected path: the
/// manifest and every other file are aw's), or fails the content gate
/// (`DESIGN_CONTENT_INVALID`, every failure in the message).
pub fn authored_document(
    call: &HandlerCall<'_>,
    semantic: &SemanticRequest,
) -> Result<String, Box<HandlerResult>> {
    debug_assert_eq!(call.verb, Verb::Validate);
    let destination = semantic
        .allowed_destinations
        .first()
        .cloned()
        .unwrap_or_default();
    // Paths are judged here against the one destination, for a refusal that names it; the
    // protocol's parse only screens their shape.
    let screen = SemanticRequest {
        allowed_destinations: vec![".".to_owned()],
        ..semantic.clone()
    };
    let artifacts = match parse(call.answer, &screen) {
        Err(e) => return Err(Box::new(HandlerResult::Blocked(e))),
        Ok(Parsed::Missing) => {
            return Err(Box::new(HandlerResult::NeedsInput {
                gaps: vec![ANSWER_GAP.to_owned()],
                output: None,
                semantic: Some(semantic.clone()),
            }));
        }
        Ok(Parsed::Proposed(artifacts)) => artifacts,
    };
    if let Some(a) = artifacts
        .iter()
        .find(|a| a.path.rsplit('/').next() == Some(MANIFEST_FILE))
    {
        return Err(rejected(
            format!(
                "'{}': {MANIFEST_FILE} is derived and written by aw, never authored",
                a.path
            ),
            &destination,
        ));
    }
    if let Some(a) = artifacts.iter().find(|a| a.path != destination) {
        let more = if artifacts.len() > 1 {
            format!(" (the answer carries {} artifacts)", artifacts.len())
        } else {
            String::new()
        };
        return Err(rejected(
            format!(
                "'{}' is not the file this request authors: the one allowed path is '{destination}'{more}",
                a.path
            ),
            &destination,
        ));
    }
    let content = artifacts
        .into_iter()
        .next()
        .map(|a| a.content)
        .unwrap_or_default();
    let failures = check_document(&DesignDocument::read(&content), &destination);
    if !failures.is_empty() {
        let what: Vec<String> = failures.iter().map(|f| f.message.clone()).collect();
        return Err(Box::new(HandlerResult::Blocked(CapabilityError::new(
            ErrorCode::DesignContentInvalid,
            format!(
                "{DESIGN_DOC_FILE} does not pass the content gate: {}",
                what.join("; ")
            ),
            format!(
                "fix {DESIGN_DOC_FILE} ({}) and validate again",
                document_contract()
            ),
        ))));
    }
    Ok(content)
}

#[cfg(test)]
#[path = "authoring_tests.rs"]
mod tests;
