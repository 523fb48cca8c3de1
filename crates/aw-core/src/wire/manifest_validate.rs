//! `aw manifest validate --format json`: each skill folder's `capability.json` checked, in the
//! order given.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

/// The output of `aw manifest validate --format json`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ManifestValidate<'a> {
    /// One result per folder, in the order given.
    pub results: Vec<ManifestResult<'a>>,
}

/// What the validator concluded about one folder.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ManifestResult<'a> {
    /// The folder (absolute).
    pub path: &'a str,
    /// The folder as typed.
    pub arg: &'a str,
    /// The manifest's `name` as written (any JSON type), or `null` before it could be read.
    pub name: Option<&'a Value>,
    /// The manifest's `kind` as written, or `null` before a full run.
    pub kind: Option<&'a Value>,
    /// `false` only when the manifest says so; `null` before a full run.
    pub available: Option<bool>,
    /// `valid`, `invalid` or `unsupported`.
    pub class: ManifestClass,
    /// The failed checks, in evaluation order.
    pub errors: Vec<Finding<'a>>,
    /// The ` (<name>)` of the text header: the name as JavaScript prints it, when truthy.
    #[serde(skip)]
    #[schemars(skip)]
    pub name_label: Option<String>,
}

/// The result class of one manifest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ManifestClass {
    /// Every check passed.
    Valid,
    /// At least one check failed.
    Invalid,
    /// The manifest declares a schema version the validator does not understand.
    Unsupported,
}

impl ManifestClass {
    /// The upper-case label of the text report.
    pub fn label(self) -> &'static str {
        match self {
            ManifestClass::Valid => "VALID",
            ManifestClass::Invalid => "INVALID",
            ManifestClass::Unsupported => "UNSUPPORTED",
        }
    }
}

/// One failed check.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Finding<'a> {
    /// The offending field, as a JS-style access path.
    pub path: &'a str,
    /// A stable identifier of the check.
    pub rule: &'static str,
    /// An English sentence that names the field first.
    pub message: &'a str,
}
