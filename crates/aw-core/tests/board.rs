//! The status board and resume proposals, built from document texts without touching a disk:
//! pipeline priorities and ties, the spec → plan link, the flow slot, dates.

use aw_core::board::board_input::{BoardInput, PlanInput, SessionInput, SourceDoc, SpecInput};
use aw_core::board::flow_view::{FlowProjection, FlowStop};
use aw_core::board::resume::{self, Answer};
use aw_core::board::session_view::{checkpoint_view, session_view};
use aw_core::board::status::{StatusModel, WorkspaceEntry, build};
use aw_core::calendar::{Moment, WallClock};
use aw_core::documents::names::{DocKind, parse_name};
use aw_core::documents::plan::parse_plan;
use aw_core::documents::spec::parse_spec;
use aw_core::flow::projection::RunProjection;
use aw_core::session::folder::{SessionFolder, SessionState};

fn now() -> WallClock {
    WallClock::parse("2026-03-10 09:15").unwrap()
}

fn modified() -> Option<Moment> {
    Some(Moment::precise(
        WallClock::parse("2026-03-09 18:30").unwrap(),
    ))
}

fn spec(file: &str, text: &str) -> SpecInput {
    SpecInput {
        file: format!("docs/specs/{file}"),
        name: parse_name(DocKind::Spec, file).unwrap(),
        facts: parse_spec(text),
        modified: modified(),
        lineage: Some(aw_core::board::lineage::spec_lineage(text)),
    }
}

fn plan(file: &str, text: &str) -> PlanInput {
    PlanInput {
        file: format!("docs/plans/{file}"),
        name: parse_name(DocKind::Plan, file).unwrap(),
        facts: parse_plan(text),
        modified: modified(),
    }
}

fn session(folder: &str, closed: bool, descriptor: &str, checkpoint: Option<&str>) -> SessionInput {
    let f = SessionFolder {
        folder: folder.to_owned(),
        state: if closed {
            SessionState::Closed
        } else {
            SessionState::Active
        },
    };
    let path = format!(".workflow/sessions/{folder}");
    SessionInput {
        view: session_view(&f, Some(descriptor)),
        modified: modified(),
        checkpoint: checkpoint.map(|c| SourceDoc {
            path: format!("{path}/CHECKPOINT.md"),
            facts: checkpoint_view(c),
            modified: modified(),
        }),
        backlog: None,
        flow: None,
        path,
    }
}

fn board(specs: Vec<SpecInput>, plans: Vec<PlanInput>, sessions: Vec<SessionInput>) -> StatusModel {
    build(
        BoardInput {
            workspace: WorkspaceEntry {
                name: "t".into(),
                path: "/ws".into(),
                initialized: true,
            },
            specs,
            plans,
            sessions,
            designs: Default::default(),
            decisions: Default::default(),
            terminal_events: Vec::new(),
            pending_retirements: Vec::new(),
            units: Default::default(),
        },
        &now(),
    )
}

const READY: &str = "---\nstatus: ready-for-plan\n---\n# Spec\n";
const DRAFT: &str = "---\nstatus: draft\n---\n# Spec\n";

fn open_plan(spec: Option<&str>, started: bool) -> String {
    let derived = spec
        .map(|s| format!("> Derived from docs/specs/{s}\n"))
        .unwrap_or_default();
    let mark = if started { "x" } else { " " };
    format!(
        "# Plan\n{derived}> State: open\n## Tasks\n### F1 — a\n> State: pending\n- [{mark}] T1\n- [ ] T2\n"
    )
}

fn kinds(m: &StatusModel) -> Vec<(&str, &str)> {
    m.pipeline
        .iter()
        .map(|i| (i.kind, i.number.as_str()))
        .collect()
}

#[test]
fn pipeline_priorities_and_order() {
    let m = board(
        vec![
            spec("1000-spec-wide.md", DRAFT),
            spec("999-spec-narrow.md", DRAFT),
            spec("002-spec-ready.md", READY),
            spec("003-spec-planned.md", READY),
        ],
        vec![
            plan("010-plan-fresh.md", &open_plan(None, false)),
            plan(
                "011-plan-started.md",
                &open_plan(Some("003-spec-planned.md"), true),
            ),
            plan("012-plan-done.md", "# P\n> State: done\n- [x] a\n"),
        ],
        vec![
            session(
                "001-loose-quick",
                false,
                "## Origin\n- a chat\n",
                Some("## Completed\n- x\n"),
            ),
            session(
                "002-linked-quick",
                false,
                "## Origin\n- docs/plans/010-plan-fresh.md\n",
                Some("## Completed\n- x\n"),
            ),
            session(
                "003-no-checkpoint-quick",
                false,
                "## Origin\n- a chat\n",
                None,
            ),
            session(
                "004-closed-quick",
                true,
                "## Origin\n- a chat\n",
                Some("## Completed\n- x\n"),
            ),
        ],
    );
    assert_eq!(
        kinds(&m),
        [
            ("spec-unrefined", "999"),
            ("spec-unrefined", "1000"),
            ("spec-unplanned", "002"),
            ("plan-open", "011"),
            ("plan-open", "010"),
        ],
        "priority, then started first, then numeric order"
    );
    assert_eq!(m.pipeline[3].started, Some(true));
    assert_eq!(m.pipeline[0].started, None, "specs carry no started flag");
    // The loose session is listed apart, not counted as pending (v22).
    assert_eq!(m.counts.pending, 5);
    assert_eq!(m.loose_sessions, ["001-loose-quick"]);
    assert_eq!(m.counts.specs_refined, 2);
    let planned: Vec<bool> = m.specs.iter().map(|s| s.planned).collect();
    assert_eq!(planned, [false, true, false, false]);
}

#[test]
fn ambiguous_and_unknown_relations_never_plan_a_spec() {
    let m = board(
        vec![spec("001-spec-a.md", READY), spec("002-spec-b.md", READY)],
        vec![
            plan(
                "001-plan-x.md",
                "# P\n## Origin\n- docs/specs/001-spec-a.md\n- docs/specs/002-spec-b.md\n",
            ),
            plan(
                "002-plan-y.md",
                "# P\n## Origin\n- docs/specs/003-spec-gone.md\n",
            ),
        ],
        vec![],
    );
    assert!(m.specs.iter().all(|s| !s.planned));
    assert_eq!(
        kinds(&m)[..2],
        [("spec-unplanned", "001"), ("spec-unplanned", "002")]
    );
}

#[test]
fn superseded_refined_copies_are_dropped() {
    let m = board(
        vec![
            spec("001-spec-a-refined.md", READY),
            spec("001-spec-a.md", DRAFT),
            spec("002-spec-b-refined.md", READY),
        ],
        vec![],
        vec![],
    );
    let files: Vec<&str> = m.specs.iter().map(|s| s.file.as_str()).collect();
    assert_eq!(
        files,
        [
            "docs/specs/001-spec-a.md",
            "docs/specs/002-spec-b-refined.md"
        ]
    );
}

#[test]
fn resume_ties_on_priority_and_started() {
    let two_started = board(
        vec![],
        vec![
            plan("001-plan-a.md", &open_plan(None, true)),
            plan("002-plan-b.md", &open_plan(None, true)),
            plan("003-plan-c.md", &open_plan(None, false)),
        ],
        vec![],
    );
    match resume::from_pipeline(&two_started) {
        Answer::Candidates { candidates, .. } => {
            let files: Vec<&str> = candidates.iter().map(|c| c.file.as_str()).collect();
            // Two tie at the head; every pending item is a candidate (v22).
            assert_eq!(
                files,
                [
                    "docs/plans/001-plan-a.md",
                    "docs/plans/002-plan-b.md",
                    "docs/plans/003-plan-c.md"
                ]
            );
        }
        other => panic!("{other:?}"),
    }
    let one_started = board(
        vec![],
        vec![
            plan("001-plan-a.md", &open_plan(None, false)),
            plan("002-plan-b.md", &open_plan(None, true)),
        ],
        vec![],
    );
    match resume::from_pipeline(&one_started) {
        Answer::Proposal { via, proposal, .. } => {
            assert_eq!(via, "pipeline");
            assert_eq!(proposal.number, "002");
            // An unsealed plan owes its seal first (v22).
            assert!(proposal.next.starts_with("NO BASELINE SEAL — "));
            assert_eq!(proposal.progress, "1/2 tasks (50%) · phases 0/1");
        }
        other => panic!("{other:?}"),
    }
    let idle = board(vec![], vec![], vec![]);
    assert!(matches!(resume::from_pipeline(&idle), Answer::Idle { .. }));
}

/// A run's projection with only what the board reads filled in.
fn projection(flow: &str, boundary: &str, summary: &str) -> RunProjection {
    RunProjection {
        flow: flow.into(),
        boundary: boundary.into(),
        transition: None,
        title: None,
        invocation: None,
        command: "aw flow advance --session 001-x-plan-exec".into(),
        summary: summary.into(),
    }
}

#[test]
fn the_flow_slot_feeds_status_and_resume() {
    let mut active = session(
        "001-x-plan-exec",
        false,
        "## Objective\nShip x\n",
        Some("## Pending / Next\n- y\n"),
    );
    active.flow = Some(FlowProjection {
        model: projection("plan-exec", "decision", "boundary decision at entry"),
        stop: Some(FlowStop {
            next: "answer the entry gate".into(),
            command: "aw flow advance --session 001-x-plan-exec".into(),
        }),
    });
    let mut closed = session("002-y-quick", true, "## Objective\nOld\n", None);
    closed.flow = Some(FlowProjection {
        model: projection("quick", "final", "the journey has no pending transitions"),
        stop: None,
    });
    let m = board(vec![], vec![], vec![active, closed]);
    assert_eq!(
        m.sessions.active[0].flow.as_ref().unwrap().flow,
        "plan-exec"
    );
    assert_eq!(
        m.sessions.closed[0].flow, None,
        "closed sessions show no flow"
    );
    let p = resume::session_proposal(&m.sessions.active[0]);
    assert_eq!(p.next, "answer the entry gate");
    assert_eq!(p.command, "aw flow advance --session 001-x-plan-exec");
    assert_eq!(p.objective, "Ship x");
    let json = serde_json::to_value(&m.sessions.active[0]).unwrap();
    let keys: Vec<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "code", "folder", "type", "summary", "phase", "date", "relative", "flow", "units"
        ]
    );
}

#[test]
fn declared_dates_win_over_file_times() {
    let m = board(
        vec![
            spec(
                "001-spec-a.md",
                "---\nstatus: draft\ndate: 2026-03-01\n---\n",
            ),
            spec("002-spec-b.md", DRAFT),
        ],
        vec![],
        vec![session(
            "001-a-quick",
            false,
            "Start date: 2026-03-10\n",
            None,
        )],
    );
    assert_eq!(m.specs[0].date.as_deref(), Some("2026-03-01"));
    assert_eq!(m.specs[0].relative.as_deref(), Some("last week"));
    assert_eq!(m.specs[1].date.as_deref(), Some("2026-03-09"));
    assert_eq!(m.specs[1].relative.as_deref(), Some("yesterday afternoon"));
    assert_eq!(m.sessions.active[0].relative.as_deref(), Some("today"));
}

#[test]
fn model_keys_are_the_reference_ones() {
    let m = board(
        vec![spec("001-spec-a.md", READY)],
        vec![plan(
            "001-plan-a.md",
            &open_plan(Some("001-spec-a.md"), true),
        )],
        vec![],
    );
    let v = serde_json::to_value(&m).unwrap();
    let keys =
        |v: &serde_json::Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    assert_eq!(
        keys(&v),
        [
            "workspace",
            "specs",
            "plans",
            "sessions",
            "discarded",
            "terminal_events",
            "pending_retirements",
            "pipeline",
            "loose_sessions",
            "designs",
            "orphan_units",
            "counts"
        ]
    );
    assert_eq!(
        keys(&v["specs"][0]),
        [
            "file",
            "number",
            "slug",
            "status",
            "refined",
            "open_questions",
            "date",
            "relative"
        ]
    );
    assert_eq!(
        keys(&v["plans"][0]),
        [
            "file",
            "number",
            "slug",
            "tasks_total",
            "tasks_done",
            "progress_pct",
            "phases_total",
            "phases_validated",
            "plan_state",
            "phases_blocked",
            "blocked_phases",
            "final_validation_pending",
            "spec",
            "baseline",
            "reconciliation",
            "contract",
            "batches",
            "date",
            "relative"
        ]
    );
    assert_eq!(
        keys(&v["pipeline"][0]),
        [
            "kind", "priority", "file", "number", "slug", "summary", "command", "detail", "started"
        ]
    );
    assert_eq!(
        keys(&v["counts"]),
        [
            "specs",
            "specs_refined",
            "plans",
            "sessions_active",
            "sessions_closed",
            "discarded",
            "terminal_events",
            "pending"
        ]
    );
    assert_eq!(
        v["designs"],
        serde_json::json!({"root":"docs/designs","packages":[],"references":[],
            "counts":{"valid":0,"stale":0,"missing":0,"orphaned":0}})
    );
}

#[test]
fn discarded_items_name_the_session_folder() {
    // §10.5 as the reference gives it: `source` is the session's code and `source_path` its
    // folder, workspace-relative, whichever of BACKLOG or CHECKPOINT lists the item.
    let mut s = session(
        "026-address-timezone-quick",
        true,
        "## Origin\n- a chat\n",
        Some("## Excluded\n- dark mode\n"),
    );
    s.backlog = Some(SourceDoc {
        path: ".workflow/sessions/026-address-timezone-quick/BACKLOG.md".into(),
        facts: vec!["retries".into()],
        modified: modified(),
    });
    let m = board(vec![], vec![], vec![s]);
    let got: Vec<(&str, &str, &str)> = m
        .discarded
        .iter()
        .map(|d| (d.kind, d.source.as_str(), d.source_path.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (
                "deferred",
                "026-address-timezone-quick",
                ".workflow/sessions/026-address-timezone-quick"
            ),
            (
                "excluded",
                "026-address-timezone-quick",
                ".workflow/sessions/026-address-timezone-quick"
            ),
        ]
    );
}

#[test]
fn loose_sessions_are_listed_by_folder_not_as_pipeline_items() {
    let loose = |folder: &str| {
        let mut s = session(
            folder,
            false,
            "## Origin\n- a chat\n",
            Some("## Completed\n- x\n"),
        );
        s.path = format!(".workflow/sessions/{folder}");
        s
    };
    let linked = session(
        "027-linked-quick",
        false,
        "## Origin\n- docs/plans/001-plan-a.md\n",
        Some("## Completed\n- x\n"),
    );
    let closed = session(
        "028-closed-quick",
        true,
        "## Origin\n- a chat\n",
        Some("## Completed\n- x\n"),
    );
    let fresh = session("029-fresh-quick", false, "## Origin\n- a chat\n", None);
    let m = board(
        vec![],
        vec![],
        vec![
            loose("026-address-timezone-quick"),
            loose("session007-dev-old"),
            linked,
            closed,
            fresh,
        ],
    );
    assert!(m.pipeline.is_empty());
    assert_eq!(m.counts.pending, 0);
    assert_eq!(
        m.loose_sessions,
        ["026-address-timezone-quick", "session007-dev-old"]
    );
    // With results recorded an open session is `reanudada`; without a checkpoint, `abierta`.
    let phase = |folder: &str| {
        m.sessions
            .active
            .iter()
            .chain(&m.sessions.closed)
            .find(|s| s.folder == folder)
            .map(|s| s.phase.as_str())
    };
    assert_eq!(phase("026-address-timezone-quick"), Some("reanudada"));
    assert_eq!(phase("028-closed-quick"), Some("cerrada"));
    assert_eq!(phase("029-fresh-quick"), Some("abierta"));
    assert!(matches!(resume::from_pipeline(&m), Answer::Idle { .. }));
}

#[test]
fn proposals_carry_the_pipeline_kind() {
    let m = board(
        vec![
            spec("001-spec-draft.md", DRAFT),
            spec("002-spec-ready.md", READY),
            spec("003-spec-planned.md", READY),
        ],
        vec![
            plan(
                "003-plan-open.md",
                &open_plan(Some("003-spec-planned.md"), false),
            ),
            plan("004-plan-done.md", "# P\n> State: done\n- [x] a\n"),
        ],
        vec![
            session(
                "005-loose-quick",
                false,
                "## Origin\n- a chat\n",
                Some("## Completed\n- x\n"),
            ),
            session("006-bare-quick", false, "## Origin\n- a chat\n", None),
            session(
                "007-closed-quick",
                true,
                "## Origin\n- a chat\n",
                Some("## Completed\n- x\n"),
            ),
        ],
    );
    let kind = |target: &str| match resume::for_target(&m, target).unwrap() {
        Answer::Proposal { proposal, .. } => proposal.kind,
        other => panic!("{other:?}"),
    };
    assert_eq!(kind("docs/specs/001-spec-draft.md"), "spec-unrefined");
    assert_eq!(kind("docs/specs/002-spec-ready.md"), "spec-unplanned");
    // Not in the pipeline, but a proposal for it is of the kind the pipeline would give it.
    assert_eq!(kind("docs/specs/003-spec-planned.md"), "spec-unplanned");
    assert_eq!(kind("docs/plans/003-plan-open.md"), "plan-open");
    assert_eq!(kind("docs/plans/004-plan-done.md"), "plan-open");
    let session_kind = |folder: &str| {
        let s = m
            .sessions
            .active
            .iter()
            .chain(&m.sessions.closed)
            .find(|s| s.folder == folder)
            .unwrap();
        let p = resume::session_proposal(s);
        assert_eq!((p.file.as_str(), p.number.as_str()), (folder, folder));
        p.kind
    };
    assert_eq!(session_kind("005-loose-quick"), "session");
    assert_eq!(session_kind("006-bare-quick"), "session");
    assert_eq!(session_kind("007-closed-quick"), "session");
}

#[test]
fn a_large_board_keeps_its_plans_in_order_and_plans_the_specs_they_name() {
    // The even specs have a plan, listed in reverse: the plans come out in inventory order, each
    // resolved to the spec it names, and exactly those specs are planned.
    let specs = (1..=200)
        .map(|n| spec(&format!("{n:03}-spec-s{n}.md"), READY))
        .collect();
    let plans: Vec<PlanInput> = (1..=200)
        .filter(|n: &u32| n.is_multiple_of(2))
        .rev()
        .map(|n| {
            let named = format!("{n:03}-spec-s{n}.md");
            plan(
                &format!("{n:03}-plan-s{n}.md"),
                &open_plan(Some(&named), false),
            )
        })
        .collect();
    let m = board(specs, plans, Vec::new());
    let numbers: Vec<String> = m.plans.iter().map(|p| p.number.clone()).collect();
    let expected: Vec<String> = (1..=200)
        .filter(|n: &u32| n.is_multiple_of(2))
        .map(|n| format!("{n:03}"))
        .collect();
    assert_eq!(numbers, expected, "plans in inventory order");
    for p in &m.plans {
        assert_eq!(p.spec.resolved(), Some(p.number.as_str()), "{}", p.file);
    }
    for s in &m.specs {
        let n: u32 = s.number.parse().unwrap();
        assert_eq!(s.planned, n.is_multiple_of(2), "{}", s.file);
    }
    // A planned spec leaves the pipeline's ready-for-plan items; the odd ones stay.
    let ready: Vec<&str> = m
        .pipeline
        .iter()
        .filter(|i| i.kind == "spec-unplanned")
        .map(|i| i.number.as_str())
        .collect();
    assert_eq!(ready.len(), 100, "{ready:?}");
    assert!(
        ready
            .iter()
            .all(|n| !n.parse::<u32>().unwrap().is_multiple_of(2))
    );
}

/// Issue 20 (point 13): a spec whose plan is done was delivered; refining it is not what is
/// left, even when it never reached `ready-for-plan` (plan-new does not stop on a draft). The
/// walk passes over it; a proposal for it, asked by name, says its plan is done.
#[test]
fn resume_never_proposes_refining_a_spec_its_done_plan_delivered() {
    let done = "# Plan\n> Derived from docs/specs/001-spec-shipped.md\n> State: done\n\
                ## Tasks\n### F1 — a\n> State: validated\n- [x] T1\n";
    let m = board(
        vec![
            spec("001-spec-shipped.md", DRAFT),
            spec("002-spec-next.md", DRAFT),
        ],
        vec![plan("001-plan-shipped.md", done)],
        vec![],
    );
    // The board still lists it as the reference does; resume passes over it.
    assert_eq!(
        kinds(&m),
        [("spec-unrefined", "001"), ("spec-unrefined", "002")]
    );
    match resume::from_pipeline(&m) {
        Answer::Proposal { proposal, .. } => {
            assert_eq!(proposal.file, "docs/specs/002-spec-next.md");
            assert_eq!(
                proposal.command,
                "/w:spec-refine docs/specs/002-spec-next.md"
            );
        }
        other => panic!("{other:?}"),
    }
    match resume::for_target(&m, "docs/specs/001-spec-shipped.md").unwrap() {
        Answer::Proposal { proposal, .. } => {
            assert_eq!(proposal.kind, "spec-unrefined");
            assert!(
                proposal.next.starts_with(
                    "nothing is left: its plan docs/plans/001-plan-shipped.md is done"
                ),
                "{}",
                proposal.next
            );
        }
        other => panic!("{other:?}"),
    }
    // Alone, it leaves nothing to resume.
    let alone = board(
        vec![spec("001-spec-shipped.md", DRAFT)],
        vec![plan("001-plan-shipped.md", done)],
        vec![],
    );
    assert!(matches!(resume::from_pipeline(&alone), Answer::Idle { .. }));
    // An open plan delivers nothing yet: its draft spec is still proposed for refinement.
    let open = board(
        vec![spec("001-spec-shipped.md", DRAFT)],
        vec![plan(
            "001-plan-shipped.md",
            &open_plan(Some("001-spec-shipped.md"), false),
        )],
        vec![],
    );
    match resume::from_pipeline(&open) {
        Answer::Proposal { proposal, .. } => {
            assert_eq!(
                proposal.command,
                "/w:spec-refine docs/specs/001-spec-shipped.md"
            )
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_plan_says_first_what_it_owes_and_a_done_plan_that_nothing_is_left() {
    let spec_text = "---\nstatus: ready-for-plan\n---\n# Spec 001\n\n- S001/AC-01 works\n";
    let digest = aw_core::documents::baseline::spec_digest(spec_text);
    let sealed = |state: &str, f1: &str, t: &str| {
        format!(
            "# Plan\n> Derived from docs/specs/001-spec-a.md\n> State: {state}\n> Baseline: docs/specs/001-spec-a.md@{digest}\n## Tasks\n### F1 — build it\n> State: {f1}\n- [{t}] T1\n### F2 — ship it\n> State: pending\n- [ ] T2\n"
        )
    };
    let m = board(
        vec![spec("001-spec-a.md", spec_text)],
        vec![
            plan("001-plan-a.md", &sealed("open", "validated", "x")),
            plan("002-plan-a.md", &open_plan(Some("001-spec-a.md"), true)),
            plan(
                "003-plan-a.md",
                "# Plan\n> State: done\n## Tasks\n### F1 — a\n> State: validated\n- [x] T1\n",
            ),
        ],
        vec![],
    );
    let item = |n: &str| {
        m.pipeline
            .iter()
            .find(|i| i.number == n)
            .map(|i| i.detail.clone())
    };
    // Aligned, nothing owed: the next phase, by name.
    let d1 = item("001").unwrap();
    assert_eq!(
        (d1.next.as_str(), d1.obligation),
        ("continue with F2 — ship it", false)
    );
    assert!(m.plans[0].baseline.is_aligned());
    // No seal: an obligation, before the phase.
    let d2 = item("002").unwrap();
    assert!(
        d2.obligation && d2.next.starts_with("NO BASELINE SEAL — "),
        "{d2:?}"
    );
    // A done plan leaves the pipeline; named, nothing is left (v22 would say it is unsealed).
    assert_eq!(item("003"), None);
    let done = resume::plan_proposal(&m.plans[2]);
    assert_eq!(done.next, "nothing left: the plan is done");
}

#[test]
fn two_specs_with_one_number_are_both_listed() {
    let m = board(
        vec![spec("001-spec-a.md", DRAFT), spec("001-spec-b.md", READY)],
        vec![],
        vec![],
    );
    let files: Vec<&str> = m.specs.iter().map(|s| s.file.as_str()).collect();
    assert_eq!(
        files,
        ["docs/specs/001-spec-a.md", "docs/specs/001-spec-b.md"]
    );
    assert_eq!(m.counts.specs, 2);
}
