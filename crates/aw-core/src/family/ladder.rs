//! The detection ladder: not-installed → unsupported → invalid → stub → foreign → ok. The first
//! rung that applies decides, so a foreign manifest that is also invalid reads as invalid.

use super::roster::Member;
use serde::Serialize;

/// Where a member's copy stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum State {
    /// No marker file where the member should be.
    NotInstalled,
    /// The manifest declares a schema aw does not understand.
    Unsupported,
    /// The manifest fails validation.
    Invalid,
    /// The manifest says `"available": false`.
    Stub,
    /// A valid manifest of another member (wrong `kind` or `name`).
    Foreign,
    /// The member, valid and available.
    Ok,
}

impl State {
    /// The label used in output.
    pub fn label(self) -> &'static str {
        match self {
            State::NotInstalled => "not-installed",
            State::Unsupported => "unsupported",
            State::Invalid => "invalid",
            State::Stub => "stub",
            State::Foreign => "foreign",
            State::Ok => "ok",
        }
    }
}

/// What the validator said about one copy, reduced to what the ladder reads.
#[derive(Debug, Clone, PartialEq)]
pub struct ManifestFacts {
    /// The validator's class: `valid`, `invalid` or `unsupported`.
    pub class: &'static str,
    /// The manifest `name`, as written.
    pub name: Option<serde_json::Value>,
    /// The manifest `kind`, as written.
    pub kind: Option<serde_json::Value>,
    /// `false` only for `"available": false`.
    pub available: Option<bool>,
    /// The first failed check's message.
    pub first_error: Option<String>,
}

/// A rung and the sentence that explains it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classified {
    /// The rung.
    pub state: State,
    /// Why (the first error for unsupported and invalid); `None` for ok.
    pub reason: Option<String>,
}

/// Places one copy on the ladder; `facts` is `None` when the marker file is missing.
pub fn classify(member: &Member, facts: Option<&ManifestFacts>) -> Classified {
    let Some(f) = facts else {
        return Classified {
            state: State::NotInstalled,
            reason: Some(format!("no {} in the install folder", member.file)),
        };
    };
    let first = || f.first_error.clone().unwrap_or_default();
    let (state, reason) = match f.class {
        "unsupported" => (State::Unsupported, Some(first())),
        "valid" => {
            let name = f.name.as_ref().and_then(|v| v.as_str());
            let kind = f.kind.as_ref().and_then(|v| v.as_str());
            if f.available == Some(false) {
                (
                    State::Stub,
                    Some("the manifest says \"available\": false".to_owned()),
                )
            } else if kind != Some(member.kind) {
                (
                    State::Foreign,
                    Some(format!(
                        "kind is {} where {} is expected",
                        shown(f.kind.as_ref()),
                        member.kind
                    )),
                )
            } else if name != Some(member.name) {
                (
                    State::Foreign,
                    Some(format!(
                        "name is {} where {} is expected",
                        shown(f.name.as_ref()),
                        member.name
                    )),
                )
            } else {
                (State::Ok, None)
            }
        }
        _ => (State::Invalid, Some(first())),
    };
    Classified { state, reason }
}

fn shown(v: Option<&serde_json::Value>) -> String {
    v.map_or_else(|| "missing".to_owned(), serde_json::Value::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::MEMBERS;
    use serde_json::json;

    fn facts(class: &'static str, name: &str, kind: &str, available: bool) -> ManifestFacts {
        ManifestFacts {
            class,
            name: Some(json!(name)),
            kind: Some(json!(kind)),
            available: Some(available),
            first_error: Some("first".into()),
        }
    }

    #[test]
    fn each_rung_in_order() {
        let m = &MEMBERS[3];
        let state = |f: Option<&ManifestFacts>| classify(m, f).state;
        assert_eq!(state(None), State::NotInstalled);
        let ok = facts("valid", m.name, m.kind, true);
        assert_eq!(state(Some(&ok)), State::Ok);
        assert_eq!(classify(m, Some(&ok)).reason, None);
        let u = facts("unsupported", "x", "y", false);
        assert_eq!(classify(m, Some(&u)).reason.as_deref(), Some("first"));
        assert_eq!(state(Some(&u)), State::Unsupported);
        // Invalid wins over stub and foreign.
        assert_eq!(
            state(Some(&facts("invalid", "x", "y", false))),
            State::Invalid
        );
        // Stub wins over foreign.
        assert_eq!(state(Some(&facts("valid", "x", "y", false))), State::Stub);
        assert_eq!(
            state(Some(&facts("valid", m.name, "memory-substrate", true))),
            State::Foreign
        );
        let wrong_name = classify(m, Some(&facts("valid", "other", m.kind, true)));
        assert_eq!(wrong_name.state, State::Foreign);
        assert!(wrong_name.reason.unwrap().contains("\"other\""));
    }
}
