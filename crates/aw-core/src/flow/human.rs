//! The human projection of a directive: what a person reads on a terminal. It never presents the
//! doctrine document as a rule to apply.

use super::directive::Directive;
use crate::vocab::flow::{EffectClass, StepOutcome};

/// Renders a directive as lines of text (no trailing newline).
pub fn render(d: &Directive) -> String {
    let mut lines = vec![format!(
        "{} ({}) — {} boundary: {}",
        d.flow.as_str(),
        d.tranche.as_str(),
        d.boundary.kind.as_str(),
        d.outcome.as_str()
    )];
    if let Some(t) = &d.boundary.transition {
        let mut l = format!("stopped at {t}");
        if let Some(o) = &d.boundary.ownership {
            l.push_str(&format!(" · {o}"));
        }
        if let Some(title) = &d.boundary.title {
            l.push_str(&format!(" — {title}"));
        }
        lines.push(l);
    }
    if !d.applied.is_empty() {
        let steps: Vec<String> = d
            .applied
            .iter()
            .map(|s| match s.outcome {
                StepOutcome::Applied => {
                    format!(
                        "{} ({} · {})",
                        s.transition,
                        s.authority.as_str(),
                        s.ownership
                    )
                }
                StepOutcome::Skipped => format!(
                    "{} ({} · {} · SKIPPED: {})",
                    s.transition,
                    s.authority.as_str(),
                    s.ownership,
                    s.reason.as_deref().unwrap_or_default()
                ),
            })
            .collect();
        lines.push(format!("steps of this call: {}", steps.join(", ")));
    }
    if !d.pending.is_empty() {
        lines.push(format!("pending: {}", d.pending.len()));
    }
    if let Some(r) = &d.request {
        lines.push(format!("answer contract: {}", r.contract));
        let read = if r.read_set.is_empty() {
            "none".to_owned()
        } else {
            r.read_set.join(", ")
        };
        lines.push(format!("read set shown: {read}"));
    }
    if let Some(a) = &d.action {
        let inv = &a.invocation;
        lines.push(format!("run: {}", inv.command_line()));
        let stdin = if inv.input.is_some() {
            " (with input on stdin)"
        } else {
            ""
        };
        lines.push(format!("in: {}{stdin}", inv.target));
        lines.push(format!("evidence required: {}", a.evidence.join(", ")));
        lines.push(format!("if it fails or is partial: {}", a.recovery));
    }
    for c in &d.choices {
        if c.recommended {
            lines.push(format!("· (recommended) {} — {}", c.label, c.consequence));
        } else {
            lines.push(format!("· {} — {}", c.label, c.consequence));
        }
    }
    if !d.authorizations.is_empty() {
        lines.push(format!(
            "effects allowed: {}",
            EffectClass::join(&d.authorizations)
        ));
    }
    if !d.effects.applied.is_empty() {
        lines.push(format!(
            "effects applied: {}",
            EffectClass::join(&d.effects.applied)
        ));
    }
    for g in &d.degradations {
        lines.push(format!("degraded ({}): {}", g.cause, g.loss));
    }
    if let Some(e) = &d.error {
        lines.push(format!("error {}: {}", e.code, e.message));
    }
    lines.push(format!("continuity: {}", d.state_digest));
    lines.push(format!("next: {}", d.next_action));
    lines.join("\n")
}
