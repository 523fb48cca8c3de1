//! Reading the decision indexes of `docs/decisions/` for the board: every
//! `<number>-decisions-<slug>.json` regular file directly in the folder, read once and parsed by
//! the core ([`aw_core::documents::decisions::read_index`]). The board picks each spec's own.
//!
//! Nothing here fails: an absent folder is no indexes, and an entry named like an index that
//! cannot be read — a folder, a FIFO (never opened, never waited on), a broken link — is
//! recorded as unreadable (which holds its plans open), never left out: leaving it out would
//! read as "no notes" and let a plan close over obligations. A link to a file is read through,
//! as the reference reads it.

use crate::io::folder;
use crate::locate::Workspace;
use aw_core::board::lineage::{ChainRead, DecisionIndexes};
use aw_core::documents::decisions::{DECISIONS_DIR, Refusal, read_index};

/// Whether a file name is a decision index's: digits, `-decisions-`, a slug, `.json`.
fn is_index_name(name: &str) -> bool {
    let digits = name.bytes().take_while(u8::is_ascii_digit).count();
    digits >= 3 && name[digits..].starts_with("-decisions-") && name.ends_with(".json")
}

/// Every decision index of the workspace, by workspace-relative path.
pub fn read_decision_indexes(ws: &Workspace) -> DecisionIndexes {
    let dir = ws.root.join(DECISIONS_DIR);
    let Ok(list) = std::fs::read_dir(&dir) else {
        return DecisionIndexes::new();
    };
    list.filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|name| is_index_name(name))
        .map(|name| {
            let chain = match folder::read_regular_path(&dir.join(&name)) {
                Ok(bytes) => parse(&bytes),
                Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {
                    unreadable("the index is not a regular file".to_owned())
                }
                Err(e) => unreadable(format!("the index could not be read ({e})")),
            };
            ([DECISIONS_DIR, "/", &name].concat(), chain)
        })
        .collect()
}

/// An index's chain, or why it does not read.
fn parse(bytes: &[u8]) -> ChainRead {
    match serde_json::from_slice::<serde_json::Value>(bytes) {
        Ok(v) => match read_index(&v) {
            Ok(notes) => ChainRead::Notes(notes),
            Err(refusals) => ChainRead::Unreadable(refusals),
        },
        Err(e) => unreadable(format!("the index is not JSON ({e})")),
    }
}

fn unreadable(message: String) -> ChainRead {
    ChainRead::Unreadable(vec![Refusal {
        code: "NOTE_INDEX_UNREADABLE",
        message,
    }])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_named_like_an_index_is_read_or_unreadable_never_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let ws = Workspace::for_test(dir.path());
        let d = dir.path().join(DECISIONS_DIR);
        std::fs::create_dir_all(d.join("002-decisions-folder.json")).unwrap();
        std::fs::write(d.join("001-decisions-login.json"), "{bad").unwrap();
        std::fs::write(
            d.join("003-decisions-x.json"),
            r#"{"schema":"workline.decision-index/v1","spec":{"path":"p","number":"003"},"notes":[]}"#,
        )
        .unwrap();
        std::fs::write(d.join("notes.json"), "{}").unwrap();
        #[cfg(unix)]
        {
            std::fs::write(d.join("real.json"), "{}").unwrap();
            std::os::unix::fs::symlink("real.json", d.join("004-decisions-linked.json")).unwrap();
            std::os::unix::fs::symlink("gone.json", d.join("005-decisions-broken.json")).unwrap();
        }
        let got = read_decision_indexes(&ws);
        let unreadable = |p: &str| matches!(&got[p], ChainRead::Unreadable(_));
        // A folder named like an index holds its plans open; so does a broken link.
        assert!(unreadable("docs/decisions/002-decisions-folder.json"));
        #[cfg(unix)]
        {
            assert_eq!(got.len(), 5);
            assert!(unreadable("docs/decisions/005-decisions-broken.json"));
            // A link is read through: `{}` is an index without a schema.
            match &got["docs/decisions/004-decisions-linked.json"] {
                ChainRead::Unreadable(r) => assert_eq!(r[0].code, "NOTE_INDEX_SCHEMA_UNKNOWN"),
                other => panic!("{other:?}"),
            }
        }
        match &got["docs/decisions/001-decisions-login.json"] {
            ChainRead::Unreadable(r) => assert_eq!(r[0].code, "NOTE_INDEX_UNREADABLE"),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            got["docs/decisions/003-decisions-x.json"],
            ChainRead::Notes(Vec::new())
        );
    }

    #[test]
    fn no_folder_no_indexes() {
        let dir = tempfile::tempdir().unwrap();
        assert!(read_decision_indexes(&Workspace::for_test(dir.path())).is_empty());
    }
}
