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

/// A capability's implementation.
pub trait Handler {
    /// Runs the attempt stage of `prepare`, `continue` or `validate`.
    fn attempt(&self, call: &HandlerCall<'_>) -> HandlerResult;

    /// Where this request's artifacts may be written, workspace-relative: what `apply` checks
    /// every carried artifact path against again, whatever the plan says.
    fn allowed_destinations(&self, request: &CapabilityRequest) -> CapabilityResult<Vec<String>>;
}
