//! `aw skill-index`: the skills installed under some skill roots, read from their SKILL.md
//! frontmatter only (the reader the inventory and the manifest validator share).
//!
//! A root's entries are its skill folders (a link to a folder counts as the folder); one holding
//! a SKILL.md with a closed frontmatter is a skill, named by its frontmatter `name`, else by its
//! folder. A root that is itself a skill folder (it holds a SKILL.md) lists that one skill.

use crate::capability::skill_md_text;
use crate::io::folder::read_regular_path;
use aw_manifest::{skill_md_field, skill_md_frontmatter, skill_md_metadata};
use std::path::{Path, PathBuf};

/// One installed skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexedSkill {
    /// The frontmatter `name`, else the folder's name.
    pub name: String,
    /// The frontmatter `description`, when it has one.
    pub description: Option<String>,
    /// `metadata.version`, else the top-level `version`.
    pub version: Option<String>,
    /// The skill's folder.
    pub path: String,
    /// The root it was found under.
    pub root: String,
}

/// The skills under `roots`, in root order, each root's skills by folder name. Roots that do
/// not exist are skipped.
pub fn index(roots: &[PathBuf]) -> Vec<IndexedSkill> {
    let mut out = Vec::new();
    for root in roots {
        if let Some(skill) = skill_at(root, root) {
            out.push(skill);
            continue;
        }
        for name in crate::io::folder::sorted_names(root) {
            let dir = root.join(&name);
            if dir.is_dir()
                && let Some(skill) = skill_at(root, &dir)
            {
                out.push(skill);
            }
        }
    }
    out
}

fn skill_at(root: &Path, dir: &Path) -> Option<IndexedSkill> {
    let bytes = read_regular_path(&dir.join("SKILL.md")).ok()?;
    let text = skill_md_text(&bytes);
    skill_md_frontmatter(&text)?;
    let folder_name = dir.file_name()?.to_string_lossy().into_owned();
    Some(IndexedSkill {
        name: skill_md_field(&text, "name").unwrap_or(folder_name),
        description: skill_md_field(&text, "description"),
        version: skill_md_metadata(&text, "version").or_else(|| skill_md_field(&text, "version")),
        path: dir.display().to_string(),
        root: root.display().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skills_are_read_from_their_frontmatter() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("skills");
        let put = |dir: &str, text: &str| {
            std::fs::create_dir_all(root.join(dir)).unwrap();
            std::fs::write(root.join(dir).join("SKILL.md"), text).unwrap();
        };
        put(
            "b",
            "---\nname: beta\ndescription: Does b.\nmetadata:\n  version: 1.2.0\n---\n",
        );
        put("a", "---\ndescription: Unnamed.\nversion: 0.3\n---\n");
        put("c", "no frontmatter\n");
        std::fs::create_dir_all(root.join("empty")).unwrap();
        let found = index(&[root.clone(), tmp.path().join("missing")]);
        let names: Vec<&str> = found.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["a", "beta"]);
        assert_eq!(found[0].version.as_deref(), Some("0.3"));
        assert_eq!(found[1].version.as_deref(), Some("1.2.0"));
        assert_eq!(found[1].description.as_deref(), Some("Does b."));
        // A root that is a skill folder lists itself.
        let one = index(&[root.join("b")]);
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].name, "beta");
    }
}
