//! The slot where the flow engine's read-only projection of a session's run plugs into the
//! board.
//!
//! The board does not read `.flow-run.json` itself: the flow engine owns that file and its
//! meaning. It hands the board one [`FlowProjection`] per active session (or none), and the board
//! shows `model` as the session's `flow` and, when the run is stopped at a boundary that is not
//! final, lets `stop` decide what `aw resume` proposes for that session.

use crate::flow::projection::RunProjection;

/// A session's flow run, as the flow engine projects it.
#[derive(Debug, Clone, PartialEq)]
pub struct FlowProjection {
    /// The projection shown as the session's `flow` in `aw status` (the reference's
    /// `{flow, boundary, transition, title, invocation, command, summary}`).
    pub model: RunProjection,
    /// Set when the run is stopped at a boundary that is not final: what to do next there.
    pub stop: Option<FlowStop>,
}

/// What resuming a session stopped inside a flow means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlowStop {
    /// The next step, in a sentence.
    pub next: String,
    /// The exact command to run.
    pub command: String,
}

/// The board's view of a run: the projection as the session's `flow`, and, when the run is
/// stopped short of final, its summary and exact command as what `aw resume` proposes.
impl From<RunProjection> for FlowProjection {
    fn from(p: RunProjection) -> Self {
        let stop = p.stopped().then(|| FlowStop {
            next: p.summary.clone(),
            command: p.command.clone(),
        });
        FlowProjection { model: p, stop }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flow::projection::project;
    use crate::flow::state::RunState;

    #[test]
    fn the_board_gets_the_model_and_the_stop() {
        let p = project(
            Ok(Some(RunState::new(crate::flow::Flow::Quick, "001-x"))),
            "001-x",
            None,
        )
        .unwrap();
        // Never advanced: the run stands before its first row, which the CLI would apply.
        assert!(p.stopped());
        let board: FlowProjection = p.clone().into();
        assert_eq!(board.model.flow, "quick");
        let stop = board.stop.unwrap();
        assert_eq!(stop.command, p.command);
        assert_eq!(stop.next, p.summary);
    }
}
