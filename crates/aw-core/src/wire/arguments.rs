//! The `details` of a refused command line: the command, the argument or the flags at fault,
//! each key present only when the refusal has it, in the order the reference printed them.

use schemars::JsonSchema;
use serde::Serialize;

/// `error.details` of a refused command line.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArgumentDetails {
    /// The command named (a group without its verb, or an unknown verb).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// The help to read (`aw <group> --help`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help_hint: Option<String>,
    /// The verbs the group has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub available_commands: Option<Vec<String>>,
    /// The argument refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub argument: Option<String>,
    /// The flags the command takes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub valid_flags: Option<Vec<String>>,
    /// The value refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// The required arguments missing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing: Option<Vec<String>>,
}
