//! The registry: every decision row of the five journeys, the chassis and the command scopes,
//! loaded from the embedded data file `registry.json` (same ids, scopes, authorities, effects,
//! signals, conditions, actions and alternatives as the reference v21.3.0; the prose is ours).
//!
//! The engine never branches on a row id: it only interprets the declarative fields below.

use super::error::FlowError;
use crate::error_code::ErrorCode;
use crate::vocab::flow::{Authority, CLI_OWNED, EffectClass, Placement};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

/// The embedded data file.
pub const REGISTRY_JSON: &str = include_str!("registry.json");

/// One decision (transition) of the registry.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Decision {
    /// Stable id `<scope>.<name>`; what the cursor records.
    pub id: String,
    /// `chassis`, a flow name, or `cmd:<command>`.
    pub scope: String,
    /// One line saying what the step decides.
    pub title: String,
    /// Who decides it.
    pub authority: Authority,
    /// `cli-owned`; anything else blocks the row.
    pub ownership: String,
    /// The doctrine document explaining the step.
    pub document: String,
    /// The marker the doctrine must contain (guard data, unused at run time).
    #[serde(default)]
    pub attribution: Option<String>,
    /// Effect classes applying the row exercises; absent means `read_only`.
    #[serde(default)]
    pub effects: Option<Vec<EffectClass>>,
    /// The closed signal vocabulary an agent may declare at this row.
    #[serde(default)]
    pub signals: Option<Vec<String>>,
    /// A delegated invocation: makes the row an execution boundary.
    #[serde(default)]
    pub action: Option<Action>,
    /// The threshold under which the row is skipped.
    #[serde(default)]
    pub condition: Option<Condition>,
    /// The row's own choices (human rows).
    #[serde(default)]
    pub alternatives: Option<Vec<Choice>>,
    /// Chassis rows composed into every journey.
    #[serde(default)]
    pub placement: Option<Placement>,
    /// Chassis rows realised elsewhere (guard data).
    #[serde(default)]
    pub realized_by: Option<Realization>,
}

impl Decision {
    /// Whether the CLI owns the row.
    pub fn owned(&self) -> bool {
        self.ownership == CLI_OWNED
    }

    /// The declared effects, `read_only` when none are declared.
    pub fn effects(&self) -> Vec<EffectClass> {
        match &self.effects {
            Some(e) if !e.is_empty() => e.clone(),
            _ => vec![EffectClass::ReadOnly],
        }
    }

    /// The signal vocabulary (empty when the row declares none).
    pub fn signals(&self) -> &[String] {
        self.signals.as_deref().unwrap_or(&[])
    }
}

/// A delegated invocation and what must come back from it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Action {
    /// What to run.
    pub invocation: Invocation,
    /// The validation ids the result must carry, green and with a detail.
    pub evidence: Vec<String>,
    /// Whether running it twice is harmless.
    pub idempotent: bool,
    /// What to do when it comes back failed or partial.
    pub recovery: String,
}

/// An exact command line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Invocation {
    /// The program (`aw`).
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Where it runs (`.` for the workspace, or the session folder).
    pub target: String,
    /// Text for its stdin, if any.
    pub input: Option<String>,
}

impl Invocation {
    /// The command line as one string: program and arguments joined by spaces.
    pub fn command_line(&self) -> String {
        std::iter::once(self.program.as_str())
            .chain(self.args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// A signal-counting condition.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    /// The rule.
    pub threshold: Threshold,
    /// The skip reason when it does not fire.
    pub otherwise: String,
}

/// Fires when at least `min` distinct signals of the vocabulary were observed at `observed`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Threshold {
    /// The agent row whose observations count.
    pub observed: String,
    /// The subset of its vocabulary that counts (all of it when absent).
    #[serde(default)]
    pub of: Option<Vec<String>>,
    /// How many distinct signals fire it.
    pub min: usize,
}

/// One choice offered at a human or authorization boundary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    /// The exact label an answer quotes.
    pub label: String,
    /// What choosing it means.
    pub consequence: String,
    /// Whether it is the recommended one.
    pub recommended: bool,
}

/// How a chassis row that is not walked is realised.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum Realization {
    /// By an engine symbol.
    Engine {
        /// The reference module.
        module: String,
        /// The symbol in it.
        symbol: String,
    },
    /// By walked rows.
    Transitions {
        /// Their ids.
        ids: Vec<String>,
    },
}

/// A command that declares no decision, and why.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exclusion {
    /// The command.
    pub command: String,
    /// Why it has no row.
    pub reason: String,
}

/// The whole registry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Registry {
    /// Every row, in table order.
    pub decisions: Vec<Decision>,
    /// The `docs/` folders each flow may write into.
    pub docs_boundary: BTreeMap<String, Vec<String>>,
    /// Commands with no row.
    pub command_exclusions: Vec<Exclusion>,
    #[serde(skip)]
    index: HashMap<String, usize>,
}

impl Registry {
    /// Parses a registry document and indexes its ids.
    pub fn parse(text: &str) -> Result<Registry, String> {
        let mut reg: Registry = serde_json::from_str(text).map_err(|e| e.to_string())?;
        for (i, d) in reg.decisions.iter().enumerate() {
            if reg.index.insert(d.id.clone(), i).is_some() {
                return Err(format!("the id '{}' appears twice", d.id));
            }
        }
        Ok(reg)
    }

    /// The embedded registry, parsed once per process.
    pub fn get() -> Result<&'static Registry, FlowError> {
        static CELL: OnceLock<Result<Registry, String>> = OnceLock::new();
        CELL.get_or_init(|| Registry::parse(REGISTRY_JSON))
            .as_ref()
            .map_err(|why| {
                FlowError::new(
                    ErrorCode::FlowRegistryInvalid,
                    format!("The built-in flow registry cannot be read: {why}."),
                    "This is a bug in aw; please report it with `aw --version`.",
                )
            })
    }

    /// A row by id.
    pub fn decision(&self, id: &str) -> Option<&Decision> {
        self.index.get(id).map(|&i| &self.decisions[i])
    }

    /// The rows of one scope, in table order.
    pub fn of_scope<'a>(&'a self, scope: &'a str) -> impl Iterator<Item = &'a Decision> + 'a {
        self.decisions.iter().filter(move |d| d.scope == scope)
    }
}
