//! The design domain's failure: a stable code, the artifact it is about, what is wrong and
//! what to do. The index and the source report collect them; the floor hands the first one
//! that blocks an attempt to the receipt as a [`CapabilityError`].

use crate::capability::error::CapabilityError;
use crate::error_code::ErrorCode;
use serde::Serialize;

/// One failure of the design domain (keys in emission order: code, artifact, message, action).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct DesignFailure {
    /// The stable code.
    pub code: ErrorCode,
    /// The file, folder or identity the failure is about.
    pub artifact: String,
    /// What is wrong.
    pub message: String,
    /// What to do about it (never blank).
    pub action: String,
}

impl DesignFailure {
    /// A failure.
    pub fn new(
        code: ErrorCode,
        artifact: impl Into<String>,
        message: impl Into<String>,
        action: impl Into<String>,
    ) -> Self {
        DesignFailure {
            code,
            artifact: artifact.into(),
            message: message.into(),
            action: action.into(),
        }
    }
}

impl From<DesignFailure> for CapabilityError {
    /// A receipt's error carries no artifact: the message already names what it is about.
    fn from(f: DesignFailure) -> Self {
        CapabilityError::new(f.code, f.message, f.action)
    }
}
