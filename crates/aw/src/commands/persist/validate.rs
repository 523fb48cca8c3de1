//! `aw persist validate`: the agent's answer checked, numbered and turned into a durable plan.

use super::{KindArgs, output, stdin_key};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::error_code::ErrorCode;
use aw_core::persist::result::{self, Stage};
use aw_core::persist::{answer, plan};
use aw_workspace::persist::read_inventory;

/// The stage's one-line help.
pub const ABOUT: &str =
    "Check the agent's answer ({\"answer\": …} on stdin) and propose a numbered plan.";

/// The stage's long help.
pub const LONG_ABOUT: &str = "Check the agent's answer and print the durable plan a person \
approves.\n\nStdin: {\"answer\": <answer>}. The inventory is read again (with the same --kind \
flags as prepare) and its digest must be the one the answer quotes (else SEMANTIC_STALE). Each \
item needs a kind among those asked for, a slug (lower-case letters and digits joined by single \
hyphens), a title and a content whose first `# ` heading is that title \
(SEMANTIC_RESPONSE_INVALID). An item whose slug or title (case, accents and blanks aside) an \
existing document of its kind, or another item of its kind, already has is PERSIST_DUPLICATE. \
Each document then gets its folder's next free number (consecutive for several of one kind) and \
its file name, NNN-<kind>-<slug>.md. Writes nothing. A refused answer is a blocked result \
(exit 0); stdin that is not one JSON object, or an answer missing, is ARGS_INVALID (exit 1).";

/// Runs `validate`.
pub fn run(args: &KindArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let kinds = args.kinds()?;
    let Some(answer_value) = stdin_key(
        Stage::Validate,
        "answer",
        "aw persist validate < answer.json",
    )?
    else {
        return Err(Failure::new(
            ErrorCode::ArgsInvalid,
            "stdin carries no \"answer\"",
            "pipe {\"answer\": <the answer>} to 'aw persist validate'",
        ));
    };
    let ws = cx.workspace()?;
    let inventory = read_inventory(&ws, &kinds)?;
    let request = answer::request(&inventory);
    let outcome = answer::parse(&answer_value, &request, &kinds)
        .and_then(|items| plan::build(&items, &inventory));
    let result = match outcome {
        Ok(plan) => result::proposed(inventory, plan),
        Err(e) => result::blocked(Stage::Validate, Some(inventory), e, None),
    };
    Ok(output(&result, style.format))
}
