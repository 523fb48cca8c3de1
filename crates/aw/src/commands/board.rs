//! What `aw status` and `aw resume` share: reading the workspace into the board, and the place
//! where the flow engine's per-session projection plugs in.

use aw_core::calendar::WallClock;
use aw_core::docs::board_input::{BoardInput, SessionInput};
use aw_core::docs::flow_view::FlowProjection;
use aw_core::docs::status::{self, SessionEntry, StatusModel};
use aw_core::session::folder::{SessionFolder, SessionState};
use aw_workspace::board::{self, LocalTimes};
use aw_workspace::clock::local_wall_clock;
use aw_workspace::locate::Workspace;

/// The flow engine's read-only projection of a session's run (`.flow-run.json`), for an active
/// session; `None` when the session has no run.
///
/// This is the one place the flow engine plugs into the board: return its projection here and
/// `aw status` shows it as the session's `flow`, while `aw resume` takes `stop` (a run halted at
/// a boundary that is not final) as the session's next step and command.
pub fn flow_projection(ws: &Workspace, folder: &str) -> Option<FlowProjection> {
    aw_workspace::flow_store::project_run(ws, folder).map(Into::into)
}

/// "Now" on the local wall clock. `AW_TEST_NOW=YYYY-MM-DD HH:MM[:SS]` pins it (a testing aid
/// documented in docs/PROTOCOL.md, so relative dates can be snapshot-tested).
pub fn now() -> WallClock {
    std::env::var("AW_TEST_NOW")
        .ok()
        .and_then(|v| WallClock::parse(&v))
        .unwrap_or_else(local_wall_clock)
}

/// Reads one session as the board sees it (with its flow projection when active).
fn session(ws: &Workspace, folder: &SessionFolder, times: &mut LocalTimes) -> SessionInput {
    let mut s = board::read_session(ws, folder, times);
    if folder.state == SessionState::Active {
        s.flow = flow_projection(ws, &folder.folder);
    }
    s
}

/// Reads the whole workspace and builds the board. Every file is read once.
pub fn load(ws: &Workspace, now: &WallClock) -> StatusModel {
    let mut times = LocalTimes::new();
    // Sessions first: every file time is converted before the document threads start.
    let sessions = board::session_folders(ws)
        .iter()
        .map(|f| session(ws, f, &mut times))
        .collect();
    let (specs, plans) = board::read_documents(ws, &mut times);
    status::build(
        BoardInput {
            workspace: board::workspace_entry(ws),
            specs,
            plans,
            sessions,
        },
        now,
    )
}

/// Reads one session's board entry (for `aw resume --code`).
pub fn load_session(ws: &Workspace, folder: &SessionFolder, now: &WallClock) -> SessionEntry {
    let mut times = LocalTimes::new();
    status::session_entry(session(ws, folder, &mut times), now)
}
