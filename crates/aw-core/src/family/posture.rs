//! The configured posture line: the execution backends' dispatch pins, codex first.

/// One backend's pins, as the manifest declares them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pins {
    /// The short backend label (`codex`, `agy`).
    pub label: &'static str,
    /// `posture.model`.
    pub model: String,
    /// `posture.effort`.
    pub effort: Option<String>,
    /// `posture.tier`; `None` renders as `standard` when the key is declared.
    pub tier: Option<String>,
    /// Whether the posture has a `tier` key (`null` included): without one no tier is shown.
    pub tier_declared: bool,
    /// The service tier an active host setting sets (`CODEX_SERVICE_TIER`, codex only): it wins
    /// over the manifest's and is marked `(bridge-settings)`.
    pub settings_tier: Option<String>,
}

/// The host setting that overrides the codex backend's tier.
pub const TIER_SETTING: &str = "CODEX_SERVICE_TIER";

/// The backends in priority order: manifest name and label.
pub const BACKENDS: [(&str, &str); 2] = [
    ("codex-cli-bridge", "codex"),
    ("antigravity-cli-bridge", "agy"),
];

/// `codex model=… effort=… tier=… · agy model=…`; `None` when no backend declares a posture.
/// A tier shows only for a backend whose posture has a `tier` key: its value, `standard` for
/// `null`, or an active host setting's value marked `(bridge-settings)`.
pub fn posture_line(pins: &[Pins]) -> Option<String> {
    let parts: Vec<String> = pins
        .iter()
        .map(|p| {
            let mut s = format!("{} model={}", p.label, p.model);
            if let Some(e) = &p.effort {
                s.push_str(&format!(" effort={e}"));
            }
            // As the kit renders it: a tier only for a backend whose posture has the key.
            if p.tier_declared {
                match (&p.settings_tier, &p.tier) {
                    (Some(t), _) => s.push_str(&format!(" tier={t} (bridge-settings)")),
                    (None, Some(t)) => s.push_str(&format!(" tier={t}")),
                    (None, None) => s.push_str(" tier=standard"),
                }
            }
            s
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join(" · "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line() {
        let codex = Pins {
            label: "codex",
            model: "m1".into(),
            effort: Some("xhigh".into()),
            tier: None,
            tier_declared: true,
            settings_tier: None,
        };
        let agy = Pins {
            label: "agy",
            model: "Gem (High)".into(),
            effort: None,
            tier: None,
            tier_declared: false,
            settings_tier: None,
        };
        assert_eq!(
            posture_line(&[codex, agy]).unwrap(),
            "codex model=m1 effort=xhigh tier=standard · agy model=Gem (High)"
        );
        assert_eq!(posture_line(&[]), None);
        // An active tier setting wins over the manifest's tier, and says where it came from.
        let fast = Pins {
            label: "codex",
            model: "m1".into(),
            effort: Some("xhigh".into()),
            tier: Some("flex".into()),
            tier_declared: true,
            settings_tier: Some("priority".into()),
        };
        assert_eq!(
            posture_line(std::slice::from_ref(&fast)).unwrap(),
            "codex model=m1 effort=xhigh tier=priority (bridge-settings)"
        );
        // No tier key: no tier, even with an effort or an active setting (the kit's rendering).
        let keyless = Pins {
            tier: None,
            tier_declared: false,
            ..fast
        };
        assert_eq!(
            posture_line(&[keyless]).unwrap(),
            "codex model=m1 effort=xhigh"
        );
    }
}
