//! The slot where the flow engine's read-only projection of a session's run plugs into the
//! board.
//!
//! The board does not read `.flow-run.json` itself: the flow engine owns that file and its
//! meaning. It hands the board one [`FlowProjection`] per active session (or none), and the board
//! shows `model` as the session's `flow` and, when the run is stopped at a boundary that is not
//! final, lets `stop` decide what `aw resume` proposes for that session.

use serde_json::Value;

/// A session's flow run, as the flow engine projects it.
#[derive(Debug, Clone, PartialEq)]
pub struct FlowProjection {
    /// The JSON shown as the session's `flow` in `aw status` (the reference's
    /// `{flow, boundary, transition, title, invocation, command, summary}`).
    pub model: Value,
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
