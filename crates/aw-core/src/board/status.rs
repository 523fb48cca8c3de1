//! The `aw status` model (§10.1): specs, plans, sessions, discarded items, the pipeline of what
//! is left, and the counts, built from documents already read and parsed.
//!
//! The keys are the reference's. Two additions: each plan carries its `batches` (null when the
//! plan has no batches section), and dates come from the document's own declared date when it
//! has one, else from the file's modification time.

use super::board_input::{BoardInput, PlanInput, SessionInput};
use super::discarded::{DiscardedEntry, discarded};
use super::flow_view::FlowStop;
use super::lineage::{PlanLineage, SealedSpec, plan_lineage};
use super::pipeline::{PipelineItem, is_loose, pipeline};
use super::relative_time::relative;
use super::retirements::{PendingRetirement, TerminalEvent};
use super::session_view::CheckpointView;
use crate::calendar::{Moment, WallClock};
use crate::documents::baseline::Seal;
use crate::documents::batches::Batches;
use crate::documents::names::{drop_superseded_refined, inventory_order};
use crate::documents::phases::PhaseState;
use crate::documents::plan::{Declaration, PlanState};
use crate::documents::relation::{self, SpecRelation};
use crate::documents::spec::Maturity;
use crate::isolation::units::{Orphan, UnitRef};
use crate::session::folder::SessionState;
use crate::session::narrative::Phase;
use crate::vocab::correlative::Correlative;
use serde::Serialize;
use std::cell::Cell;

/// The workspace as the board names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct WorkspaceEntry {
    /// The project block's description, else the folder's name.
    pub name: String,
    /// The absolute workspace root.
    pub path: String,
    /// Whether `.<ns>/` exists.
    pub initialized: bool,
}

/// One spec on the board.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct SpecEntry {
    /// Workspace-relative path.
    pub file: String,
    /// The number as written.
    pub number: String,
    /// The slug (empty when the name has none).
    pub slug: String,
    /// Maturity.
    pub status: Maturity,
    /// `status == ready-for-plan`.
    pub refined: bool,
    /// Open questions.
    pub open_questions: usize,
    /// `YYYY-MM-DD`.
    pub date: Option<String>,
    /// How long ago, in English.
    pub relative: Option<String>,
    /// Some plan resolved to this spec.
    #[serde(skip)]
    pub planned: bool,
    /// The number's value (ordering).
    #[serde(skip)]
    pub correlative: Correlative,
}

/// A blocked phase.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct BlockedPhase {
    /// `n` of `F<n>`.
    pub number: u64,
    /// The phase name.
    pub name: String,
    /// The declared reason.
    pub blocker: Option<String>,
}

/// One plan on the board.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct PlanEntry {
    /// Workspace-relative path.
    pub file: String,
    /// The number as written.
    pub number: String,
    /// The slug.
    pub slug: String,
    /// Checkbox lines.
    pub tasks_total: usize,
    /// Checked ones.
    pub tasks_done: usize,
    /// `round(100 · done / total)`.
    pub progress_pct: u32,
    /// Phases that count.
    pub phases_total: usize,
    /// Validated phases.
    pub phases_validated: usize,
    /// open | done | inconsistent.
    pub plan_state: PlanState,
    /// Blocked phases.
    pub phases_blocked: usize,
    /// Which phases are blocked, and why.
    pub blocked_phases: Vec<BlockedPhase>,
    /// Everything executed; the final validation and the closure are left.
    pub final_validation_pending: bool,
    /// The spec the plan derives from.
    pub spec: SpecRelation,
    /// How its `> Baseline:` seal stands against the workspace's spec.
    pub baseline: super::lineage::BaselineEntry,
    /// What it still owes before it can close (aligned plans only).
    pub reconciliation: Option<crate::documents::contract::Reconciliation>,
    /// The effective contract its spec's decision notes compose (aligned plans only).
    pub contract: Option<crate::documents::contract::Contract>,
    /// The execution batches (null without the section).
    pub batches: Option<Batches>,
    /// `YYYY-MM-DD`.
    pub date: Option<String>,
    /// How long ago, in English.
    pub relative: Option<String>,
    /// The first phase not validated, with its state.
    #[serde(skip)]
    pub next_phase: Option<(u64, String, PhaseState)>,
    /// The plan-level closure note.
    #[serde(skip)]
    pub closure: Option<String>,
    /// The plan-level state declaration.
    #[serde(skip)]
    pub declaration: Declaration,
    /// The number's value (ordering).
    #[serde(skip)]
    pub correlative: Correlative,
    /// Its design references that do not resolve (missing, or a package that does not
    /// validate), with why: `aw resume` puts them first (the JSON carries them in `designs`).
    #[serde(skip)]
    pub design_missing: Vec<(String, String)>,
}

/// One session on the board.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct SessionEntry {
    /// The session's code.
    pub code: String,
    /// The folder name.
    pub folder: String,
    /// The type.
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// The one-line summary.
    pub summary: String,
    /// `abierta`, `reanudada` (open, with results recorded) or `cerrada`.
    pub phase: Phase,
    /// `YYYY-MM-DD`.
    pub date: Option<String>,
    /// How long ago, in English.
    pub relative: Option<String>,
    /// The flow engine's projection of the session's run (active sessions; null otherwise).
    pub flow: Option<crate::flow::projection::RunProjection>,
    /// The session's live isolation units (a closed session's are orphans: none here).
    pub units: Vec<UnitRef>,
    /// What resuming needs beyond the wire model.
    #[serde(skip)]
    pub detail: SessionDetail,
}

/// What `aw resume` and the human board need of a session beyond its wire entry.
#[derive(Debug, Clone, Default)]
pub struct SessionDetail {
    /// Workspace-relative folder path.
    pub path: String,
    /// Active or closed.
    pub active: bool,
    /// The folder's number, if any.
    pub number: Option<String>,
    /// The first line of `## Objective`.
    pub objective: Option<String>,
    /// The checkpoint, if any.
    pub checkpoint: Option<CheckpointView>,
    /// `## Origin` links a spec or plan.
    pub links_document: bool,
    /// Where a flow run stopped, if it did.
    pub flow_stop: Option<FlowStop>,
}

/// Active and closed sessions.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct SessionsEntry {
    /// Active, in folder byte order.
    pub active: Vec<SessionEntry>,
    /// Closed, in folder byte order.
    pub closed: Vec<SessionEntry>,
}

pub use crate::design::graph::{DesignCounts, Designs};

/// The board's counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Counts {
    /// Specs.
    pub specs: usize,
    /// Specs ready for a plan.
    pub specs_refined: usize,
    /// Plans.
    pub plans: usize,
    /// Active sessions.
    pub sessions_active: usize,
    /// Closed sessions.
    pub sessions_closed: usize,
    /// Discarded items.
    pub discarded: usize,
    /// Retirements recorded in HISTORY.
    pub terminal_events: usize,
    /// Pipeline items.
    pub pending: usize,
}

/// The whole board.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct StatusModel {
    /// The workspace.
    pub workspace: WorkspaceEntry,
    /// Specs, by number then path.
    pub specs: Vec<SpecEntry>,
    /// Plans, by number then path.
    pub plans: Vec<PlanEntry>,
    /// Sessions.
    pub sessions: SessionsEntry,
    /// Items sessions deferred or excluded.
    pub discarded: Vec<DiscardedEntry>,
    /// Retirements recorded in HISTORY's `## Retiros` table.
    pub terminal_events: Vec<TerminalEvent>,
    /// Retirements prepared and not yet applied.
    pub pending_retirements: Vec<PendingRetirement>,
    /// What is left, in priority order.
    pub pipeline: Vec<PipelineItem>,
    /// Active sessions with a checkpoint whose origin names no spec or plan, by folder.
    pub loose_sessions: Vec<String>,
    /// The design graph.
    pub designs: Designs,
    /// Isolation units nobody works in any more.
    pub orphan_units: Vec<Orphan>,
    /// Counts.
    pub counts: Counts,
}

/// The date and relative date of whichever moment is known: the declared one first.
pub fn dated(
    declared: Option<Moment>,
    modified: Option<Moment>,
    now: &WallClock,
) -> (Option<String>, Option<String>) {
    match declared.or(modified) {
        Some(m) => (Some(m.date()), Some(relative(&m, now))),
        None => (None, None),
    }
}

/// Builds the board. `now` is the local wall clock.
pub fn build(input: BoardInput, now: &WallClock) -> StatusModel {
    let designs = {
        let docs: Vec<(&str, &[crate::documents::design_refs::Reference])> = input
            .specs
            .iter()
            .map(|s| (s.file.as_str(), s.facts.design_refs.as_slice()))
            .chain(
                input
                    .plans
                    .iter()
                    .map(|p| (p.file.as_str(), p.facts.design_refs.as_slice())),
            )
            .collect();
        crate::design::graph::graph(&input.designs, &docs)
    };
    let mut specs = input.specs;
    drop_superseded_refined(&mut specs, |s| {
        let file_name = s.file.rsplit('/').next().unwrap_or(&s.file);
        (file_name, &s.name.correlative)
    });
    sort_inventory(&mut specs, |s| (&s.name.correlative, &s.file));
    let mut plans = input.plans;
    sort_inventory(&mut plans, |p| (&p.name.correlative, &p.file));

    // The first spec (in inventory order) with a number answers for it. The specs are sorted
    // by number, so it is found by bisection (no hashing of a thousand numbers).
    let first_of = |n: &Correlative| {
        let i = specs.partition_point(|s| s.name.correlative < *n);
        specs.get(i).filter(|s| s.name.correlative == *n).map(|_| i)
    };
    // Whether a plan resolved to the spec answering for each number, by that spec's index.
    let mut planned = vec![false; specs.len()];
    let mut plan_entries: Vec<PlanEntry> = plans
        .into_iter()
        .map(|p| {
            let hit = Cell::new(None);
            let rel = relation::resolve(&p.facts.clues, |n| {
                let i = first_of(n)?;
                hit.set(Some(i));
                let s = &specs[i];
                Some((s.name.number.as_str(), s.file.as_str()))
            });
            // The spec it resolved to: the one looked up last when that is it (one lookup, as
            // `resolve` makes today), else found again from its number.
            if let SpecRelation::Resolved { number, file, .. } = &rel {
                let i = hit
                    .get()
                    .filter(|&i| specs[i].file == *file)
                    .or_else(|| Correlative::from_digits(number).and_then(|n| first_of(&n)));
                if let Some(i) = i {
                    planned[i] = true;
                }
            }
            // The seal is judged against the workspace's spec with the sealed number, written
            // the same way, read from its own file (the sealed path is only a hint).
            let sealed_spec = match &p.facts.seal {
                Seal::Sealed { number, .. } => Correlative::from_digits(number)
                    .and_then(|n| first_of(&n))
                    .and_then(|first| {
                        specs[first..]
                            .iter()
                            .take_while(|s| s.name.correlative == specs[first].name.correlative)
                            .position(|s| s.name.number == *number)
                            .map(|k| first + k)
                    })
                    .and_then(|i| {
                        let s = &specs[i];
                        // A spec read without its lineage (gone before the second read) is
                        // judged as not there.
                        let l = s.lineage.as_ref()?;
                        Some(SealedSpec {
                            file: &s.file,
                            number: &s.name.number,
                            slug: &s.name.slug,
                            digest: &l.digest,
                            criteria: &l.criteria,
                        })
                    }),
                _ => None,
            };
            let lineage = plan_lineage(&p.facts.seal, sealed_spec, &input.decisions);
            plan_entry(p, rel, lineage, now)
        })
        .collect();
    // A spec is planned when a plan resolved to the spec that answers for its number: the
    // first of its run of equal numbers.
    let mut first = 0;
    let is_planned: Vec<bool> = (0..specs.len())
        .map(|i| {
            if i > 0 && specs[i - 1].name.correlative != specs[i].name.correlative {
                first = i;
            }
            planned[first]
        })
        .collect();
    for r in designs.references.iter().filter(|r| r.state == "missing") {
        if let Some(p) = plan_entries.iter_mut().find(|p| p.file == r.from) {
            p.design_missing
                .push((r.text.clone(), r.detail.clone().unwrap_or_default()));
        }
    }
    let spec_entries: Vec<SpecEntry> = specs
        .into_iter()
        .zip(is_planned)
        .map(|(s, planned)| {
            let (date, rel) = dated(s.facts.declared, s.modified, now);
            SpecEntry {
                file: s.file,
                number: s.name.number,
                slug: s.name.slug,
                status: s.facts.status,
                refined: s.facts.status == Maturity::ReadyForPlan,
                open_questions: s.facts.open_questions,
                date,
                relative: rel,
                planned,
                correlative: s.name.correlative,
            }
        })
        .collect();

    let mut sessions = input.sessions;
    sessions.sort_by(|a, b| a.view.folder.as_bytes().cmp(b.view.folder.as_bytes()));
    let discarded = discarded(&sessions, now);
    let (active, closed): (Vec<SessionEntry>, Vec<SessionEntry>) = sessions
        .into_iter()
        .map(|s| {
            let units = input.units.of_session(&s.view.folder);
            session_entry(s, units, now)
        })
        .partition(|e| e.detail.active);

    let pipeline = pipeline(&spec_entries, &plan_entries);
    let loose_sessions: Vec<String> = active
        .iter()
        .filter(|s| is_loose(s))
        .map(|s| s.folder.clone())
        .collect();
    let counts = Counts {
        specs: spec_entries.len(),
        specs_refined: spec_entries.iter().filter(|s| s.refined).count(),
        plans: plan_entries.len(),
        sessions_active: active.len(),
        sessions_closed: closed.len(),
        discarded: discarded.len(),
        terminal_events: input.terminal_events.len(),
        pending: pipeline.len(),
    };
    StatusModel {
        workspace: input.workspace,
        specs: spec_entries,
        plans: plan_entries,
        sessions: SessionsEntry { active, closed },
        discarded,
        terminal_events: input.terminal_events,
        pending_retirements: input.pending_retirements,
        pipeline,
        loose_sessions,
        designs,
        orphan_units: input.units.orphans,
        counts,
    }
}

/// Sorts documents in inventory order. Listings usually arrive in that order already, and the
/// documents are large values: checking first spares moving them around.
fn sort_inventory<T>(docs: &mut [T], key: impl Fn(&T) -> (&Correlative, &String)) {
    let order = |a: &T, b: &T| {
        let (ka, kb) = (key(a), key(b));
        inventory_order((ka.0, ka.1), (kb.0, kb.1))
    };
    if !docs.is_sorted_by(|a, b| order(a, b).is_le()) {
        docs.sort_by(order);
    }
}

fn plan_entry(
    p: PlanInput,
    spec: SpecRelation,
    lineage: PlanLineage,
    now: &WallClock,
) -> PlanEntry {
    let f = p.facts;
    // A plan declared done is inconsistent while it still owes a reconciliation: its counters
    // agreeing is not its contract being met.
    let owes = lineage.reconciliation.as_ref().is_some_and(|r| !r.closable);
    let plan_state = match f.state() {
        PlanState::Done if owes => PlanState::Inconsistent,
        state => state,
    };
    let (date, relative) = dated(f.declared, p.modified, now);
    let counted = f.phases();
    let blocked_phases: Vec<BlockedPhase> = counted
        .iter()
        .filter(|ph| ph.state == PhaseState::Blocked)
        .map(|ph| BlockedPhase {
            number: ph.number,
            name: ph.name.clone(),
            blocker: ph.blocker.clone(),
        })
        .collect();
    PlanEntry {
        progress_pct: f.progress_pct(),
        phases_total: counted.len(),
        phases_validated: f.phases_validated(),
        plan_state,
        phases_blocked: blocked_phases.len(),
        final_validation_pending: f.final_validation_pending(),
        next_phase: f
            .next_phase()
            .map(|ph| (ph.number, ph.name.clone(), ph.state)),
        blocked_phases,
        tasks_total: f.tasks_total,
        tasks_done: f.tasks_done,
        spec,
        baseline: lineage.baseline,
        reconciliation: lineage.reconciliation,
        contract: lineage.contract,
        date,
        relative,
        file: p.file,
        number: p.name.number,
        slug: p.name.slug,
        correlative: p.name.correlative,
        batches: f.batches,
        closure: f.header.closure,
        declaration: f.header.declaration,
        design_missing: Vec::new(),
    }
}

/// One session's board entry. The flow projection shows only on active sessions.
pub fn session_entry(s: SessionInput, units: Vec<UnitRef>, now: &WallClock) -> SessionEntry {
    let v = s.view;
    let (date, relative) = dated(v.declared, s.modified, now);
    let active = v.state == SessionState::Active;
    let (flow, flow_stop) = match s.flow {
        Some(f) if active => (Some(f.model), f.stop),
        _ => (None, None),
    };
    let has_results = s
        .checkpoint
        .as_ref()
        .is_some_and(|c| c.facts.first_result.is_some());
    SessionEntry {
        code: v.code,
        folder: v.folder,
        kind: v.kind,
        summary: v.summary,
        phase: Phase::of(!active, has_results),
        date,
        relative,
        flow,
        units: if active { units } else { Vec::new() },
        detail: SessionDetail {
            path: s.path,
            active,
            number: v.number,
            objective: v.objective,
            checkpoint: s.checkpoint.map(|c| c.facts),
            links_document: v.links_document,
            flow_stop,
        },
    }
}
