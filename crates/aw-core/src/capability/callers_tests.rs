//! Unit tests of `callers`: host detection, the harness catalog, the caller table, the gates a
//! flow holds a composed result to, and adopting a durable reference.

use super::*;
use crate::capability::descriptor::Completeness;
use crate::capability::receipt::{Effects, OperationOutput, Outcome, ReceiptBody};
use crate::capability::request::CapabilityRequest;
use crate::capability::test_support::{ID, design, invocation};
use std::collections::BTreeMap;

/// Detects the host of an environment given as pairs.
fn host(env: &[(&str, &str)]) -> &'static str {
    let map: BTreeMap<String, String> = env
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    let names: Vec<String> = map.keys().cloned().collect();
    detect_host(|k| map.get(k).cloned(), &names)
}

#[test]
fn each_marker_names_its_host() {
    let cases: &[(&[(&str, &str)], &str)] = &[
        (&[("CLAUDECODE", "1")], "claude-code"),
        (&[("CLAUDE_PLUGIN_ROOT", "/p")], "claude-code"),
        (&[("CLAUDE_AGENT_ID", "a")], "claude-code"),
        (&[("CODEX_HOME", "/c")], "codex"),
        (&[("CODEX_CLI", "1")], "codex"),
        (&[("CODEX_RUNTIME", "1")], "codex"),
        (&[("CODEX_THREAD_ID", "t")], "codex"),
        (&[("OZ_RUN_ID", "r")], "oz"),
        (&[("WARP_IS_LOCAL_SHELL_SESSION", "1")], "warp"),
        (&[("TERM_PROGRAM", "WarpTerminal")], "warp"),
        (&[("GEMINI_CLI", "1")], "gemini"),
        (&[("GEMINI_SANDBOX", "1")], "gemini"),
        (&[("ANTIGRAVITY_AGENT", "1")], "gemini"),
        (&[("OPENCODE", "1")], "opencode"),
        (&[("OPENCODE_BIN_PATH", "/o")], "opencode"),
        (&[("CRUSH", "1")], "crush"),
        (&[("CRUSH_CONFIG", "/c")], "crush"),
        (&[], "unknown"),
        (&[("TERM_PROGRAM", "iTerm.app"), ("HOME", "/h")], "unknown"),
    ];
    for (env, want) in cases {
        assert_eq!(host(env), *want, "{env:?}");
    }
}

#[test]
fn the_first_host_in_harness_order_wins() {
    assert_eq!(
        host(&[("CLAUDECODE", "1"), ("CODEX_HOME", "/c")]),
        "claude-code"
    );
    assert_eq!(host(&[("CODEX_HOME", "/c"), ("OZ_RUN_ID", "r")]), "codex");
    assert_eq!(host(&[("GEMINI_CLI", "1"), ("OPENCODE", "1")]), "gemini");
    assert_eq!(host(&[("OPENCODE", "1"), ("CRUSH", "1")]), "opencode");
}

#[test]
fn a_terminal_marker_never_masks_the_agent_inside_it() {
    // v22's agent host: Warp's terminal markers count only when no agent's marker does.
    let warp = ("TERM_PROGRAM", "WarpTerminal");
    assert_eq!(host(&[warp, ("CODEX_THREAD_ID", "t")]), "codex");
    assert_eq!(host(&[warp, ("GEMINI_CLI", "1")]), "gemini");
    assert_eq!(
        host(&[("WARP_IS_LOCAL_SHELL_SESSION", "1"), ("CRUSH", "1")]),
        "crush"
    );
    assert_eq!(host(&[warp]), "warp");
}

#[test]
fn an_empty_value_counts_as_unset() {
    assert_eq!(
        host(&[("CLAUDECODE", ""), ("CODEX_THREAD_ID", "t")]),
        "codex"
    );
    assert_eq!(host(&[("CODEX_THREAD_ID", "")]), "unknown");
    assert_eq!(host(&[("OPENCODE_X", "")]), "unknown");
    assert_eq!(host(&[("ANTIGRAVITY", "")]), "unknown");
}

#[test]
fn the_harness_catalog_has_one_form_per_host_and_only_kimi_uses_a_slash() {
    assert_eq!(
        harness_ids(),
        [
            "claude-code",
            "codex",
            "oz",
            "warp",
            "gemini",
            "opencode",
            "crush",
            "kimi"
        ]
    );
    for h in HARNESSES {
        assert!(h.template.contains("<name>"), "{}", h.id);
        assert!(!h.note.trim().is_empty(), "{}", h.id);
        assert_ne!(h.form("design"), "/design", "{}", h.id);
        assert!(
            crate::capability::inventory::SKILL_DIRS.contains(&h.skills_dir),
            "{}",
            h.id
        );
    }
    let slash: Vec<&str> = HARNESSES
        .iter()
        .filter(|h| h.invocation == InvocationKind::Slash)
        .map(|h| h.id)
        .collect();
    assert_eq!(slash, ["kimi"]);
    assert_eq!(harness("claude-code").unwrap().form("design"), "design");
    assert_eq!(harness("kimi").unwrap().form("design"), "/skill:design");
    assert!(harness("unknown").is_none() && harness("Claude-Code").is_none());
}

#[test]
fn the_caller_table_covers_every_flow_with_design_operations_only() {
    let flows: Vec<Flow> = COMPOSED_OPERATIONS.iter().map(|(f, _)| *f).collect();
    assert_eq!(flows, FLOWS);
    let d = design();
    let ops: Vec<&str> = d.operations.iter().map(|o| o.name.as_str()).collect();
    for (_, row) in COMPOSED_OPERATIONS {
        for entry in *row {
            let (cap, op) = entry.split_once('.').unwrap();
            assert_eq!(cap, "design");
            assert!(ops.contains(&op), "{entry}");
            assert_ne!(op, "consume");
        }
    }
    assert_eq!(
        composed_operations(Flow::SpecRefine),
        ["design.create", "design.update", "design.validate"]
    );
    for f in [Flow::PlanNew, Flow::PlanRefine] {
        assert_eq!(composed_operations(f), ["design.update", "design.validate"]);
    }
    for f in [Flow::PlanExec, Flow::Quick] {
        assert_eq!(composed_operations(f), ["design.validate"]);
    }
}

#[test]
fn every_flow_may_compose_exactly_its_row() {
    let allowed: &[(Flow, &[&str])] = &[
        (Flow::SpecRefine, &["create", "update", "validate"]),
        (Flow::PlanNew, &["update", "validate"]),
        (Flow::PlanRefine, &["update", "validate"]),
        (Flow::PlanExec, &["validate"]),
        (Flow::Quick, &["validate"]),
    ];
    for (flow, row) in allowed {
        for op in [
            "create", "update", "validate", "render", "record", "consume",
        ] {
            let want = row.contains(&op);
            assert_eq!(may_compose(*flow, "design", op), want, "{flow:?} {op}");
            match check_compose(*flow, "design", Some(op)) {
                Ok(got) => {
                    assert!(want, "{flow:?} {op}");
                    assert_eq!(got, op);
                }
                Err(e) => {
                    assert!(!want, "{flow:?} {op}");
                    assert_eq!(e.code, ErrorCode::CapabilityComposeNotAllowed);
                    assert!(e.message.contains(&format!("'design.{op}'")));
                    assert!(e.action.contains("design.validate"));
                }
            }
        }
        // Another capability is never composed.
        assert!(!may_compose(*flow, "diagrams", "validate"));
    }
}

#[test]
fn a_flow_must_name_the_operation_it_composes() {
    let e = check_compose(Flow::PlanNew, "design", None).unwrap_err();
    assert_eq!(e.code, ErrorCode::CapabilityComposeOperationMissing);
    assert!(e.message.contains("'plan-new'"));
    assert!(e.action.contains("design.update, design.validate"));
    // The check comes before the capability's name is known to be registered.
    let e = check_compose(Flow::Quick, "c4", Some("validate")).unwrap_err();
    assert_eq!(e.code, ErrorCode::CapabilityComposeNotAllowed);
}

fn gate(id: &str, passed: bool) -> ValidationOutcome {
    ValidationOutcome {
        id: id.to_owned(),
        passed,
        detail: None,
    }
}

/// A receipt for `validate` with `outcome`, `completeness` and `validations`.
fn receipt(
    outcome: Outcome,
    completeness: Option<Completeness>,
    validations: Vec<ValidationOutcome>,
) -> CapabilityReceipt {
    let d = design();
    let request = CapabilityRequest::first_attempt(
        &d,
        ID.to_owned(),
        invocation(
            "validate",
            crate::capability::test_support::direct(),
            &[("package", "docs/designs/001")],
        ),
    )
    .unwrap();
    let failed = matches!(outcome, Outcome::Failed | Outcome::Blocked);
    let body = ReceiptBody {
        outcome,
        floor: true,
        selection: vec![],
        inputs: vec![],
        output: completeness.map(|c| OperationOutput {
            value: None,
            reference: None,
            completeness: Some(c),
        }),
        validations,
        effects: Effects::default(),
        degradations: vec![],
        gaps: if outcome == Outcome::NeedsInput {
            vec!["more".into()]
        } else {
            vec![]
        },
        error: failed.then(|| CapabilityError::new(ErrorCode::CapabilityUnavailable, "m", "a")),
        next_action: "nothing pending".into(),
    };
    CapabilityReceipt::build(&request, &d, body).unwrap()
}

#[test]
fn the_gates_are_the_capabilitys_followed_by_the_flows() {
    let r = receipt(
        Outcome::Completed,
        Some(Completeness::Complete),
        vec![gate("design-manifest", true)],
    );
    let gates = compose_gates(Ok(&r), &[gate("spec-criteria", true)], true).unwrap();
    let ids: Vec<&str> = gates.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(ids, ["design-manifest", "spec-criteria"]);
}

#[test]
fn a_flow_gate_cannot_pass_what_the_capability_failed() {
    let r = receipt(
        Outcome::Completed,
        Some(Completeness::Complete),
        vec![gate("design-manifest", false)],
    );
    let e = compose_gates(Ok(&r), &[gate("design-manifest", true)], false).unwrap_err();
    assert_eq!(e.code, ErrorCode::CapabilityGateLowered);
    assert!(e.message.contains("'design-manifest'"));
    // Agreeing that it failed, or passing another id, lowers nothing.
    let gates = compose_gates(
        Ok(&r),
        &[gate("design-manifest", false), gate("other", true)],
        false,
    )
    .unwrap();
    assert_eq!(gates.len(), 3);
}

#[test]
fn a_flow_that_requires_completeness_refuses_a_partial_or_unfinished_result() {
    let partial = receipt(Outcome::Completed, Some(Completeness::Partial), vec![]);
    let e = compose_gates(Ok(&partial), &[], true).unwrap_err();
    assert_eq!(e.code, ErrorCode::CapabilityOutputIncomplete);
    assert!(e.message.contains("partial"));
    assert!(compose_gates(Ok(&partial), &[], false).is_ok());
    let asking = receipt(Outcome::NeedsInput, None, vec![]);
    let e = compose_gates(Ok(&asking), &[], true).unwrap_err();
    assert_eq!(e.code, ErrorCode::CapabilityOutputIncomplete);
    assert!(e.message.contains("needs_input") && e.message.contains("none"));
}

#[test]
fn a_failed_attempt_passes_through_unchanged() {
    let failure = CapabilityError::new(ErrorCode::CapabilityNameRetired, "retired", "use design");
    assert_eq!(
        compose_gates(Err(&failure), &[gate("spec-criteria", true)], true),
        Err(failure)
    );
}

fn reference(revision: Option<u64>, digest: &str) -> DurableReference {
    DurableReference {
        id: "DES-001".into(),
        revision,
        digest: digest.into(),
        locator: "docs/designs/DES-001".into(),
    }
}

fn baseline(revision: Option<u64>, digest: &str) -> IndexedPackage {
    IndexedPackage::Baseline {
        revision,
        digest: digest.into(),
    }
}

#[test]
fn adopting_the_current_baseline_returns_the_reference_unchanged() {
    let r = reference(Some(2), "sha256:aa");
    assert_eq!(
        adopt_durable_reference(&r, &baseline(Some(2), "sha256:aa")),
        Ok(r.clone())
    );
    // A reference without a revision is held to the digest alone.
    let r = reference(None, "sha256:aa");
    assert_eq!(
        adopt_durable_reference(&r, &baseline(Some(5), "sha256:aa")),
        Ok(r.clone())
    );
    // A package with no baseline yet has nothing to compare a revisionless reference with.
    assert_eq!(
        adopt_durable_reference(&r, &IndexedPackage::NoBaseline),
        Ok(r)
    );
}

#[test]
fn adopting_what_the_index_does_not_hold_is_refused() {
    let e = adopt_durable_reference(&reference(Some(2), "sha256:aa"), &IndexedPackage::NotFound)
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::CapabilityAdoptionNotFound);
    assert!(e.message.contains("'DES-001'"));

    let e = adopt_durable_reference(
        &reference(Some(2), "sha256:aa"),
        &baseline(Some(3), "sha256:aa"),
    )
    .unwrap_err();
    assert_eq!(e.code, ErrorCode::CapabilityAdoptionRevisionMismatch);
    assert!(e.message.contains("r3") && e.message.contains("r2"));
    let e = adopt_durable_reference(
        &reference(Some(2), "sha256:aa"),
        &IndexedPackage::NoBaseline,
    )
    .unwrap_err();
    assert_eq!(e.code, ErrorCode::CapabilityAdoptionRevisionMismatch);

    let e = adopt_durable_reference(
        &reference(Some(2), "sha256:aa"),
        &baseline(Some(2), "sha256:bb"),
    )
    .unwrap_err();
    assert_eq!(e.code, ErrorCode::CapabilityAdoptionDigestMismatch);
    assert!(e.message.contains("sha256:bb") && e.message.contains("sha256:aa"));
}
