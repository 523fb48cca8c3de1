//! What is on disk under HOME, read once: each folder aw looks into is opened and listed once
//! (the listing says what each entry is, with no `stat` per entry), and each file is read at
//! most once, through its folder's handle. Install, uninstall and the doctor ask this snapshot
//! every question about a path, so a host's files are read once however many rules look at
//! them. A final symbolic link is never followed (it is never aw's file); a folder on the way is
//! followed as an ordinary open follows it (a host folder linked to a dotfiles checkout).

use crate::io::atomic::TEMP_PREFIX;
use crate::io::folder::{EntryKind, Folder, read_regular_in};
use aw_core::install::plan::Found;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// One folder, listed.
#[derive(Debug)]
struct Listed {
    folder: Folder,
    /// Entry names and kinds, sorted by name (aw's own temporary files left out).
    entries: BTreeMap<String, EntryKind>,
}

/// The snapshot of HOME for one `aw self` command.
#[derive(Debug)]
pub struct Snapshot {
    home: PathBuf,
    /// Folders listed (`None`: not a folder, or not listable).
    dirs: HashMap<String, Option<Listed>>,
    /// Files read.
    files: HashMap<String, Found>,
    /// Files read whose bytes were not all UTF-8 (their text holds replacement characters).
    lossy: std::collections::HashSet<String>,
}

/// What an entry is, as far as aw cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Nothing there.
    Absent,
    /// A real folder.
    Dir,
    /// A regular file.
    File,
    /// A symbolic link (to anything).
    Link,
    /// A FIFO, a socket, a device, or unknown.
    Other,
}

impl Snapshot {
    /// A snapshot of `home` with nothing read yet.
    pub fn new(home: &Path) -> Self {
        Snapshot {
            home: home.to_path_buf(),
            dirs: HashMap::new(),
            files: HashMap::new(),
            lossy: std::collections::HashSet::new(),
        }
    }

    /// HOME.
    pub fn home(&self) -> &Path {
        &self.home
    }

    fn listed(&mut self, rel: &str) -> Option<&mut Listed> {
        if !self.dirs.contains_key(rel) {
            let path = if rel.is_empty() {
                self.home.clone()
            } else {
                self.home.join(rel)
            };
            let listed = Folder::open(&path).ok().map(|mut folder| {
                let entries = folder
                    .entries()
                    .into_iter()
                    .filter(|(n, _)| !n.starts_with(TEMP_PREFIX))
                    .collect();
                Listed { folder, entries }
            });
            self.dirs.insert(rel.to_owned(), listed);
        }
        self.dirs.get_mut(rel).and_then(Option::as_mut)
    }

    /// The names in folder `rel` (relative to HOME) with what each is, sorted; none when it is
    /// not a folder.
    pub fn list(&mut self, rel: &str) -> Vec<(String, Kind)> {
        self.listed(rel)
            .map(|l| {
                l.entries
                    .iter()
                    .map(|(n, k)| (n.clone(), kind_of(*k)))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// What is at `rel`, without following a final link.
    pub fn kind(&mut self, rel: &str) -> Kind {
        let (parent, name) = split(rel);
        let home = self.home.clone();
        match self.listed(parent) {
            Some(l) => match l.entries.get(name) {
                None => Kind::Absent,
                Some(EntryKind::Unknown) => lstat(&home.join(rel)),
                Some(k) => kind_of(*k),
            },
            None => Kind::Absent,
        }
    }

    /// Whether `rel` is a folder or leads to one (a link to a folder counts).
    pub fn is_dir(&mut self, rel: &str) -> bool {
        match self.kind(rel) {
            Kind::Dir => true,
            Kind::Link => self.home.join(rel).is_dir(),
            _ => false,
        }
    }

    /// What is at `rel`: a regular file's text (read once, lossily), something else, or
    /// nothing.
    pub fn read(&mut self, rel: &str) -> Found {
        if let Some(f) = self.files.get(rel) {
            return f.clone();
        }
        let (parent, name) = split(rel);
        let found = match self.listed(parent) {
            None => Found::Absent,
            Some(l) => match l.entries.get(name).copied() {
                None => Found::Absent,
                Some(EntryKind::File) => {
                    let mut buf = Vec::new();
                    match read_regular_in(&l.folder, name, EntryKind::File, &mut buf) {
                        Some(_) => match String::from_utf8(buf) {
                            Ok(text) => Found::File(text),
                            Err(e) => {
                                self.lossy.insert(rel.to_owned());
                                Found::File(String::from_utf8_lossy(e.as_bytes()).into_owned())
                            }
                        },
                        // Gone or replaced since the listing: nothing of aw's to judge.
                        None => Found::Other,
                    }
                }
                Some(_) => Found::Other,
            },
        };
        self.files.insert(rel.to_owned(), found.clone());
        found
    }

    /// Whether the file at `rel`, as read, held bytes that are not UTF-8.
    pub fn was_lossy(&self, rel: &str) -> bool {
        self.lossy.contains(rel)
    }

    /// Every entry under folder `rel` that is not a folder (links and other entries included:
    /// they are never aw's), relative to HOME, in name order; linked folders are not walked.
    pub fn walk(&mut self, rel: &str) -> Vec<String> {
        let mut out = Vec::new();
        self.walk_into(rel, &mut out);
        out
    }

    fn walk_into(&mut self, rel: &str, out: &mut Vec<String>) {
        for (name, kind) in self.list(rel) {
            let child = format!("{rel}/{name}");
            match kind {
                Kind::Dir => self.walk_into(&child, out),
                Kind::Absent => {}
                _ => out.push(child),
            }
        }
    }

    /// Whether the folder `rel` exists in the snapshot (was there when first looked at).
    pub fn exists(&mut self, rel: &str) -> bool {
        self.kind(rel) != Kind::Absent
    }
}

fn split(rel: &str) -> (&str, &str) {
    rel.rsplit_once('/').unwrap_or(("", rel))
}

fn kind_of(k: EntryKind) -> Kind {
    match k {
        EntryKind::File => Kind::File,
        EntryKind::Dir => Kind::Dir,
        EntryKind::Symlink => Kind::Link,
        EntryKind::Special | EntryKind::Unknown => Kind::Other,
    }
}

fn lstat(path: &Path) -> Kind {
    match std::fs::symlink_metadata(path) {
        Err(_) => Kind::Absent,
        Ok(m) if m.file_type().is_symlink() => Kind::Link,
        Ok(m) if m.is_dir() => Kind::Dir,
        Ok(m) if m.is_file() => Kind::File,
        Ok(_) => Kind::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_file_is_read_once_and_links_are_never_followed() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path();
        std::fs::create_dir_all(home.join(".c/skills/w/sub")).unwrap();
        std::fs::write(home.join(".c/skills/w/SKILL.md"), "one").unwrap();
        std::fs::write(home.join(".c/skills/w/sub/a.md"), "a").unwrap();
        std::fs::write(home.join(".c/skills/w/.aw-tmp-abcdef"), "half").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(home.join(".c/skills/w/sub"), home.join(".c/skills/w/l"))
            .unwrap();
        let mut s = Snapshot::new(home);
        assert_eq!(s.read(".c/skills/w/SKILL.md"), Found::File("one".into()));
        std::fs::write(home.join(".c/skills/w/SKILL.md"), "two").unwrap();
        assert_eq!(s.read(".c/skills/w/SKILL.md"), Found::File("one".into()));
        assert_eq!(s.read(".c/skills/w/missing.md"), Found::Absent);
        assert_eq!(s.read(".c/skills/w/sub"), Found::Other);
        let mut walked = s.walk(".c/skills/w");
        walked.sort();
        #[cfg(unix)]
        assert_eq!(
            walked,
            [
                ".c/skills/w/SKILL.md",
                ".c/skills/w/l",
                ".c/skills/w/sub/a.md"
            ]
        );
        #[cfg(unix)]
        assert_eq!(s.read(".c/skills/w/l"), Found::Other);
        assert!(s.is_dir(".c/skills"));
        assert_eq!(s.kind(".nothing/here"), Kind::Absent);
    }
}
