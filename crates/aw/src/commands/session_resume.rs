//! `aw session-resume [--code <c>] [--reopen]`: what an agent needs to pick a session up again —
//! its descriptor text and its parsed checkpoint.
//!
//! A plain resume only reads (it never binds the conversation, the reference's v22 rule).
//! `--reopen` removes `.closed` and binds the conversation (AW_CONTEXT_ID) to the session, both
//! under the workspace lock.

use crate::cli::Global;
use crate::context;
use crate::failure::Failure;
use crate::output::{Format, Outcome, tty_default};
use aw_core::checkpoint;
use aw_core::session::document;
use aw_core::session::folder::{SessionState, identity};
use aw_core::session::resolve::Intent;
use aw_workspace::checkpoint as disk;
use aw_workspace::context_id::from_env;
use aw_workspace::resolver::{self, Request, Resolved};
use aw_workspace::sessions::{self, CLOSED_SENTINEL, DescriptorKind};
use aw_workspace::{WorkspaceError, atomic};
use clap::Args;
use serde_json::json;

/// Arguments of `aw session-resume`.
#[derive(Debug, Args)]
#[command(
    long_about = "Show a session's descriptor (SESSION.md, or a legacy OBJECTIVE.md / OBJETIVO.md) \
and its parsed CHECKPOINT.md.\n\nThe session is `--code`, else the one this conversation \
(AW_CONTEXT_ID) is bound to, else the only active session. `--reopen` (with `--code`) reopens a \
closed session and binds this conversation to it."
)]
pub struct SessionResumeArgs {
    /// The session: a number, a folder name or a unique folder prefix.
    #[arg(long, value_name = "CODE")]
    pub code: Option<String>,
    /// Reopen the session (remove `.closed`) and bind this conversation to it; needs `--code`.
    #[arg(long)]
    pub reopen: bool,
}

/// Runs the command.
pub fn run(args: &SessionResumeArgs, global: &Global) -> Result<Outcome, Failure> {
    let style = global.flags().resolve(tty_default())?;
    let code = args
        .code
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty());
    if args.reopen && code.is_none() {
        return Err(Failure::new(
            "INVALID_INPUT",
            "`--reopen` needs `--code <session>`: reopening never guesses the session.",
            "Add `--code <session>` (see `aw sessions --all`).",
        ));
    }
    let ws = context::workspace(global)?;
    let cid = from_env();
    let resolved = if args.reopen {
        reopen(&ws, code, cid.as_deref())?
    } else {
        resolver::resolve(
            &ws,
            &Request {
                code,
                allow_closed: true,
                bind: false,
                context_id: cid.as_deref(),
                intent: Intent::Read,
            },
        )?
    };
    let entries = disk::entries(&resolved.path)?;
    let objective = sessions::descriptor(&resolved.path, &entries)?
        .filter(|d| d.kind != DescriptorKind::Requirements)
        .map(|d| d.text);
    let cp_path = disk::checkpoint_path(&resolved.path, &entries);
    let cp_text = disk::read_text(&cp_path)?;
    let id = identity(&resolved.folder);
    let rel = resolved
        .path
        .strip_prefix(&ws.root)
        .unwrap_or(&resolved.path)
        .to_string_lossy()
        .replace('\\', "/");
    if style.format == Format::Human {
        return Ok(Outcome::text(human(
            &resolved,
            &rel,
            objective.as_deref(),
            cp_text.as_deref(),
            args.reopen,
        )));
    }
    let cp = cp_text.map(|raw| super::checkpoint_read::model(&cp_path.to_string_lossy(), &raw));
    Ok(Outcome::json(json!({
        "code": id.code,
        "folder": resolved.folder,
        "path": rel,
        "state": resolved.state.as_str(),
        "objetivo": objective,
        "objetivo_text": objective,
        "checkpoint": cp,
    })))
}

/// Reopens under the lock: resolve, bind (when there is a conversation), remove `.closed`.
fn reopen(
    ws: &aw_workspace::locate::Workspace,
    code: Option<&str>,
    cid: Option<&str>,
) -> Result<Resolved, Failure> {
    let lock = context::lock(ws)?;
    let listing = sessions::list(ws)?;
    let request = Request {
        code,
        allow_closed: true,
        bind: false,
        context_id: cid,
        intent: Intent::Write,
    };
    let mut resolved = resolver::resolve_in(ws, &listing, &request)?;
    // Read the registry before the first write, so a broken one refuses without changes.
    let registry = match cid {
        Some(_) => Some(aw_workspace::bindings::load(ws)?),
        None => None,
    };
    let sentinel = resolved.path.join(CLOSED_SENTINEL);
    match std::fs::remove_file(&sentinel) {
        Ok(()) => atomic::sync_dir(&resolved.path)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(WorkspaceError::io("could not remove", sentinel, e).into()),
    }
    resolved.state = SessionState::Active;
    if let (Some(cid), Some(mut registry)) = (cid, registry)
        && registry.bind(cid, &resolved.folder)
    {
        aw_workspace::bindings::store(ws, &registry, &lock)?;
        resolved.bound = true;
    }
    Ok(resolved)
}

fn first_line(s: Option<&str>) -> &str {
    s.and_then(|t| t.lines().map(str::trim).find(|l| !l.is_empty()))
        .unwrap_or("—")
}

fn human(
    r: &Resolved,
    rel: &str,
    objective: Option<&str>,
    cp: Option<&str>,
    reopened: bool,
) -> String {
    let mut out = format!(
        "{}{} · {} · {rel}\n",
        if reopened { "Reopened " } else { "" },
        r.folder,
        r.state.as_str()
    );
    // The objective section, else the summary listings show (requirement, question, …).
    let objective_line = objective.map(|t| {
        aw_core::markdown::section(t, aw_core::markdown::aliases::OBJECTIVE)
            .map(|s| first_line(Some(&s)).to_owned())
            .unwrap_or_else(|| document::facts(&identity(&r.folder).name, Some(t)).summary)
    });
    out.push_str(&format!(
        "  Objective  {}\n",
        objective_line.as_deref().unwrap_or("—")
    ));
    match cp {
        None => out.push_str("  Checkpoint none\n"),
        Some(text) => {
            let f = checkpoint::parse(text);
            out.push_str(&format!(
                "  Done       {}\n",
                first_line(f.ultimo.as_deref())
            ));
            out.push_str(&format!(
                "  Next       {}\n",
                first_line(f.proximo.as_deref())
            ));
        }
    }
    out
}
