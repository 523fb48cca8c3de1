//! The closed vocabularies of the flow engine, spelled on the wire exactly as the reference
//! spells them.

use serde::{Deserialize, Serialize};

/// How many recorded attempts a boundary takes before it is exhausted.
pub const MAX_BOUNDARY_ATTEMPTS: usize = 3;
/// The only ownership the registry knows; any other value blocks the row.
pub const CLI_OWNED: &str = "cli-owned";
/// The flow-control choice that pauses the run at the same boundary (to compact the context).
pub const PAUSE_LABEL: &str = "Compact";
/// The flow-control choice that stops the run where it stands.
pub const STOP_LABEL: &str = "Stop";
/// The version of the directive document.
pub const DIRECTIVE_VERSION: u32 = 1;
/// The version of the semantic request document.
pub const REQUEST_VERSION: u32 = 1;

/// A Workline flow: the journeys a run can walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Flow {
    /// `spec-refine`.
    SpecRefine,
    /// `plan-new`.
    PlanNew,
    /// `plan-refine`.
    PlanRefine,
    /// `plan-exec`.
    PlanExec,
    /// `quick`.
    Quick,
}

impl Flow {
    /// Every flow, in the reference's order (the order messages list them in).
    pub const ALL: [Flow; 5] = [
        Flow::SpecRefine,
        Flow::PlanNew,
        Flow::PlanRefine,
        Flow::PlanExec,
        Flow::Quick,
    ];

    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Flow::SpecRefine => "spec-refine",
            Flow::PlanNew => "plan-new",
            Flow::PlanRefine => "plan-refine",
            Flow::PlanExec => "plan-exec",
            Flow::Quick => "quick",
        }
    }

    /// Parses the wire spelling.
    pub fn parse(s: &str) -> Option<Flow> {
        Flow::ALL.into_iter().find(|f| f.as_str() == s)
    }

    /// The tranche a flow belongs to (derived, never stored).
    pub fn tranche(self) -> Tranche {
        match self {
            Flow::Quick => Tranche::Quick,
            Flow::SpecRefine => Tranche::Spec,
            Flow::PlanNew | Flow::PlanRefine | Flow::PlanExec => Tranche::Plan,
        }
    }

    /// The flows joined for a message: `spec-refine, plan-new, …`.
    pub fn list() -> String {
        Flow::ALL.map(Flow::as_str).join(", ")
    }
}

/// The tranche of a flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Tranche {
    /// `quick`.
    Quick,
    /// `spec`.
    Spec,
    /// `plan`.
    Plan,
    /// `chassis`.
    Chassis,
}

impl Tranche {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Tranche::Quick => "quick",
            Tranche::Spec => "spec",
            Tranche::Plan => "plan",
            Tranche::Chassis => "chassis",
        }
    }
}

/// Who decides a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Authority {
    /// The CLI applies it (or delegates its execution).
    Cli,
    /// The agent's judgment: a semantic boundary.
    Agent,
    /// A person's preference: a human boundary.
    Human,
}

impl Authority {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Authority::Cli => "cli",
            Authority::Agent => "agent",
            Authority::Human => "human",
        }
    }
}

/// The six effect classes.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum EffectClass {
    /// `read_only`.
    ReadOnly,
    /// `local_additive`.
    LocalAdditive,
    /// `mutate_overwrite`.
    MutateOverwrite,
    /// `execute`.
    Execute,
    /// `network_external`.
    NetworkExternal,
    /// `destructive`.
    Destructive,
}

impl EffectClass {
    /// Every class, in the reference's order.
    pub const ALL: [EffectClass; 6] = [
        EffectClass::ReadOnly,
        EffectClass::LocalAdditive,
        EffectClass::MutateOverwrite,
        EffectClass::Execute,
        EffectClass::NetworkExternal,
        EffectClass::Destructive,
    ];

    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            EffectClass::ReadOnly => "read_only",
            EffectClass::LocalAdditive => "local_additive",
            EffectClass::MutateOverwrite => "mutate_overwrite",
            EffectClass::Execute => "execute",
            EffectClass::NetworkExternal => "network_external",
            EffectClass::Destructive => "destructive",
        }
    }

    /// Parses the wire spelling.
    pub fn parse(s: &str) -> Option<EffectClass> {
        EffectClass::ALL.into_iter().find(|c| c.as_str() == s)
    }

    /// Whether the run may exercise the class without asking anyone.
    pub fn self_authorizable(self) -> bool {
        matches!(self, EffectClass::ReadOnly | EffectClass::LocalAdditive)
    }

    /// Classes joined with `, `.
    pub fn join(classes: &[EffectClass]) -> String {
        classes
            .iter()
            .map(|c| c.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// What kind of stop the walk made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum BoundaryKind {
    /// The agent's judgment is needed.
    Semantic,
    /// A person's preference is needed.
    Human,
    /// Effect classes need approval.
    Authorization,
    /// An exact invocation must run and its real output come back.
    Execution,
    /// The run cannot go on.
    Blocked,
    /// The journey is finished.
    Final,
}

impl BoundaryKind {
    /// Every kind, in the reference's order.
    pub const ALL: [BoundaryKind; 6] = [
        BoundaryKind::Semantic,
        BoundaryKind::Human,
        BoundaryKind::Authorization,
        BoundaryKind::Execution,
        BoundaryKind::Blocked,
        BoundaryKind::Final,
    ];

    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            BoundaryKind::Semantic => "semantic",
            BoundaryKind::Human => "human",
            BoundaryKind::Authorization => "authorization",
            BoundaryKind::Execution => "execution",
            BoundaryKind::Blocked => "blocked",
            BoundaryKind::Final => "final",
        }
    }
}

/// The outcome vocabulary shared with capability receipts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// `completed`.
    Completed,
    /// `needs_input`.
    NeedsInput,
    /// `blocked`.
    Blocked,
    /// `failed`.
    Failed,
    /// `cancelled`.
    Cancelled,
}

impl Outcome {
    /// Every outcome, in the reference's order.
    pub const ALL: [Outcome; 5] = [
        Outcome::Completed,
        Outcome::NeedsInput,
        Outcome::Blocked,
        Outcome::Failed,
        Outcome::Cancelled,
    ];

    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Completed => "completed",
            Outcome::NeedsInput => "needs_input",
            Outcome::Blocked => "blocked",
            Outcome::Failed => "failed",
            Outcome::Cancelled => "cancelled",
        }
    }

    /// Parses the wire spelling.
    pub fn parse(s: &str) -> Option<Outcome> {
        Outcome::ALL.into_iter().find(|o| o.as_str() == s)
    }
}

/// What the walk did with one row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum StepOutcome {
    /// The row was applied.
    Applied,
    /// The row was passed over, with a reason.
    Skipped,
}

/// Where a chassis row sits in every journey.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Placement {
    /// Before the flow's own rows.
    Prefix,
    /// After the flow's own rows.
    Suffix,
}

/// The effect ledger as shown (a capability receipt's `effects` too).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Effects {
    /// Planned classes.
    pub planned: Vec<EffectClass>,
    /// Approved classes.
    pub approved: Vec<EffectClass>,
    /// Applied classes.
    pub applied: Vec<EffectClass>,
}
