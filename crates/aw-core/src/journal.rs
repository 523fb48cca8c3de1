//! The publish journal: what makes a publish of several files all or nothing across a kill.
//!
//! A publish whose files cannot appear with one rename (several folders, or files replaced inside
//! an existing package) first writes, atomically, a journal naming every file with the bytes it
//! is to hold and the bytes it held before. Once the journal is on disk the publish is decided:
//! a later command that finds it (the next apply, or a command that reads the documents a
//! publish writes) looks at each file and finishes the publish (rolls it forward) or, when a file
//! holds something neither before nor after (someone else changed it since), undoes it (rolls it
//! back). A publish that fails by itself marks its journal `back` before undoing, so a kill
//! during the undo is finished as an undo, never turned into a write.
//!
//! A journal is a file in the workspace, so a repository could commit one, and a copy of a
//! workspace carries one along: replaying it would write whatever it says. Three rules keep a
//! journal from being anything but this machine's own interrupted publish:
//! - It is **bound** ([`Binding`]): it records the device and inode of the folder that holds it
//!   (and, to name it, the root it was written for). A clone or a copy has another folder
//!   (another inode), so its journal is foreign: never replayed, only reported; the same
//!   workspace moved or reached through another mount is still itself.
//! - It names only **what a publish of several parts writes** ([`recoverable_path`]): a document
//!   directly in `docs/research`, `docs/specs` or `docs/plans`, or a file of a design package
//!   under `docs/designs`; never a settings file, a hook, a source file or a README.
//! - It is **bounded** ([`MAX_JOURNAL_BYTES`], [`MAX_JOURNAL_FILES`]), the same bound when it is
//!   written and when it is read, and its binding sits on its first line
//!   ([`MAX_HEADER_BYTES`]), so a foreign journal is recognised without reading the rest.
//!
//! The shell adds the rule that needs the disk: every path is reached without any symbolic link,
//! checked again when the journal is replayed. This module is the format and the decisions.

use crate::capability::paths::unsafe_relative;
use crate::design::manifest::{DESIGN_DOC_FILE, MANIFEST_FILE, REVISIONS_DIR, folder_number};
use crate::design::render::RENDERS_DIR;
use crate::design::review::REVIEWS_DIR;
use crate::documents::names::{DocKind, parse_name};
use crate::persist::answer::is_valid_slug;
use serde::{Deserialize, Serialize};

/// The journal format's version.
pub const JOURNAL_VERSION: u32 = 2;

/// The largest journal written or read back: a plan's files are bounded (60 artifacts of
/// 256,000 bytes; a design update's three files) well below it. A journal larger than this is
/// refused before a publish writes anything, and never read.
pub const MAX_JOURNAL_BYTES: u64 = 64 * 1024 * 1024;

/// The most files a journal names (a plan has at most 60 artifacts).
pub const MAX_JOURNAL_FILES: usize = 64;

/// The longest first line (the header: version and binding) read to decide whether a journal is
/// this workspace's; the rest is read only when it is.
pub const MAX_HEADER_BYTES: usize = 16 * 1024;

/// Which way an unfinished publish goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// The publish was decided: every file is to end holding its `content`.
    Forward,
    /// The publish failed, or could not be finished: every file of ours goes back to `previous`.
    Back,
}

/// The bytes a replaced file held, as text when they are UTF-8, else as lowercase hex.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Previous {
    /// UTF-8 bytes.
    Text(String),
    /// Any other bytes, two hex digits each.
    Hex(String),
}

impl Previous {
    /// The journal form of `bytes`.
    pub fn of(bytes: &[u8]) -> Self {
        match std::str::from_utf8(bytes) {
            Ok(text) => Previous::Text(text.to_owned()),
            Err(_) => Previous::Hex(bytes.iter().map(|b| format!("{b:02x}")).collect()),
        }
    }

    /// How many bytes they are (without decoding them); `None` when the hex form is odd.
    pub fn byte_len(&self) -> Option<u64> {
        match self {
            Previous::Text(text) => Some(text.len() as u64),
            Previous::Hex(hex) if hex.len() % 2 == 0 => Some(hex.len() as u64 / 2),
            Previous::Hex(_) => None,
        }
    }

    /// The bytes; `None` when the hex form is not an even run of hex digits.
    pub fn bytes(&self) -> Option<Vec<u8>> {
        match self {
            Previous::Text(text) => Some(text.as_bytes().to_vec()),
            Previous::Hex(hex) => {
                let digits = hex.as_bytes();
                if digits.len() % 2 != 0 {
                    return None;
                }
                digits
                    .chunks(2)
                    .map(|pair| {
                        std::str::from_utf8(pair)
                            .ok()
                            .and_then(|s| u8::from_str_radix(s, 16).ok())
                    })
                    .collect()
            }
        }
    }
}

/// One file of a journalled publish.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct JournalFile {
    /// Where, relative to the publish root, reached without any symbolic link.
    pub path: String,
    /// The bytes it is to hold.
    pub content: String,
    /// What it held before (`None`: it did not exist).
    pub previous: Option<Previous>,
}

/// What ties a journal to the one workspace (or explicit root) whose publish wrote it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Binding {
    /// The root's absolute path, canonical (links resolved), as the shell shows paths.
    pub root: String,
    /// The device of the folder that holds the journal (its state folder), as `lstat` says.
    pub device: u64,
    /// The inode of that folder: a clone or a copy of the workspace has another one.
    pub inode: u64,
}

/// The first line of a journal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct Header {
    version: u32,
    binding: Binding,
}

/// The rest of a journal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct Body {
    direction: Direction,
    files: Vec<JournalFile>,
    folders: Vec<String>,
}

/// A journalled publish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Journal {
    /// Whose it is.
    pub binding: Binding,
    /// Which way it goes.
    pub direction: Direction,
    /// Its files, in plan order.
    pub files: Vec<JournalFile>,
    /// The folders it creates, relative to the root, parents first: an undo removes them,
    /// deepest first, when they are empty.
    pub folders: Vec<String>,
}

/// What a file of the journal holds now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileState {
    /// Exactly its `content`.
    Published,
    /// What it held before: nothing for a new file, its `previous` bytes for a replaced one.
    Before,
    /// Anything else (other bytes, a folder, a link, nothing where a file was): someone else's.
    Other,
}

/// What to do with a journal found on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recovery {
    /// Every file is published: only the journal is left to remove.
    Done,
    /// Finish the publish: write these files (indexes into `files`), then remove the journal.
    Forward(Vec<usize>),
    /// Undo it: each file that holds its `content` goes back to `previous`, the folders go,
    /// then the journal.
    Back,
}

impl Journal {
    /// A journal going forward.
    pub fn forward(binding: Binding, files: Vec<JournalFile>, folders: Vec<String>) -> Self {
        Journal {
            binding,
            direction: Direction::Forward,
            files,
            folders,
        }
    }

    /// The binding on a journal's first line (without its newline): the version must be this
    /// aw's, and the line a header. Why not, when it is not.
    pub fn header(line: &str) -> Result<Binding, String> {
        let header: Header = serde_json::from_str(line).map_err(|_| {
            "its first line is not the header of a publish journal this aw writes (it may come from another version of aw)".to_owned()
        })?;
        if header.version != JOURNAL_VERSION {
            return Err(format!(
                "it is a publish journal of version {}, which this aw does not know",
                header.version
            ));
        }
        Ok(header.binding)
    }

    /// Reads a journal's whole text: its header, its body, and the rules of [`Journal::check`].
    /// Why not, when it is not one.
    pub fn parse(text: &str) -> Result<Self, String> {
        let (line, rest) = text.split_once('\n').unwrap_or((text, ""));
        let binding = Self::header(line)?;
        let body: Body =
            serde_json::from_str(rest).map_err(|e| format!("it is not a publish journal: {e}"))?;
        let journal = Journal {
            binding,
            direction: body.direction,
            files: body.files,
            folders: body.folders,
        };
        journal.check()?;
        Ok(journal)
    }

    /// The rules every journal keeps, checked when one is written and again when one is read:
    /// at most [`MAX_JOURNAL_FILES`] files, each path once and each one [`recoverable_path`],
    /// each folder [`recoverable_folder`], each `previous` decodable.
    pub fn check(&self) -> Result<(), String> {
        if self.files.len() > MAX_JOURNAL_FILES {
            return Err(format!(
                "it names {} files, more than the {MAX_JOURNAL_FILES} a publish writes",
                self.files.len()
            ));
        }
        for (i, file) in self.files.iter().enumerate() {
            if let Some(why) = recoverable_path(&file.path) {
                return Err(format!("its path '{}' {why}", file.path));
            }
            if self.files[..i].iter().any(|f| f.path == file.path) {
                return Err(format!("it names '{}' twice", file.path));
            }
            if file.previous.as_ref().is_some_and(|p| p.bytes().is_none()) {
                return Err(format!(
                    "the previous bytes of '{}' are not hex digits",
                    file.path
                ));
            }
        }
        for folder in &self.folders {
            if let Some(why) = recoverable_folder(folder, &self.files) {
                return Err(format!("its folder '{folder}' {why}"));
            }
        }
        Ok(())
    }

    /// The journal's text: the header (version and binding) on the first line, then the rest
    /// as pretty JSON, one trailing newline.
    pub fn render(&self) -> String {
        let header = Header {
            version: JOURNAL_VERSION,
            binding: self.binding.clone(),
        };
        let body = Body {
            direction: self.direction,
            files: self.files.clone(),
            folders: self.folders.clone(),
        };
        let mut text = serde_json::to_string(&header).unwrap_or_default();
        text.push('\n');
        text.push_str(&serde_json::to_string_pretty(&body).unwrap_or_default());
        text.push('\n');
        text
    }

    /// The same journal, going back.
    pub fn backward(&self) -> Self {
        Journal {
            direction: Direction::Back,
            ..self.clone()
        }
    }

    /// What to do, given what each file holds now (`states`, one per file, in order): a journal
    /// marked `back` is undone; one whose files are all published is done; one with a file
    /// someone else changed since is undone (finishing it would write over their change);
    /// otherwise the files not yet published are written.
    pub fn recovery(&self, states: &[FileState]) -> Recovery {
        if self.direction == Direction::Back || states.contains(&FileState::Other) {
            return Recovery::Back;
        }
        let pending: Vec<usize> = states
            .iter()
            .enumerate()
            .filter(|(_, s)| **s == FileState::Before)
            .map(|(i, _)| i)
            .collect();
        if pending.is_empty() {
            Recovery::Done
        } else {
            Recovery::Forward(pending)
        }
    }
}

/// The files of a design package a publish of several parts writes (relative to the package).
fn is_package_file(rest: &[&str]) -> bool {
    let plain = |s: &str| !s.is_empty() && !s.starts_with('.');
    match rest {
        [name] => *name == DESIGN_DOC_FILE || *name == MANIFEST_FILE,
        [dir, name] => (*dir == REVISIONS_DIR || *dir == REVIEWS_DIR) && plain(name),
        [dir, profile, name] => *dir == RENDERS_DIR && plain(profile) && plain(name),
        _ => false,
    }
}

/// Whether `rest` (the segments after a `docs` segment) is a document a persist writes:
/// `<research|specs|plans>/NNN-<kind>-<slug>.md`, the grammar read case-sensitively, as the
/// reference writes it.
fn is_document(rest: &[&str]) -> bool {
    let [folder, name] = rest else {
        return false;
    };
    let Some(kind) = DocKind::ALL
        .into_iter()
        .find(|k| k.folder().strip_prefix("docs/") == Some(*folder))
    else {
        return false;
    };
    parse_name(kind, name)
        .is_some_and(|n| is_valid_slug(&n.slug) && kind.file_name(&n.number, &n.slug) == **name)
}

/// Whether `rest` (the segments after a `docs` segment) is a file of a design package under
/// `designs/`: grouping folders (hidden ones too: `docs/designs/.drafts` is a root a person may
/// choose), a `NNN-design-<slug>` folder, then one of the package's files.
fn is_design_file(rest: &[&str]) -> bool {
    let Some((first, tail)) = rest.split_first() else {
        return false;
    };
    *first == "designs"
        && (0..tail.len())
            .any(|j| folder_number(tail[j]).is_some() && is_package_file(&tail[j + 1..]))
}

/// The index of each `docs` segment of `segments` that no hidden segment precedes.
fn docs_segments<'a>(segments: &'a [&str]) -> impl Iterator<Item = usize> + 'a {
    let first_hidden = segments
        .iter()
        .position(|s| s.starts_with('.'))
        .unwrap_or(segments.len());
    (0..first_hidden).filter(move |&i| segments[i] == "docs")
}

/// Why a journal may not name the file `path`, if it may not. It must be a safe relative path,
/// with no `.git` segment, and be what a publish of several parts writes: a document directly in
/// `docs/research`, `docs/specs` or `docs/plans` (`NNN-<kind>-<slug>.md`), or a file of a design
/// package under `docs/designs` (`DESIGN.md`, `design-manifest.json`, `revisions/*`,
/// `reviews/*`, `renders/<profile>/*`). The `docs` folder may sit below other folders (where a
/// link inside the workspace led the publish: `shared/docs/specs/…`), none of them hidden. Even
/// a journal forged on this machine then cannot write a settings file, a hook, a source file or
/// a README.
pub fn recoverable_path(path: &str) -> Option<&'static str> {
    if let Some(why) = unsafe_relative(path) {
        return Some(why);
    }
    let segments: Vec<&str> = path.split('/').collect();
    if segments.contains(&".git") {
        return Some("leads into a .git folder");
    }
    let fits = docs_segments(&segments).any(|i| {
        let rest = &segments[i + 1..];
        is_document(rest) || is_design_file(rest)
    });
    if fits {
        None
    } else {
        Some(
            "is not what a publish of several files writes (a document directly in docs/research, docs/specs or docs/plans, or a file of a design package under docs/designs)",
        )
    }
}

/// Why a journal may not name `folder` among those its publish created, if it may not: a safe
/// relative path with no `.git` segment, a `docs` folder or one below it (no hidden folder
/// above that `docs`), and a folder that holds one of the journal's `files`. An undo removes
/// such a folder only when it is empty.
pub fn recoverable_folder(folder: &str, files: &[JournalFile]) -> Option<&'static str> {
    if let Some(why) = unsafe_relative(folder) {
        return Some(why);
    }
    let segments: Vec<&str> = folder.split('/').collect();
    if segments.contains(&".git") {
        return Some("leads into a .git folder");
    }
    if docs_segments(&segments).next().is_none() {
        return Some("is not a docs folder or a folder below one");
    }
    let prefix = format!("{folder}/");
    if !files.iter().any(|f| f.path.starts_with(&prefix)) {
        return Some("holds none of the journal's files");
    }
    None
}

#[cfg(test)]
#[path = "journal_tests.rs"]
mod tests;
