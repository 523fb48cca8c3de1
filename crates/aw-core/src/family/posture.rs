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

/// What one backend's posture source gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PostureState {
    /// A posture block with its pins.
    Pinned,
    /// A manifest without a posture block.
    Absent,
    /// A malformed posture block.
    Invalid,
    /// A manifest expected but not read (a bundled copy, or an installed folder, without one that
    /// parses).
    Unreadable,
    /// Nothing installed to read.
    NotInstalled,
}

impl PostureState {
    /// The wire spelling.
    pub fn label(self) -> &'static str {
        match self {
            PostureState::Pinned => "pinned",
            PostureState::Absent => "absent",
            PostureState::Invalid => "invalid",
            PostureState::Unreadable => "unreadable",
            PostureState::NotInstalled => "not-installed",
        }
    }

    /// The state of a source whose manifest could not be read: unreadable when one was
    /// `expected` there (a bundled copy, an installed folder), else not installed.
    pub fn unread(expected: bool) -> PostureState {
        if expected {
            PostureState::Unreadable
        } else {
            PostureState::NotInstalled
        }
    }

    /// Whether this source silences the whole line, as the family's tools do: a malformed
    /// posture or an unreadable manifest.
    pub fn silences(self) -> bool {
        matches!(self, PostureState::Invalid | PostureState::Unreadable)
    }
}

/// The backend (by label) whose tier the host setting [`TIER_SETTING`] overrides: the first of
/// [`BACKENDS`].
pub const TIER_SETTING_BACKEND: &str = BACKENDS[0].1;

/// What a backend's manifest declares under `posture`, as the manifest reader found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Declared {
    /// No `posture` block.
    Absent,
    /// A malformed block, with the validator's messages.
    Invalid(Vec<String>),
    /// The block's pins.
    Pins {
        /// `posture.model`.
        model: String,
        /// `posture.effort`.
        effort: Option<String>,
        /// `posture.tier`.
        tier: Option<String>,
        /// Whether the block has a `tier` key.
        tier_declared: bool,
    },
}

/// One backend's posture as the line reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judged {
    /// What its source gives.
    pub state: PostureState,
    /// Its pins, when pinned.
    pub pins: Option<Pins>,
    /// Why its block is malformed.
    pub errors: Vec<String>,
}

/// Judges the backend `label` from what its manifest declares (`None`: no manifest read, with
/// one `expected` there or not). `settings_tier` gives an active host setting's tier; it is asked
/// only for a pinned backend the setting overrides ([`TIER_SETTING_BACKEND`]).
pub fn judge(
    label: &'static str,
    declared: Option<Declared>,
    expected: bool,
    settings_tier: impl FnOnce() -> Option<String>,
) -> Judged {
    let (state, pins, errors) = match declared {
        None => (PostureState::unread(expected), None, Vec::new()),
        Some(Declared::Absent) => (PostureState::Absent, None, Vec::new()),
        Some(Declared::Invalid(errors)) => (PostureState::Invalid, None, errors),
        Some(Declared::Pins {
            model,
            effort,
            tier,
            tier_declared,
        }) => {
            let pins = Pins {
                label,
                model,
                effort,
                tier,
                tier_declared,
                settings_tier: if label == TIER_SETTING_BACKEND {
                    settings_tier()
                } else {
                    None
                },
            };
            (PostureState::Pinned, Some(pins), Vec::new())
        }
    };
    Judged {
        state,
        pins,
        errors,
    }
}

/// The configured line of the backends, each given as its state and its pins when pinned: none
/// when any source silences it (see [`PostureState::silences`]), else [`posture_line`].
pub fn configured_line<'p>(
    backends: impl IntoIterator<Item = (PostureState, Option<&'p Pins>)> + Clone,
) -> Option<String> {
    if backends.clone().into_iter().any(|(s, _)| s.silences()) {
        return None;
    }
    let pins: Vec<Pins> = backends
        .into_iter()
        .filter_map(|(_, p)| p.cloned())
        .collect();
    posture_line(&pins)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_backend_is_judged_from_what_its_manifest_declares() {
        let pins = || Declared::Pins {
            model: "m".into(),
            effort: None,
            tier: None,
            tier_declared: true,
        };
        let none = || None;
        assert_eq!(
            judge("codex", None, true, none).state,
            PostureState::Unreadable
        );
        assert_eq!(
            judge("codex", None, false, none).state,
            PostureState::NotInstalled
        );
        assert_eq!(
            judge("agy", Some(Declared::Absent), true, none).state,
            PostureState::Absent
        );
        let bad = judge("agy", Some(Declared::Invalid(vec!["x".into()])), true, none);
        assert_eq!(
            (bad.state, bad.errors),
            (PostureState::Invalid, vec!["x".into()])
        );
        // The host setting overrides the codex tier only.
        let codex = judge("codex", Some(pins()), true, || Some("flex".into()));
        assert_eq!(codex.pins.unwrap().settings_tier.as_deref(), Some("flex"));
        // The setting is not even read for a backend it does not override.
        let agy = judge("agy", Some(pins()), true, || {
            unreachable!("agy takes no host tier")
        });
        assert_eq!(agy.state, PostureState::Pinned);
        assert_eq!(agy.pins.unwrap().settings_tier, None);
    }

    #[test]
    fn a_malformed_or_unreadable_source_silences_the_line() {
        let codex = Pins {
            label: "codex",
            model: "m1".into(),
            effort: None,
            tier: None,
            tier_declared: false,
            settings_tier: None,
        };
        let line = |second: PostureState| {
            configured_line([(PostureState::Pinned, Some(&codex)), (second, None)])
        };
        assert_eq!(
            line(PostureState::Absent).as_deref(),
            Some("codex model=m1")
        );
        assert_eq!(
            line(PostureState::NotInstalled).as_deref(),
            Some("codex model=m1")
        );
        assert_eq!(line(PostureState::Invalid), None);
        assert_eq!(line(PostureState::Unreadable), None);
        assert_eq!(PostureState::unread(true), PostureState::Unreadable);
        assert_eq!(PostureState::unread(false), PostureState::NotInstalled);
        assert_eq!(PostureState::NotInstalled.label(), "not-installed");
    }

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
