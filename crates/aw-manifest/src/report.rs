//! The outcome of validating one skill folder.

use serde::Serialize;
use serde_json::Value;

/// The result class of one manifest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// Every check passed.
    Valid,
    /// At least one check failed.
    Invalid,
    /// The manifest declares a schema version this validator does not understand.
    Unsupported,
}

impl Class {
    /// The upper-case label of the text report (`VALID`, `INVALID`, `UNSUPPORTED`).
    pub fn label(self) -> &'static str {
        match self {
            Class::Valid => "VALID",
            Class::Invalid => "INVALID",
            Class::Unsupported => "UNSUPPORTED",
        }
    }
}

/// One failed check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The offending field, as a JS-style access path (`roles.review.source`, `settings[0].key`).
    pub path: String,
    /// A stable identifier of the check (`settings.duration-zero`).
    pub rule: &'static str,
    /// An English sentence that names the field first, in backticks.
    pub message: String,
}

/// What the validator concluded about one manifest.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The result class.
    pub class: Class,
    /// The manifest's `name`, as written (any JSON type); absent for the early read/parse/shape
    /// failures.
    pub name: Option<Value>,
    /// The manifest's `kind`, as written; only present after a full run.
    pub kind: Option<Value>,
    /// `false` only when the manifest says `"available": false`; only present after a full run.
    pub available: Option<bool>,
    /// The failed checks, in evaluation order.
    pub errors: Vec<Finding>,
}

impl Report {
    /// The ` (<name>)` suffix of the text header: JS `String(name)` when the name is truthy.
    pub fn name_label(&self) -> Option<String> {
        self.name
            .as_ref()
            .filter(|n| super::js::truthy(*n))
            .map(super::js::js_string)
    }
}
