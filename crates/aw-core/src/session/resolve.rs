//! The session resolver's rules (§7.2): which folder a session-scoped command acts on.
//!
//! Precedence: an explicit code, then the conversation's binding, then the only active session.
//! Nothing is ever chosen by order or recency, and an explicit code that fails never falls
//! through. This module decides from values; `aw_workspace::sessions::resolver` feeds it the listing and
//! the registry and performs the binding write.

use super::folder::{Match, SessionFolder, SessionState, matches, number, numeric_code};
use crate::error_code::ErrorCode;

/// Whether the caller reads the session or changes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Intent {
    /// Reads; any resolution is fine.
    #[default]
    Read,
    /// Writes: a number shared by two folders is refused, since a write would pick one of them
    /// by chance.
    Write,
}

/// What the caller asks for.
#[derive(Debug, Clone, Copy, Default)]
pub struct Target<'a> {
    /// An explicit code or folder name (`--code`).
    pub code: Option<&'a str>,
    /// Whether a closed session is an acceptable answer.
    pub allow_closed: bool,
    /// Read or write.
    pub intent: Intent,
}

/// What the conversation registry says about the caller's conversation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BindingLookup {
    /// No context id: there is no conversation to look up.
    NoContext,
    /// A context id with no entry.
    Unbound,
    /// Bound to this folder.
    Bound(String),
    /// The registry could not be read (the reason, in English).
    Unreadable(String),
}

/// How a session was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// `--code`.
    Explicit,
    /// The conversation's binding.
    Binding,
    /// The only active session.
    SoleActive,
}

impl Via {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Via::Explicit => "explicit",
            Via::Binding => "binding",
            Via::SoleActive => "sole_active",
        }
    }
}

/// A resolved session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    /// The folder name.
    pub folder: String,
    /// Its state.
    pub state: SessionState,
    /// How it was chosen.
    pub via: Via,
}

/// Why resolution failed; each kind has its wire code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefusalKind {
    /// `SESSION_NOT_FOUND`.
    NotFound,
    /// `SESSION_AMBIGUOUS`: a code that matches several folders, or a number two folders share.
    Ambiguous,
    /// `SESSION_AMBIGUOUS` too: several active sessions and the conversation bound to none of
    /// them. Unlike [`RefusalKind::Ambiguous`], binding the conversation settles it.
    Unbound,
    /// `SESSION_CLOSED`.
    Closed,
    /// `SESSION_BINDING_INVALID`.
    BindingInvalid,
    /// `INVALID_INPUT`: the code itself is malformed.
    InvalidCode,
}

impl RefusalKind {
    /// The stable error code.
    pub fn code(self) -> ErrorCode {
        match self {
            RefusalKind::NotFound => ErrorCode::SessionNotFound,
            RefusalKind::Ambiguous | RefusalKind::Unbound => ErrorCode::SessionAmbiguous,
            RefusalKind::Closed => ErrorCode::SessionClosed,
            RefusalKind::BindingInvalid => ErrorCode::SessionBindingInvalid,
            RefusalKind::InvalidCode => ErrorCode::InvalidInput,
        }
    }
}

/// A session the caller might have meant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The folder name.
    pub folder: String,
    /// Its number as written (`^(?:session)?(\d+)-`), if any.
    pub code: Option<String>,
    /// Its state.
    pub state: SessionState,
}

/// A failed resolution: code, English message, next action and the candidates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The kind (and wire code).
    pub kind: RefusalKind,
    /// What went wrong.
    pub message: String,
    /// What to do next.
    pub action: String,
    /// The folders the caller may have meant.
    pub candidates: Vec<Candidate>,
}

fn candidate(f: &SessionFolder) -> Candidate {
    Candidate {
        folder: f.folder.clone(),
        code: numeric_code(&f.folder),
        state: f.state,
    }
}

fn refuse(
    kind: RefusalKind,
    message: String,
    action: String,
    candidates: &[&SessionFolder],
) -> Refusal {
    Refusal {
        kind,
        message,
        action,
        candidates: candidates.iter().map(|f| candidate(f)).collect(),
    }
}

/// Whether a typed code is well formed: one path component, no `..`, no control characters.
pub fn is_valid_code(code: &str) -> bool {
    let c = code.trim();
    !c.is_empty()
        && c.len() <= 255
        && !c.contains(['/', '\\'])
        && !c.contains("..")
        && !c.chars().any(char::is_control)
}

const LIST_ACTION: &str =
    "Run `aw sessions --all` to see the sessions, then retry with an existing code or folder name.";

/// Resolves a session. `folders` is the listing (any order); `binding` is asked only when no
/// explicit code was given.
pub fn resolve(
    folders: &[SessionFolder],
    target: &Target<'_>,
    binding: impl FnOnce() -> BindingLookup,
) -> Result<Resolution, Refusal> {
    let all: Vec<&SessionFolder> = folders.iter().collect();
    let chosen = if let Some(raw) = target.code {
        explicit(&all, raw.trim(), target.allow_closed)?
    } else {
        implicit(&all, binding(), target.intent)?
    };
    if target.intent == Intent::Write {
        shared_number(&all, &chosen.folder)?;
    }
    Ok(chosen)
}

fn explicit(all: &[&SessionFolder], code: &str, allow_closed: bool) -> Result<Resolution, Refusal> {
    if !is_valid_code(code) {
        return Err(refuse(
            RefusalKind::InvalidCode,
            format!(
                "`{code}` is not a session code: give a number or a folder name, without path separators or `..`."
            ),
            LIST_ACTION.to_owned(),
            all,
        ));
    }
    let hits: Vec<(&SessionFolder, Match)> = all
        .iter()
        .filter_map(|f| matches(&f.folder, code).map(|m| (*f, m)))
        .collect();
    // An exact folder name wins even when it is also a prefix of other folders.
    let exact = hits
        .iter()
        .find(|(_, m)| *m == Match::Exact)
        .map(|(f, _)| *f);
    let found = match (exact, hits.as_slice()) {
        (Some(f), _) => f,
        (None, []) => {
            return Err(refuse(
                RefusalKind::NotFound,
                format!("No session matches '{code}'."),
                LIST_ACTION.to_owned(),
                all,
            ));
        }
        (None, [(f, _)]) => f,
        (None, many) => {
            let names: Vec<&SessionFolder> = many.iter().map(|(f, _)| *f).collect();
            return Err(refuse(
                RefusalKind::Ambiguous,
                format!(
                    "'{code}' matches {} sessions: {}.",
                    names.len(),
                    names
                        .iter()
                        .map(|f| f.folder.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                "Retry with the exact folder name.".to_owned(),
                &names,
            ));
        }
    };
    if found.state == SessionState::Closed && !allow_closed {
        return Err(refuse(
            RefusalKind::Closed,
            format!("Session '{}' is closed.", found.folder),
            format!(
                "Reopen it with `aw session-resume --code {} --reopen`, or pick an active session.",
                found.folder
            ),
            &[found],
        ));
    }
    Ok(Resolution {
        folder: found.folder.clone(),
        state: found.state,
        via: Via::Explicit,
    })
}

fn implicit(
    all: &[&SessionFolder],
    binding: BindingLookup,
    intent: Intent,
) -> Result<Resolution, Refusal> {
    let active: Vec<&SessionFolder> = all
        .iter()
        .copied()
        .filter(|f| f.state == SessionState::Active)
        .collect();
    const REBIND: &str = "Name the session with --code <folder>; `aw session-resume --code <folder> --reopen` binds this conversation to it.";
    match binding {
        BindingLookup::Unreadable(why) => {
            return Err(refuse(
                RefusalKind::BindingInvalid,
                format!("The conversation registry cannot be used: {why}."),
                format!(
                    "Fix or delete .bindings.json in the sessions folder, or {}",
                    lower_first(REBIND)
                ),
                &active,
            ));
        }
        BindingLookup::Bound(folder) => {
            return match all.iter().find(|f| f.folder == folder) {
                None => Err(refuse(
                    RefusalKind::BindingInvalid,
                    format!("This conversation is bound to '{folder}', which no longer exists."),
                    REBIND.to_owned(),
                    &active,
                )),
                Some(f) if f.state == SessionState::Closed => Err(refuse(
                    RefusalKind::BindingInvalid,
                    format!("This conversation is bound to '{folder}', which is closed."),
                    REBIND.to_owned(),
                    &active,
                )),
                Some(f) => Ok(Resolution {
                    folder: f.folder.clone(),
                    state: f.state,
                    via: Via::Binding,
                }),
            };
        }
        BindingLookup::NoContext | BindingLookup::Unbound => {}
    }
    match active.as_slice() {
        [only] => Ok(Resolution {
            folder: only.folder.clone(),
            state: only.state,
            via: Via::SoleActive,
        }),
        [] => Err(refuse(
            RefusalKind::NotFound,
            "There are no active sessions in this workspace.".to_owned(),
            "Create one with `aw session-create`, or name an existing one with --code.".to_owned(),
            all,
        )),
        many => {
            // A write can only be pointed at a folder whose number no other folder shares; when
            // none is left, naming or binding one settles nothing.
            let choosable: Vec<&SessionFolder> = match intent {
                Intent::Read => many.to_vec(),
                Intent::Write => many
                    .iter()
                    .copied()
                    .filter(|f| shared_number(all, &f.folder).is_ok())
                    .collect(),
            };
            let message = format!(
                "There are {} active sessions and this conversation is not bound to any of them.",
                many.len()
            );
            if choosable.is_empty() {
                return Err(shared_number(all, &many[0].folder)
                    .err()
                    .unwrap_or_else(|| {
                        refuse(RefusalKind::Ambiguous, message, String::new(), many)
                    }));
            }
            Err(refuse(
                RefusalKind::Unbound,
                message,
                "Say which one with --code <folder>.".to_owned(),
                &choosable,
            ))
        }
    }
}

fn shared_number(all: &[&SessionFolder], folder: &str) -> Result<(), Refusal> {
    let Some(n) = number(folder) else {
        return Ok(());
    };
    let sharing: Vec<&SessionFolder> = all
        .iter()
        .copied()
        .filter(|f| number(&f.folder).as_ref() == Some(&n))
        .collect();
    if sharing.len() < 2 {
        return Ok(());
    }
    Err(refuse(
        RefusalKind::Ambiguous,
        format!(
            "Session number {} is used by {} folders ({}); changing one of them could hit the wrong session.",
            n.padded(),
            sharing.len(),
            sharing
                .iter()
                .map(|f| f.folder.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        format!(
            "Rename one of these folders to a free number (`aw sessions --all` shows the next one), then retry with the folder name ({}).",
            sharing
                .iter()
                .map(|f| f.folder.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        &sharing,
    ))
}

fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_lowercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(name: &str, closed: bool) -> SessionFolder {
        SessionFolder {
            folder: name.into(),
            state: if closed {
                SessionState::Closed
            } else {
                SessionState::Active
            },
        }
    }

    fn golden() -> Vec<SessionFolder> {
        vec![
            f("session001-dev-foo", false),
            f("session002-analyze-bar", false),
            f("session003-dev-baz", true),
        ]
    }

    fn t(code: Option<&str>, allow_closed: bool) -> Target<'_> {
        Target {
            code,
            allow_closed,
            intent: Intent::Read,
        }
    }

    #[test]
    fn explicit_code_precedence_and_failures() {
        let ws = golden();
        let never = || panic!("the registry must not be read for an explicit code");
        let r = resolve(&ws, &t(Some("1"), true), never).unwrap();
        assert_eq!(
            (r.folder.as_str(), r.via),
            ("session001-dev-foo", Via::Explicit)
        );
        let e = resolve(&ws, &t(Some("999"), true), never).unwrap_err();
        assert_eq!(e.kind.code(), "SESSION_NOT_FOUND");
        assert!(e.message.contains("'999'"));
        assert_eq!(e.candidates.len(), 3);
        assert_eq!(e.candidates[0].code.as_deref(), Some("001"));
        let e = resolve(&ws, &t(Some("003"), false), never).unwrap_err();
        assert_eq!(e.kind, RefusalKind::Closed);
        assert!(resolve(&ws, &t(Some("003"), true), never).is_ok());
        let e = resolve(&ws, &t(Some("../x"), true), never).unwrap_err();
        assert_eq!(e.kind.code(), "INVALID_INPUT");
    }

    #[test]
    fn exact_name_short_circuits_prefix_ambiguity() {
        let ws = vec![f("004-login", false), f("004-login-x", false)];
        let r = resolve(&ws, &t(Some("004-login"), true), || {
            BindingLookup::NoContext
        })
        .unwrap();
        assert_eq!(r.folder, "004-login");
        let e = resolve(&ws, &t(Some("4"), true), || BindingLookup::NoContext).unwrap_err();
        assert_eq!(e.kind, RefusalKind::Ambiguous);
        assert_eq!(e.candidates.len(), 2);
    }

    #[test]
    fn binding_then_sole_active() {
        let ws = golden();
        let e = resolve(&ws, &t(None, true), || BindingLookup::NoContext).unwrap_err();
        assert_eq!(e.kind, RefusalKind::Unbound);
        assert_eq!(e.kind.code(), "SESSION_AMBIGUOUS");
        assert_eq!(e.candidates.len(), 2);
        let r = resolve(&ws, &t(None, true), || {
            BindingLookup::Bound("session002-analyze-bar".into())
        })
        .unwrap();
        assert_eq!(r.via, Via::Binding);
        for bad in [
            BindingLookup::Bound("gone".into()),
            BindingLookup::Bound("session003-dev-baz".into()),
            BindingLookup::Unreadable("not JSON".into()),
        ] {
            let e = resolve(&ws, &t(None, true), || bad.clone()).unwrap_err();
            assert_eq!(e.kind.code(), "SESSION_BINDING_INVALID");
        }
        let one = vec![f("001-a", false), f("002-b", true)];
        let r = resolve(&one, &t(None, false), || BindingLookup::Unbound).unwrap();
        assert_eq!((r.folder.as_str(), r.via), ("001-a", Via::SoleActive));
        let none = vec![f("002-b", true)];
        let e = resolve(&none, &t(None, false), || BindingLookup::Unbound).unwrap_err();
        assert_eq!(e.kind, RefusalKind::NotFound);
    }

    #[test]
    fn writes_refuse_a_shared_number() {
        let ws = vec![f("047-x", false), f("session047-y", false)];
        let mut target = t(Some("047-x"), true);
        assert!(resolve(&ws, &target, || BindingLookup::NoContext).is_ok());
        target.intent = Intent::Write;
        let e = resolve(&ws, &target, || BindingLookup::NoContext).unwrap_err();
        assert_eq!(e.kind, RefusalKind::Ambiguous);
        // With no code, a write is offered only the folders it could act on: none here, so the
        // refusal is the shared number, which no binding settles.
        let e = resolve(&ws, &t(None, true), || BindingLookup::Unbound).unwrap_err();
        assert_eq!(e.kind, RefusalKind::Unbound);
        let mut implicit = t(None, true);
        implicit.intent = Intent::Write;
        let e2 = resolve(&ws, &implicit, || BindingLookup::Unbound).unwrap_err();
        assert_eq!(e2.kind, RefusalKind::Ambiguous);
        let three = vec![
            f("047-x", false),
            f("session047-y", false),
            f("048-z", false),
        ];
        let e3 = resolve(&three, &implicit, || BindingLookup::Unbound).unwrap_err();
        assert_eq!(e3.kind, RefusalKind::Unbound);
        assert_eq!(e3.candidates.len(), 1, "only 048-z can be written");
        let e = resolve(&ws, &target, || BindingLookup::NoContext).unwrap_err();
        // aw has no `workspace-migrate`: the action names what to rename.
        assert!(!e.action.contains("workspace-migrate"));
        assert!(e.action.contains("047-x, session047-y"), "{}", e.action);
    }
}
