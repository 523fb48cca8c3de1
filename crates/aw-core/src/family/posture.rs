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
    /// `posture.tier`; `None` renders as `standard` for a backend that pins effort.
    pub tier: Option<String>,
}

/// The backends in priority order: manifest name and label.
pub const BACKENDS: [(&str, &str); 2] = [
    ("codex-cli-bridge", "codex"),
    ("antigravity-cli-bridge", "agy"),
];

/// `codex model=… effort=… tier=… · agy model=…`; `None` when no backend declares a posture.
pub fn posture_line(pins: &[Pins]) -> Option<String> {
    let parts: Vec<String> = pins
        .iter()
        .map(|p| {
            let mut s = format!("{} model={}", p.label, p.model);
            if let Some(e) = &p.effort {
                s.push_str(&format!(" effort={e}"));
                s.push_str(&format!(
                    " tier={}",
                    p.tier.as_deref().unwrap_or("standard")
                ));
            } else if let Some(t) = &p.tier {
                s.push_str(&format!(" tier={t}"));
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
        };
        let agy = Pins {
            label: "agy",
            model: "Gem (High)".into(),
            effort: None,
            tier: None,
        };
        assert_eq!(
            posture_line(&[codex, agy]).unwrap(),
            "codex model=m1 effort=xhigh tier=standard · agy model=Gem (High)"
        );
        assert_eq!(posture_line(&[]), None);
    }
}
