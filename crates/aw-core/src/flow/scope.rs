//! The scope a plan-exec run fixes (flow spec v22 §10, the `scopes_sources` row
//! `plan-exec.source-scope`): the plan it executes and the sources it edits.
//!
//! The answer is semantic: `decisions.sources` (aliases) and `decisions.plan` (the plan's path,
//! relative to the workspace). It is checked, after the answer parsed, in this order; every
//! refusal spends an attempt:
//!
//! 1. `sources` is a list with at least one alias, none blank (entries that are not strings are
//!    dropped, each alias is trimmed), no alias twice; `plan` is a non-blank string —
//!    [`ScopeCode::Invalid`];
//! 2. a plan path that is a safe relative path must be a `.md` file under the plan canon, and the
//!    canon must have resolved — [`ScopeCode::PlanOutsideCanon`];
//! 3. every alias other than `workspace` is declared by the WORKSPACE block, which must be
//!    readable when one is named — [`ScopeCode::UnknownSource`];
//! 4. the plan (a safe path, under the canon) could be read — [`ScopeCode::PlanUnreadable`];
//! 5. the plan passes its source-boundary policy ([`super::source_boundary`]) — the policy's
//!    first failure ([`ScopeCode::Boundary`]);
//! 6. the aliases are exactly the union of the plan's phase sources — [`ScopeCode::NotInPlan`].
//!
//! Accepted, the scope is `{plan, sources}` as answered (trimmed, in the answer's order).
//! `workspace` is always a legal alias.
//!
//! Nothing here reads a file: the shell reads the plan [`plan_to_read`] names (and nothing when
//! it names none), the WORKSPACE block's aliases and the plan canon, and passes what it got.

use super::source_boundary::{self, BoundaryCode, WORKSPACE_SOURCE};
use crate::capability::paths::{is_within, unsafe_relative};
use serde_json::Value;

/// Why a scope answer is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScopeCode {
    /// The sources or the plan are missing or malformed.
    Invalid,
    /// The plan is not a Markdown file under the plan canon, or the canon did not resolve.
    PlanOutsideCanon,
    /// An alias the WORKSPACE block does not declare (or no block to check it against).
    UnknownSource,
    /// The plan could not be read.
    PlanUnreadable,
    /// The plan fails its source-boundary policy.
    Boundary(BoundaryCode),
    /// The aliases are not exactly the plan's phase sources.
    NotInPlan,
}

impl ScopeCode {
    /// Every code, in check order.
    pub const ALL: [ScopeCode; 10] = [
        ScopeCode::Invalid,
        ScopeCode::PlanOutsideCanon,
        ScopeCode::UnknownSource,
        ScopeCode::PlanUnreadable,
        ScopeCode::Boundary(BoundaryCode::Missing),
        ScopeCode::Boundary(BoundaryCode::Unknown),
        ScopeCode::Boundary(BoundaryCode::TaskOutsidePhase),
        ScopeCode::Boundary(BoundaryCode::ExternalClosure),
        ScopeCode::Boundary(BoundaryCode::LocalProofMissing),
        ScopeCode::NotInPlan,
    ];

    /// The wire spelling (the reference's).
    pub fn as_str(self) -> &'static str {
        match self {
            ScopeCode::Invalid => "FLOW_SCOPE_INVALID",
            ScopeCode::PlanOutsideCanon => "FLOW_SCOPE_PLAN_OUTSIDE_CANON",
            ScopeCode::UnknownSource => "FLOW_SCOPE_UNKNOWN_SOURCE",
            ScopeCode::PlanUnreadable => "FLOW_SCOPE_PLAN_UNREADABLE",
            ScopeCode::Boundary(code) => code.as_str(),
            ScopeCode::NotInPlan => "FLOW_SCOPE_NOT_IN_PLAN",
        }
    }
}

/// A refused scope answer. Every one spends an attempt (an `evaluated` rejection).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScopeRefusal {
    /// The stable code.
    pub code: ScopeCode,
    /// What is wrong with the answer or the plan.
    pub message: String,
    /// What to do.
    pub action: String,
}

impl ScopeRefusal {
    fn new(code: ScopeCode, message: impl Into<String>, action: impl Into<String>) -> Self {
        ScopeRefusal {
            code,
            message: message.into(),
            action: action.into(),
        }
    }
}

pub use super::state::Scope;

/// The plan path the shell should read for this answer: `decisions.plan`, trimmed, when it is a
/// safe relative path to a `.md` file under `plan_canon`. `None` when there is nothing to read
/// (the checks then refuse the answer before they need the plan).
pub fn plan_to_read(decisions: &Value, plan_canon: &str) -> Option<String> {
    let plan = decisions.get("plan")?.as_str()?.trim();
    (unsafe_relative(plan).is_none() && in_canon(plan, plan_canon)).then(|| plan.to_owned())
}

/// Checks a scope answer.
///
/// - `decisions`: the answer's `decisions` object;
/// - `plan_canon`: the plan folder of the docs canon (`docs/plans`), or why the canon did not
///   resolve;
/// - `declared`: the aliases of the WORKSPACE block's sources; `None` when the block could not be
///   read;
/// - `plan_text`: the text of the plan [`plan_to_read`] names; `None` when it could not be read
///   (or names none).
pub fn check(
    decisions: &Value,
    plan_canon: Result<&str, &str>,
    declared: Option<&[String]>,
    plan_text: Option<&str>,
) -> Result<Scope, ScopeRefusal> {
    let sources = answered_sources(decisions)?;
    let plan = match decisions.get("plan").and_then(Value::as_str).map(str::trim) {
        Some(plan) if !plan.is_empty() => plan,
        _ => {
            return Err(ScopeRefusal::new(
                ScopeCode::Invalid,
                "The scope does not say which plan this run executes.",
                "Put the plan's path, relative to the workspace, in \"decisions.plan\" \
                 (docs/plans/PPP-plan-<slug>.md).",
            ));
        }
    };
    // A path that could leave the workspace is never looked at: it is no plan that can be read.
    let safe = unsafe_relative(plan).is_none();
    if safe {
        match plan_canon {
            Err(why) => {
                return Err(ScopeRefusal::new(
                    ScopeCode::PlanOutsideCanon,
                    format!("The docs canon does not resolve, so no plan can be placed: {why}"),
                    "Fix the [docs] table of .<ns>/skills.toml, then answer with a plan under \
                     the plan folder.",
                ));
            }
            Ok(canon) if !in_canon(plan, canon) => {
                let canon = canon.trim_end_matches('/');
                return Err(ScopeRefusal::new(
                    ScopeCode::PlanOutsideCanon,
                    format!("'{plan}' is not a plan: a plan is a Markdown file under {canon}/."),
                    format!(
                        "Put in \"decisions.plan\" the path of a plan under {canon}/ \
                         ({canon}/PPP-plan-<slug>.md)."
                    ),
                ));
            }
            Ok(_) => {}
        }
    }
    let named_other = || sources.iter().any(|s| s != WORKSPACE_SOURCE);
    let declared = match declared {
        Some(declared) => declared,
        None if named_other() => {
            return Err(ScopeRefusal::new(
                ScopeCode::UnknownSource,
                "The workspace's project block cannot be read, so no source other than \
                 'workspace' can be checked.",
                "Declare the sources in the Sources table of the project block (`aw \
                 project-md-upsert --source alias:path`), then answer again.",
            ));
        }
        None => &[],
    };
    let unknown: Vec<&str> = sources
        .iter()
        .filter(|s| *s != WORKSPACE_SOURCE && !declared.contains(s))
        .map(String::as_str)
        .collect();
    if !unknown.is_empty() {
        let listed: Vec<&str> = std::iter::once(WORKSPACE_SOURCE)
            .chain(
                declared
                    .iter()
                    .map(String::as_str)
                    .filter(|a| *a != WORKSPACE_SOURCE),
            )
            .collect();
        return Err(ScopeRefusal::new(
            ScopeCode::UnknownSource,
            format!("The workspace does not declare {}.", quoted_list(&unknown)),
            format!(
                "Name only sources the workspace declares: {}.",
                listed.join(", ")
            ),
        ));
    }
    let text = match plan_text {
        Some(text) if safe => text,
        _ => {
            return Err(ScopeRefusal::new(
                ScopeCode::PlanUnreadable,
                format!("The plan '{plan}' the scope is checked against could not be read."),
                "Put in \"decisions.plan\" the path, relative to the workspace, of a plan that \
                 exists: a scope is never fixed against a document nobody can show.",
            ));
        }
    };
    let plan_sources = source_boundary::check(text, declared).map_err(|failure| {
        ScopeRefusal::new(
            ScopeCode::Boundary(failure.code),
            format!("'{plan}' cannot run yet. {}", failure.message),
            format!(
                "{} Refine the plan with /w:plan-refine, then answer again.",
                failure.action
            ),
        )
    })?;
    let union = plan_sources.union;
    let missing: Vec<&str> = union
        .iter()
        .filter(|s| !sources.contains(s))
        .map(String::as_str)
        .collect();
    let extra: Vec<&str> = sources
        .iter()
        .filter(|s| !union.contains(s))
        .map(String::as_str)
        .collect();
    if !missing.is_empty() || !extra.is_empty() {
        let mut difference = Vec::new();
        if !missing.is_empty() {
            difference.push(format!("missing: {}", missing.join(", ")));
        }
        if !extra.is_empty() {
            difference.push(format!("not in the plan: {}", extra.join(", ")));
        }
        return Err(ScopeRefusal::new(
            ScopeCode::NotInPlan,
            format!(
                "The sources do not match those the phases of '{plan}' declare: {}.",
                difference.join("; ")
            ),
            format!(
                "The scope is exactly the union of the plan's '> Fuentes:' lines: answer \
                 \"decisions.sources\" = [{}], or change the plan with /w:plan-refine before \
                 editing.",
                union
                    .iter()
                    .map(|s| format!("\"{s}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    Ok(Scope {
        plan: plan.to_owned(),
        sources,
    })
}

/// The answered aliases: the strings of `decisions.sources`, trimmed (other entries dropped);
/// refused when there is no list, no alias, a blank one or one twice.
fn answered_sources(decisions: &Value) -> Result<Vec<String>, ScopeRefusal> {
    let sources: Option<Vec<String>> =
        decisions
            .get("sources")
            .and_then(Value::as_array)
            .map(|list| {
                list.iter()
                    .filter_map(Value::as_str)
                    .map(|s| s.trim().to_owned())
                    .collect()
            });
    let sources = match sources {
        Some(sources) if !sources.is_empty() && sources.iter().all(|s| !s.is_empty()) => sources,
        _ => {
            return Err(ScopeRefusal::new(
                ScopeCode::Invalid,
                "This boundary fixes the sources the run edits, and the answer names none (or a \
                 blank one).",
                "Put in \"decisions.sources\" the exact aliases the plan's phases declare, and in \
                 \"decisions.plan\" the plan's path.",
            ));
        }
    };
    if let Some(twice) = sources
        .iter()
        .enumerate()
        .find_map(|(i, s)| sources[..i].contains(s).then_some(s))
    {
        return Err(ScopeRefusal::new(
            ScopeCode::Invalid,
            format!("The scope names the source '{twice}' twice."),
            "Name each source once: a run takes one unit per alias.",
        ));
    }
    Ok(sources)
}

/// Whether a safe relative path is a `.md` file under the plan canon (compared by segments).
fn in_canon(plan: &str, canon: &str) -> bool {
    let canon = canon.trim_end_matches('/');
    !canon.is_empty()
        && canon != "."
        && plan.ends_with(".md")
        && plan.len() > canon.len()
        && is_within(plan, canon)
}

fn quoted_list(items: &[&str]) -> String {
    items
        .iter()
        .map(|s| format!("'{s}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const CANON: Result<&str, &str> = Ok("docs/plans");
    const PLAN: &str = "docs/plans/041-plan-alpha.md";

    /// A plan whose phases declare `workspace` and `acme`, in that order.
    const TEXT: &str = "# Plan\n> Límite de ejecución: checkout\n## Tasks\n\
        ### F1 — A\n> Fuentes: workspace\n- [ ] a _(fuentes: workspace)_\n\
        ### F2 — B\n> Fuentes: acme, workspace\n- [ ] b _(fuentes: acme)_\n";

    fn block() -> Vec<String> {
        vec!["acme".to_owned(), "vecino".to_owned()]
    }

    fn run(decisions: Value) -> Result<Scope, ScopeRefusal> {
        let declared = block();
        check(&decisions, CANON, Some(&declared), Some(TEXT))
    }

    fn code(result: Result<Scope, ScopeRefusal>) -> &'static str {
        result.map_or_else(|r| r.code.as_str(), |_| "OK")
    }

    #[test]
    fn codes_are_the_references() {
        let all: Vec<&str> = ScopeCode::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(
            all,
            [
                "FLOW_SCOPE_INVALID",
                "FLOW_SCOPE_PLAN_OUTSIDE_CANON",
                "FLOW_SCOPE_UNKNOWN_SOURCE",
                "FLOW_SCOPE_PLAN_UNREADABLE",
                "PLAN_SOURCE_BOUNDARY_MISSING",
                "PLAN_SOURCE_UNKNOWN",
                "PLAN_TASK_SOURCE_OUTSIDE_PHASE",
                "PLAN_SOURCE_EXTERNAL_CLOSURE",
                "PLAN_SOURCE_LOCAL_PROOF_MISSING",
                "FLOW_SCOPE_NOT_IN_PLAN",
            ]
        );
    }

    #[test]
    fn a_scope_matching_the_plan_is_fixed_as_answered() {
        let scope =
            run(json!({"plan": format!("  {PLAN} "), "sources": [" acme", "workspace "]})).unwrap();
        assert_eq!(
            scope,
            Scope {
                plan: PLAN.to_owned(),
                sources: vec!["acme".to_owned(), "workspace".to_owned()],
            }
        );
        // A subfolder of the canon holds plans too.
        let nested = "docs/plans/archive/001-plan-x.md";
        assert_eq!(
            run(json!({"plan": nested, "sources": ["workspace", "acme"]}))
                .unwrap()
                .plan,
            nested
        );
    }

    #[test]
    fn sources_and_plan_must_be_given() {
        for decisions in [
            json!(null),
            json!({"plan": PLAN}),
            json!({"plan": PLAN, "sources": "acme"}),
            json!({"plan": PLAN, "sources": []}),
            json!({"plan": PLAN, "sources": ["acme", " "]}),
            json!({"plan": PLAN, "sources": [1, null]}),
            // Sources are checked before the plan.
            json!({"sources": []}),
        ] {
            let refused = run(decisions.clone()).unwrap_err();
            assert_eq!(refused.code, ScopeCode::Invalid, "{decisions}");
            assert!(
                refused.message.contains("names none"),
                "{}",
                refused.message
            );
        }
        let twice = run(json!({"plan": PLAN, "sources": ["acme", " acme"]})).unwrap_err();
        assert_eq!(twice.code, ScopeCode::Invalid);
        assert!(twice.message.contains("'acme' twice"), "{}", twice.message);
        // The duplicate is found before a missing plan.
        assert!(
            run(json!({"sources": ["acme", "acme"]}))
                .unwrap_err()
                .message
                .contains("twice")
        );
        for plan in [json!(null), json!(""), json!("  "), json!(7)] {
            let refused = run(json!({"plan": plan, "sources": ["acme"]})).unwrap_err();
            assert_eq!(refused.code, ScopeCode::Invalid, "{plan}");
            assert!(
                refused.message.contains("which plan"),
                "{}",
                refused.message
            );
        }
    }

    #[test]
    fn entries_that_are_not_strings_are_dropped_as_the_reference_does() {
        let scope = run(json!({"plan": PLAN, "sources": ["workspace", 3, "acme", null]})).unwrap();
        assert_eq!(scope.sources, ["workspace", "acme"]);
    }

    #[test]
    fn the_plan_is_a_markdown_file_under_the_plan_canon() {
        let sources = json!(["workspace", "acme"]);
        for plan in [
            "docs/plans/041-plan-alpha.txt",
            "docs/plans/041-plan-alpha.MD",
            "docs/specs/001-spec-x.md",
            "docs/plans-evil/041-plan-alpha.md",
            "docs/plans.md",
            "041-plan-alpha.md",
        ] {
            let refused = run(json!({"plan": plan, "sources": sources})).unwrap_err();
            assert_eq!(refused.code, ScopeCode::PlanOutsideCanon, "{plan}");
            assert!(
                refused.message.contains("docs/plans/"),
                "{}",
                refused.message
            );
        }
        // A canon that did not resolve places no plan; its reason is the message.
        let declared = block();
        let refused = check(
            &json!({"plan": PLAN, "sources": sources}),
            Err("skills.toml: [docs] is not a table"),
            Some(&declared),
            Some(TEXT),
        )
        .unwrap_err();
        assert_eq!(refused.code, ScopeCode::PlanOutsideCanon);
        assert!(refused.message.contains("[docs] is not a table"));
        // The canon is read with or without a trailing slash.
        assert!(
            check(
                &json!({"plan": PLAN, "sources": sources}),
                Ok("docs/plans/"),
                Some(&declared),
                Some(TEXT)
            )
            .is_ok()
        );
        // Outside the canon is found before an unknown alias.
        assert_eq!(
            code(run(json!({"plan": "notes/x.md", "sources": ["ghost"]}))),
            "FLOW_SCOPE_PLAN_OUTSIDE_CANON"
        );
    }

    #[test]
    fn a_path_that_could_leave_the_workspace_is_never_read() {
        let declared = block();
        for plan in [
            "../docs/plans/041-plan-alpha.md",
            "./docs/plans/041-plan-alpha.md",
            "/w/docs/plans/041-plan-alpha.md",
            "docs\\plans\\041-plan-alpha.md",
            "docs/plans//041-plan-alpha.md",
            "docs/plans/../../x.md",
        ] {
            let decisions = json!({"plan": plan, "sources": ["workspace", "acme"]});
            assert_eq!(plan_to_read(&decisions, "docs/plans"), None, "{plan}");
            // Not "outside the canon": unreadable, even when the shell passed some text, and
            // even when the canon did not resolve.
            for canon in [CANON, Err("broken")] {
                let refused = check(&decisions, canon, Some(&declared), Some(TEXT)).unwrap_err();
                assert_eq!(refused.code, ScopeCode::PlanUnreadable, "{plan}");
            }
            // An unknown alias is still found first.
            let ghost = json!({"plan": plan, "sources": ["ghost"]});
            assert_eq!(
                code(check(&ghost, CANON, Some(&declared), None)),
                "FLOW_SCOPE_UNKNOWN_SOURCE"
            );
        }
    }

    #[test]
    fn every_alias_is_declared_by_the_workspace() {
        let refused =
            run(json!({"plan": PLAN, "sources": ["ghost", "acme", "phantom"]})).unwrap_err();
        assert_eq!(refused.code, ScopeCode::UnknownSource);
        assert!(
            refused.message.contains("'ghost', 'phantom'"),
            "{}",
            refused.message
        );
        assert!(
            refused.action.contains("workspace, acme, vecino"),
            "{}",
            refused.action
        );
        // With no readable block, only `workspace` may be named; the plan is then held to an
        // empty block.
        let decisions = json!({"plan": PLAN, "sources": ["workspace", "acme"]});
        let refused = check(&decisions, CANON, None, Some(TEXT)).unwrap_err();
        assert_eq!(refused.code, ScopeCode::UnknownSource);
        assert!(refused.message.contains("cannot be read"));
        let only_workspace = json!({"plan": PLAN, "sources": ["workspace"]});
        assert_eq!(
            code(check(&only_workspace, CANON, None, Some(TEXT))),
            "PLAN_SOURCE_UNKNOWN"
        );
        let plain = TEXT
            .replace("acme, workspace", "workspace")
            .replace("(fuentes: acme)", "(fuentes: workspace)");
        assert_eq!(
            check(&only_workspace, CANON, None, Some(&plain))
                .unwrap()
                .sources,
            ["workspace"]
        );
        // An unknown alias is found before an unreadable plan.
        let declared = block();
        let ghost = json!({"plan": PLAN, "sources": ["ghost"]});
        assert_eq!(
            code(check(&ghost, CANON, Some(&declared), None)),
            "FLOW_SCOPE_UNKNOWN_SOURCE"
        );
    }

    #[test]
    fn a_plan_that_cannot_be_read_fixes_nothing() {
        let declared = block();
        let decisions = json!({"plan": "docs/plans/099-plan-ghost.md", "sources": ["acme"]});
        assert_eq!(
            plan_to_read(&decisions, "docs/plans").as_deref(),
            Some("docs/plans/099-plan-ghost.md")
        );
        let refused = check(&decisions, CANON, Some(&declared), None).unwrap_err();
        assert_eq!(refused.code, ScopeCode::PlanUnreadable);
        assert!(refused.message.contains("docs/plans/099-plan-ghost.md"));
    }

    #[test]
    fn the_plan_passes_its_source_boundary_first() {
        let sources = json!(["workspace", "acme"]);
        let cases = [
            (
                TEXT.replace("> Límite de ejecución: checkout\n", ""),
                "PLAN_SOURCE_BOUNDARY_MISSING",
            ),
            (
                TEXT.replace("acme, workspace", "acme, ghost, workspace"),
                "PLAN_SOURCE_UNKNOWN",
            ),
            (
                TEXT.replace("_(fuentes: workspace)_", "_(fuentes: acme)_"),
                "PLAN_TASK_SOURCE_OUTSIDE_PHASE",
            ),
            (
                format!("{TEXT}**Cierre:** https://x.example\n"),
                "PLAN_SOURCE_EXTERNAL_CLOSURE",
            ),
            (
                format!("{TEXT}## Validations\n- eyeball it\n"),
                "PLAN_SOURCE_LOCAL_PROOF_MISSING",
            ),
        ];
        let declared = block();
        for (text, want) in cases {
            let refused = check(
                &json!({"plan": PLAN, "sources": sources}),
                CANON,
                Some(&declared),
                Some(&text),
            )
            .unwrap_err();
            assert_eq!(refused.code.as_str(), want);
            assert!(refused.message.contains(PLAN), "{}", refused.message);
            assert!(
                refused.action.contains("/w:plan-refine"),
                "{}",
                refused.action
            );
        }
        // The first failure is the one reported, before the sources are compared.
        let both = TEXT
            .replace("> Límite de ejecución: checkout\n", "")
            .replace("acme, workspace", "ghost");
        let refused = check(
            &json!({"plan": PLAN, "sources": ["vecino"]}),
            CANON,
            Some(&declared),
            Some(&both),
        )
        .unwrap_err();
        assert_eq!(refused.code, ScopeCode::Boundary(BoundaryCode::Missing));
        assert!(
            refused.message.contains("execution surface"),
            "{}",
            refused.message
        );
    }

    #[test]
    fn the_sources_are_exactly_the_plans() {
        let refused = run(json!({"plan": PLAN, "sources": ["vecino", "acme"]})).unwrap_err();
        assert_eq!(refused.code, ScopeCode::NotInPlan);
        assert!(
            refused
                .message
                .contains("missing: workspace; not in the plan: vecino"),
            "{}",
            refused.message
        );
        assert!(
            refused.action.contains(r#"["workspace", "acme"]"#),
            "{}",
            refused.action
        );
        let fewer = run(json!({"plan": PLAN, "sources": ["acme"]})).unwrap_err();
        assert!(
            fewer.message.ends_with(": missing: workspace."),
            "{}",
            fewer.message
        );
        let more =
            run(json!({"plan": PLAN, "sources": ["workspace", "acme", "vecino"]})).unwrap_err();
        assert!(
            more.message.ends_with(": not in the plan: vecino."),
            "{}",
            more.message
        );
    }
}
