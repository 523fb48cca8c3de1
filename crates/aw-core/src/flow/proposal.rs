//! Proposals (flow-spec-v22 §8): the exact bytes an authoring row's answer carries, sealed with
//! what publishing them would do, shown as a preview at the row that decides them and written
//! all-or-nothing by the row that publishes them.
//!
//! The shell observes the destinations before the lock (whether each exists, the digest of its
//! text, or that it cannot be read) and the spec each plan artifact derives from; everything
//! here is pure.

use super::answer::Rejection;
use super::effects::Subject;
use super::registry::{Decision, Execution};
use super::state::RunState;
use crate::canonical::{semantic_digest, string_digest};
use crate::capability::effects::Reach;
use crate::error_code::ErrorCode;
pub use crate::vocab::collate::locale_cmp;
use crate::vocab::flow::EffectClass;
use serde::Serialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// The internal operation that publishes the seated proposal.
pub const PUBLISH_OPERATION: &str = "proposal.publish";

/// One artifact of an answer: a path and its exact bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Artifact {
    /// Workspace-relative path inside the row's destinations.
    pub path: String,
    /// The bytes to write.
    pub content: String,
}

/// What the shell saw at a destination before the lock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seen {
    /// Nothing is there.
    Absent,
    /// A file whose text has this base digest (and, when it is a bare numbering reservation,
    /// the session folder that holds it).
    Present(String, Option<String>),
    /// Something is there and could not be read.
    Unreadable,
}

/// The spec a plan artifact derives from, read by the shell: its path and baseline digest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecBaseline {
    /// The spec's workspace-relative path, as the plan names it.
    pub path: String,
    /// `sha256:<hex>` of its text (see [`crate::documents::baseline::spec_digest`]).
    pub digest: String,
}

/// What the shell observed for an answer's artifacts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Observed {
    /// Each destination path the answer names (safe relative paths only).
    pub destinations: BTreeMap<String, Seen>,
    /// For plan artifacts that name exactly one spec they derive from, that spec.
    pub baselines: BTreeMap<String, SpecBaseline>,
}

/// The base digest of a file's text: the semantic digest of the text as a JSON string.
pub fn base_digest(text: &str) -> String {
    string_digest(text)
}

/// The preview of a proposal: each artifact's path, UTF-8 size and whether it overwrites.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct PreviewEntry {
    /// The path.
    pub path: String,
    /// Its size in bytes.
    pub bytes: usize,
    /// Whether a file is already there.
    pub overwrite: bool,
}

/// A proposal's reach as sealed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ProposalScope {
    /// Whether it read a sensitive source.
    pub sensitive_sources: bool,
    /// Whether it writes past what was shown.
    pub scope_expanded: bool,
}

/// The directive's `proposal` block: what the person decides, never the bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ProposalView {
    /// The seal an approval is given over.
    pub digest: String,
    /// What would be written.
    pub preview: Vec<PreviewEntry>,
    /// The classes publishing it exercises.
    pub effects: Vec<EffectClass>,
    /// Those that need a person's approval.
    pub requires_approval: Vec<EffectClass>,
    /// Its reach.
    pub scope: ProposalScope,
}

fn sorted_classes(list: &[EffectClass]) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = list.iter().map(|c| c.as_str()).collect();
    names.sort_unstable();
    names
}

fn classes_json(list: &[EffectClass]) -> Value {
    Value::Array(list.iter().map(|c| json!(c.as_str())).collect())
}

/// Seals a proposal: its artifacts (`overwrite` as observed), the bases it overwrites, its
/// effects and the classes that need an approval. Returns the proposal as the run state holds
/// it: `{operation, artifacts, preview, bases, scope, effects, requires_approval, digest}`.
pub fn seal(
    operation: &str,
    artifacts: &[(Artifact, bool)],
    bases: &[(String, String)],
    effects: &[EffectClass],
    requires_approval: &[EffectClass],
) -> Value {
    let scope = json!({"sensitive_sources": false, "scope_expanded": false});
    let mut hashed: Vec<(&str, Value)> = artifacts
        .iter()
        .map(|(a, overwrite)| {
            (
                a.path.as_str(),
                json!({
                    "path": a.path,
                    "content_digest": base_digest(&a.content),
                    "overwrite": overwrite,
                }),
            )
        })
        .collect();
    hashed.sort_by(|x, y| locale_cmp(x.0, y.0));
    let mut sorted_bases: Vec<&(String, String)> = bases.iter().collect();
    sorted_bases.sort_by(|x, y| locale_cmp(&x.0, &y.0));
    let bases_json: Vec<Value> = sorted_bases
        .iter()
        .map(|(p, d)| json!({"path": p, "digest": d}))
        .collect();
    let digest = semantic_digest(&json!({
        "operation": operation,
        "artifacts": hashed.into_iter().map(|(_, v)| v).collect::<Vec<_>>(),
        "bases": bases_json,
        "scope": scope,
        "effects": sorted_classes(effects),
        "requires_approval": sorted_classes(requires_approval),
    }));
    json!({
        "operation": operation,
        "artifacts": artifacts
            .iter()
            .map(|(a, o)| json!({"path": a.path, "content": a.content, "overwrite": o}))
            .collect::<Vec<_>>(),
        "preview": artifacts
            .iter()
            .map(|(a, o)| json!({"path": a.path, "bytes": a.content.len(), "overwrite": o}))
            .collect::<Vec<_>>(),
        "bases": bases
            .iter()
            .map(|(p, d)| json!({"path": p, "digest": d}))
            .collect::<Vec<_>>(),
        "scope": scope,
        "effects": classes_json(effects),
        "requires_approval": classes_json(requires_approval),
        "digest": digest,
    })
}

/// Inserts (or replaces) the `> Baseline: <spec>@<digest>` line in a plan's header blockquote:
/// right after the `Derived from` line, else after the header's last quoted line; a header with
/// no quoted line is left as it is.
pub fn with_spec_baseline(plan: &str, baseline: &SpecBaseline) -> String {
    let line = format!("> Baseline: {}@{}", baseline.path, baseline.digest);
    let mut lines: Vec<&str> = plan.split('\n').collect();
    let mut fenced = false;
    let end = lines
        .iter()
        .position(|raw| {
            if raw.trim_start().starts_with("```") {
                fenced = !fenced;
                return false;
            }
            !fenced && raw.starts_with("##") && raw[2..].starts_with(char::is_whitespace)
        })
        .unwrap_or(lines.len());
    let mut last_quote = None;
    let mut derived_at = None;
    for (i, raw) in lines[..end].iter().enumerate() {
        if !raw.trim_start().starts_with('>') {
            continue;
        }
        last_quote = Some(i);
        if is_baseline_line(raw) {
            if *raw == line {
                return plan.to_owned();
            }
            lines[i] = &line;
            return lines.join("\n");
        }
        if raw.to_ascii_lowercase().contains("derived from") {
            derived_at = Some(i);
        }
    }
    let Some(last) = last_quote else {
        return plan.to_owned();
    };
    lines.insert(derived_at.unwrap_or(last) + 1, &line);
    lines.join("\n")
}

/// The spec whose baseline a publication seals into an artifact: when the artifact is a plan
/// (`docs/plans/<plan file name>`) whose header names exactly one spec it derives from, that
/// spec's path (safe and relative); the shell reads it and computes its digest.
pub fn spec_to_seal(path: &str, content: &str) -> Option<String> {
    let name = path.strip_prefix("docs/plans/")?;
    crate::documents::names::parse_name(crate::documents::names::DocKind::Plan, name)?;
    let lines = crate::markdown::scan(content);
    let pre = crate::documents::preamble::find(&lines, 0);
    let spec = crate::documents::relation::derived_spec_path(&lines, pre)?;
    crate::capability::paths::unsafe_relative(spec)
        .is_none()
        .then(|| spec.to_owned())
}

fn is_baseline_line(raw: &str) -> bool {
    let rest = raw.trim_start().trim_start_matches('>').trim_start();
    rest.get(..9)
        .is_some_and(|label| label.eq_ignore_ascii_case("baseline:"))
}

/// Seals the answer's artifacts at a `proposes` row into the proposal the run seats: every
/// destination must have been observed, effects are what the bytes really do (completing this
/// session's own reservation adds, anything else that exists is overwritten), within the row's
/// ceiling, and each overwritten file's current text is recorded as a base.
pub fn seal_from(
    row: &Decision,
    artifacts: &[Artifact],
    observed: &Observed,
    session: &str,
) -> Result<Value, Rejection> {
    let Some(contract) = &row.proposes else {
        return Err(Rejection::spent(
            ErrorCode::FlowArtifactsNotExpected,
            format!("'{}' does not take artifacts.", row.id),
            "Answer without \"artifacts\".",
        ));
    };
    let unseen: Vec<&str> = artifacts
        .iter()
        .filter(|a| !observed.destinations.contains_key(&a.path))
        .map(|a| a.path.as_str())
        .collect();
    if !unseen.is_empty() {
        return Err(Rejection::spent(
            ErrorCode::FlowProposalDestinationUnobserved,
            format!(
                "The current state of {} could not be looked at.",
                unseen.join(", ")
            ),
            "Send the proposal again with destinations relative to the workspace, inside it.",
        ));
    }
    let mut sealed: Vec<(Artifact, bool)> = Vec::with_capacity(artifacts.len());
    let mut bases: Vec<(String, String)> = Vec::new();
    let mut unreadable: Vec<&str> = Vec::new();
    let (mut adds, mut overwrites) = (false, false);
    for a in artifacts {
        let seen = &observed.destinations[&a.path];
        let content = match observed.baselines.get(&a.path) {
            Some(b) => with_spec_baseline(&a.content, b),
            None => a.content.clone(),
        };
        let exists = !matches!(seen, Seen::Absent);
        // Completing this session's own reservation replaces nobody's document.
        let reserved = matches!(seen, Seen::Present(_, Some(owner)) if owner == session);
        if exists && !reserved {
            overwrites = true;
        } else {
            adds = true;
        }
        match seen {
            Seen::Absent => {}
            Seen::Present(d, _) => bases.push((a.path.clone(), d.clone())),
            Seen::Unreadable => {
                bases.push((a.path.clone(), String::new()));
                unreadable.push(&a.path);
            }
        }
        sealed.push((
            Artifact {
                path: a.path.clone(),
                content,
            },
            exists,
        ));
    }
    let mut effects = Vec::new();
    if adds {
        effects.push(EffectClass::LocalAdditive);
    }
    if overwrites {
        effects.push(EffectClass::MutateOverwrite);
    }
    let beyond: Vec<EffectClass> = effects
        .iter()
        .copied()
        .filter(|c| !contract.effects.contains(c))
        .collect();
    if !beyond.is_empty() {
        return Err(Rejection::spent(
            ErrorCode::FlowProposalBeyondContract,
            format!(
                "The proposal would exercise {}, which this boundary does not declare.",
                EffectClass::join(&beyond)
            ),
            format!(
                "Propose only effects of: {} (write new files, or complete this session's own \
                 reservation).",
                EffectClass::join(&contract.effects)
            ),
        ));
    }
    if !unreadable.is_empty() {
        return Err(Rejection::spent(
            ErrorCode::FlowProposalBaseUnreadable,
            format!(
                "The current content of {} could not be read.",
                unreadable.join(", ")
            ),
            "A file that cannot be shown is not proposed for overwriting: check its permissions, \
             then answer again.",
        ));
    }
    let requires: Vec<EffectClass> = effects
        .iter()
        .copied()
        .filter(|c| !c.self_authorizable())
        .collect();
    Ok(seal(
        &format!("flow.{}", row.id),
        &sealed,
        &bases,
        &effects,
        &requires,
    ))
}

fn classes_of(v: Option<&Value>) -> Vec<EffectClass> {
    v.and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(|c| c.as_str().and_then(EffectClass::parse))
                .collect()
        })
        .unwrap_or_default()
}

fn flag(v: &Value, key: &str) -> bool {
    v.get("scope")
        .and_then(|s| s.get(key))
        .and_then(Value::as_bool)
        .unwrap_or(false)
}

/// Whether `row` decides or publishes the run's proposal: a `publishes` row, or one whose
/// action is the internal publication.
pub fn concerns_proposal(row: &Decision) -> bool {
    row.publishes.is_some()
        || row.action.as_ref().is_some_and(|a| {
            matches!(&a.execution, Some(Execution::Internal { operation, .. }) if operation == PUBLISH_OPERATION)
        })
}

/// The seated proposal as the subject of `row`, when `row` decides or publishes it.
pub fn subject(row: &Decision, state: &RunState) -> Option<Subject> {
    let p = state.proposal.as_ref().filter(|_| concerns_proposal(row))?;
    Some(Subject {
        digest: p.get("digest")?.as_str()?.to_owned(),
        effects: classes_of(p.get("effects")),
        reach: Reach {
            sensitive_sources: flag(p, "sensitive_sources"),
            scope_expanded: flag(p, "scope_expanded"),
        },
    })
}

/// The directive's view of the seated proposal at a row that decides or publishes it.
pub fn view(row: &Decision, state: &RunState) -> Option<ProposalView> {
    let p = state.proposal.as_ref().filter(|_| concerns_proposal(row))?;
    let preview = p
        .get("artifacts")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .map(|a| PreviewEntry {
                    path: a
                        .get("path")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_owned(),
                    bytes: a.get("content").and_then(Value::as_str).map_or(0, str::len),
                    overwrite: a.get("overwrite").and_then(Value::as_bool).unwrap_or(false),
                })
                .collect()
        })
        .unwrap_or_default();
    Some(ProposalView {
        digest: p.get("digest")?.as_str()?.to_owned(),
        preview,
        effects: classes_of(p.get("effects")),
        requires_approval: classes_of(p.get("requires_approval")),
        scope: ProposalScope {
            sensitive_sources: flag(p, "sensitive_sources"),
            scope_expanded: flag(p, "scope_expanded"),
        },
    })
}

/// The proposal's artifacts as `(path, content, overwrite)`.
pub fn artifacts_of(p: &Value) -> Vec<(String, String, bool)> {
    p.get("artifacts")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(|a| {
                    Some((
                        a.get("path")?.as_str()?.to_owned(),
                        a.get("content")?.as_str()?.to_owned(),
                        a.get("overwrite")?.as_bool()?,
                    ))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The proposal's bases as `(path, digest)`.
pub fn bases_of(p: &Value) -> Vec<(String, String)> {
    p.get("bases")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(|b| {
                    Some((
                        b.get("path")?.as_str()?.to_owned(),
                        b.get("digest")?.as_str()?.to_owned(),
                    ))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The sorted, distinct artifact paths of a proposal: a publication grant's destinations.
pub fn destinations_of(p: &Value) -> Vec<String> {
    let mut paths: Vec<String> = artifacts_of(p).into_iter().map(|(p, _, _)| p).collect();
    // The reference sorts these with the default JS sort: UTF-16 code units, which is byte
    // order for the paths docs folders hold.
    paths.sort();
    paths.dedup();
    paths
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Ordering;

    #[test]
    fn the_reference_vector_seals_identically() {
        // flow-spec-v22 §16.
        assert_eq!(
            base_digest("old\n"),
            "741341adb416d6bceecfd6c390fd08e68cdac56c397b9a27cd0e11a57e6ee21e"
        );
        let p = seal(
            "flow.spec-refine.save-proposal",
            &[(
                Artifact {
                    path: "docs/specs/001-spec-x.md".into(),
                    content: "# x\n".into(),
                },
                true,
            )],
            &[("docs/specs/001-spec-x.md".into(), base_digest("old\n"))],
            &[EffectClass::MutateOverwrite],
            &[EffectClass::MutateOverwrite],
        );
        assert_eq!(
            p["digest"],
            "440d1a683c90f9d741f1e46e4740624e0cee01d88289590fd218fa203475d945"
        );
        assert_eq!(
            p["preview"],
            json!([{"path": "docs/specs/001-spec-x.md", "bytes": 4, "overwrite": true}])
        );
    }

    #[test]
    fn sealing_is_order_independent_and_every_field_counts() {
        let a = Artifact {
            path: "docs/plans/001-plan-a.md".into(),
            content: "a".into(),
        };
        let b = Artifact {
            path: "docs/plans/002-plan-b.md".into(),
            content: "b".into(),
        };
        let one = seal(
            "op",
            &[(a.clone(), false), (b.clone(), false)],
            &[],
            &[EffectClass::LocalAdditive],
            &[],
        );
        let two = seal(
            "op",
            &[(b.clone(), false), (a.clone(), false)],
            &[],
            &[EffectClass::LocalAdditive],
            &[],
        );
        assert_eq!(one["digest"], two["digest"]);
        let changed = [
            seal("op2", &[(a.clone(), false)], &[], &[], &[]),
            seal("op", &[(a.clone(), true)], &[], &[], &[]),
            seal("op", &[(b.clone(), false)], &[], &[], &[]),
            seal(
                "op",
                &[(a.clone(), false)],
                &[("x".into(), "d".into())],
                &[],
                &[],
            ),
            seal(
                "op",
                &[(a.clone(), false)],
                &[],
                &[EffectClass::LocalAdditive],
                &[],
            ),
            seal(
                "op",
                &[(a.clone(), false)],
                &[],
                &[],
                &[EffectClass::MutateOverwrite],
            ),
        ];
        let base = seal("op", &[(a, false)], &[], &[], &[]);
        for c in &changed {
            assert_ne!(c["digest"], base["digest"], "{c}");
        }
    }

    #[test]
    fn paths_sort_as_the_reference_collates_them() {
        let mut v = vec![
            "docs/B.md",
            "docs/a.md",
            "docs/a_b.md",
            "docs/a-b.md",
            "docs/a.b.md",
        ];
        v.sort_by(|x, y| locale_cmp(x, y));
        assert_eq!(
            v,
            [
                "docs/a_b.md",
                "docs/a-b.md",
                "docs/a.b.md",
                "docs/a.md",
                "docs/B.md"
            ]
        );
        assert_eq!(locale_cmp("a", "A"), Ordering::Less);
        // Accented letters sort with their base letter, as ICU sorts them.
        assert_eq!(locale_cmp("docs/Á.md", "docs/b.md"), Ordering::Less);
        assert_eq!(locale_cmp("docs/ñ.md", "docs/o.md"), Ordering::Less);
        assert_eq!(locale_cmp("docs/n.md", "docs/ñ.md"), Ordering::Less);
        assert_eq!(locale_cmp("docs/á.md", "docs/b.md"), Ordering::Less);
    }

    #[test]
    fn completing_this_sessions_reservation_adds_and_anything_else_overwrites() {
        let j = crate::flow::Journey::builtin(crate::vocab::flow::Flow::PlanNew).unwrap();
        let row = j.find("plan-new.save-proposal").unwrap();
        let art = [Artifact {
            path: "docs/plans/002-plan-x.md".into(),
            content: "# Plan 002 — x\n".into(),
        }];
        let seen = |s: Seen| Observed {
            destinations: [("docs/plans/002-plan-x.md".to_owned(), s)].into(),
            baselines: BTreeMap::new(),
        };
        // This session's reservation (whichever marker spelling it holds): local_additive.
        let own = seen(Seen::Present("d".into(), Some("001-x-plan-new".into())));
        let p = seal_from(row, &art, &own, "001-x-plan-new").unwrap();
        assert_eq!(p["effects"], json!(["local_additive"]));
        assert_eq!(p["requires_approval"], json!([]));
        // Another session's reservation, or a real file: an overwrite plan-new may not make.
        for other in [
            Seen::Present("d".into(), Some("009-other-plan-new".into())),
            Seen::Present("d".into(), None),
        ] {
            let r = seal_from(row, &art, &seen(other), "001-x-plan-new").unwrap_err();
            assert_eq!(r.code, ErrorCode::FlowProposalBeyondContract);
        }
        // A destination nobody looked at is refused before anything else.
        let r = seal_from(row, &art, &Observed::default(), "001-x-plan-new").unwrap_err();
        assert_eq!(r.code, ErrorCode::FlowProposalDestinationUnobserved);
    }

    #[test]
    fn the_baseline_line_goes_after_derived_from_or_replaces_the_old_one() {
        let b = SpecBaseline {
            path: "docs/specs/001-spec-x.md".into(),
            digest: "sha256:ab".into(),
        };
        let plan =
            "# Plan x\n\n> Derived from: docs/specs/001-spec-x.md\n> Status: draft\n\n## F1\n";
        assert_eq!(
            with_spec_baseline(plan, &b),
            "# Plan x\n\n> Derived from: docs/specs/001-spec-x.md\n> Baseline: docs/specs/001-spec-x.md@sha256:ab\n> Status: draft\n\n## F1\n"
        );
        let sealed = with_spec_baseline(plan, &b);
        assert_eq!(with_spec_baseline(&sealed, &b), sealed, "idempotent");
        let other = SpecBaseline {
            digest: "sha256:cd".into(),
            ..b.clone()
        };
        assert!(with_spec_baseline(&sealed, &other).contains("@sha256:cd\n> Status"));
        // A header line with a letter past ASCII around the label's length reads fine.
        let spanish = "# Plan x\n\n> Derived from: docs/specs/001-spec-x.md\n> Aprobación: pendiente\n\n## F1\n";
        assert!(with_spec_baseline(spanish, &b).contains("> Baseline: docs/specs/001-spec-x.md@"));
        // No quoted line in the header: untouched.
        let bare = "# Plan x\n\nDerived from docs/specs/001-spec-x.md\n## F1\n";
        assert_eq!(with_spec_baseline(bare, &b), bare);
        // A quoted line after the header does not count.
        let late = "# Plan x\n\n## F1\n> Derived from: x\n";
        assert_eq!(with_spec_baseline(late, &b), late);
    }
}
