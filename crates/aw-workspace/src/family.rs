//! The disk side of `aw family`: a member's install folder as the validator sees it, a bundled
//! manifest, a project's deployment marker, the variable `detect.installed.env` names, and the
//! project files the sandbox-lane advice reads (Claude Code's settings, the acknowledgements).

use crate::skill::SkillDir;
use aw_manifest::{AuthoritativeVersion, Report, SkillFiles, Summary};
use std::path::Path;

/// One folder that holds a member's marker file, validated once.
#[derive(Debug, Clone)]
pub struct InstalledCopy {
    /// The validator's report on its `capability.json`.
    pub report: Report,
    /// Its authoritative version (package.json, else SKILL.md `metadata.version`).
    pub version: AuthoritativeVersion,
    /// The consumer view of its manifest (`None` when it is not a JSON object).
    pub summary: Option<Summary>,
}

/// Validates the folder at `dir` when its marker file (`detect.installed.file`) exists, as the
/// family's tools do; `None` means "not installed here".
pub fn inspect(dir: &Path, marker: &str) -> Option<InstalledCopy> {
    let skill = SkillDir::new(dir);
    if !skill.exists(marker) {
        return None;
    }
    let report = skill.validate();
    let version = aw_manifest::read_authoritative_version(&skill);
    Some(InstalledCopy {
        report,
        version,
        summary: manifest_summary(dir),
    })
}

/// The consumer view of `<dir>/capability.json`; `None` when it cannot be read or is not a
/// JSON object.
pub fn manifest_summary(dir: &Path) -> Option<Summary> {
    let bytes = crate::folder::read_regular_path(&dir.join("capability.json")).ok()?;
    aw_manifest::summary(&bytes)
}

/// Whether the project-relative deployment marker exists (following symlinks).
pub fn deployed(project: &Path, file: &str) -> bool {
    SkillDir::new(project).exists(file)
}

/// The project's Claude Code settings files (`.claude/settings*.json`), by name, with their text
/// or why they could not be read. A project without them has none.
pub fn claude_settings_files(project: &Path) -> Vec<(std::path::PathBuf, Result<String, String>)> {
    let dir = project.join(".claude");
    let Ok(list) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = list
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.starts_with("settings") && n.ends_with(".json"))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| {
            let path = dir.join(&n);
            let text = crate::folder::read_regular_path(&path)
                .map_err(|e| e.to_string())
                .and_then(|b| String::from_utf8(b).map_err(|_| "it is not UTF-8 text".to_owned()));
            (path, text)
        })
        .collect()
}

/// The text of the project's acknowledgements file (`docs/ai/acks.json`), when it can be read.
pub fn acks_text(project: &Path) -> Option<String> {
    let bytes = crate::folder::read_regular_path(&project.join("docs/ai/acks.json")).ok()?;
    String::from_utf8(bytes).ok()
}
