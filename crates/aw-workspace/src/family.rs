//! The disk side of `aw family`: a member's install folder as the validator sees it, a bundled
//! manifest, a project's deployment marker, and the variable `detect.installed.env` names.

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
