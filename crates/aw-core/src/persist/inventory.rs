//! The persist inventory: the numbered documents of each docs folder (number, kind, slug, title)
//! and each folder's next free number, and the digest an answer quotes.
//!
//! The shell lists the folders and reads each document's text; everything else is decided here.
//! The digest covers the kinds asked for, every document of their folders and each folder's next
//! number, so an answer drafted before a document appeared, was renamed or retitled, or before a
//! number was claimed, quotes a digest that no longer matches (`SEMANTIC_STALE`).

use crate::canonical::semantic_digest;
use crate::documents::names::{DocKind, inventory_order, parse_name};
use crate::markdown::{fold, scan};
use crate::vocab::correlative::{Correlative, next_after};
use serde::Serialize;
use serde_json::Value;

/// One entry of a docs folder, as the shell found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The entry's name.
    pub name: String,
    /// The text of a regular file whose name fits the folder's grammar (`None` for anything
    /// else, or a file that could not be read): only documents are read.
    pub text: Option<String>,
}

/// One numbered document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Document {
    /// The file name (`004-spec-login.md`).
    pub file: String,
    /// The number as written.
    pub number: String,
    /// Its kind's word.
    pub kind: &'static str,
    /// The slug as written (may be empty: `001-spec.md`).
    pub slug: String,
    /// The first `# ` heading's text, trimmed; `None` when there is none.
    pub title: Option<String>,
}

/// One folder of the inventory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Folder {
    /// The kind's word.
    pub kind: &'static str,
    /// The workspace-relative folder (`docs/specs`).
    pub folder: &'static str,
    /// The next free number: one past the highest correlative of any entry (`next-number`'s
    /// rule: files, folders and reservations all count, gaps are never filled).
    pub next: String,
    /// The documents, in inventory order (number, then file name).
    pub documents: Vec<Document>,
    /// The highest correlative, kept for the apply-side check (not printed).
    #[serde(skip)]
    pub highest: Correlative,
    /// Every numbered entry's correlative and name (documents or not), for the apply-side check.
    #[serde(skip)]
    pub numbered: Vec<(Correlative, String)>,
}

/// The inventory of the kinds asked for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Inventory {
    /// The kinds, in [`DocKind::ALL`] order.
    pub kinds: Vec<&'static str>,
    /// One folder per kind, same order.
    pub folders: Vec<Folder>,
}

/// The title of a document: the text of its first level-1 heading outside a code fence, trimmed.
pub fn title_of(text: &str) -> Option<String> {
    scan(text)
        .into_iter()
        .find_map(|line| match line.heading {
            Some((1, title)) => Some(title.trim().to_owned()),
            _ => None,
        })
        .filter(|t| !t.is_empty())
}

/// A title as the duplicate rule compares it: case and accents folded, runs of blanks one space.
pub fn normalized_title(title: &str) -> String {
    fold(title).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The folder of `kind` from its entries.
pub fn folder_of(kind: DocKind, entries: &[Entry]) -> Folder {
    let (highest, next) = next_after(entries.iter().map(|e| e.name.as_str()));
    let numbered = entries
        .iter()
        .filter_map(|e| Correlative::of_name(&e.name).map(|n| (n, e.name.clone())))
        .collect();
    let mut documents: Vec<(Correlative, Document)> = entries
        .iter()
        .filter_map(|e| {
            let name = parse_name(kind, &e.name)?;
            Some((
                name.correlative,
                Document {
                    file: e.name.clone(),
                    number: name.number,
                    kind: kind.word(),
                    slug: name.slug,
                    title: e.text.as_deref().and_then(title_of),
                },
            ))
        })
        .collect();
    documents.sort_by(|a, b| inventory_order((&a.0, &a.1.file), (&b.0, &b.1.file)));
    Folder {
        kind: kind.word(),
        folder: kind.folder(),
        next: next.padded(),
        documents: documents.into_iter().map(|(_, d)| d).collect(),
        highest,
        numbered,
    }
}

/// The inventory of `kinds` (deduplicated and put in [`DocKind::ALL`] order) from what the shell
/// listed for each.
pub fn build(listed: &[(DocKind, Vec<Entry>)], kinds: &[DocKind]) -> Inventory {
    let wanted: Vec<DocKind> = DocKind::ALL
        .into_iter()
        .filter(|k| kinds.contains(k))
        .collect();
    let folders = wanted
        .iter()
        .map(|k| {
            let entries = listed
                .iter()
                .find(|(kind, _)| kind == k)
                .map(|(_, e)| e.as_slice())
                .unwrap_or_default();
            folder_of(*k, entries)
        })
        .collect();
    Inventory {
        kinds: wanted.iter().map(|k| k.word()).collect(),
        folders,
    }
}

impl Inventory {
    /// The digest an answer quotes: the semantic digest of the inventory as printed.
    pub fn digest(&self) -> String {
        semantic_digest(&serde_json::to_value(self).unwrap_or(Value::Null))
    }

    /// The folder of `kind`, when the inventory covers it.
    pub fn folder(&self, kind: DocKind) -> Option<&Folder> {
        self.folders.iter().find(|f| f.kind == kind.word())
    }

    /// The kinds covered.
    pub fn doc_kinds(&self) -> Vec<DocKind> {
        self.kinds
            .iter()
            .filter_map(|w| DocKind::from_word(w))
            .collect()
    }
}

#[cfg(test)]
#[path = "inventory_tests.rs"]
mod tests;
