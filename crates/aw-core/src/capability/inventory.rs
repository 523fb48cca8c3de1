//! The installed-skill inventory's rules (§4.4): where hosts keep skills, the digest that
//! identifies one installed copy, and how copies found under several roots become one
//! instance (or a collision). Paths in, no I/O: the walk is aw-workspace's.

use super::descriptor::Descriptor;
use super::validate::Failure;
use crate::canonical::{semantic_digest, sha256_hex, utf16_cmp};
use crate::error_code::ErrorCode;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The skill folders of every supported host, relative to a base folder, in the reference's
/// harness catalog order, each once.
pub const SKILL_DIRS: &[&str] = &[
    ".claude/skills",
    ".agents/skills",
    ".codex/skills",
    ".warp/skills",
    ".gemini/skills",
    ".opencode/skills",
    ".config/crush/skills",
    ".config/agents/skills",
    ".crush/skills",
    ".kimi-code/skills",
];

/// The skill roots to scan: each of [`SKILL_DIRS`] joined first with the current folder and
/// then with the home folder (when known), the first of equal paths kept.
pub fn skill_roots(cwd: &Path, home: Option<&Path>) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = Vec::new();
    for dir in SKILL_DIRS {
        for base in std::iter::once(cwd).chain(home) {
            let root = base.join(dir);
            if !roots.contains(&root) {
                roots.push(root);
            }
        }
    }
    roots
}

/// The digest of one installed copy: the semantic digest of `{skill_md: sha256(SKILL.md),
/// descriptor: <sealed digest>}`.
pub fn instance_digest(skill_md: &[u8], sealed: &str) -> String {
    semantic_digest(&serde_json::json!({
        "skill_md": sha256_hex(skill_md),
        "descriptor": sealed,
    }))
}

/// Where one copy of an installed skill lives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Location {
    /// The skill root it was found under.
    pub scope: String,
    /// The skill's folder.
    pub skill_dir: String,
    /// Its SKILL.md.
    pub skill_md: String,
    /// The locator's path, relative to the skill folder.
    pub descriptor_path: String,
}

/// One copy of a skill that carries a locator, as the walk found it.
#[derive(Debug, Clone)]
pub struct Copy {
    /// The frontmatter name (or the folder's name).
    pub name: String,
    /// `metadata.version`, else the top-level `version`.
    pub version: Option<String>,
    /// Where it is.
    pub location: Location,
    /// Its loaded descriptor and [`instance_digest`] (over the SKILL.md bytes its head was
    /// read from), or the loader's first failure.
    pub loaded: Result<(Descriptor, String), Failure>,
}

/// Whether an instance can be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum State {
    /// Every copy loaded and all have the same bytes.
    Ready,
    /// A copy failed, or copies differ.
    Misconfigured,
}

/// An installed capability skill: every copy of one name.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Instance {
    /// The frontmatter name.
    pub name: String,
    /// Ready or misconfigured.
    pub state: State,
    /// The first copy's version.
    pub version: Option<String>,
    /// The instance digest (`None` when misconfigured).
    pub digest: Option<String>,
    /// The descriptor (`None` when misconfigured).
    pub descriptor: Option<Descriptor>,
    /// Why it is misconfigured.
    pub failure: Option<Failure>,
    /// Every copy, in the order the roots were scanned.
    pub locations: Vec<Location>,
}

/// Groups copies by name (§4.4): a failed copy makes the name misconfigured with the first
/// failure; copies with different digests are `CAPABILITY_INSTANCE_COLLISION` (no root takes
/// precedence over another); otherwise ready, with the first copy's data and every location.
/// Sorted by name in code-unit order.
pub fn group(copies: Vec<Copy>) -> Vec<Instance> {
    let mut names: Vec<String> = Vec::new();
    for c in &copies {
        if !names.contains(&c.name) {
            names.push(c.name.clone());
        }
    }
    names.sort_by(|a, b| utf16_cmp(a, b));
    names
        .into_iter()
        .map(|name| {
            let mine: Vec<&Copy> = copies.iter().filter(|c| c.name == name).collect();
            one(name, &mine)
        })
        .collect()
}

fn one(name: String, copies: &[&Copy]) -> Instance {
    let locations: Vec<Location> = copies.iter().map(|c| c.location.clone()).collect();
    let version = copies.first().and_then(|c| c.version.clone());
    let misconfigured = |failure: Failure| Instance {
        name: name.clone(),
        state: State::Misconfigured,
        version: version.clone(),
        digest: None,
        descriptor: None,
        failure: Some(failure),
        locations: locations.clone(),
    };
    if let Some(f) = copies.iter().find_map(|c| c.loaded.as_ref().err()) {
        return misconfigured(f.clone());
    }
    let loaded: Vec<&(Descriptor, String)> = copies
        .iter()
        .filter_map(|c| c.loaded.as_ref().ok())
        .collect();
    let mut digests: Vec<&String> = Vec::new();
    for (_, d) in &loaded {
        if !digests.contains(&d) {
            digests.push(d);
        }
    }
    if digests.len() > 1 {
        let dirs: Vec<&str> = locations.iter().map(|l| l.skill_dir.as_str()).collect();
        return misconfigured(Failure {
            code: ErrorCode::CapabilityInstanceCollision,
            artifact: locations
                .first()
                .map(|l| l.skill_md.clone())
                .unwrap_or_default(),
            path: String::new(),
            message: format!(
                "{} skills named '{name}' differ in their bytes: {}",
                copies.len(),
                dirs.join(", ")
            ),
            action: "keep one copy, or make every copy identical: no skill root takes precedence over another".to_owned(),
        });
    }
    let first = loaded.first();
    Instance {
        name: name.clone(),
        state: State::Ready,
        version,
        digest: first.map(|(_, d)| d.clone()),
        descriptor: first.map(|(d, _)| d.clone()),
        failure: None,
        locations,
    }
}

#[cfg(test)]
#[path = "inventory_tests.rs"]
mod tests;
