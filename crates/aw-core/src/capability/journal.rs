//! The publish journal: what makes a publish of several files all or nothing across a kill.
//!
//! A publish whose files cannot appear with one rename (several folders, or files replaced inside
//! an existing package) first writes, atomically, a journal naming every file with the bytes it
//! is to hold and the bytes it held before. Once the journal is on disk the publish is decided:
//! a later command that finds it (the next apply, or any command locating the workspace) looks
//! at each file and finishes the publish (rolls it forward) or, when a file holds something
//! neither before nor after (someone else changed it since), undoes it (rolls it back). A
//! publish that fails by itself marks its journal `back` before undoing, so a kill during the
//! undo is finished as an undo, never turned into a write.
//!
//! This module is the format and the decisions; the shell reads the files and writes.

use crate::capability::paths::unsafe_relative;
use serde::{Deserialize, Serialize};

/// The journal format's version.
pub const JOURNAL_VERSION: u32 = 1;

/// The largest journal read back (plans are bounded well below this).
pub const MAX_JOURNAL_BYTES: u64 = 64 * 1024 * 1024;

/// Which way an unfinished publish goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// The publish was decided: every file is to end holding its `content`.
    Forward,
    /// The publish failed, or could not be finished: every file of ours goes back to `previous`.
    Back,
}

/// The bytes a replaced file held, as text when they are UTF-8, else as lowercase hex.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JournalFile {
    /// Where, relative to the publish root.
    pub path: String,
    /// The bytes it is to hold.
    pub content: String,
    /// What it held before (`None`: it did not exist).
    pub previous: Option<Previous>,
}

/// A journalled publish.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Journal {
    /// [`JOURNAL_VERSION`].
    pub version: u32,
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
    pub fn forward(files: Vec<JournalFile>, folders: Vec<String>) -> Self {
        Journal {
            version: JOURNAL_VERSION,
            direction: Direction::Forward,
            files,
            folders,
        }
    }

    /// Reads a journal's text: its JSON, its version, and every path a safe relative path that
    /// no hidden segment is on (see [`recoverable_path`]). Why not, when it is not.
    pub fn parse(text: &str) -> Result<Self, String> {
        let journal: Journal =
            serde_json::from_str(text).map_err(|e| format!("it is not a publish journal: {e}"))?;
        if journal.version != JOURNAL_VERSION {
            return Err(format!(
                "it is a publish journal of version {}, which this aw does not know",
                journal.version
            ));
        }
        for path in journal
            .files
            .iter()
            .map(|f| &f.path)
            .chain(&journal.folders)
        {
            if let Some(why) = recoverable_path(path) {
                return Err(format!("its path '{path}' {why}"));
            }
        }
        for file in &journal.files {
            if file.previous.as_ref().is_some_and(|p| p.bytes().is_none()) {
                return Err(format!(
                    "the previous bytes of '{}' are not hex digits",
                    file.path
                ));
            }
        }
        Ok(journal)
    }

    /// The journal's text (pretty JSON, one trailing newline).
    pub fn render(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
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

/// Why a journal may not name `path`, if it may not: it must be a safe relative path, and no
/// segment may start with `.`. A journal is a file in the workspace, so a repository could
/// commit one: finishing it may only write where a commit could write anyway, and never into
/// `.git`, the state folder or a host's hidden configuration (a hook there runs code). Every
/// plan that needs a journal writes under `docs/`.
pub fn recoverable_path(path: &str) -> Option<&'static str> {
    if let Some(why) = unsafe_relative(path) {
        return Some(why);
    }
    if path.split('/').any(|segment| segment.starts_with('.')) {
        return Some("has a hidden segment (one starting with '.')");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, previous: Option<&[u8]>) -> JournalFile {
        JournalFile {
            path: path.to_owned(),
            content: "new".to_owned(),
            previous: previous.map(Previous::of),
        }
    }

    #[test]
    fn a_journal_round_trips_with_text_and_hex_previous_bytes() {
        let j = Journal::forward(
            vec![
                file("docs/specs/001-spec-a.md", None),
                file("docs/designs/001-design-a/DESIGN.md", Some(b"old")),
                file(
                    "docs/designs/001-design-a/design-manifest.json",
                    Some(&[0xff, 0x00, 0x41]),
                ),
            ],
            vec!["docs/specs".to_owned()],
        );
        let back = Journal::parse(&j.render()).unwrap();
        assert_eq!(back, j);
        assert_eq!(
            back.files[2].previous,
            Some(Previous::Hex("ff0041".to_owned()))
        );
        assert_eq!(
            back.files[2].previous.as_ref().unwrap().bytes().unwrap(),
            [0xff, 0x00, 0x41]
        );
        assert_eq!(back.backward().direction, Direction::Back);
    }

    #[test]
    fn a_journal_that_would_write_outside_the_documents_is_refused() {
        for path in [
            ".git/hooks/pre-commit",
            "docs/.claude/settings.json",
            ".workflow/sessions/x",
            "../out.md",
            "/etc/passwd",
            "docs//x.md",
        ] {
            let j = Journal::forward(vec![file(path, None)], Vec::new());
            assert!(Journal::parse(&j.render()).is_err(), "{path}");
        }
        let j = Journal::forward(Vec::new(), vec![".git".to_owned()]);
        assert!(Journal::parse(&j.render()).is_err());
        let mut j = Journal::forward(vec![file("docs/a.md", None)], Vec::new());
        j.version = 2;
        assert!(
            Journal::parse(&j.render())
                .unwrap_err()
                .contains("version 2")
        );
        let mut j = Journal::forward(vec![file("docs/a.md", Some(b"x"))], Vec::new());
        j.files[0].previous = Some(Previous::Hex("zz".to_owned()));
        assert!(Journal::parse(&j.render()).is_err());
        assert!(Journal::parse("{\"version\":1}").is_err());
    }

    #[test]
    fn recovery_finishes_what_is_untouched_and_undoes_what_someone_else_changed() {
        use FileState::*;
        let j = Journal::forward(
            vec![file("docs/a.md", None), file("docs/b.md", None)],
            Vec::new(),
        );
        assert_eq!(j.recovery(&[Published, Published]), Recovery::Done);
        assert_eq!(j.recovery(&[Published, Before]), Recovery::Forward(vec![1]));
        assert_eq!(j.recovery(&[Before, Before]), Recovery::Forward(vec![0, 1]));
        assert_eq!(j.recovery(&[Published, Other]), Recovery::Back);
        // Once marked back, it is undone whatever the files hold.
        assert_eq!(
            j.backward().recovery(&[Published, Published]),
            Recovery::Back
        );
    }
}
