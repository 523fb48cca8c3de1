//! `aw session-resume [--code <c>] [--reopen]`: what an agent needs to pick a session up again —
//! its descriptor text and its parsed checkpoint.
//!
//! A plain resume only reads (it never binds the conversation, the reference's v22 rule).
//! `--reopen` removes `.closed` and binds the conversation (AW_CONTEXT_ID, else
//! CLAUDE_CODE_SESSION_ID) to the session, both
//! under the workspace lock.

use crate::cli::given;
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use crate::style::clean;
use crate::views;
use aw_core::docs::session_view::{checkpoint_view, session_view};
use aw_core::error_code::ErrorCode;
use aw_core::session::folder::{SessionFolder, identity};
use aw_core::session::resolve::Intent;
use aw_workspace::artifacts::entries;
use aw_workspace::context_id::from_env;
use aw_workspace::hooks::read_checkpoint;
use aw_workspace::resolver::{self, Request, Resolved};
use aw_workspace::sessions::{self, DescriptorKind};
use clap::Args;
use serde_json::json;

/// Arguments of `aw session-resume`.
#[derive(Debug, Args)]
#[command(
    long_about = "Show a session's descriptor (SESSION.md, or a legacy OBJECTIVE.md / OBJETIVO.md) \
and its parsed CHECKPOINT.md.\n\nThe session is `--code`, else the one this conversation \
(AW_CONTEXT_ID, else CLAUDE_CODE_SESSION_ID) is bound to, else the only active session. `--reopen` (with `--code`) reopens a \
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
pub fn run(args: &SessionResumeArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let code = given(&args.code);
    if args.reopen && code.is_none() {
        return Err(Failure::new(
            ErrorCode::InvalidInput,
            "`--reopen` needs `--code <session>`: reopening never guesses the session.",
            "Add `--code <session>` (see `aw sessions --all`).",
        ));
    }
    let ws = cx.workspace()?;
    let cid = from_env();
    let resolved = match (args.reopen, code) {
        (true, Some(code)) => sessions::reopen(&ws, code, cid.as_deref())?,
        _ => resolver::resolve(
            &ws,
            &Request {
                code,
                allow_closed: true,
                bind: false,
                context_id: cid.as_deref(),
                intent: Intent::Read,
            },
        )?,
    };
    let names = entries(&resolved.path)?;
    let objective = sessions::descriptor(&resolved.path, &names)?
        .filter(|d| d.kind != DescriptorKind::Requirements)
        .map(|d| d.text);
    let (cp_path, cp_text) = read_checkpoint(&resolved.path)?;
    let id = identity(&resolved.folder);
    let rel = ws.shown(&resolved.path);
    if style.format == Format::Human {
        return Ok(Outcome::text(human(
            &resolved,
            &rel,
            objective.as_deref(),
            cp_text.as_deref(),
            args.reopen,
        )));
    }
    let cp = cp_text.map(|raw| views::checkpoint::model(&cp_path.to_string_lossy(), &raw));
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

/// The human view: the same objective and checkpoint lines the board shows.
fn human(
    r: &Resolved,
    rel: &str,
    descriptor: Option<&str>,
    cp: Option<&str>,
    reopened: bool,
) -> String {
    let mut out = format!(
        "{}{} · {} · {}\n",
        if reopened { "Reopened " } else { "" },
        clean(&r.folder),
        r.state.as_str(),
        clean(rel)
    );
    let folder = SessionFolder {
        folder: r.folder.clone(),
        state: r.state,
    };
    // The objective's first meaningful line, else the summary listings show.
    let objective = descriptor.map(|text| {
        let view = session_view(&folder, Some(text));
        view.objective.unwrap_or(view.summary)
    });
    out.push_str(&format!(
        "  Objective  {}\n",
        clean(objective.as_deref().unwrap_or("—"))
    ));
    match cp.map(checkpoint_view) {
        None => out.push_str("  Checkpoint none\n"),
        Some(v) => {
            let line = |l: Option<String>| clean(l.as_deref().unwrap_or("—")).into_owned();
            out.push_str(&format!("  Done       {}\n", line(v.completed)));
            out.push_str(&format!("  Next       {}\n", line(v.pending)));
        }
    }
    out
}
