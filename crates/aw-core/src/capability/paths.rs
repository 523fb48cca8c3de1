//! Safe relative paths and allowed destinations: the one path rule for descriptor locators,
//! semantic answers and durable plans (spec §4.3, §6.5, and the apply-time re-check of §6.4).
//!
//! These are checks on the text of a path only. Whether a path that passes them reaches out of
//! the workspace through a symbolic link is the shell's check, made when it writes
//! (`aw_workspace::io::atomic` refuses with `PATH_OUTSIDE_WORKSPACE`).

/// The most segments a safe relative path may have. Real destinations are a handful of folders
/// deep; without a bound, a path thousands of folders deep makes every writer walk it once per
/// folder (quadratic in syscalls, minutes of work for one artifact) only to fail at `PATH_MAX`.
pub const MAX_SEGMENTS: usize = 32;

/// Why `path` is not a safe relative path, if it is not: empty, a control character (a newline
/// would let a path pose as two lines of a preview; a NUL cannot be a file name), a backslash,
/// absolute (`/x` or a drive letter), an empty, `.` or `..` segment, or more than
/// [`MAX_SEGMENTS`] segments.
pub fn unsafe_relative(path: &str) -> Option<&'static str> {
    let b = path.as_bytes();
    if path.is_empty() {
        Some("is empty")
    } else if path.chars().any(char::is_control) {
        Some("holds a control character")
    } else if path.contains('\\') {
        Some("uses a backslash; use '/'")
    } else if path.starts_with('/') || (b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':')
    {
        Some("is absolute; write it relative")
    } else if path
        .split('/')
        .any(|seg| seg.is_empty() || seg == "." || seg == "..")
    {
        Some("has an empty, '.' or '..' segment")
    } else if path.split('/').count() > MAX_SEGMENTS {
        Some("is nested deeper than 32 folders")
    } else {
        None
    }
}

/// Whether `path` is `destination` or inside it, compared segment by segment (so
/// `docs/designs-evil` is not inside `docs/designs`). A destination of `.` or `""` is the root and
/// holds every relative path.
pub fn is_within(path: &str, destination: &str) -> bool {
    let dest = destination.trim_end_matches('/');
    if dest.is_empty() || dest == "." {
        return true;
    }
    let mut p = path.split('/');
    dest.split('/').all(|seg| p.next() == Some(seg))
}

/// Why `path` may not be written given the allowed destinations, if it may not: it must be a
/// safe relative path inside one of them, with no blank at either end (an answer's paths are
/// trimmed, so only an edited plan can carry one).
pub fn destination_refusal(path: &str, allowed: &[String]) -> Option<String> {
    if let Some(why) = unsafe_relative(path) {
        return Some(format!("the path {why}"));
    }
    if path.trim() != path {
        return Some("the path starts or ends with a blank".to_owned());
    }
    if allowed.iter().any(|d| is_within(path, d)) {
        None
    } else {
        Some(format!(
            "it is not inside an allowed destination ({})",
            allowed.join(", ")
        ))
    }
}

/// Why `path` may not be written in a workspace whose own folders are `reserved` (its state
/// folder `.<ns>` and `.git`), if it may not: its first segment names one of them (compared
/// without regard to ASCII case, for case-insensitive file systems).
pub fn reserved_refusal(path: &str, reserved: &[&str]) -> Option<String> {
    let first = path.split('/').next().unwrap_or_default();
    reserved
        .iter()
        .find(|r| first.eq_ignore_ascii_case(r))
        .map(|r| format!("'{r}' is the workspace's own folder, not a destination for output"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_relative_refuses_each_shape() {
        for p in [
            "", "a\\b", "/etc/x", "C:x", "a//b", "a/./b", "../x", "a/..", "a/", "a\nb", "a\0b",
            "a\u{7f}",
        ] {
            assert!(unsafe_relative(p).is_some(), "{p:?} should be unsafe");
        }
        for p in ["a", "docs/designs/x.md", "a..b/c", ".hidden/x"] {
            assert_eq!(unsafe_relative(p), None, "{p:?} should be safe");
        }
    }

    #[test]
    fn reserved_folders_are_refused_by_their_first_segment_in_any_case() {
        let reserved = [".workflow", ".git"];
        assert!(reserved_refusal(".workflow/skills.toml", &reserved).is_some());
        assert!(reserved_refusal(".GIT/hooks/x", &reserved).is_some());
        assert!(reserved_refusal(".workflow", &reserved).is_some());
        assert!(reserved_refusal("docs/.workflow/x", &reserved).is_none());
        assert!(reserved_refusal(".workflowx/a", &reserved).is_none());
    }

    #[test]
    fn a_blank_at_either_end_is_refused_as_a_destination() {
        let allowed = ["docs".to_owned()];
        assert!(destination_refusal("docs/a.md ", &allowed).is_some());
        assert!(destination_refusal(" docs/a.md", &allowed).is_some());
        assert!(destination_refusal("docs/a b.md", &allowed).is_none());
    }

    #[test]
    fn depth_is_bounded() {
        let at_limit = vec!["a"; MAX_SEGMENTS].join("/");
        assert_eq!(unsafe_relative(&at_limit), None);
        let beyond = format!("{at_limit}/b");
        assert!(unsafe_relative(&beyond).is_some_and(|w| w.contains(&MAX_SEGMENTS.to_string())));
    }

    #[test]
    fn within_compares_whole_segments() {
        assert!(is_within("docs/designs/a.md", "docs/designs"));
        assert!(is_within("docs/designs", "docs/designs/"));
        assert!(!is_within("docs/designs-evil/a.md", "docs/designs"));
        assert!(!is_within("docs/a.md", "docs/designs"));
        assert!(is_within("anything/at/all", "."));
    }

    #[test]
    fn a_destination_refusal_names_the_reason() {
        let allowed = vec!["docs/designs".to_owned()];
        assert_eq!(destination_refusal("docs/designs/a.md", &allowed), None);
        assert!(
            destination_refusal("docs/other.md", &allowed).is_some_and(|m| m.contains("allowed"))
        );
        assert!(
            destination_refusal("docs/designs/../x", &allowed).is_some_and(|m| m.contains(".."))
        );
        assert!(destination_refusal("x", &[]).is_some());
    }
}
