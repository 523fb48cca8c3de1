//! The `details` of a refused command line: the command, the argument or the flags at fault,
//! each key present only when the refusal has it, in the order the reference printed them.

use serde::Serialize;

/// `error.details` of a refused command line.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ArgumentDetails<'a> {
    /// The command named (a group without its verb, or an unknown verb).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<&'a str>,
    /// The help to read (`aw <group> --help`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help_hint: Option<String>,
    /// The verbs the group has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub available_commands: Option<&'a [String]>,
    /// The argument refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub argument: Option<&'a str>,
    /// The flags the command takes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub valid_flags: Option<&'a [String]>,
    /// The value refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<&'a str>,
    /// The required arguments missing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing: Option<&'a [String]>,
}
