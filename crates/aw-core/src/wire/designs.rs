//! `aw designs`: the design packages (the index itself is the list's output), one package by
//! identity, or a plan's design gate that passed.

use crate::design::gate::Gate;
use crate::design::index::DesignPackageEntry;
use schemars::JsonSchema;
use serde::Serialize;

/// `aw designs --id DES-NNN`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Package<'a> {
    /// The package.
    pub package: &'a DesignPackageEntry,
}

/// `aw designs --plan <path>` when the gate passes (a gate that does not is a failure carrying
/// it as `data.gate`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlanGate<'a> {
    /// The plan as given.
    pub plan: &'a str,
    /// The gate's verdict.
    pub gate: &'a Gate,
}

/// The output of `aw designs`, by the flags given.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Designs<'a> {
    /// No flag: every package.
    Index(&'a crate::design::index::DesignIndex),
    /// `--id`.
    Package(Package<'a>),
    /// `--plan`, when the gate passes.
    Gate(PlanGate<'a>),
}
