//! The typed failure of the capability protocol: a stable code, an English message and the next
//! action. Request builders and receipt invariants refuse with it, and a receipt's `error` block
//! carries it.

use crate::error_code::ErrorCode;
use serde::Serialize;

/// A refusal of the capability protocol.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error, schemars::JsonSchema)]
#[error("{code}: {message}")]
pub struct CapabilityError {
    /// The stable code.
    pub code: ErrorCode,
    /// What went wrong.
    pub message: String,
    /// What to do next (never blank).
    pub action: String,
}

impl CapabilityError {
    /// A refusal.
    pub fn new(code: ErrorCode, message: impl Into<String>, action: impl Into<String>) -> Self {
        CapabilityError {
            code,
            message: message.into(),
            action: action.into(),
        }
    }
}

/// Results of the capability protocol.
pub type CapabilityResult<T> = Result<T, CapabilityError>;
