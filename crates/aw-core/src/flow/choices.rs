//! The choices offered at human and authorization boundaries, with the two flow-control
//! choices (pause to compact, stop) the engine always appends.

use super::boundary::Resolved;
use super::registry::{Choice, Decision};
use crate::vocab::flow::{BoundaryKind, EffectClass, PAUSE_LABEL, STOP_LABEL};

/// The label of the generic choice of a human row without alternatives.
pub const RESOLVE_LABEL: &str = "Resolve the boundary";
/// The label that approves the missing effects at an authorization boundary.
pub const AUTHORIZE_LABEL: &str = "Authorize the effect";

/// The choices a resolved boundary offers: a human or authorization row's, none elsewhere. The
/// directive shows these and `submit` admits an answer against the same list.
pub fn boundary_choices(resolved: &Resolved<'_>) -> Vec<Choice> {
    match (resolved.kind, resolved.stopped) {
        (BoundaryKind::Human, Some(r)) => human_choices(r),
        (BoundaryKind::Authorization, Some(r)) => authorization_choices(
            r,
            resolved
                .authorization
                .as_ref()
                .map(|a| a.missing.as_slice())
                .unwrap_or_default(),
        ),
        _ => Vec::new(),
    }
}

fn control(stop_consequence: String) -> [Choice; 2] {
    [
        Choice {
            label: PAUSE_LABEL.into(),
            consequence: "the CHECKPOINT is persisted and the run resumes at this same boundary \
                          once the context has been compacted"
                .into(),
            recommended: false,
        },
        Choice {
            label: STOP_LABEL.into(),
            consequence: stop_consequence.into(),
            recommended: false,
        },
    ]
}

/// The choices of a human boundary: the row's alternatives (or the generic one), then the flow
/// control.
pub fn human_choices(row: &Decision) -> Vec<Choice> {
    let mut out = match &row.alternatives {
        Some(alts) if !alts.is_empty() => alts.to_vec(),
        _ => vec![Choice {
            label: RESOLVE_LABEL.into(),
            consequence: format!(
                "you decide '{}' and the journey goes on from there",
                row.title
            )
            .into(),
            recommended: true,
        }],
    };
    out.extend(control(
        "the journey stops here, with its state and its boundary persisted".to_owned(),
    ));
    out
}

/// The choices of an authorization boundary.
pub fn authorization_choices(row: &Decision, missing: &[EffectClass]) -> Vec<Choice> {
    let classes = EffectClass::join(missing);
    let mut out = vec![Choice {
        label: AUTHORIZE_LABEL.into(),
        consequence: format!(
            "'{}' exercises {classes} and the journey goes on; the authorization is recorded in the run",
            row.title
        )
        .into(),
        recommended: true,
    }];
    out.extend(control(format!(
        "{classes} is not exercised and the journey stops here, with nothing applied"
    )));
    out
}
