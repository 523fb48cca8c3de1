//! The grammars of what users and agents type about sources: `alias:path[:branch]`,
//! `alias:branch`, aliases, branch names, and the project description.

use super::error::InputError;
use super::model::Source;

/// Parses one `--source` value (`alias:path[:main-branch]`).
///
/// The alias ends at the first colon. The path and branch split at the last colon, unless that
/// colon belongs to a Windows drive (`C:\…`, `C:/…`, `\\?\C:\…`), in which case there is no
/// branch. A drive letter followed by anything but a separator (`C:foo`) is refused: it is what
/// a shell leaves of `C:\foo`.
pub fn parse_source(raw: &str) -> Result<Source, InputError> {
    let Some(first) = raw.find(':').filter(|i| *i > 0) else {
        return Err(InputError::SourceFormat { raw: raw.into() });
    };
    let alias = &raw[..first];
    let rest = &raw[first + 1..];
    if mangled_drive(rest) {
        return Err(InputError::DrivePathMangled { raw: raw.into() });
    }
    let (path, branch) = match rest.rfind(':') {
        Some(i) if !is_drive_colon(rest, i) => (&rest[..i], Some(&rest[i + 1..])),
        _ => (rest, None),
    };
    if alias.trim().is_empty() || path.trim().is_empty() {
        return Err(InputError::SourceIncomplete { raw: raw.into() });
    }
    check_alias(alias)?;
    check_path(path)?;
    let main_branch = match branch.filter(|b| !b.is_empty()) {
        Some(b) => {
            check_branch(b)?;
            Some(b.to_owned())
        }
        None => None,
    };
    Ok(Source {
        alias: alias.to_owned(),
        path: path.to_owned(),
        main_branch,
    })
}

/// The `\\?\` prefix of Windows extended-length paths.
const VERBATIM: &str = "\\\\?\\";

/// Whether the colon at byte `i` of `rest` is a drive colon: a letter right after the start (or
/// after `\\?\`), and a separator right after it.
fn is_drive_colon(rest: &str, i: usize) -> bool {
    let b = rest.as_bytes();
    let Some(letter_at) = i.checked_sub(1) else {
        return false;
    };
    // Check the letter first: only then is `letter_at` a char boundary to slice at.
    b[letter_at].is_ascii_alphabetic()
        && (letter_at == 0 || &rest[..letter_at] == VERBATIM)
        && matches!(b.get(i + 1), Some(b'\\' | b'/'))
}

/// `C:` at the start of the path (or after `\\?\`) with no separator after it.
fn mangled_drive(rest: &str) -> bool {
    let body = rest.strip_prefix(VERBATIM).unwrap_or(rest);
    let b = body.as_bytes();
    b.len() >= 2
        && b[0].is_ascii_alphabetic()
        && b[1] == b':'
        && !matches!(b.get(2), Some(b'\\' | b'/'))
}

/// Parses one `--working-branch` / `--qa-branch` value (`alias:branch`, split at the first colon).
pub fn parse_branch_item(flag: &'static str, raw: &str) -> Result<(String, String), InputError> {
    let bad = || InputError::BranchItemFormat {
        flag,
        raw: raw.into(),
    };
    let (alias, branch) = raw.split_once(':').ok_or_else(bad)?;
    let (alias, branch) = (alias.trim(), branch.trim());
    if alias.is_empty() || branch.is_empty() {
        return Err(bad());
    }
    check_alias(alias)?;
    check_branch(branch)?;
    Ok((alias.to_owned(), branch.to_owned()))
}

/// Aliases name a table row and, for other commands, a folder (`.<ns>/launch/<alias>`): one
/// path component of letters, digits, `.`, `_` and `-`, starting with a letter or digit.
pub fn check_alias(alias: &str) -> Result<(), InputError> {
    let ok = (1..=64).contains(&alias.chars().count())
        && alias.chars().next().is_some_and(char::is_alphanumeric)
        && alias
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if ok {
        Ok(())
    } else {
        Err(InputError::InvalidAlias {
            alias: alias.into(),
        })
    }
}

/// Source paths may point anywhere (external sources are a feature), but they live in a table
/// cell on one line.
pub fn check_path(path: &str) -> Result<(), InputError> {
    let why = if path.trim().is_empty() {
        Some("it is empty")
    } else if path.chars().any(char::is_control) {
        Some("it contains a line break or another control character")
    } else if path.contains('|') {
        Some("it contains `|`, which would split the table cell")
    } else if path.trim() != path {
        Some("it starts or ends with spaces")
    } else {
        None
    };
    match why {
        Some(why) => Err(InputError::InvalidPath {
            path: path.into(),
            why,
        }),
        None => Ok(()),
    }
}

/// Branch names as git accepts them (`git check-ref-format --branch`, the rules that matter
/// here), minus `|`, which would break the table.
pub fn check_branch(branch: &str) -> Result<(), InputError> {
    let bad_char = |c: char| c.is_control() || c.is_whitespace() || "~^:?*[\\|".contains(c);
    let ok = !branch.is_empty()
        && branch.len() <= 255
        && !branch.chars().any(bad_char)
        && !branch.contains("..")
        && !branch.contains("@{")
        && !branch.contains("//")
        && !branch.starts_with(['-', '/', '.'])
        && !branch.ends_with(['/', '.'])
        && !branch.ends_with(".lock")
        && branch != "@"
        && !branch.split('/').any(|part| part.starts_with('.'));
    if ok {
        Ok(())
    } else {
        Err(InputError::InvalidBranch {
            branch: branch.into(),
        })
    }
}

/// A description is one plain line: a line break, a heading or an HTML comment would change the
/// block's structure.
pub fn check_project(text: &str) -> Result<(), InputError> {
    let why = if text.trim().is_empty() {
        Some("is empty")
    } else if text.chars().any(char::is_control) {
        Some("contains a line break or another control character")
    } else if text.contains("<!--") || text.contains("-->") {
        Some("contains an HTML comment marker")
    } else if text.trim_start().starts_with('#') {
        Some("starts with `#`, which would make it a heading")
    } else {
        None
    };
    match why {
        Some(why) => Err(InputError::InvalidProject { why }),
        None => Ok(()),
    }
}

/// Refuses the second use of an alias.
pub fn check_unique<'a>(aliases: impl IntoIterator<Item = &'a str>) -> Result<(), InputError> {
    let mut seen = std::collections::BTreeSet::new();
    for a in aliases {
        if !seen.insert(a) {
            return Err(InputError::DuplicateAlias { alias: a.into() });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(raw: &str) -> (String, String, Option<String>) {
        let s = parse_source(raw).unwrap();
        (s.alias, s.path, s.main_branch)
    }

    fn t(a: &str, p: &str, b: Option<&str>) -> (String, String, Option<String>) {
        (a.into(), p.into(), b.map(Into::into))
    }

    #[test]
    fn unix_paths_split_at_the_last_colon() {
        assert_eq!(src("api:../api"), t("api", "../api", None));
        assert_eq!(src("api:../api:main"), t("api", "../api", Some("main")));
        assert_eq!(
            src("api:/srv/api:develop"),
            t("api", "/srv/api", Some("develop"))
        );
        assert_eq!(
            src("api:dir:with:colon:main"),
            t("api", "dir:with:colon", Some("main"))
        );
        assert_eq!(src("api:.:"), t("api", ".", None));
        assert_eq!(src("web:."), t("web", ".", None));
    }

    #[test]
    fn windows_drive_paths_keep_their_colon() {
        assert_eq!(src("api:C:\\repos\\api"), t("api", "C:\\repos\\api", None));
        assert_eq!(src("api:C:/repos/api"), t("api", "C:/repos/api", None));
        assert_eq!(
            src("api:C:\\repos\\api:main"),
            t("api", "C:\\repos\\api", Some("main"))
        );
        assert_eq!(
            src("api:d:/x:release/1"),
            t("api", "d:/x", Some("release/1"))
        );
        assert_eq!(
            src("api:\\\\?\\C:\\repos"),
            t("api", "\\\\?\\C:\\repos", None)
        );
        assert_eq!(
            src("api:\\\\?\\C:\\repos:main"),
            t("api", "\\\\?\\C:\\repos", Some("main"))
        );
    }

    #[test]
    fn mangled_drive_paths_are_refused() {
        for raw in [
            "api:C:foo",
            "api:C:reposapi:main",
            "api:c:",
            "api:\\\\?\\C:x",
        ] {
            assert!(
                matches!(parse_source(raw), Err(InputError::DrivePathMangled { .. })),
                "{raw}"
            );
        }
    }

    #[test]
    fn missing_parts_are_refused() {
        assert!(matches!(
            parse_source("api"),
            Err(InputError::SourceFormat { .. })
        ));
        assert!(matches!(
            parse_source(":path"),
            Err(InputError::SourceFormat { .. })
        ));
        assert!(matches!(
            parse_source(""),
            Err(InputError::SourceFormat { .. })
        ));
        assert!(matches!(
            parse_source("api:"),
            Err(InputError::SourceIncomplete { .. })
        ));
        assert!(matches!(
            parse_source("api::main"),
            Err(InputError::SourceIncomplete { .. })
        ));
        assert!(matches!(
            parse_source(" :x"),
            Err(InputError::SourceIncomplete { .. })
        ));
    }

    #[test]
    fn aliases_paths_and_branches_are_checked() {
        assert!(matches!(
            parse_source("a/b:x"),
            Err(InputError::InvalidAlias { .. })
        ));
        assert!(matches!(
            parse_source("..:x"),
            Err(InputError::InvalidAlias { .. })
        ));
        assert!(matches!(
            parse_source("a b:x"),
            Err(InputError::InvalidAlias { .. })
        ));
        assert!(matches!(
            parse_source("a:x|y"),
            Err(InputError::InvalidPath { .. })
        ));
        assert!(matches!(
            parse_source("a:x\ny"),
            Err(InputError::InvalidPath { .. })
        ));
        assert!(matches!(
            parse_source("a:xy:bad..branch"),
            Err(InputError::InvalidBranch { .. })
        ));
        assert!(check_alias("núcleo_2.v-1").is_ok());
        for ok in ["main", "feature/login", "release-1.2", "v1@x"] {
            assert!(check_branch(ok).is_ok(), "{ok}");
        }
        for bad in [
            "", "a b", "-x", "x.lock", "a/.b", "x/", "a~1", "a|b", "@", "a@{1}",
        ] {
            assert!(check_branch(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn multibyte_text_around_colons_never_panics() {
        for raw in ["a:é:x", "a:ñ:", "a:\\\\?é:x", "é:é:é", "a:日本:main"] {
            if let Ok(s) = parse_source(raw) {
                assert!(raw.starts_with(&format!("{}:", s.alias)), "{raw}");
            }
        }
        assert_eq!(src("a:日本:main"), t("a", "日本", Some("main")));
    }

    proptest::proptest! {
        #[test]
        fn what_parses_passes_every_check(raw in "\\PC{0,40}") {
            // Never a panic, and nothing is accepted that a check would refuse.
            if let Ok(s) = parse_source(&raw) {
                proptest::prop_assert!(check_alias(&s.alias).is_ok());
                proptest::prop_assert!(check_path(&s.path).is_ok());
                if let Some(b) = &s.main_branch {
                    proptest::prop_assert!(check_branch(b).is_ok());
                }
            }
            if let Ok((alias, branch)) = parse_branch_item("qa-branch", &raw) {
                proptest::prop_assert!(check_alias(&alias).is_ok() && check_branch(&branch).is_ok());
            }
            let one_plain_line = !raw.trim().is_empty()
                && !raw.chars().any(char::is_control)
                && !raw.contains("<!--")
                && !raw.contains("-->")
                && !raw.trim_start().starts_with('#');
            proptest::prop_assert_eq!(check_project(&raw).is_ok(), one_plain_line);
        }
    }

    #[test]
    fn branch_items_split_at_the_first_colon() {
        assert_eq!(
            parse_branch_item("working-branch", "api:feature/x").unwrap(),
            ("api".to_owned(), "feature/x".to_owned())
        );
        for bad in ["api", "api:", ":x", "api:a:b"] {
            assert!(parse_branch_item("qa-branch", bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn project_text_and_duplicates() {
        assert!(check_project("Billing backend").is_ok());
        assert!(check_project("a\nb").is_err());
        assert!(check_project("## Sources").is_err());
        assert!(check_project("x <!-- y").is_err());
        assert!(check_project("  ").is_err());
        assert!(check_unique(["a", "b"]).is_ok());
        assert_eq!(
            check_unique(["a", "b", "a"]),
            Err(InputError::DuplicateAlias { alias: "a".into() })
        );
    }
}
