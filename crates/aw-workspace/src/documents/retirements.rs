//! Reading what the board shows of retirements: the ledger in `.<ns>/HISTORY.md` and the
//! journals of the retirements in flight in `.<ns>/.retirement/`. The core parses both
//! ([`aw_core::board::retirements`]); nothing here fails, as a board must stand whatever a
//! retirement left behind.

use crate::io::folder;
use crate::locate::Workspace;
use crate::sessions::history;
use aw_core::board::retirements::{
    JournalFile, PendingRetirement, TerminalEvent, pending_retirements, terminal_events,
};

/// The folder the journals of retirements in flight live in, inside `.<ns>/` (the reference's
/// name).
const JOURNAL_DIR: &str = ".retirement";

/// The terminal events of `.<ns>/HISTORY.md` (none when it is absent or cannot be read), and one
/// pending retirement per `*.json` regular file directly in `.<ns>/.retirement/` (none when the
/// folder is absent): the journals that read, by file name, then those that do not, by file name.
///
/// A journal's entry is taken from the listing itself, without following a link, as the
/// reference's listing does: a link named `*.json` is not a journal, nor is a folder. The
/// reference lists in the filesystem's order, which no two machines share; byte order of name
/// makes the board the same everywhere.
pub fn read_retirements(ws: &Workspace) -> (Vec<TerminalEvent>, Vec<PendingRetirement>) {
    let events = match history::read(ws) {
        Ok(Some(text)) => terminal_events(&text),
        // The reference shows no events for a ledger it cannot read, rather than no board.
        Ok(None) | Err(_) => Vec::new(),
    };
    (events, pending_retirements(&journal_files(ws)))
}

/// The journals in `.<ns>/.retirement/`, sorted by name, each with its text or why it could not
/// be read.
fn journal_files(ws: &Workspace) -> Vec<JournalFile> {
    let dir = ws.state_dir().join(JOURNAL_DIR);
    let Ok(list) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = list
        .filter_map(Result::ok)
        // `DirEntry::file_type` does not follow a link (it asks the listing, else `lstat`).
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|name| name.ends_with(".json"))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let path = dir.join(&name);
            let text = folder::read_regular_path(&path)
                // Invalid UTF-8 is replaced, as the reference's text read replaces it.
                .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
                .map_err(|e| format!("it could not be read ({e})"));
            JournalFile {
                path: path.to_string_lossy().into_owned(),
                text,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    const ROW: &str =
        "| 0123456789ab | 2026-08-20 | discard | plan:009 | retirado plan 009 · sin efectos git |";

    fn journal(digest: &str) -> String {
        format!(
            r#"{{"version":1,"digest":"{digest}","phase":"prepared","opened":"2026-08-20T10:00:00.000Z","quarantine":"q","private_refs":[],"proposal":{{"event":{{"command":"discard","key":"plan:002"}}}}}}"#
        )
    }

    fn workspace(root: &Path) -> Workspace {
        let ws = Workspace::for_test(root);
        std::fs::create_dir_all(ws.state_dir()).expect("state dir");
        ws
    }

    fn journal_dir(ws: &Workspace) -> std::path::PathBuf {
        let dir = ws.state_dir().join(".retirement");
        std::fs::create_dir_all(&dir).expect("journal dir");
        dir
    }

    #[test]
    fn nothing_to_read_is_nothing_to_show() {
        let t = tempfile::tempdir().expect("tempdir");
        let ws = workspace(t.path());
        assert_eq!(read_retirements(&ws), (Vec::new(), Vec::new()));
        // An empty journal folder and a history without the ledger show nothing either.
        journal_dir(&ws);
        std::fs::write(ws.state_dir().join("HISTORY.md"), "# Historial\n").expect("write");
        assert_eq!(read_retirements(&ws), (Vec::new(), Vec::new()));
    }

    #[test]
    fn the_ledger_of_history_is_read() {
        let t = tempfile::tempdir().expect("tempdir");
        let ws = workspace(t.path());
        let text = format!(
            "# Historial\n\n## Retiros\n\n| Operación | Fecha | Comando | Objetivo | Resultado |\n|---|---|---|---|---|\n{ROW}\n"
        );
        std::fs::write(ws.state_dir().join("HISTORY.md"), text).expect("write");
        let (events, pending) = read_retirements(&ws);
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].operation, "0123456789ab");
        assert_eq!(events[0].result, "retirado plan 009 · sin efectos git");
        assert!(pending.is_empty());
    }

    #[test]
    fn a_history_that_is_a_folder_shows_no_events() {
        let t = tempfile::tempdir().expect("tempdir");
        let ws = workspace(t.path());
        std::fs::create_dir(ws.state_dir().join("HISTORY.md")).expect("mkdir");
        assert!(read_retirements(&ws).0.is_empty());
    }

    #[test]
    fn journals_are_json_files_by_name_readable_ones_first() {
        let t = tempfile::tempdir().expect("tempdir");
        let ws = workspace(t.path());
        let dir = journal_dir(&ws);
        std::fs::write(dir.join("c.json"), journal("c")).expect("write");
        std::fs::write(dir.join("a.json"), "{bad").expect("write");
        std::fs::write(dir.join("b.json"), journal("b")).expect("write");
        // Not journals: another extension, a folder named like one, a quarantine folder.
        std::fs::write(dir.join("d.json.bak"), journal("d")).expect("write");
        std::fs::create_dir(dir.join("e.json")).expect("mkdir");
        std::fs::create_dir(dir.join("b.quarantine")).expect("mkdir");
        let (_, pending) = read_retirements(&ws);
        let digests: Vec<&str> = pending.iter().map(|p| p.digest.as_str()).collect();
        assert_eq!(digests, ["b", "c", "ilegible"]);
        assert_eq!(pending[0].next, "aw discard apply plan:002 --approval b");
        let bad = dir.join("a.json").to_string_lossy().into_owned();
        assert!(Path::new(&bad).is_absolute());
        assert_eq!(pending[2].target, bad);
        assert!(
            pending[2]
                .next
                .starts_with(&format!("inspect {bad}: it is not JSON (")),
            "{}",
            pending[2].next
        );
    }

    #[test]
    fn a_journal_with_invalid_utf8_is_read_with_the_bytes_replaced() {
        let t = tempfile::tempdir().expect("tempdir");
        let ws = workspace(t.path());
        let dir = journal_dir(&ws);
        let mut bytes = journal("x").into_bytes();
        let at = bytes.len() - 5; // before the last digit of "plan:002"
        bytes.insert(at, 0xff);
        std::fs::write(dir.join("x.json"), bytes).expect("write");
        let (_, pending) = read_retirements(&ws);
        assert_eq!(pending.len(), 1);
        assert_eq!(pending[0].target, "plan:00\u{fffd}2");
    }

    #[cfg(unix)]
    #[test]
    fn links_and_fifos_are_not_journals_and_an_unreadable_file_is_named() {
        use std::os::unix::fs::PermissionsExt;
        let t = tempfile::tempdir().expect("tempdir");
        let outside = tempfile::tempdir().expect("tempdir");
        let ws = workspace(t.path());
        let dir = journal_dir(&ws);
        let target = outside.path().join("elsewhere.json");
        std::fs::write(&target, journal("outside")).expect("write");
        std::os::unix::fs::symlink(&target, dir.join("link.json")).expect("symlink");
        let made = std::process::Command::new("mkfifo")
            .arg(dir.join("fifo.json"))
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
        let locked = dir.join("locked.json");
        std::fs::write(&locked, journal("locked")).expect("write");
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).expect("chmod");
        let readable_anyway = std::fs::read(&locked).is_ok(); // root reads it all the same
        let (_, pending) = read_retirements(&ws);
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o600)).expect("chmod");
        assert_eq!(pending.len(), 1, "{pending:?}");
        if readable_anyway {
            assert_eq!(pending[0].digest, "locked");
        } else {
            assert_eq!(pending[0].digest, "ilegible");
            assert!(pending[0].next.contains(": it could not be read ("));
        }
    }
}
