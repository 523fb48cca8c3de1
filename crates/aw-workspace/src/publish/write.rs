//! The writes of a publish: the plan of what appears how (every check that needs the disk made
//! before the first write), the parts written one rename each, and the undo.
//!
//! A plan's files are grouped into **parts**, each made to appear with one rename: the files
//! under a folder that does not exist yet are assembled in a temporary folder beside it and
//! renamed into place whole (a new design package is one part, so a reader or a kill sees no
//! package or the whole package); a file whose folders all exist is its own part (a new file
//! linked into place only if the name is free, or a replaced file renamed over the old one).
//! A publish of one part needs nothing more; one of several parts is journalled (`journal.rs`).

use super::{failed, from_workspace};
use crate::error::WorkspaceError;
use crate::io::atomic;
use crate::io::containment::{entry_target, write_target};
use crate::io::folder::{read_regular_path, read_regular_sized};
use aw_core::capability::error::CapabilityError;
use aw_core::capability::plan::Artifact;
use aw_core::error_code::ErrorCode;
use aw_core::journal::{FileState, JournalFile, Previous};
use std::collections::HashMap;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// One file a publish writes.
#[derive(Debug, Clone)]
pub(super) struct PlannedFile {
    /// Relative to the root.
    pub rel: String,
    /// The bytes it is to hold.
    pub content: String,
    /// What it holds now (`None`: nothing is there).
    pub previous: Option<Vec<u8>>,
}

/// One part of a publish: what appears with one rename.
#[derive(Debug, Clone)]
pub(super) enum Part {
    /// A file whose folders exist (an index into the plan's files).
    File(usize),
    /// A folder that does not exist yet (relative to the root), with the files under it.
    Folder { rel: String, files: Vec<usize> },
}

/// What a publish writes, checked against the disk.
#[derive(Debug, Clone)]
pub(super) struct WritePlan {
    /// Each path once, in plan order (a later artifact at the same path replaces an earlier
    /// one when it may overwrite).
    pub files: Vec<PlannedFile>,
    /// The parts, in the order their first file comes in the plan.
    pub parts: Vec<Part>,
    /// Every folder the publish creates, relative to the root, parents first.
    pub folders: Vec<String>,
}

impl WritePlan {
    /// The files as a journal names them (paths as the plan gives them), going forward.
    pub fn journal_files(&self) -> Vec<JournalFile> {
        self.files
            .iter()
            .map(|f| JournalFile {
                path: f.rel.clone(),
                content: f.content.clone(),
                previous: f.previous.as_deref().map(Previous::of),
            })
            .collect()
    }
}

/// Checks every artifact against the disk and plans the parts, writing nothing. A folder on the
/// way that is a file (or a file this plan writes), a target that is not a regular file, and a
/// target that exists without `overwrite: true` are refused here, before the first write.
pub(super) fn plan(
    root: &Path,
    artifacts: &[Artifact],
) -> std::result::Result<WritePlan, CapabilityError> {
    let mut files: Vec<PlannedFile> = Vec::new();
    let mut tops: Vec<Option<String>> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut folders: Vec<String> = Vec::new();
    for artifact in artifacts {
        let rel = artifact.path.as_str();
        if let Some(&i) = index.get(rel) {
            if artifact.overwrite != Some(true) {
                return Err(exists(rel, "the plan writes it twice"));
            }
            files[i].content = artifact.content.clone();
            continue;
        }
        if folders.iter().any(|f| f == rel) {
            return Err(failed(
                rel,
                "the plan also needs a folder at this path".to_owned(),
            ));
        }
        let segments: Vec<&str> = rel.split('/').collect();
        let mut top = None;
        for i in 0..segments.len() - 1 {
            let shown = segments[..=i].join("/");
            if index.contains_key(&shown) {
                return Err(failed(
                    rel,
                    format!(
                        "'{shown}' is in the way: the artifact needs a folder there, and the plan writes a file there"
                    ),
                ));
            }
            if top.is_some() {
                push_once(&mut folders, shown);
                continue;
            }
            let real =
                write_target(root, &root.join(&shown)).map_err(|e| from_workspace(Some(rel), e))?;
            match std::fs::symlink_metadata(&real) {
                Ok(meta) if meta.is_dir() => {}
                Ok(_) => {
                    return Err(failed(
                        rel,
                        format!(
                            "'{shown}' is in the way: the artifact needs a folder there, and it is a file"
                        ),
                    ));
                }
                Err(e) if e.kind() == ErrorKind::NotFound => {
                    top = Some(shown.clone());
                    push_once(&mut folders, shown);
                }
                Err(e) => {
                    return Err(failed(
                        rel,
                        format!("the folder '{shown}' could not be inspected: {e}"),
                    ));
                }
            }
        }
        let previous = if top.is_some() {
            None
        } else {
            existing(root, artifact)?
        };
        index.insert(rel.to_owned(), files.len());
        files.push(PlannedFile {
            rel: rel.to_owned(),
            content: artifact.content.clone(),
            previous,
        });
        tops.push(top);
    }
    let mut parts: Vec<Part> = Vec::new();
    for (i, top) in tops.into_iter().enumerate() {
        match top {
            None => parts.push(Part::File(i)),
            Some(top) => {
                let found = parts.iter_mut().find_map(|p| match p {
                    Part::Folder { rel, files } if *rel == top => Some(files),
                    _ => None,
                });
                match found {
                    Some(files) => files.push(i),
                    None => parts.push(Part::Folder {
                        rel: top,
                        files: vec![i],
                    }),
                }
            }
        }
    }
    Ok(WritePlan {
        files,
        parts,
        folders,
    })
}

fn push_once(folders: &mut Vec<String>, folder: String) {
    if !folders.contains(&folder) {
        folders.push(folder);
    }
}

/// What is at an artifact's target whose folders exist: nothing (`None`), or a regular file
/// reached without a final link, whose bytes are returned when the artifact may replace it.
fn existing(
    root: &Path,
    artifact: &Artifact,
) -> std::result::Result<Option<Vec<u8>>, CapabilityError> {
    let rel = artifact.path.as_str();
    let entry = entry_target(root, &root.join(rel)).map_err(|e| from_workspace(Some(rel), e))?;
    let meta = match std::fs::symlink_metadata(&entry) {
        Ok(meta) => meta,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(failed(rel, format!("it could not be inspected: {e}"))),
    };
    if !meta.file_type().is_file() {
        return Err(failed(
            rel,
            "something that is not a regular file is there (a symbolic link, a folder, a FIFO or a device); aw neither reads it nor writes through it".to_owned(),
        ));
    }
    if artifact.overwrite != Some(true) {
        return Err(exists(rel, "the plan does not allow replacing it"));
    }
    read_regular_path(&entry)
        .map(Some)
        .map_err(|e| failed(rel, format!("the file there could not be read: {e}")))
}

fn exists(rel: &str, why: &str) -> CapabilityError {
    CapabilityError::new(
        ErrorCode::PublishTargetExists,
        format!("'{rel}' already exists, and {why}"),
        "Move the existing file aside, or prepare the plan again allowing it to be overwritten, then apply.",
    )
}

/// Writes one part. Once this returns, whatever it made appear is on disk and synced; on an
/// error nothing of it appeared, except a file whose folder sync failed after its rename (the
/// undo finds it by its bytes).
pub(super) fn write_part(
    root: &Path,
    plan: &WritePlan,
    part: &Part,
) -> std::result::Result<(), CapabilityError> {
    match part {
        Part::File(i) => {
            let file = &plan.files[*i];
            let target = root.join(&file.rel);
            let bytes = file.content.as_bytes();
            if file.previous.is_some() {
                return atomic::write(root, &target, bytes)
                    .map_err(|e| from_workspace(Some(&file.rel), e));
            }
            match atomic::link_new(root, &target, bytes) {
                Ok(Some(dir)) => {
                    atomic::sync_dir(&dir).map_err(|e| from_workspace(Some(&file.rel), e))
                }
                Ok(None) => Err(appeared(&file.rel)),
                Err(e) => Err(from_workspace(Some(&file.rel), e)),
            }
        }
        Part::Folder { rel, files } => {
            let mut staged = atomic::stage_dir(root, &root.join(rel))
                .map_err(|e| from_workspace(Some(rel), e))?;
            let prefix = format!("{rel}/");
            for i in files {
                let file = &plan.files[*i];
                let inner = file.rel.strip_prefix(&prefix).unwrap_or(&file.rel);
                staged
                    .write_file(inner, file.content.as_bytes())
                    .map_err(|e| from_workspace(Some(&file.rel), e))?;
            }
            match staged.persist_noclobber() {
                Ok(true) => Ok(()),
                Ok(false) => Err(appeared(rel)),
                Err(e) => Err(from_workspace(Some(rel), e)),
            }
        }
    }
}

fn appeared(rel: &str) -> CapabilityError {
    CapabilityError::new(
        ErrorCode::PublishTargetExists,
        format!(
            "'{rel}' appeared while the apply was creating it, and the plan does not allow replacing it"
        ),
        "Check what created it, then apply again.",
    )
}

/// What a journalled file holds now, compared with what the journal says it held and is to
/// hold. Reached as a write reaches it (no final link): a link, a folder or anything else in its
/// place is someone else's. The size is compared first, and the bytes are read only when it is
/// the size of the content or of the previous bytes, and no further than that: a journal naming
/// a huge file costs one `lstat`.
pub(super) fn state_of(root: &Path, file: &JournalFile) -> FileState {
    let Ok(entry) = entry_target(root, &root.join(&file.path)) else {
        return FileState::Other;
    };
    let meta = match std::fs::symlink_metadata(&entry) {
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {
            return if file.previous.is_none() {
                FileState::Before
            } else {
                FileState::Other
            };
        }
        Ok(meta) if meta.file_type().is_file() => meta,
        _ => return FileState::Other,
    };
    let content = file.content.as_bytes();
    let previous_len = file.previous.as_ref().and_then(Previous::byte_len);
    let size = meta.len();
    if size != content.len() as u64 && Some(size) != previous_len {
        return FileState::Other;
    }
    let Ok(Some(now)) = read_regular_sized(&entry, size) else {
        return FileState::Other;
    };
    #[cfg(test)]
    BYTES_COMPARED.with(|c| c.set(c.get() + now.len() as u64));
    if now == content {
        FileState::Published
    } else if Some(now.len() as u64) == previous_len
        && file.previous.as_ref().and_then(Previous::bytes).as_deref() == Some(&now[..])
    {
        FileState::Before
    } else {
        FileState::Other
    }
}

#[cfg(test)]
thread_local! {
    /// How many bytes [`state_of`] read on this thread, for a test of what a recovery costs.
    pub(super) static BYTES_COMPARED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How an undo went: what it put back, and what it could not undo.
#[derive(Debug, Default)]
pub(super) struct Undone {
    /// The new files it removed.
    pub removed: Vec<String>,
    /// The replaced files whose previous bytes it put back.
    pub restored: Vec<String>,
    /// The empty folders it removed.
    pub removed_folders: Vec<String>,
    /// What it could not undo.
    pub left: Vec<super::Leftover>,
}

impl Undone {
    /// Whether it changed anything.
    pub fn changed(&self) -> bool {
        !(self.removed.is_empty() && self.restored.is_empty() && self.removed_folders.is_empty())
    }
}

/// Undoes a publish of `files` (which created `folders`): newest first, each file that holds
/// exactly its content goes back (a new one removed, a replaced one given its previous bytes
/// back, keeping its permissions); a file that holds anything else is left alone (it is as it
/// was, or someone else's). `states`, when the caller already looked, is what each file holds
/// (so no file is read twice). Then the folders, deepest first, when they are empty real
/// folders (a folder something else filled is not ours to empty, and a link is not a folder).
/// A kill in the middle is finished by the next recovery of the journal, which says `back`.
pub(super) fn undo(
    root: &Path,
    files: &[JournalFile],
    folders: &[String],
    states: Option<Vec<FileState>>,
) -> Undone {
    let mut out = Undone::default();
    for (i, file) in files.iter().enumerate().rev() {
        let state = match &states {
            Some(states) => states.get(i).copied().unwrap_or(FileState::Other),
            None => state_of(root, file),
        };
        if state != FileState::Published {
            continue;
        }
        let target = root.join(&file.path);
        let result = match file.previous.as_ref().map(Previous::bytes) {
            None => atomic::remove_file(root, &target).map(|_| ()),
            Some(Some(bytes)) => atomic::write(root, &target, &bytes),
            // Not reachable for a journal that was parsed; nothing can be restored.
            Some(None) => Err(WorkspaceError::io(
                "could not restore",
                &target,
                std::io::Error::new(ErrorKind::InvalidData, "the previous bytes are unreadable"),
            )),
        };
        match result {
            Ok(()) if file.previous.is_some() => out.restored.push(file.path.clone()),
            Ok(()) => out.removed.push(file.path.clone()),
            Err(e) => out.left.push(super::leftover(
                &file.path,
                if file.previous.is_some() {
                    super::LeftoverKind::PreviousContentLost
                } else {
                    super::LeftoverKind::NewFile
                },
                e,
            )),
        }
        crate::io::test_hook::stall_at("publish-undo");
    }
    for folder in folders.iter().rev() {
        let path: PathBuf = root.join(folder);
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.is_dir() => {}
            // Gone, or not a folder of ours (a link, a file someone put there): nothing to undo.
            _ => continue,
        }
        match atomic::remove_empty_dir(root, &path) {
            Ok(()) => out.removed_folders.push(folder.clone()),
            Err(WorkspaceError::Io { source, .. })
                if matches!(
                    source.kind(),
                    ErrorKind::DirectoryNotEmpty | ErrorKind::NotFound | ErrorKind::NotADirectory
                ) => {}
            Err(e) => out
                .left
                .push(super::leftover(folder, super::LeftoverKind::NewFolder, e)),
        }
    }
    out
}
