//! `aw capability descriptor validate`: a capability descriptor that keeps the contract.

use schemars::JsonSchema;
use serde::Serialize;

/// The output of `aw capability descriptor validate` when the descriptor is valid (a refusal is
/// the failure envelope).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DescriptorValid<'a> {
    /// Always `true`.
    #[schemars(extend("const" = true))]
    pub ok: bool,
    /// The descriptor checked.
    pub descriptor: DescriptorSummary<'a>,
    /// The file or folder as typed (the human view names it).
    #[serde(skip)]
    #[schemars(skip)]
    pub shown: &'a str,
}

/// A valid descriptor, in brief.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DescriptorSummary<'a> {
    /// The capability's name.
    pub name: &'a str,
    /// Its operations' names, in order.
    pub operations: Vec<&'a str>,
}
