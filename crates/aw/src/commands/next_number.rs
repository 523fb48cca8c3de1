//! `aw next-number <folder> [--dry-run] [--claim <rest>] [--code <session>]`: the next `NNN` of a
//! docs folder, and optionally a slot claimed atomically.
//!
//! Numbers follow the correlative grammar (`^\d{3,}` then `-` or the end of the name), compared
//! numerically at any width. The folder must lie inside the workspace; a relative folder is
//! taken from the workspace root, so `docs/specs` means the same from any sub-folder. `--claim`
//! rescans and creates `NNN-<rest>` under the workspace lock, so concurrent claims never share
//! a number; with `--code` the slot holds a reservation marker owned by that session.

use crate::cli::Global;
use crate::context;
use crate::failure::Failure;
use crate::output::{Format, Outcome, tty_default};
use aw_core::session::correlative::Correlative;
use aw_core::session::reservation;
use aw_core::session::resolve::Intent;
use aw_workspace::atomic;
use aw_workspace::lock::{WorkspaceLock, default_wait};
use aw_workspace::numbering;
use aw_workspace::resolver::{self, Request};
use clap::Args;
use serde_json::{Value, json};
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

/// Arguments of `aw next-number`.
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

fn invalid(message: String, action: &str) -> Failure {
    Failure::new("INVALID_INPUT", message, action)
}

/// How long a claim waits for the lock: `AW_LOCK_WAIT_MS` when set, else 10 s (claims are
/// made in bursts by parallel agents, so they wait longer than other writes).
fn claim_wait() -> Duration {
    if std::env::var_os("AW_LOCK_WAIT_MS").is_some() {
        default_wait()
    } else {
        Duration::from_secs(10)
    }
}

/// The folder `arg` names, checked to stay inside `root` (lexically, and through symlinks of
/// the part that exists).
fn inside(root: &Path, arg: &str) -> Result<PathBuf, Failure> {
    let refuse = |why: &str| {
        invalid(
            format!("`{arg}` is not a folder inside the workspace: {why}."),
            "Pass a folder inside the workspace, such as `docs/specs`.",
        )
    };
    if arg.trim().is_empty() || arg.chars().any(char::is_control) {
        return Err(refuse("it is empty or holds control characters"));
    }
    let p = Path::new(arg);
    let rel = if p.is_absolute() {
        p.strip_prefix(root)
            .map_err(|_| refuse("it is outside the workspace root"))?
            .to_path_buf()
    } else {
        p.to_path_buf()
    };
    let mut target = root.to_path_buf();
    for c in rel.components() {
        match c {
            Component::Normal(s) => target.push(s),
            Component::CurDir => {}
            _ => return Err(refuse("`..` and drive prefixes are not allowed")),
        }
    }
    let canon_root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let existing = target.ancestors().find(|a| a.exists()).unwrap_or(root);
    let canon = existing
        .canonicalize()
        .unwrap_or_else(|_| existing.to_path_buf());
    if !canon.starts_with(&canon_root) {
        return Err(refuse("a symbolic link leads outside the workspace"));
    }
    Ok(target)
}

fn slash(p: &Path) -> String {
    p.to_string_lossy().replace('\\', "/")
}

/// `current_max` as a JSON number when it fits, else as its digits.
fn number_json(c: &Correlative) -> Value {
    c.as_u64()
        .map(Value::from)
        .unwrap_or_else(|| Value::String(c.digits().to_owned()))
}

/// Runs the command.
pub fn run(args: &NextNumberArgs, global: &Global) -> Result<Outcome, Failure> {
    let style = global.flags().resolve(tty_default())?;
    let Some(dir_arg) = args.directory.as_deref() else {
        let msg = format!("Say which folder to number: `{USAGE}`.");
        return Err(
            invalid(msg.clone(), "Pass a docs folder, such as `docs/specs`.")
                .with_data("error", json!(msg)),
        );
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
    let ws = context::workspace(global)?;
    let dir = inside(&ws.root, dir_arg)?;
    let existed = dir.is_dir();
    if dir.exists() && !existed {
        return Err(invalid(
            format!("`{dir_arg}` exists but is not a folder."),
            "Pass a folder.",
        ));
    }
    let owner = match &args.code {
        Some(code) => Some(
            resolver::resolve(
                &ws,
                &Request {
                    code: Some(code),
                    allow_closed: false,
                    bind: false,
                    context_id: None,
                    intent: Intent::Write,
                },
            )?
            .folder,
        ),
        None => None,
    };
    let mut created = false;
    let (scan, claim) = match &args.claim {
        Some(rest) => {
            let lock = WorkspaceLock::acquire(&ws.lock_path(), claim_wait())?;
            if !existed {
                atomic::create_dir_all(&dir)?;
                created = true;
            }
            let (scan, claim) = numbering::claim(&dir, rest, owner.as_deref(), &lock)?;
            (scan, Some(claim))
        }
        None => {
            if !existed && !args.dry_run {
                atomic::create_dir_all(&dir)?;
                created = true;
            }
            (numbering::scan(&dir)?, None)
        }
    };
    let next = claim
        .as_ref()
        .map(|c| c.number.clone())
        .unwrap_or_else(|| scan.next.clone());
    let mut model = json!({
        "directory": slash(&dir),
        "exists": existed,
        "created": created,
        "current_max": number_json(&scan.max),
        "next": next.padded(),
        "files": scan.files,
    });
    if let Some(c) = &claim {
        model["claimed_path"] = json!(slash(&c.path));
        model["claimed_owner"] = json!(owner);
        model["claim_reused"] = json!(c.reused);
    }
    if style.format == Format::Json {
        return Ok(Outcome::json(model));
    }
    let shown = dir.strip_prefix(&ws.root).unwrap_or(&dir);
    let text = match &claim {
        Some(c) => format!(
            "{} {} (next number {}{})\n",
            if c.reused { "Reusing" } else { "Claimed" },
            slash(c.path.strip_prefix(&ws.root).unwrap_or(&c.path)),
            next.padded(),
            owner
                .as_deref()
                .map(|o| format!(", reserved for {o}"))
                .unwrap_or_default()
        ),
        None => format!(
            "Next number in {}: {} (highest so far {}){}\n",
            slash(shown),
            next.padded(),
            scan.max.padded(),
            if created { "; folder created" } else { "" }
        ),
    };
    Ok(Outcome::text(text))
}
