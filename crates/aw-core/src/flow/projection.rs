//! The read-only projection of a run that `aw status` and `aw resume` show per session (§12):
//! the flow, the boundary kind, the transition, and the exact command that continues it.

use super::boundary::resolve;
use super::error::FlowError;
use super::journey::Journey;
use super::next_action::{adopt_command, advance_command, submit_command};
use super::state::RunState;
use crate::vocab::flow::{BoundaryKind, Flow};
use serde::Serialize;

/// One session's run, projected.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct RunProjection {
    /// The flow (`?` when the state cannot be read).
    pub flow: String,
    /// The boundary kind (`blocked` when the state cannot be used).
    pub boundary: String,
    /// The transition the run stands on.
    pub transition: Option<String>,
    /// Its title.
    pub title: Option<String>,
    /// The command line to run at an execution boundary.
    pub invocation: Option<String>,
    /// The exact next command.
    pub command: String,
    /// One line saying where the run stands.
    pub summary: String,
}

fn blocked(command: String, summary: String) -> RunProjection {
    RunProjection {
        flow: "?".to_owned(),
        boundary: BoundaryKind::Blocked.as_str().to_owned(),
        transition: None,
        title: None,
        invocation: None,
        command,
        summary,
    }
}

/// Projects what reading a session's state gave: `Ok(None)` (no state) projects to `None`. An
/// unreadable state points at adopting the session again, with `flow_hint` (the flow its text
/// names, see [`super::state_parse::flow_named_in`]) filled in when known.
pub fn project(
    read: Result<Option<RunState>, FlowError>,
    folder: &str,
    flow_hint: Option<Flow>,
) -> Option<RunProjection> {
    let state = match read {
        Ok(None) => return None,
        Ok(Some(s)) => s,
        Err(e) => {
            return Some(blocked(
                adopt_command(folder, flow_hint),
                format!("unreadable run ({}): {}", e.code, e.action),
            ));
        }
    };
    let journey = match Journey::builtin(state.flow) {
        Ok(j) => j,
        Err(e) => {
            return Some(blocked(
                advance_command(folder),
                format!("{} — {}", e.message, e.action),
            ));
        }
    };
    if let Err(e) = journey.check(&state) {
        let mut p = blocked(
            advance_command(folder),
            format!("{} — {}", e.message, e.action),
        );
        p.flow = state.flow.as_str().to_owned();
        return Some(p);
    }
    let resolved = resolve(&state, &journey);
    let Some(row) = resolved.stopped else {
        return Some(RunProjection {
            flow: state.flow.as_str().to_owned(),
            boundary: BoundaryKind::Final.as_str().to_owned(),
            transition: None,
            title: None,
            invocation: None,
            command: format!("aw session-close --code {folder}"),
            summary: "the journey has no pending transitions".to_owned(),
        });
    };
    let invocation = match resolved.kind {
        BoundaryKind::Execution => resolved
            .emitted
            .as_ref()
            .map(|a| a.invocation.command_line()),
        _ => None,
    };
    let kind = resolved.kind.as_str();
    // aw runs an internal step itself: the way on is `aw flow advance`.
    let internal = resolved.emitted.as_ref().is_some_and(|a| {
        matches!(
            a.execution,
            Some(super::registry::Execution::Internal { .. })
        )
    });
    let summary = match &invocation {
        Some(_) if internal => format!(
            "{kind} boundary at {} — aw runs it itself: `{}`",
            row.id,
            advance_command(folder)
        ),
        Some(inv) => format!(
            "{kind} boundary at {} — run `{inv}` and report its real output with `{}`",
            row.id,
            submit_command(folder)
        ),
        None => format!("{kind} boundary at {} — {}", row.id, row.title),
    };
    Some(RunProjection {
        flow: state.flow.as_str().to_owned(),
        boundary: kind.to_owned(),
        transition: Some(row.id.to_string()),
        title: Some(row.title.to_string()),
        command: invocation
            .clone()
            .filter(|_| !internal)
            .unwrap_or_else(|| advance_command(folder)),
        invocation,
        summary,
    })
}

impl RunProjection {
    /// Whether the run is stopped at a boundary that is not final (so resuming the session means
    /// continuing the run).
    pub fn stopped(&self) -> bool {
        self.boundary != BoundaryKind::Final.as_str()
    }
}
