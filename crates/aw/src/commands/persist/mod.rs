//! `aw persist prepare | validate | apply`: adopting a conversation's finished work into
//! `docs/research`, `docs/specs` and `docs/plans`. aw owns the inventory, the duplicate check,
//! the numbering and the write; the agent classifies and drafts. Every stage prints one
//! `PersistResult` (aw-core's `persist::result`); the human view is here.

pub mod apply;
pub mod prepare;
pub mod validate;

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::documents::names::DocKind;
use aw_core::error_code::ErrorCode;
use aw_core::persist::result::{Carried, Stage};
use aw_workspace::io::stdin::{AnswerLimits, read_answer};
use clap::{Args, Subcommand};

/// The one-line summary of `aw persist`, also set on its entry in the command list (the
/// arguments are built only when the command runs).
pub const ABOUT: &str =
    "Adopt finished conversation work into docs/research, docs/specs and docs/plans.";

// Arguments of `aw persist`.
#[derive(Debug, Args)]
#[command(
    about = ABOUT,
    long_about = GUIDE
)]
pub struct PersistArgs {
    /// The stage.
    #[command(subcommand)]
    pub command: PersistCommand,
}

/// `aw persist --help`: the handshake and a worked example.
const GUIDE: &str = "Adopt finished work from a conversation into numbered documents: \
docs/research/NNN-research-<slug>.md, docs/specs/NNN-spec-<slug>.md, \
docs/plans/NNN-plan-<slug>.md. aw reads the inventory, refuses duplicates, assigns the numbers \
and writes the files; the agent classifies the work and drafts each document. Three stages, \
each printing one result (JSON when piped): stage, outcome (needs_input, blocked, completed), \
inventory, semantic, plan, written, error, next_action. The exit status is 0 for every result, \
blocked included, and 1 only when the command itself fails.\n\n\
prepare   stdin: nothing. Prints the inventory and the semantic request: the contract, the \
input_digest to quote (a digest of the inventory) and an answer skeleton.\n\
validate  stdin: {\"answer\": <answer>} (or the answer itself). Reads the inventory again (an answer quoting another \
digest is SEMANTIC_STALE), checks the items, refuses duplicates (PERSIST_DUPLICATE), numbers the \
documents and prints a durable plan with its approval_digest.\n\
apply     stdin: {\"plan\": <plan>} with --approval <approval_digest>, or the same answer that \
validate checked (it is validated again). Re-seals the plan, checks every path, and, under the \
workspace lock, that every number is still free (PERSIST_NUMBER_TAKEN) before writing all the \
documents or none. The same plan applied again is complete and writes nothing.\n\n\
Example (inside a workspace):\n  \
aw persist prepare --kind spec --kind plan > p1.json\n  \
# draft the documents; answer = p1.json's semantic.answer_skeleton, filled in:\n  \
# {\"version\":1,\"operation\":\"persist\",\"input_digest\":\"<from p1>\",\"state\":\"proposed\",\n  \
#  \"items\":[{\"kind\":\"spec\",\"slug\":\"otp-login\",\"title\":\"OTP login\",\n  \
#              \"content\":\"# OTP login\\n\\n...\"}]}\n  \
jq -n --argjson a \"$(cat answer.json)\" '{answer: $a}' \\\n      \
| aw persist validate --kind spec --kind plan > p2.json\n  \
# show p2.json's plan.preview to a person; on approval:\n  \
jq '{plan: .plan}' p2.json | aw persist apply --approval \"$(jq -r .plan.approval_digest p2.json)\"";

/// The `persist` stages.
#[derive(Debug, Subcommand)]
// A verb's arguments are built only when that verb runs, which keeps start-up small.
#[command(defer = true)]
pub enum PersistCommand {
    #[command(about = prepare::ABOUT, long_about = prepare::LONG_ABOUT)]
    Prepare(KindArgs),
    #[command(about = validate::ABOUT, long_about = validate::LONG_ABOUT)]
    Validate(KindArgs),
    #[command(about = apply::ABOUT, long_about = apply::LONG_ABOUT)]
    Apply(apply::ApplyArgs),
}

// The kinds a persist covers (prepare and validate).
#[derive(Debug, Args)]
pub struct KindArgs {
    /// A kind of document to persist: research, spec or plan (repeatable; default: all three).
    #[arg(long = "kind", value_name = "KIND")]
    pub kinds: Vec<String>,
}

impl KindArgs {
    /// The kinds asked for, in aw's order; all three when none is named.
    pub fn kinds(&self) -> Result<Vec<DocKind>, Failure> {
        let mut out = Vec::new();
        for raw in &self.kinds {
            let kind = DocKind::from_word(raw).ok_or_else(|| {
                Failure::new(
                    ErrorCode::ArgsInvalid,
                    format!("--kind does not know '{raw}'"),
                    "name research, spec or plan",
                )
            })?;
            out.push(kind);
        }
        Ok(if out.is_empty() {
            DocKind::ALL.to_vec()
        } else {
            DocKind::ALL
                .into_iter()
                .filter(|k| out.contains(k))
                .collect()
        })
    }
}

/// Runs a `persist` stage.
pub fn dispatch(args: &PersistArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    match &args.command {
        PersistCommand::Prepare(a) => prepare::run(a, cx),
        PersistCommand::Validate(a) => validate::run(a, cx),
        PersistCommand::Apply(a) => apply::run(a, cx),
    }
}

/// Reads stdin whole (before any lock), with the bounds of a flow answer: the answer or the
/// plan it carries.
fn stdin_carried(stage: Stage, example: &str) -> Result<Option<Carried>, Failure> {
    let text = read_answer(AnswerLimits::from_env())
        .map_err(|e| Failure::from(e.into_error_for(example)))?;
    Ok(aw_core::persist::result::carried(&text, stage)?)
}
