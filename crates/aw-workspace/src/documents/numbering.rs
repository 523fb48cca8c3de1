//! Document numbering on disk (`next-number`): scanning a docs folder, claiming a slot under the
//! workspace lock, and releasing a closed session's untouched reservations.

use crate::error::{Result, WorkspaceError};
use crate::io::atomic;
use crate::io::lock::{WorkspaceLock, default_wait};
use crate::locate::Workspace;
use crate::sessions::resolver::{self, Request};
use aw_core::error_code::ErrorCode;
use aw_core::session::reservation;
use aw_core::session::resolve::Intent;
use aw_core::vocab::correlative::{Correlative, next_after};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How many consecutive numbers a claim tries before giving up (a writer outside aw may be
/// creating numbered files at the same time).
pub const CLAIM_PROBES: usize = 50;

/// A docs folder as `next-number` sees it.
#[derive(Debug, Clone)]
pub struct Scan {
    /// Whether the folder existed.
    pub exists: bool,
    /// Every entry name, sorted by byte order (our own temporary files excluded).
    pub files: Vec<String>,
    /// The highest correlative present (zero when none).
    pub max: Correlative,
    /// The one after it.
    pub next: Correlative,
}

/// Lists a docs folder. A missing folder is an empty, non-existing scan.
pub fn scan(dir: &Path) -> Result<Scan> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let (max, next) = next_after([]);
            return Ok(Scan {
                exists: false,
                files: Vec::new(),
                max,
                next,
            });
        }
        Err(e) => return Err(WorkspaceError::io("could not list", dir, e)),
    };
    let mut files = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| WorkspaceError::io("could not list", dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with(".aw-tmp-") {
            files.push(name);
        }
    }
    files.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
    let (max, next) = next_after(files.iter().map(String::as_str));
    Ok(Scan {
        exists: true,
        files,
        max,
        next,
    })
}

/// A claimed slot.
#[derive(Debug, Clone)]
pub struct Claim {
    /// The number claimed.
    pub number: Correlative,
    /// The file's absolute path.
    pub path: PathBuf,
    /// Whether an existing reservation of the same owner and rest was returned.
    pub reused: bool,
}

/// Claims `NNN-<rest>` in `dir` under the held lock: rescans, returns the owner's existing
/// reservation for the same rest if there is one, else creates the next free number with
/// O_EXCL (holding the owner's marker, or nothing when unowned). `dir` must exist.
pub fn claim(
    dir: &Path,
    rest: &str,
    owner: Option<&str>,
    held: &WorkspaceLock,
) -> Result<(Scan, Claim)> {
    let scan = scan(dir)?;
    if let Some(folder) = owner {
        for name in &scan.files {
            if reservation::rest_of(name) != Some(rest) {
                continue;
            }
            let path = dir.join(name);
            let owned = crate::io::folder::read_regular_path(&path)
                .ok()
                .is_some_and(|b| reservation::owner(&b) == Some(folder));
            if let (true, Some(number)) = (owned, Correlative::of_name(name)) {
                return Ok((
                    scan,
                    Claim {
                        number,
                        path,
                        reused: true,
                    },
                ));
            }
        }
    }
    let body = owner.map(reservation::marker).unwrap_or_default();
    let mut number = scan.next.clone();
    for _ in 0..CLAIM_PROBES {
        let path = dir.join(reservation::claimed_name(&number.padded(), rest));
        if atomic::create_new(held.root(), &path, body.as_bytes())? {
            return Ok((
                scan,
                Claim {
                    number,
                    path,
                    reused: false,
                },
            ));
        }
        number = number.succ();
    }
    Err(WorkspaceError::Refused {
        code: ErrorCode::ClaimFailed,
        message: format!(
            "No free number was found in {} after {CLAIM_PROBES} tries.",
            dir.display()
        ),
        action: "Something else is creating numbered files in that folder; wait for it, then claim again.".to_owned(),
    })
}

/// What `next-number` asks of a docs folder (values already checked).
#[derive(Debug, Clone, Copy)]
pub struct NumberRequest<'a> {
    /// The folder, already resolved inside the workspace.
    pub dir: &'a Path,
    /// The folder as the user wrote it (for messages).
    pub typed: &'a str,
    /// `--claim <rest>`: reserve `NNN-<rest>`.
    pub claim: Option<&'a str>,
    /// `--code`: the session owning the claim.
    pub owner: Option<&'a str>,
    /// `--dry-run`: create nothing, not even the folder.
    pub dry_run: bool,
}

/// What `next-number` found and did.
#[derive(Debug, Clone)]
pub struct Numbered {
    /// Whether the folder existed.
    pub existed: bool,
    /// Whether this call created it.
    pub created: bool,
    /// The folder as scanned (under the lock, for a claim).
    pub scan: Scan,
    /// The claimed slot.
    pub claim: Option<Claim>,
    /// The owning session's folder.
    pub owner: Option<String>,
}

/// How long a claim waits for the lock: `AW_LOCK_WAIT_MS` when set, else 10 s (claims are made
/// in bursts by parallel agents, so they wait longer than other writes).
fn claim_wait() -> Duration {
    if std::env::var_os("AW_LOCK_WAIT_MS").is_some() {
        default_wait()
    } else {
        Duration::from_secs(10)
    }
}

/// Scans a docs folder for its next number, creating the folder unless `dry_run`; with a claim,
/// rescans and reserves the slot under the workspace lock.
pub fn number(ws: &Workspace, req: &NumberRequest<'_>) -> Result<Numbered> {
    let dir = req.dir;
    // One look at the folder: asking "is it a folder?" and then "does it exist?" raced with a
    // concurrent claim creating it in between, and refused a folder as "not a folder".
    let found = std::fs::metadata(dir).ok();
    let existed = found.as_ref().is_some_and(std::fs::Metadata::is_dir);
    if found.is_some() && !existed {
        return Err(WorkspaceError::Refused {
            code: ErrorCode::InvalidInput,
            message: format!("`{}` exists but is not a folder.", req.typed),
            action: "Pass a folder.".to_owned(),
        });
    }
    let owner = match req.owner {
        Some(code) => Some(
            resolver::resolve(
                ws,
                &Request {
                    code: Some(code),
                    allow_closed: false,
                    bind: false,
                    context_id: None,
                    intent: Intent::Write,
                },
            )?
            .folder,
        ),
        None => None,
    };
    let mut created = false;
    let (scan, claim) = match req.claim {
        Some(rest) => {
            let lock = WorkspaceLock::of(ws, claim_wait())?;
            // A publish killed half-way is settled first: its numbers are then either all in
            // place or all free, never half claimed by it and half by this claim.
            crate::publish::recover(&ws.root, &crate::publish::workspace_journal(ws)).map_err(
                |e| WorkspaceError::Refused {
                    code: e.error.code,
                    message: e.error.message.clone(),
                    action: e.next_action(),
                },
            )?;
            if !existed {
                atomic::create_dir_all(&ws.root, dir)?;
                created = true;
            }
            let (scan, claim) = self::claim(dir, rest, owner.as_deref(), &lock)?;
            (scan, Some(claim))
        }
        None => {
            if !existed && !req.dry_run {
                atomic::create_dir_all(&ws.root, dir)?;
                created = true;
            }
            (scan(dir)?, None)
        }
    };
    Ok(Numbered {
        existed,
        created,
        scan,
        claim,
        owner,
    })
}

/// Deletes every `docs/<kind>/NNN-*` file whose bytes are still exactly a reservation marker of
/// `folder`; returns their workspace-relative paths, sorted.
pub fn release_reservations(
    ws: &Workspace,
    folder: &str,
    _held: &WorkspaceLock,
) -> Result<Vec<String>> {
    Ok(reservations_of(ws, folder)?
        .into_iter()
        .filter_map(|(rel, path)| {
            atomic::remove_file(&ws.root, &path)
                .ok()
                .filter(|removed| *removed)
                .map(|_| rel)
        })
        .collect())
}

/// The untouched reservations a session owns, as `(workspace-relative path, absolute path)`.
pub fn reservations_of(ws: &Workspace, folder: &str) -> Result<Vec<(String, PathBuf)>> {
    let docs = ws.docs_dir();
    let Ok(kinds) = std::fs::read_dir(&docs) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for kind in kinds.filter_map(|e| e.ok()) {
        let kind_path = kind.path();
        if !kind_path.is_dir() {
            continue;
        }
        let Ok(files) = std::fs::read_dir(&kind_path) else {
            continue;
        };
        for f in files.filter_map(|e| e.ok()) {
            let name = f.file_name().to_string_lossy().into_owned();
            if Correlative::of_name(&name).is_none() {
                continue;
            }
            let path = f.path();
            // A marker is one short line: never read a big document to find out it is not one.
            let small = f.metadata().is_ok_and(|m| m.is_file() && m.len() <= 512);
            if small
                && std::fs::read(&path)
                    .ok()
                    .is_some_and(|b| reservation::owner(&b) == Some(folder))
            {
                let rel = format!("docs/{}/{}", kind.file_name().to_string_lossy(), name);
                out.push((rel, path));
            }
        }
    }
    out.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn scan_counts_numbers_and_lists_all() {
        let dir = tempfile::tempdir().unwrap();
        for n in [
            "0005x.md",
            "001-spec-a.md",
            "1000-spec-x.md",
            "README.md",
            "010-dir",
        ] {
            std::fs::write(dir.path().join(n), "").unwrap();
        }
        let s = scan(dir.path()).unwrap();
        assert_eq!(s.next.padded(), "1001");
        assert_eq!(s.files[0], "0005x.md");
        assert_eq!(s.files.len(), 5);
        assert!(!scan(&dir.path().join("nope")).unwrap().exists);
    }

    #[test]
    fn claims_are_exclusive_and_reusable_by_their_owner() {
        let dir = tempfile::tempdir().unwrap();
        let lock = WorkspaceLock::acquire(
            dir.path(),
            &dir.path().join(".lock"),
            Duration::from_secs(1),
        )
        .unwrap();
        let docs = dir.path().join("specs");
        std::fs::create_dir(&docs).unwrap();
        let (_, a) = claim(&docs, "spec-a.md", Some("004-x"), &lock).unwrap();
        assert_eq!((a.number.padded(), a.reused), ("001".into(), false));
        let (_, again) = claim(&docs, "spec-a.md", Some("004-x"), &lock).unwrap();
        assert_eq!((again.number.padded(), again.reused), ("001".into(), true));
        let (_, b) = claim(&docs, "spec-a.md", Some("005-y"), &lock).unwrap();
        assert_eq!(b.number.padded(), "002");
        let (_, c) = claim(&docs, "spec-a.md", None, &lock).unwrap();
        assert_eq!(std::fs::read(&c.path).unwrap(), b"");
    }
}
