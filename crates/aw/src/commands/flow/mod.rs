//! `aw flow advance | submit | recover`: the direction engine's verbs.
//!
//! Each verb resolves the session (`--session`, alias `--code`; else this conversation's
//! binding; else the only active session), takes the workspace lock, reads the run state once,
//! lets the pure engine decide, writes the state at most once, and prints the directive.
//! Business rejections are directives with `error` set (exit 0); invocation failures are the
//! failure envelope (exit 1).

mod advance;
mod proof;
mod recover;
mod submit;

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Outcome, Style};
use aw_core::capability::callers::{harness, harness_ids};
use aw_core::error_code::ErrorCode;
use aw_core::flow::error::FlowError;
use aw_core::flow::run::Turn;
use aw_core::flow::{Directive, Flow, RunState};
use aw_core::wire::lock::LockHeld;
use aw_workspace::capability::skill_bindings;
use aw_workspace::locate::Workspace;
use aw_workspace::sessions::context_id::from_env;
use aw_workspace::{WorkspaceError, flow::store};
use clap::{Args, Subcommand};

/// The one-line summary of `aw flow`, also set on its entry in the command list (the
/// arguments are built only when the command runs).
pub const ABOUT: &str = "Walk a session's flow: the next boundary, and what to do there.";

// Arguments of `aw flow`.
#[derive(Debug, Args)]
#[command(
    about = ABOUT,
    long_about = "Walk a session's Workline flow (spec-refine, plan-new, plan-refine, plan-exec, \
quick) deterministically.\n\n`aw flow advance` applies every step the CLI can decide by itself and \
stops at the next boundary: semantic (the agent's judgment), human (a person's choice), \
authorization (approve effect classes), execution (run an exact command and report its real \
output), blocked, or final. `aw flow submit` answers that boundary with one JSON object on stdin. \
`aw flow recover` gives an exhausted boundary its attempts back. `aw flow proof` prints the \
checkout proof a gate's evidence carries.\n\nSome steps aw runs itself (sessions, seeds, board \
readings, publications, the close): `advance` and `submit` run them and stop at the next step that \
needs someone.\n\nEvery directive carries a \
`next_action`: the exact command and answer to send next. Start a run with `aw flow advance \
--session <session> --flow <flow> --adopt`."
)]
pub struct FlowArgs {
    /// The verb.
    #[command(subcommand)]
    pub verb: Verb,
    /// The session: a number, a folder name or a unique folder prefix (default: this
    /// conversation's session, else the only active one).
    #[arg(long, global = true, value_name = "SESSION")]
    pub session: Option<String>,
    /// Same as `--session`.
    #[arg(long, global = true, value_name = "SESSION")]
    pub code: Option<String>,
    /// The agent host calling (claude-code, codex, oz, warp, gemini, opencode, crush, kimi), as
    /// the installed wrappers pass it. Checked against the host catalog; it changes nothing
    /// else.
    #[arg(long, global = true, value_name = "HOST", value_parser = host_name)]
    pub host: Option<String>,
}

/// The verbs of `aw flow`.
#[derive(Debug, Subcommand)]
// A verb's arguments are built only when that verb runs, which keeps start-up small.
#[command(defer = true)]
pub enum Verb {
    // `about` rather than a doc comment: a variant's doc comment would also reset the verb's
    // long help, which its Args struct carries.
    #[command(
        about = "Walk the run to its next boundary (adopting the session with `--flow <f> --adopt`)."
    )]
    Advance(advance::AdvanceArgs),
    #[command(about = "Answer the boundary in force with one JSON object on stdin.")]
    Submit(submit::SubmitArgs),
    #[command(about = "Give an exhausted boundary its attempts back.")]
    Recover(recover::RecoverArgs),
    #[command(about = "Print the checkout proof a source-bounded validation carries.")]
    Proof(proof::ProofArgs),
}

/// Runs `aw flow <verb>`.
pub fn dispatch(args: &FlowArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    match &args.verb {
        Verb::Advance(a) => advance::run(a, args, cx),
        Verb::Submit(a) => submit::run(a, args, cx),
        Verb::Recover(a) => recover::run(a, args, cx),
        Verb::Proof(a) => proof::run(a, args, cx),
    }
}

/// A `--flow` value (for every verb that takes one): a flow the registry knows.
fn flow_name(raw: &str) -> Result<String, String> {
    match Flow::parse(raw) {
        Some(_) => Ok(raw.to_owned()),
        None => Err(format!("the flows are {}", Flow::list())),
    }
}

/// A `--host` value: a host of the catalog. Like the reference, the flow engine only checks it:
/// the directive is the same whoever calls.
fn host_name(raw: &str) -> Result<String, String> {
    match harness(raw) {
        Some(_) => Ok(raw.to_owned()),
        None => Err(format!("the hosts are {}", harness_ids().join(", "))),
    }
}

/// The session asked for: `--session`, or its alias `--code` (they must agree).
fn session_arg(args: &FlowArgs) -> Result<Option<&str>, Failure> {
    crate::cli::session_or_code(&args.session, &args.code)
}

/// A shell error as the failure envelope; a busy lock keeps the reference's flow code.
fn failure(e: WorkspaceError) -> Failure {
    match e {
        WorkspaceError::LockBusy { pid, waited_ms } => Failure::new(
            ErrorCode::FlowRunLocked,
            format!(
                "Another aw invocation holds the workspace (pid {pid}) and kept it for {waited_ms} ms."
            ),
            "Wait for it to finish, then run this command again (AW_LOCK_WAIT_MS waits longer).",
        )
        .with_details(LockHeld { pid }),
        other => Failure::from(other),
    }
}

/// Resolves the session, takes the lock, and runs one engine step over its run state
/// (`aw_workspace::flow::store::drive`).
fn drive(
    args: &FlowArgs,
    cx: &Ctx<'_>,
    adopting: bool,
    step: impl FnOnce(Option<RunState>, &str) -> Result<Turn, FlowError>,
) -> Result<Turn, Failure> {
    drive_in(args, cx, adopting, |stored, folder, _| step(stored, folder))
}

/// [`drive`], the step also seeing the workspace (to gather, under the lock, what it reads).
fn drive_in(
    args: &FlowArgs,
    cx: &Ctx<'_>,
    adopting: bool,
    step: impl FnOnce(Option<RunState>, &str, &Workspace) -> Result<Turn, FlowError>,
) -> Result<Turn, Failure> {
    let code = session_arg(args)?;
    let ws = cx.workspace_settled()?;
    if let Some(why) = skill_bindings::docs_canon_refusal(&ws, cx.home().as_deref()) {
        return Err(Failure::new(
            ErrorCode::DocsCanonInvalid,
            format!("The documents layout cannot be used: {why}."),
            "Fix the [docs] table of skills.toml so the flows keep the canonical layout \
             (docs/research, docs/specs, docs/plans, docs/decisions), then run the command again; \
             nothing was read or written.",
        ));
    }
    let cid = from_env();
    let today = cx.now.today();
    store::drive(
        &ws,
        code,
        cid.as_deref(),
        adopting,
        &today,
        |stored, folder| step(stored, folder, &ws),
    )
    .map_err(failure)
}

/// Runs the internal actions the run now stands on (flow-spec-v22 §9), after the verb's own
/// turn is written.
fn run_internal(cx: &Ctx<'_>, turn: Turn) -> Result<Turn, Failure> {
    // Most boundaries are not internal steps: nothing more to read or lock.
    if !aw_core::flow::internal::stands_on_one(&turn.directive) {
        return Ok(turn);
    }
    let ws = cx.workspace_settled()?;
    let folder = turn.state.session.clone();
    aw_workspace::flow::internal::drive(&ws, &folder, turn, &cx.now, cx.home().as_deref())
        .map_err(failure)
}

/// Prints a directive in the resolved format.
fn emit(style: Style, directive: &Directive) -> Outcome {
    Outcome::shown(directive, &style)
}
