//! The human rendering of a receipt (spec §5.7): one line per thing the receipt says, each line
//! derived from one field, in the reference's order, in our words.

use super::plan::DurablePlan;
use super::receipt::CapabilityReceipt;
use crate::vocab::flow::EffectClass;

/// An attempt as a person reads it: the receipt's lines, then, when the attempt proposes a plan,
/// what approving it would write (each file, its size, whether it replaces one) and the digest
/// the approval quotes, so a person can judge the plan from the terminal.
pub fn render_attempt(receipt: &CapabilityReceipt, plan: Option<&DurablePlan>) -> String {
    let mut text = render(receipt);
    if let Some(plan) = plan {
        text.push_str(&format!(
            "\nplan (approval_digest {}):",
            plan.approval_digest
        ));
        for p in &plan.preview {
            let (mark, replaces) = if p.overwrite {
                ("~", ", replaces the file")
            } else {
                ("+", "")
            };
            text.push_str(&format!(
                "\n  {mark} {} ({} bytes{replaces})",
                p.path, p.bytes
            ));
        }
        if !plan.requires_approval.is_empty() {
            text.push_str(&format!(
                "\n  approving grants: {}",
                EffectClass::join(&plan.requires_approval)
            ));
        }
    }
    text
}

/// The receipt as lines of text (no trailing newline on the last).
pub fn render(receipt: &CapabilityReceipt) -> String {
    let c = receipt.correlation();
    let b = receipt.body();
    let mut lines = vec![format!(
        "{}.{} — {} (attempt {})",
        c.capability,
        c.operation,
        b.outcome.as_str(),
        c.attempt
    )];
    if let Some(output) = &b.output {
        if let Some(completeness) = output.completeness {
            lines.push(format!("completeness: {}", completeness.as_str()));
        }
        if let Some(value) = &output.value {
            for path in value["written"].as_array().into_iter().flatten() {
                lines.push(format!("wrote {}", path.as_str().unwrap_or_default()));
            }
            let changed = value["changed_since"].as_array();
            for path in value["already_published"].as_array().into_iter().flatten() {
                let how = if changed.is_some_and(|c| c.contains(path)) {
                    "changed since"
                } else {
                    "unchanged"
                };
                lines.push(format!(
                    "already published, {how}: {}",
                    path.as_str().unwrap_or_default()
                ));
            }
            if let Some(m) = value["design"]["maturity"]["attained"].as_str() {
                lines.push(format!("maturity: {m}"));
            }
            for gap in value["gaps"].as_array().into_iter().flatten() {
                lines.push(format!(
                    "blocks handoff: {}",
                    gap.as_str().unwrap_or_default()
                ));
            }
        }
        if let Some(r) = &output.reference {
            let revision = r.revision.map(|n| format!("@r{n}")).unwrap_or_default();
            lines.push(format!(
                "output: {}{revision} ({}) at {}",
                r.id, r.digest, r.locator
            ));
        }
    }
    if b.floor {
        lines.push("ran the built-in floor".to_owned());
    } else if b.selection.is_empty() {
        lines.push("contributors: none".to_owned());
    } else {
        let who: Vec<String> = b
            .selection
            .iter()
            .map(|s| format!("{}. {}@{}", s.order, s.name, s.digest))
            .collect();
        lines.push(format!("contributors: {}", who.join(", ")));
    }
    for d in &b.degradations {
        lines.push(format!("degradation ({}): {}", d.cause.as_str(), d.loss));
    }
    for v in &b.validations {
        let verdict = if v.passed { "ok" } else { "failed" };
        lines.push(format!("validation {}: {verdict}", v.id));
    }
    if !b.effects.applied.is_empty() {
        lines.push(format!(
            "effects applied: {}",
            EffectClass::join(&b.effects.applied)
        ));
    }
    for gap in &b.gaps {
        lines.push(format!("missing: {gap}"));
    }
    if let Some(e) = &b.error {
        lines.push(format!("error {}: {}", e.code.as_str(), e.message));
    }
    lines.push(format!("next: {}", b.next_action));
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capability::builtin::design_descriptor;
    use crate::capability::descriptor::DegradationCause;
    use crate::capability::error::CapabilityError;
    use crate::capability::receipt::{
        DurableReference, Effects, InputDisposition, OperationOutput, Outcome, ReceiptBody,
        ReceiptDegradation, SelectedInstance, ValidationOutcome,
    };
    use crate::capability::request::CapabilityRequest;
    use crate::capability::test_support::{ID, direct, invocation};
    use crate::error_code::ErrorCode;

    fn receipt(edit: impl FnOnce(&mut ReceiptBody)) -> CapabilityReceipt {
        let d = design_descriptor().unwrap();
        let r = CapabilityRequest::first_attempt(
            &d,
            ID.to_owned(),
            invocation("validate", direct(), &[("package", "DES-001")]),
        )
        .unwrap();
        let mut b = ReceiptBody {
            outcome: Outcome::Completed,
            floor: true,
            selection: Vec::new(),
            inputs: InputDisposition::all_used(&r),
            output: Some(OperationOutput {
                value: None,
                reference: Some(DurableReference {
                    id: "DES-001".into(),
                    revision: Some(2),
                    digest: "sha256:ab".into(),
                    locator: "docs/designs/001-design-x".into(),
                }),
                completeness: Some(crate::capability::descriptor::Completeness::Complete),
            }),
            validations: vec![ValidationOutcome {
                id: "design-manifest".into(),
                passed: false,
                detail: None,
            }],
            effects: Effects {
                planned: vec![EffectClass::ReadOnly],
                approved: Vec::new(),
                applied: vec![EffectClass::ReadOnly],
            },
            degradations: vec![ReceiptDegradation {
                cause: DegradationCause::InvalidBinding,
                loss: "the improvement".into(),
            }],
            gaps: Vec::new(),
            error: None,
            next_action: "done".into(),
        };
        edit(&mut b);
        CapabilityReceipt::build(&r, &d, b).unwrap()
    }

    #[test]
    fn each_field_gives_its_line_in_order() {
        let text = render(&receipt(|_| {}));
        assert_eq!(
            text.lines().collect::<Vec<_>>(),
            [
                "design.validate — completed (attempt 1)",
                "completeness: complete",
                "output: DES-001@r2 (sha256:ab) at docs/designs/001-design-x",
                "ran the built-in floor",
                "degradation (invalid_binding): the improvement",
                "validation design-manifest: failed",
                "effects applied: read_only",
                "next: done",
            ]
        );
    }

    #[test]
    fn contributors_gaps_and_errors_have_their_lines() {
        let text = render(&receipt(|b| {
            b.floor = false;
            b.degradations.clear();
            b.selection = vec![SelectedInstance {
                name: "figma".into(),
                scope: "r".into(),
                locator: "l".into(),
                version: None,
                digest: "d1".into(),
                order: 1,
            }];
            b.outcome = Outcome::Blocked;
            b.output = None;
            b.error = Some(CapabilityError::new(
                ErrorCode::DesignPackageNotFound,
                "no such package",
                "list them",
            ));
        }));
        assert!(text.contains("\ncontributors: 1. figma@d1\n"), "{text}");
        assert!(text.contains("\nerror DESIGN_PACKAGE_NOT_FOUND: no such package\n"));
        let text = render(&receipt(|b| {
            b.outcome = Outcome::NeedsInput;
            b.output = None;
            b.gaps = vec!["the package".into()];
        }));
        assert!(text.contains("\nmissing: the package\n"), "{text}");
    }
}
