//! `aw persist prepare`: the inventory and the semantic request the agent answers.

use super::KindArgs;
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::persist::{answer, result};
use aw_workspace::documents::persist::read_inventory;

/// The stage's one-line help.
pub const ABOUT: &str =
    "Print the docs inventory and what the agent must draft (reads nothing on stdin).";

/// The stage's long help.
pub const LONG_ABOUT: &str = "Print the inventory of docs/research, docs/specs and docs/plans \
(each numbered document's number, slug and title, and each folder's next number) and the \
semantic request: operation persist, the input_digest the answer must quote (a digest of the \
inventory, so an answer drafted against an older inventory is refused as stale), the allowed \
folders, the limits, the contract and an answer skeleton. --kind narrows the kinds (repeatable); \
validate must then be given the same --kind flags, as the next_action spells out. Writes \
nothing.";

/// Runs `prepare`.
pub fn run(args: &KindArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let kinds = args.kinds()?;
    let ws = cx.workspace_settled()?;
    let inventory = read_inventory(&ws, &kinds)?;
    let request = answer::request(&inventory);
    Ok(Outcome::shown(
        &result::prepared(inventory, request),
        &style,
    ))
}
