//! The registry: every decision row of the five journeys, the chassis and the command scopes
//! (same ids, scopes, authorities, effects, signals, conditions, actions and alternatives as the
//! reference v21.3.0; the prose is ours).
//!
//! `registry.json` is the source; the process reads `table.rs`, the same rows compiled into
//! static data, because parsing 70 KB of JSON into owned strings cost about 150 µs on every
//! `aw flow` call (a tenth of the whole command). The test `flow_registry_table` regenerates the
//! table from the JSON and fails when they differ, and checks that both parse to equal registries.
//! Text fields are `Cow<'static, _>` so the same types serve the static table (borrowed), a
//! registry parsed from JSON and the engine's own values (owned).
//!
//! The engine never branches on a row id: it only interprets the declarative fields below.

use crate::vocab::flow::{Authority, CLI_OWNED, EffectClass, Placement};
use serde::{Deserialize, Deserializer, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;

#[rustfmt::skip]
mod table;

/// The source data file the static table is generated from (read by the tests).
pub const REGISTRY_JSON: &str = include_str!("registry.json");

/// A text of the registry: borrowed from the static table, owned when parsed or built.
pub type Text = Cow<'static, str>;

/// A list of the registry: borrowed from the static table, owned when parsed or built.
pub type List<T> = Cow<'static, [T]>;

/// One decision (transition) of the registry.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Decision {
    /// Stable id `<scope>.<name>`; what the cursor records.
    pub id: Text,
    /// `chassis`, a flow name, or `cmd:<command>`.
    pub scope: Text,
    /// One line saying what the step decides.
    pub title: Text,
    /// Who decides it.
    pub authority: Authority,
    /// `cli-owned`; anything else blocks the row.
    pub ownership: Text,
    /// The doctrine document explaining the step.
    pub document: Text,
    /// The marker the doctrine must contain (guard data, unused at run time).
    #[serde(default)]
    pub attribution: Option<Text>,
    /// Effect classes applying the row exercises; absent means `read_only`.
    #[serde(default)]
    pub effects: Option<List<EffectClass>>,
    /// The closed signal vocabulary an agent may declare at this row.
    #[serde(default)]
    pub signals: Option<List<Text>>,
    /// A delegated invocation: makes the row an execution boundary.
    #[serde(default)]
    pub action: Option<Action>,
    /// The threshold under which the row is skipped.
    #[serde(default)]
    pub condition: Option<Condition>,
    /// The row's own choices (human rows).
    #[serde(default)]
    pub alternatives: Option<List<Choice>>,
    /// Chassis rows composed into every journey.
    #[serde(default)]
    pub placement: Option<Placement>,
    /// Chassis rows realised elsewhere (guard data).
    #[serde(default)]
    pub realized_by: Option<Realization>,
    /// `run`: the run's custody covers the row's self-coverable classes (no person asked).
    #[serde(default)]
    pub custody: Option<Custody>,
    /// An authoring row: the answer carries the exact bytes to write, sealed as a proposal.
    #[serde(default)]
    pub proposes: Option<Proposes>,
    /// The row whose answer fixes the run's scope (plan and source aliases).
    #[serde(default)]
    pub scopes_sources: bool,
    /// A human row deciding the seated proposal: its approving label grants it.
    #[serde(default)]
    pub publishes: Option<Publishes>,
    /// A human row whose approving label grants another row's effects.
    #[serde(default)]
    pub authorizes: Option<Authorizes>,
}

/// Who may cover a row's effects without asking a person.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Custody {
    /// The run itself, for the classes custody may cover.
    Run,
}

/// What an authoring row may propose.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Proposes {
    /// The docs folders its artifacts may land in.
    pub destinations: List<Text>,
    /// The ceiling of effect classes a proposal may have.
    pub effects: List<EffectClass>,
    /// How many artifacts, and how large.
    pub limits: Limits,
}

/// The bounds of a proposal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Limits {
    /// At most this many artifacts.
    pub max_artifacts: usize,
    /// Each at most this many UTF-8 bytes.
    pub max_artifact_bytes: usize,
}

/// The label that approves the seated proposal.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Publishes {
    /// The approving choice's label.
    pub approve: Text,
}

/// The label that grants another row's effects, and that row.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Authorizes {
    /// The approving choice's label.
    pub approve: Text,
    /// The row it grants.
    pub transition: Text,
}

impl Decision {
    /// Whether the CLI owns the row.
    pub fn owned(&self) -> bool {
        self.ownership == CLI_OWNED
    }

    /// The declared effects, `read_only` when none are declared.
    pub fn effects(&self) -> Vec<EffectClass> {
        match &self.effects {
            Some(e) if !e.is_empty() => e.to_vec(),
            _ => vec![EffectClass::ReadOnly],
        }
    }

    /// The signal vocabulary (empty when the row declares none).
    pub fn signals(&self) -> &[Text] {
        self.signals.as_deref().unwrap_or(&[])
    }
}

/// A delegated invocation and what must come back from it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Action {
    /// What to run.
    pub invocation: Invocation,
    /// Who runs it: aw in-process, or the agent.
    #[serde(default)]
    pub execution: Option<Execution>,
    /// The validation ids the result must carry, green and with a detail.
    pub evidence: List<Text>,
    /// Whether running it twice is harmless.
    pub idempotent: bool,
    /// What to do when it comes back failed or partial.
    pub recovery: Text,
}

/// Who runs an action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum Execution {
    /// aw runs the operation itself, in-process (the invocation is shown, never run).
    Internal {
        /// The operation.
        operation: Text,
        /// The session files it reads (a `session.artifacts` dump).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dump: Option<List<Text>>,
    },
    /// The agent runs the invocation and reports the result.
    External {
        /// Why aw does not run it itself.
        reason: Text,
    },
}

/// An exact command line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Invocation {
    /// The program (`aw`).
    pub program: Text,
    /// Its arguments.
    pub args: List<Text>,
    /// Where it runs (`.` for the workspace, or the session folder).
    pub target: Text,
    /// Text for its stdin, if any.
    pub input: Option<Text>,
}

impl Invocation {
    /// The command line as one string: program and arguments joined by spaces.
    pub fn command_line(&self) -> String {
        std::iter::once(self.program.as_ref())
            .chain(self.args.iter().map(|a| a.as_ref()))
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
    pub otherwise: Text,
}

/// Fires when at least `min` distinct signals of the vocabulary were observed at `observed`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Threshold {
    /// The agent row whose observations count.
    pub observed: Text,
    /// The subset of its vocabulary that counts (all of it when absent).
    #[serde(default)]
    pub of: Option<List<Text>>,
    /// How many distinct signals fire it.
    pub min: usize,
}

/// One choice offered at a human or authorization boundary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    /// The exact label an answer quotes.
    pub label: Text,
    /// What choosing it means.
    pub consequence: Text,
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
        module: Text,
        /// The symbol in it.
        symbol: Text,
    },
    /// By walked rows.
    Transitions {
        /// Their ids.
        ids: List<Text>,
    },
}

/// A command that declares no decision, and why.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exclusion {
    /// The command.
    pub command: Text,
    /// Why it has no row.
    pub reason: Text,
}

/// The whole registry.
#[derive(Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Registry {
    /// Every row, in table order.
    pub decisions: List<Decision>,
    /// The `docs/` folders each flow may write into, by flow name in name order.
    #[serde(deserialize_with = "boundary_by_name")]
    pub docs_boundary: List<(Text, List<Text>)>,
    /// Commands with no row.
    pub command_exclusions: List<Exclusion>,
    /// Each id with its row's position, in id order.
    #[serde(skip)]
    index: List<(Text, usize)>,
}

/// Reads the JSON object of `docs_boundary` into the name-ordered pairs the table holds.
fn boundary_by_name<'de, D: Deserializer<'de>>(d: D) -> Result<List<(Text, List<Text>)>, D::Error> {
    let map = BTreeMap::<String, Vec<String>>::deserialize(d)?;
    Ok(map
        .into_iter()
        .map(|(flow, folders)| {
            let folders: Vec<Text> = folders.into_iter().map(Text::from).collect();
            (Text::from(flow), List::from(folders))
        })
        .collect())
}

impl Registry {
    /// Parses a registry document and indexes its ids.
    pub fn parse(text: &str) -> Result<Registry, String> {
        let mut reg: Registry = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let mut index: Vec<(Text, usize)> = reg
            .decisions
            .iter()
            .enumerate()
            .map(|(i, d)| (d.id.clone(), i))
            .collect();
        index.sort();
        if let Some(w) = index.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(format!("the id '{}' appears twice", w[0].0));
        }
        reg.index = index.into();
        Ok(reg)
    }

    /// The built-in registry (static data: nothing is parsed).
    pub fn get() -> &'static Registry {
        &table::REGISTRY
    }

    /// A row by id.
    pub fn decision(&self, id: &str) -> Option<&Decision> {
        let at = self
            .index
            .binary_search_by(|(known, _)| known.as_ref().cmp(id))
            .ok()?;
        self.decisions.get(self.index[at].1)
    }

    /// The rows of one scope, in table order.
    pub fn of_scope<'a>(&'a self, scope: &'a str) -> impl Iterator<Item = &'a Decision> + 'a {
        self.decisions.iter().filter(move |d| d.scope == scope)
    }

    /// The `docs/` folders `flow` may write into (none for a flow the registry does not list).
    pub fn docs_of(&self, flow: &str) -> &[Text] {
        self.docs_boundary
            .iter()
            .find(|(name, _)| name == flow)
            .map_or(&[], |(_, folders)| folders.as_ref())
    }
}
