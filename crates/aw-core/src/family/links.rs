//! Wrapper links: which `<bin>/<cmd>` symlinks a member's roles ask for, and what to do with
//! each given what is already there.
//!
//! The grammar is the family installer's (`deriveLinks`): every role needs a bare-token `cmd` and
//! a `source`, one source per cmd, at least one role, and a source inside the skill folder. A link
//! is aw's only when it is a symlink to exactly the target aw would create, so anything else at
//! that name (a file, a person's own link) is never replaced or removed.

use serde::Serialize;

/// One wrapper link a member asks for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Link {
    /// The command name (the link's file name in the bin folder).
    pub cmd: String,
    /// The wrapper script relative to the skill folder, normalised.
    pub source: String,
    /// The roles that name this cmd.
    pub roles: Vec<String>,
}

/// Why a member's roles give no link set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkError {
    /// The manifest declares no role.
    NoRoles,
    /// A role's `cmd` is missing or not a bare token.
    BadCmd { role: String, cmd: Option<String> },
    /// A role has no `source`.
    NoSource { role: String },
    /// A role's `source` leaves the skill folder (absolute, or `..` above it).
    SourceOutside { role: String, source: String },
    /// Two roles link one cmd to different sources.
    TwoSources {
        cmd: String,
        first: String,
        second: String,
    },
}

impl LinkError {
    /// A sentence saying what is wrong.
    pub fn message(&self) -> String {
        match self {
            LinkError::NoRoles => "the manifest declares no role to link".to_owned(),
            LinkError::BadCmd { role, cmd } => format!(
                "roles.{role}.cmd {} is not a bare command name (letters, digits, '.', '_', '-'; not '.' or '..')",
                cmd.as_deref()
                    .map_or("(missing)".to_owned(), |c| format!("{c:?}"))
            ),
            LinkError::NoSource { role } => format!("roles.{role}.source is missing"),
            LinkError::SourceOutside { role, source } => {
                format!("roles.{role}.source {source:?} leads outside the skill folder")
            }
            LinkError::TwoSources { cmd, first, second } => {
                format!("cmd {cmd:?} is linked to two sources ({first:?} and {second:?})")
            }
        }
    }
}

/// Why a wrapper source, found on disk, cannot be linked (and given its execute bits).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceProblem {
    /// Nothing is there.
    Missing,
    /// It is a symbolic link.
    Symlink,
    /// It is not a regular file.
    NotAFile,
    /// The file has other names (hard links), which may be outside the skill folder: the execute
    /// bits aw would add are the file's, wherever its other names are.
    HardLinked {
        /// How many names the file has.
        links: u64,
    },
    /// A linked folder on its way leads outside the skill folder.
    Outside {
        /// Where it really is.
        real: String,
    },
    /// It could not be looked at.
    Unreadable(String),
}

impl SourceProblem {
    /// What is wrong, as a clause (`the source of x cannot be linked: <this>`).
    pub fn message(&self) -> String {
        match self {
            SourceProblem::Missing => "it does not exist".to_owned(),
            SourceProblem::Symlink => "it is a symbolic link".to_owned(),
            SourceProblem::NotAFile => "it is not a regular file".to_owned(),
            SourceProblem::HardLinked { links } => format!(
                "it is a file with {links} hard links, so it may also be a file outside the \
                 skill folder, which would be made executable too"
            ),
            SourceProblem::Outside { real } => {
                format!("a linked folder on its way leads outside the skill folder, to {real}")
            }
            SourceProblem::Unreadable(why) => why.clone(),
        }
    }

    /// What to do about it.
    pub fn action(&self) -> String {
        match self {
            SourceProblem::HardLinked { .. } => "give the wrapper script a name of its own: \
                 replace it with a copy (`cp <source> <source>.new && mv <source>.new <source>`), \
                 or reinstall the member, then run again"
                .to_owned(),
            _ => "reinstall the member so its wrapper scripts are regular files inside its \
                  folder, then run again"
                .to_owned(),
        }
    }
}

/// The longest command name (a file name: most filesystems stop at 255 bytes).
pub const MAX_CMD_BYTES: usize = 255;

/// The longest source path inside a skill (the system's path limit, with room for the folder).
pub const MAX_SOURCE_BYTES: usize = 1024;

/// Whether `cmd` is a bare command name.
pub fn cmd_ok(cmd: &str) -> bool {
    !cmd.is_empty()
        && cmd.len() <= MAX_CMD_BYTES
        && cmd != "."
        && cmd != ".."
        && cmd
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// `source` normalised inside the skill folder, or `None` when it leaves it (or is the folder).
pub fn inside(source: &str) -> Option<String> {
    // A path no filesystem call can take (a NUL, past the path limit) is not a file of the skill.
    if source.starts_with('/') || source.contains('\0') || source.len() > MAX_SOURCE_BYTES {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    for seg in source.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// Derives the links from `(role, cmd, source)` triples in manifest order.
pub fn derive(roles: &[(String, Option<String>, Option<String>)]) -> Result<Vec<Link>, LinkError> {
    if roles.is_empty() {
        return Err(LinkError::NoRoles);
    }
    let mut out: Vec<Link> = Vec::new();
    for (role, cmd, source) in roles {
        let Some(cmd) = cmd.as_deref().filter(|c| cmd_ok(c)) else {
            return Err(LinkError::BadCmd {
                role: role.clone(),
                cmd: cmd.clone(),
            });
        };
        let Some(source) = source else {
            return Err(LinkError::NoSource { role: role.clone() });
        };
        let Some(norm) = inside(source) else {
            return Err(LinkError::SourceOutside {
                role: role.clone(),
                source: source.clone(),
            });
        };
        match out.iter_mut().find(|l| l.cmd == cmd) {
            Some(l) if l.source != norm => {
                return Err(LinkError::TwoSources {
                    cmd: cmd.to_owned(),
                    first: l.source.clone(),
                    second: norm,
                });
            }
            Some(l) => l.roles.push(role.clone()),
            None => out.push(Link {
                cmd: cmd.to_owned(),
                source: norm,
                roles: vec![role.clone()],
            }),
        }
    }
    Ok(out)
}

/// What is at a link's place in the bin folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Found {
    /// Nothing.
    Absent,
    /// A symlink to exactly the target aw creates.
    Ours,
    /// Anything else: a file, a folder, a symlink elsewhere.
    Foreign,
}

/// What to do at one link's place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    /// Create the link.
    Create,
    /// Remove aw's link.
    Remove,
    /// Nothing to do.
    Keep,
    /// Something not aw's is there: left alone.
    Conflict,
}

/// The action for one link: installing (`remove` false) or removing.
pub fn action(found: Found, remove: bool) -> Action {
    match (found, remove) {
        (Found::Absent, false) => Action::Create,
        (Found::Ours, false) => Action::Keep,
        (Found::Ours, true) => Action::Remove,
        (Found::Absent, true) => Action::Keep,
        (Found::Foreign, false) => Action::Conflict,
        // Removing never touches what is not aw's; it is not in the way of anything either.
        (Found::Foreign, true) => Action::Keep,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(
        role: &str,
        cmd: Option<&str>,
        src: Option<&str>,
    ) -> (String, Option<String>, Option<String>) {
        (role.into(), cmd.map(Into::into), src.map(Into::into))
    }

    #[test]
    fn grammar_of_the_installer() {
        assert!(cmd_ok("codex-exec") && cmd_ok("a.b_c"));
        for bad in ["", ".", "..", "a/b", "a b", "é"] {
            assert!(!cmd_ok(bad), "{bad}");
        }
        assert_eq!(inside("./bin//x.sh").as_deref(), Some("bin/x.sh"));
        assert_eq!(inside("bin/../x.sh").as_deref(), Some("x.sh"));
        assert_eq!(inside("../x.sh"), None);
        assert_eq!(inside("/abs"), None);
        // What no filesystem call can take is refused here, before any link is made.
        assert!(cmd_ok(&"c".repeat(MAX_CMD_BYTES)) && !cmd_ok(&"c".repeat(MAX_CMD_BYTES + 1)));
        assert_eq!(inside("bin/x.sh\0"), None);
        assert_eq!(inside(&"d/".repeat(MAX_SOURCE_BYTES)), None);
        let long = r("b", Some("bb"), Some(&"x".repeat(5000)));
        assert!(matches!(
            derive(&[r("a", Some("aa"), Some("bin/x.sh")), long]),
            Err(LinkError::SourceOutside { .. })
        ));
        assert_eq!(inside("."), None);
    }

    #[test]
    fn one_source_per_cmd_and_at_least_one_role() {
        assert_eq!(derive(&[]), Err(LinkError::NoRoles));
        let same = derive(&[
            r("a", Some("x"), Some("bin/x")),
            r("b", Some("x"), Some("./bin/x")),
        ])
        .unwrap();
        assert_eq!(same.len(), 1);
        assert_eq!(same[0].roles, vec!["a", "b"]);
        assert!(matches!(
            derive(&[
                r("a", Some("x"), Some("bin/x")),
                r("b", Some("x"), Some("bin/y"))
            ]),
            Err(LinkError::TwoSources { .. })
        ));
        assert!(matches!(
            derive(&[r("a", None, Some("x"))]),
            Err(LinkError::BadCmd { .. })
        ));
        assert!(matches!(
            derive(&[r("a", Some("x"), None)]),
            Err(LinkError::NoSource { .. })
        ));
        assert!(matches!(
            derive(&[r("a", Some("x"), Some("../x"))]),
            Err(LinkError::SourceOutside { .. })
        ));
    }

    #[test]
    fn only_our_links_are_removed_and_foreign_ones_never_replaced() {
        assert_eq!(action(Found::Absent, false), Action::Create);
        assert_eq!(action(Found::Foreign, false), Action::Conflict);
        assert_eq!(action(Found::Foreign, true), Action::Keep);
        assert_eq!(action(Found::Ours, true), Action::Remove);
        assert_eq!(action(Found::Ours, false), Action::Keep);
    }
}
