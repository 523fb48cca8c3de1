//! `aw persist validate`: the agent's answer checked, numbered and turned into a durable plan.

use super::{KindArgs, stdin_carried};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::error_code::ErrorCode;
use aw_core::persist::result::{self, Carried, Stage};
use aw_core::persist::{answer, plan};
use aw_workspace::documents::persist::read_inventory;

/// The stage's one-line help.
pub const ABOUT: &str = "Check the agent's answer ({\"answer\": …}, or the answer itself, on stdin) and propose a numbered plan.";

/// The stage's long help.
pub const LONG_ABOUT: &str = "Check the agent's answer and print the durable plan a person \
approves.\n\nStdin: {\"answer\": <answer>}, or the answer itself (as the reference's agents send \
it; its shape, decisions {category, slug, mode: new} and exactly one artifact {path, content}, \
is read too: one document, numbered by aw). The inventory is read again (with the same --kind \
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
    let Some(Carried::Answer {
        answer: answer_value,
        bare,
    }) = stdin_carried(Stage::Validate, "aw persist validate < answer.json")?
    else {
        return Err(Failure::new(
            ErrorCode::ArgsInvalid,
            "stdin carries no \"answer\"",
            "pipe {\"answer\": <the answer>} (or the answer itself) to 'aw persist validate'",
        ));
    };
    let ws = cx.workspace_settled()?;
    let inventory = read_inventory(&ws, &kinds)?;
    let request = answer::request(&inventory);
    let outcome = answer::parse(&answer_value, &request, &kinds)
        .and_then(|items| plan::build(&items, &inventory));
    let result = match outcome {
        Ok(plan) => result::proposed(inventory, plan, bare),
        Err(e) => result::blocked(Stage::Validate, Some(inventory), e, None),
    };
    Ok(Outcome::shown(&result, &style))
}
