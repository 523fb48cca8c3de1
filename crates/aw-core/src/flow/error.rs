//! The flow engine's typed failures: a stable code, an English message and the next action.

/// A failure of the flow engine. Invocation failures (`ok: false`, exit 1) and the causes of
/// blocked boundaries share this shape.
use crate::error_code::ErrorCode;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct FlowError {
    /// The stable code (`FLOW_RUN_TAMPERED`, …).
    pub code: ErrorCode,
    /// What went wrong.
    pub message: String,
    /// What to do next.
    pub action: String,
}

impl FlowError {
    /// A failure.
    pub fn new(code: ErrorCode, message: impl Into<String>, action: impl Into<String>) -> Self {
        FlowError {
            code,
            message: message.into(),
            action: action.into(),
        }
    }
}

/// Results of the flow engine.
pub type FlowResult<T> = Result<T, FlowError>;
