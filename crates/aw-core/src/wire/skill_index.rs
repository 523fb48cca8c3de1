//! `aw skill-index`: the installed skills, from their SKILL.md frontmatter.

use schemars::JsonSchema;
use serde::Serialize;

/// The output of `aw skill-index`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SkillIndex<'a> {
    /// The skills, in root order, each root's by folder name.
    pub skills: Vec<Skill<'a>>,
    /// The folders looked in.
    pub roots: Vec<String>,
    /// How many skills.
    pub count: usize,
}

/// One installed skill.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Skill<'a> {
    /// The frontmatter `name`, else the folder's name.
    pub name: &'a str,
    /// The frontmatter `description`, or `null`.
    pub description: Option<&'a str>,
    /// `metadata.version`, else the top-level `version`, or `null`.
    pub version: Option<&'a str>,
    /// The skill's folder.
    pub path: &'a str,
    /// The root it was found under.
    pub root: &'a str,
}
