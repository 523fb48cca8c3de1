//! `aw persist apply`: an approved persist plan, written all or nothing.

use super::{KindArgs, stdin_carried};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::capability::plan::DurablePlan;
use aw_core::error_code::ErrorCode;
use aw_core::persist::plan::check_carried;
use aw_core::persist::result::{self, Carried, PersistResult, Stage};
use aw_core::persist::{answer, plan};
use aw_workspace::documents::persist::read_inventory;
use aw_workspace::locate::Workspace;
use aw_workspace::{documents::persist, io::lock};
use clap::Args;

/// The stage's one-line help.
pub const ABOUT: &str = "Write an approved plan ({\"plan\": …}, or the answer validate checked, on stdin; --approval <digest>), all or nothing.";

/// The stage's long help.
pub const LONG_ABOUT: &str = "Write a persist plan once a person approved it.\n\nStdin: \
{\"plan\": <the validate result's plan>}, and --approval <its approval_digest>. Or, as the \
reference's agents do, the same answer validate checked (bare or as {\"answer\": …}): it is \
validated again against the inventory read now (with --kind as for validate), and the plan it \
gives must be the approved one. Before anything \
is written aw re-seals the plan from its own documents (an edited plan, or an approval for \
another plan, is CAPABILITY_APPROVAL_MISMATCH) and checks every path: directly inside \
docs/research, docs/specs or docs/plans, named NNN-<kind>-<slug>.md (else \
SEMANTIC_PATH_REJECTED). Then, under the workspace lock, the folders are read again: a number \
another writer took meanwhile (another persist, next-number --claim), or one below a folder's \
highest number, is PERSIST_NUMBER_TAKEN, and a duplicate that appeared is PERSIST_DUPLICATE; \
either way nothing is written. Otherwise every document is created, never replacing a file; any \
failure rolls every file back, and an apply killed half-way is finished (or undone) by the next \
aw command in the workspace. The same plan applied again is complete and writes nothing.\n\nA \
refused plan is a blocked result (exit 0) whose next action starts \"nothing was written\"; a \
missing plan or --approval is ARGS_INVALID (exit 1).";

// Arguments of `aw persist apply`.
#[derive(Debug, Args)]
pub struct ApplyArgs {
    /// The plan's approval_digest, as a person approved it.
    #[arg(long, value_name = "DIGEST")]
    pub approval: Option<String>,
    /// With an answer on stdin: the kinds validate was given.
    #[command(flatten)]
    pub kinds: KindArgs,
}

/// Runs `apply`.
pub fn run(args: &ApplyArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let carried = stdin_carried(
        Stage::Apply,
        "aw persist apply --approval <digest> < plan.json",
    )?;
    let missing = |what: &str| {
        Failure::new(
            ErrorCode::ArgsInvalid,
            format!("apply needs {what}"),
            "pipe {\"plan\": <the validate result's plan>} (or the answer validate checked) to 'aw persist apply --approval <its approval_digest>'",
        )
    };
    let Some(carried) = carried else {
        return Err(missing("the plan (or the answer) on stdin"));
    };
    let Some(approval) = args.approval.as_deref() else {
        return Err(missing("--approval <approval_digest>"));
    };
    // The kinds are read whatever stdin carries: a word aw does not know is refused.
    let kinds = args.kinds.kinds()?;
    let result = match carried {
        Carried::Plan(plan_value) => {
            let plan: DurablePlan = serde_json::from_value(plan_value).map_err(|e| {
                Failure::new(
                    ErrorCode::ArgsInvalid,
                    format!("stdin's \"plan\" is not a durable plan: {e}"),
                    "send the plan exactly as 'aw persist validate' printed it",
                )
            })?;
            apply_plan(&cx.workspace_settled_for_apply()?, &plan, approval)
        }
        Carried::Answer { answer: value, .. } => {
            let ws = cx.workspace_settled_for_apply()?;
            let inventory = read_inventory(&ws, &kinds)?;
            let request = answer::request(&inventory);
            match answer::parse(&value, &request, &kinds)
                .and_then(|items| plan::build(&items, &inventory))
            {
                Ok(plan) => apply_plan(&ws, &plan, approval),
                // The answer applied before moved the inventory: recognised by its documents
                // and the approval, it is complete.
                Err(e) if e.code == ErrorCode::SemanticStale => {
                    let applied = match answer::parse_as_quoted(&value, &request, &kinds) {
                        Some((items, digest)) => {
                            persist::applied_answer(&ws, &items, &digest, approval)?
                        }
                        None => None,
                    };
                    match applied {
                        Some(paths) => result::already_applied(&paths),
                        None => {
                            result::blocked(Stage::Apply, None, result::stale_at_apply(e), None)
                        }
                    }
                }
                Err(e) => result::blocked(Stage::Apply, None, e, None),
            }
        }
    };
    Ok(Outcome::shown(&result, &style))
}

/// The apply of a plan: its seal and paths checked, then written all or nothing under the lock.
fn apply_plan(ws: &Workspace, plan: &DurablePlan, approval: &str) -> PersistResult {
    match check_carried(plan, approval) {
        Err(e) => result::blocked(Stage::Apply, None, e, None),
        Ok(planned) => match persist::apply(ws, &planned, &plan.artifacts, lock::default_wait()) {
            Ok(published) if published.already_published => {
                let paths: Vec<String> = plan.artifacts.iter().map(|a| a.path.clone()).collect();
                result::already_applied(&paths)
            }
            Ok(published) => result::applied(published.written),
            Err(e) => {
                let reconciliation = e.reconciliation();
                result::blocked(Stage::Apply, None, e.error, reconciliation)
            }
        },
    }
}
