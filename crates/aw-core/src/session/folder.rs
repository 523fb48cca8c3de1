//! Session folder identity: the two layouts (`NNN-<descriptor>` and the legacy
//! `sessionNNN-<name>`), state, numbers and how a typed code matches a folder.

use crate::vocab::correlative::{Correlative, highest_and_next};

/// Whether a session is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SessionState {
    /// No `.closed` sentinel.
    Active,
    /// The folder holds `.closed`.
    Closed,
}

impl SessionState {
    /// The wire spelling: `active` or `closed`.
    pub fn as_str(self) -> &'static str {
        match self {
            SessionState::Active => "active",
            SessionState::Closed => "closed",
        }
    }

    /// Parses the wire spelling.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "active" => Some(SessionState::Active),
            "closed" => Some(SessionState::Closed),
            _ => None,
        }
    }
}

/// One session folder as listed: its name and its state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionFolder {
    /// The folder name (one path component).
    pub folder: String,
    /// Active or closed.
    pub state: SessionState,
}

/// The identity the reference derives from a folder name: legacy `session(\d{3})-(.+)` gives
/// `code = NNN`, `name = rest`; any other folder is its own code and name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// `NNN` for legacy folders, else the folder name.
    pub code: String,
    /// The name part for legacy folders, else the folder name.
    pub name: String,
}

/// The identity of a folder name.
pub fn identity(folder: &str) -> Identity {
    if let Some(rest) = folder.strip_prefix("session") {
        let b = rest.as_bytes();
        if b.len() > 4 && b[..3].iter().all(u8::is_ascii_digit) && b[3] == b'-' {
            return Identity {
                code: rest[..3].to_owned(),
                name: rest[4..].to_owned(),
            };
        }
    }
    Identity {
        code: folder.to_owned(),
        name: folder.to_owned(),
    }
}

/// The digits of `^(?:session)?(\d+)-`, as written (used for candidates and primary codes).
pub fn numeric_code(folder: &str) -> Option<String> {
    let rest = folder.strip_prefix("session").unwrap_or(folder);
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    (digits > 0 && rest.as_bytes().get(digits) == Some(&b'-')).then(|| rest[..digits].to_owned())
}

/// The session number a folder occupies, in either layout (`004-x`, `session004-x`), with the
/// correlative grammar.
pub fn number(folder: &str) -> Option<Correlative> {
    let rest = folder.strip_prefix("session").unwrap_or(folder);
    Correlative::of_name(rest)
}

/// The next session number (§7.1, the reference's v22 rule): one more than the highest of the
/// numbered folders in both layouts and the keys of the history rows, so a legacy
/// `session001-…` or a row whose folder is gone is never numbered again. Returns `(max, next)`.
pub fn next_session<'a>(
    folders: impl IntoIterator<Item = &'a str>,
    history_keys: impl IntoIterator<Item = &'a str>,
) -> (Correlative, Correlative) {
    highest_and_next(
        folders
            .into_iter()
            .filter_map(number)
            .chain(history_keys.into_iter().filter_map(number)),
    )
}

/// Whether a folder is listed as a session: a visible (non-dot) name.
pub fn is_session_entry(name: &str) -> bool {
    !name.is_empty() && !name.starts_with('.')
}

/// How a typed code matched a folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Match {
    /// The code is the folder name.
    Exact,
    /// The code is a number or a name prefix of the folder.
    Prefix,
}

/// Whether `input` designates `folder`: the exact folder name; a number (or `sessionN`)
/// left-padded to three digits that starts the folder as `d-` or `sessiond-`; or a prefix
/// `<input>-` of the folder.
pub fn matches(folder: &str, input: &str) -> Option<Match> {
    if folder == input {
        return Some(Match::Exact);
    }
    let bare = input.strip_prefix("session").unwrap_or(input);
    if !bare.is_empty() && bare.bytes().all(|b| b.is_ascii_digit()) {
        let d = format!("{bare:0>3}");
        if folder.starts_with(&format!("{d}-")) || folder.starts_with(&format!("session{d}-")) {
            return Some(Match::Prefix);
        }
    }
    (!input.is_empty() && folder.starts_with(&format!("{input}-"))).then_some(Match::Prefix)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_of_both_layouts() {
        assert_eq!(
            identity("session001-dev-foo"),
            Identity {
                code: "001".into(),
                name: "dev-foo".into()
            }
        );
        let cur = identity("004-login-spec-refine");
        assert_eq!(cur.code, "004-login-spec-refine");
        assert_eq!(cur.name, cur.code);
        assert_eq!(identity("session1000-x").code, "session1000-x");
        assert_eq!(identity("session001-").code, "session001-");
    }

    #[test]
    fn numeric_codes_and_numbers() {
        assert_eq!(numeric_code("session001-dev-foo").as_deref(), Some("001"));
        assert_eq!(numeric_code("12-x").as_deref(), Some("12"));
        assert_eq!(numeric_code("abc"), None);
        assert_eq!(numeric_code("001"), None);
        assert_eq!(number("session003-dev-baz").unwrap().padded(), "003");
        assert_eq!(number("1000-big").unwrap().padded(), "1000");
        assert_eq!(number("12-short"), None);
        assert_eq!(number("notes"), None);
    }

    #[test]
    fn next_session_counts_both_layouts_and_history() {
        let (_, n) = next_session(
            ["session001-dev-foo", "session003-dev-baz"],
            ["001-dev-foo"],
        );
        assert_eq!(n.padded(), "004");
        let (_, n) = next_session(["002-a"], ["009-gone", "777"]);
        assert_eq!(n.padded(), "778");
        let (max, n) = next_session([], []);
        assert_eq!((max.padded(), n.padded()), ("000".into(), "001".into()));
        assert_eq!(next_session(["999-x"], []).1.padded(), "1000");
    }

    #[test]
    fn matching_rules() {
        assert_eq!(matches("001-a", "001-a"), Some(Match::Exact));
        assert_eq!(matches("001-a", "1"), Some(Match::Prefix));
        assert_eq!(matches("session001-dev-foo", "001"), Some(Match::Prefix));
        assert_eq!(
            matches("session001-dev-foo", "session1"),
            Some(Match::Prefix)
        );
        assert_eq!(matches("004-login-x", "004-login"), Some(Match::Prefix));
        assert_eq!(matches("004-login-x", "004-log"), None);
        assert_eq!(matches("010-a", "01"), None);
        assert_eq!(matches("001-a", ""), None);
    }

    #[test]
    fn states_round_trip() {
        for s in [SessionState::Active, SessionState::Closed] {
            assert_eq!(SessionState::parse(s.as_str()), Some(s));
        }
        assert_eq!(SessionState::parse("open"), None);
        assert!(is_session_entry("001-x"));
        assert!(!is_session_entry(".bindings.json"));
    }
}
