//! What a capability's implementation gives the dispatcher (spec §1, §3.4 step 8): one
//! [`Handler`] per registered capability, looked up by descriptor name. A handler is pure: what
//! it needs from the disk (an index of packages, say) is read by the shell before the call and
//! handed to it when it is built.

use super::answer::SemanticRequest;
use super::descriptor::Operation;
use super::error::{CapabilityError, CapabilityResult};
use super::plan::{Artifact, Base};
use super::receipt::{OperationOutput, ValidationOutcome};
use super::request::CapabilityRequest;
use serde_json::Value;

/// The protocol stage a call runs (`aw capability <verb>`). Stages are not operations: the
/// operation travels in the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    /// A first attempt.
    Prepare,
    /// Attempt n+1 of a carried parent.
    Continue,
    /// The agent's answer, checked into a durable plan.
    Validate,
    /// An approved plan, written.
    Apply,
}

impl Verb {
    /// Every verb, in the order the usage names them.
    pub const ALL: [Verb; 4] = [Verb::Prepare, Verb::Continue, Verb::Validate, Verb::Apply];

    /// The command-line word.
    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Prepare => "prepare",
            Verb::Continue => "continue",
            Verb::Validate => "validate",
            Verb::Apply => "apply",
        }
    }

    /// The verb a command-line word names.
    pub fn parse(word: &str) -> Option<Verb> {
        Verb::ALL.into_iter().find(|v| v.as_str() == word)
    }

    /// Whether the verb reads carried state on stdin (all but `prepare`).
    pub fn reads_stdin(self) -> bool {
        self != Verb::Prepare
    }
}

/// One call of a handler's attempt stage.
#[derive(Debug, Clone, Copy)]
pub struct HandlerCall<'a> {
    /// The stage.
    pub verb: Verb,
    /// The sealed request of this attempt.
    pub request: &'a CapabilityRequest,
    /// Its operation, from the descriptor.
    pub operation: &'a Operation,
    /// The agent's answer, as carried on stdin (`validate` only).
    pub answer: Option<&'a Value>,
}

/// What a handler's attempt stage produced.
#[derive(Debug, Clone, PartialEq)]
pub enum HandlerResult {
    /// Done: the output and the checks it went through.
    Completed {
        /// The output.
        output: OperationOutput,
        /// Its checks.
        validations: Vec<ValidationOutcome>,
    },
    /// A question: what the next attempt must bring.
    NeedsInput {
        /// Each missing thing, in words.
        gaps: Vec<String>,
        /// A partial output, if any.
        output: Option<OperationOutput>,
        /// The authoring request the agent answers, when the question is "author this".
        semantic: Option<SemanticRequest>,
    },
    /// A precondition nobody in this run can clear.
    Blocked(CapabilityError),
    /// Files to write once a person approves: the dispatcher turns it into a durable plan.
    Durable {
        /// The files, verbatim.
        artifacts: Vec<Artifact>,
        /// The file the plan was prepared against, if any.
        base: Option<Base>,
        /// What the result will be once applied (its completeness is `partial` until then).
        output: OperationOutput,
    },
}

/// The folder a request's artifact paths are relative to, and that `apply` locks and writes in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PublishRoot {
    /// The workspace the call runs in (its lock, its containment).
    Workspace,
    /// A folder the caller named outside any workspace (an absolute path): `apply` creates it
    /// when missing, locks it with a lock file of its own inside it, and keeps every write
    /// inside it.
    Explicit(String),
}

/// A number an artifact's folder takes in a numbered folder (`NNN-…`): `apply` refuses the plan
/// when, under the lock, another entry of `dir` already carries that number. Preparing and
/// validating read the folder without a lock, so two plans can pick the same number; this is
/// what keeps both from publishing it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumberClaim {
    /// The numbered folder, relative to the publish root (`.` for the root itself).
    pub dir: String,
    /// The number, as its digits are written (`001`).
    pub number: String,
    /// The entry the plan creates with it (`001-design-checkout`).
    pub folder: String,
    /// How to recognise that entry once it has moved on (a later revision of the package the
    /// plan created), so that the same plan applied again is complete rather than "number
    /// taken"; `None` when nothing marks it.
    pub lineage: Option<ClaimLineage>,
}

/// What marks the entry a claim's own plan made, after it changed: a manifest inside it (at
/// `manifest`, relative to the entry) that records the identity `id` and, in its history, the
/// revision the plan wrote (`digest`). The rule that reads a manifest so is the design
/// format's ([`crate::design::manifest::records_lineage`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimLineage {
    /// The manifest's path inside the entry.
    pub manifest: String,
    /// The identity the plan gave the entry (`DES-001`).
    pub id: String,
    /// The digest of the revision the plan wrote (`sha256:…`).
    pub digest: String,
}

/// A capability's implementation.
pub trait Handler {
    /// Runs the attempt stage of `prepare`, `continue` or `validate`.
    fn attempt(&self, call: &HandlerCall<'_>) -> HandlerResult;

    /// Where this request's artifacts may be written, relative to its [`Handler::publish_root`]:
    /// what `apply` checks every carried artifact path against again, whatever the plan says.
    fn allowed_destinations(&self, request: &CapabilityRequest) -> CapabilityResult<Vec<String>>;

    /// Where this request publishes: the workspace unless the handler says otherwise.
    fn publish_root(&self, _request: &CapabilityRequest) -> CapabilityResult<PublishRoot> {
        Ok(PublishRoot::Workspace)
    }

    /// The numbers the plan's `artifacts` take, for `apply` to check under the lock. None by
    /// default.
    fn claims(&self, _request: &CapabilityRequest, _artifacts: &[Artifact]) -> Vec<NumberClaim> {
        Vec::new()
    }
}
