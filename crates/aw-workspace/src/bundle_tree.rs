//! A bundle's files as `aw context-plan` and `aw context-budget` measure them: the embedded
//! bundle's texts, or a bundle folder on disk (`--root`).
//!
//! On disk, every regular file under the root counts, found without following links to
//! folders (a loop cannot be walked forever) and at most [`MAX_DEPTH`] folders deep; names
//! starting with `.` (an installer's marker, a `.git`) are not part of the bundle. A file that
//! cannot be read, or is larger than [`MAX_FILE_BYTES`], and a sub-folder that cannot be listed
//! are left out: a document a read-set names is then reported missing, never a failure of the
//! whole command.

use crate::error::{Result, WorkspaceError};
use crate::io::folder::read_regular_path;
use aw_core::bundle::{COMMANDS_DIR, Doc, SKILL_FILE, Tree, line_count};
use aw_core::error_code::ErrorCode;
use aw_manifest::skill_md_field;
use std::path::{Path, PathBuf};

/// How deep the walk goes below the root.
pub const MAX_DEPTH: usize = 16;

/// The largest file measured. A bundle document is a few kilobytes; a file past this is not
/// one (a log, an image left there) and is left out rather than read whole into memory.
pub const MAX_FILE_BYTES: u64 = 8 << 20;

/// One file's measures, from its text.
pub fn doc_of(bytes: &[u8]) -> Doc {
    let text = String::from_utf8_lossy(bytes).replace("\r\n", "\n");
    Doc {
        bytes: bytes.len() as u64,
        lines: line_count(&text),
        description: skill_md_field(&text, "description"),
    }
}

/// The embedded bundle's files, `(path, text)`.
pub fn packaged<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> Tree {
    files
        .into_iter()
        .map(|(path, text)| (path.to_owned(), doc_of(text.as_bytes())))
        .collect()
}

/// The bundle at `root` and the folder's real path (what absolute paths start with): refused
/// when the folder does not exist (`CONTEXT_ROOT_NOT_FOUND`) or is not a bundle, a `SKILL.md`
/// beside a `commands/` folder (`CONTEXT_ROOT_NOT_A_BUNDLE`).
pub fn read_root(root: &Path) -> Result<(PathBuf, Tree)> {
    if !root.exists() {
        return Err(WorkspaceError::Refused {
            code: ErrorCode::ContextRootNotFound,
            message: format!("The bundle folder {} does not exist.", root.display()),
            action: "Pass the folder an agent host reads the bundle from (e.g. \
                     ~/.claude/skills/w), or leave out --root to use the bundle built into aw."
                .to_owned(),
        });
    }
    if !root.join(SKILL_FILE).is_file() || !root.join(COMMANDS_DIR).is_dir() {
        return Err(WorkspaceError::Refused {
            code: ErrorCode::ContextRootNotABundle,
            message: format!(
                "{} is not a bundle: it needs a {SKILL_FILE} beside a {COMMANDS_DIR}/ folder.",
                root.display()
            ),
            action: "Pass the bundle's own folder (the one holding SKILL.md), or leave out \
                     --root to use the bundle built into aw."
                .to_owned(),
        });
    }
    let mut tree = Tree::new();
    walk(root, "", 0, &mut tree)?;
    let real = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    Ok((real, tree))
}

fn walk(dir: &Path, prefix: &str, depth: usize, tree: &mut Tree) -> Result<()> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        // The root itself must be listable; a sub-folder that is not is left out.
        Err(e) if depth == 0 => return Err(WorkspaceError::io("could not list", dir, e)),
        Err(_) => return Ok(()),
    };
    for entry in entries {
        let Ok(entry) = entry else {
            continue;
        };
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        if name.starts_with('.') {
            continue;
        }
        let path = entry.path();
        let rel = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}/{name}")
        };
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            if depth < MAX_DEPTH {
                walk(&path, &rel, depth + 1, tree)?;
            }
        } else if std::fs::metadata(&path).is_ok_and(|m| m.is_file() && m.len() <= MAX_FILE_BYTES)
            && let Ok(bytes) = read_regular_path(&path)
        {
            tree.insert(rel, doc_of(&bytes));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_measured_with_its_description() {
        let d = doc_of(b"---\r\ndescription: Does x.\r\n---\r\nbody\r\n");
        assert_eq!(d.bytes, 38);
        assert_eq!(d.lines, 4);
        assert_eq!(d.description.as_deref(), Some("Does x."));
        assert_eq!(doc_of(b"no frontmatter").description, None);
    }

    #[test]
    fn a_root_is_walked_and_checked() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        assert_eq!(
            read_root(&root.join("nope")).unwrap_err().code(),
            ErrorCode::ContextRootNotFound
        );
        std::fs::write(root.join("SKILL.md"), "x\n").unwrap();
        assert_eq!(
            read_root(root).unwrap_err().code(),
            ErrorCode::ContextRootNotABundle
        );
        std::fs::create_dir_all(root.join("commands/deep")).unwrap();
        std::fs::write(root.join("commands/a.md"), "a\nb\n").unwrap();
        std::fs::write(root.join("commands/deep/b.md"), "b").unwrap();
        std::fs::write(root.join(".marker"), "m").unwrap();
        let (real, tree) = read_root(root).unwrap();
        assert_eq!(real, root.canonicalize().unwrap());
        let paths: Vec<&str> = tree.keys().map(String::as_str).collect();
        assert_eq!(paths, ["SKILL.md", "commands/a.md", "commands/deep/b.md"]);
        assert_eq!(tree["commands/a.md"].lines, 2);
    }

    #[test]
    fn a_file_too_large_to_be_a_document_is_left_out_unread() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(root.join("guides")).unwrap();
        std::fs::write(root.join("SKILL.md"), "x\n").unwrap();
        std::fs::create_dir_all(root.join("commands")).unwrap();
        // Sparse: past the cap without writing it.
        let big = std::fs::File::create(root.join("guides/big.md")).unwrap();
        big.set_len(MAX_FILE_BYTES + 1).unwrap();
        let (_, tree) = read_root(root).unwrap();
        let paths: Vec<&str> = tree.keys().map(String::as_str).collect();
        assert_eq!(paths, ["SKILL.md"]);
    }
}
