//! The human rendering of a receipt (spec §5.7): one line per thing the receipt says, each line
//! derived from one field, in the reference's order, in our words.

use super::receipt::CapabilityReceipt;
use crate::flow::vocab::EffectClass;

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
