//! `aw session-create --type <t> --name <descriptor> --objective <text> [--from <origins>]`:
//! takes the next global session number and creates `.<ns>/sessions/NNN-<descriptor>/SESSION.md`.
//!
//! Everything happens under the workspace lock: the number is derived from the numbered folders
//! of both layouts and the HISTORY rows, the folder is assembled under a hidden temporary name
//! with its `SESSION.md`, and renamed into place in one step, so no reader ever sees a session
//! folder without its descriptor and two concurrent creates never share a number. The name must
//! be a single folder name (the reference let `x/../../escaped` create a folder outside the
//! workspace).

use crate::cli::Global;
use crate::context::{self, sentence};
use crate::failure::Failure;
use crate::output::{Format, Outcome, tty_default};
use aw_core::session::document::{self, NewSession};
use aw_core::session::folder::next_session;
use aw_core::session::history;
use aw_core::session::names::{SessionType, descriptor};
use aw_workspace::clock::local_date_today;
use aw_workspace::context_id::from_env;
use aw_workspace::{WorkspaceError, atomic, bindings, history as history_file, sessions};
use clap::Args;
use serde_json::json;

/// Arguments of `aw session-create`.
#[derive(Debug, Args)]
#[command(
    long_about = "Create a session: `.<ns>/sessions/NNN-<name>/SESSION.md`.\n\nNNN is the next \
global session number. `--name` is the folder descriptor, by convention `<slug>-<flow>` (flows: \
spec-refine, plan-new, plan-refine, plan-exec, quick); a leading `NNN-` is dropped. When \
AW_CONTEXT_ID is set, the conversation is bound to the new session."
)]
pub struct SessionCreateArgs {
    /// The kind of work: research, refine, exec or quick.
    #[arg(long = "type", value_name = "TYPE")]
    pub kind: Option<String>,
    /// The folder descriptor, e.g. `login-spec-refine`.
    #[arg(long, value_name = "DESCRIPTOR")]
    pub name: Option<String>,
    /// What the session is for.
    #[arg(long, visible_alias = "objetivo", value_name = "TEXT")]
    pub objective: Option<String>,
    /// Where it comes from: comma-separated items (parent loop, source document, trigger).
    #[arg(long, value_name = "ORIGINS")]
    pub from: Option<String>,
}

fn invalid(message: String, action: &str) -> Failure {
    Failure::new("INVALID_INPUT", message, action)
}

fn expected() -> serde_json::Value {
    json!(
        SessionType::ALL
            .iter()
            .map(|t| t.as_str())
            .collect::<Vec<_>>()
    )
}

/// A flag's trimmed value, `None` when absent or blank.
fn given(v: &Option<String>) -> Option<&str> {
    v.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

/// Runs the command.
pub fn run(args: &SessionCreateArgs, global: &Global) -> Result<Outcome, Failure> {
    let style = global.flags().resolve(tty_default())?;
    let Some(raw_type) = given(&args.kind) else {
        return Err(invalid(
            "`--type` is required: research, refine, exec or quick.".to_owned(),
            "Add `--type research|refine|exec|quick`.",
        )
        .with_data("expected", expected()));
    };
    let Some(kind) = SessionType::parse(raw_type) else {
        return Err(invalid(
            format!("`--type` must be research, refine, exec or quick, not `{raw_type}`."),
            "Pass one of the four types.",
        )
        .with_data("expected", expected()));
    };
    let Some(name) = given(&args.name) else {
        return Err(invalid(
            "`--name` is required.".to_owned(),
            "Add `--name <descriptor>`, e.g. `--name login-spec-refine`.",
        ));
    };
    let Some(objective) = given(&args.objective) else {
        return Err(invalid(
            "`--objective` (or `--objetivo`) is required.".to_owned(),
            "Add `--objective \"<what the session is for>\"`.",
        ));
    };
    let desc = descriptor(name).map_err(|e| {
        invalid(
            sentence(&e.to_string()),
            "Pass a plain folder name such as `login-spec-refine`.",
        )
    })?;
    let origin = given(&args.from);
    let origins = origin.map(document::split_origins).unwrap_or_default();
    let cid = from_env();
    let ws = context::workspace(global)?;
    let today = local_date_today();

    let lock = context::lock(&ws)?;
    // Everything that can refuse is checked before the first write.
    let mut registry = match &cid {
        Some(_) => Some(bindings::load(&ws)?),
        None => None,
    };
    let listing = sessions::list(&ws)?;
    let history_text = history_file::read(&ws)?;
    let keys: Vec<String> = history_text
        .as_deref()
        .map(|h| history::rows(h).into_iter().map(|r| r.key).collect())
        .unwrap_or_default();
    let (_, number) = next_session(
        listing.iter().map(|f| f.folder.as_str()),
        keys.iter().map(String::as_str),
    );
    let folder = format!("{}-{desc}", number.padded());
    let sessions_dir = ws.sessions_dir();
    let path = sessions_dir.join(&folder);
    if path.exists() {
        return Err(invalid(
            format!("{} already exists.", path.display()),
            "Pick another name, or look at the existing session with `aw sessions --all`.",
        ));
    }
    let text = document::render(&NewSession {
        name,
        objective,
        origins: &origins,
        declared: kind,
        start_date: &today,
    });

    atomic::create_dir_all(&sessions_dir)?;
    let staging = tempfile::Builder::new()
        .prefix(".aw-tmp-session-")
        .tempdir_in(&sessions_dir)
        .map_err(|e| WorkspaceError::io("could not create a folder in", &sessions_dir, e))?;
    atomic::write(&staging.path().join("SESSION.md"), text.as_bytes())?;
    let staged = staging.keep();
    std::fs::rename(&staged, &path).map_err(|e| {
        let _ = std::fs::remove_dir_all(&staged);
        WorkspaceError::io("could not create the session folder", &path, e)
    })?;
    atomic::sync_dir(&sessions_dir)?;
    crate::test_hook::stall();
    if let (Some(cid), Some(reg)) = (&cid, registry.as_mut())
        && reg.bind(cid, &folder)
    {
        bindings::store(&ws, reg, &lock)?;
    }
    drop(lock);

    let session_path = path.join("SESSION.md");
    if style.format == Format::Human {
        return Ok(Outcome::text(format!(
            "Created session {folder} ({}) · {}\n",
            kind.as_str(),
            session_path
                .strip_prefix(&ws.root)
                .unwrap_or(&session_path)
                .display()
        )));
    }
    let mut model = json!({
        "type": kind.as_str(),
        "name": name,
        "number": number.padded(),
        "folder": folder,
        "path": path.to_string_lossy(),
        "session_path": session_path.to_string_lossy(),
    });
    if let Some(o) = origin {
        model["origin"] = json!(o);
    }
    Ok(Outcome::json(model))
}
