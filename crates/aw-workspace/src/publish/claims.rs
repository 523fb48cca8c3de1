//! The numbers a plan claims (a design `create`'s `NNN-design-<slug>`), checked under the lock
//! before the first write, and what an entry that already has a claimed number is:
//!
//! - **another plan's**: an entry with the number under another name, or the plan's own name
//!   holding something that is not the plan's → `DESIGN_NUMBER_TAKEN` (prepare again: the next
//!   number is picked then);
//! - **this plan's, half made**: the plan's own name holding nothing but some of the plan's own
//!   files with exactly the plan's bytes, and temporary leftovers of aw's writers (what a kill
//!   left when packages were written file by file: an empty folder, only `.aw-tmp-*`, or
//!   `DESIGN.md` without its manifest) → set aside under a temporary name, and the plan
//!   published whole, so a retry completes it;
//! - **this plan's, moved on**: the plan's own name whose manifest records the identity the
//!   plan gave and the revision it wrote (the package was updated, or edited, since) → the plan
//!   was published: complete, nothing written, never a second package.

use super::from_workspace;
use crate::io::atomic::TEMP_PREFIX;
use crate::io::containment::write_target;
use crate::io::folder::read_regular_sized;
use aw_core::capability::error::CapabilityError;
use aw_core::capability::handler::{ClaimLineage, NumberClaim};
use aw_core::capability::paths::unsafe_relative;
use aw_core::capability::plan::Artifact;
use aw_core::design::manifest::{MAX_MANIFEST_BYTES, records_lineage};
use aw_core::error_code::ErrorCode;
use aw_core::vocab::correlative::Correlative;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// What the claimed numbers found.
#[derive(Debug)]
pub(super) enum Claimed {
    /// Every claimed number is free.
    Free,
    /// A claimed entry is this plan's own, moved on since: these of the plan's paths hold other
    /// bytes now.
    MovedOn(Vec<String>),
    /// These claimed entries (real paths) hold part of this plan's own files and aw's
    /// temporary leftovers only: set them aside, and publish the plan whole.
    Half(Vec<PathBuf>),
}

/// Checks each claim's number in its folder, under the lock (see the module notes).
pub(super) fn check(
    root: &Path,
    claims: &[NumberClaim],
    artifacts: &[Artifact],
) -> Result<Claimed, CapabilityError> {
    let mut half = Vec::new();
    let mut moved_on: Option<Vec<String>> = None;
    for claim in claims {
        let dir = folder_of(root, claim)?;
        let Some(name) = holder(&dir, &claim.number)? else {
            continue;
        };
        let taken = |why: &str| {
            CapabilityError::new(
                ErrorCode::DesignNumberTaken,
                format!(
                    "'{}' was to take the number {} in '{}', and '{name}' has it now{why}",
                    claim.folder, claim.number, claim.dir
                ),
                "Run prepare and validate again: the next free number is picked then, and the answer's path follows it.",
            )
        };
        if name != claim.folder {
            return Err(taken(": another plan published its package first"));
        }
        let entry = dir.join(&name);
        let rel = if claim.dir == "." {
            claim.folder.clone()
        } else {
            format!("{}/{}", claim.dir.trim_end_matches('/'), claim.folder)
        };
        if holds_only_ours(&entry, &rel, artifacts) {
            half.push(entry);
        } else if let Some(lineage) = &claim.lineage
            && descends(&entry, lineage)
        {
            let prefix = format!("{rel}/");
            let changed = artifacts
                .iter()
                .filter(|a| a.path.starts_with(&prefix))
                .filter(|a| !holds(&root.join(&a.path), a.content.as_bytes()))
                .map(|a| a.path.clone())
                .collect();
            moved_on = Some(changed);
        } else {
            return Err(taken(
                ": it has this plan's name, but it is not this plan's package (its files are not the plan's, and its manifest records none of the plan's revisions)",
            ));
        }
    }
    Ok(match (moved_on, half.is_empty()) {
        (Some(changed), _) => Claimed::MovedOn(changed),
        (None, false) => Claimed::Half(half),
        (None, true) => Claimed::Free,
    })
}

/// The claim's numbered folder, where a write there lands.
fn folder_of(root: &Path, claim: &NumberClaim) -> Result<PathBuf, CapabilityError> {
    if claim.dir == "." {
        return Ok(root.to_path_buf());
    }
    if unsafe_relative(&claim.dir).is_some() {
        return Err(CapabilityError::new(
            ErrorCode::SemanticPathRejected,
            format!(
                "the numbered folder '{}' is not a safe relative path",
                claim.dir
            ),
            "Prepare the plan again.",
        ));
    }
    write_target(root, &root.join(&claim.dir)).map_err(|e| from_workspace(None, e))
}

/// The entry of `dir` (other than a temporary one of aw's) that carries `number`, if any.
fn holder(dir: &Path, number: &str) -> Result<Option<String>, CapabilityError> {
    let Some(number) = Correlative::from_digits(number) else {
        return Ok(None);
    };
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {
            return Ok(None);
        }
        Err(e) => {
            return Err(from_workspace(
                None,
                crate::error::WorkspaceError::io("could not list", dir, e),
            ));
        }
    };
    Ok(entries
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| !name.starts_with(TEMP_PREFIX))
        .find(|name| Correlative::of_name(name).as_ref() == Some(&number)))
}

/// Whether the regular file at `path` (no final link) holds exactly `bytes`.
fn holds(path: &Path, bytes: &[u8]) -> bool {
    std::fs::symlink_metadata(path)
        .is_ok_and(|m| m.file_type().is_file() && m.len() == bytes.len() as u64)
        && read_regular_sized(path, bytes.len() as u64).is_ok_and(|b| b.as_deref() == Some(bytes))
}

/// Whether the real folder at `dir` (the plan's path `rel`) holds nothing but the plan's own
/// files with exactly their bytes, folders on the way to them, and aw's temporary leftovers.
/// A link anywhere, or anything else, is not ours.
fn holds_only_ours(dir: &Path, rel: &str, artifacts: &[Artifact]) -> bool {
    if !std::fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()) {
        return false;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    for entry in entries {
        let Ok(entry) = entry else {
            return false;
        };
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(TEMP_PREFIX) {
            continue;
        }
        let child = format!("{rel}/{name}");
        let Ok(meta) = std::fs::symlink_metadata(entry.path()) else {
            return false;
        };
        let ours = if meta.is_dir() {
            let prefix = format!("{child}/");
            artifacts.iter().any(|a| a.path.starts_with(&prefix))
                && holds_only_ours(&entry.path(), &child, artifacts)
        } else if meta.file_type().is_file() {
            artifacts
                .iter()
                .find(|a| a.path == child)
                .is_some_and(|a| holds(&entry.path(), a.content.as_bytes()))
        } else {
            false
        };
        if !ours {
            return false;
        }
    }
    true
}

/// Whether the real folder `entry` holds a manifest (a regular file, of a manifest's size)
/// that records `lineage`.
fn descends(entry: &Path, lineage: &ClaimLineage) -> bool {
    if !std::fs::symlink_metadata(entry).is_ok_and(|m| m.is_dir()) {
        return false;
    }
    let path = entry.join(&lineage.manifest);
    let Ok(meta) = std::fs::symlink_metadata(&path) else {
        return false;
    };
    meta.file_type().is_file()
        && meta.len() <= MAX_MANIFEST_BYTES
        && read_regular_sized(&path, meta.len())
            .is_ok_and(|b| b.is_some_and(|b| records_lineage(&b, &lineage.id, &lineage.digest)))
}
