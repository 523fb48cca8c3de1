//! Who owns a capability's direct wrapper folder (spec §11): the folder a host's skill root
//! holds under the capability's name is ours when its SKILL.md carries the marker line the
//! installer writes (the reference writes the same line, so its wrappers count as ours too).

use super::readiness::WrapperState;

/// The marker line's text: a SKILL.md containing it was installed by aw.
pub const WRAPPER_MARKER: &str = "Capability skill wrapper (installed by `aw self install-skill`)";

/// What a wrapper folder is, from what the shell found: whether the folder has any entry, and
/// its SKILL.md's text when it has one. `dir` and `root` name the folder and its skill root in
/// the verdicts.
pub fn ownership(has_entries: bool, skill_md: Option<&str>, dir: &str, root: &str) -> WrapperState {
    match skill_md {
        Some(text) if text.contains(WRAPPER_MARKER) => WrapperState::Ours,
        Some(_) => WrapperState::Foreign {
            reason: format!("'{dir}' already has a SKILL.md that aw did not install"),
        },
        None if has_entries => WrapperState::Foreign {
            reason: format!("'{dir}' holds files but no SKILL.md"),
        },
        None => WrapperState::Absent {
            root: root.to_owned(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_marker_decides_ownership_and_an_empty_folder_is_absent() {
        let marked = format!("---\nname: design\n---\n> {WRAPPER_MARKER}. Use it.\n");
        assert_eq!(ownership(true, Some(&marked), "d", "r"), WrapperState::Ours);
        assert!(matches!(
            ownership(true, Some("---\nname: design\n---\n"), "d", "r"),
            WrapperState::Foreign { .. }
        ));
        assert!(matches!(
            ownership(true, None, "d", "r"),
            WrapperState::Foreign { .. }
        ));
        assert_eq!(
            ownership(false, None, "d", "r"),
            WrapperState::Absent { root: "r".into() }
        );
    }
}
