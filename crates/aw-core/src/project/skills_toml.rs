//! The `skills.toml` seeded into a new workspace: every setting present but commented out, so
//! the file documents itself and changes nothing until someone edits it.

use super::language;
use crate::capability::bindings::ROLES;

/// The template for namespace `ns`.
pub fn template(ns: &str) -> String {
    let mut out = format!(
        "# Skills for this workspace.\n\
         #\n\
         # Each workflow role is filled by a skill. aw uses its built-in choice unless a setting\n\
         # overrides it: first ~/.{ns}/skills.toml (your defaults), then this file (this\n\
         # workspace). Uncomment a line and change its value to pick another skill; set a role\n\
         # to \"off\" to turn it off here.\n\
         \n\
         [skills]\n"
    );
    for (role, skill) in ROLES {
        out.push_str(&format!("# {role} = \"{skill}\"\n"));
    }
    out.push_str(
        "\n\
         # Binding a role to a capability: a value names an installed skill whose capability\n\
         # descriptor declares the role. The binding is advisory: aw reports a skill it cannot\n\
         # find and keeps going with the built-in implementation; it never picks a substitute.\n\
         \n\
         # Context compaction when a session closes: \"confirm\" asks before compacting.\n\
         # [compaction]\n\
         # mode = \"confirm\"\n",
    );
    out.push_str(&format!(
        "\n\
         # The language aw writes a new project block in (CLAUDE.md and AGENTS.md): \"en\" (the\n\
         # default) or \"es\", the reference CLI's Spanish form, the only one it reads. A block that\n\
         # already exists keeps its language. {env} overrides this setting.\n\
         # [{table}]\n\
         # {key} = \"en\"\n",
        env = language::ENV,
        table = language::SETTING.0,
        key = language::SETTING.1,
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capability::bindings::{LevelInput, Source, cascade, default_skill};

    #[test]
    fn the_seeded_template_sets_nothing() {
        let t = template("workflow");
        let c = cascade(
            (&LevelInput::Absent, "/home/u/.workflow/skills.toml"),
            (&LevelInput::Text(t), "/ws/.workflow/skills.toml"),
        );
        assert!(c.warnings.is_empty());
        assert!(c.skills.iter().all(|s| {
            s.source == Source::Default && s.enabled && s.skill.as_deref() == default_skill(s.role)
        }));
    }

    #[test]
    fn template_structure() {
        let t = template("acme");
        assert!(t.contains("~/.acme/skills.toml"));
        let lines: Vec<&str> = t.lines().collect();
        let at = lines.iter().position(|l| *l == "[skills]").unwrap();
        assert_eq!(
            &lines[at + 1..at + 7],
            &[
                "# design = \"design\"",
                "# sql = \"sql\"",
                "# git = \"git\"",
                "# research = \"research\"",
                "# diagrams = \"diagrams\"",
                "# overview = \"w\"",
            ]
        );
        assert!(t.contains("# [compaction]\n# mode = \"confirm\"\n"));
        assert!(t.ends_with("# [workspace]\n# doc_language = \"en\"\n"));
        assert!(t.contains("AW_DOC_LANGUAGE"));
        // Every other line is a comment or blank, so the file sets nothing by itself.
        assert!(
            lines
                .iter()
                .all(|l| l.is_empty() || l.starts_with('#') || *l == "[skills]")
        );
        assert!(t.ends_with('\n'));
    }
}
