//! Callers (spec §9): which host an invocation runs in, which flows may compose which
//! operations, and the checks a flow makes when it takes a capability's result as its own
//! (its gates, and adopting a durable reference).
//!
//! Pure: the environment comes in as a lookup closure and the list of variable names; the
//! package index comes in as what it knows about one package. Nothing authenticates a flow's
//! claim to be a flow: the caller table below is the only bound on it.

use super::error::{CapabilityError, CapabilityResult};
use super::receipt::{CapabilityReceipt, DurableReference, ValidationOutcome};
use crate::error_code::ErrorCode;
use crate::vocab::flow::Flow;
use serde::Serialize;

/// The host id when no marker matches (also the id of a host with no invocation form).
pub const UNKNOWN_HOST: &str = "unknown";

/// How a host invokes an installed skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum InvocationKind {
    /// The skill activates by its description: the conversation names the capability.
    Mention,
    /// A slash command.
    Slash,
    /// No verified form.
    Unavailable,
}

impl InvocationKind {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            InvocationKind::Mention => "mention",
            InvocationKind::Slash => "slash",
            InvocationKind::Unavailable => "unavailable",
        }
    }
}

/// One environment marker of a host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    /// The variable is set to a non-empty value.
    Set(&'static str),
    /// Some variable whose name starts with this prefix is set to a non-empty value.
    Prefix(&'static str),
    /// The variable holds exactly this value.
    Equals(&'static str, &'static str),
}

impl Marker {
    fn matches(self, get: &impl Fn(&str) -> Option<String>, names: &[String]) -> bool {
        let set = |name: &str| get(name).is_some_and(|v| !v.is_empty());
        match self {
            Marker::Set(name) => set(name),
            Marker::Prefix(prefix) => names.iter().any(|n| n.starts_with(prefix) && set(n)),
            Marker::Equals(name, value) => get(name).as_deref() == Some(value),
        }
    }
}

/// A host (harness) aw knows: how to recognise it, where its skills live, how it invokes one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Harness {
    /// Its id (`caller.host`, `--host`).
    pub id: &'static str,
    /// Markers that say the agent itself is running.
    pub agent_markers: &'static [Marker],
    /// Markers of the terminal only: they count when no agent's marker does, so a terminal never
    /// masks the agent running inside it.
    pub terminal_markers: &'static [Marker],
    /// Its personal skill folder, relative to the home folder (where the direct wrapper goes).
    pub skills_dir: &'static str,
    /// How it invokes a skill.
    pub invocation: InvocationKind,
    /// The invocation form, with `<name>` standing for the capability's name.
    pub template: &'static str,
    /// What the form means, for a person.
    pub note: &'static str,
}

impl Harness {
    /// The invocation form for the capability `name`.
    pub fn form(&self, name: &str) -> String {
        self.template.replace("<name>", name)
    }
}

/// The note of every mention-invoked host.
const MENTION_NOTE: &str =
    "skills activate by their description: name the capability in the conversation";

/// Every host aw knows, in the reference's harness order (detection takes the first match).
pub const HARNESSES: &[Harness] = &[
    Harness {
        id: "claude-code",
        agent_markers: &[
            Marker::Set("CLAUDECODE"),
            Marker::Set("CLAUDE_PLUGIN_ROOT"),
            Marker::Set("CLAUDE_AGENT_ID"),
        ],
        terminal_markers: &[],
        skills_dir: ".claude/skills",
        invocation: InvocationKind::Mention,
        template: "<name>",
        note: MENTION_NOTE,
    },
    Harness {
        id: "codex",
        agent_markers: &[
            Marker::Set("CODEX_HOME"),
            Marker::Set("CODEX_CLI"),
            Marker::Set("CODEX_RUNTIME"),
            Marker::Set("CODEX_THREAD_ID"),
        ],
        terminal_markers: &[],
        skills_dir: ".codex/skills",
        invocation: InvocationKind::Mention,
        template: "<name>",
        note: MENTION_NOTE,
    },
    Harness {
        id: "oz",
        agent_markers: &[Marker::Set("OZ_RUN_ID")],
        terminal_markers: &[],
        skills_dir: ".agents/skills",
        invocation: InvocationKind::Mention,
        template: "<name>",
        note: MENTION_NOTE,
    },
    Harness {
        id: "warp",
        agent_markers: &[],
        terminal_markers: &[
            Marker::Set("WARP_IS_LOCAL_SHELL_SESSION"),
            Marker::Equals("TERM_PROGRAM", "WarpTerminal"),
        ],
        skills_dir: ".warp/skills",
        invocation: InvocationKind::Mention,
        template: "<name>",
        note: MENTION_NOTE,
    },
    Harness {
        id: "gemini",
        agent_markers: &[
            Marker::Set("GEMINI_CLI"),
            Marker::Set("GEMINI_SANDBOX"),
            Marker::Prefix("ANTIGRAVITY"),
        ],
        terminal_markers: &[],
        skills_dir: ".gemini/skills",
        invocation: InvocationKind::Mention,
        template: "<name>",
        note: MENTION_NOTE,
    },
    Harness {
        id: "opencode",
        agent_markers: &[Marker::Prefix("OPENCODE")],
        terminal_markers: &[],
        skills_dir: ".opencode/skills",
        invocation: InvocationKind::Mention,
        template: "<name>",
        note: MENTION_NOTE,
    },
    Harness {
        id: "crush",
        agent_markers: &[Marker::Set("CRUSH"), Marker::Set("CRUSH_CONFIG")],
        terminal_markers: &[],
        skills_dir: ".config/crush/skills",
        invocation: InvocationKind::Mention,
        template: "<name>",
        note: MENTION_NOTE,
    },
    // Kimi sets no marker: it is only ever named with `--host kimi`.
    Harness {
        id: "kimi",
        agent_markers: &[],
        terminal_markers: &[],
        skills_dir: ".kimi-code/skills",
        invocation: InvocationKind::Slash,
        template: "/skill:<name>",
        note: "invoke the skill with its slash command",
    },
];

/// The host `id` names, when aw knows it (`--host` is validated with this).
pub fn harness(id: &str) -> Option<&'static Harness> {
    HARNESSES.iter().find(|h| h.id == id)
}

/// Every known host id, in harness order (for `--host`'s error message).
pub fn harness_ids() -> Vec<&'static str> {
    HARNESSES.iter().map(|h| h.id).collect()
}

/// The host the environment says aw runs in: the first harness, in harness order, one of whose
/// agent markers is set; else the first whose terminal marker is; else [`UNKNOWN_HOST`].
/// `get` reads one variable; `names` lists every variable name (for the prefix markers). A
/// variable set to the empty string counts as unset.
pub fn detect_host(get: impl Fn(&str) -> Option<String>, names: &[String]) -> &'static str {
    let first = |markers: fn(&Harness) -> &'static [Marker]| {
        HARNESSES
            .iter()
            .find(|h| markers(h).iter().any(|m| m.matches(&get, names)))
            .map(|h| h.id)
    };
    first(|h| h.agent_markers)
        .or_else(|| first(|h| h.terminal_markers))
        .unwrap_or(UNKNOWN_HOST)
}

/// The flows that may compose a capability: every Workline flow.
pub const FLOWS: [Flow; 5] = Flow::ALL;

/// The caller table (`COMPOSED_OPERATIONS`): for each flow, the `<capability>.<operation>`
/// entries it may compose. Data, not code: no branch anywhere names a capability.
pub const COMPOSED_OPERATIONS: &[(Flow, &[&str])] = &[
    (
        Flow::SpecRefine,
        &["design.create", "design.update", "design.validate"],
    ),
    (Flow::PlanNew, &["design.update", "design.validate"]),
    (Flow::PlanRefine, &["design.update", "design.validate"]),
    (Flow::PlanExec, &["design.validate"]),
    (Flow::Quick, &["design.validate"]),
];

/// The entries `flow` may compose (its row of the caller table).
pub fn composed_operations(flow: Flow) -> &'static [&'static str] {
    COMPOSED_OPERATIONS
        .iter()
        .find(|(f, _)| *f == flow)
        .map(|(_, row)| *row)
        .unwrap_or(&[])
}

/// Whether `flow` may compose `capability.operation`.
pub fn may_compose(flow: Flow, capability: &str, operation: &str) -> bool {
    let entry = format!("{capability}.{operation}");
    composed_operations(flow).contains(&entry.as_str())
}

/// The operation a flow composes (`composeCapability`'s checks, made before the capability's
/// name is checked): it must name one (`CAPABILITY_COMPOSE_OPERATION_MISSING`), and its row of
/// the caller table must allow it (`CAPABILITY_COMPOSE_NOT_ALLOWED`). `operation` is
/// `--operation`, else the carried parent's.
pub fn check_compose(
    flow: Flow,
    capability: &str,
    operation: Option<&str>,
) -> CapabilityResult<String> {
    let row = composed_operations(flow).join(", ");
    let id = flow.as_str();
    let Some(operation) = operation else {
        return Err(CapabilityError::new(
            ErrorCode::CapabilityComposeOperationMissing,
            format!("'{id}' must name the operation it composes"),
            format!("name it with --operation, one of: {row}"),
        ));
    };
    if !may_compose(flow, capability, operation) {
        return Err(CapabilityError::new(
            ErrorCode::CapabilityComposeNotAllowed,
            format!("'{id}' does not compose '{capability}.{operation}'"),
            format!("from this flow, compose only: {row}"),
        ));
    }
    Ok(operation.to_owned())
}

/// The gates a flow holds a composed result to (`composeGates`). `attempt` is what the dispatch
/// answered: a receipt, or the hard failure that stopped it before any receipt. A hard failure
/// passes through unchanged (the same error comes back). With `require_completeness`, a receipt
/// that does not clear the completeness gate (completed **and** complete) is
/// `CAPABILITY_OUTPUT_INCOMPLETE`. A flow gate that passes a check id the capability failed is
/// `CAPABILITY_GATE_LOWERED`: a flow may add gates, never lower one. Otherwise the gates are the
/// capability's validations followed by the flow's own.
pub fn compose_gates(
    attempt: Result<&CapabilityReceipt, &CapabilityError>,
    flow_gates: &[ValidationOutcome],
    require_completeness: bool,
) -> CapabilityResult<Vec<ValidationOutcome>> {
    let receipt = attempt.map_err(Clone::clone)?;
    let c = receipt.correlation();
    let what = format!("{}.{}", c.capability, c.operation);
    if require_completeness && !receipt.satisfies_completeness_gate() {
        let completeness = receipt
            .body()
            .output
            .as_ref()
            .and_then(|o| o.completeness)
            .map_or("none", |c| c.as_str());
        return Err(CapabilityError::new(
            ErrorCode::CapabilityOutputIncomplete,
            format!(
                "'{what}' ended {} with completeness {completeness}, and this flow needs a complete result",
                receipt.body().outcome.as_str()
            ),
            "complete the result first (answer its gaps with 'aw capability continue', then validate it), and return to the flow",
        ));
    }
    let validations = &receipt.body().validations;
    if let Some(lowered) = flow_gates
        .iter()
        .find(|g| g.passed && validations.iter().any(|v| v.id == g.id && !v.passed))
    {
        return Err(CapabilityError::new(
            ErrorCode::CapabilityGateLowered,
            format!("the flow passes '{}', which '{what}' failed", lowered.id),
            format!(
                "a flow cannot lower a capability's gate: fix what '{}' found and validate again",
                lowered.id
            ),
        ));
    }
    Ok(validations.iter().chain(flow_gates).cloned().collect())
}

/// What the package index knows about the package a durable reference names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IndexedPackage {
    /// The index has no package with that id.
    NotFound,
    /// The package is indexed and has no current baseline yet.
    NoBaseline,
    /// The package's current baseline.
    Baseline {
        /// Its revision, if the package has revisions.
        revision: Option<u64>,
        /// Its digest, spelled as a reference's (`sha256:<hex>`).
        digest: String,
    },
}

/// Adopts a durable reference a capability returned (`adoptDurableReference`): the package must
/// be indexed (`CAPABILITY_ADOPTION_NOT_FOUND`); a reference that names a revision must name the
/// current baseline's (`CAPABILITY_ADOPTION_REVISION_MISMATCH`; with no baseline it cannot);
/// when there is a current baseline its digest must be the reference's
/// (`CAPABILITY_ADOPTION_DIGEST_MISMATCH`). On success the reference comes back unchanged.
pub fn adopt_durable_reference(
    reference: &DurableReference,
    package: &IndexedPackage,
) -> CapabilityResult<DurableReference> {
    let id = &reference.id;
    let (current_revision, current_digest) = match package {
        IndexedPackage::NotFound => {
            return Err(CapabilityError::new(
                ErrorCode::CapabilityAdoptionNotFound,
                format!("no indexed package '{id}' to adopt"),
                "publish the package with 'aw capability apply' first, or adopt a package the index lists",
            ));
        }
        IndexedPackage::NoBaseline => (None, None),
        IndexedPackage::Baseline { revision, digest } => (*revision, Some(digest)),
    };
    let revision = |r: Option<u64>| r.map_or_else(|| "none".to_owned(), |r| format!("r{r}"));
    if let Some(wanted) = reference.revision
        && (current_digest.is_none() || current_revision != Some(wanted))
    {
        return Err(CapabilityError::new(
            ErrorCode::CapabilityAdoptionRevisionMismatch,
            format!(
                "'{id}' is at revision {}, not the adopted r{wanted}",
                revision(current_revision)
            ),
            format!(
                "adopt '{id}' at its current revision, or publish the revision you meant first"
            ),
        ));
    }
    if let Some(current) = current_digest
        && current != &reference.digest
    {
        return Err(CapabilityError::new(
            ErrorCode::CapabilityAdoptionDigestMismatch,
            format!(
                "the current baseline of '{id}' has digest {current}, not the adopted {}",
                reference.digest
            ),
            format!(
                "adopt '{id}' as it stands now, or find out who changed it since it was produced"
            ),
        ));
    }
    Ok(reference.clone())
}

#[cfg(test)]
#[path = "callers_tests.rs"]
mod tests;
