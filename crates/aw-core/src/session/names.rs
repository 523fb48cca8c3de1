//! Session names: the four session types, the type a descriptor's suffix implies, and the
//! descriptor grammar that keeps a session folder inside `sessions/`.

/// What kind of work a session does (`--type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionType {
    /// `research`.
    Research,
    /// `refine`.
    Refine,
    /// `exec`.
    Exec,
    /// `quick`.
    Quick,
}

impl SessionType {
    /// Every type, in the reference's order.
    pub const ALL: [SessionType; 4] = [
        SessionType::Research,
        SessionType::Refine,
        SessionType::Exec,
        SessionType::Quick,
    ];

    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            SessionType::Research => "research",
            SessionType::Refine => "refine",
            SessionType::Exec => "exec",
            SessionType::Quick => "quick",
        }
    }

    /// Parses a type, case-insensitively and trimmed (`QUICK` is `quick`).
    pub fn parse(s: &str) -> Option<Self> {
        let lower = s.trim().to_ascii_lowercase();
        Self::ALL.into_iter().find(|t| t.as_str() == lower)
    }
}

/// The type a descriptor's flow suffix implies: `-spec-refine`, `-plan-new`, `-plan-refine` →
/// refine; `-plan-exec` → exec; `-quick` → quick; anything else none.
pub fn type_from_suffix(name: &str) -> Option<SessionType> {
    const SUFFIXES: [(&str, SessionType); 5] = [
        ("-spec-refine", SessionType::Refine),
        ("-plan-new", SessionType::Refine),
        ("-plan-refine", SessionType::Refine),
        ("-plan-exec", SessionType::Exec),
        ("-quick", SessionType::Quick),
    ];
    SUFFIXES
        .iter()
        .find(|(s, _)| name.ends_with(s))
        .map(|(_, t)| *t)
}

/// Why a `--name` cannot be a session descriptor.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DescriptorError {
    /// Nothing left once trimmed (and once a leading `NNN-` is dropped).
    #[error("the session name is empty")]
    Empty,
    /// A path separator, `..`, a control character or a character file systems refuse.
    #[error(
        "the session name `{0}` must be a single folder name: no `/`, `\\`, `..`, control characters or any of : * ? \" < > |"
    )]
    NotOneComponent(String),
    /// Starts with `.` (a hidden folder is not listed as a session).
    #[error("the session name `{0}` must not start with `.`")]
    Hidden(String),
    /// Longer than a folder name may be.
    #[error("the session name is longer than {MAX_DESCRIPTOR_BYTES} bytes")]
    TooLong,
}

/// The longest descriptor accepted, in bytes (a folder name is at most 255 bytes, and the
/// number takes some).
pub const MAX_DESCRIPTOR_BYTES: usize = 200;

/// The folder descriptor for a `--name`: trimmed, one leading `\d{3}-` dropped, and checked to be
/// one harmless path component (the reference let `x/../../escaped` create a folder outside the
/// workspace).
pub fn descriptor(name: &str) -> Result<String, DescriptorError> {
    let name = name.trim();
    let b = name.as_bytes();
    let rest = if b.len() >= 4 && b[..3].iter().all(u8::is_ascii_digit) && b[3] == b'-' {
        &name[4..]
    } else {
        name
    };
    if rest.is_empty() {
        return Err(DescriptorError::Empty);
    }
    let bad_char = |c: char| {
        c.is_control() || matches!(c, '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|')
    };
    if rest.contains("..") || rest.chars().any(bad_char) {
        return Err(DescriptorError::NotOneComponent(name.to_owned()));
    }
    if rest.starts_with('.') {
        return Err(DescriptorError::Hidden(name.to_owned()));
    }
    if rest.len() > MAX_DESCRIPTOR_BYTES {
        return Err(DescriptorError::TooLong);
    }
    Ok(rest.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_parse_case_insensitively() {
        assert_eq!(SessionType::parse(" QUICK "), Some(SessionType::Quick));
        assert_eq!(SessionType::parse("feature"), None);
        let all: Vec<_> = SessionType::ALL.iter().map(|t| t.as_str()).collect();
        assert_eq!(all, ["research", "refine", "exec", "quick"]);
    }

    #[test]
    fn suffix_types() {
        assert_eq!(
            type_from_suffix("login-spec-refine"),
            Some(SessionType::Refine)
        );
        assert_eq!(type_from_suffix("x-plan-new"), Some(SessionType::Refine));
        assert_eq!(type_from_suffix("x-plan-refine"), Some(SessionType::Refine));
        assert_eq!(type_from_suffix("x-plan-exec"), Some(SessionType::Exec));
        assert_eq!(type_from_suffix("001-quick"), Some(SessionType::Quick));
        assert_eq!(type_from_suffix("session004-dev-nueva-tarea"), None);
        assert_eq!(type_from_suffix("spec-refine"), None);
    }

    #[test]
    fn descriptors_are_one_component() {
        assert_eq!(descriptor(" 001-quick ").unwrap(), "quick");
        assert_eq!(descriptor("1000-x").unwrap(), "1000-x");
        assert_eq!(descriptor("Mi Sesión Ñ").unwrap(), "Mi Sesión Ñ");
        assert_eq!(
            descriptor("session004-dev-nueva-tarea").unwrap(),
            "session004-dev-nueva-tarea"
        );
        for bad in [
            "x/../../../../escaped-quick",
            "..",
            "a..b",
            "a\\b",
            "a/b",
            "tab\there",
            "nul\0",
            "c:d",
        ] {
            assert!(
                matches!(descriptor(bad), Err(DescriptorError::NotOneComponent(_))),
                "{bad}"
            );
        }
        assert_eq!(descriptor("  "), Err(DescriptorError::Empty));
        assert_eq!(descriptor("001-"), Err(DescriptorError::Empty));
        assert!(matches!(
            descriptor(".hidden"),
            Err(DescriptorError::Hidden(_))
        ));
        assert_eq!(descriptor(&"a".repeat(201)), Err(DescriptorError::TooLong));
    }
}
