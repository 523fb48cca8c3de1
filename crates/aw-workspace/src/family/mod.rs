//! The disk side of `aw family`: a member's install folder as the validator sees it, a bundled
//! manifest, a project's deployment marker, the variable `detect.installed.env` names, and the
//! project files the sandbox-lane advice reads (Claude Code's settings, the acknowledgements).

pub mod bridge_settings;
pub mod links;
pub mod skill;

use crate::family::skill::SkillDir;
use aw_manifest::{
    AuthoritativeVersion, Class, FileRead, Report, SettingEntry, SkillFiles, Summary,
    setting_entries,
};
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;

/// One member folder, read once: its `capability.json` bytes, the validator's report on them,
/// the authoritative version and the consumer view, every file of the folder read at most once
/// (the validator and the version both read SKILL.md, for one).
#[derive(Debug, Clone)]
pub struct InstalledCopy {
    /// The bytes of its `capability.json`, or why they could not be read.
    pub manifest: Result<Vec<u8>, String>,
    /// The validator's report on its `capability.json`.
    pub report: Report,
    /// Its authoritative version (package.json, else SKILL.md `metadata.version`).
    pub version: AuthoritativeVersion,
    /// The consumer view of its manifest (`None` when it is not a JSON object).
    pub summary: Option<Summary>,
}

impl InstalledCopy {
    /// The `settings` entries of its manifest, kept only when the manifest is VALID (a member
    /// that does not validate adds no key).
    pub fn settings(&self) -> Vec<SettingEntry> {
        match (&self.manifest, self.report.class) {
            (Ok(bytes), Class::Valid) => setting_entries(bytes),
            _ => Vec::new(),
        }
    }

    /// The text of its manifest (invalid UTF-8 replaced, as the validator reads it).
    pub fn text(&self) -> Option<String> {
        self.manifest
            .as_ref()
            .ok()
            .map(|b| String::from_utf8_lossy(b).into_owned())
    }
}

/// Validates the folder at `dir` when its marker file (`detect.installed.file`) exists, as the
/// family's tools do; `None` means "not installed here".
pub fn inspect(dir: &Path, marker: &str) -> Option<InstalledCopy> {
    // The marker must be a regular file (a link to one counts), as the kit's check wants: a
    // folder named SKILL.md is no install. A marker that cannot be looked at (no permission) is
    // let through, and the validator then says it cannot read it.
    match std::fs::metadata(dir.join(marker)) {
        Ok(m) if !m.is_file() => return None,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        _ => {}
    }
    Some(read_copy(dir))
}

/// Reads and validates the member folder at `dir`, whatever is there.
pub fn read_copy(dir: &Path) -> InstalledCopy {
    read_copy_from(&SkillDir::new(dir))
}

/// [`read_copy`] over any folder view: `capability.json` read once through
/// [`ManifestFiles::manifest`], every other file at most once.
pub fn read_copy_from(files: &dyn ManifestFiles) -> InstalledCopy {
    let once = OnceFiles::new(files);
    let manifest = files.manifest().map_err(|e| e.to_string());
    let report = aw_manifest::validate(
        manifest.as_deref().ok(),
        &files.root().to_string_lossy(),
        &once,
    );
    let version = aw_manifest::read_authoritative_version(&once);
    let summary = manifest.as_deref().ok().and_then(aw_manifest::summary);
    InstalledCopy {
        manifest,
        report,
        version,
        summary,
    }
}

/// A member folder as [`read_copy_from`] reads it: the validator's view of its files, and its
/// `capability.json`.
pub trait ManifestFiles: SkillFiles {
    /// The folder.
    fn root(&self) -> &Path;
    /// The bytes of `capability.json` (a regular file; anything else is an error).
    fn manifest(&self) -> std::io::Result<Vec<u8>>;
}

impl ManifestFiles for SkillDir {
    fn root(&self) -> &Path {
        SkillDir::root(self)
    }

    fn manifest(&self) -> std::io::Result<Vec<u8>> {
        self.manifest_bytes()
    }
}

/// A folder view that reads each file once and answers later asks from what it read.
struct OnceFiles<'a> {
    files: &'a dyn SkillFiles,
    read: RefCell<HashMap<String, FileRead>>,
}

impl<'a> OnceFiles<'a> {
    fn new(files: &'a dyn SkillFiles) -> Self {
        OnceFiles {
            files,
            read: RefCell::new(HashMap::new()),
        }
    }
}

impl SkillFiles for OnceFiles<'_> {
    fn exists(&self, rel: &str) -> bool {
        self.files.exists(rel)
    }

    fn read(&self, rel: &str) -> FileRead {
        if let Some(found) = self.read.borrow().get(rel) {
            return found.clone();
        }
        let found = self.files.read(rel);
        self.read.borrow_mut().insert(rel.to_owned(), found.clone());
        found
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// A member folder in memory that counts every read.
    struct Counted {
        root: std::path::PathBuf,
        files: HashMap<&'static str, &'static str>,
        reads: RefCell<HashMap<String, usize>>,
        manifest_reads: Cell<usize>,
    }

    impl SkillFiles for Counted {
        fn exists(&self, rel: &str) -> bool {
            self.files.contains_key(rel)
        }

        fn read(&self, rel: &str) -> FileRead {
            *self.reads.borrow_mut().entry(rel.to_owned()).or_default() += 1;
            self.files
                .get(rel)
                .map_or(FileRead::Absent, |t| FileRead::Bytes(t.as_bytes().to_vec()))
        }
    }

    impl ManifestFiles for Counted {
        fn root(&self) -> &Path {
            &self.root
        }

        fn manifest(&self) -> std::io::Result<Vec<u8>> {
            self.manifest_reads.set(self.manifest_reads.get() + 1);
            Ok(self.files["capability.json"].as_bytes().to_vec())
        }
    }

    #[test]
    fn a_member_folder_is_read_once_for_every_question_a_command_asks() {
        let folder = Counted {
            root: "/skills/m".into(),
            files: HashMap::from([
                ("capability.json", r#"{"name":"m","settings":{}}"#),
                (
                    "SKILL.md",
                    "---\nname: m\nmetadata:\n  version: 1.2.3\n---\n",
                ),
            ]),
            reads: RefCell::new(HashMap::new()),
            manifest_reads: Cell::new(0),
        };
        let copy = read_copy_from(&folder);
        // Everything the family verbs ask of a member comes from this one read.
        let _ = (copy.settings(), copy.text(), copy.summary.clone());
        assert_eq!(folder.manifest_reads.get(), 1);
        assert!(
            folder.reads.borrow().values().all(|n| *n == 1),
            "{:?}",
            folder.reads.borrow()
        );
        assert_eq!(folder.reads.borrow().get("SKILL.md"), Some(&1));
    }
}
