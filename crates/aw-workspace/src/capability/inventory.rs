//! The installed-skill inventory (§4.4): every skill folder under the standard skill roots
//! (aw-core's `skill_roots`), its SKILL.md head, and, for a skill whose frontmatter carries a
//! descriptor locator, its descriptor loaded through the confined loader. Grouping, digests and
//! collisions are aw-core's rules.

use crate::capability::load_sealed;
use crate::io::folder::read_regular_path;
use aw_core::capability::bindings::retired;
use aw_core::capability::inventory::{
    Copy, Instance, Location, group, instance_digest, skill_roots,
};
use aw_core::capability::locator::{self, METADATA_KEY};
use aw_core::capability::validate::Failure;
use aw_core::error_code::ErrorCode;
use aw_manifest::{skill_md_field, skill_md_frontmatter, skill_md_metadata};
use std::path::Path;

/// The capability skills installed under the skill roots of `cwd` and `home`, sorted by name.
/// A skill folder that is a symbolic link to a folder is followed (the reference skips it,
/// quirk 10). A folder without a readable SKILL.md with a closed frontmatter is not a skill;
/// one without a locator is an ambient skill, not part of the inventory.
pub fn scan(cwd: &Path, home: Option<&Path>) -> Vec<Instance> {
    survey(cwd, home).instances
}

/// One walk of the skill roots: the capability inventory, and every installed skill's names.
#[derive(Debug, Clone)]
pub struct Survey {
    /// The capability skills, as [`scan`] gives them.
    pub instances: Vec<Instance>,
    /// Every skill folder's name and, when its SKILL.md has one, its frontmatter name (what
    /// the advisory binding check matches against).
    pub names: Vec<String>,
    /// The roots searched, in order.
    pub roots: Vec<String>,
}

/// Walks the skill roots of `cwd` and `home` once (see [`scan`]).
pub fn survey(cwd: &Path, home: Option<&Path>) -> Survey {
    let mut copies = Vec::new();
    let mut names_seen: Vec<String> = Vec::new();
    let roots = skill_roots(cwd, home);
    for root in &roots {
        // Sorted, the order of copies is stable.
        for name in crate::io::folder::sorted_names(root) {
            let dir = root.join(&name);
            // `is_dir` follows a link: a linked skill folder counts as the folder it leads to.
            if dir.is_dir() {
                let (copy, frontmatter_name) = copy_at(root, &dir, &name);
                names_seen.push(name);
                names_seen.extend(frontmatter_name);
                copies.extend(copy);
            }
        }
    }
    Survey {
        instances: group(copies),
        names: names_seen,
        roots: roots.iter().map(|r| r.display().to_string()).collect(),
    }
}

/// One skill folder's copy, when it is a capability skill, and its frontmatter name, when it
/// has one.
fn copy_at(root: &Path, dir: &Path, dir_name: &str) -> (Option<Copy>, Option<String>) {
    let skill_md_path = dir.join("SKILL.md");
    let Ok(bytes) = read_regular_path(&skill_md_path) else {
        return (None, None);
    };
    let text = crate::capability::skill_md_text(&bytes);
    if skill_md_frontmatter(&text).is_none() {
        return (None, None);
    }
    let declared = skill_md_field(&text, "name");
    let Some(raw) = skill_md_metadata(&text, METADATA_KEY) else {
        return (None, declared);
    };
    let name = declared.clone().unwrap_or_else(|| dir_name.to_owned());
    let version = skill_md_metadata(&text, "version").or_else(|| skill_md_field(&text, "version"));
    let skill_md = skill_md_path.display().to_string();
    let parsed = locator::parse(Some(&raw), &skill_md);
    let location = Location {
        scope: root.display().to_string(),
        skill_dir: dir.display().to_string(),
        skill_md: skill_md.clone(),
        descriptor_path: parsed.as_ref().map_or(raw.clone(), |l| l.path.clone()),
    };
    let loaded = if let Some(r) = retired(&name) {
        // A retired name is refused before its descriptor is read.
        Err(Failure {
            code: ErrorCode::CapabilityNameRetired,
            artifact: skill_md,
            path: "name".to_owned(),
            message: format!(
                "the installed skill is named '{}', a retired name: {}",
                r.name, r.reason
            ),
            action: "remove or rename the skill, and install the current capability".to_owned(),
        })
    } else {
        parsed.and_then(|loc| {
            let artifact = dir.join(&loc.path).display().to_string();
            let descriptor = load_sealed(dir, &loc, &artifact)?;
            Ok((descriptor, instance_digest(&bytes, &loc.digest)))
        })
    };
    (
        Some(Copy {
            name,
            version,
            location,
            loaded,
        }),
        declared,
    )
}
