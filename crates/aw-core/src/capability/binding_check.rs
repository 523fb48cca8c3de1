//! The advisory binding check (spec §7.3): for each role bound by a file to a skill that is not
//! a built-in default, whether a skill of that name is installed under the standard skill roots.
//! Advisory only: nothing falls back and nothing is rewritten.

use super::bindings::{Cascade, ROLES, Source};
use serde::Serialize;

/// One checked role (`bindingChecks[]` on the wire, keys in this order).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct BindingCheck {
    /// The role.
    pub role: &'static str,
    /// The bound skill.
    pub skill: String,
    /// The level the binding came from.
    pub source: Source,
    /// Whether a skill of that name (or of its last `/` segment) is installed.
    pub installed: bool,
}

/// The checks and their warnings, in role order. `installed` holds every installed skill's
/// folder name and frontmatter name; `roots` names the roots searched, for the warning.
pub fn check_installed(
    cascade: &Cascade,
    installed: &[String],
    roots: &[String],
) -> (Vec<BindingCheck>, Vec<String>) {
    let mut checks = Vec::new();
    let mut warnings = Vec::new();
    for resolved in &cascade.skills {
        let Some(skill) = resolved.skill.as_deref() else {
            continue;
        };
        if !resolved.enabled || resolved.source == Source::Default {
            continue;
        }
        let builtin = ROLES.iter().any(|(_, default)| *default == skill);
        let last = skill.rsplit('/').next().unwrap_or(skill);
        let found = builtin || installed.iter().any(|n| n == skill || n == last);
        if !found {
            warnings.push(format!(
                "role '{}' is bound to '{skill}' ({}) but no skill by that name is installed in the standard skill roots ({}). The binding is advisory: aw does not fall back. Install the skill (for example with `npx skills add <owner/repo>`) or fix the name; if it is installed elsewhere, ignore this.",
                resolved.role,
                resolved.source.as_str(),
                roots.join(", ")
            ));
        }
        checks.push(BindingCheck {
            role: resolved.role,
            skill: skill.to_owned(),
            source: resolved.source,
            installed: found,
        });
    }
    (checks, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capability::bindings::{LevelInput, cascade};

    fn ws(text: &str) -> Cascade {
        cascade(
            (&LevelInput::Absent, ""),
            (&LevelInput::Text(text.to_owned()), ".workflow/skills.toml"),
        )
    }

    #[test]
    fn defaults_are_not_checked() {
        let (checks, warnings) = check_installed(&ws(""), &[], &[]);
        assert!(checks.is_empty() && warnings.is_empty());
    }

    #[test]
    fn an_installed_binding_passes_and_a_missing_one_warns_naming_it() {
        let c = ws("[skills]\nsql = \"ws-sql\"\ngit = \"acme/git-plus\"\n");
        let (checks, warnings) = check_installed(
            &c,
            &["ws-sql".to_owned()],
            &["/r/.claude/skills".to_owned()],
        );
        assert_eq!(checks.len(), 2);
        assert!(checks[0].installed, "sql");
        assert!(!checks[1].installed, "git");
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("'git'") && warnings[0].contains("acme/git-plus"));
        assert!(warnings[0].contains("/r/.claude/skills"));
    }

    #[test]
    fn a_built_in_default_name_counts_as_installed() {
        let (checks, warnings) = check_installed(&ws("[skills]\nsql = \"sql\"\n"), &[], &[]);
        assert_eq!(checks.len(), 1);
        assert!(checks[0].installed && warnings.is_empty());
    }

    #[test]
    fn the_last_segment_of_an_owner_slash_name_matches() {
        let c = ws("[skills]\ndesign = \"acme/figma-spec\"\n");
        let (checks, warnings) = check_installed(&c, &["figma-spec".to_owned()], &[]);
        assert!(checks[0].installed && warnings.is_empty());
    }

    #[test]
    fn a_role_set_to_off_is_neither_checked_nor_warned_about() {
        let (checks, warnings) = check_installed(&ws("[skills]\nresearch = \"off\"\n"), &[], &[]);
        assert!(checks.is_empty() && warnings.is_empty());
    }
}
