//! Signal thresholds: whether a conditional row fires, and why it is skipped when it does not.

use super::journey::Journey;
use super::registry::{Decision, Threshold};
use super::state::RunState;

/// Whether a threshold fired: the distinct observed signals of the observed row that belong to
/// its vocabulary (narrowed to `of` when given) reach `min`. An observed row absent from the
/// journey, or never observed, does not fire: borderline goes on without asking.
pub fn threshold_fired(rule: &Threshold, journey: &Journey<'_>, state: &RunState) -> bool {
    let Some(observed) = journey.find(&rule.observed) else {
        return false;
    };
    let vocabulary: Vec<&str> = observed
        .signals()
        .iter()
        .filter(|s| rule.of.as_ref().is_none_or(|of| of.contains(s)))
        .map(|s| s.as_ref())
        .collect();
    let mut seen: Vec<&str> = Vec::new();
    for s in state.observed_at(&rule.observed) {
        let s = s.as_str();
        if vocabulary.contains(&s) && !seen.contains(&s) {
            seen.push(s);
        }
    }
    seen.len() >= rule.min
}

/// The reason a row is skipped by its condition, or `None` when it is not.
pub fn skip_reason<'a>(
    row: &'a Decision,
    journey: &Journey<'_>,
    state: &RunState,
) -> Option<&'a str> {
    let condition = row.condition.as_ref()?;
    if threshold_fired(&condition.threshold, journey, state) {
        None
    } else {
        Some(condition.otherwise.as_ref())
    }
}
