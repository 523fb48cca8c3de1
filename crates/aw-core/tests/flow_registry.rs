//! The registry as data: its shape, its invariants, and the composed journeys (flow-authority,
//! flow-conditional-effects, flow-tramo-* registry checks, flow-cierre-legacy).

use aw_core::flow::gloss;
use aw_core::flow::registry::{Realization, Registry};
use aw_core::flow::{EffectClass, Flow, Journey};
use aw_core::vocab::flow::{Authority, CLI_OWNED, Placement};
use std::collections::{BTreeSet, HashSet};

fn reg() -> &'static Registry {
    Registry::get()
}

/// The composed journeys of the reference v22.4.2.
const JOURNEYS: &[(&str, &[&str])] = &[
    (
        "spec-refine",
        &[
            "chassis.docs-boundary",
            "chassis.research-exhaustion",
            "spec-refine.session",
            "spec-refine.escalation-adoption",
            "spec-refine.baseline-scope",
            "spec-refine.change-shape-gate",
            "spec-refine.split-signal",
            "spec-refine.split-gate",
            "spec-refine.split-choice",
            "spec-refine.gap-recognition",
            "spec-refine.gap-destination",
            "spec-refine.ideation-trigger",
            "spec-refine.ideation-consent",
            "spec-refine.content-authoring",
            "spec-refine.functional-ambiguity",
            "spec-refine.design-reuse",
            "spec-refine.design-publication",
            "spec-refine.ready-gate",
            "spec-refine.save-proposal",
            "spec-refine.save-confirmation",
            "spec-refine.publication",
            "chassis.finalize",
        ],
    ),
    (
        "plan-new",
        &[
            "chassis.docs-boundary",
            "chassis.research-exhaustion",
            "plan-new.spec-readiness",
            "plan-new.session",
            "plan-new.slug-derivation",
            "plan-new.numbering",
            "plan-new.phase-shaping",
            "plan-new.batch-eligibility-signal",
            "plan-new.batch-inference",
            "plan-new.batch-isolation",
            "plan-new.split-signal",
            "plan-new.split-gate",
            "plan-new.split-choice",
            "plan-new.coherence-gate",
            "plan-new.save-proposal",
            "plan-new.save-confirmation",
            "plan-new.publication",
            "plan-new.adoption",
            "chassis.finalize",
        ],
    ),
    (
        "plan-refine",
        &[
            "chassis.docs-boundary",
            "chassis.research-exhaustion",
            "plan-refine.session",
            "plan-refine.escalation-adoption",
            "plan-refine.journey-map",
            "plan-refine.preserve-validated",
            "plan-refine.batch-eligibility-signal",
            "plan-refine.batch-reinference",
            "plan-refine.batch-isolation",
            "plan-refine.split-signal",
            "plan-refine.executability-gate",
            "plan-refine.split-in-place",
            "plan-refine.save-proposal",
            "plan-refine.save-confirmation",
            "plan-refine.publication",
            "chassis.finalize",
        ],
    ),
    (
        "plan-exec",
        &[
            "chassis.docs-boundary",
            "chassis.research-exhaustion",
            "plan-exec.session",
            "plan-exec.entry-gate",
            "plan-exec.entry-gap-recognition",
            "plan-exec.entry-gap-severity",
            "plan-exec.normalization-consent",
            "plan-exec.batch-eligibility-signal",
            "plan-exec.batch-inference",
            "plan-exec.batch-isolation",
            "plan-exec.design-precondition",
            "plan-exec.source-scope",
            "plan-exec.unit-acquisition",
            "plan-exec.branch-precondition",
            "plan-exec.implementation",
            "plan-exec.deviation-recognition",
            "plan-exec.deviation-eligibility",
            "plan-exec.deviation-gate",
            "plan-exec.escalation-package",
            "plan-exec.pending-effects",
            "plan-exec.task-marking",
            "plan-exec.phase-state-transition",
            "plan-exec.validation-execution",
            "plan-exec.deferred-check",
            "plan-exec.review-findings",
            "plan-exec.final-validation",
            "plan-exec.commit-enablement",
            "plan-exec.commit-authorization",
            "plan-exec.commit-execution",
            "plan-exec.unit-integration",
            "plan-exec.plan-done",
            "chassis.finalize",
        ],
    ),
    (
        "quick",
        &[
            "chassis.docs-boundary",
            "chassis.research-exhaustion",
            "quick.entry-gate-signal",
            "quick.entry-size-gate",
            "quick.anti-duplicate",
            "quick.gate-choice",
            "quick.session-create",
            "quick.success-criteria-authoring",
            "quick.success-criteria-ratification",
            "quick.artifact-seed-order",
            "quick.branch-precondition",
            "quick.deliverable-authoring",
            "quick.db-touched",
            "quick.db-scripts-only",
            "quick.growth-escalation",
            "quick.escalation-destination",
            "quick.convergence-gate",
            "quick.review-precedence",
            "quick.review-findings",
            "quick.commit-authorization",
            "chassis.finalize",
        ],
    ),
];

#[test]
fn the_registry_parses_with_unique_ids() {
    let r = reg();
    assert_eq!(r.decisions.len(), 141);
    let ids: HashSet<_> = r.decisions.iter().map(|d| &d.id).collect();
    assert_eq!(ids.len(), r.decisions.len());
    assert!(
        Registry::parse(
            "{\"decisions\":[],\"docs_boundary\":{},\"command_exclusions\":[],\"extra\":1}"
        )
        .is_err()
    );
}

#[test]
fn journeys_compose_as_the_reference() {
    for (flow, expected) in JOURNEYS {
        let j = Journey::builtin(Flow::parse(flow).unwrap()).unwrap();
        let ids: Vec<&str> = j.rows.iter().map(|d| &*d.id).collect();
        assert_eq!(&ids, expected, "{flow}");
        let own = reg().of_scope(flow).count();
        assert_eq!(ids.len(), own + 3);
        let unique: HashSet<_> = ids.iter().collect();
        assert_eq!(unique.len(), ids.len());
        assert_eq!(
            ids[..2],
            ["chassis.docs-boundary", "chassis.research-exhaustion"]
        );
        assert_eq!(*ids.last().unwrap(), "chassis.finalize");
    }
    let sizes: Vec<usize> = [
        "quick",
        "spec-refine",
        "plan-new",
        "plan-refine",
        "plan-exec",
    ]
    .iter()
    .map(|f| {
        Journey::builtin(Flow::parse(f).unwrap())
            .unwrap()
            .rows
            .len()
    })
    .collect();
    assert_eq!(sizes, [21, 22, 19, 16, 32]);
}

#[test]
fn every_row_is_well_formed() {
    let r = reg();
    let flows: Vec<&str> = Flow::ALL.iter().map(|f| f.as_str()).collect();
    for d in r.decisions.iter() {
        assert_eq!(d.ownership, CLI_OWNED, "{}", d.id);
        assert!(
            d.title.chars().count() > 10 && !d.title.contains('\n'),
            "{}",
            d.id
        );
        assert!(
            d.scope == "chassis" || flows.contains(&&*d.scope) || d.scope.starts_with("cmd:"),
            "{}",
            d.id
        );
        assert!(
            d.id.starts_with(&format!("{}.", d.scope.trim_start_matches("cmd:")))
                || d.scope.starts_with("cmd:")
        );
        if d.authority != Authority::Cli {
            assert!(d.action.is_none(), "only cli rows delegate: {}", d.id);
        }
        if d.authority != Authority::Agent {
            assert!(
                d.signals().is_empty(),
                "only agent rows declare signals: {}",
                d.id
            );
        }
        if let Some(a) = &d.action {
            assert!(
                !a.invocation.program.trim().is_empty() && !a.invocation.target.trim().is_empty()
            );
            assert!(!a.evidence.is_empty() && a.evidence.iter().all(|e| !e.trim().is_empty()));
            assert!(a.recovery.chars().count() > 10, "{}", d.id);
            assert_eq!(a.invocation.program, "aw");
            assert_eq!(a.invocation.input, None);
            assert_eq!(
                a.idempotent,
                d.id != "plan-exec.commit-execution",
                "{}",
                d.id
            );
        }
        if let Some(c) = &d.condition {
            assert!(c.otherwise.chars().count() > 10, "{}", d.id);
            let observed = r
                .decision(&c.threshold.observed)
                .expect("observed row exists");
            assert_eq!(observed.authority, Authority::Agent);
            assert_eq!(observed.scope, d.scope);
            let vocab = observed.signals();
            let size = match &c.threshold.of {
                Some(of) => {
                    assert!(
                        !of.is_empty() && of.iter().all(|s| vocab.contains(s)),
                        "{}",
                        d.id
                    );
                    of.len()
                }
                None => vocab.len(),
            };
            assert!(c.threshold.min >= 1 && c.threshold.min <= size, "{}", d.id);
        }
        if let Some(alts) = &d.alternatives {
            assert!(alts.len() >= 2 && alts.iter().filter(|a| a.recommended).count() == 1);
            assert!(alts[0].recommended);
        }
    }
    let non_cli: Vec<&str> = r
        .decisions
        .iter()
        .filter(|d| d.authority != Authority::Cli)
        .map(|d| &*d.id)
        .collect();
    assert_eq!(non_cli.len(), 56);
    assert_eq!(
        non_cli[..3],
        [
            "chassis.gap-detection",
            "chassis.minimality-lens",
            "chassis.flow-control"
        ]
    );
    for f in Flow::ALL {
        assert!(r.of_scope(f.as_str()).count() > 0);
    }
}

#[test]
fn chassis_rows_are_placed_or_realized() {
    let r = reg();
    let chassis: Vec<_> = r.of_scope("chassis").collect();
    let placed: Vec<&str> = chassis
        .iter()
        .filter(|d| d.placement.is_some())
        .map(|d| &*d.id)
        .collect();
    assert_eq!(
        placed,
        [
            "chassis.docs-boundary",
            "chassis.research-exhaustion",
            "chassis.finalize"
        ]
    );
    assert_eq!(
        chassis.iter().filter(|d| d.realized_by.is_some()).count(),
        11
    );
    for d in &chassis {
        assert!(d.placement.is_some() != d.realized_by.is_some(), "{}", d.id);
        if let Some(Realization::Transitions { ids }) = &d.realized_by {
            assert!(!ids.is_empty());
            for id in ids.iter() {
                assert_eq!(
                    r.decision(id).expect("realizing row exists").ownership,
                    CLI_OWNED
                );
            }
        }
    }
    assert_eq!(
        r.decision("chassis.finalize").unwrap().placement,
        Some(Placement::Suffix)
    );
}

#[test]
fn docs_boundary_and_exclusions() {
    let r = reg();
    let docs = |f: &str| r.docs_of(f).to_vec();
    assert!(docs("quick").is_empty());
    assert!(docs("plan-exec").iter().any(|d| d == "docs/plans"));
    assert!(docs("spec-refine").iter().any(|d| d == "docs/specs"));
    for f in Flow::ALL {
        assert!(r.docs_boundary.iter().any(|(name, _)| name == f.as_str()));
        let j = Journey::builtin(f).unwrap();
        for d in &j.rows {
            if let Some(a) = &d.action {
                let bound = aw_core::flow::binding::bind_action(a, "001-x-quick", "quick").unwrap();
                assert_eq!(
                    aw_core::flow::binding::docs_breach(&bound, &j.docs),
                    None,
                    "{}",
                    d.id
                );
            }
        }
    }
    assert_eq!(r.command_exclusions.len(), 38);
    let scoped: HashSet<&str> = r
        .decisions
        .iter()
        .filter_map(|d| d.scope.strip_prefix("cmd:"))
        .collect();
    for e in r.command_exclusions.iter() {
        assert!(e.reason.chars().count() > 10, "{}", e.command);
        assert!(!scoped.contains(&*e.command), "{} is both", e.command);
    }
    for c in ["spec-new", "flow"] {
        assert!(r.command_exclusions.iter().any(|e| e.command == c));
    }
    assert!(
        !r.command_exclusions
            .iter()
            .any(|e| e.command == "checkpoint-write")
    );
    let spec_new = r
        .command_exclusions
        .iter()
        .find(|e| e.command == "spec-new")
        .unwrap();
    assert!(spec_new.reason.contains("commands/spec-new.md"));
    assert!(
        !r.decisions
            .iter()
            .any(|d| d.document == "commands/spec-new.md")
    );
}

#[test]
fn conditional_effects_are_pinned() {
    let r = reg();
    for (id, signal) in [
        ("plan-exec.task-marking", "plan.tasks-to-mark"),
        ("plan-exec.plan-done", "plan.plan-closable"),
        ("plan-exec.commit-execution", "plan.commit-pending"),
        ("quick.db-scripts-only", "quick.db-touched"),
    ] {
        let c = r.decision(id).unwrap().condition.as_ref().unwrap();
        assert_eq!(c.threshold.min, 1);
        assert!(c.threshold.of.as_ref().unwrap().iter().any(|s| s == signal));
        assert!(c.otherwise.chars().count() > 30);
        let observed = r.decision(&c.threshold.observed).unwrap();
        assert!(observed.signals().iter().any(|s| s == signal));
    }
    let others: Vec<&str> = Flow::ALL
        .iter()
        .flat_map(|f| r.of_scope(f.as_str()))
        .filter(|d| d.action.is_some() && d.effects() != [EffectClass::ReadOnly])
        .filter(|d| {
            ![
                "plan-exec.task-marking",
                "plan-exec.plan-done",
                "plan-exec.commit-execution",
                "quick.db-scripts-only",
            ]
            .contains(&&*d.id)
        })
        .map(|d| &*d.id)
        .collect();
    // v22: fifteen, and none of them conditional (plan-refine.split-in-place has no action).
    assert!(others.contains(&"plan-exec.unit-integration"));
    assert_eq!(others.len(), 15, "{others:?}");
    let conditioned: Vec<_> = others
        .iter()
        .filter(|id| r.decision(id).unwrap().condition.is_some())
        .collect();
    assert!(conditioned.is_empty(), "{conditioned:?}");
}

#[test]
fn tranche_rules_live_as_data() {
    let r = reg();
    let gate = r.decision("quick.gate-choice").unwrap();
    let anti = r.decision("quick.anti-duplicate").unwrap();
    assert_eq!(
        gate.condition.as_ref().unwrap().threshold,
        anti.condition.as_ref().unwrap().threshold
    );
    assert_eq!(gate.condition.as_ref().unwrap().threshold.min, 2);
    assert_eq!(gate.alternatives.as_ref().unwrap().len(), 3);
    let delegated = |flow: &str| -> Vec<String> {
        Journey::builtin(Flow::parse(flow).unwrap())
            .unwrap()
            .rows
            .iter()
            .filter(|d| d.action.is_some())
            .map(|d| d.id.to_string())
            .collect()
    };
    assert_eq!(
        delegated("quick"),
        [
            "quick.anti-duplicate",
            "quick.session-create",
            "quick.artifact-seed-order",
            "quick.branch-precondition",
            "quick.db-scripts-only",
            "quick.convergence-gate",
            "chassis.finalize"
        ]
    );
    assert_eq!(
        delegated("spec-refine"),
        [
            "spec-refine.session",
            "spec-refine.ready-gate",
            "spec-refine.publication",
            "chassis.finalize"
        ]
    );
    let args = |id: &str| {
        r.decision(id)
            .unwrap()
            .action
            .as_ref()
            .unwrap()
            .invocation
            .args
            .iter()
            .map(|a| a.to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(args("quick.branch-precondition"), ["sources", "--verbose"]);
    for id in [
        "plan-exec.branch-precondition",
        "plan-exec.commit-execution",
    ] {
        assert_eq!(args(id), ["worktree", "list", "--code", "{code}"]);
    }
    let exec = r.decision("plan-exec.commit-execution").unwrap();
    assert_eq!(
        exec.action.as_ref().unwrap().evidence[..],
        ["plan.commits-por-fuente"]
    );
    assert!(exec.effects().contains(&EffectClass::Execute));
    let order = |flow: &str, ids: &[&str]| {
        let j = Journey::builtin(Flow::parse(flow).unwrap()).unwrap();
        let pos: Vec<usize> = ids
            .iter()
            .map(|id| j.rows.iter().position(|d| d.id == *id).unwrap())
            .collect();
        assert!(pos.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
    };
    order(
        "plan-exec",
        &[
            "plan-exec.validation-execution",
            "plan-exec.review-findings",
            "plan-exec.final-validation",
            "plan-exec.commit-enablement",
            "plan-exec.commit-authorization",
            "plan-exec.commit-execution",
            "plan-exec.unit-integration",
            "plan-exec.plan-done",
        ],
    );
    order(
        "plan-exec",
        &[
            "plan-exec.source-scope",
            "plan-exec.unit-acquisition",
            "plan-exec.branch-precondition",
            "plan-exec.implementation",
        ],
    );
    order(
        "plan-refine",
        &[
            "plan-refine.executability-gate",
            "plan-refine.split-in-place",
            "plan-refine.save-proposal",
            "plan-refine.save-confirmation",
            "plan-refine.publication",
        ],
    );
    order(
        "spec-refine",
        &[
            "spec-refine.ready-gate",
            "spec-refine.save-proposal",
            "spec-refine.save-confirmation",
            "spec-refine.publication",
        ],
    );
    for f in ["plan-new", "plan-refine", "plan-exec"] {
        let iso = r
            .decision(&format!("{f}.batch-isolation"))
            .unwrap()
            .condition
            .as_ref()
            .unwrap();
        assert_eq!(iso.threshold.min, 1);
        assert_eq!(
            iso.threshold.observed,
            format!("{f}.batch-eligibility-signal")
        );
    }
    for id in [
        "plan-new.split-choice",
        "plan-refine.split-in-place",
        "spec-refine.split-choice",
    ] {
        assert_eq!(
            r.decision(id)
                .unwrap()
                .condition
                .as_ref()
                .unwrap()
                .threshold
                .min,
            2
        );
    }
    let amb = r
        .decision("spec-refine.functional-ambiguity")
        .unwrap()
        .condition
        .as_ref()
        .unwrap();
    let idea = r
        .decision("spec-refine.ideation-consent")
        .unwrap()
        .condition
        .as_ref()
        .unwrap();
    assert_eq!(
        amb.threshold.of.as_deref().unwrap(),
        ["spec.functional-ambiguity"]
    );
    assert_eq!(
        idea.threshold.of.as_deref().unwrap(),
        ["spec.solution-space-unexplored"]
    );
}

#[test]
fn rows_by_document_and_scope() {
    let r = reg();
    let count = |scopes: &[&str], doc: &str| {
        r.decisions
            .iter()
            .filter(|d| scopes.contains(&&*d.scope) && d.document == doc)
            .count()
    };
    // Each flow's rows read its own guide, except the shared ones: code (branch, review,
    // commits, databases) and batches (the three plan flows).
    assert_eq!(count(&["quick"], "guides/quick.md"), 12);
    assert_eq!(count(&["quick"], "guides/code.md"), 6);
    assert_eq!(count(&["spec-refine"], "guides/spec-refine.md"), 19);
    assert_eq!(count(&["plan-new"], "guides/plan-new.md"), 13);
    assert_eq!(count(&["plan-refine"], "guides/plan-refine.md"), 10);
    assert_eq!(count(&["plan-exec"], "guides/plan-exec.md"), 19);
    assert_eq!(count(&["plan-exec"], "guides/code.md"), 7);
    assert_eq!(
        count(
            &["plan-new", "plan-refine", "plan-exec"],
            "guides/batches.md"
        ),
        9
    );
    assert_eq!(count(&["chassis"], "PRESENTATION.md"), 13);
    let plan = r
        .decisions
        .iter()
        .filter(|d| ["plan-new", "plan-refine", "plan-exec"].contains(&&*d.scope))
        .count();
    assert_eq!(plan, 58);
    assert_eq!(
        r.decisions
            .iter()
            .filter(|d| d.scope.starts_with("cmd:"))
            .count(),
        32
    );
    let design = r
        .decisions
        .iter()
        .filter(|d| d.document == "design/CONTRACT.md")
        .map(|d| &*d.id)
        .collect::<Vec<_>>();
    assert_eq!(design, ["capability.routing", "designs.reference-verdict"]);
}

/// The ids a directive names are the reference's wire ids (several Spanish words): each one has
/// exactly one English meaning, and every dump kind an action prints has one too.
#[test]
fn every_evidence_id_and_dump_kind_has_one_english_gloss() {
    let actions: Vec<_> = reg()
        .decisions
        .iter()
        .filter_map(|d| d.action.as_ref())
        .collect();
    let ids: BTreeSet<&str> = actions
        .iter()
        .flat_map(|a| a.evidence.iter().map(|s| &**s))
        .collect();
    let glossed: Vec<&str> = gloss::EVIDENCE.iter().map(|(id, _)| *id).collect();
    let unique: BTreeSet<&str> = glossed.iter().copied().collect();
    assert_eq!(unique.len(), glossed.len(), "an id glossed twice");
    assert_eq!(unique, ids, "the glossed ids are the registry's, no more");
    for (id, means) in gloss::EVIDENCE.iter().chain(gloss::DUMP_KINDS) {
        assert!(
            means.chars().count() > 20 && !means.contains('\n') && !means.ends_with('.'),
            "{id}: {means}"
        );
    }
    let dumped: BTreeSet<&str> = actions
        .iter()
        .flat_map(|a| gloss::dumped(&a.invocation.args))
        .collect();
    assert_eq!(
        dumped,
        BTreeSet::from(["checkpoint", "objetivo", "scripts"])
    );
    for kind in dumped {
        assert!(gloss::dump_kind(kind).is_some(), "{kind}");
    }
}
