//! The typed capability descriptor (`workline.capability-descriptor/v1`, spec §4.1).
//!
//! A value of these types only ever comes out of [`super::validate::validate`]: the JSON is
//! checked rule by rule first, then read into the model, so the model needs no checks of its own.
//! Every object is closed (`deny_unknown_fields`) like the schema's.

use crate::vocab::flow::EffectClass;
use serde::{Deserialize, Serialize};

/// The contract version this CLI reads (and the highest `minimum_contract_version` it accepts).
pub const CONTRACT_VERSION: u64 = 1;

/// The file name a descriptor is published under, and the default failure artifact.
pub const DEFAULT_ARTIFACT: &str = "workline-capability.json";

/// A closed enumeration with its wire spellings in one list.
macro_rules! wire_enum {
    ($(#[doc = $doc:literal])+ $name:ident { $($(#[doc = $vdoc:literal])+ $var:ident = $wire:literal,)+ }) => {
        $(#[doc = $doc])+
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
        pub enum $name {
            $($(#[doc = $vdoc])+ #[serde(rename = $wire)] $var,)+
        }

        impl $name {
            /// Every wire spelling, in the schema's order.
            pub const NAMES: &'static [&'static str] = &[$($wire,)+];

            /// The wire spelling.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$var => $wire,)+
                }
            }
        }
    };
}

wire_enum! {
    /// A route a capability or operation answers on.
    Route {
        /// The installed wrapper skill or a person.
        Direct = "direct",
        /// A Workline flow.
        Compose = "compose",
    }
}

wire_enum! {
    /// Whether an operation needs a workspace.
    WorkspaceNeed {
        /// It refuses to run outside one.
        Required = "required",
        /// It runs in or out of one.
        Optional = "optional",
        /// It never uses one.
        Standalone = "standalone",
    }
}

wire_enum! {
    /// Whether one attempt is the whole conversation.
    Interaction {
        /// One attempt, one answer.
        SinglePass = "single_pass",
        /// The operation may answer `needs_input` and continue.
        NeedsInput = "needs_input",
    }
}

wire_enum! {
    /// What an input carries.
    InputKind {
        /// Free text.
        Text = "text",
        /// A reference to something durable.
        Reference = "reference",
        /// An attached file.
        Attachment = "attachment",
        /// One of a fixed set of choices.
        Selection = "selection",
    }
}

wire_enum! {
    /// Whether an input may be read on the invocation's own authority.
    Sensitivity {
        /// It may.
        Public = "public",
        /// It needs more than the invocation.
        Sensitive = "sensitive",
    }
}

wire_enum! {
    /// What an operation returns.
    OutputKind {
        /// A typed value.
        Value = "value",
        /// A durable reference.
        Reference = "reference",
        /// Both.
        ValueAndReference = "value_and_reference",
    }
}

wire_enum! {
    /// How complete a result may be.
    Completeness {
        /// Everything the profile asks for.
        Complete = "complete",
        /// Less than that.
        Partial = "partial",
    }
}

wire_enum! {
    /// Who authorizes an effect.
    Authorization {
        /// The invocation itself.
        Invocation = "invocation",
        /// A preflight a person sees first.
        Preflight = "preflight",
    }
}

wire_enum! {
    /// Whether an effect needs a visible approval.
    Approval {
        /// It does not.
        None = "none",
        /// It does.
        Visible = "visible",
    }
}

wire_enum! {
    /// What binding the capability `off` does to an operation.
    OffPolicy {
        /// The operation refuses to run.
        Blocked = "blocked",
        /// The operation still runs.
        Allowed = "allowed",
    }
}

wire_enum! {
    /// Whether the floor is a core part of Workline or a feature.
    FloorKind {
        /// A gate needs it, so it must be built in.
        Core = "core",
        /// Optional.
        Feature = "feature",
    }
}

wire_enum! {
    /// Who picks improvements.
    Improvements {
        /// The host chooses which compatible improvements contribute.
        HostSelected = "host_selected",
        /// None are taken.
        None = "none",
    }
}

wire_enum! {
    /// Why a run may fall back.
    DegradationCause {
        /// The host's selection cannot be seen.
        OpaqueSelection = "opaque_selection",
        /// An improvement's claim did not verify.
        IncompatibleImprovement = "incompatible_improvement",
        /// The binding is invalid.
        InvalidBinding = "invalid_binding",
        /// A pinned digest changed.
        DigestChanged = "digest_changed",
    }
}

wire_enum! {
    /// What a degradation does.
    DegradationAction {
        /// Run the floor.
        Floor = "floor",
        /// Refuse.
        Reject = "reject",
    }
}

wire_enum! {
    /// Whether the capability is current.
    Status {
        /// Current.
        Active = "active",
        /// On its way out.
        Deprecated = "deprecated",
    }
}

/// A capability descriptor.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Descriptor {
    /// Always [`CONTRACT_VERSION`].
    pub contract_version: u64,
    /// The capability's only public identity.
    pub name: String,
    /// What it resolves, in one sentence.
    pub purpose: String,
    /// The routes it opens.
    pub exposure: Vec<Route>,
    /// The operation assumed when a caller names none.
    pub default_operation: Option<String>,
    /// The finite operation catalog.
    pub operations: Vec<Operation>,
    /// What runs with nothing installed.
    pub floor: Floor,
    /// The declared reasons to fall back.
    pub degradations: Vec<Degradation>,
    /// Versions, improvement claims and retired names.
    pub compatibility: Compatibility,
}

impl Descriptor {
    /// The operation called `name`.
    pub fn operation(&self, name: &str) -> Option<&Operation> {
        self.operations.iter().find(|op| op.name == name)
    }

    /// Whether the capability answers on `route`.
    pub fn exposes(&self, route: Route) -> bool {
        self.exposure.contains(&route)
    }
}

/// One operation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Operation {
    /// Its identifier.
    pub name: String,
    /// What it does.
    pub summary: String,
    /// Its routes, a subset of the capability's.
    pub exposure: Vec<Route>,
    /// Whether it needs a workspace.
    pub workspace: WorkspaceNeed,
    /// Whether it may ask for more input.
    pub interaction: Interaction,
    /// What it takes.
    pub inputs: Vec<Input>,
    /// What it returns.
    pub output: Output,
    /// Every effect class it may exercise.
    pub effects: Vec<Effect>,
    /// What `off` does to it.
    pub off: OffPolicy,
}

/// One input of an operation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// Its identifier, unique in the operation.
    pub name: String,
    /// What it carries.
    pub kind: InputKind,
    /// Whether the caller must give it.
    pub required: bool,
    /// Whether reading it needs more than the invocation.
    pub sensitivity: Sensitivity,
    /// Its canonical format id, if schema-bearing.
    pub schema: Option<String>,
}

/// What an operation returns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Output {
    /// Value, reference or both.
    pub kind: OutputKind,
    /// Its canonical format id, if schema-bearing.
    pub schema: Option<String>,
    /// The completeness values it may report.
    pub completeness: Vec<Completeness>,
}

/// One declared effect.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Effect {
    /// The class (the flow engine's classes: one list for both).
    pub class: EffectClass,
    /// Whether repeating it changes nothing more.
    pub idempotent: bool,
    /// Who authorizes it.
    pub authorization: Authorization,
    /// Whether it needs a visible approval.
    pub approval: Approval,
}

/// The built-in implementation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Floor {
    /// Whether Workline carries it.
    pub builtin: bool,
    /// Core or feature.
    pub kind: FloorKind,
    /// Who picks improvements.
    pub improvements: Improvements,
}

/// One declared degradation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Degradation {
    /// Why.
    pub cause: DegradationCause,
    /// What it does.
    pub action: DegradationAction,
}

/// Versions, improvement claims and retired names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Compatibility {
    /// Current or deprecated.
    pub status: Status,
    /// The lowest contract version a reader needs.
    pub minimum_contract_version: u64,
    /// What this descriptor improves, when it is an improvement.
    pub improves: Option<Improves>,
    /// Names it was published under before.
    pub retired_names: Vec<String>,
    /// Formats it no longer reads.
    pub retired_formats: Vec<String>,
}

/// An improvement's claim, verified at resolution.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Improves {
    /// The capability improved.
    pub capability: String,
    /// Its operations improved.
    pub operations: Vec<String>,
    /// The contract version claimed.
    pub contract_version: u64,
}
