//! The disk side of `aw family`: a member's install folder as the validator sees it, a bundled
//! manifest, a project's deployment marker, the variable `detect.installed.env` names, and the
//! project files the sandbox-lane advice reads (Claude Code's settings, the acknowledgements).

pub mod bridge_settings;
pub mod links;
pub mod skill;

use crate::family::skill::SkillDir;
use aw_manifest::{AuthoritativeVersion, Report, Summary};
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
    // The marker must be a regular file (a link to one counts), as the kit's check wants: a
    // folder named SKILL.md is no install. A marker that cannot be looked at (no permission) is
    // let through, and the validator then says it cannot read it.
    match std::fs::metadata(dir.join(marker)) {
        Ok(m) if !m.is_file() => return None,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        _ => {}
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
    let bytes = crate::io::folder::read_regular_path(&dir.join("capability.json")).ok()?;
    aw_manifest::summary(&bytes)
}

/// A bundled copy's manifest: `Ok(None)` when there is none, its consumer view, or why it cannot
/// be read (a bundle that is there but broken is a corrupt install, not a missing copy).
pub fn bundled_manifest(dir: &Path) -> Result<Option<Summary>, String> {
    match crate::io::folder::read_regular_path(&dir.join("capability.json")) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e.to_string()),
        Ok(bytes) => aw_manifest::summary(&bytes)
            .map(Some)
            .ok_or_else(|| "it is not a JSON object".to_owned()),
    }
}

/// The project's deployment stamp (`detect.deployed.file`): its text, trimmed, when it is a
/// regular file with something in it, as the kit reads it; `None` otherwise (missing, a folder,
/// empty).
pub fn deployed_stamp(project: &Path, file: &str) -> Option<String> {
    let bytes = crate::io::folder::read_regular_path(&project.join(file)).ok()?;
    let text = String::from_utf8_lossy(&bytes).trim().to_owned();
    (!text.is_empty()).then_some(text)
}

/// The project's Claude Code settings files the kit reads (`names`, under `.claude/`), with their
/// text or why they could not be read; a file that does not exist is left out.
pub fn claude_settings_files(
    project: &Path,
    names: &[&str],
) -> Vec<(String, std::path::PathBuf, Result<String, String>)> {
    names
        .iter()
        .filter_map(|name| {
            let path = project.join(".claude").join(name);
            let text = match crate::io::folder::read_regular_path(&path) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
                Err(e) => Err(e.to_string()),
                Ok(b) => String::from_utf8(b).map_err(|_| "it is not UTF-8 text".to_owned()),
            };
            Some(((*name).to_owned(), path, text))
        })
        .collect()
}

/// The project's acknowledgements file, `docs/ai/acks.json`: `Ok(None)` when it does not exist,
/// its text when it is a regular file reached without a symbolic link, else why not (the kit
/// refuses a linked file or folder there, so a link cannot borrow another project's answer).
pub fn acks_text(project: &Path) -> Result<Option<String>, String> {
    // The project folder itself must not be a link either, as the kit's containment check wants.
    if std::fs::symlink_metadata(project).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(format!("{} is a symbolic link", project.display()));
    }
    let mut path = project.to_path_buf();
    for part in ["docs", "ai", "acks.json"] {
        path.push(part);
        match std::fs::symlink_metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e.to_string()),
            Ok(m) if m.file_type().is_symlink() => {
                return Err(format!("{} is a symbolic link", path.display()));
            }
            Ok(_) => {}
        }
    }
    let bytes = crate::io::folder::read_regular_path(&path).map_err(|e| e.to_string())?;
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| "it is not UTF-8 text".to_owned())
}

/// Whether `dir` is a folder (following links).
pub fn folder_exists(dir: &Path) -> bool {
    std::fs::metadata(dir).is_ok_and(|m| m.is_dir())
}

/// `folders` without those that are the same folder on disk as an earlier one (reached through a
/// link), first kept; a folder that cannot be resolved is kept as it is.
pub fn distinct_folders<T>(folders: Vec<(std::path::PathBuf, T)>) -> Vec<(std::path::PathBuf, T)> {
    let mut seen: Vec<std::path::PathBuf> = Vec::new();
    folders
        .into_iter()
        .filter(|(dir, _)| match std::fs::canonicalize(dir) {
            Ok(real) if seen.contains(&real) => false,
            Ok(real) => {
                seen.push(real);
                true
            }
            Err(_) => true,
        })
        .collect()
}
