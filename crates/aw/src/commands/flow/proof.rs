//! `aw flow proof [--source <alias>] (--artifact <path> | -- <command…>)`: prints the checkout
//! proof an answer's `workline.source-bounded` validation carries, with the live digest of the
//! checkout. (The reference asks for the proof and gives an agent no way to compute its digest;
//! this verb is aw's answer to that.)

use super::FlowArgs;
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::error_code::ErrorCode;
use aw_core::flow::proof::{
    CheckoutProof, ProofInvocation, ProofOutput, WORKSPACE_SOURCE, shape_refusal,
};
use clap::Args;

// Arguments of `aw flow proof`.
#[derive(Debug, Args)]
#[command(
    long_about = "Print the checkout proof of what you checked, ready to put in the \"proof\" of \
the `workline.source-bounded` validation: the source, the folder it was checked from, the live \
digest of the checkout (HEAD, changed files and their contents) and what was checked — a file \
you inspected (`--artifact <path>`) or a command you ran (after `--`).\n\nRun it right before \
submitting: any edit to the checkout afterwards changes the digest, and the answer is refused \
as stale.\n\n  aw flow proof --artifact docs/specs/001-spec-x.md\n  aw flow proof -- cargo test"
)]
pub struct ProofArgs {
    /// The source alias checked (`workspace`, the workspace itself, by default).
    #[arg(long, value_name = "ALIAS", default_value = WORKSPACE_SOURCE)]
    pub source: String,
    /// The folder the check ran from, relative to the checkout.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub cwd: String,
    /// The file you inspected, relative to the checkout.
    #[arg(long, value_name = "PATH", conflicts_with = "command")]
    pub artifact: Option<String>,
    /// The command you ran: its program and arguments, after `--`.
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

/// Runs the verb.
pub fn run(args: &ProofArgs, _flow: &FlowArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let invocation = match (&args.artifact, args.command.split_first()) {
        (Some(artifact), None) => ProofInvocation::Inspection {
            artifact: artifact.clone(),
        },
        (None, Some((program, rest))) => ProofInvocation::Command {
            program: program.clone(),
            args: rest.to_vec(),
        },
        _ => {
            return Err(Failure::new(
                ErrorCode::ArgsInvalid,
                "Say what was checked: a file with `--artifact <path>`, or a command after `--`.",
                "Run `aw flow proof --artifact <file you inspected>` or `aw flow proof -- <the \
                 command you ran>`.",
            ));
        }
    };
    let ws = cx.workspace_settled()?;
    if args.source != WORKSPACE_SOURCE {
        return Err(Failure::new(
            ErrorCode::InvalidInput,
            format!(
                "This aw proves the workspace's own checkout only: '{}' would be a session's \
                 isolation unit, which this aw does not make yet.",
                args.source
            ),
            "Run the plan with the scope `workspace` alone and prove with `--source workspace` \
             (the default).",
        ));
    }
    let Some(live) = aw_workspace::flow::observe::checkout(&ws, &args.source) else {
        return Err(Failure::new(
            ErrorCode::InvalidInput,
            format!(
                "The checkout of '{}' cannot be digested: it is not a git repository with a \
                 commit.",
                args.source
            ),
            "Commit once in the workspace's repository (`git init` and a first commit), then \
             run this again.",
        ));
    };
    let proof = CheckoutProof {
        source: args.source.clone(),
        relative_cwd: args.cwd.clone(),
        checkout_digest: live.digest,
        invocation,
    };
    if let Some(r) = shape_refusal(&proof) {
        return Err(Failure::new(
            r.code,
            r.message,
            "Name a local file or a local command: a proof never points at a remote place.",
        ));
    }
    Ok(Outcome::shown(&ProofOutput::from(&proof), &style))
}
