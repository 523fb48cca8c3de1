//! The run state on disk: `.<ns>/sessions/<folder>/.flow-run.json`.
//!
//! One mutation per invocation, under the workspace lock: the file is read once, the pure engine
//! computes the next state, and the state is written once, atomically — or not at all when the
//! engine refused, when the invocation spent nothing, or when the bytes would not change (the
//! reference rewrote the file on every `advance`).

use crate::error::{Result, WorkspaceError};
use crate::io::lock::{WorkspaceLock, default_wait};
use crate::locate::Workspace;
use crate::sessions;
use crate::sessions::resolver::{self, Request};
use aw_core::error_code::ErrorCode;
use aw_core::flow::Journey;
use aw_core::flow::counter::{self, Counters};
use aw_core::flow::error::FlowError;
use aw_core::flow::projection::{RunProjection, project};
use aw_core::flow::run::{Turn, closed_session_allows};
use aw_core::flow::state::{RUN_STATE_FILE, RunState};
use aw_core::flow::state_parse::{self, parse_state};
use aw_core::session::folder::SessionState;
use aw_core::session::resolve::Intent;
use std::path::{Path, PathBuf};

/// The state file of a session folder.
pub fn state_path(session_dir: &Path) -> PathBuf {
    session_dir.join(RUN_STATE_FILE)
}

/// A flow refusal as a shell error (same code, message and action).
pub fn refused(e: FlowError) -> WorkspaceError {
    WorkspaceError::Refused {
        code: e.code,
        message: e.message,
        action: e.action,
    }
}

/// The file's text, `None` when it does not exist.
fn read_text(path: &Path) -> Result<Option<String>> {
    // A FIFO named like the state is refused, never waited on.
    match crate::io::folder::read_regular_path(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => Ok(Some(text)),
            Err(_) => Err(refused(FlowError::new(
                ErrorCode::FlowRunInvalid,
                "The run state is unusable: it is not UTF-8 text.",
                "Nothing was changed. Move .flow-run.json out of the session folder and adopt the \
                 session again with `aw flow advance --session <session> --flow <flow> --adopt`.",
            ))),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => Err(refused(FlowError::new(
            ErrorCode::FlowRunInvalid,
            "The run state is unusable: it is not a regular file.",
            "Nothing was changed. Move .flow-run.json out of the session folder and adopt the \
             session again with `aw flow advance --session <session> --flow <flow> --adopt`.",
        ))),
        Err(e) => Err(WorkspaceError::io("could not read", path, e)),
    }
}

/// The run's sidecar attempt counter: `<sessions>/.flow-attempts/<folder>.json`, beside the
/// session folders and outside each (see [`aw_core::flow::counter`]).
pub fn counter_path(session_dir: &Path, folder: &str) -> PathBuf {
    session_dir
        .parent()
        .unwrap_or(session_dir)
        .join(counter::COUNTER_DIR)
        .join(counter::file_name(folder))
}

/// The run's counter: empty when there is none (every run older than the counter), refused when
/// it does not read.
fn read_counter(session_dir: &Path, folder: &str) -> Result<Counters> {
    let path = counter_path(session_dir, folder);
    match crate::io::folder::read_regular_path(&path) {
        Ok(bytes) => {
            let text = String::from_utf8_lossy(&bytes);
            counter::parse(&text, folder).map_err(refused)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Counters::default()),
        // A FIFO or folder in its place is looked at, never opened or waited on.
        Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {
            Err(refused(counter::not_a_file()))
        }
        Err(e) => Err(WorkspaceError::io("could not read", &path, e)),
    }
}

/// A session's run, read fail-closed (`None` when the session has no state).
pub fn read(session_dir: &Path, folder: &str) -> Result<Option<RunState>> {
    read_with_text(session_dir, folder).map(|r| r.map(|(s, _)| s))
}

fn read_with_text(session_dir: &Path, folder: &str) -> Result<Option<(RunState, String)>> {
    let Some(text) = read_text(&state_path(session_dir))? else {
        return Ok(None);
    };
    let state = parse_state(&text, folder).map_err(refused)?;
    Ok(Some((state, text)))
}

/// Runs one mutation of a session's run while the caller holds the workspace lock: reads the
/// state, hands it to `step` (which sees `None` when there is none), and writes the resulting
/// state once, atomically, when the step allows it and the bytes change.
///
/// When `adopting` and the file holds a version-4 run that can no longer go on (its journey
/// changed under it), `step` sees `None`: the session is adopted afresh and the new state
/// replaces the old one — the refusal without `--adopt` names exactly this command.
pub fn mutate(
    session_dir: &Path,
    folder: &str,
    held: &WorkspaceLock,
    adopting: bool,
    step: impl FnOnce(Option<RunState>) -> std::result::Result<Turn, FlowError>,
) -> Result<Turn> {
    let path = state_path(session_dir);
    let text = read_text(&path)?;
    let state = match &text {
        None => None,
        Some(t) => {
            let s = parse_state(t, folder).map_err(refused)?;
            let stranded = s.legacy && Journey::builtin(s.flow).and_then(|j| j.check(&s)).is_err();
            (!(adopting && stranded)).then_some(s)
        }
    };
    // The counter is read with the state it guards: one behind the state's sealed floor is
    // refused, and the state takes the counter's floor (a restored older state cannot lower it).
    // An adoption starts it over, so a broken counter never blocks one.
    let adopted_afresh = state.is_none();
    let (state, counter) = match state {
        None => (None, Counters::default()),
        Some(s) => {
            let (s, c) = with_counter(session_dir, folder, s)?;
            (Some(s), c)
        }
    };
    let mut turn = step(state).map_err(refused)?;
    if turn.write {
        // The counter first, the state second: a crash between them leaves the counter ahead.
        let counter_file = counter_path(session_dir, folder);
        if adopted_afresh {
            crate::io::atomic::remove_file(held.root(), &counter_file)?;
            turn.state.floor.clear();
            turn.state.granted.clear();
        } else {
            let raised = counter::raised(&counter, &turn.state);
            if raised != counter {
                if let Some(dir) = counter_file.parent() {
                    crate::io::atomic::create_dir_all(held.root(), dir)?;
                }
                crate::io::atomic::write_entry(
                    held.root(),
                    &counter_file,
                    counter::serialize(folder, &raised).as_bytes(),
                )?;
            }
            turn.state.floor = raised.attempts;
            turn.state.granted = raised.granted;
        }
        let after = turn.state.serialize();
        if text.as_deref() != Some(after.as_str()) {
            crate::io::atomic::write_entry(held.root(), &path, after.as_bytes())?;
        }
    }
    Ok(turn)
}

/// One invocation of a flow verb: takes the workspace lock, resolves the session (`code`, else
/// the conversation's binding, else the only active session; the conversation is bound to it),
/// and runs one engine `step` over its run state (see [`mutate`]; `adopting` is set by
/// `advance --adopt`). A closed session is accepted only for a run that is finished or stands
/// on the step that closed it.
///
/// An adoption that wrote the new run is then recorded in the session's custody
/// (`flow_adopted`, dated `today`).
pub fn drive(
    ws: &Workspace,
    code: Option<&str>,
    context_id: Option<&str>,
    adopting: bool,
    today: &str,
    step: impl FnOnce(Option<RunState>, &str) -> std::result::Result<Turn, FlowError>,
) -> Result<Turn> {
    let lock = WorkspaceLock::of(ws, default_wait())?;
    let listing = sessions::list(ws)?;
    let request = Request {
        code,
        allow_closed: true,
        bind: true,
        context_id,
        intent: Intent::Write,
    };
    let resolved = resolver::resolve_locked(ws, &listing, &request, &lock)?;
    let closed = resolved.state == SessionState::Closed;
    let folder = resolved.folder.clone();
    let mut adopted = false;
    let turn = mutate(&resolved.path, &folder, &lock, adopting, |stored| {
        adopted = adopting && stored.is_none();
        if closed {
            let allowed = match &stored {
                None => false,
                Some(s) => closed_session_allows(s, &Journey::builtin(s.flow)?),
            };
            if !allowed {
                return Err(session_closed(&folder));
            }
        }
        step(stored, &folder)
    })?;
    if adopted && turn.write {
        // After the run is written: an audit record, so a legacy session (no custody) or one
        // that cannot be read leaves the adoption standing.
        let _ = crate::sessions::custody::record_flow_adopted(
            &resolved.path,
            turn.state.flow.as_str(),
            today,
        );
    }
    Ok(turn)
}

fn session_closed(folder: &str) -> FlowError {
    FlowError::new(
        ErrorCode::SessionClosed,
        format!("Session '{folder}' is closed."),
        format!(
            "Reopen it with `aw session-resume --code {folder} --reopen`, or pick an active session."
        ),
    )
}

/// The flow projection of one session for `aw status` / `aw resume` (§12): `None` when the
/// session has no run state. Read-only: takes no lock and never writes.
pub fn project_run(ws: &Workspace, folder: &str) -> Option<RunProjection> {
    let dir = sessions::folder_path(ws, folder);
    project_read(&dir, read_text(&state_path(&dir)), folder)
}

/// The run state's text of a session folder (`None` when there is none) and its projection, for
/// a reader that needs both from one read (the session narrative).
pub fn read_and_project(
    session_dir: &Path,
    folder: &str,
) -> (Option<String>, Option<RunProjection>) {
    let read = read_text(&state_path(session_dir));
    let text = read.as_ref().ok().and_then(Option::clone);
    (text, project_read(session_dir, read, folder))
}

/// A state just parsed, checked against its attempt counter and reconciled with it, as every
/// verb reads it: the board and the narrative show what the next verb will see.
fn with_counter(
    session_dir: &Path,
    folder: &str,
    mut state: RunState,
) -> Result<(RunState, Counters)> {
    let c = read_counter(session_dir, folder)?;
    counter::check_not_behind(&state, &c).map_err(refused)?;
    counter::reconcile(&mut state, &c);
    Ok((state, c))
}

/// Projects what reading a state file gave (with its counter).
fn project_read(
    session_dir: &Path,
    read: Result<Option<String>>,
    folder: &str,
) -> Option<RunProjection> {
    let read = read.and_then(|text| {
        let Some(text) = text else {
            return Ok(None);
        };
        // A state that parses is read with its counter; one that does not keeps its own refusal.
        match parse_state(&text, folder) {
            Ok(state) => Ok(Some((
                Ok(with_counter(session_dir, folder, state)?.0),
                text,
            ))),
            Err(e) => Ok(Some((Err(e), text))),
        }
    });
    let (read, flow_hint) = match read {
        Ok(None) => (Ok(None), None),
        Ok(Some((state, text))) => (state.map(Some), state_parse::flow_named_in(&text)),
        Err(e) => (
            Err(match e {
                WorkspaceError::Refused {
                    code,
                    message,
                    action,
                } => FlowError::new(code, message, action),
                other => FlowError::new(ErrorCode::IoError, other.to_string(), other.action()),
            }),
            None,
        ),
    };
    project(read, folder, flow_hint)
}
