//! `aw next-number <folder> [--dry-run] [--claim <rest>] [--code <session>]`: the next `NNN` of a
//! docs folder, and optionally a slot claimed atomically.
//!
//! Numbers follow the correlative grammar (`^\d{3,}` then `-` or the end of the name), compared
//! numerically at any width. The folder must lie inside the workspace; a relative folder is
//! taken from the workspace root, so `docs/specs` means the same from any sub-folder. `--claim`
//! rescans and creates `NNN-<rest>` under the workspace lock, so concurrent claims never share
//! a number; with `--code` the slot holds a reservation marker owned by that session.

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::error_code::ErrorCode;
use aw_core::session::reservation;
use aw_core::wire::envelope::SessionError;
use aw_core::wire::next_number::{Correlative, NextNumber};
use aw_workspace::WorkspaceError;
use aw_workspace::documents::numbering::{self, NumberRequest};
use aw_workspace::io::containment::resolve_inside;
use aw_workspace::locate::slashed;
use clap::Args;

// Arguments of `aw next-number`.
#[derive(Debug, Args)]
#[command(
    long_about = "Print the next correlative (NNN) of a docs folder, creating the folder if needed.\n\n\
The folder is relative to the workspace root (or absolute inside it). Numbers are the leading \
digits of names shaped `NNN-…` (three digits or more), compared numerically; gaps are never \
filled. `--claim <rest>` reserves `NNN-<rest>` atomically under the workspace lock; with \
`--code <session>` the reservation is owned by that session (claiming again returns the same \
slot, and closing the session releases it while it is still untouched)."
)]
pub struct NextNumberArgs {
    /// The docs folder, e.g. `docs/specs`.
    #[arg(value_name = "FOLDER")]
    pub directory: Option<String>,
    /// Compute only: create nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Reserve `NNN-<rest>` (for example `spec-login.md`) under the workspace lock.
    #[arg(long, value_name = "REST")]
    pub claim: Option<String>,
    /// The session that owns the claim (with `--claim`).
    #[arg(long, value_name = "SESSION")]
    pub code: Option<String>,
}

const USAGE: &str = "aw next-number <folder> [--dry-run] [--claim <rest>] [--code <session>]";

/// A refused argument; like the reference's, it carries its reason as `data.error`.
fn invalid(message: String, action: &str) -> Failure {
    Failure::new(ErrorCode::InvalidInput, message, action).with_error_data()
}

/// A `--code` that settles on no active session to own the claim keeps the resolver's code and
/// candidates, and adds the reference's `data`: the reason as `data.error` and the resolver's
/// whole refusal as `data.sessionError` (`outcome`, `code`, `message`, `candidates`, `action`).
fn owner_refused(e: WorkspaceError, owner: Option<&str>) -> Failure {
    let (WorkspaceError::Session(r), Some(owner)) = (&e, owner) else {
        return e.into();
    };
    let session_error = SessionError::of(r);
    let why = format!("The session `{owner}` that would own the claim cannot be resolved.");
    Failure::from(e).with_data(|d| {
        d.error = Some(why);
        d.session_error = Some(session_error);
    })
}

/// Runs the command.
pub fn run(args: &NextNumberArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let Some(dir_arg) = args.directory.as_deref() else {
        let msg = format!("Say which folder to number: `{USAGE}`.");
        return Err(invalid(msg, "Pass a docs folder, such as `docs/specs`."));
    };
    if args.claim.is_some() && args.dry_run {
        return Err(invalid(
            "`--claim` creates a file and `--dry-run` creates nothing: they cannot be combined."
                .to_owned(),
            "Drop one of them.",
        ));
    }
    if args.code.is_some() && args.claim.is_none() {
        return Err(invalid(
            "`--code` names the owner of a claim, so it needs `--claim <rest>`.".to_owned(),
            "Add `--claim <rest>`, or drop `--code`.",
        ));
    }
    if let Some(rest) = &args.claim
        && !reservation::is_valid_rest(rest)
    {
        return Err(invalid(
            format!(
                "`{rest}` cannot follow `NNN-` in a file name: it must be one name, without `/`, `\\`, `..`, a leading `.` or control characters."
            ),
            "Pass the rest of the file name, such as `spec-login.md`.",
        ));
    }
    let ws = cx.workspace_settled()?;
    let dir = resolve_inside(&ws.root, dir_arg).map_err(|why| {
        invalid(
            format!(
                "`{dir_arg}` is not a folder inside the workspace: {}.",
                why.reason()
            ),
            "Pass a folder inside the workspace, such as `docs/specs`.",
        )
    })?;
    let numbering::Numbered {
        existed,
        created,
        scan,
        claim,
        owner,
    } = numbering::number(
        &ws,
        &NumberRequest {
            dir: &dir,
            typed: dir_arg,
            claim: args.claim.as_deref(),
            owner: args.code.as_deref(),
            dry_run: args.dry_run,
        },
    )
    .map_err(|e| owner_refused(e, args.code.as_deref()))?;
    let next = claim
        .as_ref()
        .map(|c| c.number.clone())
        .unwrap_or_else(|| scan.next.clone());
    // The claim's keys are always present, as the reference prints them: null and false when
    // nothing was claimed.
    let model = NextNumber {
        directory: slashed(&dir),
        exists: existed,
        created,
        current_max: Correlative::of(&scan.max),
        next: next.padded(),
        files: scan.files,
        claimed_path: claim.as_ref().map(|c| slashed(&c.path)),
        claimed_owner: claim.as_ref().and(owner.clone()),
        claim_reused: claim.as_ref().is_some_and(|c| c.reused),
        shown: match &claim {
            Some(c) => ws.shown(&c.path),
            None => ws.shown(&dir),
        },
        highest: scan.max.padded(),
    };
    Ok(Outcome::shown(&model, &style))
}
