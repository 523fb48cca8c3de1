//! What the board is built from: the documents and session files the shell read, already
//! parsed, with their file times. Any order; [`super::status::build`] sorts.

use super::flow_view::FlowProjection;
use super::session_view::{CheckpointView, SessionView};
use super::status::WorkspaceEntry;
use crate::calendar::Moment;
use crate::documents::names::DocName;
use crate::documents::plan::PlanFacts;
use crate::documents::spec::SpecFacts;

/// A spec read from disk.
#[derive(Debug, Clone)]
pub struct SpecInput {
    /// Workspace-relative path (`docs/specs/001-spec-x.md`).
    pub file: String,
    /// The parsed file name.
    pub name: DocName,
    /// The parsed document.
    pub facts: SpecFacts,
    /// The file's modification time.
    pub modified: Option<Moment>,
    /// Its digest and criteria, read only for a spec some plan seals (see
    /// [`super::lineage::sealed_numbers`]).
    pub lineage: Option<super::lineage::SpecLineage>,
}

/// A plan read from disk.
#[derive(Debug, Clone)]
pub struct PlanInput {
    /// Workspace-relative path.
    pub file: String,
    /// The parsed file name.
    pub name: DocName,
    /// The parsed document.
    pub facts: PlanFacts,
    /// The file's modification time.
    pub modified: Option<Moment>,
}

/// A session file the board read, with where it lives and when it changed.
#[derive(Debug, Clone)]
pub struct SourceDoc<T> {
    /// Workspace-relative path.
    pub path: String,
    /// What was read from it.
    pub facts: T,
    /// Its modification time.
    pub modified: Option<Moment>,
}

/// A session read from disk.
#[derive(Debug, Clone)]
pub struct SessionInput {
    /// Workspace-relative folder path.
    pub path: String,
    /// The descriptor's facts.
    pub view: SessionView,
    /// The descriptor's modification time (the folder's when it has none).
    pub modified: Option<Moment>,
    /// The checkpoint, when the folder has one.
    pub checkpoint: Option<SourceDoc<CheckpointView>>,
    /// The backlog's deferred items, when the folder has a backlog.
    pub backlog: Option<SourceDoc<Vec<String>>>,
    /// The flow engine's projection (active sessions only).
    pub flow: Option<FlowProjection>,
}

/// Everything the board is built from.
#[derive(Debug, Clone)]
pub struct BoardInput {
    /// The workspace.
    pub workspace: WorkspaceEntry,
    /// The specs, in any order.
    pub specs: Vec<SpecInput>,
    /// The plans, in any order.
    pub plans: Vec<PlanInput>,
    /// The sessions, in any order.
    pub sessions: Vec<SessionInput>,
    /// The design index (empty without `docs/designs/`).
    pub designs: crate::design::index::DesignIndex,
    /// The decision indexes of `docs/decisions/`.
    pub decisions: super::lineage::DecisionIndexes,
    /// The rows of HISTORY's `## Retiros` table.
    pub terminal_events: Vec<super::retirements::TerminalEvent>,
    /// The retirement journals of `.<ns>/.retirement/`.
    pub pending_retirements: Vec<super::retirements::PendingRetirement>,
    /// The workspace's isolation units (live and orphaned).
    pub units: crate::isolation::units::Inventory,
}
