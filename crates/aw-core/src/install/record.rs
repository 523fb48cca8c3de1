//! The record of the folders `aw self install` created on a host, kept in the host's folder
//! (`<root>/.aw-install.json`), so that `aw self uninstall` removes what aw created once it is
//! empty and leaves every folder that was there before (an empty `~/.claude` the person made
//! stays), and the settings backups aw wrote, the only ones it may delete (a backup of the
//! person's own, or an older aw's, is never named here). The record carries aw's marker in its
//! `description`, like every file aw writes.

use super::marker::{is_marked, marker_text};
use serde_json::{Value, json};

/// The record's file name, in each host folder (root) aw created something under.
pub const RECORD_NAME: &str = ".aw-install.json";

/// The record of the root `root` (relative to HOME).
pub fn record_path(root: &str) -> String {
    format!("{root}/{RECORD_NAME}")
}

/// What a record names, relative to HOME.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Record {
    /// The folders aw created.
    pub folders: Vec<String>,
    /// The files aw created that also hold the person's settings (a settings file aw made to
    /// hold its hooks): removed by uninstall when nothing but an empty object is left.
    pub files: Vec<String>,
    /// The settings backups aw wrote (`<file>.bak.<epoch>[.<n>]`): the only ones it ever
    /// deletes (beyond the newest few). A record from before this list names none.
    pub backups: Vec<String>,
}

impl Record {
    /// Whether it names nothing.
    pub fn is_empty(&self) -> bool {
        self.folders.is_empty() && self.files.is_empty() && self.backups.is_empty()
    }

    /// This record and `other` together, each list sorted, each entry once.
    pub fn union(&self, other: &Record) -> Record {
        Record {
            folders: union(&self.folders, &other.folders),
            files: union(&self.files, &other.files),
            backups: union(&self.backups, &other.backups),
        }
    }
}

/// The record's text, written by `version` (lists sorted, each entry once).
pub fn render(version: &str, record: &Record) -> String {
    let r = record.union(&Record::default());
    let v = json!({
        "description": format!(
            "What aw created here; `aw self uninstall` removes it once nothing else is in it. {}",
            marker_text(version)
        ),
        "created": r.folders,
        "files": r.files,
        "backups": r.backups,
    });
    format!("{}\n", serde_json::to_string_pretty(&v).unwrap_or_default())
}

/// What a record names, when `text` is one of aw's (marked); `None` otherwise.
pub fn parse(text: &str) -> Option<Record> {
    if !is_marked(text) {
        return None;
    }
    let v: Value = serde_json::from_str(text).ok()?;
    let list = |key: &str| -> Vec<String> {
        v.get(key)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|c| c.as_str())
                    .filter(|c| safe(c))
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default()
    };
    Some(Record {
        folders: list("created"),
        files: list("files"),
        backups: list("backups"),
    })
}

/// A recorded folder aw may remove: relative, with no `..` or empty part.
fn safe(rel: &str) -> bool {
    !rel.is_empty()
        && !rel.starts_with('/')
        && rel
            .split('/')
            .all(|p| !p.is_empty() && p != "." && p != "..")
}

/// The folders of `previous` and `new` together, sorted, each once.
pub fn union(previous: &[String], new: &[String]) -> Vec<String> {
    let mut all: Vec<String> = previous.iter().chain(new).cloned().collect();
    all.sort();
    all.dedup();
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::install::marker::seal;

    #[test]
    fn a_record_reads_back_only_when_it_is_ours_and_names_only_safe_folders() {
        let rec = Record {
            folders: vec![".claude/skills".into(), ".claude".into()],
            files: vec![".claude/settings.json".into()],
            backups: vec![".claude/settings.json.bak.1700000000".into()],
        };
        let text = seal(&render("0.1.0", &rec));
        let back = parse(&text).unwrap();
        assert_eq!(
            back.folders,
            [".claude".to_owned(), ".claude/skills".to_owned()]
        );
        assert_eq!(back.files, [".claude/settings.json".to_owned()]);
        assert_eq!(
            back.backups,
            [".claude/settings.json.bak.1700000000".to_owned()]
        );
        assert_eq!(parse(r#"{"created": [".claude"]}"#), None);
        // A record from before the list of backups reads back naming none.
        let older = text.replace(
            ",\n  \"backups\": [\n    \".claude/settings.json.bak.1700000000\"\n  ]",
            "",
        );
        assert!(!older.contains("backups"), "{older}");
        let back = parse(&older).unwrap();
        assert!(back.backups.is_empty());
        assert_eq!(back.files, [".claude/settings.json".to_owned()]);
        let evil = text.replace("\".claude/skills\"", "\"../x\"");
        assert_eq!(parse(&evil).unwrap().folders, [".claude".to_owned()]);
        assert_eq!(
            union(&[".a".into()], &[".b".into(), ".a".into()]),
            [".a".to_owned(), ".b".to_owned()]
        );
    }
}
