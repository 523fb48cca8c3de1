//! PO1–PO5: `posture`, the dispatch pins (model, effort, tier) a member asks callers to use.
//!
//! The vocabulary is closed so a misspelt pin is reported instead of silently ignored.

use super::{Ctx, js};

/// The keys `posture` may carry.
const KEYS: [&str; 3] = ["model", "effort", "tier"];

pub(super) fn check(cx: &mut Ctx) {
    // Own-key presence: `"posture": null` is a malformed block, not an absent one.
    let Some(posture) = cx.root.get("posture") else {
        return;
    };
    let Some(posture) = posture.as_object() else {
        cx.fail(
            "posture.not-object",
            "posture",
            format!(
                "must be an object of dispatch pins (found {})",
                js::describe(Some(posture))
            ),
        );
        return;
    };
    if js::non_empty_str(posture.get("model")).is_none() {
        cx.fail(
            "posture.model",
            "posture.model",
            format!(
                "must be a non-empty string (found {})",
                js::describe(posture.get("model"))
            ),
        );
    }
    if let Some(effort) = posture.get("effort")
        && js::non_empty_str(Some(effort)).is_none()
    {
        cx.fail(
            "posture.effort",
            "posture.effort",
            format!(
                "must be a non-empty string when declared (found {})",
                js::describe(Some(effort))
            ),
        );
    }
    if let Some(tier) = posture.get("tier")
        && !tier.is_null()
        && js::non_empty_str(Some(tier)).is_none()
    {
        cx.fail(
            "posture.tier",
            "posture.tier",
            format!(
                "must be null or a non-empty string when declared (found {})",
                js::describe(Some(tier))
            ),
        );
    }
    let unknown: Vec<String> = js::entries(posture)
        .filter(|(k, _)| !KEYS.contains(k))
        .map(|(k, _)| js::quote_str(k))
        .collect();
    if !unknown.is_empty() {
        cx.fail(
            "posture.unknown-key",
            "posture",
            format!(
                "has unknown key(s) {} (allowed: {})",
                unknown.join(", "),
                KEYS.join(", ")
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    fn found(posture: Value) -> Vec<(&'static str, String)> {
        super::super::memory::testing::findings_with("posture", posture)
            .into_iter()
            .map(|f| (f.rule, f.message))
            .collect()
    }

    #[test]
    fn null_posture_is_malformed() {
        assert_eq!(found(json!(null))[0].0, "posture.not-object");
        assert_eq!(found(json!([]))[0].0, "posture.not-object");
    }

    #[test]
    fn pins() {
        assert!(found(json!({"model": "m", "effort": "high", "tier": null})).is_empty());
        let rules: Vec<_> = found(json!({"effort": null, "tier": ""}))
            .into_iter()
            .map(|(r, _)| r)
            .collect();
        assert_eq!(rules, ["posture.model", "posture.effort", "posture.tier"]);
    }

    #[test]
    fn unknown_keys_are_listed_once_in_key_order() {
        let f = found(json!({"model": "m", "zeta": 1, "7": 1, "alpha": 2}));
        assert_eq!(f.len(), 1);
        assert!(f[0].1.contains(r#""7", "zeta", "alpha""#), "{}", f[0].1);
    }
}
